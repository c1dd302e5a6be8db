"""Several ``serve`` processes and bot services on one PostgreSQL and one Redis
(``starlanes serve --redis``, ``starlanes bots``; docs/deploy.md).

Three web processes and two bot services run on loopback ports against a fresh PostgreSQL
database and a Redis of the test's own (started on a free port with no persistence, so it
can be restarted). Skipped with the reason when no PostgreSQL or no ``redis-server`` is
there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from starlanes.engine import load
from starlanes.server.store import Store, upgrade

from .conftest import (
    POSTGRES_ADMIN,
    Server,
    _free_port,
    auth,
    cli_command,
    drop_postgres,
    generous_env,
    postgres_url,
)

websockets = pytest.importorskip("websockets")
pytest.importorskip("redis")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402


class RedisServer:
    """A ``redis-server`` of the test's own on a free port, without persistence."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class Bots:
    """``starlanes bots`` in a subprocess (one worker, quick take-over and sweep)."""

    def __init__(self, db: str, redis_url: str) -> None:
        self.log_path = tempfile.mkstemp(prefix="starlanes-bots-", suffix=".log")[1]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*cli_command(), "bots", "--db", db, "--redis", redis_url, "--workers", "1",
                 "--reclaim", "1", "--sweep", "1"],
                stdout=subprocess.DEVNULL, stderr=log, env=generous_env(),
                start_new_session=True)

    def kill(self) -> None:
        """SIGKILL the service and its worker (as a machine that dies would)."""
        with_group = os.getpgid(self.proc.pid)
        os.killpg(with_group, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Cluster:
    db: str
    redis: RedisServer
    servers: list[Server]
    bots: list[Bots]
    dead: set[int] = field(default_factory=set)

    def alive(self) -> list[Server]:
        return [s for i, s in enumerate(self.servers) if i not in self.dead]

    def kill_server(self, index: int) -> None:
        self.dead.add(index)
        self.servers[index].kill()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine (the cluster tests run their own)")
    db = postgres_url()
    if db is None:
        pytest.skip(f"no PostgreSQL reachable at {POSTGRES_ADMIN} (set "
                    "STARLANES_TEST_POSTGRES to an admin URL to run these)")
    redis_server = RedisServer()
    servers: list[Server] = []
    bots: list[Bots] = []
    try:
        redis_server.start()
        upgrade(db)  # what 'starlanes db upgrade' does, once: the servers do not migrate
        servers = [Server(db, extra=["--redis", redis_server.url, "--no-access-log"])
                   for _ in range(3)]
        bots = [Bots(db, redis_server.url) for _ in range(2)]
        starting = [threading.Thread(target=launch, args=(s,)) for s in servers]
        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join()
        if any(s.proc is None or s.proc.poll() is not None
               or httpx.get(s.url("/readyz"), timeout=5).status_code != 200 for s in servers):
            raise AssertionError("a server did not start:\n" +
                                 "\n".join(s.log()[-2000:] for s in servers))
        yield Cluster(db, redis_server, servers, bots)
    finally:  # every process is asked to stop first, then each is waited for
        procs = [b.proc for b in bots] + [s.proc for s in servers if s.proc is not None]
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for b in bots:
            b.stop()
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.proc.wait(10)
        redis_server.stop()
        drop_postgres(db)


def launch(server: Server, within: float = 120.0) -> None:
    """Start ``server`` (a process of the cluster) and wait until it is ready: a loaded
    machine may take long to import everything."""
    with open(server.log_path, "ab") as log:
        server.proc = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(server.port), "--db", server.db,
             *server.extra], stdout=subprocess.DEVNULL, stderr=log, env=generous_env())
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if httpx.get(server.url("/readyz"), timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if server.proc.poll() is not None:
            raise AssertionError(server.log())
        time.sleep(0.1)
    raise AssertionError(f"server did not start:\n{server.log()}")


# ---------------------------------------------------------------------- clients
class Viewer(threading.Thread):
    """A websocket viewer of one game and seat that reconnects (to the next live server)
    whenever its socket ends; ``connections`` holds the views each connection received."""

    def __init__(self, cluster: Cluster, game_id: str, token: str | None, first: int) -> None:
        super().__init__(daemon=True)
        self.cluster, self.game_id, self.token, self.next = cluster, game_id, token, first
        self.connections: list[list[dict[str, Any]]] = []
        self.spans: list[list[float | None]] = []  # [opened, closed] per connection
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            servers = self.cluster.servers
            index = self.next % len(servers)
            self.next += 1
            if index in self.cluster.dead:
                continue
            query = f"?token={self.token}" if self.token else ""
            url = f"ws://127.0.0.1:{servers[index].port}/ws/games/{self.game_id}{query}"
            views: list[dict[str, Any]] = []
            try:
                with connect(url, open_timeout=5) as ws:
                    self.connections.append(views)
                    self.spans.append([time.monotonic(), None])
                    try:
                        while not self.stopped.is_set():
                            try:
                                views.append(json.loads(ws.recv(timeout=0.2)))
                            except TimeoutError:
                                continue
                    finally:
                        self.spans[-1][1] = time.monotonic()
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                time.sleep(0.1)

    def longest_gap(self) -> float:
        """The longest time in seconds between one connection's end and the next's start."""
        return max((b[0] - a[1] for a, b in zip(self.spans, self.spans[1:], strict=False)
                    if a[1] is not None and b[0] is not None), default=0.0)

    def latest(self) -> dict[str, Any] | None:
        for views in reversed(self.connections):
            if views:
                return views[-1]
        return None

    def stop(self) -> None:
        self.stopped.set()
        self.join(5)


class Player:
    """A human seat playing through HTTP, on server ``home`` (the next live one when its
    server is gone); ``acked`` holds every action the servers acknowledged."""

    def __init__(self, cluster: Cluster, game_id: str, home: int, name: str) -> None:
        self.cluster, self.game_id, self.home = cluster, game_id, home
        self.http = httpx.Client(timeout=10)
        self.token = self.request("POST", f"/api/games/{game_id}/join",
                                  json={"name": name}).json()["token"]
        self.acked: list[tuple[int, str]] = []
        self.last: list[str] = []  # the latest answers, for a failure's message

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        for _ in range(40):
            servers = self.cluster.servers
            if self.home in self.cluster.dead:
                self.home = (self.home + 1) % len(servers)
                continue
            try:
                return self.http.request(method, servers[self.home].url(path), **kw)
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("no server answered")

    def note(self, what: str) -> None:
        self.last = [*self.last[-5:], f"{time.monotonic():.1f} {what}"]

    def view(self) -> dict[str, Any]:
        r = self.request("GET", f"/api/games/{self.game_id}/view", headers=auth(self.token))
        assert r.status_code == 200, r.text
        v = r.json()
        self.note(f"view on {self.home}: seq {v['seq']}, your turn {v['your_turn']}")
        return v

    def step(self) -> bool:
        """Play one action if it is this seat's decision; False once the game is over."""
        v = self.view()
        if v["result"] is not None:
            return False
        if v["your_turn"]:
            r = self.request("POST", f"/api/games/{self.game_id}/actions",
                             json={"seq": v["seq"], "action": v["legal"][-1]["notation"]},
                             headers=auth(self.token))
            self.note(f"action at {v['seq']} on {self.home}: {r.status_code}")
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200:
                self.acked.append((r.json()["seq"] - 1, r.json()["applied"]))
        else:
            time.sleep(0.03)
        return True


def create(cluster: Cluster, server: int, game: str, seats: list[str],
           **options: Any) -> str:
    r = httpx.post(cluster.servers[server].url("/api/games"), timeout=10, json={
        "game": game, "players": len(seats), "seats": seats, "seed": 11,
        "options": options})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def stored(cluster: Cluster, game_id: str) -> list[str]:
    store = Store(cluster.db)
    try:
        return [a.notation for a in store.actions(game_id)]
    finally:
        store.engine.dispose()


def check_views(game: str, players: int, options: dict[str, Any], actions: list[str],
                viewer: Viewer, seat: int | None) -> int:
    """Every view ``viewer`` received holds the engine's observation for its seat at the
    view's move; each connection's views come in order, none twice (a second view at one
    move must say something new: the game ended, a draw was offered, a seat was taken).
    Returns the count."""
    g = load(game, players=players, seed=11, **options)
    states = [g.new_initial_state()]
    for text in actions:
        nxt = states[-1].clone()
        nxt.apply(g.parse_action(nxt, text))
        states.append(nxt)
    count = 0
    for views in viewer.connections:
        seqs = [v["seq"] for v in views]
        assert seqs == sorted(seqs), f"views out of order: {seqs}"
        for before, after in zip(views, views[1:], strict=False):
            if before["seq"] == after["seq"]:
                assert _news(before) != _news(after), f"view {after['seq']} sent twice"
        for v in views:
            state = states[v["seq"]]
            expected = state.observation(seat) if seat is not None else \
                state.public_observation()
            assert v["observation"] == json.loads(json.dumps(expected)), v["seq"]
            count += 1
    return count


def _news(view: dict[str, Any]) -> Any:
    """What a view says besides the board and the clocks' running time."""
    return {k: v for k, v in view.items() if k not in ("clocks", "observation")}


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def finish(cluster: Cluster, game_id: str, players: list[Player],
           viewers: dict[int | None, Viewer], bot_viewer: Viewer, bot_wait: float
           ) -> list[str]:
    """Wait for the bot game's end and the human game's last view on every viewer, stop
    the viewers, check every acknowledged action is stored at its move; the stored
    actions of the human game."""
    wait_for(lambda: (bot_viewer.latest() or {}).get("result") is not None, bot_wait,
             "the end of the bot game")
    for v in viewers.values():
        wait_for(lambda v=v: (v.latest() or {}).get("result") is not None, 10,
                 "the last view")
    for v in [*viewers.values(), bot_viewer]:
        v.stop()
    actions = stored(cluster, game_id)
    for seq, applied in players[0].acked + players[1].acked:
        assert actions[seq] == applied  # acknowledged: stored, at its move
    return actions


# ---------------------------------------------------------------------- tests
GD = {"turn_limit": 2}
RD = {"round_limit": 1}


def test_humans_on_different_servers_and_a_bot_game_survive_killed_processes(cluster):
    """Two humans on two different web processes play Galactic Domination to its end, a
    4-seat Rift Domination game of bots runs beside it; one web process and one bot
    service are killed (SIGKILL) mid-game. No acknowledged action is lost, viewers
    reconnect to a surviving process, the bots go on, and every view each viewer received
    is the engine's for its seat."""
    gd = create(cluster, 0, "galactic-domination", ["human", "human"], **GD)
    rd = create(cluster, 0, "rift-domination", ["heuristic", "random", "heuristic", "random"],
                **RD)
    players = [Player(cluster, gd, 1, "Ada"), Player(cluster, gd, 2, "Bo")]
    viewers = {0: Viewer(cluster, gd, players[0].token, 1),
               1: Viewer(cluster, gd, players[1].token, 2),
               None: Viewer(cluster, gd, None, 0)}
    bot_viewer = Viewer(cluster, rd, None, 2)
    for v in [*viewers.values(), bot_viewer]:
        v.start()

    def play(p: Player) -> None:
        deadline = time.monotonic() + 60
        while p.step():
            assert time.monotonic() < deadline, "the game did not end in time"

    with ThreadPoolExecutor(2) as pool:
        games = [pool.submit(play, p) for p in players]
        wait_for(lambda: sum(len(p.acked) for p in players) >= 20, 30, "20 moves")
        cluster.kill_server(2)  # Bo's server and Bo's viewer's server
        wait_for(lambda: len(stored(cluster, rd)) >= 10, 30, "10 bot moves")
        cluster.bots[0].kill()
        for f in games:
            f.result()
    actions = finish(cluster, gd, players, viewers, bot_viewer, 40)
    assert len(viewers[1].connections) >= 2  # reconnected after its server died
    for seat, viewer in viewers.items():
        assert check_views("galactic-domination", 2, GD, actions, viewer, seat) > 5
    # the bots play faster than a viewer's process follows: it may catch up several moves
    # at once and push only the newest view, so here only order and content are checked
    assert check_views("rift-domination", 4, RD, stored(cluster, rd), bot_viewer, None) >= 2


def test_the_same_action_at_the_same_moment_on_two_servers_is_stored_once(cluster):
    """Two processes receive the same action of the same seat at the same move: the
    database's (game, seq) key lets exactly one in; the other is answered 409."""
    alive = [cluster.servers.index(s) for s in cluster.alive()][:2]
    gd = create(cluster, alive[0], "galactic-domination", ["human", "human"], **GD)
    ada = Player(cluster, gd, alive[0], "Ada")
    Player(cluster, gd, alive[1], "Bo")
    for _ in range(3):
        v = ada.view()
        assert v["your_turn"]
        body = {"seq": v["seq"], "action": v["legal"][-1]["notation"]}
        barrier = threading.Barrier(2)

        def send(index: int, body: dict[str, Any] = body,
                 barrier: threading.Barrier = barrier) -> int:
            with httpx.Client(timeout=10) as c:
                barrier.wait()
                return c.post(cluster.servers[index].url(f"/api/games/{gd}/actions"),
                              json=body, headers=auth(ada.token)).status_code

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(send, alive))
        assert codes == [200, 409]
        assert len(stored(cluster, gd)) == v["seq"] + 1
        if not ada.view()["your_turn"]:
            break


