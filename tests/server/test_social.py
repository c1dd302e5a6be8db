"""Rematch offers, challenges by name, follows and presence, and blocks, through the HTTP
API (``docs/community/social.md``): each feature, and each refusal with its status and
reason (unknown name 404, oneself 422, blocked 403, expired 409, caps 429); a stranger's
flood of 1,000 challenges is capped; the hooks of ``community.notifiers`` hear of every
change."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from starlanes.server.app import create_app
from starlanes.server.community.identity import CSRF_HEADER, SESSION_COOKIE
from starlanes.server.community.models import AccountRow, OfferRow, PresenceRow
from starlanes.server.store import GameRow

from .conftest import auth, test_config, view

GAME = "rift-domination"
FAIR_CLOCK = {"clock_seconds": 600, "clock_kind": "game", "timeout": "lose"}
PROXY = ("127.0.0.1", 5000)


def make_client(tmp_path: Any, **social: Any) -> TestClient:
    """A server whose requests may name their address (X-Forwarded-For from loopback);
    fair play strict about networks; ``social`` settings over the defaults."""
    config = test_config(trusted_proxies=["127.0.0.1/32"], access_log=False,
                         fair_play={"rated_same_network": False}, social=social)
    app = create_app(f"sqlite:///{tmp_path / 'social.db'}", bot_workers=0, config=config)
    app.state.community.matchmaking.interval = None  # tests run the play-now rounds
    return TestClient(app, client=PROXY)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


@pytest.fixture
def heard(client: TestClient) -> list[tuple[int, dict[str, Any]]]:
    """What the notifier hooks were called with: (account id, event)."""
    got: list[tuple[int, dict[str, Any]]] = []

    async def hook(account_id: int, event: dict[str, Any]) -> None:
        got.append((account_id, event))

    client.app.state.community.notifiers.append(hook)
    return got


class Player:
    """An account with a session, playing from its own network (``address``)."""

    count = 0

    def __init__(self, client: TestClient, name: str, address: str | None = None) -> None:
        community = client.app.state.community
        with community.store.session() as s:
            row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
            s.add(row)
            s.flush()
            self.id = row.id
        new = community.sessions.create(self.id)
        Player.count += 1
        self.client, self.name = client, name
        self.address = address or f"198.51.{Player.count % 250}.{self.id % 250 + 1}"
        self.headers = {"Cookie": f"{SESSION_COOKIE}={new.cookie}", CSRF_HEADER: new.csrf,
                        "X-Forwarded-For": self.address}

    def get(self, path: str) -> httpx.Response:
        return self.client.get(path, headers=self.headers)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.client.post(path, json=body if body is not None else {},
                                headers=self.headers)

    def delete(self, path: str) -> httpx.Response:
        return self.client.delete(path, headers=self.headers)

    def seat(self, gid: str, seat: int) -> str:
        r = self.post(f"/api/games/{gid}/join", {"name": self.name, "seat": seat})
        assert r.status_code == 200, r.text
        return r.json()["token"]

    def challenge(self, *names: str, **body: Any) -> httpx.Response:
        return self.post("/api/challenges", {"names": list(names), "game": GAME, **body})


def refused(r: httpx.Response, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    assert words in r.json()["error"], r.json()["error"]


def offers(client: TestClient) -> int:
    with client.app.state.community.store.session() as s:
        return int(s.scalar(select(func.count()).select_from(OfferRow)) or 0)


def games(client: TestClient) -> int:
    with client.app.state.community.store.session() as s:
        return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)


def finished_game(client: TestClient, a: Player | None, b: Player | None,
                  **body: Any) -> tuple[str, list[str]]:
    """A two-seat game (accounts ``a``/``b``, or guests where None) the first seat
    resigned at once; returns its id and the two seat tokens."""
    r = client.post("/api/games", json={"game": GAME, "players": 2,
                                        "seats": ["human", "human"], **body},
                    headers={"X-Forwarded-For": "192.0.2.1"})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = []
    for seat, p in enumerate((a, b)):
        if p is None:
            j = client.post(f"/api/games/{gid}/join", json={"name": f"guest{seat}",
                                                            "seat": seat},
                            headers={"X-Forwarded-For": f"192.0.2.{10 + seat}"})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
        else:
            tokens.append(p.seat(gid, seat))
    r = client.post(f"/api/games/{gid}/resign", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    return gid, tokens


def rematch(client: TestClient, gid: str, token: str) -> httpx.Response:
    return client.post(f"/api/games/{gid}/rematch", headers=auth(token))


def seat_link(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/rematch", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------------- rematch offers
def test_a_rated_rematch_offer_goes_to_the_same_accounts_rotated(client, heard):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    gid, (ann_token, bob_token) = finished_game(client, ann, bob, rated=True, **FAIR_CLOCK)
    before = games(client)
    r = rematch(client, gid, ann_token)
    assert r.status_code == 201, r.text
    offer = r.json()
    assert offer["kind"] == "rematch" and offer["status"] == "open" and offer["rated"]
    assert offer["from"] == "Ann" and offer["clock"]["seconds"] == 600
    # seats rotated one place: Bob (seat 1) now sits at 0, Ann at 1
    assert [(s["name"], s["answer"]) for s in offer["seats"]] == [("Bob", "open"),
                                                                  ("Ann", "accepted")]
    assert offer["you"] == 1 and offer["game_id"] is None
    assert games(client) == before  # nothing is made before everyone accepted
    # Bob is told, and finds it in his list ("my games")
    told = [e for a, e in heard if a == bob.id]
    assert [(e["kind"], e["event"], e["from"]) for e in told] == [("rematch", "made", "Ann")]
    listed = bob.get("/api/rematches").json()["offers"]
    assert [(o["id"], o["you"], o["your_answer"]) for o in listed] == [(offer["id"], 0, "open")]
    # Bob accepts with his account: the game is made, every seat taken by its holder
    r = bob.post(f"/api/rematches/{offer['id']}/accept")
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["status"] == "started" and started["game_id"]
    new = started["game_id"]
    live = client.app.state.service.games[new]
    assert live.row.rated and live.row.rematch_of == gid and live.row.clock_seconds == 600
    assert [(s.account_id, s.name) for s in live.seats] == [(bob.id, "Bob"), (ann.id, "Ann")]
    assert not any(s.is_open for s in live.seats)
    # Ann's table (her old seat's token) is handed the new seat's token, the same each time
    link = seat_link(client, gid, ann_token)
    assert link["status"] == "started" and link["game_id"] == new and link["token"]
    assert seat_link(client, gid, ann_token)["token"] == link["token"]
    assert view(client, new, link["token"])["you"] == 1
    # Bob opens his seat as any game of his account
    mine = bob.post(f"/api/games/{new}/my-seat", {"seat": 0})
    assert mine.status_code == 200 and view(client, new, mine.json()["token"])["you"] == 0
    # the old tokens play no seat of the new game; the token exchange was Ann's only
    assert client.get(f"/api/games/{new}/view", headers=auth(ann_token)).status_code == 401
    assert seat_link(client, gid, bob_token)["token"] is None  # Bob's seat has its link
    assert [(e["kind"], e["event"]) for a, e in heard if a == ann.id] == [
        ("rematch_update", "accepted"), ("rematch_update", "started")]
    # a second offer of the same game while none is open: a new one is possible
    assert rematch(client, gid, bob_token).json()["status"] == "open"


def test_guests_holding_the_seat_links_get_the_rematch(client):
    gid, (g0, g1) = finished_game(client, None, None)
    r = rematch(client, gid, g1)
    assert r.status_code == 201, r.text
    offer = r.json()
    assert [s["name"] for s in offer["seats"]] == ["guest1", "guest0"] and offer["you"] == 0
    # someone else: no token, a wrong token, a spectator's account
    refused(client.post(f"/api/rematches/{offer['id']}/accept"), 401, "log in")
    refused(client.post(f"/api/rematches/{offer['id']}/accept", headers=auth("x" * 32)),
            401, "belongs to no seat")
    stranger = Player(client, "Stranger")
    refused(stranger.post(f"/api/rematches/{offer['id']}/accept"), 404, "no rematch")
    refused(client.get(f"/api/games/{gid}/rematch"), 401, "seat link")
    # the offering seat cannot accept twice; the other accepts with its token
    refused(client.post(f"/api/rematches/{offer['id']}/accept", headers=auth(g1)), 409,
            "accepted this rematch already")
    r = client.post(f"/api/rematches/{offer['id']}/accept", headers=auth(g0))
    assert r.status_code == 200 and r.json()["status"] == "started", r.text
    new = r.json()["game_id"]
    # each old token is exchanged for its own new seat, and only for it
    t0, t1 = seat_link(client, gid, g0)["token"], seat_link(client, gid, g1)["token"]
    assert t0 and t1 and t0 != t1
    assert view(client, new, t0)["you"] == 1 and view(client, new, t1)["you"] == 0
    assert r.json()["token"] == t0  # the answer hands it too
    names = [s["name"] for s in view(client, new)["seats"]]
    assert names == ["guest1", "guest0"]


def test_a_game_with_one_human_seat_rematches_at_once(client):
    r = client.post("/api/games", json={"game": GAME, "players": 2,
                                        "seats": ["human", "random"]})
    gid = r.json()["id"]
    token = client.post(f"/api/games/{gid}/join", json={"name": "Solo", "seat": 0}
                        ).json()["token"]
    client.post(f"/api/games/{gid}/resign", headers=auth(token))
    r = rematch(client, gid, token)
    assert r.status_code == 201, r.text
    offer = r.json()
    assert offer["status"] == "started" and offer["token"] and offer["you"] == 1
    v = view(client, offer["game_id"], offer["token"])
    assert v["you"] == 1 and v["seats"][0]["bot"] == "random"


def test_refused_rematch_offers_change_nothing(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    r = client.post("/api/games", json={"game": GAME, "players": 2,
                                        "seats": ["human", "human"]})
    gid = r.json()["id"]
    token = ann.seat(gid, 0)
    refused(rematch(client, gid, token), 403, "finished game")  # not over
    client.post(f"/api/games/{gid}/resign", headers=auth(token))
    refused(rematch(client, gid, token), 403, "never taken")  # seat 1 is nobody's
    refused(client.post(f"/api/games/{gid}/rematch"), 401, "seat link")
    refused(bob.post(f"/api/games/{gid}/rematch"), 403, "only a player seated")
    assert offers(client) == 0


def test_declined_offers_close_and_a_game_has_at_most_three(client, heard):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    gid, (a, b) = finished_game(client, ann, bob)
    for _ in range(3):
        offer = rematch(client, gid, a).json()
        refused(rematch(client, gid, a), 409, "accepted this rematch already")
        r = client.post(f"/api/rematches/{offer['id']}/decline", headers=auth(b))
        assert r.status_code == 200 and r.json()["status"] == "declined", r.text
        assert r.json()["reason"] == "Bob declined"
        refused(client.post(f"/api/rematches/{offer['id']}/accept", headers=auth(b)), 409,
                "declined already")
    refused(rematch(client, gid, b), 429, "3 rematch offers")
    assert offers(client) == 3
    assert [e["event"] for i, e in heard if i == ann.id] == ["declined"] * 3


def test_blocked_players_offer_no_rematch(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    gid, (a, b) = finished_game(client, ann, bob)
    assert bob.post("/api/blocks", {"name": "Ann"}).status_code == 201
    refused(rematch(client, gid, a), 403, "Bob does not take rematch offers from you")
    refused(rematch(client, gid, b), 403, "you blocked Ann")
    assert offers(client) == 0


def test_a_rated_rematch_passes_the_daily_pair_cap(tmp_path):
    with make_client(tmp_path) as client:
        client.app.state.config.fair_play.rated_pair_games_per_day = 1
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        gid, (a, _b) = finished_game(client, ann, bob, rated=True, **FAIR_CLOCK)
        refused(rematch(client, gid, a), 403, "have met in 1 rated games in the last 24 hours")
        assert offers(client) == 0


def test_an_offer_expires_and_cannot_be_accepted(tmp_path):
    with make_client(tmp_path, rematch_offer_minutes=0.002) as client:  # 0.12 s
        heard: list[tuple[int, dict[str, Any]]] = []

        async def hook(account_id: int, event: dict[str, Any]) -> None:
            heard.append((account_id, event))

        client.app.state.community.notifiers.append(hook)
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        gid, (a, b) = finished_game(client, ann, bob)
        offer = rematch(client, gid, a).json()
        time.sleep(0.3)
        assert bob.get("/api/rematches").json()["offers"] == []
        assert seat_link(client, gid, a)["status"] == "expired"
        # the sweep closes it and tells both
        assert client.portal.call(client.app.state.community.offers.sweep) == [offer["id"]]
        assert {(i, e["event"]) for i, e in heard if e["event"] == "expired"} == {
            (ann.id, "expired"), (bob.id, "expired")}
        refused(client.post(f"/api/rematches/{offer['id']}/accept", headers=auth(b)), 409,
                "expired")
        # a new offer may be made
        assert rematch(client, gid, b).json()["status"] == "open"


# ---------------------------------------------------------------------- challenges
def test_a_challenge_by_name_is_accepted_and_the_game_made(client, heard):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    r = ann.challenge("bob", rated=True, **FAIR_CLOCK)  # names are not case-sensitive
    assert r.status_code == 201, r.text
    c = r.json()
    assert c["status"] == "open" and c["from"] == "Ann" and c["mine"]
    assert sorted(s["name"] for s in c["seats"]) == ["Ann", "Bob"]
    assert [(i, e["kind"], e["from"], e["title"]) for i, e in heard] == [
        (bob.id, "challenge", "Ann", "Rift Domination")]
    received = bob.get("/api/challenges").json()
    assert [x["id"] for x in received["received"]] == [c["id"]] and received["sent"] == []
    assert [x["id"] for x in ann.get("/api/challenges").json()["sent"]] == [c["id"]]
    # only the challenged answers; a stranger sees nothing of it
    refused(Player(client, "Cay").post(f"/api/challenges/{c['id']}/accept"), 404,
            "no challenge")
    refused(Player(client, "Dee").get(f"/api/challenges/{c['id']}"), 404, "no challenge")
    r = bob.post(f"/api/challenges/{c['id']}/accept")
    assert r.status_code == 200 and r.json()["status"] == "started", r.text
    new = r.json()["game_id"]
    live = client.app.state.service.games[new]
    assert live.row.rated and live.row.clock_kind == "game" and live.row.clock_seconds == 600
    assert sorted(s.account_id for s in live.seats) == sorted([ann.id, bob.id])
    assert ann.get(f"/api/challenges/{c['id']}").json()["game_id"] == new
    for p in (ann, bob):
        mine = p.post(f"/api/games/{new}/my-seat")
        assert mine.status_code == 200, mine.text
    assert ("challenge_update", "started") in [(e["kind"], e["event"])
                                               for i, e in heard if i == ann.id]


def test_refused_challenges_say_why_and_store_nothing(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    refused(ann.challenge("Nobody"), 404, "no player is called 'Nobody'")
    refused(ann.challenge("Ann"), 422, "you cannot challenge yourself")
    refused(ann.challenge("Bob", "bob"), 422, "named twice")
    refused(ann.challenge("Bob", players=3), 422, "game of 2 players")
    refused(ann.challenge("Bob", rated=True), 422, "a rated game needs a turn clock")
    refused(ann.challenge("Bob", rated=True, clock_seconds=10, clock_kind="game",
                          timeout="lose"), 422, "at least 5 minutes")
    refused(ann.challenge("Bob", game="chess"), 400, "chess")
    refused(ann.challenge("Bob", options={"no_such_option": 1}), 400, "no_such_option")
    refused(client.post("/api/challenges", json={"names": ["Bob"], "game": GAME}), 401,
            "log in")
    refused(client.post("/api/challenges", json={"names": ["Bob"], "game": GAME},
                        headers={"Cookie": ann.headers["Cookie"]}), 403, CSRF_HEADER)
    assert bob.post("/api/blocks", {"name": "Ann"}).status_code == 201
    refused(ann.challenge("Bob"), 403, "Bob does not take challenges from you")
    refused(bob.challenge("Ann"), 403, "you blocked Ann")
    assert offers(client) == 0


def test_a_challenge_of_more_players_starts_when_all_accept_and_one_decline_ends_it(client):
    ann, bob, cay = Player(client, "Ann"), Player(client, "Bob"), Player(client, "Cay")
    c = ann.challenge("Bob", "Cay").json()
    assert c["players"] == 3
    r = bob.post(f"/api/challenges/{c['id']}/accept")
    assert r.json()["status"] == "open" and r.json()["your_answer"] == "accepted"
    refused(bob.post(f"/api/challenges/{c['id']}/accept"), 409, "accepted this challenge")
    before = games(client)
    r = cay.post(f"/api/challenges/{c['id']}/accept")
    assert r.json()["status"] == "started" and games(client) == before + 1
    # another: Cay declines, it is closed for everyone
    c = ann.challenge("Bob", "Cay").json()
    r = cay.post(f"/api/challenges/{c['id']}/decline")
    assert r.json()["status"] == "declined" and r.json()["reason"] == "Cay declined"
    refused(bob.post(f"/api/challenges/{c['id']}/accept"), 409, "declined already")
    # the challenger withdraws one; the challenged cannot withdraw it
    c = ann.challenge("Bob").json()
    refused(bob.delete(f"/api/challenges/{c['id']}"), 404, "you made no challenge")
    r = ann.delete(f"/api/challenges/{c['id']}")
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    refused(bob.post(f"/api/challenges/{c['id']}/accept"), 409, "withdrawn already")
    assert games(client) == before + 1


def test_a_challenge_expires(tmp_path):
    with make_client(tmp_path, challenge_hours=0.00005) as client:  # 0.18 s
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        c = ann.challenge("Bob").json()
        time.sleep(0.4)
        assert bob.get("/api/challenges").json()["received"] == []
        refused(bob.post(f"/api/challenges/{c['id']}/accept"), 409, "expired")
        assert ann.get(f"/api/challenges/{c['id']}").json()["status"] == "expired"
        # the same challenge again: a new one
        assert ann.challenge("Bob").status_code == 201


def test_a_rated_challenge_passes_the_daily_pair_cap_and_the_network_rule(tmp_path):
    with make_client(tmp_path) as client:
        client.app.state.config.fair_play.rated_pair_games_per_day = 1
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        cay = Player(client, "Cay", address=ann.address)  # Ann's network
        c = ann.challenge("Bob", rated=True, **FAIR_CLOCK).json()
        assert bob.post(f"/api/challenges/{c['id']}/accept").json()["status"] == "started"
        refused(ann.challenge("Bob", rated=True, **FAIR_CLOCK), 403,
                "Ann and Bob have met in 1 rated games")
        assert ann.challenge("Bob", **FAIR_CLOCK).status_code == 201  # unrated: fine
        c = ann.challenge("Cay", rated=True, **FAIR_CLOCK).json()
        refused(cay.post(f"/api/challenges/{c['id']}/accept"), 403, "from your network")
        assert cay.get(f"/api/challenges/{c['id']}").json()["status"] == "open"


def test_a_stranger_sending_a_thousand_challenges_is_capped(tmp_path):
    with make_client(tmp_path, open_challenges=5, challenges_per_hour=12) as client:
        stranger = Player(client, "Stranger")
        targets = [Player(client, f"Target{i}").name for i in range(10)]

        async def flood(c: httpx.AsyncClient) -> list[int]:
            replies = await asyncio.gather(*(
                c.post("/api/challenges", headers=stranger.headers,
                       json={"name": targets[i % 10], "game": GAME})
                for i in range(1000)))
            return [r.status_code for r in replies]

        async def go() -> list[int]:
            transport = httpx.ASGITransport(app=client.app, client=PROXY)
            async with httpx.AsyncClient(transport=transport,
                                         base_url="http://testserver") as c:
                return await flood(c)

        codes = client.portal.call(go)
        assert codes.count(201) == 5 and codes.count(429) == 995, sorted(set(codes))
        r = stranger.challenge(targets[9])
        refused(r, 429, "you have 5 challenges waiting for an answer")
        assert offers(client) == 5
        # withdrawing and sending again is capped per hour
        sent = 5
        for _ in range(20):
            mine = stranger.get("/api/challenges").json()["sent"]
            stranger.delete(f"/api/challenges/{mine[0]['id']}")
            r = stranger.challenge(mine[0]["seats"][0]["name"]
                                   if mine[0]["seats"][0]["name"] != "Stranger"
                                   else mine[0]["seats"][1]["name"])
            if r.status_code != 201:
                break
            sent += 1
        assert sent == 12
        refused(r, 429, "you have sent 12 challenges in the last hour")


# ---------------------------------------------------------------------- follow, presence
def test_follow_shows_online_playing_and_where_to_watch_and_presence_may_hide(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    r = ann.post("/api/follows", {"name": "bob"})
    assert r.status_code == 201, r.text
    assert r.json()["following"] == [{"name": "Bob", "status": "offline", "games": []}]
    assert ann.post("/api/follows", {"name": "Bob"}).status_code == 201  # again: the same
    bob.get("/api/follows")  # Bob's page asks: he is online
    assert ann.get("/api/follows").json()["following"][0]["status"] == "online"
    # Bob sits at a game: playing, and where to watch it
    gid = client.post("/api/games", json={"game": GAME, "players": 2,
                                          "seats": ["human", "random"]}).json()["id"]
    bob.seat(gid, 0)
    entry = ann.get("/api/follows").json()["following"][0]
    assert entry["status"] == "playing"
    assert entry["games"] == [{"id": gid, "game": GAME, "title": "Rift Domination",
                               "url": f"/games/{gid}"}]
    # Bob hides his presence: offline to everyone, and nothing about his games
    assert bob.post("/api/presence", {"hidden": True}).json() == {"hidden": True}
    assert bob.get("/api/presence").json() == {"hidden": True}
    assert ann.get("/api/follows").json()["following"] == [
        {"name": "Bob", "status": "offline", "games": []}]
    bob.post("/api/presence", {"hidden": False})
    # presence runs out after social.online_minutes without a sign of life
    community = client.app.state.community
    with community.store.session() as s:
        s.get(PresenceRow, bob.id).seen -= __import__("datetime").timedelta(minutes=6)
    assert ann.get("/api/follows").json()["following"][0]["status"] == "offline"
    # unfollow; refusals
    assert ann.delete("/api/follows/Bob").json()["following"] == []
    refused(ann.delete("/api/follows/Bob"), 404, "you do not follow Bob")
    refused(ann.post("/api/follows", {"name": "Nobody"}), 404, "no player is called")
    refused(ann.post("/api/follows", {"name": "Ann"}), 422, "you cannot follow yourself")
    refused(client.get("/api/follows"), 401, "log in")


def test_an_open_table_counts_as_online(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    ann.post("/api/follows", {"name": "Bob"})
    gid = client.post("/api/games", json={"game": GAME, "players": 2,
                                          "seats": ["human", "random"]}).json()["id"]
    token = bob.seat(gid, 0)
    assert ann.get("/api/follows").json()["following"][0]["status"] == "offline"
    with client.websocket_connect(f"/ws/games/{gid}?token={token}") as ws:
        ws.receive_text()
        client.portal.call(client.app.state.community.offers.sweep)
    assert ann.get("/api/follows").json()["following"][0]["status"] == "playing"


def test_follows_are_capped(tmp_path):
    with make_client(tmp_path, follows=2) as client:
        ann = Player(client, "Ann")
        for name in ("Bob", "Cay", "Dee"):
            Player(client, name)
        assert ann.post("/api/follows", {"name": "Bob"}).status_code == 201
        assert ann.post("/api/follows", {"name": "Cay"}).status_code == 201
        refused(ann.post("/api/follows", {"name": "Dee"}), 429, "you follow 2 players")


def test_presence_writes_are_bounded_in_memory(client):
    friends = client.app.state.community.friends
    client.portal.call(friends.touch, range(1, 3000))
    assert len(friends._touched) == 2999  # the writes of the last minute
    friends._touched = {a: t - 120 for a, t in friends._touched.items()}  # a minute later
    client.portal.call(friends.touch, [5000])
    assert len(friends._touched) == 1


# ---------------------------------------------------------------------- blocks
def test_block_hides_chat_stops_follows_and_is_listed(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    gid = client.post("/api/games", json={"game": GAME, "players": 2,
                                          "seats": ["human", "human"]}).json()["id"]
    ann.seat(gid, 0)
    bob.seat(gid, 1)
    r = ann.post(f"/api/games/{gid}/chat", {"channel": "players", "text": "hello Bob"})
    assert r.status_code == 201, r.text
    texts = [m["text"] for m in bob.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert texts == ["hello Bob"]
    ann.post("/api/follows", {"name": "Bob"})
    r = bob.post("/api/blocks", {"name": "ann"})
    assert r.status_code == 201 and r.json() == {"blocked": ["Ann"]}
    assert bob.get("/api/blocks").json() == {"blocked": ["Ann"]}
    assert bob.get(f"/api/games/{gid}/chat").json()["messages"] == []
    assert ann.get("/api/follows").json()["following"] == []  # the follow ended
    refused(ann.post("/api/follows", {"name": "Bob"}), 403, "does not take follows")
    assert r.json() == bob.post("/api/blocks", {"name": "Ann"}).json()  # again: the same
    assert bob.delete("/api/blocks/Ann").json() == {"blocked": []}
    assert [m["text"] for m in bob.get(f"/api/games/{gid}/chat").json()["messages"]] == [
        "hello Bob"]
    refused(bob.delete("/api/blocks/Ann"), 404, "you have not blocked Ann")
    refused(bob.post("/api/blocks", {"name": "Nobody"}), 404, "no player is called")
    refused(bob.post("/api/blocks", {"name": "Bob"}), 422, "you cannot block yourself")
    refused(client.get("/api/blocks"), 401, "log in")
    refused(client.post("/api/blocks", json={"name": "Ann"},
                        headers={"Cookie": bob.headers["Cookie"]}), 403, CSRF_HEADER)


def test_blocks_are_capped(tmp_path):
    with make_client(tmp_path, blocks=2) as client:
        ann = Player(client, "Ann")
        for name in ("Bob", "Cay", "Dee"):
            Player(client, name)
        assert ann.post("/api/blocks", {"name": "Bob"}).status_code == 201
        assert ann.post("/api/blocks", {"name": "Cay"}).status_code == 201
        refused(ann.post("/api/blocks", {"name": "Dee"}), 429, "you have blocked 2 players")


def test_play_now_never_seats_a_blocked_pair(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    bob.post("/api/blocks", {"name": "Ann"})
    for p in (ann, bob):
        r = p.post("/api/play", {"game": GAME, "players": 2, "mode": "realtime"})
        assert r.status_code == 201, r.text
    mm = client.app.state.community.matchmaking
    assert client.portal.call(mm.tick) == []
    bob.delete("/api/blocks/Ann")
    assert len(client.portal.call(mm.tick)) == 1


def test_a_rematch_offer_counts_for_the_quota_of_unfinished_games(tmp_path):
    with make_client(tmp_path) as client:
        client.app.state.config.limits.games_per_account = 1
        ann, bob = Player(client, "Ann"), Player(client, "Bob")
        gid, (a, b) = finished_game(client, ann, bob)
        r = ann.post("/api/games", {"game": GAME, "players": 2, "seats": ["human", "human"]})
        assert r.status_code == 201, r.text  # Ann's one unfinished game
        refused(rematch(client, gid, a), 429, "your account already has 1 unfinished game")
        assert offers(client) == 0
        # Bob's offer is Bob's game: it may be made; Ann's acceptance makes the game
        offer = rematch(client, gid, b).json()
        r = ann.post(f"/api/rematches/{offer['id']}/accept")
        assert r.status_code == 200 and r.json()["status"] == "started", r.text


def test_two_seats_offering_at_once_make_one_offer(client):
    ann, bob = Player(client, "Ann"), Player(client, "Bob")
    gid, (a, b) = finished_game(client, ann, bob)

    async def both(c: httpx.AsyncClient) -> list[httpx.Response]:
        return list(await asyncio.gather(
            c.post(f"/api/games/{gid}/rematch", headers=auth(a)),
            c.post(f"/api/games/{gid}/rematch", headers=auth(b))))

    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app, client=PROXY)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return await both(c)

    replies = client.portal.call(go)
    assert [r.status_code for r in replies] == [201, 201], [r.text for r in replies]
    # one offer: the second request accepted it, and the game was made once
    assert offers(client) == 1
    assert len({r.json()["id"] for r in replies}) == 1
    statuses = sorted(r.json()["status"] for r in replies)
    # the acceptance started the game; the offer's own answer shows it as it stood when
    # that answer was written (open, or already being started by the other request)
    assert "started" in statuses and statuses[0] in ("open", "started", "starting"), statuses
