"""Log-in latency of the game server, and what Argon2 itself costs.

Run: ``python benchmarks/login.py [--logins 30] [--concurrency 1] [--json]``.

An in-process server app (SQLite in a temporary directory, no bots) with one registered
account: ``--logins`` log-ins through the HTTP API (``httpx`` over ``ASGITransport``, the
whole stack: limits middleware, JSON, the password check in a thread, a new session row),
``--concurrency`` at a time; then as many bare ``verify`` calls of the server's password
hasher on that account's hash, each followed by one more log-in (paired, so both see the
same machine load). Prints p50/p99 (ms) of each, what a log-in costs beyond Argon2 (paired
p50 minus verify p50) and the log-ins per second of the first run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from starlanes.server.app import create_app
from starlanes.server.community.models import AccountRow
from starlanes.server.config import load_config

PASSWORD = "benchmark password 1"


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(_quantile(ms, 0.5), 2), "p99_ms": round(_quantile(ms, 0.99), 2),
            "mean_ms": round(statistics.fmean(ms), 2)}


async def measure(logins: int, concurrency: int, folder: Path) -> dict[str, Any]:
    config = load_config(limits={"logins_per_minute": 1_000_000,
                                 "requests_per_minute": 1_000_000})
    app = create_app(f"sqlite:///{folder / 'login.db'}", bot_workers=0, config=config)
    accounts = app.state.community.accounts
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as c:
            r = await c.post("/api/account/register",
                             json={"name": "bench", "password": PASSWORD})
            r.raise_for_status()
            with accounts.store.session() as s:
                stored = s.scalars(select(AccountRow.password_hash)).one()
            gate = asyncio.Semaphore(concurrency)
            times: list[float] = []
            verify: list[float] = []

            async def one() -> None:
                async with gate:
                    start = time.perf_counter()
                    answer = await c.post("/api/account/login",
                                          json={"name": "bench", "password": PASSWORD})
                    times.append((time.perf_counter() - start) * 1000)
                    answer.raise_for_status()

            def bare() -> None:
                start = time.perf_counter()
                assert accounts.hasher.verify(PASSWORD, stored)
                verify.append((time.perf_counter() - start) * 1000)

            await one()  # warm up (imports, first session)
            times.clear()
            wall = time.perf_counter()
            await asyncio.gather(*(one() for _ in range(logins)))
            wall = time.perf_counter() - wall
            # the bare hash, interleaved with more log-ins one at a time (a shared
            # machine's load changes: compare like with like)
            paired: list[float] = []
            for _ in range(logins):
                bare()
                before = len(times)
                await one()
                paired.append(times[before])
            del times[-logins:]
    login = _summary(times)
    bare = _summary(verify)
    pair = _summary(paired)
    return {"logins": logins, "concurrency": concurrency, "hash": stored.split("$")[3],
            "login": login, "argon2_verify": bare, "login_interleaved": pair,
            "overhead_p50_ms": round(pair["p50_ms"] - bare["p50_ms"], 2),
            "logins_per_s": round(logins / wall, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logins", type=int, default=30)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(measure(args.logins, args.concurrency, Path(folder)))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{result['logins']} log-ins, {result['concurrency']} at a time, "
          f"Argon2 parameters {result['hash']}")
    for label, key in (("log-in (HTTP)", "login"), ("log-in, paired", "login_interleaved"),
                       ("argon2 verify", "argon2_verify")):
        s = result[key]
        print(f"  {label:14} p50 {s['p50_ms']:8.2f} ms   p99 {s['p99_ms']:8.2f} ms   "
              f"mean {s['mean_ms']:8.2f} ms")
    print(f"  beyond Argon2 (p50): {result['overhead_p50_ms']:.2f} ms; "
          f"{result['logins_per_s']} log-ins/s")


if __name__ == "__main__":
    main()
