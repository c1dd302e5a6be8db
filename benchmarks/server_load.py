"""Load on the game server: N concurrent games on loopback, each with scripted human clients
over websockets and bot seats, bounded in time (and in games: a game that ends is followed by
its rematch, so N games are always running).

A scripted human waits for its view to say it decides, thinks for a while (``--think``
seconds on average, uniformly from half to one and a half times that; 0 acts at once), picks
a random legal action and posts it. The latency measured is from sending the action to the
updated view (the new sequence number) arriving on the websocket of every human seat of that
game; bot thinking time is not part of it, since only human actions are timed.

Prints the games, the actions (all, and by humans) and actions/s, the latency p50/p95/p99/max,
the errors (refused actions, lost sockets, views that never came), the server process's CPU
time per action, and how long the server took to stop on SIGTERM. Not a test; run it by hand:

    python benchmarks/server_load.py --games 100 --seconds 60
    python benchmarks/server_load.py --games 100 --seconds 60 --db postgres
    python benchmarks/server_load.py --games 20 --seconds 30 --think 0   # saturation
    python benchmarks/server_load.py --db postgres --redis redis://127.0.0.1:6379/0 --processes 2

With ``--redis URL`` (PostgreSQL only) the server is a cluster (docs/deploy.md): the schema
is created once (``starlanes db upgrade``), ``--processes`` web processes run with
``--redis`` and one bot service (``starlanes bots``, ``--bot-workers`` workers) plays the
bot seats. Each human seat of game k talks to process (k + seat) mod N (its requests and
its websocket), so with N >= 2 most of them reach a process that does not own the game and
forwards them to the owner; with ``--to-owner`` every request and socket of a game goes
straight to its owner. The CPU line then sums the web processes and counts the bot
service as the bot workers; the notes list the notices each web process received (each
only for the games it held).

The server runs in a subprocess (``starlanes serve``) on a fresh SQLite file, or with
``--db postgres`` on a fresh PostgreSQL database created through the admin URL in
``STARLANES_TEST_POSTGRES`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
and dropped afterwards.

Every client connects from 127.0.0.1, yet the server limits requests per client address
(``Limits`` in ``starlanes.server.config``). As a deployment behind a reverse proxy would, the
server is started trusting 127.0.0.1 as a proxy (``STARLANES_TRUSTED_PROXIES``) and each
scripted human sends an ``X-Forwarded-For`` of its own made-up address (10.x.y.z, one per
player), so each player is counted as the distinct client it stands for. With ``--url`` the
server must trust 127.0.0.1 the same way, or all players share one address and its limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import ipaddress
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

if importlib.util.find_spec("sniffio") is None:
    # httpcore tries to import sniffio on every request; without it installed each try
    # searches sys.path again (a third of a hostile client's CPU): fail it at once instead
    sys.modules["sniffio"] = None  # type: ignore[assignment]

POSTGRES_ADMIN = os.environ.get("STARLANES_TEST_POSTGRES",
                                "postgresql+psycopg://postgres@127.0.0.1:5432/test")
VIEW_TIMEOUT = 10.0
"""Seconds an updated view may take to reach every seat before it counts as an error."""
TRUSTED_PROXIES = {"STARLANES_TRUSTED_PROXIES": '["127.0.0.1/32"]'}
"""The server's environment: the benchmark's clients stand behind a proxy at 127.0.0.1."""
FIRST_PLAYER = ipaddress.IPv4Address("10.0.0.1")
"""The made-up address of the first scripted human; the others follow it."""


def player_address(game: int, seat: int, humans: int) -> str:
    """The address the scripted human of ``seat`` in the ``game``-th table claims (in its
    ``X-Forwarded-For``): one per player, each in a /24 network of its own (a server counts
    some limits per network), kept through rematches."""
    return str(FIRST_PLAYER + ((game * humans + seat) << 8))


def forwarded(address: str, token: str | None = None) -> dict[str, str]:
    """Request headers of a client at ``address`` behind the proxy, with its seat token."""
    headers = {"X-Forwarded-For": address}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Tally:
    """What all clients measured: human action latencies (s), counts and errors by kind."""

    latencies: list[float] = field(default_factory=list)
    acks: list[float] = field(default_factory=list)
    human: int = 0
    finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Table:
    """One game as its human clients see it: tokens and addresses of the human seats, the
    newest view of each seat, and the sequence number each seat's socket has reached."""

    def __init__(self, gid: str, tokens: list[str], addresses: list[str]) -> None:
        self.gid = gid
        self.tokens = tokens
        self.addresses = addresses
        self.bases: list[str] | None = None
        """Per human seat, the web process it talks to (None: the one ``base``)."""
        self.views: list[dict | None] = [None] * len(tokens)
        self.changed = asyncio.Event()

    def seen(self) -> int:
        return min((v["seq"] if v else -1) for v in self.views)


