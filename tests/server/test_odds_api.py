"""The battle calculator's JSON API (server/odds_api.py): forms, odds equal to the library's,
422 with a reason for every input the game or the bounds refuse, and a seat's position
of a running game from that seat's own knowledge only. The router knows no game."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import pytest

from starlanes.analysis.odds import RiftBattleSpec, parse_fleet, rift_odds
from starlanes.server import odds_api, odds_routes
from starlanes.server.errors import TooMany, Unprocessable

from .conftest import auth, create, join, test_config


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One server for the module (these tests change nothing the others read)."""
    from fastapi.testclient import TestClient

    from starlanes.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('odds') / 'server.db'}",
                     bot_workers=0, config=test_config())
    with TestClient(app) as c:
        yield c


def test_games_and_forms(client):
    games = client.get("/api/odds/games").json()
    assert {g["id"] for g in games["games"]} == {"rift-domination", "interstellar-ambitions"}
    assert games["limits"]["units"] == odds_api.WEB_LIMITS_UNITS
    form = client.get("/api/odds/form/rift-domination").json()
    assert any(u["id"] == "infantry" and u["group"] == "ground" for u in form["units"])
    form = client.get("/api/odds/form/interstellar-ambitions").json()
    level = next(s for s in form["settings"] if s["name"] == "level")
    assert [c["value"] for c in level["choices"]] == [1, 2, 3, 4]


def test_odds_equal_the_library(client):
    r = client.post("/api/odds", json={"game": "rift-domination",
                                       "attacker": "carrier, 2 infantry, 2 diplomat",
                                       "defender": "destroyer",
                                       "settings": {"casualties": "weakest"}})
    assert r.status_code == 200, r.text
    lib = rift_odds(RiftBattleSpec(parse_fleet("carrier, 2 infantry, 2 diplomat"),
                                   parse_fleet("destroyer")), casualties="weakest")
    assert r.json()["outcomes"] == pytest.approx(lib.outcomes)
    assert r.json()["survivors_at_least"][0]["1"] == pytest.approx(lib.at_least(0)[1])


@pytest.mark.parametrize(("body", "match"), [
    ({"game": "galactic-empires", "attacker": "x"}, "no battle calculator"),
    ({"game": "no-such-game", "attacker": "fighter"}, "unknown game"),
    ({"game": "rift-domination", "attacker": "61 fighter", "defender": "fighter"}, "up to 60"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"kind": "air"}}, "one of"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"nonsense": 1}}, "unknown setting"),
    ({"game": "rift-domination", "attacker": "fighter; drop", "defender": "fighter"},
     "cannot read"),
    ({"game": "rift-domination", "attacker": "dragon", "defender": "fighter"}, "unknown"),
    ({"game": "rift-domination", "attacker": "destroyer/5", "defender": "fighter"},
     "at most 1 damage"),
    ({"game": "rift-domination", "attacker": "fighter", "defender": "fighter",
      "settings": {"attacker_cards": ["emergency_recruitment"] * 7}}, "at most"),
    ({"game": "interstellar-ambitions", "attacker": "destroyer", "defender": "corvette",
      "settings": {"level": 99}}, "one of"),
    ({"game": "rift-domination", "attacker": "fighter", "extra": 1}, "extra"),
    ({"game": "rift-domination", "attacker": "fighter, " * 200}, "1000"),
])
def test_refused_input_is_422_with_its_reason(client, body, match):
    r = client.post("/api/odds", json=body)
    assert r.status_code == 422, r.text
    text = r.text.lower()
    assert match.lower() in text


def test_refused_form_is_422(client):
    assert client.get("/api/odds/form/galactic-domination").status_code == 422


def test_position_is_the_seats_own(client):
    gid = create(client, "rift-domination", ["human", "human"])
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    token = tokens[0]
    assert client.get(f"/api/odds/position/{gid}").status_code == 401
    r = client.get(f"/api/odds/position/{gid}", headers=auth(token))
    assert r.status_code == 200 and r.json() == {"game": "rift-domination", "position": None}
    deciding = next(t for t in tokens
                    if client.get(f"/api/games/{gid}/view", headers=auth(t)).json()["your_turn"])
    r = client.get(f"/api/odds/position/{gid}", params={"action": "no such action"},
                   headers=auth(deciding))
    assert r.status_code == 422 and "not" in r.json()["error"]
    assert client.get("/api/odds/position/nope", headers=auth(token)).status_code == 404


def test_the_router_names_no_game():
    for module in (odds_routes, odds_api):
        text = Path(module.__file__).read_text()
        for name in ("rift", "interstellar", "galactic", "domination", "empires"):
            assert name not in text.lower(), module.__name__


# ---------------------------------------------------------------------- what a request costs
MIXED = ("10 fighter, 10 carrier, 5 flagship, 10 infantry, 5 destroyer, 5 cruiser, "
         "5 goliath, 5 bomber, 5 sentinel")
