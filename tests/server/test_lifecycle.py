"""The life cycle of games through the real app (docs/community/lifecycle.md): open seats
that expire, idle games ended by the written rule, bot-only games played on after a
restart, and finished games archived out of memory and read back when opened.

The sweep's clock is the test's (``app.state.lifecycle.clock``, epoch seconds); the times
of stored moves are the real ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from starlanes.server.app import create_app
from starlanes.server.store import GameRow, SeatRow, Store, upgrade

from .conftest import auth, create, join, test_config, view, wait_view

HOUR = 3600.0


def serve(url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(url, bot_workers=0, config=test_config(limits=limits)))


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'life.db'}"


@pytest.fixture
def client(url) -> Iterator[TestClient]:
    with serve(url) as c:
        yield c


def sweep(client: TestClient, at: float) -> list[tuple[str, str]]:
    """Run the life-cycle sweep once as if it were ``at`` (epoch seconds)."""
    lifecycle = client.app.state.lifecycle  # type: ignore[attr-defined]
    lifecycle.clock = lambda: at
    return client.portal.call(lifecycle.sweep)  # type: ignore[union-attr]


def created_at(client: TestClient, game_id: str) -> float:
    return client.app.state.service.store.game(game_id).created.timestamp()  # type: ignore[attr-defined]


def seated(client: TestClient, **extra: Any) -> tuple[str, list[str]]:
    """A two-player game with both seats taken: its id and the seats' tokens."""
    gid = create(client, **extra)
    return gid, [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]


def move(client: TestClient, game_id: str, tokens: list[str]) -> None:
    """The seat the game waits for makes its first legal decision."""
    seat = view(client, game_id)["waiting_for"]
    mine = view(client, game_id, tokens[seat])
    r = client.post(f"/api/games/{game_id}/actions", headers=auth(tokens[seat]),
                    json={"seq": mine["seq"], "action": mine["legal"][0]["notation"]})
    assert r.status_code == 200, r.text


def outcome(client: TestClient, game_id: str) -> dict[str, Any]:
    result = view(client, game_id)["result"]
    assert result is not None
    return result["outcome"]


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- open seats
def test_a_game_whose_seats_were_never_taken_expires_after_an_hour(client):
    gid = create(client)
    join(client, gid, "Ann", 0)  # one seat taken, the other never
    start = created_at(client, gid)
    assert sweep(client, start + 59 * 60) == []
    assert view(client, gid)["result"] is None
    assert sweep(client, start + HOUR + 1) == [(gid, "expired")]
    assert outcome(client, gid) == {"reason": "expired", "ranks": None}
    assert gid not in service(client).games
    entry = next(g for g in client.get("/api/games").json()["games"] if g["id"] == gid)
    assert entry["status"] == "finished"
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    r = client.post(f"/api/games/{gid}/join", json={"name": "Late", "seat": 1})
    assert r.status_code == 403 and "this game is over" in r.json()["error"]


# ---------------------------------------------------------------------- idle games
def test_an_idle_game_without_a_clock_is_adjudicated_by_the_written_rule(client):
    untouched, _ = seated(client)
    played, tokens = seated(client)
    move(client, played, tokens)
    now = time.time()
    assert sweep(client, now + 71 * HOUR) == []
    ended = dict(sweep(client, now + 72 * HOUR + 10))
    assert ended == {untouched: "adjudicated", played: "adjudicated"}
    nobody = outcome(client, untouched)
    assert nobody["ranks"] is None and "no player moved in 3 days" in nobody["detail"]
    scored = outcome(client, played)
    scores = view(client, played)["scores"]
    assert scored["ranks"] == [sum(1 for o in scores if o > s) for s in scores]
    assert "placed by the scores" in scored["detail"]


def test_a_move_keeps_a_game_from_being_idle(client):
    gid, tokens = seated(client)
    move(client, gid, tokens)
    assert sweep(client, time.time() + 70 * HOUR) == []
    move(client, gid, tokens)  # a human move resets the idle time: it is now
    assert sweep(client, time.time() + 71 * HOUR) == []
    assert view(client, gid)["result"] is None


def test_an_idle_clocked_game_is_decided_by_its_clock_even_after_a_restart(url):
    five_days = 5 * 24 * HOUR
    with serve(url) as c:
        gid, _ = seated(c, clock_seconds=five_days)
        waiting = view(c, gid)["waiting_for"]
        start = created_at(c, gid)
    with serve(url) as c:  # a restart: the clock's first decision starts again ...
        assert gid in service(c).games
        # ... but the idle limit (never less than the clock allows) counts stored times
        assert sweep(c, start + 4 * 24 * HOUR) == []
        assert sweep(c, start + five_days + 10) == [(gid, "timeout")]
        decided = outcome(c, gid)
        assert decided["loser"] == waiting and decided["ranks"][waiting] == 1