async def read_views(ws, table: Table, i: int) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for message in ws:
            table.views[i] = json.loads(message)
            table.changed.set()


async def wait_for(table: Table, predicate, deadline: float) -> bool:
    while not predicate():
        table.changed.clear()
        if predicate():
            break
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(table.changed.wait(), left)
        except TimeoutError:
            return False
    return True


async def open_game(client: httpx.AsyncClient, base: str, args: argparse.Namespace,
                    index: int, seed: int, rematch_of: Table | None = None) -> Table:
    """Create the ``index``-th table (or the rematch of the finished ``rematch_of``, offered
    by its first seat and accepted by the others) and seat its scripted humans, each from
    its own address."""
    addresses = [player_address(index, s, args.humans) for s in range(args.humans)]
    if rematch_of is None:
        seats = ["human"] * args.humans + [args.bot] * args.bots
        r = await client.post(f"{base}/api/games", headers=forwarded(addresses[0]), json={
            "game": args.game, "players": len(seats), "seats": seats, "seed": seed})
    else:
        # a rematch offer to the same players: the first seat offers, the others accept,
        # and each old seat's token is exchanged for its seat of the new game (the seats
        # moved round one place)
        old = rematch_of.gid
        r = await client.post(f"{base}/api/games/{old}/rematch",
                              headers=forwarded(addresses[0], rematch_of.tokens[0]))
        r.raise_for_status()
        offer = r.json()
        for s in range(1, args.humans):
            a = await client.post(f"{base}/api/rematches/{offer['id']}/accept",
                                  headers=forwarded(addresses[s], rematch_of.tokens[s]))
            a.raise_for_status()
            offer = a.json()
        tokens = []
        for s in range(args.humans):
            g = await client.get(f"{base}/api/games/{old}/rematch",
                                 headers=forwarded(addresses[s], rematch_of.tokens[s]))
            g.raise_for_status()
            tokens.append(g.json()["token"])
        return Table(offer["game_id"], tokens, addresses)
    r.raise_for_status()
    gid = r.json()["id"]
    tokens = []
    for s in range(args.humans):
        j = await client.post(f"{base}/api/games/{gid}/join", headers=forwarded(addresses[s]),
                              json={"name": f"h{s}", "seat": s})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return Table(gid, tokens, addresses)


async def play(base: str, table: Table, index: int, args: argparse.Namespace, stop: float,
               tally: Tally, rng: random.Random) -> None:
    """Play ``table`` (and its rematches) until ``stop``, with a connection of its own (as
    the browsers of one game would have; one client shared by all games would spend more
    time choosing among its pooled connections than the server spends on an action)."""
    # uvicorn closes a connection idle for 5 s: let the client drop it first
    limits = httpx.Limits(max_connections=1, keepalive_expiry=3)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        await play_tables(base, client, table, index, args, stop, tally, rng)


#: Websocket handshakes in flight at once from this client: 1,000 opened together (500
#: games of two humans) time out in the client's own event loop, not in the server.
CONNECTING = asyncio.Semaphore(16)


async def play_tables(base: str, client: httpx.AsyncClient, table: Table, index: int,
                      args: argparse.Namespace, stop: float, tally: Tally,
                      rng: random.Random) -> None:
    while time.monotonic() < stop:
        sockets = []
        readers = []
        try:
            for i, token in enumerate(table.tokens):
                ws_base = (table.bases[i] if table.bases else base).replace("http://", "ws://")
                async with CONNECTING:
                    ws = await websockets.connect(
                        f"{ws_base}/ws/games/{table.gid}?token={token}", max_size=2**24,
                        compression=None, open_timeout=60,
                        additional_headers=forwarded(table.addresses[i]))
                sockets.append(ws)
                readers.append(asyncio.create_task(read_views(ws, table, i)))
            over = await play_one(base, client, table, readers, args, stop, tally, rng)
        except websockets.InvalidStatus as e:
            tally.error(f"websocket refused: HTTP {e.response.status_code}")
            return
        except (OSError, TimeoutError, websockets.WebSocketException, httpx.HTTPError) as e:
            tally.error(f"connection ({type(e).__name__})")
            return
        finally:
            for task in readers:
                task.cancel()
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()
        if not over:
            return
        tally.finished += 1
        if time.monotonic() >= stop:
            return
        try:
            bases = table.bases
            table = await open_game(client, base, args, index, 0, rematch_of=table)
            table.bases = bases
        except httpx.HTTPStatusError as e:
            tally.error(f"rematch refused: HTTP {e.response.status_code}")
            return
        except httpx.HTTPError as e:
            tally.error(f"connection ({type(e).__name__})")
            return


