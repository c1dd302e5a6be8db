"""A seat's way out of a game through the HTTP API: resign (two and three players), abort
before the seat's first decision, draw offers (offer, accept, decline, withdrawn by a move,
kept over a restart), every refusal changing nothing, ratings (an abort moves nobody, a
resignation is a loss) and the result labelled for what it is in the view, the game
record and the players' profiles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from starlanes.engine import GameRecord
from starlanes.server.app import create_app
from starlanes.server.outcomes import timeout_outcome
from starlanes.server.store import GameRow

from .conftest import auth, create, join, test_config, view
from .test_ratings import GAME, accounts, make_app, rated_count, table


def _app(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", bot_workers=0, config=test_config()))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "endings.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with _app(db) as c:
        yield c


def humans(client: TestClient, n: int = 2, game: str = "rift-domination",
           names: tuple[str, ...] = ("Ann", "Bob", "Cyd")) -> tuple[str, list[str]]:
    gid = create(client, game, seats=["human"] * n)
    return gid, [join(client, gid, names[i], i) for i in range(n)]


def move(client: TestClient, gid: str, tokens: list[str]) -> int:
    """The seat deciding plays its last legal action; returns that seat."""
    seat = view(client, gid)["waiting_for"]
    mine = view(client, gid, tokens[seat])
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": mine["seq"], "action": mine["legal"][-1]["notation"]},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    return seat


def both_move(client: TestClient, gid: str, tokens: list[str]) -> None:
    """Play until every seat has made a decision of its own (a rated game in which a seat
    never decided counts for nobody)."""
    movers: set[int] = set()
    for _ in range(500):
        if len(movers) == len(tokens):
            return
        movers.add(move(client, gid, tokens))
    raise AssertionError("a seat never came to decide")


def post(client: TestClient, gid: str, what: str, token: str | None,
         answer: str | None = None) -> Any:
    body = None if answer is None else {"answer": answer}
    return client.post(f"/api/games/{gid}/{what}", json=body,
                       headers=auth(token) if token else {})


def stored(client: TestClient, gid: str) -> GameRow:
    row = client.app.state.service.store.game(gid)
    assert row is not None
    return row


def refused(r: Any, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()


# ---------------------------------------------------------------------- resign
def test_resign_two_players_labels_view_and_record(client) -> None:
    gid, tokens = humans(client)
    move(client, gid, tokens)
    refused(post(client, gid, "resign", None), 401, "no seat token")
    refused(post(client, gid, "resign", "not-a-token"), 401, "belongs to no seat")
    assert view(client, gid)["result"] is None  # the refusals changed nothing
    before = view(client, gid, tokens[1])
    assert before["can_resign"] and before["ended"] is None
    r = post(client, gid, "resign", tokens[1])
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] == {"reason": "resign", "loser": 1, "ranks": [0, 1]}
    v = view(client, gid, tokens[0])
    label = v["seats"][1]["label"]
    assert "Bob" in label
    assert v["result"]["end_reason"] == f"{label} resigned"
    assert v["result"]["winners"] == [0]
    assert v["result"]["results"] == ["won", "resigned"]
    assert not v["can_resign"] and not v["can_abort"] and not v["can_offer_draw"]
    assert v["ended"] and v["waiting_for"] is None
    row = stored(client, gid)
    assert row.outcome["reason"] == "resign" and row.ended is not None
    # the game is over: a second resignation, a move, an abort are refused
    refused(post(client, gid, "resign", tokens[0]), 403, "the game is over")
    refused(post(client, gid, "abort", tokens[0]), 403, "the game is over")
    r = client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": "pass"},
                    headers=auth(tokens[0]))
    refused(r, 403, "the game is over")
    assert stored(client, gid).outcome == row.outcome
    # the record says how it ended, and still replays
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    record = GameRecord.from_json(r.text)
    assert record.outcome == {"reason": "resign", "loser": 1, "ranks": [0, 1]}
    assert not record.finished  # the rules did not end it
    replayed = client.post("/api/replay", json={"record": r.json(), "step": len(record.actions)})
    assert replayed.status_code == 200, replayed.text


def test_resign_in_a_three_player_game_ends_it_placing_the_others_by_score(client) -> None:
    gid, tokens = humans(client, 3)
    for _ in range(4):
        move(client, gid, tokens)
    scores = view(client, gid)["scores"]
    r = post(client, gid, "resign", tokens[0])
    assert r.status_code == 200, r.text
    ranks = r.json()["outcome"]["ranks"]
    assert ranks[0] == 2  # the resigner last
    if scores[1] == scores[2]:
        assert ranks[1] == ranks[2] == 0
    else:
        better = 1 if scores[1] > scores[2] else 2
        assert ranks[better] == 0 and ranks[3 - better] == 1
    v = view(client, gid)
    assert v["result"]["results"][0] == "resigned" and 0 not in v["result"]["winners"]
    assert v["result"]["end_reason"].endswith("resigned")
    assert all(not view(client, gid, t)["can_resign"] for t in tokens)


# ---------------------------------------------------------------------- abort
def test_abort_before_the_first_decision_and_refused_after_it(client) -> None:
    gid, tokens = humans(client)
    assert view(client, gid, tokens[0])["can_abort"] and view(client, gid, tokens[1])["can_abort"]
    assert not view(client, gid)["can_abort"]  # a spectator
    mover = move(client, gid, tokens)
    other = 1 - mover
    assert not view(client, gid, tokens[mover])["can_abort"]
    refused(post(client, gid, "abort", tokens[mover]), 403, "before your first decision")
    assert view(client, gid)["result"] is None and stored(client, gid).outcome is None
    assert view(client, gid, tokens[other])["can_abort"]
    r = post(client, gid, "abort", tokens[other])
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] == {"reason": "abort", "by": other, "ranks": None}
    v = view(client, gid, tokens[mover])
    label = v["seats"][other]["label"]
    assert v["result"]["end_reason"] == f"aborted by {label} before they moved"
    assert v["result"]["winners"] == [] and v["result"]["results"] == ["", ""]
    assert not v["can_abort"] and v["ended"]


def test_an_undone_first_decision_is_not_a_move_and_withdraws_an_offer(client) -> None:
    gid, tokens = humans(client, game="galactic-empires")
    seat = view(client, gid)["waiting_for"]
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": "done"},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    v = view(client, gid, tokens[seat])
    assert v["can_undo"] and not v["can_abort"]
    # an offer made meanwhile is withdrawn by the undo: the position it was made at is gone
    assert post(client, gid, "draw", tokens[1 - seat], "offer").status_code == 200
    r = client.post(f"/api/games/{gid}/undo", json={"seq": v["seq"]}, headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    after = view(client, gid, tokens[seat])
    assert after["can_abort"] and after["draw_offer"] is None
    assert stored(client, gid).draw_offer is None


# ---------------------------------------------------------------------- draws
def test_draw_offer_decline_withdrawal_and_accept(db: Path) -> None:
    with _app(db) as client:
        gid, tokens = humans(client)
        r = post(client, gid, "draw", tokens[0], "offer")
        assert r.status_code == 200, r.text
        assert r.json() == {"draw_offer": {"seat": 0, "seq": 0}, "outcome": None}
        label = view(client, gid)["seats"][0]["label"]
        for who in (None, tokens[0], tokens[1]):  # everyone sees who offered
            assert view(client, gid, who)["draw_offer"] == {"seat": 0, "label": label}
        assert not view(client, gid, tokens[1])["can_offer_draw"]
        refused(post(client, gid, "draw", tokens[0], "offer"), 409, "offered a draw already")
        refused(post(client, gid, "draw", tokens[1], "offer"), 409, "has offered you a draw")
        refused(post(client, gid, "draw", tokens[0], "accept"), 403, "your own")
        refused(post(client, gid, "draw", tokens[0], "decline"), 403, "your own")
        refused(post(client, gid, "draw", tokens[1], "maybe"), 422, "answer")
        refused(post(client, gid, "draw", None, "accept"), 401, "no seat token")
        assert stored(client, gid).draw_offer == {"seat": 0, "seq": 0}
    with _app(db) as client:  # the offer is stored: it stands after a restart
        assert view(client, gid, tokens[1])["draw_offer"]["seat"] == 0
        r = post(client, gid, "draw", tokens[1], "decline")
        assert r.status_code == 200, r.text
        assert r.json() == {"draw_offer": None, "outcome": None}
        assert view(client, gid)["draw_offer"] is None and stored(client, gid).draw_offer is None
        refused(post(client, gid, "draw", tokens[0], "accept"), 409, "no draw offer stands")
        # a move made after an offer withdraws it (in the store too)
        assert post(client, gid, "draw", tokens[1], "offer").status_code == 200
        move(client, gid, tokens)
        assert view(client, gid, tokens[0])["draw_offer"] is None
        assert stored(client, gid).draw_offer is None
        refused(post(client, gid, "draw", tokens[0], "accept"), 409, "no draw offer stands")
        assert view(client, gid)["result"] is None
        # offered again and accepted: drawn, nobody won
        seq = view(client, gid)["seq"]
        r = post(client, gid, "draw", tokens[1], "offer")
        assert r.json()["draw_offer"] == {"seat": 1, "seq": seq}
        r = post(client, gid, "draw", tokens[0], "accept")
        assert r.status_code == 200, r.text
        assert r.json()["outcome"] == {"reason": "draw", "ranks": [0, 0]}
        v = view(client, gid, tokens[1])
        assert v["result"]["end_reason"] == "drawn by agreement"
        assert v["result"]["winners"] == [] and v["result"]["results"] == ["draw", "draw"]
        assert v["draw_offer"] is None and stored(client, gid).draw_offer is None
        refused(post(client, gid, "draw", tokens[1], "offer"), 403, "the game is over")
        record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").text)
        assert record.outcome == {"reason": "draw", "ranks": [0, 0]}


def test_draw_offer_refusals_change_nothing(client) -> None:
    gid3, tokens3 = humans(client, 3)
    refused(post(client, gid3, "draw", tokens3[0], "offer"), 422, "two-player games")
    refused(post(client, gid3, "draw", tokens3[1], "accept"), 422, "two-player games")
    bot = create(client, seats=["human", "random"])
    token = join(client, bot, "Ann", 0)
    refused(post(client, bot, "draw", token, "offer"), 422, "bots do not answer")
    assert not view(client, bot, token)["can_offer_draw"]
    half = create(client, seats=["human", "human"])
    token = join(client, half, "Ann", 0)
    refused(post(client, half, "draw", token, "offer"), 403, "not taken yet")
    for gid in (gid3, bot, half):
        assert stored(client, gid).draw_offer is None and view(client, gid)["draw_offer"] is None
        assert view(client, gid)["result"] is None


# ---------------------------------------------------------------------- ratings, profiles
def seat_game(client: TestClient, seats: list[int]) -> tuple[str, list[str]]:
    """A rated game (with a clock long enough to be rated) whose seats are held by the
    accounts ``seats``; returns its id and the seat tokens."""
    service = client.app.state.service

    async def go() -> tuple[str, list[str]]:
        live = await service.create(GAME, len(seats), ["human"] * len(seats), {},
                                    rated=True, clock_seconds=3600, clock_kind="game")
        tokens = []
        for i, account in enumerate(seats):
            _, token = await service.join(live.id, f"player {i}", i, account_id=account)
            tokens.append(token)
        return live.id, tokens

    return client.portal.call(go)


def _settle(client: TestClient) -> None:
    client.portal.call(client.app.state.community.ratings.settle)


def test_rated_abort_moves_nobody_and_resign_is_a_loss(tmp_path: Path) -> None:
    with TestClient(make_app(f"sqlite:///{tmp_path / 'rated.db'}")) as client:
        ann, bob = accounts(client, "Ann", "Bob")
        aborted, tokens = seat_game(client, [ann, bob])
        r = post(client, aborted, "abort", tokens[1])
        assert r.status_code == 200, r.text
        _settle(client)
        assert rated_count(client) == 0 and table(client) == {}
        resigned, tokens = seat_game(client, [ann, bob])
        both_move(client, resigned, tokens)
        assert post(client, resigned, "resign", tokens[0]).status_code == 200
        _settle(client)
        assert rated_count(client) == 1
        ratings = client.app.state.community.ratings
        winner, loser = ratings.rating(f"a:{bob}", GAME), ratings.rating(f"a:{ann}", GAME)
        assert winner["games"] == loser["games"] == 1
        assert winner["mu"] > 25 > loser["mu"]
        drawn, tokens = seat_game(client, [ann, bob])
        both_move(client, drawn, tokens)
        assert post(client, drawn, "draw", tokens[0], "offer").status_code == 200
        assert post(client, drawn, "draw", tokens[1], "accept").status_code == 200
        timed, tokens = seat_game(client, [ann, bob])
        both_move(client, timed, tokens)
        service = client.app.state.service
        live = service.games[timed]
        assert client.portal.call(service.end_game, live, timeout_outcome(live, 1), live.seq)
        _settle(client)
        assert rated_count(client) == 3  # the draw and the loss on time are rated
        profile = client.get("/api/players/Ann").json()
        words = {g["id"]: (g["result"], g["place"]) for g in profile["finished"]}
        assert words == {aborted: ("aborted", None), resigned: ("resigned", 2),
                         drawn: ("drawn", 1), timed: ("won", 1)}
        bob_words = {g["id"]: g["result"] for g in client.get("/api/players/Bob").json()[
            "finished"]}
        assert bob_words == {aborted: "aborted", resigned: "won", drawn: "drawn",
                             timed: "lost on time"}
        # aborted games count for nobody in the recent run
        assert profile["recent"]["games"] == 3 and profile["recent"]["wins"] == 1
        v = view(client, timed)
        assert v["result"]["end_reason"] == f"{v['seats'][1]['label']} ran out of time"
        assert v["result"]["results"] == ["won", "lost on time"]


def test_expired_and_adjudicated_are_labelled(client) -> None:
    service = client.app.state.service
    gid = create(client, seats=["human", "human"])
    live = service.games[gid]
    assert client.portal.call(service.end_game, live, {"reason": "expired", "ranks": None}, 0)
    result = view(client, gid)["result"]
    assert result["end_reason"] == "aborted: nobody took the seats"
    assert result["winners"] == [] and result["results"] == ["", ""]
    assert not client.portal.call(service.end_game, live, {"reason": "abort", "ranks": None})
    gid, tokens = humans(client)
    move(client, gid, tokens)
    live = service.games[gid]
    outcome = {"reason": "adjudicated", "detail": "idle for three days, decided by the score",
               "ranks": [0, 1]}
    assert not client.portal.call(service.end_game, live, outcome, live.seq - 1)  # moved
    assert client.portal.call(service.end_game, live, outcome, live.seq)
    result = view(client, gid, tokens[0])["result"]
    assert result["end_reason"] == "adjudicated: idle for three days, decided by the score"
    assert result["winners"] == [0] and result["results"] == ["won", "lost"]


# ---------------------------------------------------------------------- several processes
def test_an_ending_and_a_draw_offer_on_one_process_are_seen_on_another() -> None:
    """Two web processes on one PostgreSQL and one Redis (``serve --redis``): a draw
    offered through one is seen, declined and answered through the other, and a
    resignation through one ends the game on both."""
    pytest.importorskip("redis")
    from starlanes.server.store import upgrade

    from .conftest import drop_postgres, postgres_url
    from .test_scale_cluster import RedisServer

    url = postgres_url()
    if url is None:
        pytest.skip("no PostgreSQL reachable")
    redis_server = RedisServer()
    try:
        redis_server.start()
    except (OSError, AssertionError):
        pytest.skip("no redis-server to start")
    try:
        upgrade(url)
        apps = [create_app(url, config=test_config(), redis_url=redis_server.url)
                for _ in range(2)]
        with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
            gid, tokens = humans(one)
            assert post(two, gid, "draw", tokens[0], "offer").status_code == 200
            assert view(one, gid, tokens[1])["draw_offer"]["seat"] == 0
            assert post(one, gid, "draw", tokens[1], "decline").status_code == 200
            assert view(two, gid)["draw_offer"] is None
            refused(post(two, gid, "draw", tokens[1], "accept"), 409, "no draw offer")
            assert post(one, gid, "resign", tokens[0]).status_code == 200
            v = view(two, gid, tokens[1])
            assert v["result"]["end_reason"].endswith("(Ann) resigned")
            refused(post(two, gid, "abort", tokens[1]), 403, "the game is over")
    finally:
        redis_server.stop()
        drop_postgres(url)


def test_first_place_shared_by_the_rules_reads_as_a_draw() -> None:
    """A Galactic Empires game abandoned at its turn cap is a draw between the players
    still in: they read "draw", not "won"; an eliminated player lost."""
    from starlanes.server.community.profiles import result_word
    from starlanes.server.views import seat_results

    class Live:
        seats = [object()] * 4

    assert seat_results(Live(), None, [0, 2]) == ["draw", "lost", "draw", "lost"]  # type: ignore[arg-type]
    assert seat_results(Live(), None, [1]) == ["lost", "won", "lost", "lost"]  # type: ignore[arg-type]
    assert [result_word(None, [0, 2, 0, 2], s) for s in range(4)] == [
        "drawn", "lost", "drawn", "lost"]
    assert result_word(None, [1, 0], 1) == "won"
