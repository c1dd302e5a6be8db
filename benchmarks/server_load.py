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

The server runs in a subprocess (``starlanes serve``) on a fresh SQLite file, or with
``--db postgres`` on a fresh PostgreSQL database created through the admin URL in
``STARLANES_TEST_POSTGRES`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/test``)
and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

POSTGRES_ADMIN = os.environ.get("STARLANES_TEST_POSTGRES",
                                "postgresql+psycopg://postgres@127.0.0.1:5432/test")
VIEW_TIMEOUT = 10.0
"""Seconds an updated view may take to reach every seat before it counts as an error."""


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
    """One game as its human clients see it: tokens, the newest view of each seat, and the
    sequence number each seat's socket has reached."""

    def __init__(self, gid: str, tokens: list[str]) -> None:
        self.gid = gid
        self.tokens = tokens
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
                    seed: int, rematch_of: str | None = None) -> Table:
    if rematch_of is None:
        seats = ["human"] * args.humans + [args.bot] * args.bots
        r = await client.post(f"{base}/api/games", json={
            "game": args.game, "players": len(seats), "seats": seats, "seed": seed})
    else:
        r = await client.post(f"{base}/api/games/{rematch_of}/rematch")
    r.raise_for_status()
    gid = r.json()["id"]
    tokens = []
    for s in range(args.humans):
        j = await client.post(f"{base}/api/games/{gid}/join", json={"name": f"h{s}", "seat": s})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return Table(gid, tokens)


async def play(base: str, table: Table, args: argparse.Namespace, stop: float, tally: Tally,
               rng: random.Random) -> None:
    """Play ``table`` (and its rematches) until ``stop``, with a connection of its own (as
    the browsers of one game would have; one client shared by all games would spend more
    time choosing among its pooled connections than the server spends on an action)."""
    # uvicorn closes a connection idle for 5 s: let the client drop it first
    limits = httpx.Limits(max_connections=1, keepalive_expiry=3)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        await play_tables(base, client, table, args, stop, tally, rng)


async def play_tables(base: str, client: httpx.AsyncClient, table: Table,
                      args: argparse.Namespace, stop: float, tally: Tally,
                      rng: random.Random) -> None:
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < stop:
        sockets = []
        readers = []
        try:
            for i, token in enumerate(table.tokens):
                ws = await websockets.connect(f"{ws_base}/ws/games/{table.gid}?token={token}",
                                              max_size=2**24, compression=None)
                sockets.append(ws)
                readers.append(asyncio.create_task(read_views(ws, table, i)))
            over = await play_one(base, client, table, readers, args, stop, tally, rng)
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
        table = await open_game(client, base, args, 0, rematch_of=table.gid)


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
        r = await client.post(f"{base}/api/games/{table.gid}/actions",
                              json={"seq": view["seq"], "action": notation},
                              headers={"Authorization": f"Bearer {table.tokens[i]}"})
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


async def run(args: argparse.Namespace, base: str, pid: int) -> None:
    limits = httpx.Limits(max_connections=10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        gate = asyncio.Semaphore(8)

        async def opened(g: int) -> Table:
            async with gate:
                return await open_game(client, base, args, g)

        tables = await asyncio.gather(*(opened(g) for g in range(args.games)))
        tally = Tally()
        before, _ = await total_moves(client, base)
        cpu_before = cpu_seconds(pid)
        client_before = time.process_time()
        start = time.monotonic()
        stop = start + args.seconds
        tasks = [asyncio.create_task(play(base, t, args, stop, tally, random.Random(k)))
                 for k, t in enumerate(tables)]
        done, late = await asyncio.wait(tasks, timeout=args.seconds + 2 * VIEW_TIMEOUT + 30)
        for task in late:
            task.cancel()
            tally.error("client still running at the hard deadline")
        for task in done:
            if task.exception() is not None:
                tally.error(type(task.exception()).__name__)
        wall = time.monotonic() - start
        cpu_after = cpu_seconds(pid)
        cpu = (cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1],
               time.process_time() - client_before)
        after, count = await total_moves(client, base)
    report(args, tally, after - before, wall, cpu, count)


def report(args: argparse.Namespace, tally: Tally, moves: int, wall: float,
           cpu: tuple[float, float, float], count: int) -> None:
    print(f"{args.games} concurrent {args.game} games on {args.db_label}: {args.humans} "
          f"scripted human(s) thinking {args.think:g} s on average and {args.bots} "
          f"{args.bot} bot(s) each, {args.bot_workers} bot worker(s); {wall:.1f} s; "
          f"{tally.finished} games finished and rematched ({count} games in the lobby)")
    print(f"actions: {moves} in all ({moves / wall:.1f}/s), {tally.human} by humans "
          f"({tally.human / wall:.1f}/s)")
    print(f"CPU: server process {cpu[0]:.1f} s ({1000 * cpu[0] / max(moves, 1):.2f} ms per "
          f"action), bot workers {cpu[1]:.1f} s, these clients {cpu[2]:.1f} s, of "
          f"{(os.cpu_count() or 1) * wall:.0f} core-seconds on {os.cpu_count()} cores "
          f"(shared with any other work; load average {os.getloadavg()[0]:.1f})")
    for what, values in (("human action -> updated view on every human seat's socket",
                          tally.latencies),
                         ("human action -> HTTP acknowledgement", tally.acks)):
        if not values:
            continue
        ms = sorted(x * 1000 for x in values)

        def pct(p: float, ms: list[float] = ms) -> float:
            return ms[min(len(ms) - 1, int(len(ms) * p))]

        print(f"{what}: p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, p99 "
              f"{pct(0.99):.1f} ms, max {ms[-1]:.1f} ms over {len(ms)} actions")
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    print(f"errors: {sum(tally.errors.values())} ({errors})")


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


def stop_server(proc: subprocess.Popen) -> None:
    """SIGTERM, and report how long the server and its bot workers took to exit."""
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        print("server shutdown: still running 30 s after SIGTERM; killed")
        return
    took = time.monotonic() - start
    for _ in range(50):  # the bot workers and the pool's helper go with the server
        left = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True)
        workers = left.stdout.split()
        if not workers:
            break
        time.sleep(0.1)
    if workers:
        os.killpg(proc.pid, signal.SIGKILL)
    print(f"server shutdown on SIGTERM: exit code {code} after {took:.1f} s; "
          + (f"processes left 5 s later: {' '.join(workers)}" if workers
             else "no process left"))


def run_client(main: Coroutine[Any, Any, None]) -> None:
    """Run the clients on uvloop when it is installed (it comes with uvicorn[standard],
    which the server uses too), else on asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="concurrent games")
    ap.add_argument("--seconds", type=float, default=60, help="measured time")
    ap.add_argument("--game", default="rift-domination")
    ap.add_argument("--humans", type=int, default=2, help="scripted human seats per game")
    ap.add_argument("--bots", type=int, default=1, help="bot seats per game")
    ap.add_argument("--bot", default="heuristic", help="agent spec of the bot seats")
    ap.add_argument("--think", type=float, default=1.0,
                    help="a scripted human's mean thinking time in seconds (0: none)")
    ap.add_argument("--bot-workers", type=int, default=1)
    ap.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--url", help="load a server already running at this address instead")
    args = ap.parse_args()
    if args.url:
        args.db_label = f"the server at {args.url}"
        run_client(run(args, args.url.rstrip("/"), 0))
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp, database(args.db, tmp) as (url, label):
        args.db_label = label
        errlog = open(Path(tmp) / "server.err", "w+b")  # noqa: SIM115 - read back on failure
        proc = subprocess.Popen([sys.executable, "-m", "starlanes.cli", "serve", "--port",
                                 str(port), "--db", url, "--bot-workers", str(args.bot_workers)],
                                stdout=subprocess.DEVNULL, stderr=errlog,
                                start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(f"{base}/api/games", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    if proc.poll() is not None:
                        break
                    time.sleep(0.2)
            if proc.poll() is not None:
                errlog.seek(0)
                sys.exit(f"the server did not start:\n{errlog.read().decode()}")
            run_client(run(args, base, proc.pid))
        finally:
            if proc.poll() is None:
                stop_server(proc)
            errlog.seek(0)
            text = errlog.read().decode(errors="replace").strip()
            if text:
                print("server stderr (last lines):\n" + "\n".join(text.splitlines()[-15:]))


if __name__ == "__main__":
    main()