async def play_one(base: str, client: httpx.AsyncClient, table: Table,
                   readers: list[asyncio.Task[None]], args: argparse.Namespace, stop: float,
                   tally: Tally, rng: random.Random) -> bool:
    """Play one game until it ends (True) or time is up or a socket is lost (False)."""
    if not await wait_for(table, lambda: table.seen() >= 0, time.monotonic() + VIEW_TIMEOUT):
        tally.error("no first view")
        return False
    while time.monotonic() < stop:
        if any(task.done() for task in readers):
            tally.error("socket closed by the server")
            return False
        views = table.views
        if any(v and v["result"] for v in views):
            return True
        mine = [(i, v) for i, v in enumerate(views) if v and v["your_turn"]
                and v["seq"] == table.seen()]
        if not mine:
            table.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.changed.wait(), 1.0)
            continue
        i, view = mine[0]
        if args.think > 0:
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        notation = rng.choice(view["legal"])["notation"]
        start = time.perf_counter()
        r = await client.post(f"{table.bases[i] if table.bases else base}/api/games/"
                              f"{table.gid}/actions",
                              json={"seq": view["seq"], "action": notation},
                              headers=forwarded(table.addresses[i], table.tokens[i]))
        if r.status_code != 200:
            tally.error(f"HTTP {r.status_code}")
            await asyncio.sleep(0.1)
            continue
        seq = r.json()["seq"]
        tally.acks.append(time.perf_counter() - start)
        tally.human += 1
        if await wait_for(table, lambda seq=seq: table.seen() >= seq,
                          time.monotonic() + VIEW_TIMEOUT):
            tally.latencies.append(time.perf_counter() - start)
        else:
            tally.error("view not pushed within 10 s")
    return False


async def total_moves(client: httpx.AsyncClient, base: str) -> tuple[int, int]:
    r = await client.get(f"{base}/api/games")
    games = r.json()["games"]
    return sum(g["moves"] for g in games), len(games)


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU time (s) of the server process and of the other processes of its
    process group (the bot workers), from Linux's /proc; NaN where unknown."""
    server = others = 0.0
    found = False
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) != pid:  # field 5 of stat: the process group
            continue
        used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        if stat.parent.name == str(pid):
            server, found = used, True
        else:
            others += used
    return (server, others) if found else (float("nan"), float("nan"))


def cluster_cpu(args: argparse.Namespace, pid: int) -> tuple[float, float]:
    """:func:`cpu_seconds`, or for a cluster (``args.web_pids``) the web processes' CPU
    together (each leads a process group of its own) and the bot service's process group
    (its supervisor and workers)."""
    web = getattr(args, "web_pids", None)
    if not web:
        return cpu_seconds(pid)
    return (sum(sum(cpu_seconds(p)) for p in web), sum(cpu_seconds(args.bots_pid)))


def peak_rss(pid: int) -> tuple[float, float]:
    """The peak resident set size (MB, ``VmHWM`` in Linux's /proc) of the server process
    and the largest of the other processes of its process group (the bot workers); NaN
    where unknown."""
    server = others = float("nan")
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            if status.parent.name != str(pid) and os.getpgid(int(status.parent.name)) != pid:
                continue
            line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM:"))
        except (OSError, StopIteration):
            continue
        mb = int(line.split()[1]) / 1024
        if status.parent.name == str(pid):
            server = mb
        else:
            others = mb if others != others else max(others, mb)  # NaN != NaN
    return server, others


def cluster_rss(args: argparse.Namespace, pid: int) -> tuple[float, float]:
    """:func:`peak_rss`, or for a cluster the largest web process and the largest process
    of the bot service (its supervisor and workers)."""
    web = getattr(args, "web_pids", None)
    if not web:
        return peak_rss(pid)
    bots = peak_rss(args.bots_pid)
    return max(peak_rss(p)[0] for p in web), max(bots[0], bots[1] if bots[1] == bots[1]
                                                  else 0.0)