def test_a_redis_restart_loses_nothing_and_viewers_get_fresh_views(cluster):
    """Redis goes away mid-game: the processes say they are not ready and close their
    viewers' sockets; actions are still stored (the database is the truth). Once Redis is
    back, viewers reconnect, get the current view and the next pushes."""
    alive = [cluster.servers.index(s) for s in cluster.alive()]
    gd = create(cluster, alive[0], "galactic-domination", ["human", "human"], **GD)
    players = [Player(cluster, gd, alive[0], "Ada"), Player(cluster, gd, alive[-1], "Bo")]
    viewer = Viewer(cluster, gd, None, alive[-1])
    viewer.start()
    while sum(len(p.acked) for p in players) < 4:
        for p in players:
            p.step()
    cluster.redis.stop()
    wait_for(lambda: all(httpx.get(s.url("/readyz")).status_code == 503
                         for s in cluster.alive()), 10, "readiness to drop")
    while sum(len(p.acked) for p in players) < 8:  # stored while Redis is away
        for p in players:
            p.step()
    cluster.redis.start()
    wait_for(lambda: all(httpx.get(s.url("/readyz")).status_code == 200
                         for s in cluster.alive()), 15, "readiness to return")
    now = len(stored(cluster, gd))
    wait_for(lambda: (viewer.latest() or {}).get("seq") == now, 10, "a fresh view")
    while sum(len(p.acked) for p in players) < 12:
        for p in players:
            p.step()
    now = len(stored(cluster, gd))
    wait_for(lambda: (viewer.latest() or {}).get("seq") == now, 10, "a pushed view")
    viewer.stop()
    actions = stored(cluster, gd)
    for seq, applied in players[0].acked + players[1].acked:
        assert actions[seq] == applied
    assert check_views("galactic-domination", 2, GD, actions, viewer, None) >= 2


