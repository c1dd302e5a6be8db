"""Owners of games in a cluster (``starlanes serve --redis``; docs/deploy.md): each game is
held by one process, requests and websockets reaching another are forwarded to it, a dead
owner's games are taken by another within seconds, and a Redis outage keeps every viewer's
socket open and its views coming.

Two web processes and a bot service on a fresh PostgreSQL database and a Redis of the
test's own (skipped with the reason when either is missing).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from starlanes.server.jobs import owner_of
from starlanes.server.store import Store, upgrade

from .conftest import POSTGRES_ADMIN, Server, auth, drop_postgres, postgres_url
from .test_scale_cluster import Bots, RedisServer, launch, wait_for

websockets = pytest.importorskip("websockets")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402


class Pair:
    def __init__(self, db: str, redis: RedisServer, servers: list[Server],
                 bots: Bots) -> None:
        self.db, self.redis, self.servers, self.bots = db, redis, servers, bots

    def members(self) -> list[str]:
        return [f"http://127.0.0.1:{s.port}" for s in self.servers if s.proc is not None
                and s.proc.poll() is None]

    def owner(self, game_id: str) -> int:
        url = owner_of(game_id, self.members())
        return next(i for i, s in enumerate(self.servers)
                    if f"http://127.0.0.1:{s.port}" == url)


@pytest.fixture
def pair() -> Iterator[Pair]:
    import shutil

    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine (the cluster tests run their own)")
    db = postgres_url()
    if db is None:
        pytest.skip(f"no PostgreSQL reachable at {POSTGRES_ADMIN}")
    redis_server = RedisServer()
    servers: list[Server] = []
    bots = None
    try:
        redis_server.start()
        upgrade(db)
        servers = [Server(db, extra=["--redis", redis_server.url, "--no-access-log"])
                   for _ in range(2)]
        starting = [threading.Thread(target=launch, args=(s,)) for s in servers]
        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join()
        bots = Bots(db, redis_server.url)
        pair = Pair(db, redis_server, servers, bots)
        wait_for(lambda: all(_members_seen(s, 2) for s in servers), 10, "both members")
        yield pair
    finally:
        if bots is not None:
            bots.stop()
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.proc.terminate()
                s.proc.wait(15)
        redis_server.stop()
        drop_postgres(db)


def _members_seen(server: Server, count: int) -> bool:
    return "server processes now" in server.log() and server.log().count("http://") >= count


def _create(server: Server, **body: Any) -> str:
    r = httpx.post(server.url("/api/games"), timeout=10, json={
        "game": "galactic-domination", "players": 2, "seats": ["human", "human"],
        "options": {"turn_limit": 2}, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _join(server: Server, game_id: str, name: str) -> str:
    r = httpx.post(server.url(f"/api/games/{game_id}/join"), json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _stored(db: str, game_id: str) -> list[tuple[str, str]]:
    store = Store(db)
    try:
        return [(a.notation, a.by) for a in store.actions(game_id)]
    finally:
        store.engine.dispose()


def _play(server: Server, game_id: str, token: str) -> httpx.Response:
    view = httpx.get(server.url(f"/api/games/{game_id}/view"), headers=auth(token),
                     timeout=10).json()
    return httpx.post(server.url(f"/api/games/{game_id}/actions"), headers=auth(token),
                      json={"seq": view["seq"], "action": view["legal"][-1]["notation"]},
                      timeout=10)


@pytest.mark.parametrize("created_by", ["owner", "other"])
def test_a_request_to_another_process_is_answered_by_the_owner_and_a_dead_owner_is_replaced(
        pair, created_by):
    """A game's requests reach its owner whichever process they came to (the other only
    forwards them), and when the owner is killed (SIGKILL), the other process takes the
    game within seconds: its turn clock runs out there and the fallback bot moves for the
    seat, and the players go on through the survivor. ``created_by``: which process the
    game was created on; the survivor that created it still holds it, without its clock,
    when the owner dies (a take-over once skipped held games, and their clocks never ran)."""
    for _ in range(40):  # each game's owner is a coin toss between the two
        gid = _create(pair.servers[0], clock_seconds=3)
        if (pair.owner(gid) == 0) == (created_by == "owner"):
            break
    owner = pair.owner(gid)
    assert (owner == 0) == (created_by == "owner")
    other = 1 - owner
    tokens = [_join(pair.servers[other], gid, "Ada"), _join(pair.servers[other], gid, "Bo")]
    r = _play(pair.servers[other], gid, tokens[0])
    assert r.status_code == 200, r.text
    # the other process forwarded everything: the owner's log names no forward, and the
    # action stands in the store
    assert _stored(pair.db, gid)[0][1] == "player"
    killed_at = time.monotonic()
    pair.servers[owner].kill()
    # the clock of seat 1 (3 s from the move above) runs out on the survivor
    wait_for(lambda: any(by == "clock" for _n, by in _stored(pair.db, gid)), 15,
             "the clock's move on the new owner")
    assert time.monotonic() - killed_at < 12
    view = httpx.get(pair.servers[other].url(f"/api/games/{gid}/view"),
                     headers=auth(tokens[0]), timeout=10).json()
    assert view["seq"] == len(_stored(pair.db, gid))
    if view["your_turn"]:
        assert _play(pair.servers[other], gid, tokens[0]).status_code == 200


def test_a_forwarded_request_cannot_be_forged_by_a_client():
    """The forwarding headers are signed with the deployment's secret: a request whose
    signature is not the deployment's keeps its own address and goes through the rate
    limits (no hop mark), one signed with the secret is taken as the client's."""
    import asyncio

    from starlanes.server.cluster import HOP_CLIENT, HOP_SIGNATURE, Cluster, HopIn

    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], _receive: Any, _send: Any) -> None:
        seen.append(scope)

    cluster = Cluster("redis://127.0.0.1:1/0", "test", "http://127.0.0.1:1")
    hop = HopIn(app, cluster)

    def scope(signature: str) -> dict[str, Any]:
        return {"type": "http", "path": "/api/games/g/view", "client": ("10.0.0.5", 1),
                "headers": [(HOP_CLIENT.encode(), b"203.0.113.9"),
                            (HOP_SIGNATURE.encode(), signature.encode()),
                            (b"x-forwarded-for", b"198.51.100.1")]}

    for forged in ("0" * 64, Cluster("redis://x/0", "test", "y").sign("203.0.113.9"), ""):
        asyncio.run(hop(scope(forged), None, None))
        assert seen[-1]["client"] == ("10.0.0.5", 1) and "starlanes.hop" not in seen[-1]
    asyncio.run(hop(scope(cluster.sign("203.0.113.9")), None, None))
    assert seen[-1]["client"] == ("203.0.113.9", 0) and seen[-1]["starlanes.hop"]
    assert all(k != b"x-forwarded-for" for k, _v in seen[-1]["headers"])