# ---------------------------------------------------------------------- bot-only games
def stored_bot_game(url: str, bots: list[str], game_id: str = "botsonly") -> str:
    """A bot-only game written to the database as a server stopped before it moved."""
    upgrade(url)
    store = Store(url)
    store.create_game(GameRow(id=game_id, game="rift-domination", players=len(bots),
                              seed=11, options={}),
                      [SeatRow(game_id=game_id, seat=i, kind=b, name=f"bot {b}")
                       for i, b in enumerate(bots)])
    store.engine.dispose()
    return game_id


def test_a_stored_bot_only_game_is_played_to_its_end_after_a_restart(url):
    gid = stored_bot_game(url, ["random", "random"])
    with serve(url) as c:
        final = wait_view(c, gid, lambda v: v["result"] is not None, timeout=120)
        assert final["seq"] > 0 and "outcome" not in final["result"]
        wait_view(c, gid, lambda v: gid not in service(c).games)
        assert service(c).store.game(gid).ended is not None


def test_a_bot_only_game_nothing_can_move_is_aborted_when_idle(url):
    gid = stored_bot_game(url, ["no-such-bot", "random"])
    with serve(url) as c:
        assert sweep(c, time.time() + 71 * HOUR) == []
        assert sweep(c, time.time() + 72 * HOUR + 10) == [(gid, "abort")]
        assert outcome(c, gid) == {"reason": "abort", "by": None, "ranks": None}


# ---------------------------------------------------------------------- archiving
def abort(client: TestClient, game_id: str) -> None:
    svc = service(client)
    assert client.portal.call(svc.end_game, svc.games[game_id],
                              {"reason": "abort", "by": None, "ranks": None})


def test_finished_games_leave_memory_and_are_read_back_when_opened(url, monkeypatch):
    with serve(url) as c:
        done = [create(c) for _ in range(3)]
        going = create(c)
        for gid in done:
            abort(c, gid)
        assert set(service(c).games) == {going}
    read: list[str] = []
    original = Store.actions

    def actions(self: Store, game_id: str) -> Any:
        read.append(game_id)
        return original(self, game_id)

    monkeypatch.setattr(Store, "actions", actions)
    with serve(url, lobby_finished_games=2, finished_games_kept=2) as c:
        assert read == [going]  # start-up replays no finished game
        assert set(service(c).games) == {going} and len(service(c).finished) == 0
        lobby = c.get("/api/games").json()["games"]
        assert [g["id"] for g in lobby] == [going, done[2], done[1]]
        assert [g["status"] for g in lobby] == ["open", "finished", "finished"]
        # opened: read from the database (in a thread), replayed, kept (at most two)
        for gid in done:
            assert view(c, gid)["result"]["outcome"]["reason"] == "abort"
            assert c.get(f"/api/games/{gid}/replay").status_code == 200
        assert c.get(f"/api/games/{done[0]}/record").status_code == 200
        assert len(service(c).finished) == 2 and set(service(c).games) == {going}
        assert c.get("/api/games/nosuchgame/view").status_code == 404
        assert c.get(f"/api/games/{'x' * 200}/view").status_code == 404


def test_a_game_its_rules_ended_without_a_stamp_is_stamped_at_start(url):
    gid = stored_bot_game(url, ["random", "random"])
    with serve(url) as c:
        wait_view(c, gid, lambda v: v["result"] is not None, timeout=120)
        wait_view(c, gid, lambda v: service(c).store.game(gid).ended is not None)
    store = Store(url)
    with store.session() as s:
        s.get(GameRow, gid).ended = None
    store.engine.dispose()
    with serve(url) as c:
        assert gid not in service(c).games
        wait_view(c, gid, lambda v: service(c).store.game(gid).ended is not None)
        assert view(c, gid)["result"] is not None


def test_memory_does_not_grow_with_the_games_played(url):
    with serve(url, finished_games_kept=3, lobby_finished_games=4) as c:
        ids = [create(c) for _ in range(12)]
        for gid in ids:
            with c.websocket_connect(f"/ws/games/{gid}") as ws:
                ws.receive_json()
            abort(c, gid)
            assert c.get(f"/api/games/{gid}/view").status_code == 200
        sweep(c, time.time())
        svc = service(c)
        assert svc.games == {} and len(svc.finished) == 3
        assert svc.subscribers == {}
        assert len([g for g in c.get("/api/games").json()["games"]]) == 4


# ---------------------------------------------------------------------- several processes
def test_a_game_another_process_ended_leaves_this_ones_memory(tmp_path):
    """Two web processes of one deployment (``--redis``): process A ends a game; process
    B, which held it, takes the end at its next sweep and archives it."""
    redis = pytest.importorskip("redis")
    from .test_shared_limits import REDIS

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"no Redis answers at {REDIS} ({type(e).__name__})")
    url = f"sqlite:///{tmp_path / 'two.db'}"
    upgrade(url)

    def process() -> TestClient:
        return TestClient(create_app(url, bot_workers=0, config=test_config(),
                                     redis_url=REDIS))

    with process() as a, process() as b:
        gid = create(a)
        assert view(b, gid)["result"] is None and gid in service(b).games
        abort(a, gid)
        sweep(b, time.time())
        assert gid not in service(b).games
        assert view(b, gid)["result"]["outcome"]["reason"] == "abort"