@dataclass
class Measurement:
    """What one run measured: the clients' tally, the actions stored meanwhile (bots
    included), the wall time (s), CPU seconds of the server process, of its bot workers and
    of these clients, peak RSS (MB) of the server and of its largest worker, and the games
    in the lobby at the end."""

    tally: Tally
    moves: int
    wall: float
    cpu: tuple[float, float, float]
    rss: tuple[float, float]
    count: int


During = Callable[[list[Table], float], Awaitable[Any]]
"""Something run beside the players (``server_abuse.py``'s hostile client): called with the
tables and the monotonic time the run stops, when the measured time starts; its result is
awaited after the players have stopped."""


async def measure(args: argparse.Namespace, base: str, pid: int,
                  during: During | None = None) -> tuple[Measurement, Any]:
    """Open ``args.games`` tables, play them for ``args.seconds`` (with ``during`` running
    beside them, if given) and measure; returns the measurement and ``during``'s result."""
    limits = httpx.Limits(max_connections=10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        gate = asyncio.Semaphore(8)

        async def opened(g: int) -> Table:
            async with gate:
                return await open_game(client, base, args, g, g)

        tables = await asyncio.gather(*(opened(g) for g in range(args.games)))
        bases = getattr(args, "bases", None)
        if bases:
            from starlanes.server.jobs import owner_of

            for k, table in enumerate(tables):
                table.bases = ([str(owner_of(table.gid, bases))] * args.humans
                               if args.to_owner else
                               [bases[(k + s) % len(bases)] for s in range(args.humans)])
        tally = Tally()
        before, _ = await total_moves(client, base)
        cpu_before = cluster_cpu(args, pid)
        client_before = time.process_time()
        start = time.monotonic()
        stop = start + args.seconds
        beside = asyncio.ensure_future(during(tables, stop)) if during is not None else None
        tasks = [asyncio.create_task(play(base, t, k, args, stop, tally, random.Random(k)))
                 for k, t in enumerate(tables)]
        done, late = await asyncio.wait(tasks, timeout=args.seconds + 2 * VIEW_TIMEOUT + 30)
        for task in late:
            task.cancel()
            tally.error("client still running at the hard deadline")
        for task in done:
            if task.exception() is not None:
                tally.error(type(task.exception()).__name__)
        wall = time.monotonic() - start
        cpu_after = cluster_cpu(args, pid)
        cpu = (cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1],
               time.process_time() - client_before)
        rss = cluster_rss(args, pid)
        result = await beside if beside is not None else None
        after, count = await total_moves(client, base)
    return Measurement(tally, after - before, wall, cpu, rss, count), result


async def run(args: argparse.Namespace, base: str, pid: int) -> None:
    measurement, _ = await measure(args, base, pid)
    report(args, measurement)