"""Sixty mixed ships: before the CPU bound, one such request took about 10 s of CPU."""


@pytest.fixture(autouse=True)
def fresh_share(monkeypatch):
    """Each test starts with the odds calculations owing no CPU."""
    monkeypatch.setattr(odds_api.GATE, "_owed", 0.0)


def test_sixty_mixed_ships_a_side_are_stopped_within_the_cpu_budget(client):
    began = time.process_time()
    r = client.post("/api/odds", json={"game": "rift-domination", "attacker": MIXED,
                                       "defender": MIXED})
    used = time.process_time() - began
    # stopped (422 with the reason), or, should the calculation get cheaper, answered
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        assert "more computing than the calculator gives one request" in r.json()["error"]
    # it is computed in the calculator's worker process: the server's own process (this
    # test's client included) spent almost nothing on it
    assert used < 0.5, used
    # the calculator has used its share of the server for a moment; then it answers again
    small = {"game": "rift-domination", "attacker": "fighter", "defender": "fighter"}
    r = client.post("/api/odds", json=small)
    if r.status_code == 429:
        assert "used its share" in r.json()["error"]
        time.sleep(int(r.headers["Retry-After"]))
        r = client.post("/api/odds", json=small)
    assert r.status_code == 200, r.text


def test_a_large_battle_is_a_labelled_estimate_of_fewer_battles(client):
    fleet = "20 fighter, 20 destroyer, 20 cruiser"
    r = client.post("/api/odds", json={"game": "rift-domination", "attacker": fleet,
                                       "defender": fleet})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["method"] == "monte-carlo"
    assert out["cost"]["reduced"] and out["cost"]["units"] == [60, 60]
    assert out["trials"] == out["cost"]["trials"] < odds_api.WEB_LIMITS_TRIALS
    assert "a large battle: estimated from" in out["note"]
    small = client.post("/api/odds", json={"game": "rift-domination", "attacker": "fighter",
                                           "defender": "fighter"}).json()
    assert not small["cost"]["reduced"] and "large battle" not in (small["note"] or "")


def test_the_estimate_reads_units_and_hit_points_from_the_form():
    form = {"units": [{"id": "fighter", "max_damage": 0}, {"id": "cruiser", "max_damage": 2}]}
    cost = odds_api.estimate(form, "3 fighter, cruiser/1", "2x cruiser, drone")
    assert cost.units == (4, 3)
    assert cost.states == (3 + 3 + 1) * (6 + 1 + 1)  # an unknown unit counts one hit point
    assert (cost.trials, cost.reduced) == (odds_api.WEB_LIMITS_TRIALS, False)
    big = odds_api.estimate(form, "60 fighter", "60 fighter")
    assert big.reduced and big.trials == odds_api.MC_WORK // 120


def test_six_calculations_at_once_take_turns(client, monkeypatch):
    """Six players ask at once for battles the engine must simulate: at most AT_ONCE run
    at a time; the others wait their turn or are told to come back (429, Retry-After)."""
    monkeypatch.setattr(odds_api.GATE, "most", 0)
    body = {"game": "rift-domination", "attacker": "5 fighter, 5 destroyer",
            "defender": "5 fighter, 5 destroyer",
            "settings": {"attacker_cards": ["emergency_recruitment"]}}
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: client.post("/api/odds", json=body), range(6)))
    statuses = sorted(a.status_code for a in answers)
    assert set(statuses) <= {200, 429} and statuses[0] == 200, [a.text[:300] for a in answers]
    for a in answers:
        if a.status_code == 429:
            reason = a.json()["error"]
            assert "busy" in reason or "used its share" in reason
            assert a.headers["Retry-After"] == (str(odds_api.RETRY_AFTER) if "busy" in reason
                                                else reason.split()[-2])
    assert odds_api.GATE.most == odds_api.AT_ONCE


def test_the_tables_odds_take_their_turn_too(client, monkeypatch):
    gid = create(client, "rift-domination", ["human", "human"])
    token = join(client, gid, "Ann", 0)
    join(client, gid, "Bob", 1)
    assert client.get(f"/api/games/{gid}/odds", headers=auth(token)).status_code == 200
    monkeypatch.setattr(odds_api.GATE, "wait", 0.1)
    with ExitStack() as held:
        for _ in range(odds_api.AT_ONCE):
            held.enter_context(odds_api.GATE.turn())
        r = client.get(f"/api/games/{gid}/odds", headers=auth(token))
        assert r.status_code == 429 and "busy" in r.json()["error"]
        assert r.headers["Retry-After"] == str(odds_api.RETRY_AFTER)
    assert client.get(f"/api/games/{gid}/odds", headers=auth(token)).status_code == 200


