"""Rated means played: the attacks of a player who farms a rating with a second account,
each reproduced through the HTTP API and refused (``docs/community/fair-play.md``).

- a rated game with a one-second clock, lost on time by a second account that never moves;
- a rated game with a fair clock in which one seat never moves: aborted, nobody's rating
  moves;
- two accounts of one client network in one rated game; one pair of accounts meeting in
  rated game after rated game;
- play now pairing one person's two accounts with each other, and one account holding many
  play-now games at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from starlanes.server.app import create_app
from starlanes.server.community.identity import CSRF_HEADER, SESSION_COOKIE
from starlanes.server.community.models import AccountRow, RatedGameRow, RatingRow

from .conftest import auth, test_config, view, wait_view

GAME = "rift-domination"
FAIR_CLOCK = {"clock_seconds": 600, "clock_kind": "game", "timeout": "lose"}


def _client(tmp_path: Any, limits: dict[str, Any] | None = None,
            **fair_play: Any) -> TestClient:
    """A server that trusts the loopback proxy's X-Forwarded-For, so each request may come
    from the address a test names; fair play as configured (the defaults: strict)."""
    config = test_config(trusted_proxies=["127.0.0.1/32"], limits=limits or {},
                         fair_play={"rated_same_network": False, **fair_play})
    app = create_app(f"sqlite:///{tmp_path / 'fair.db'}", bot_workers=0, config=config)
    return TestClient(app, client=("127.0.0.1", 5000))


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with _client(tmp_path) as c:
        yield c


class Player:
    """An account with a session, playing from the address ``address``."""

    def __init__(self, client: TestClient, name: str, address: str) -> None:
        community = client.app.state.community
        with community.store.session() as s:
            row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
            s.add(row)
            s.flush()
            self.id = row.id
        new = community.sessions.create(self.id)
        self.client, self.name, self.address = client, name, address
        self.headers = {"Cookie": f"{SESSION_COOKIE}={new.cookie}", CSRF_HEADER: new.csrf,
                        "X-Forwarded-For": address}

    def create(self, mine: bool = False, **body: Any) -> Any:
        """Create a game (``mine``: as this account, counted in its quota)."""
        return self.client.post("/api/games", json={"game": GAME, "players": 2,
                                                    "seats": ["human", "human"], **body},
                                headers=self.headers if mine
                                else {"X-Forwarded-For": self.address})

    def join(self, game_id: str, seat: int) -> Any:
        return self.client.post(f"/api/games/{game_id}/join",
                                json={"name": self.name, "seat": seat}, headers=self.headers)

    def queue(self) -> Any:
        return self.client.post("/api/play", json={"game": GAME, "players": 2,
                                                   "mode": "realtime"}, headers=self.headers)


def _rated_game(a: Player, b: Player) -> tuple[str, list[str]]:
    r = a.create(rated=True, **FAIR_CLOCK)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = []
    for seat, p in enumerate((a, b)):
        r = p.join(gid, seat)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return gid, tokens


def _ratings(client: TestClient) -> tuple[int, dict[str, int]]:
    """Rated games stored, and the games each account's rating counts."""
    with client.app.state.community.store.session() as s:
        rated = s.scalar(select(func.count()).select_from(RatedGameRow))
        rows = s.scalars(select(RatingRow).where(RatingRow.player.like("a:%"))).all()
        return int(rated or 0), {r.player: r.games for r in rows}


def _settle(client: TestClient) -> None:
    client.portal.call(client.app.state.community.ratings.settle)


def _play_one(client: TestClient, gid: str, tokens: list[str]) -> int:
    v = view(client, gid)
    seat = v["waiting_for"]
    mine = view(client, gid, tokens[seat])
    r = client.post(f"/api/games/{gid}/actions",
                    json={"seq": mine["seq"], "action": mine["legal"][-1]["notation"]},
                    headers=auth(tokens[seat]))
    assert r.status_code == 200, r.text
    return seat