def percentiles(values: list[float]) -> dict[str, float | int]:
    """p50, p95, p99 and max in milliseconds of ``values`` (seconds), and their number."""
    ms = sorted(x * 1000 for x in values)
    if not ms:
        return {"n": 0}

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(len(ms) * p))]

    return {"p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99), "max": ms[-1], "n": len(ms)}


def report(args: argparse.Namespace, m: Measurement) -> None:
    tally, moves, wall, cpu = m.tally, m.moves, m.wall, m.cpu
    print(f"{args.games} concurrent {args.game} games on {args.db_label}"
          f"{cluster_label(args)}: {args.humans} "
          f"scripted human(s) thinking {args.think:g} s on average and {args.bots} "
          f"{args.bot} bot(s) each, {args.bot_workers} bot worker(s); {wall:.1f} s; "
          f"{tally.finished} games finished and rematched ({m.count} games in the lobby)")
    print(f"actions: {moves} in all ({moves / wall:.1f}/s), {tally.human} by humans "
          f"({tally.human / wall:.1f}/s)")
    print(f"CPU: server process {cpu[0]:.1f} s ({1000 * cpu[0] / max(moves, 1):.2f} ms per "
          f"action), bot workers {cpu[1]:.1f} s, these clients {cpu[2]:.1f} s, of "
          f"{(os.cpu_count() or 1) * wall:.0f} core-seconds on {os.cpu_count()} cores "
          f"(shared with any other work; load average {os.getloadavg()[0]:.1f})")
    print(f"memory: server process peak RSS {m.rss[0]:.0f} MB, largest bot worker "
          f"{m.rss[1]:.0f} MB")
    for what, values in (("human action -> updated view on every human seat's socket",
                          tally.latencies),
                         ("human action -> HTTP acknowledgement", tally.acks)):
        if values:
            print(f"{what}: {latency_line(percentiles(values))}")
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    print(f"errors: {sum(tally.errors.values())} ({errors})")


def cluster_label(args: argparse.Namespace) -> str:
    if not getattr(args, "redis", None):
        return ""
    return (f", {args.processes} web process(es) with Redis {args.redis} and a bot "
            f"service")


def latency_line(p: dict[str, float | int]) -> str:
    return (f"p50 {p['p50']:.1f} ms, p95 {p['p95']:.1f} ms, p99 {p['p99']:.1f} ms, "
            f"max {p['max']:.1f} ms over {p['n']} actions")


@contextlib.contextmanager
def database(kind: str, tmp: str) -> Iterator[tuple[str, str]]:
    """(URL, label) of a fresh database of ``kind`` (sqlite / postgres), removed after."""
    if kind == "sqlite":
        yield f"sqlite:///{Path(tmp) / 'load.db'}", "SQLite (WAL, synchronous=FULL)"
        return
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(POSTGRES_ADMIN)
    name = f"starlanes_load_{uuid.uuid4().hex[:8]}"
    connect = dict(host=admin.host, port=admin.port or 5432, user=admin.username,
                   dbname=admin.database, autocommit=True, connect_timeout=3)
    with psycopg.connect(**connect) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        url = admin.set(database=name).render_as_string(hide_password=False)
        yield url, f"PostgreSQL ({admin.host}:{admin.port or 5432})"
    finally:
        with psycopg.connect(**connect) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stop_server(proc: subprocess.Popen) -> str:
    """SIGTERM; says how long the server and its bot workers took to exit."""
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "server shutdown: still running 30 s after SIGTERM; killed"
    took = time.monotonic() - start
    for _ in range(50):  # the bot workers and the pool's helper go with the server
        left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True)
        workers = left.stdout.split()
        if not workers:
            break
        time.sleep(0.1)
    if workers:
        os.killpg(proc.pid, signal.SIGKILL)
    return (f"server shutdown on SIGTERM: exit code {code} after {took:.1f} s; "
            + (f"processes left 5 s later: {' '.join(workers)}" if workers
               else "no process left"))


@dataclass
class Server:
    """A ``starlanes serve`` subprocess: its address, process, and once it has stopped,
    lines about its shutdown and the last lines it logged besides its access log."""

    base: str
    proc: subprocess.Popen
    notes: list[str] = field(default_factory=list)


