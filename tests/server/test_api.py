"""The game server's HTTP and websocket API: lobby, seats and tokens, acting, stale and
illegal actions, spectators, undo policy, bots, the turn clock, records and rematches."""

from __future__ import annotations

import hashlib
import random

import pytest
from sqlalchemy import select

from starlanes.engine import GameRecord, replay

from .conftest import auth, create, finish, join, view, wait_view


def _first_legal(v: dict) -> str:
    return v["legal"][0]["notation"]


# ---------------------------------------------------------------------- lobby and seats
def test_create_list_join_and_the_seat_link(client):
    gid = create(client, seats=["human", "human", "heuristic"])
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[gid]["status"] == "open"
    assert [s["open"] for s in listed[gid]["seats"]] == [True, True, False]
    r = client.post(f"/api/games/{gid}/join", json={"name": "Ann"})
    body = r.json()
    assert body["seat"] == 0 and body["link"] == f"/games/{gid}?token={body['token']}"
    assert len(body["token"]) >= 22  # at least 128 bits of URL-safe base64
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[gid]["seats"][0]["name"] == "Ann"
    assert body["token"] not in client.get("/api/games").text


def test_only_a_hash_of_each_token_is_stored(client):
    gid = create(client)
    token = join(client, gid, "Ann")
    store = client.app.state.service.store
    from starlanes.server.store import SeatRow

    with store.session() as s:
        hashes = [row.token_hash for row in s.scalars(select(SeatRow))]
    assert token not in hashes
    assert hashlib.sha256(token.encode()).hexdigest() in hashes


def test_taken_and_bot_seats_cannot_be_joined(client):
    gid = create(client, seats=["human", "heuristic"])
    join(client, gid, "Ann", 0)
    r = client.post(f"/api/games/{gid}/join", json={"name": "Bob", "seat": 0})
    assert r.status_code == 403 and "taken" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/join", json={"name": "Bob", "seat": 1})
    assert r.status_code == 403 and "bot" in r.json()["error"]
    r = client.post("/api/games/nope/join", json={"name": "Bob"})
    assert r.status_code == 404


def test_bad_settings_are_refused_with_the_reason_and_store_nothing(client):
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json={"game": "rift-domination", "players": 9,
                                        "seats": ["human"] * 9})
    assert r.status_code == 400 and "2-6" in r.json()["error"]
    r = client.post("/api/games", json={"game": "chess", "seats": ["human"]})
    assert r.status_code == 400 and "unknown game" in r.json()["error"]
    r = client.post("/api/games", json={"game": "rift-domination", "players": 2,
                                        "seats": ["human", "mcts:c=nan"]})
    assert r.status_code == 422 and "mcts-normal" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == before


# ---------------------------------------------------------------------- acting
def test_an_action_applies_and_refusals_change_nothing(client):
    gid = create(client)
    a, b = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
    v = view(client, gid, a)
    assert v["your_turn"] and v["waiting_for"] == 0 and v["legal"]
    digest0 = client.app.state.service.live(gid).state.digest()
    # another seat's token: 403, no token or a wrong one: 401, stale: 409, illegal: 422
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": _first_legal(v)},
                    headers=auth(b))
    assert r.status_code == 403 and "not your decision" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": _first_legal(v)})
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": _first_legal(v)},
                    headers=auth("x" * 32))
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 3, "action": _first_legal(v)},
                    headers=auth(a))
    assert r.status_code == 409 and "move 3" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": "teleport home"},
                    headers=auth(a))
    assert r.status_code == 422 and r.json()["error"]
    live = client.app.state.service.live(gid)
    assert live.seq == 0 and live.state.digest() == digest0
    assert client.app.state.service.store.actions(gid) == []
    # and the legal one goes through, stored before it is acknowledged
    r = client.post(f"/api/games/{gid}/actions", json={"seq": 0, "action": _first_legal(v)},
                    headers=auth(a))
    assert r.status_code == 200 and r.json()["seq"] == 1 and "digest" not in r.json()
    stored = client.app.state.service.store.actions(gid)
    assert [(x.seq, x.seat, x.notation, x.digest) for x in stored] == [
        (0, 0, _first_legal(v), live.state.digest())]


def test_typed_notation_ignores_case(client):
    gid = create(client)
    a = join(client, gid, "Ann", 0)
    join(client, gid, "Bob", 1)
    v = view(client, gid, a)
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": 0, "action": _first_legal(v).upper()}, headers=auth(a))
    assert r.status_code == 200 and r.json()["applied"] == _first_legal(v)


