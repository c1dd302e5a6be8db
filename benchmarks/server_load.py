"""Load on the game server: N concurrent games on loopback, each with scripted human clients
over websockets and a bot seat, for a bounded time.

Prints actions/s (human and bot) and the latency of human actions: from sending the action
to the updated view arriving on the websocket of every seat of that game (bot thinking time
is not part of it). Not a test; run it by hand:

    python benchmarks/server_load.py --games 100 --seconds 60
    python benchmarks/server_load.py --games 20 --seconds 20 --game galactic-domination

The server runs in a subprocess (``starlanes serve``) on a fresh SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Game:
    """One game: its id, the human seats' tokens and sockets, and the views they received."""

    def __init__(self, gid: str, tokens: list[str]) -> None:
        self.gid = gid
        self.tokens = tokens
        self.seq_seen = [0] * len(tokens)
        self.changed = asyncio.Event()
        self.views: list[dict | None] = [None] * len(tokens)


async def reader(ws, game: Game, i: int) -> None:
    async for message in ws:
        view = json.loads(message)
        game.views[i] = view
        game.seq_seen[i] = view["seq"]
        game.changed.set()


async def wait_all(game: Game, seq: int, deadline: float) -> bool:
    while min(game.seq_seen) < seq:
        game.changed.clear()
        if min(game.seq_seen) >= seq:
            break
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            return False
        try:
            await asyncio.wait_for(game.changed.wait(), timeout)
        except TimeoutError:
            return False
    return True


async def play(base: str, client: httpx.AsyncClient, game: Game, stop: float,
               latencies: list[float], counts: dict[str, int], rng: random.Random) -> None:
    ws_base = base.replace("http", "ws")
    sockets = [await websockets.connect(f"{ws_base}/ws/games/{game.gid}?token={t}",
                                        max_size=2**24) for t in game.tokens]
    readers = [asyncio.create_task(reader(ws, game, i)) for i, ws in enumerate(sockets)]
    try:
        while time.monotonic() < stop:
            views = [v for v in game.views if v is not None]
            if not views:
                await asyncio.sleep(0.01)
                continue
            if any(v["result"] for v in views):
                break
            mine = [(i, v) for i, v in enumerate(game.views) if v and v["your_turn"]]
            if not mine:
                game.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(game.changed.wait(), 1.0)
                continue
            i, view = mine[0]
            notation = rng.choice(view["legal"])["notation"]
            start = time.perf_counter()
            r = await client.post(f"{base}/api/games/{game.gid}/actions",
                                  json={"seq": view["seq"], "action": notation},
                                  headers={"Authorization": f"Bearer {game.tokens[i]}"})
            if r.status_code != 200:
                counts["refused"] += 1
                await asyncio.sleep(0.01)
                continue
            if await wait_all(game, r.json()["seq"], time.monotonic() + 10):
                latencies.append(time.perf_counter() - start)
            counts["human"] += 1
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()


async def run(args: argparse.Namespace, base: str) -> None:
    limits = httpx.Limits(max_connections=args.games * 2 + 10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        games = []
        seats = ["human"] * args.humans + ["heuristic"] * args.bots
        for g in range(args.games):
            r = await client.post(f"{base}/api/games", json={
                "game": args.game, "players": len(seats), "seats": seats, "seed": g})
            r.raise_for_status()
            gid = r.json()["id"]
            tokens = []
            for s in range(args.humans):
                j = await client.post(f"{base}/api/games/{gid}/join",
                                      json={"name": f"h{s}", "seat": s})
                tokens.append(j.json()["token"])
            games.append(Game(gid, tokens))
        latencies: list[float] = []
        counts = {"human": 0, "refused": 0}
        start = time.monotonic()
        stop = start + args.seconds
        before = await total_moves(client, base)
        await asyncio.gather(*(play(base, client, g, stop, latencies, counts,
                                    random.Random(k)) for k, g in enumerate(games)))
        wall = time.monotonic() - start
        after = await total_moves(client, base)
    moves = after - before
    print(f"{args.games} concurrent {args.game} games, {args.humans} scripted humans and "
          f"{args.bots} bot(s) each, {wall:.1f} s")
    print(f"actions: {moves} in all ({moves / wall:.0f}/s), {counts['human']} by humans "
          f"({counts['human'] / wall:.0f}/s), {counts['refused']} refused")
    if latencies:
        ms = sorted(x * 1000 for x in latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"human action -> updated view on every seat's socket: p50 "
              f"{statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms "
              f"over {len(ms)} actions")


async def total_moves(client: httpx.AsyncClient, base: str) -> int:
    r = await client.get(f"{base}/api/games")
    return sum(g["moves"] for g in r.json()["games"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--game", default="rift-domination")
    ap.add_argument("--humans", type=int, default=2)
    ap.add_argument("--bots", type=int, default=1)
    ap.add_argument("--bot-workers", type=int, default=1)
    args = ap.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'load.db'}"
        proc = subprocess.Popen([sys.executable, "-m", "starlanes.cli", "serve", "--port",
                                 str(port), "--db", db, "--bot-workers", str(args.bot_workers)],
                                stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    httpx.get(f"{base}/api/games", timeout=1).raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            asyncio.run(run(args, base))
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
