"""Attacks on the game server through its real HTTP API, one per finding of the review that
made the server safe to expose: every request comes from a stranger. (Limits: 413 and 429
are attacked in test_limits.py; secret choices in test_secret_choice_http.py; bot fairness
in test_bot_pool.py.)"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time

import pytest
from fastapi.testclient import TestClient

from starlanes.engine import derive_seed
from starlanes.server.app import create_app
from starlanes.server.store import StoreUnavailable

from .conftest import (
    Server,
    auth,
    cli_command,
    create,
    finish,
    join,
    test_config,
    view,
    wait_view,
)

GD = "galactic-domination"


def _body(game: str = GD, **extra) -> dict:
    return {"game": game, "players": 2, "seats": ["human", "human"], **extra}


def _try_first_legal(c: TestClient, gid: str, tokens: tuple[str, ...]):
    """The deciding seat's token, its view, and the answer to its first legal action."""
    tok = tokens[view(c, gid)["waiting_for"]]
    v = view(c, gid, tok)
    r = c.post(f"/api/games/{gid}/actions",
               json={"seq": v["seq"], "action": v["legal"][0]["notation"]}, headers=auth(tok))
    return tok, v, r


# ---------------------------------------------------------------------- bots by name only
def test_a_seat_spec_that_names_a_module_is_refused_and_nothing_is_imported(client):
    sys.modules.pop("this", None)
    for spec in ("this:Foo", "starlanes.agents.random_agent:RandomAgent", "mcts:seconds=86400",
                 "heuristic:odds=1", "mcts"):
        r = client.post("/api/games", json=_body(seats=["human", spec]))
        assert r.status_code == 422, (spec, r.text)
        assert "not a seat this server offers" in r.json()["error"]
        assert "mcts-hard" in r.json()["error"]  # the catalogue's names are offered
    assert "this" not in sys.modules
    assert client.get("/api/games").json()["games"] == []
    # bot parameters cannot be sent beside the seats either
    r = client.post("/api/games", json=_body(seats=["human", "mcts-hard"], bot_seconds=600))
    assert r.status_code == 422


def test_the_learned_bot_takes_a_galactic_domination_seat_and_no_other_games(client):
    """The catalogue's ``learned`` bot is made for Galactic Domination only: the lobby is
    told which games it plays, a seat of another game naming it is refused (422, nothing
    created), and in Galactic Domination it plays legal moves like any bot."""
    bots = {b["name"]: b for b in client.get("/api/catalogue").json()["bots"]}
    assert bots["learned"]["games"] == [GD] and bots["heuristic"]["games"] == []
    r = client.post("/api/games", json=_body("rift-domination", seats=["human", "learned"]))
    assert r.status_code == 422
    assert "for rift-domination" in r.json()["error"] and "learned" not in \
        r.json()["error"].split("bots")[-1]
    assert client.get("/api/games").json()["games"] == []
    gid = create(client, game=GD, seats=["learned", "learned"])
    v = wait_view(client, gid, lambda v: v["seq"] >= 12)
    assert [s["bot"] for s in v["seats"]] == ["learned", "learned"]


def test_catalogue_bots_are_offered_by_name_with_their_budget(client):
    bots = {b["name"]: b for b in client.get("/api/catalogue").json()["bots"]}
    assert {"random", "heuristic", "mcts-easy", "mcts-normal", "mcts-hard"} <= set(bots)
    assert bots["mcts-hard"]["seconds"] == 5 and "spec" not in bots["mcts-hard"]
    gid = create(client, game=GD, seats=["human", "MCTS-Easy"])
    assert view(client, gid)["seats"][1]["bot"] == "mcts-easy"