def test_spectators_see_a_public_view_and_cannot_act(client):
    gid = create(client)
    a = join(client, gid, "Ann", 0)
    join(client, gid, "Bob", 1)
    spectator = view(client, gid)
    assert spectator["you"] is None and spectator["legal"] == [] and not spectator["your_turn"]
    live = client.app.state.service.live(gid)
    assert spectator["observation"] == live.state.public_observation()
    seat = view(client, gid, a)
    assert seat["observation"] == live.state.observation(0)


# ---------------------------------------------------------------------- undo
def _play_until(client, gid, tokens, want, rng, limit=400):
    """Play random legal actions for the human seats until ``want(view)`` holds for the
    seat deciding; returns (token, view) of that seat."""
    for _ in range(limit):
        spectator = view(client, gid)
        seat = spectator["waiting_for"]
        v = view(client, gid, tokens[seat])
        if want(v):
            return tokens[seat], v
        notation = rng.choice(v["legal"])["notation"]
        r = client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": notation},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("position not reached")


def test_undo_takes_back_own_decisions_until_another_seat_decides(client):
    gid = create(client)
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    rng = random.Random(2)
    token, v = _play_until(client, gid, tokens,
                           lambda v: any(a["notation"].startswith("move ") for a in v["legal"]),
                           rng)
    live = client.app.state.service.live(gid)
    before = live.state.digest()
    move = next(a["notation"] for a in v["legal"] if a["notation"].startswith("move "))
    r = client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": move},
                    headers=auth(token))
    assert r.status_code == 200
    assert view(client, gid, token)["can_undo"]
    assert client.post(f"/api/games/{gid}/undo", json={"seq": v["seq"] + 1},
                       headers=auth(token)).status_code == 200
    assert live.seq == v["seq"] and live.state.digest() == before
    assert len(client.app.state.service.store.actions(gid)) == v["seq"]
    # once the decision passes to the other seat, nothing before it can be taken back
    seat = live.waiting_for()
    while live.waiting_for() == seat:
        v = view(client, gid, tokens[seat])
        ends = [a["notation"] for a in v["legal"] if a["notation"] in ("end", "done", "pass")]
        notation = ends[0] if ends else rng.choice(v["legal"])["notation"]
        client.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": notation},
                    headers=auth(tokens[seat]))
    r = client.post(f"/api/games/{gid}/undo", json={"seq": live.seq}, headers=auth(tokens[seat]))
    assert r.status_code == 403 and "final" in r.json()["error"]
    other = live.waiting_for()
    if live.undo_floor == live.seq:
        r = client.post(f"/api/games/{gid}/undo", json={"seq": live.seq},
                        headers=auth(tokens[other]))
        assert r.status_code == 403


# ---------------------------------------------------------------------- bots, clock, records
def test_bot_seats_play_on_their_own_to_the_end_and_the_record_verifies(client, tmp_path):
    gid = create(client, game="galactic-domination", seats=["heuristic", "random"])
    assert client.get(f"/api/games/{gid}/record").status_code == 403
    v = wait_view(client, gid, lambda v: v["result"] is not None, None, timeout=120)
    assert v["result"]["winners"] and v["waiting_for"] is None
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200
    record = GameRecord.from_json(r.text)
    assert record.finished and len(record.actions) == v["seq"]
    assert replay(record).digest() == record.digest
    bys = {a.by for a in client.app.state.service.store.actions(gid)}
    assert bys == {"bot"}


def test_a_human_seat_waits_for_its_bot_opponent_to_answer(client):
    gid = create(client, game="galactic-domination", seats=["human", "heuristic"])
    a = join(client, gid, "Ann", 0)
    v = view(client, gid, a)
    if not v["your_turn"]:
        v = wait_view(client, gid, lambda v: v["your_turn"], a)
    for _ in range(5):
        r = client.post(f"/api/games/{gid}/actions",
                        json={"seq": v["seq"], "action": v["legal"][-1]["notation"]},
                        headers=auth(a))
        assert r.status_code == 200
        v = wait_view(client, gid, lambda v: v["your_turn"] or v["result"] is not None, a)
    assert "bot" in {x.by for x in client.app.state.service.store.actions(gid)}


def test_the_turn_clock_lets_the_heuristic_decide_and_says_so(client):
    gid = create(client, game="galactic-domination", seats=["human", "human"],
                 clock_seconds=0.3)
    join(client, gid, "Ann", 0)
    join(client, gid, "Bob", 1)
    v = wait_view(client, gid, lambda v: v["seq"] >= 1, None, timeout=20)
    assert any("clock ran out" in line for line in v["log"])
    assert client.app.state.service.store.actions(gid)[0].by == "clock"