@contextlib.contextmanager
def serving(args: argparse.Namespace, env: dict[str, str] | None = None) -> Iterator[Server]:
    """Start ``starlanes serve`` on a fresh database of kind ``args.db`` (its label put in
    ``args.db_label``) with ``args.bot_workers``, trusting the loopback proxy and with
    ``env`` added to its environment; stop it on exit. Exits the program when it does not
    start."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp, database(args.db, tmp) as (url, label):
        args.db_label = label
        errlog = open(Path(tmp) / "server.err", "w+b")  # noqa: SIM115 - read back on failure
        environment = {**os.environ, **TRUSTED_PROXIES, **(env or {})}
        cluster = bool(getattr(args, "redis", None))
        if cluster:
            if args.db != "postgres":
                sys.exit("--redis needs --db postgres")
            subprocess.run([sys.executable, "-m", "starlanes.cli", "db", "upgrade", "--db",
                            url], check=True, stdout=subprocess.DEVNULL)
            flags = ["--redis", args.redis]
        else:
            flags = ["--bot-workers", str(args.bot_workers)]
        proc = subprocess.Popen([sys.executable, "-m", "starlanes.cli", "serve", "--port",
                                 str(port), "--db", url, *flags],
                                stdout=subprocess.DEVNULL, stderr=errlog,
                                env=environment, start_new_session=True)
        server = Server(f"http://127.0.0.1:{port}", proc)
        others: list[subprocess.Popen] = []
        if cluster:  # the other web processes and the bot service, in the same group
            args.bases, args.web_pids = [server.base], [proc.pid]
            for _ in range(args.processes - 1):
                more = free_port()
                extra = subprocess.Popen(
                    [sys.executable, "-m", "starlanes.cli", "serve", "--port", str(more),
                     "--db", url, *flags], stdout=subprocess.DEVNULL, stderr=errlog,
                    env=environment, start_new_session=True)
                args.bases.append(f"http://127.0.0.1:{more}")
                args.web_pids.append(extra.pid)
                others.append(extra)
            others.append(subprocess.Popen(
                [sys.executable, "-m", "starlanes.cli", "bots", "--db", url, "--redis",
                 args.redis, "--workers", str(args.bot_workers)],
                stdout=subprocess.DEVNULL, stderr=errlog, env=environment,
                start_new_session=True))
            args.bots_pid = others[-1].pid
        try:
            for _ in range(300):
                try:
                    for base in getattr(args, "bases", None) or [server.base]:
                        httpx.get(f"{base}/readyz", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    if proc.poll() is not None:
                        break
                    time.sleep(0.2)
            if proc.poll() is not None:
                errlog.seek(0)
                sys.exit(f"the server did not start:\n{errlog.read().decode()}")
            yield server
        finally:
            for other in others:  # the cluster's other processes stop with the first
                if other.poll() is None:
                    other.terminate()
                    try:
                        other.wait(30)
                    except subprocess.TimeoutExpired:
                        os.killpg(other.pid, signal.SIGKILL)
            if proc.poll() is None:
                server.notes.append(stop_server(proc))
            errlog.seek(0)
            lines = [line for line in errlog.read().decode(errors="replace").splitlines()
                     if line.strip() and " starlanes.access: " not in line]
            notices = [m.groups() for m in map(_NOTICES.search, lines) if m]
            if notices:
                server.notes.append(
                    "notices received per web process: " + ", ".join(
                        f"{n} ({other} for games it did not hold)" for n, other in notices))
            if lines:
                server.notes.append("server stderr besides its access log (last lines):\n"
                                    + "\n".join(last_lines(lines, 15)))


def last_lines(lines: list[str], most: int) -> list[str]:
    """The last ``most`` distinct lines of a log (timestamps left out when comparing), in
    order of first appearance, each repeated one prefixed with its count."""
    counts: Counter[str] = Counter()
    for line in lines:
        counts[_STAMP.sub("", line)] += 1
    return [f"{n} x {line}" if n > 1 else line for line, n in counts.items()][-most:]


_NOTICES = re.compile(r"notices received: (\d+) \((\d+) for games")
_STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ")


def run_client(main: Coroutine[Any, Any, Any]) -> Any:
    """Run the clients on uvloop when it is installed (it comes with uvicorn[standard],
    which the server uses too), else on asyncio's own loop; returns what ``main`` returns."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def arguments(description: str) -> argparse.ArgumentParser:
    """The options of the load (``server_abuse.py`` adds its own)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--games", type=int, default=100, help="concurrent games")
    ap.add_argument("--seconds", type=float, default=60, help="measured time")
    ap.add_argument("--game", default="rift-domination")
    ap.add_argument("--humans", type=int, default=2, help="scripted human seats per game")
    ap.add_argument("--bots", type=int, default=1, help="bot seats per game")
    ap.add_argument("--bot", default="heuristic",
                    help="the bot seats' name in the server's bot catalogue")
    ap.add_argument("--think", type=float, default=1.0,
                    help="a scripted human's mean thinking time in seconds (0: none)")
    ap.add_argument("--bot-workers", type=int, default=1)
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--redis", help="run a cluster on this Redis URL (--db postgres): "
                                    "--processes web processes and a bot service")
    ap.add_argument("--processes", type=int, default=1,
                    help="web processes of the cluster (with --redis)")
    ap.add_argument("--to-owner", action="store_true",
                    help="send each game's requests and sockets to its owner, as a proxy "
                         "routing to owners would (default: seat s of game k to process "
                         "(k + s) mod N, most of them forwarded)")
    return ap


def main() -> None:
    ap = arguments(__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="load a server already running at this address instead "
                                  "(trusting 127.0.0.1 as a proxy: see above)")
    args = ap.parse_args()
    if args.url:
        args.db_label = f"the server at {args.url}"
        run_client(run(args, args.url.rstrip("/"), 0))
        return
    server: Server | None = None
    try:
        with serving(args) as server:
            run_client(run(args, server.base, server.proc.pid))
    finally:
        if server is not None and server.notes:
            print("\n".join(server.notes))


if __name__ == "__main__":
    main()
