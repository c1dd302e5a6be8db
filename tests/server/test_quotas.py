"""Quotas of unfinished games and the rate of creates per network, attacked through the
HTTP API (``docs/security.md``, :mod:`starlanes.server.quotas`).

Clients are told apart as a server behind a reverse proxy tells them apart: the test
client's peer is a trusted proxy (10.0.0.2) and each request names its client in
``X-Forwarded-For``. A registered player sends its session cookie and ``X-CSRF-Token``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("limits", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402
from starlanes.server.community.identity import CSRF_HEADER, SESSION_COOKIE  # noqa: E402
from starlanes.server.community.models import AccountRow  # noqa: E402
from starlanes.server.config import load_config  # noqa: E402
from starlanes.server.store import GameRow, SeatRow  # noqa: E402

from .conftest import auth, view  # noqa: E402

PROXY = ("10.0.0.2", 40000)
GAME = {"game": "rift-domination", "players": 2, "seats": ["human", "human"]}
PLAYER = "198.51.100.7"


def as_(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def make_app(url: str, **limits: Any) -> Any:
    """The server with its default limits and quotas but ``limits``, behind a proxy."""
    config = load_config(limits=limits, access_log=False, trusted_proxies=["10.0.0.0/8"])
    return create_app(url, bot_workers=0, config=config)


@contextlib.contextmanager
def serve(url: str, **limits: Any) -> Iterator[TestClient]:
    with TestClient(make_app(url, **limits), client=PROXY) as client:
        yield client


class Account:
    """An account made in the database, with a session (cookie and CSRF token)."""

    def __init__(self, client: TestClient, name: str) -> None:
        community = client.app.state.community  # type: ignore[attr-defined]
        with community.store.session() as s:
            row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
            s.add(row)
            s.flush()
            self.id = row.id
        new = community.sessions.create(self.id)
        self.cookie, self.csrf = new.cookie, new.csrf

    def headers(self, address: str = PLAYER) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.cookie}", CSRF_HEADER: self.csrf,
                **as_(address)}


def flood(client: TestClient, addresses: list[str], each: int) -> list[int]:
    """``each`` creates from every address, all of one round in flight at once; the
    statuses answered."""
    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=client.app, client=PROXY)
        codes: list[int] = []
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver",
                                     timeout=120) as c:
            for _ in range(each):
                replies = await asyncio.gather(*(c.post("/api/games", json=GAME,
                                                        headers=as_(a))
                                                 for a in addresses))
                codes += [r.status_code for r in replies]
        return codes

    assert client.portal is not None
    return client.portal.call(go)


def unfinished(client: TestClient, **where: Any) -> int:
    store = client.app.state.service.store  # type: ignore[attr-defined]
    with store.session() as s:
        query = s.query(GameRow).filter(GameRow.ended.is_(None))
        for key, value in where.items():
            query = query.filter(getattr(GameRow, key) == value)
        return query.count()


def play_a_move(client: TestClient, game_id: str, headers: dict[str, str]) -> None:
    """Take both seats of ``game_id`` and make the first decision."""
    tokens = []
    for seat in (0, 1):
        r = client.post(f"/api/games/{game_id}/join", json={"name": f"p{seat}", "seat": seat},
                        headers=as_(PLAYER))
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    v = view(client, game_id)
    token = tokens[v["waiting_for"]]
    mine = client.get(f"/api/games/{game_id}/view", headers=auth(token)).json()
    r = client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                    json={"seq": mine["seq"], "action": mine["legal"][0]["notation"]})
    assert r.status_code == 200, r.text


# ---------------------------------------------------------------------- the anonymous flood
def test_2000_anonymous_creates_from_200_addresses_leave_a_player_room_to_play(db_url):
    # 200 loopback addresses, each in a /24 of its own, 10 creates each, every round of
    # 200 in flight at once
    addresses = [f"127.{i // 250}.{i % 250}.1" for i in range(200)]
    with serve(db_url, open_games=1000) as client:
        codes = flood(client, addresses, 10)
        assert len(codes) == 2000
        made = codes.count(201)
        # 3 per network, and never more than half the cap for games without an account
        assert made == 500 and codes.count(429) == 1500
        assert unfinished(client) == 500
        r = client.post("/api/games", json=GAME, headers=as_("127.9.9.1"))
        assert r.status_code == 429
        assert "log in to create a game" in r.json()["error"]
        assert int(r.headers["Retry-After"]) > 0
        r = client.post("/api/games", json=GAME, headers=as_(addresses[0]))
        assert r.status_code == 429
        assert "your network already has 3 unfinished games" in r.json()["error"]
        # a registered player creates a game and plays it
        player = Account(client, "Pat")
        r = client.post("/api/games", json=GAME, headers=player.headers())
        assert r.status_code == 201, r.text
        play_a_move(client, r.json()["id"], player.headers())
        assert unfinished(client, owner_account=player.id) == 1
    # a restart brings back neither a full server nor an empty quota
    with serve(db_url, open_games=1000) as client:
        r = client.post("/api/games", json=GAME, headers=as_(addresses[1]))
        assert r.status_code == 429 and "your network already has 3" in r.json()["error"]
        r = client.post("/api/games", json=GAME, headers=as_("127.9.9.1"))
        assert r.status_code == 429 and "log in" in r.json()["error"]
        r = client.post("/api/games", json=GAME, headers=player.headers())
        assert r.status_code == 201, r.text


def test_a_full_server_still_takes_a_registered_players_game_after_a_restart(tmp_path):
    """The cap full (half its games without an account, half of accounts): games without
    an account get 429 with the reason; once one game of an account ends, an account's
    game is made and a guest's is not; a restart changes nothing."""
    url = f"sqlite:///{tmp_path / 'full.db'}"
    with serve(url, open_games=20) as client:
        with client.app.state.service.store.session() as s:
            for i in range(20):
                s.add(GameRow(id=f"g{i:05d}", game="rift-domination", players=2, seed=i,
                              options={}, owner_account=None if i < 10 else 1,
                              owner_network=f"192.0.{i}.0/24"))
                s.flush()
                s.add_all(SeatRow(game_id=f"g{i:05d}", seat=k, kind="human")
                          for k in (0, 1))
        r = client.post("/api/games", json=GAME, headers=as_("203.0.113.5"))
        assert r.status_code == 429
        assert "most unfinished games (20)" in r.json()["error"]
    with serve(url, open_games=20) as client:
        assert client.post("/api/games", json=GAME,
                           headers=as_("203.0.113.5")).status_code == 429
        player = Account(client, "Reg")
        with client.app.state.service.store.session() as s:  # an account's game ends
            row = s.get(GameRow, "g00015")
            row.ended = row.created
        r = client.post("/api/games", json=GAME, headers=as_("203.0.113.5"))
        assert r.status_code == 429 and "log in to create a game" in r.json()["error"]
        r = client.post("/api/games", json=GAME, headers=player.headers())
        assert r.status_code == 201, r.text