def test_a_rolling_restart_loses_no_action_and_no_viewer_for_longer_than_a_reconnect(cluster):
    """Every web process is stopped in turn (SIGTERM, as a deployment does; one killed by an
    earlier test is simply started again) and started again on its port, and a bot service
    is replaced, while two humans on different processes play Galactic Domination and a
    bot game of Rift Domination runs. No acknowledged action is lost, every viewer is back
    on a live process within seconds of losing its socket, and both games reach their end
    with every view the engine's for its seat (docs/deploy.md, Rolling restarts)."""
    alive = [cluster.servers.index(s) for s in cluster.alive()]
    gd = create(cluster, alive[0], "galactic-domination", ["human", "human"], **GD)
    rd = create(cluster, alive[0], "rift-domination", ["heuristic", "random", "random"],
                round_limit=2)
    players = [Player(cluster, gd, alive[0], "Ada"), Player(cluster, gd, alive[-1], "Bo")]
    viewers = {0: Viewer(cluster, gd, players[0].token, alive[0]),
               1: Viewer(cluster, gd, players[1].token, alive[-1]),
               None: Viewer(cluster, gd, None, alive[0])}
    bot_viewer = Viewer(cluster, rd, None, alive[-1])
    for v in [*viewers.values(), bot_viewer]:
        v.start()
    pace = threading.Event()  # set: the humans play on while a process restarts
    halt = threading.Event()  # set: the test failed, the players stop at once

    def play(p: Player) -> None:
        deadline = time.monotonic() + 240
        while not halt.is_set() and p.step():
            assert time.monotonic() < deadline, "the game did not end in time"
            if pace.is_set():
                time.sleep(0.3)

    def moved(before: int) -> bool:
        for f in games:  # a player that stopped early says why (its error, raised here)
            if f.done():
                f.result()
                raise AssertionError("a player's game ended before the restarts were done")
        return sum(len(p.acked) for p in players) >= before + 3

    pace.set()
    restarted = 0
    with ThreadPoolExecutor(2) as pool:
        games = [pool.submit(play, p) for p in players]
        try:
            for index, server in enumerate(cluster.servers):
                before = sum(len(p.acked) for p in players)
                try:
                    wait_for(lambda before=before: moved(before), 30,
                             f"moves before the restart of process {index}")
                except AssertionError as e:
                    raise AssertionError(f"{e}; the players' latest answers: "
                                         f"{[p.last for p in players]}") from None
                cluster.dead.add(index)  # the proxy stops sending it new requests
                if server.proc is not None and server.proc.poll() is None:
                    server.proc.terminate()
                    server.proc.wait(30)
                launch(server)
                cluster.dead.discard(index)
                restarted += 1
            old = cluster.bots[-1]
            old.stop()  # SIGTERM: its jobs go back to the queue
            cluster.bots[-1] = Bots(cluster.db, cluster.redis.url)
            pace.clear()
            for f in games:
                f.result()
        finally:
            halt.set()
    assert restarted == 3
    actions = finish(cluster, gd, players, viewers, bot_viewer, 60)
    for viewer in [*viewers.values(), bot_viewer]:
        assert len(viewer.connections) >= 2  # its process went away at least once
        assert viewer.longest_gap() < 5.0, viewer.spans
    for seat, viewer in viewers.items():
        assert check_views("galactic-domination", 2, GD, actions, viewer, seat) > 5
    assert check_views("rift-domination", 3, {"round_limit": 2}, stored(cluster, rd),
                       bot_viewer, None) >= 2  # bots outrun a follower: see above