def test_a_calculation_past_its_cpu_is_stopped_and_the_thread_goes_on():
    def spin() -> int:
        n = 0
        while True:
            n += 1

    with pytest.raises(Unprocessable, match="more computing"):
        odds_api.within_cpu(spin, 0.2)
    # nothing is left pending for this thread
    assert odds_api.within_cpu(lambda: sum(range(1000)), 0.2) == 499500
    time.sleep(0.1)


def test_the_calculations_use_at_most_their_share_of_a_core():
    """A calculation that used more than its share (here 0.4 s at once) makes the next
    wait: refused with 429 and the seconds until the share is back, then let in."""
    gate = odds_api.OddsGate(at_once=1, wait=0.1, cpu_seconds=0.2)
    with gate.turn():
        began = time.thread_time()
        while time.thread_time() - began < 0.4:
            pass
    with pytest.raises(TooMany, match="used its share") as refused, gate.turn():
        pass
    wait = refused.value.retry_after
    assert 1 <= wait <= 2
    time.sleep(wait)
    with gate.turn():
        pass
    assert gate.running == 0


def test_a_worker_past_its_cpu_backstop_is_killed_and_replaced(client, monkeypatch):
    """The backstop: with a CPU budget too large for the worker's own stop and a backstop
    of one CPU second, the sixty-ship battle's worker process is killed; the next request
    gets a fresh one."""
    monkeypatch.setattr(odds_api.GATE, "cpu_seconds", 30.0)
    monkeypatch.setattr(odds_api, "BACKSTOP_FACTOR", 0.0)
    # the worker, at a lower priority, reaches its one CPU second late on a busy machine:
    # the wall-clock limit is lifted, so only the backstop can answer
    monkeypatch.setattr(odds_api, "WALL_LONGEST", 600.0)
    r = client.post("/api/odds", json={"game": "rift-domination", "attacker": MIXED,
                                       "defender": MIXED})
    assert r.status_code == 422 and "more computing" in r.json()["error"], r.text
    monkeypatch.undo()
    odds_api.GATE._owed = 0.0
    r = client.post("/api/odds", json={"game": "rift-domination", "attacker": "fighter",
                                       "defender": "fighter"})
    assert r.status_code == 200, r.text


def _odds_worker_pid(client) -> int:
    """The odds worker process's pid, started by a small battle first."""
    odds_api.GATE._owed = 0.0
    r = client.post("/api/odds", json={"game": "rift-domination", "attacker": "fighter",
                                       "defender": "fighter"})
    assert r.status_code == 200, r.text
    worker = odds_api._WORKERS.get()
    try:
        assert worker._proc is not None
        return int(worker._proc.pid)
    finally:
        odds_api._WORKERS.put(worker)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP (POSIX)")
def test_a_worker_the_busy_machine_starves_is_waited_for_not_refused(client, monkeypatch):
    """A worker that gets no CPU (a busy machine; here it is stopped for 4 s, longer than the wall-clock limit this backstop once had) has not
    used its CPU budget: it is waited for, and a fighter against a fighter is answered, not
    refused as a battle too large for the calculator."""
    pid = _odds_worker_pid(client)
    monkeypatch.setattr(odds_api, "BACKSTOP_FACTOR", 0.0)  # the backstop at 1 s, of CPU
    os.kill(pid, signal.SIGSTOP)
    resume = threading.Timer(4.0, os.kill, (pid, signal.SIGCONT))
    resume.start()
    try:
        began = time.monotonic()
        r = client.post("/api/odds", json={"game": "rift-domination", "attacker": "fighter",
                                           "defender": "fighter"})
    finally:
        resume.join()
    assert r.status_code == 200, r.text
    assert time.monotonic() - began >= 3.5
    assert r.json()["attacker_win_total"] == pytest.approx(22 / 63)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP (POSIX)")
def test_a_worker_starved_past_the_longest_wait_is_replaced_and_the_request_asked_again(
        client, monkeypatch):
    """A worker that gets no CPU for :data:`WALL_LONGEST` seconds is killed; the request is
    refused as busy (429 with Retry-After, which the page asks again after), charged the
    CPU it used (none), and the next request gets a fresh worker."""
    pid = _odds_worker_pid(client)
    monkeypatch.setattr(odds_api, "WALL_LONGEST", 1.5)
    os.kill(pid, signal.SIGSTOP)
    try:
        r = client.post("/api/odds", json={"game": "rift-domination", "attacker": "fighter",
                                           "defender": "fighter"})
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    assert r.status_code == 429, r.text
    assert "busy" in r.json()["error"] and int(r.headers["Retry-After"]) >= 1
    assert odds_api.GATE._owing() < odds_api.GATE.cpu_seconds  # not charged 1.5 s
    monkeypatch.undo()
    assert _odds_worker_pid(client) != pid