def test_a_stored_seat_that_names_no_catalogue_bot_never_runs(tmp_path, caplog):
    """A database written before bots were named (or edited by hand) may hold any spec: the
    server does not run it, and says so."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(create_app(url, bot_workers=0, config=test_config())) as c:
        gid = create(c, game=GD, seats=["human", "random"])
    from sqlalchemy import update

    from starlanes.server.store import SeatRow, Store

    with Store(url).session() as s:
        s.execute(update(SeatRow).where(SeatRow.game_id == gid, SeatRow.seat == 0)
                  .values(kind="this:Foo"))
    sys.modules.pop("this", None)
    with caplog.at_level(logging.ERROR, "starlanes.server"), \
            TestClient(create_app(url, bot_workers=0, config=test_config())) as c:
        time.sleep(0.3)
        assert view(c, gid)["seq"] == 0
    assert "this" not in sys.modules
    assert any("does not offer" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------- content packs
def test_a_content_path_reveals_nothing_about_the_file_system(client):
    answers = []
    for path in ("/etc", "/nonexistent", "/root", "..", "~", "rift-domination"):
        r = client.post("/api/games", json=_body(options={"content": path}))
        assert r.status_code == 422, r.text
        answers.append(r.json()["error"].replace(repr(path[:40]), "PATH"))
        assert "passwd" not in r.text and "does not exist" not in r.text
    assert len(set(answers)) == 1  # the same answer whether the path exists or not
    assert "no content packs" in answers[0]
    r = client.post("/api/games", json=_body(options={"content_set": ["units.x.cost=1"]}))
    assert r.status_code == 422 and "content packs by name" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_a_registered_content_pack_is_chosen_by_name_and_never_located(tmp_path):
    pack = tmp_path / "long-game"
    pack.mkdir()
    config = test_config(content_packs=[{"name": "long-game", "game": GD, "path": str(pack),
                                         "help": "the packaged content, for a test"}])
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", bot_workers=0,
                               config=config)) as c:
        packs = c.get("/api/catalogue").json()["content_packs"]
        assert packs == [{"name": "long-game", "game": GD,
                          "help": "the packaged content, for a test"}]
        gid = create(c, game=GD, seats=["human", "random"], options={"content": "long-game",
                                                                     "turn_limit": 1})
        lobby = c.get("/api/games").text
        assert "long-game" in lobby and str(tmp_path) not in lobby
        token = join(c, gid, "Ann", 0)
        finish(c, gid, token)
        record = c.get(f"/api/games/{gid}/record")
        assert record.status_code == 200
        assert record.json()["options"]["content"] == "long-game"
        assert str(tmp_path) not in record.text
        # the record replays on this server, its pack found by name
        r = c.post("/api/replay", json={"record": record.json(), "step": 1})
        assert r.status_code == 200, r.text
        other = {**record.json(), "options": {"content": "/etc"}}
        r = c.post("/api/replay", json={"record": other, "step": 0})
        assert r.status_code == 422 and "/etc" not in r.json()["error"].replace("'/etc'", "")


# ---------------------------------------------------------------------- randomness
def test_a_rematch_gets_a_fresh_secret_seed_and_only_a_seated_player_may_ask(client):
    gid = create(client, game=GD, seats=["human", "random"], options={"turn_limit": 1})
    token = join(client, gid, "Ann", 0)
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 403 and "finished" in r.json()["error"]  # not over yet
    end = finish(client, gid, token)
    r = client.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/rematch", headers=auth("x" * 32))
    assert r.status_code == 401
    service = client.app.state.service
    parent = service.live(gid).row
    seeds = set()
    for _ in range(3):
        r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
        assert r.status_code == 201
        seeds.add(service.live(r.json()["game_id"]).row.seed)
    assert len(seeds) == 3  # fresh each time, not a function of the parent
    assert derive_seed(parent.seed, "rematch", end["seq"]) >> 1 not in seeds
    assert not any(service.live(g).row.seeded for g in service.games if g != gid)


def test_no_client_learns_a_digest_or_the_seed_of_a_running_game(client):
    gid = client.post("/api/games", json=_body()).json()["id"]
    a, b = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
    seed = str(client.app.state.service.live(gid).row.seed)
    v = view(client, gid, a)
    seat = v["waiting_for"]
    tok = a if seat == 0 else b
    mine = view(client, gid, tok)
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": mine["seq"], "action": mine["legal"][0]["notation"]},
                    headers=auth(tok))
    assert r.status_code == 200 and set(r.json()) == {"applied", "seq"}
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["digest"] is None
    digest = client.app.state.service.live(gid).state.digest()
    for path in ("/api/games", f"/api/games/{gid}/view", f"/api/games/{gid}/replay",
                 f"/api/games/{gid}/layout"):
        for token in (None, a, b):
            text = client.get(path, headers=auth(token) if token else {}).text
            assert digest not in text and seed not in text, path
    assert client.get(f"/api/games/{gid}/record").status_code == 403


def test_a_creator_chosen_seed_marks_the_game(client, tmp_path):
    seeded = client.post("/api/games", json=_body(seed=5)).json()
    secret = client.post("/api/games", json=_body()).json()
    assert seeded["seeded"] and not secret["seeded"]
    lobby = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[seeded["id"]]["seeded"] and not lobby[secret["id"]]["seeded"]
    assert view(client, seeded["id"])["seeded"] and not view(client, secret["id"])["seeded"]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'n.db'}", bot_workers=0,
                               config=test_config(creator_seeds=False))) as c:
        r = c.post("/api/games", json=_body(seed=5))
        assert r.status_code == 422 and "draws every seed" in r.json()["error"]


# ---------------------------------------------------------------------- options and names
@pytest.mark.parametrize("options", [{"seed": 5}, {"players": 3}, {"content_set": []}])
def test_things_that_are_not_options_get_422(client, options):
    r = client.post("/api/games", json=_body(options=options))
    assert r.status_code == 422 and "not" in r.json()["error"]


@pytest.mark.parametrize("name", ["\x1b[2Jevil", "Ann\x07", "a\u202egnp.exe", "\x9b31m",
                                  "x" * 41, "   "])
def test_display_names_are_printable_and_bounded(client, name):
    gid = create(client, game=GD)
    r = client.post(f"/api/games/{gid}/join", json={"name": name, "seat": 0})
    assert r.status_code == 422, r.text
    assert view(client, gid)["seats"][0]["open"]


def test_a_display_name_in_any_script_is_kept(client):
    gid = create(client, game=GD)
    join(client, gid, "  Zoë   Łucja 星 ", 0)
    assert view(client, gid)["seats"][0]["name"] == "Zoë Łucja 星"


def test_undo_names_its_sequence_number_so_a_double_undo_takes_back_one(client):
    gid = create(client, game="rift-domination")
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    live = client.app.state.service.live(gid)
    for _ in range(200):  # find a decision that can be taken back
        seat = live.waiting_for()
        v = view(client, gid, tokens[seat])
        notation = v["legal"][0]["notation"]
        r = client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": notation},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200
        if view(client, gid, tokens[seat])["can_undo"]:
            break
    else:
        pytest.fail("no decision could be taken back")
    at = live.seq
    first = client.post(f"/api/games/{gid}/undo", json={"seq": at}, headers=auth(tokens[seat]))
    again = client.post(f"/api/games/{gid}/undo", json={"seq": at}, headers=auth(tokens[seat]))
    assert first.status_code == 200 and again.status_code == 409
    assert live.seq == at - 1
    assert client.post(f"/api/games/{gid}/undo", headers=auth(tokens[seat])).status_code == 422


# ---------------------------------------------------------------------- faults
def test_the_lobby_works_after_a_restart_and_a_new_game(db_url):
    """Stored times are timezone-aware on every database (the lobby sorted naive and aware
    times together and answered 500)."""
    with TestClient(create_app(db_url, bot_workers=0, config=test_config())) as c:
        create(c, game=GD)
    with TestClient(create_app(db_url, bot_workers=0, config=test_config())) as c:
        create(c, game=GD)
        r = c.get("/api/games")
        assert r.status_code == 200 and len(r.json()["games"]) == 2
        assert all(g["created"].endswith("+00:00") for g in r.json()["games"])


def test_a_write_the_database_refuses_answers_503_and_acknowledges_nothing(client, monkeypatch):
    gid = create(client, game=GD)
    a, b = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
    store = client.app.state.service.store

    def down(*_a, **_k):
        raise StoreUnavailable("the database does not answer")

    monkeypatch.setattr(store, "append_actions", down)
    monkeypatch.setattr(store, "ping", down)
    tok, v, r = _try_first_legal(client, gid, (a, b))
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"
    assert "nothing was changed" in r.json()["error"]
    assert view(client, gid, tok)["seq"] == v["seq"]
    assert client.get("/readyz").status_code == 503
    assert client.get("/healthz").status_code == 200
    monkeypatch.undo()
    assert client.get("/readyz").status_code == 200


def test_bots_resume_when_the_database_comes_back(client, monkeypatch):
    store = client.app.state.service.store
    real = store.append_actions
    refusals = []

    def flaky(actions):
        if len(refusals) < 3:
            refusals.append(len(actions))
            raise StoreUnavailable("the database does not answer")
        return real(actions)

    monkeypatch.setattr(store, "append_actions", flaky)
    gid = create(client, game=GD, seats=["random", "random"], options={"turn_limit": 3})
    deadline = time.monotonic() + 60
    while view(client, gid)["seq"] < 5:
        assert time.monotonic() < deadline, "the bots did not resume"
        time.sleep(0.05)
    assert len(refusals) == 3


def test_a_removed_sqlite_file_stops_writes_with_a_log_line(tmp_path, caplog):
    path = tmp_path / "gone.db"
    with caplog.at_level(logging.ERROR, "starlanes.server"), \
            TestClient(create_app(f"sqlite:///{path}", bot_workers=0,
                                  config=test_config())) as c:
        gid = create(c, game=GD)
        a, b = join(c, gid, "Ann", 0), join(c, gid, "Bob", 1)
        path.unlink()
        tok, v, r = _try_first_legal(c, gid, (a, b))
        assert r.status_code == 503 and "removed" in r.json()["error"]
        assert view(c, gid, tok)["seq"] == v["seq"]
        assert c.post("/api/games", json=_body()).status_code == 503
        assert c.get("/readyz").status_code == 503
    assert any("was removed while the server ran" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------------- HTTP hygiene
def test_every_answer_carries_the_security_headers(client):
    gid = create(client, game=GD)
    for path in ("/", f"/games/{gid}", "/replay", "/api/games", "/static/table.js",
                 "/api/games/nosuch/view"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"], path
        assert "script-src 'self';" in h["content-security-policy"]
        assert h["x-frame-options"] == "DENY" and h["referrer-policy"] == "no-referrer"
        assert h["x-content-type-options"] == "nosniff"


def test_a_seat_link_never_names_the_host_a_request_claims(tmp_path):
    for public, expected in ((None, "http://127.0.0.1:8000/games/"),
                             ("https://play.example.org", "https://play.example.org/games/")):
        config = test_config(public_url=public)
        with TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}", bot_workers=0,
                                   config=config)) as c:
            gid = create(c, game=GD)
            r = c.post(f"/api/games/{gid}/join", json={"name": "Ann"},
                       headers={"Host": "evil.example"})
            assert r.json()["url"].startswith(expected + gid)
            assert "evil" not in r.text


def test_a_websocket_from_another_site_is_refused(tmp_path):
    from starlette.websockets import WebSocketDisconnect

    config = test_config(public_url="https://play.example.org",
                         allowed_origins=["https://friends.example"])
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}", bot_workers=0,
                               config=config)) as c:
        gid = create(c, game=GD)
        for origin in ("https://evil.example", "http://play.example.org", "null"):
            with pytest.raises(WebSocketDisconnect) as refused, \
                    c.websocket_connect(f"/ws/games/{gid}", headers={"Origin": origin}) as ws:
                ws.receive_json()
            assert refused.value.code == 4403
        for origin in ("https://play.example.org", "https://friends.example", None):
            headers = {"Origin": origin} if origin else {}
            with c.websocket_connect(f"/ws/games/{gid}", headers=headers) as ws:
                assert ws.receive_json()["id"] == gid


def test_without_a_public_url_a_websocket_must_come_from_the_same_origin(client):
    from starlette.websockets import WebSocketDisconnect

    gid = create(client, game=GD)
    with client.websocket_connect(f"/ws/games/{gid}",
                                  headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["id"] == gid
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"/ws/games/{gid}", headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_json()


def test_the_access_log_redacts_seat_tokens(client, caplog):
    gid = create(client, game=GD)
    token = join(client, gid, "Ann", 0)
    with caplog.at_level(logging.INFO, "starlanes.access"):
        view(client, gid, token)
        with client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
            ws.receive_json()
        client.get(f"/games/{gid}?token={token}&x=1")
    lines = [r.getMessage() for r in caplog.records if r.name == "starlanes.access"]
    assert any(f"/api/games/{gid}/view 200" in line for line in lines)
    assert any("token=[redacted]&x=1" in line for line in lines)
    assert any("101" in line and "/ws/games/" in line for line in lines)
    assert not any(token in line for line in lines)


def test_serve_names_its_real_address_and_warns_beyond_loopback(tmp_path):
    """The start-up line gives the address really bound (port 0: the one chosen), and a
    server reachable from other machines without a public URL says what to set."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    proc = subprocess.Popen([*cli_command(), "serve", "--host", "0.0.0.0", "--port", "0",
                             "--db", f"sqlite:///{tmp_path / 's.db'}", "--bot-workers", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("starlanes server listening on http://0.0.0.0:"), line
        port = int(line.split("0.0.0.0:")[1].split("/")[0])
        assert port > 0 and "every interface" in line
        warning = proc.stderr.readline() + proc.stderr.readline()
        assert "no public URL" in warning and "--public-url" in warning
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_port_already_taken_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        out = subprocess.run([*cli_command(), "serve", "--port", str(port), "--db",
                              f"sqlite:///{tmp_path / 's.db'}"], capture_output=True,
                             text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert out.returncode != 0
    assert f"cannot listen on 127.0.0.1:{port}" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_bad_configuration_file_names_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('public_url = "ftp://x"\n[[bots]]\nname = "Bad Name"\nspec = "random"\n')
    out = subprocess.run([*cli_command(), "serve", "--config", str(bad), "--db",
                          f"sqlite:///{tmp_path / 's.db'}"], capture_output=True, text=True,
                         timeout=60, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "public_url" in out.stderr and "bots.0.name" in out.stderr


def test_the_server_dies_loudly_not_silently(tmp_path):
    """A fatal signal (SIGBUS from a database file gone bad) leaves the stacks on stderr."""
    server = Server(f"sqlite:///{tmp_path / 's.db'}")
    server.start()
    assert server.proc is not None
    server.proc.send_signal(signal.SIGBUS)
    server.proc.wait(20)
    assert "Fatal Python error: Bus error" in server.log()


def test_export_writes_names_from_the_network_as_escapes(tmp_path):
    """A name stored before names were checked (or written into the database by hand) may
    hold a C1 control or a bidi override: ``starlanes export`` writes it escaped, and the
    record read back holds the same name."""
    from sqlalchemy import update

    from starlanes.engine import GameRecord
    from starlanes.server.store import SeatRow, Store

    url = f"sqlite:///{tmp_path / 'e.db'}"
    with TestClient(create_app(url, bot_workers=0, config=test_config())) as c:
        gid = create(c, game=GD)
        join(c, gid, "Ann", 0)
    hostile = "Ann\u009b31m\u202egnp\x1b]52;c;eA==\x07"
    with Store(url).session() as s:
        s.execute(update(SeatRow).where(SeatRow.game_id == gid, SeatRow.seat == 0)
                  .values(name=hostile))
    out = subprocess.run([*cli_command(), "export", gid, "--db", url], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert out.returncode == 0, out.stderr
    assert not any(ch in out.stdout for ch in "\u009b\u202e\x1b\x07")
    assert GameRecord.from_json(out.stdout).seats[0] == hostile


# ---------------------------------------------------------------------- limits of the service
def test_the_server_holds_at_most_its_open_games(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_workers=0,
                               config=test_config(limits={"open_games": 2}))) as c:
        assert c.post("/api/games", json=_body()).status_code == 201
        assert c.post("/api/games", json=_body()).status_code == 201
        r = c.post("/api/games", json=_body())
        assert r.status_code == 429 and r.headers["Retry-After"] == "60"
        assert "most unfinished games (2)" in r.json()["error"]
        assert len(c.get("/api/games").json()["games"]) == 2


def test_a_turn_clock_longer_than_the_server_allows_is_refused(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                               config=test_config(limits={"max_clock_seconds": 600}))) as c:
        for clock in (601, 1e300, -1):
            r = c.post("/api/games", json=_body(clock_seconds=clock))
            assert r.status_code == 422, (clock, r.text)
        assert c.post("/api/games", json=_body(clock_seconds=600)).status_code == 201


def test_a_game_whose_bots_spent_their_budget_gets_the_quick_fallback(tmp_path, monkeypatch):
    """Each game's bots may think ``bot_seconds_per_game`` in all; past it the heuristic
    plays for them at once, so one game cannot keep a worker busy for ever."""
    config = test_config(limits={"bot_seconds_per_game": 0.5},
                         bots=[{"name": "slow", "spec": "mcts:iterations=30", "seconds": 3}])
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", bot_workers=0,
                               config=config)) as c:
        pool = c.app.state.service.bots
        real = pool.move
        jobs = []

        async def spy(job):
            jobs.append((job.spec, job.seconds))
            if job.spec != "heuristic":
                import asyncio

                await asyncio.sleep(0.6)  # as if it thought that long: past the budget
            return await real(job)

        monkeypatch.setattr(pool, "move", spy)
        gid = create(c, game=GD, seats=["slow", "slow"])
        deadline = time.monotonic() + 60
        while view(c, gid)["seq"] < 6:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert jobs[0] == ("mcts:iterations=30", 3)
    assert set(jobs[1:]) == {("heuristic", 0.0)}