class Watcher(threading.Thread):
    """One websocket, never reconnected: the views it got and how it ended."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.views: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=10) as ws:
                while not self.stopped.is_set():
                    try:
                        self.views.append(json.loads(ws.recv(timeout=0.2)))
                    except TimeoutError:
                        continue
        except ConnectionClosed as e:
            self.closed = e.rcvd.code if e.rcvd is not None else 1006
        except (InvalidStatus, OSError) as e:
            self.closed = -1
            raise AssertionError(f"the socket did not open: {e}") from e

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)


def test_a_redis_outage_keeps_every_viewer_and_refuses_new_sockets_with_4503(pair):
    """Redis stops for several seconds mid-game: every open socket (on the owner and
    relayed through the other process) stays open and gets the views of the moves made
    meanwhile; readiness says not ready for the whole outage and ready after; a socket
    opened meanwhile is closed with 4503 (connect again)."""
    gid = _create(pair.servers[0])
    tokens = [_join(pair.servers[0], gid, "Ada"), _join(pair.servers[1], gid, "Bo")]
    watchers = [Watcher(f"ws://127.0.0.1:{s.port}/ws/games/{gid}") for s in pair.servers]
    for w in watchers:
        w.start()
    wait_for(lambda: all(w.views for w in watchers), 10, "the first views")
    assert _play(pair.servers[0], gid, tokens[0]).status_code == 200
    pair.redis.stop()
    wait_for(lambda: all(httpx.get(s.url("/readyz")).status_code == 503
                         for s in pair.servers), 10, "readiness to drop")
    down_at = time.monotonic()
    moves = 1
    states: list[int] = []
    while time.monotonic() - down_at < 6:
        for i, server in enumerate(pair.servers):
            view = httpx.get(server.url(f"/api/games/{gid}/view"), headers=auth(tokens[i]),
                             timeout=10).json()
            if view["your_turn"] and view["result"] is None:
                assert _play(server, gid, tokens[i]).status_code == 200
                moves += 1
        states += [httpx.get(s.url("/readyz")).status_code for s in pair.servers]
        time.sleep(0.2)
    assert set(states) == {503}, states  # never ready while Redis is away
    late = None
    try:
        with connect(f"ws://127.0.0.1:{pair.servers[1].port}/ws/games/{gid}",
                     open_timeout=10) as ws:
            ws.recv(timeout=5)
    except ConnectionClosed as e:
        late = e.rcvd.code if e.rcvd is not None else None
    assert late == 4503
    assert moves >= 3
    seq = len(_stored(pair.db, gid))
    wait_for(lambda: all(w.views and w.views[-1]["seq"] == seq for w in watchers), 10,
             "the views of the moves made while Redis was away")
    pair.redis.start()
    wait_for(lambda: all(httpx.get(s.url("/readyz")).status_code == 200
                         for s in pair.servers), 15, "readiness to return")
    for w in watchers:
        assert w.closed is None and w.is_alive()  # never dropped
        seqs = [v["seq"] for v in w.views]
        assert seqs == sorted(set(seqs))
        w.stop()
