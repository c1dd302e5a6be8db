"""The replay endpoints: a stored game's view at every step, rebuilt from its actions, the
same as the game was while it was played; no state digest while it runs; seats' views only
once a game is over; uploaded game records."""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

from starlanes.engine import GameRecord

from .conftest import create, join, view


def _play(client, gid, tokens, n, rng):
    """Play ``n`` random decisions; returns the public observation after each."""
    seen = []
    for _ in range(n):
        v = view(client, gid, None)
        seat = v["waiting_for"]
        if seat is None:
            break
        mine = view(client, gid, tokens[seat])
        action = rng.choice(mine["legal"])["notation"]
        r = client.post(f"/api/games/{gid}/actions", json={"seq": mine["seq"], "action": action},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
        seen.append(view(client, gid, None)["observation"])
    return seen


def test_each_step_of_a_running_game_replays_as_it_was_seen_without_a_digest(client):
    gid = create(client, game="interstellar-ambitions", players=3,
                 seats=["human", "human", "human"])
    tokens = [join(client, gid, name) for name in ("Ann", "Bob", "Cy")]
    seen = _play(client, gid, tokens, 25, random.Random(3))
    assert len(seen) == 25
    for step in [*range(25, 0, -1), *range(1, 26)]:  # backwards, then forwards (cache)
        r = client.get(f"/api/games/{gid}/replay", params={"step": step})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["observation"] == seen[step - 1]
        assert body["digest"] is None and body["step"] == step and body["total"] == 25
    latest = client.get(f"/api/games/{gid}/replay").json()
    assert latest["step"] == 25 and latest["observation"] == view(client, gid, None)["observation"]
    # a running game: the spectators' view only, and no action notation (it may be secret)
    assert latest["last"] is None and latest["you"] is None
    r = client.get(f"/api/games/{gid}/replay", params={"step": 3, "seat": 0})
    assert r.status_code == 403 and "still being played" in r.json()["error"]


def test_a_step_outside_the_game_is_refused_with_the_range(client):
    gid = create(client, seats=["human", "human"])
    r = client.get(f"/api/games/{gid}/replay", params={"step": 5})
    assert r.status_code == 400 and "steps 0 to 0" in r.json()["error"]
    assert client.get("/api/games/nosuch/replay").status_code == 404


def test_a_finished_game_replays_from_any_seat_with_its_hand(client):
    gid = create(client, game="galactic-empires", seats=["heuristic", "heuristic"],
                 options={"turn_cap": 6})
    import time

    deadline = time.monotonic() + 120
    while view(client, gid, None)["result"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    record = GameRecord.from_json(client.get(f"/api/games/{gid}/record").text)
    step = len(record.actions) // 2
    seat0 = client.get(f"/api/games/{gid}/replay", params={"step": step, "seat": 0}).json()
    public = client.get(f"/api/games/{gid}/replay", params={"step": step}).json()
    assert seat0["observation"]["players"][0]["hand"] is not None
    assert public["observation"]["players"][0]["hand"] is None
    assert seat0["last"] == record.actions[step - 1]
    end = client.get(f"/api/games/{gid}/replay").json()
    assert end["digest"] == record.digest and end["result"]["scores"] == record.scores
    # the same record uploaded replays to the same digests, with the game's layout
    up = client.post("/api/replay", json={"record": record.model_dump(), "step": step,
                                          "seat": 1}).json()
    assert up["digest"] == seat0["digest"] and up["layout"]["game"] == "galactic-empires"
    assert up["observation"]["players"][1]["hand"] is not None


def test_an_uploaded_record_that_does_not_replay_is_refused_with_the_reason(client):
    gid = create(client, game="galactic-domination", seats=["human", "human"])
    record = {"game": "galactic-domination", "version": "1", "players": 2, "seed": 1,
              "actions": ["fly to the moon"], "digest": "x"}
    r = client.post("/api/replay", json={"record": record, "step": 1})
    assert r.status_code == 400 and "does not replay" in r.json()["error"]
    r = client.post("/api/replay", json={"record": {"game": "x"}, "step": 0})
    assert r.status_code == 400 and "malformed game record" in r.json()["error"]
    assert gid


def _finished_game(client) -> str:
    gid = create(client, game="galactic-empires", seats=["heuristic", "heuristic"],
                 options={"turn_cap": 4})
    deadline = time.monotonic() + 120
    while view(client, gid, None)["result"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return gid


def test_a_burst_of_replay_clients_on_a_finished_game_computes_each_view_once(client):
    """Forty viewers at once on a finished game (the same two steps, and its record):
    each view and the record are computed once, then served as kept; the answers are the
    same as one viewer's."""
    gid = _finished_game(client)
    replays = client.app.state.service.replays
    rebuilt: list[int] = []
    state = replays.state

    def counted(*args, **kw):
        rebuilt.append(args[-1])
        return state(*args, **kw)

    replays.state = counted
    try:
        before = dict(replays.computed)
        total = view(client, gid, None)["seq"]
        asks = [("replay", {"step": total // 2}), ("replay", {"step": total // 2, "seat": 1}),
                ("replay", {}), ("record", {})] * 10
        with ThreadPoolExecutor(40) as pool:
            answers = list(pool.map(lambda a: client.get(f"/api/games/{gid}/{a[0]}",
                                                         params=a[1]), asks))
    finally:
        replays.state = state
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert replays.computed["view"] - before["view"] == 3
    assert replays.computed["record"] - before["record"] == 1
    assert sorted(rebuilt) == sorted([total // 2, total // 2, total])  # one rebuild a view
    for i, a in enumerate(answers[4:], start=4):
        assert a.content == answers[i % 4].content  # the same answer to every viewer
    record = GameRecord.from_json(answers[3].text)
    assert answers[2].json()["digest"] == record.digest


def test_a_finished_games_bad_step_or_seat_is_refused_before_any_replay(client):
    gid = _finished_game(client)
    replays = client.app.state.service.replays
    before = dict(replays.computed)
    total = view(client, gid, None)["seq"]
    r = client.get(f"/api/games/{gid}/replay", params={"step": total + 1})
    assert r.status_code == 400 and f"steps 0 to {total}" in r.json()["error"]
    r = client.get(f"/api/games/{gid}/replay", params={"seat": 5})
    assert r.status_code == 400 and "seats are 0 to 1" in r.json()["error"]
    assert replays.computed == before


def test_kept_finished_views_are_bounded(monkeypatch):
    from starlanes.server import replays as module

    monkeypatch.setattr(module, "FINISHED_VIEWS", 3)
    cache = module.ReplayCache()
    for i in range(10):
        assert cache.once("view", ("g", i, None), lambda i=i: {"step": i}) == {"step": i}
    assert cache.computed["view"] == 10
    assert cache.once("view", ("g", 9, None), lambda: {"step": "again"}) == {"step": 9}
    assert cache.once("view", ("g", 0, None), lambda: {"step": "again"}) == {"step": "again"}
    assert len(cache._kept["view"]) == 3