# ---------------------------------------------------------------------- per network
def test_one_ipv6_48_holds_three_anonymous_games_whatever_its_64s(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'v6.db'}") as client:
        codes = [client.post("/api/games", json=GAME,
                             headers=as_(f"2001:db8:1:{i:x}00::1")).status_code
                 for i in range(256)]
        assert codes.count(201) == 3 and codes.count(429) == 253
        # another /48 is another network
        assert client.post("/api/games", json=GAME,
                           headers=as_("2001:db8:2::1")).status_code == 201


def test_creates_per_hour_count_per_network_as_well_as_per_client(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'rate.db'}", network_creates_per_hour=5,
               anonymous_games_per_network=100) as client:
        codes = [client.post("/api/games", json=GAME,
                             headers=as_(f"192.0.2.{i + 1}")).status_code for i in range(8)]
        assert codes == [201] * 5 + [429] * 3
        r = client.post("/api/games", json=GAME, headers=as_("192.0.2.200"))
        assert r.status_code == 429
        error = r.json()["error"]
        assert "too many games created from your network: at most 5 per hour" in error
        assert client.post("/api/games", json=GAME,
                           headers=as_("192.0.3.1")).status_code == 201


# ---------------------------------------------------------------------- per account
def test_an_account_holds_ten_unfinished_games(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'acc.db'}") as client:
        player = Account(client, "Ten")
        ids = []
        for i in range(10):  # from ten networks: the account is what counts
            r = client.post("/api/games", json=GAME,
                            headers=player.headers(f"198.51.{i}.7"))
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
        r = client.post("/api/games", json=GAME, headers=player.headers())
        assert r.status_code == 429
        assert ("your account already has 10 unfinished games (at most 10)"
                in r.json()["error"])
        assert unfinished(client, owner_account=player.id) == 10
        # the same request without the account is a guest's, with a guest's quota
        assert client.post("/api/games", json=GAME,
                           headers=as_(PLAYER)).status_code == 201
        # one game ends: the account may create one more, and no more
        service = client.app.state.service
        live = service.games[ids[0]]
        assert client.portal.call(service.end_game, live,
                                  {"reason": "abort", "by": None, "ranks": None})
        assert client.post("/api/games", json=GAME, headers=player.headers()).status_code == 201
        assert client.post("/api/games", json=GAME, headers=player.headers()).status_code == 429


def test_a_create_with_a_wrong_csrf_token_is_refused_and_stores_nothing(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'csrf.db'}") as client:
        player = Account(client, "Csr")
        r = client.post("/api/games", json=GAME,
                        headers={**player.headers(), CSRF_HEADER: "forged"})
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
        r = client.post("/api/games", json=GAME, headers={CSRF_HEADER: "x", **as_(PLAYER)})
        assert r.status_code == 401
        assert unfinished(client) == 0


def test_play_now_games_count_for_the_account_and_a_full_quota_cannot_queue(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'play.db'}", games_per_account=2) as client:
        community = client.app.state.community
        mm = community.matchmaking
        mm.interval = None
        now = [1000.0]
        mm.clock = lambda: now[0]
        player = Account(client, "Que")

        def queue(game: str) -> httpx.Response:
            return client.post("/api/play", json={"game": game, "players": 2,
                                                  "mode": "correspondence"},
                               headers=player.headers())

        for game in ("rift-domination", "galactic-domination"):
            r = queue(game)  # alone in the queue: after the wait a bot takes the other seat
            assert r.status_code == 201, r.text
            now[0] += 10_000
            assert len(client.portal.call(mm.tick)) == 1
        assert unfinished(client, owner_account=player.id) == 2
        assert unfinished(client, owner_network="198.51.100.0/24") == 2
        r = queue("galactic-empires")
        assert r.status_code == 429
        assert "your account already has 2 unfinished games" in r.json()["error"]
        # ... and its lobby creates are refused too
        r = client.post("/api/games", json=GAME, headers=player.headers())
        assert r.status_code == 429
