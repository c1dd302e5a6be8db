"""Decks of one's own on the server (issue 30): a Galactic Empires Standard Game seat brings
a deck code on create or join (422 naming the rule and the card when it breaks one); the
game waits for every seat before anyone moves; no view, log or lobby entry shows another
seat's deck list before the end, and the record after the game holds every deck."""

from __future__ import annotations

import json
import time

from fastapi.testclient import TestClient

from starlanes.games.galactic_empires import deck_code, decks
from starlanes.games.galactic_empires.content import load_content

from .conftest import auth, create, finish, view

CONTENT = load_content()
GE = "galactic-empires"
STANDARD = {"structure": "standard"}


def _code(ident: str, name: str = "", **changes: int) -> tuple[str, decks.DeckList]:
    deck = decks.from_content(CONTENT, ident)
    cards = {**deck.cards, **changes}
    deck = deck.model_copy(update={"name": name or deck.name,
                                   "cards": {k: v for k, v in cards.items() if v}})
    return deck_code.encode(CONTENT, deck), deck


def _join(client: TestClient, gid: str, name: str, seat: int, setup: str = "") -> dict:
    r = client.post(f"/api/games/{gid}/join", json={"name": name, "seat": seat,
                                                    "setup": setup})
    assert r.status_code == 200, r.text
    return r.json()


def _cards(names: list[str] | None) -> set[str]:
    return {n.split("#")[0] for n in names or []}


def _public_cards(obs: dict) -> set[str]:
    """Card ids any viewer may know were in play: units, discard piles."""
    out = {u["card"] for u in obs["units"]}
    for pile in obs["discards"]:
        out |= _cards(pile)
    return out


def test_seat_brings_its_deck_on_join_and_plays_it(client: TestClient) -> None:
    code, deck = _code("dragon", "Wyrm Wing")
    gid = create(client, GE, ["human", "heuristic"], options=STANDARD)
    # the game waits for its open seat: the bot does not move, no seat decides yet
    v = view(client, gid)
    assert v["seq"] == 0 and v["waiting_for"] is None
    assert v["waiting_label"] == "every seat to be taken" and v["result"] is None
    lobby = client.get("/api/games").json()["games"][0]
    assert lobby["setup"] == "deck" and "seat_setup" not in lobby["options"]
    joined = _join(client, gid, "Ann", 0, code)
    mine = view(client, gid, joined["token"])
    me = mine["observation"]["players"][0]
    assert me["major"] == "dragon"
    assert _cards(me["hand"]) | _cards(me["reserve"]) <= set(deck.cards)
    # once every seat is taken the game begins
    deadline = time.monotonic() + 20
    while view(client, gid)["waiting_for"] is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert view(client, gid)["waiting_for"] is not None


def test_refusals_name_the_rule_and_change_nothing(client: TestClient) -> None:
    gid = create(client, GE, ["human", "human"], options=STANDARD)
    bad, _ = _code("argonian", arg_frigate=4)
    r = client.post(f"/api/games/{gid}/join", json={"name": "A", "seat": 0, "setup": bad})
    assert r.status_code == 422
    assert "GE-OPEN-01 copies" in r.json()["error"] and "arg_frigate" in r.json()["error"]
    assert view(client, gid)["seats"][0]["open"]
    good, _ = _code("argonian")
    r = client.post(f"/api/games/{gid}/join", json={"name": "A", "seat": 0,
                                                    "setup": good[:-2] + "zz"})
    assert r.status_code == 422 and "damaged" in r.json()["error"]
    # the Basic Game shares one deck; options never carry a seat's setup
    basic = create(client, GE, ["human", "human"])
    r = client.post(f"/api/games/{basic}/join", json={"name": "A", "seat": 0, "setup": good})
    assert r.status_code == 422 and "bring nothing" in r.json()["error"]
    r = client.post("/api/games", json={"game": GE, "players": 2, "seats": ["human", "human"],
                                        "options": {**STANDARD, "seat_setup": [good]}})
    assert r.status_code == 422 and "per seat" in r.json()["error"]
    r = client.post("/api/games", json={"game": GE, "players": 2, "seats": ["human", "human"],
                                        "options": STANDARD, "setup": [good, good, good]})
    assert r.status_code == 422
    r = client.post("/api/games", json={"game": GE, "players": 2, "seats": ["human", "human"],
                                        "options": STANDARD, "setup": ["", bad]})
    assert r.status_code == 422 and "seat 1's deck" in r.json()["error"]


def test_no_view_log_or_lobby_shows_another_seats_deck(client: TestClient) -> None:
    """Two seats with decks of cards the other lacks: before the end, the other seat, a
    spectator and the lobby see of a deck only what is in play or discarded."""
    code0, deck0 = _code("dragon", "Secret Wyrms")
    code1, deck1 = _code("bolaar", "Secret Pirates")
    only0, only1 = set(deck0.cards) - set(deck1.cards), set(deck1.cards) - set(deck0.cards)
    assert only0 and only1
    gid = create(client, GE, ["human", "human"], options=STANDARD)
    t0 = _join(client, gid, "Ann", 0, code0)["token"]
    t1 = _join(client, gid, "Bob", 1, code1)["token"]
    for _ in range(40):  # some moves by whoever decides
        v0, v1 = view(client, gid, t0), view(client, gid, t1)
        spectator = view(client, gid)
        lobby = client.get("/api/games").text
        public = _public_cards(spectator["observation"])
        for text, hidden in ((json.dumps(v1), only0), (json.dumps(v0), only1),
                             (json.dumps(spectator), only0 | only1), (lobby, only0 | only1)):
            assert code0 not in text and code1 not in text and "Secret" not in text
            seen = {cid for cid in hidden if f'"{cid}' in text}
            assert seen <= public, seen - public
        assert client.get(f"/api/games/{gid}/record").status_code == 403
        mover = v0 if v0["your_turn"] else v1 if v1["your_turn"] else None
        if mover is None:
            break
        token = t0 if mover is v0 else t1
        r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                        json={"seq": mover["seq"], "action": mover["legal"][0]["notation"]})
        assert r.status_code == 200, r.text
    # a deck is brought before the first move only
    r = client.post(f"/api/games/{gid}/join", json={"name": "C", "seat": 0, "setup": code0})
    assert r.status_code == 403


def test_record_after_the_game_holds_every_deck(client: TestClient) -> None:
    code0, _ = _code("dragon", "Wyrms")
    code1, _ = _code("krebiz", "Lances")
    r = client.post("/api/games", json={
        "game": GE, "players": 2, "seats": ["random", "random"], "seed": 5,
        "options": {**STANDARD, "turn_cap": 3}, "setup": [code0, code1]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    deadline = time.monotonic() + 60
    while view(client, gid)["result"] is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["options"]["seat_setup"] == [code0, code1]


def test_a_rematch_keeps_the_decks(client: TestClient) -> None:
    code, _ = _code("mechad", "Holdfast")
    gid = create(client, GE, ["human", "random"], options={**STANDARD, "turn_cap": 2})
    token = _join(client, gid, "Ann", 0, code)["token"]
    finish(client, gid, token)
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 201, r.text
    # the seats move round one place, each with its deck: Ann's is at her new seat 1
    again = client.app.state.service.games[r.json()["game_id"]]
    assert again.row.options["seat_setup"] == ["", code]
    assert again.seats[1].name == "Ann" and not again.gathering
