"""Turn clocks through the API: what the view shows, whole-game clocks with increments worked
out from the stored action times, a restart, both kinds of timeout, settings refused."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from starlanes.engine import GameRecord
from starlanes.server import outcomes
from starlanes.server.app import create_app
from starlanes.server.store import ActionRow

from .conftest import auth, create, join, test_config, view, wait_view


def _app(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", bot_workers=0, config=test_config()))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "clocks.db"


@pytest.fixture
def app_client(db: Path) -> Iterator[TestClient]:
    with _app(db) as c:
        yield c


def _play(client: TestClient, gid: str, tokens: list[str]) -> int:
    """The seat deciding plays its last legal action; returns that seat."""
    v = view(client, gid)
    seat = v["waiting_for"]
    mine = view(client, gid, tokens[seat])
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": mine["seq"], "action": mine["legal"][-1]["notation"]},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    return seat


def _two_humans(client: TestClient, **clock) -> tuple[str, list[str]]:
    gid = create(client, seats=["human", "human"], **clock)
    return gid, [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]


# ---------------------------------------------------------------------- what the view shows
def test_the_view_shows_the_clocks_and_the_running_one_counts(app_client, fake):
    gid, tokens = _two_humans(app_client, clock_seconds=600, clock_kind="game",
                              clock_increment=5)
    c = view(app_client, gid)["clocks"]
    first = c["running"]
    assert c["kind"] == "game" and c["increment"] == 5 and c["timeout"] == "bot"
    assert first == view(app_client, gid)["waiting_for"]
    assert c["remaining"] == [600, 600] and c["counted"] == [False, False]
    assert c["server_time"] == pytest.approx(fake.now)
    fake.now += 12.5
    c = view(app_client, gid, tokens[0])["clocks"]
    assert c["remaining"][first] == pytest.approx(587.5)
    assert c["remaining"][1 - first] == 600
    # a seat's first decision is not taken from its time; the increment still comes
    assert _play(app_client, gid, tokens) == first
    c = view(app_client, gid)["clocks"]
    assert c["remaining"][first] == pytest.approx(605) and c["counted"][first]


def test_no_clock_no_clocks_and_bots_have_none(app_client):
    assert view(app_client, create(app_client))["clocks"] is None
    gid = create(app_client, seats=["human", "heuristic"], clock_seconds=60)
    join(app_client, gid, "Ann", 0)
    assert view(app_client, gid)["clocks"]["remaining"][1] is None


def test_no_clock_runs_while_a_seat_is_open(app_client):
    gid = create(app_client, seats=["human", "human"], clock_seconds=0.2, timeout="lose")
    join(app_client, gid, "Ann", 0)
    c = view(app_client, gid)["clocks"]
    assert c["running"] is None
    time.sleep(0.4)  # longer than the clock: nothing may happen to the waiting game
    v = view(app_client, gid)
    assert v["result"] is None and v["seq"] == 0


# ---------------------------------------------------------------------- stored times
def test_a_game_clock_with_increment_comes_from_the_stored_times_after_a_restart(db, fake):
    total, inc = 300.0, 2.0
    with _app(db) as client:
        gid, tokens = _two_humans(client, clock_seconds=total, clock_kind="game",
                                  clock_increment=inc)
        seats = [_play(client, gid, tokens) for _ in range(6)]
        assert all(seats.count(s) >= 2 for s in (0, 1)), seats
        waiting = view(client, gid)["waiting_for"]
        turn_of = list(client.app.state.service.games[gid].turns)
    # the stored times say: action k took 10 * (k + 1) seconds
    base = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    stamps, at = [], base
    for k in range(len(seats)):
        at += dt.timedelta(seconds=10 * (k + 1))
        stamps.append(at)
    with _app(db) as client:
        store = client.app.state.service.store
        with store.session() as s:
            for k, stamp in enumerate(stamps):
                s.execute(update(ActionRow).where(ActionRow.game_id == gid,
                                                  ActionRow.seq == k).values(at=stamp))
    fake.now = stamps[-1].timestamp() + 7.0
    expected = []
    for seat in (0, 1):
        mine = [k for k, s in enumerate(seats) if s == seat]
        spent = sum(10 * (k + 1) for k in mine[1:])  # the first decision is free
        turns = {turn_of[k] for k in mine}  # one increment per game turn decided in
        expected.append(total + inc * len(turns) - spent)
    expected[waiting] -= 7.0  # its clock has run 7 s since the last action
    with _app(db) as client:
        c = view(client, gid)["clocks"]
    assert c["running"] == waiting
    assert c["remaining"] == pytest.approx(expected)


def test_a_move_clock_runs_on_from_the_last_stored_action_after_a_restart(db, fake):
    with _app(db) as client:
        gid, tokens = _two_humans(client, clock_seconds=600)
        seats: list[int] = []
        while not seats or view(client, gid)["waiting_for"] not in seats:
            seats.append(_play(client, gid, tokens))
        waiting = view(client, gid)["waiting_for"]
        last = client.app.state.service.store.actions(gid)[-1].at
    fake.now = last.timestamp() + 100.0
    with _app(db) as client:
        c = view(client, gid)["clocks"]
    assert c["kind"] == "move" and c["running"] == waiting
    assert c["remaining"][waiting] == pytest.approx(500.0)
    assert c["remaining"][1 - waiting] == 600


def test_a_restart_keeps_the_remaining_time(db):
    with _app(db) as client:
        gid, tokens = _two_humans(client, clock_seconds=900, clock_kind="game")
        for _ in range(4):
            _play(client, gid, tokens)
        before = view(client, gid)["clocks"]
    with _app(db) as client:
        after = view(client, gid)["clocks"]
    assert after["running"] == before["running"]
    ran = after["server_time"] - before["server_time"]
    for seat in (0, 1):
        lost = ran if seat == before["running"] else 0.0
        assert after["remaining"][seat] == pytest.approx(before["remaining"][seat] - lost,
                                                         abs=0.25)
    assert min(after["remaining"]) < 900  # some time was taken


# ---------------------------------------------------------------------- timeouts
def test_a_timeout_lets_the_bot_decide_and_the_game_goes_on(app_client):
    gid, _ = _two_humans(app_client, clock_seconds=0.3, clock_kind="game")
    v = wait_view(app_client, gid, lambda v: v["seq"] >= 1)
    assert app_client.app.state.service.store.actions(gid)[0].by == "clock"
    assert any("clock ran out" in line for line in v["log"])
    assert v["result"] is None


def _both_moved(client: TestClient, gid: str, tokens: list[str]) -> None:
    """Play until each of the two seats has made a decision of its own."""
    moved: set[int] = set()
    while len(moved) < 2:
        moved.add(_play(client, gid, tokens))


def test_a_timeout_with_lose_ends_the_game_with_that_seat_last(db, fake):
    seen: list[bool] = []
    with _app(db) as client:
        client.app.state.service.listeners.append(lambda live: seen.append(live.over))
        gid, tokens = _two_humans(client, clock_seconds=30, timeout="lose")
        _both_moved(client, gid, tokens)
        loser = view(client, gid)["waiting_for"]
        fake.now += 31  # past the move clock: the seat deciding loses on time
        v = wait_view(client, gid, lambda v: v["result"] is not None, tokens[0])
        result = v["result"]
        assert result["outcome"]["reason"] == "timeout"
        assert result["outcome"]["loser"] == loser
        assert result["outcome"]["ranks"][loser] == 1
        assert result["outcome"]["ranks"][1 - loser] == 0
        assert result["winners"] == [1 - loser]
        assert result["end_reason"] == f"{v['seats'][loser]['label']} ran out of time"
        assert result["results"][loser] == "lost on time"
        assert v["waiting_for"] is None and v["legal"] == [] and v["clocks"]["running"] is None
        assert v["clocks"]["remaining"][loser] == 0  # the loser's clock shows 0:00
        assert v["clocks"]["remaining"][1 - loser] > 0
        assert seen and seen[-1] is True
        r = client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": "x"},
                        headers=auth(tokens[loser]))
        assert r.status_code == 403 and r.json()["error"] == "the game is over"
        assert client.app.state.service.store.game(gid).outcome["loser"] == loser
        status = {g["id"]: g["status"] for g in client.get("/api/games").json()["games"]}
        assert status[gid] == "finished"
    with _app(db) as client:  # still over after a restart; the record and replay work
        v = view(client, gid)
        assert v["result"]["outcome"]["loser"] == loser and v["waiting_for"] is None
        r = client.get(f"/api/games/{gid}/record")
        assert r.status_code == 200
        assert len(GameRecord.from_json(r.text).actions) == v["seq"]
        r = client.get(f"/api/games/{gid}/replay", params={"seat": loser})
        assert r.status_code == 200 and r.json()["id"] == gid


# ---------------------------------------------------------------------- settings
BAD = [
    {"clock_seconds": 60, "clock_kind": "blitz"},
    {"clock_seconds": 60, "timeout": "never"},
    {"timeout": "lose"},
    {"clock_seconds": 60, "clock_kind": "move", "clock_increment": 5},
    {"clock_seconds": 60, "clock_kind": "game", "clock_increment": -1},
    {"clock_seconds": 60, "clock_kind": "game", "clock_increment": 1e300},
]


def test_clock_settings_that_make_no_sense_are_refused(app_client):
    for bad in BAD:
        body = {"game": "rift-domination", "players": 2, "seats": ["human", "human"], **bad}
        r = app_client.post("/api/games", json=body)
        assert r.status_code == 422, (bad, r.text)
    assert app_client.get("/api/games").json()["games"] == []  # nothing was created


def test_a_timeout_places_the_loser_last_and_the_others_by_their_scores():
    class State:
        def scores(self):
            return [5, 9, 5, 7]

    class Live:
        seats = [object()] * 4
        state = State()

    out = outcomes.timeout_outcome(Live(), 1)  # type: ignore[arg-type]
    assert out == {"reason": "timeout", "loser": 1, "ranks": [1, 3, 1, 0]}


# ---------------------------------------------------------------------- per turn, not per decision
def _play_turns(client: TestClient, gid: str, tokens: list[str], decisions: int) -> list[int]:
    return [_play(client, gid, tokens) for _ in range(decisions)]


def test_a_game_clock_adds_its_increment_once_per_turn_not_per_decision(app_client, fake):
    """A Galactic Domination turn of many decisions earns one increment (a 10-minute clock
    grew to 45 minutes when each decision earned one)."""
    gid = create(app_client, game="galactic-domination", seats=["human", "human"],
                 clock_seconds=600, clock_kind="game", clock_increment=10)
    tokens = [join(app_client, gid, "Ann", 0), join(app_client, gid, "Bob", 1)]
    seats = _play_turns(app_client, gid, tokens, 40)
    live = app_client.app.state.service.games[gid]
    c = view(app_client, gid)["clocks"]
    for seat in (0, 1):
        turns = {live.turns[k] for k, s in enumerate(seats) if s == seat}
        decisions = seats.count(seat)
        assert decisions > len(turns)  # several decisions in some turn
        # no time passed (the clocks' time stands still): only increments were added
        assert c["remaining"][seat] == pytest.approx(600 + 10 * len(turns))


def test_a_move_clock_gives_each_turn_its_time_not_each_decision(app_client, fake):
    gid = create(app_client, game="galactic-domination", seats=["human", "human"],
                 clock_seconds=100)
    tokens = [join(app_client, gid, "Ann", 0), join(app_client, gid, "Bob", 1)]
    live = app_client.app.state.service.games[gid]
    # play on until a seat has made two decisions in a row in one turn, with 30 s each
    while True:
        before_turn, before_seat = live.state.turn_key(), view(app_client, gid)["waiting_for"]
        fake.now += 30
        _play(app_client, gid, tokens)
        after = view(app_client, gid)
        if (after["waiting_for"] == before_seat and live.state.turn_key() == before_turn
                and live.marks[-1][0] == before_seat and len(live.marks) >= 2
                and live.marks[-2][0] == before_seat and live.turns[-2] == before_turn):
            break
        assert after["result"] is None
    # the seat has spent 60 s of this turn's 100 s (its first decision of the game is
    # free only when its run began with the game's first move)
    left = after["clocks"]["remaining"][before_seat]
    assert left <= 100 - 30 + 0.01


def test_a_seat_that_never_moves_and_runs_out_of_time_aborts_the_game(db, fake):
    """The abort rule: a game in which a seat never made a decision is aborted, not lost on
    time: nobody wins and nobody's rating moves (the rating-farming attack)."""
    with _app(db) as client:
        gid, tokens = _two_humans(client, clock_seconds=30, timeout="lose")
        first = view(client, gid)["waiting_for"]
        _play(client, gid, tokens)  # the first seat moves; the other never will
        other = view(client, gid)["waiting_for"]
        if other == first:  # the first seat decides again: play until the other's turn
            while view(client, gid)["waiting_for"] == first:
                _play(client, gid, tokens)
            other = view(client, gid)["waiting_for"]
        fake.now += 31
        v = wait_view(client, gid, lambda v: v["result"] is not None)
        outcome = v["result"]["outcome"]
        assert outcome["reason"] == "abort" and outcome["never_moved"] == other
        assert outcome["ranks"] is None and v["result"]["winners"] == []