def test_a_client_whose_bots_spent_its_hour_gets_the_quick_fallback(tmp_path, monkeypatch):
    """The bots of all games one client created share ``bot_seconds_per_client_hour``: a
    client that creates game after game of the slowest bot gets the quick fallback once
    its hour is spent, while another client's bots still think."""
    config = test_config(limits={"bot_seconds_per_client_hour": 0.5},
                         bots=[{"name": "slow", "spec": "mcts:iterations=30", "seconds": 3}],
                         trusted_proxies=["127.0.0.1/32"])
    app = create_app(f"sqlite:///{tmp_path / 'c.db'}", bot_workers=0, config=config)
    with TestClient(app, client=("127.0.0.1", 5000)) as c:
        pool = c.app.state.service.bots
        real = pool.move
        jobs: list[tuple[str, str, str]] = []

        async def spy(job):
            jobs.append((job.owner, job.key, job.spec))
            if job.spec != "heuristic":
                import asyncio

                await asyncio.sleep(0.6)  # as if it thought that long: past the hour's budget
            return await real(job)

        monkeypatch.setattr(pool, "move", spy)

        def made_by(address: str) -> str:
            r = c.post("/api/games", json={"game": GD, "seats": ["slow", "slow"]},
                       headers={"X-Forwarded-For": address})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            deadline = time.monotonic() + 60
            while view(c, gid)["seq"] < 4:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            return gid

        first, second = made_by("198.51.100.7"), made_by("198.51.100.7")
        other = made_by("198.51.100.8")
    slow = [(owner, key) for owner, key, spec in jobs if spec != "heuristic"]
    assert slow[0] == ("198.51.100.7", first)  # the first move thought, and spent the hour
    assert ("198.51.100.7", second) not in slow  # the same client's next game: no search
    assert ("198.51.100.8", other) in slow  # another client's bots still think


def test_every_refusal_says_why_in_the_same_shape(tmp_path):
    """A path nothing serves, a method a path does not take, a body that is not JSON and a
    request outside the schema are answered like the server's own refusals: a reason in
    words under ``error`` (and for a request outside the schema each problem under
    ``detail``)."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", bot_workers=0,
                               config=test_config())) as c:
        r = c.get("/api/no-such-thing")
        assert r.status_code == 404 and r.json() == {
            "error": "nothing is served at /api/no-such-thing"}
        r = c.put("/api/games")
        assert r.status_code == 405 and "allow" in r.headers
        assert r.json()["error"].startswith("PUT is not allowed at this path (allowed: GET")
        r = c.post("/api/games", content=b"{", headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["error"] == "the body is not valid JSON"
        r = c.post("/api/games", json={"game": GD, "seats": ["human"], "colour": "red"})
        assert r.status_code == 422
        assert r.json()["error"] == "colour: Extra inputs are not permitted"
        assert r.json()["detail"][0]["loc"] == ["body", "colour"]