def test_rematch_keeps_the_settings_and_moves_the_seats_round(client):
    gid = create(client, game="galactic-domination", seats=["human", "heuristic"],
                 options={"turn_limit": 1})
    token = join(client, gid, "Ann", 0)
    finish(client, gid, token)
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 201, r.text
    # one human seat: the offer needs nobody else's answer and the game starts at once,
    # Ann one seat further round, her new seat's token handed back
    assert r.json()["status"] == "started" and r.json()["you"] == 1 and r.json()["token"]
    new = r.json()["game_id"]
    listed = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[new]["options"] == {"turn_limit": 1}
    assert listed[new]["rematch_of"] == gid and not listed[new]["seeded"]
    assert [s["open"] for s in listed[new]["seats"]] == [False, False]
    assert [s["name"] for s in listed[new]["seats"]][1] == "Ann"


# ---------------------------------------------------------------------- websockets
def test_websocket_pushes_each_seat_its_own_view(client):
    gid = create(client)
    a, b = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
    with client.websocket_connect(f"/ws/games/{gid}?token={a}") as ws_a, \
            client.websocket_connect(f"/ws/games/{gid}?token={b}") as ws_b, \
            client.websocket_connect(f"/ws/games/{gid}") as ws_s:
        first = ws_a.receive_json()
        assert first["you"] == 0 and first["your_turn"]
        assert ws_b.receive_json()["you"] == 1
        assert ws_s.receive_json()["you"] is None
        client.post(f"/api/games/{gid}/actions",
                    json={"seq": 0, "action": first["legal"][0]["notation"]}, headers=auth(a))
        assert ws_a.receive_json()["seq"] == 1
        pushed_b = ws_b.receive_json()
        assert pushed_b["seq"] == 1 and pushed_b["you"] == 1
        assert ws_s.receive_json()["seq"] == 1


def test_websocket_with_a_wrong_token_is_refused(client):
    from starlette.websockets import WebSocketDisconnect

    gid = create(client)
    with pytest.raises(WebSocketDisconnect) as info, \
            client.websocket_connect(f"/ws/games/{gid}?token=wrong") as ws:
        ws.receive_json()
    assert info.value.code == 4401


# ---------------------------------------------------------------------- battle odds
def test_odds_of_a_battle_move_come_from_a_determinisation_for_the_seat(client):
    """The table shows the odds of a battle before the player commits to it (computed on
    a determinisation for that seat, so no hidden card or future die enters them)."""
    from starlanes.agents import make_agent

    gid = create(client, seats=["human", "human"], seed=3)
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    live = client.app.state.service.live(gid)
    bots = [make_agent("heuristic", "rift-domination", i) for i in range(2)]
    for _ in range(3000):
        state = live.state
        seat = state.current_player()
        for a in state.legal_actions():
            if not str(a).startswith("move "):
                continue
            r = client.get(f"/api/games/{gid}/odds", params={"action": str(a)},
                           headers=auth(tokens[seat]))
            assert r.status_code == 200
            if r.json()["odds"] is None:
                continue
            odds = r.json()["odds"]
            assert abs(sum(odds["outcomes"].values()) - 1) < 1e-6
            other = client.get(f"/api/games/{gid}/odds", params={"action": str(a)},
                               headers=auth(tokens[1 - seat]))
            assert other.status_code == 403
            digest = live.state.digest()
            assert live.state.digest() == digest and live.seq == len(live.state.history)
            return
        client.post(f"/api/games/{gid}/actions",
                    json={"seq": live.seq, "action": str(bots[seat].act(state))},
                    headers=auth(tokens[seat]))
    raise AssertionError("no battle move came up")


def test_many_legal_actions_are_explained_on_demand_for_the_deciding_seat(client):
    """A view carries one explanation per verb when there are many legal actions; the rest
    are asked for one by one, only by the seat deciding."""
    gid = create(client, seats=["human", "human"], seed=3)
    tokens = [join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)]
    rng = random.Random(8)
    token, v = _play_until(client, gid, tokens, lambda v: len(v["legal"]) > 40, rng)
    lazy = [a for a in v["legal"] if a.get("more")]
    assert lazy and all(a["kind"] for a in v["legal"])
    r = client.get(f"/api/games/{gid}/describe", params={"action": lazy[0]["notation"]},
                   headers=auth(token))
    assert r.status_code == 200 and r.json()["text"] and r.json()["rules"]
    assert r.json()["kind"] == lazy[0]["kind"]
    other = tokens[1 - tokens.index(token)]
    r = client.get(f"/api/games/{gid}/describe", params={"action": lazy[0]["notation"]},
                   headers=auth(other))
    assert r.status_code == 403
    r = client.get(f"/api/games/{gid}/describe", params={"action": "teleport home"},
                   headers=auth(token))
    assert r.status_code == 422