# ---------------------------------------------------------------------- the time control
@pytest.mark.parametrize("clock", [
    {},                                                               # no clock at all
    {"clock_seconds": 1, "clock_kind": "game", "timeout": "lose"},    # the farming clock
    {"clock_seconds": 299, "clock_kind": "game"},
    {"clock_seconds": 29, "clock_kind": "move"},
])
def test_a_rated_game_needs_the_least_time_control(client, clock) -> None:
    """RATING FARMING: a rated game with ``clock_seconds: 1``, lost on time by a second
    account 1.3 s later, put a fresh account at the top of the leaderboard."""
    ann = Player(client, "Ann", "198.51.100.7")
    r = ann.create(rated=True, **clock)
    assert r.status_code == 422
    reason = r.json()["error"]
    assert "rated game" in reason and ("5 minutes" in reason or "30 seconds" in reason)
    assert client.get("/api/games").json()["games"] == []  # nothing was created
    assert ann.create(rated=True, clock_seconds=300, clock_kind="game").status_code == 201
    assert ann.create(rated=True, clock_seconds=30, clock_kind="move").status_code == 201
    assert ann.create(**clock).status_code == 201  # an unrated game may have any clock


# ---------------------------------------------------------------------- the abort rule
def test_a_rated_game_where_a_seat_never_moves_changes_no_rating(client, fake) -> None:
    """RATING FARMING: the second account takes its seat and never moves; its time runs
    out. The game is aborted: no winner, and nobody's rating moves."""
    ann, sock = Player(client, "Ann", "198.51.100.7"), Player(client, "Sock", "203.0.113.9")
    gid, tokens = _rated_game(ann, sock)
    mover = _play_one(client, gid, tokens)  # one seat plays; the other never will
    while view(client, gid)["waiting_for"] == mover:
        _play_one(client, gid, tokens)
    fake.now += 601  # past the idle seat's whole clock
    v = wait_view(client, gid, lambda v: v["result"] is not None)
    assert v["result"]["outcome"]["reason"] == "abort"
    assert v["result"]["outcome"]["ranks"] is None and v["result"]["winners"] == []
    _settle(client)
    assert _ratings(client) == (0, {})


def test_a_rated_game_both_seats_played_is_rated(client, fake) -> None:
    ann, bob = Player(client, "Ann", "198.51.100.7"), Player(client, "Bob", "203.0.113.9")
    gid, tokens = _rated_game(ann, bob)
    moved: set[int] = set()
    while len(moved) < 2:
        moved.add(_play_one(client, gid, tokens))
    fake.now += 601
    v = wait_view(client, gid, lambda v: v["result"] is not None)
    assert v["result"]["outcome"]["reason"] == "timeout"
    _settle(client)
    assert _ratings(client) == (1, {f"a:{ann.id}": 1, f"a:{bob.id}": 1})


# ---------------------------------------------------------------------- one network
def test_two_accounts_of_one_network_cannot_meet_in_a_rated_game(client) -> None:
    """A second account from the same network (the same /24, or the same IPv6 /48 though
    another /64) may not take the other seat of a rated game; the seat stays open."""
    ann = Player(client, "Ann", "198.51.100.7")
    for address in ("198.51.100.200", "198.51.100.7"):
        sock = Player(client, f"Sock{address[-3:].strip('.')}", address)
        gid = ann.create(rated=True, **FAIR_CLOCK).json()["id"]
        assert ann.join(gid, 0).status_code == 200
        r = sock.join(gid, 1)
        assert r.status_code == 403 and "network" in r.json()["error"]
        assert view(client, gid)["seats"][1]["open"] is True  # nothing changed
        unrated = ann.create(**FAIR_CLOCK).json()["id"]  # they may play unrated
        assert ann.join(unrated, 0).status_code == 200
        assert sock.join(unrated, 1).status_code == 200
    six_a = Player(client, "Six", "2001:db8:aa:1::5")
    six_b = Player(client, "Sixb", "2001:db8:aa:ff00::9")  # another /64, one /48
    gid = six_a.create(rated=True, **FAIR_CLOCK).json()["id"]
    assert six_a.join(gid, 0).status_code == 200
    assert six_b.join(gid, 1).status_code == 403
    other = Player(client, "Far", "2001:db8:bb::1")  # another /48: a stranger
    assert other.join(gid, 1).status_code == 200


def test_a_club_server_may_let_one_network_meet(tmp_path) -> None:
    with _client(tmp_path, rated_same_network=True) as c:
        ann, bob = Player(c, "Ann", "198.51.100.7"), Player(c, "Bob", "198.51.100.8")
        _rated_game(ann, bob)


# ---------------------------------------------------------------------- one pair a day
def test_two_accounts_meet_in_a_few_rated_games_a_day(tmp_path, fake) -> None:
    with _client(tmp_path, rated_pair_games_per_day=2) as c:
        ann, bob = Player(c, "Ann", "198.51.100.7"), Player(c, "Bob", "203.0.113.9")
        _rated_game(ann, bob)
        _rated_game(bob, ann)
        gid = ann.create(rated=True, **FAIR_CLOCK).json()["id"]
        assert ann.join(gid, 0).status_code == 200
        r = bob.join(gid, 1)
        assert r.status_code == 403 and "2 rated games in the last 24 hours" in r.json()["error"]
        cid = Player(c, "Cid", "192.0.2.44")
        assert cid.join(gid, 1).status_code == 200  # anyone else may take the seat


def test_aborted_games_do_not_count_toward_the_pair_cap(tmp_path, fake) -> None:
    with _client(tmp_path, rated_pair_games_per_day=1) as c:
        ann, bob = Player(c, "Ann", "198.51.100.7"), Player(c, "Bob", "203.0.113.9")
        gid, _ = _rated_game(ann, bob)
        fake.now += 601  # the first seat never moves: aborted
        wait_view(c, gid, lambda v: v["result"] is not None)
        _rated_game(ann, bob)  # may meet again


# ---------------------------------------------------------------------- play now
def test_play_now_never_pairs_one_network_with_itself(client) -> None:
    """SELF-PAIRING: one person's two accounts queued together were paired with each other
    55 times in 60 s."""
    mm = client.app.state.community.matchmaking
    mm.interval = None
    ann, sock = Player(client, "Ann", "198.51.100.7"), Player(client, "Sock", "198.51.100.9")
    assert ann.queue().status_code == 201 and sock.queue().status_code == 201
    assert client.portal.call(mm.tick) == []
    bob = Player(client, "Bob", "203.0.113.9")
    assert bob.queue().status_code == 201
    made = client.portal.call(mm.tick)
    assert len(made) == 1
    live = client.app.state.service.live(made[0])
    seated = {s.account_id for s in live.seats}
    assert bob.id in seated and len(seated & {ann.id, sock.id}) == 1


def test_play_now_holds_one_game_per_account_and_game(client) -> None:
    mm = client.app.state.community.matchmaking
    mm.interval = None
    ann, bob = Player(client, "Ann", "198.51.100.7"), Player(client, "Bob", "203.0.113.9")
    ann.queue(), bob.queue()
    assert len(client.portal.call(mm.tick)) == 1
    r = ann.queue()
    assert r.status_code == 409 and "play-now game" in r.json()["error"]
    assert client.post("/api/play", json={"game": "galactic-domination", "players": 2,
                                          "mode": "realtime"},
                       headers=ann.headers).status_code == 201  # another game may be queued


def test_a_player_whose_quota_fills_while_waiting_leaves_the_queue(tmp_path) -> None:
    """An account's games fill its quota while it waits in play now: it leaves the queue
    (its entry shows none) instead of failing every round; the others wait on."""
    with _client(tmp_path, limits={"games_per_account": 1}) as c:
        mm = c.app.state.community.matchmaking
        mm.interval = None
        ann, bob = Player(c, "Ann", "198.51.100.7"), Player(c, "Bob", "203.0.113.9")
        assert ann.queue().status_code == 201
        c.app.state.community.matchmaking.clock = lambda: 10**9  # Ann waited longest
        assert bob.queue().status_code == 201
        mm.clock = lambda: 0.0
        assert ann.create(mine=True).status_code == 201  # her quota is full now
        assert c.portal.call(mm.tick) == []
        assert c.get("/api/play", headers=ann.headers).json()["status"] == "none"
        assert c.get("/api/play", headers=bob.headers).json()["status"] == "waiting"


def test_joining_the_queue_over_and_over_is_limited(tmp_path) -> None:
    """SELF-PAIRING churn: four accounts joined the play-now queue 1,008 times in a minute;
    an account may join it ``queue_joins_per_minute`` times a minute."""
    with _client(tmp_path, limits={"queue_joins_per_minute": 3}) as c:
        c.app.state.community.matchmaking.interval = None
        ann = Player(c, "Ann", "198.51.100.7")
        for _ in range(3):
            assert ann.queue().status_code == 201
            assert c.delete("/api/play", headers=ann.headers).status_code == 200
        r = ann.queue()
        assert r.status_code == 429 and "queue joins" in r.json()["error"]
        assert int(r.headers["Retry-After"]) >= 1
        assert c.get("/api/play", headers=ann.headers).json()["status"] == "none"
        bob = Player(c, "Bob", "203.0.113.9")  # another account is not held back
        assert bob.queue().status_code == 201
