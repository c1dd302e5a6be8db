"""A web process's start-up and memory with a long history stored (docs/deploy.md,
"Nothing proportional to history").

Stores ``--finished`` finished games (default 100,000) and ``--unfinished`` unfinished
ones (default 1,000: two human seats, one taken, a few moves, no clock) in a fresh
PostgreSQL database with bulk inserts (``COPY``), then starts ``starlanes serve --redis``
on it and on an empty database, and reports for each: the seconds from the process's start
to ``/readyz`` answering 200, its resident memory then, and after the lobby and one
archived game were opened. Needs PostgreSQL (``--admin``, a database the role may create
databases from) and a Redis (``--redis``).

    python benchmarks/server_history.py [--finished 100000] [--unfinished 1000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any

ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
GAME = "galactic-domination"
OPTIONS = {"turn_limit": 2}


def _admin(url: str) -> Any:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(url)
    return psycopg.connect(host=admin.host, port=admin.port or 5432, user=admin.username,
                           dbname=admin.database, autocommit=True, connect_timeout=5)


def fresh_database(admin_url: str) -> str:
    """A new empty database (migrated) next to ``admin_url``'s; its URL."""
    from sqlalchemy.engine import make_url

    from starlanes.server.store import upgrade

    name = f"starlanes_hist_{uuid.uuid4().hex[:8]}"
    with _admin(admin_url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    upgrade(url)
    return url


def drop_database(admin_url: str, url: str) -> None:
    from sqlalchemy.engine import make_url

    with _admin(admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


def _moves(count: int) -> list[tuple[str, int, str]]:
    """The first ``count`` (notation, seat, digest) of a real game, so a stored game
    replays."""
    from starlanes.engine import load

    game = load(GAME, players=2, seed=7, **OPTIONS)
    state = game.new_initial_state()
    out = []
    while len(out) < count and not state.is_terminal():
        action = state.legal_actions()[-1]
        seat = state.current_player()
        text = str(action)
        state.apply(action)
        out.append((text, seat, state.digest()))
    return out


def fill(url: str, finished: int, unfinished: int, moves: int = 5) -> float:
    """Store ``finished`` finished and ``unfinished`` unfinished games of two seats with
    ``moves`` actions each, by ``COPY``; returns the seconds it took."""
    import psycopg
    from sqlalchemy.engine import make_url

    started = time.monotonic()
    played = _moves(moves)
    u = make_url(url)
    base = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
    with psycopg.connect(host=u.host, port=u.port or 5432, user=u.username,
                         dbname=u.database) as conn, conn.cursor() as cur:
        total = finished + unfinished
        chunk = 20000
        for start in range(0, total, chunk):
            games, seats, actions = io.StringIO(), io.StringIO(), io.StringIO()
            for i in range(start, min(total, start + chunk)):
                gid = f"h{i:09d}"
                done = i < finished  # (the unfinished ones: created in the last minutes)
                created = (base + dt.timedelta(minutes=i) if done else
                           dt.datetime.now(dt.UTC) - dt.timedelta(seconds=total - i))
                ended = (created + dt.timedelta(minutes=30)).isoformat() if done else r"\N"
                outcome = json.dumps({"reason": "adjudicated", "ranks": None,
                                      "detail": "a stored game of this benchmark"}) \
                    if done else r"\N"
                games.write("\t".join([
                    gid, GAME, "2", "7", json.dumps(OPTIONS), "0", "0", r"\N",
                    created.isoformat(), "t", "f", "move", "0", "bot", outcome, ended, r"\N",
                    "", r"\N"]) + "\n")
                for seat in range(2):
                    taken = done or seat == 0
                    seats.write("\t".join([
                        gid, str(seat), "human", f"player{seat}" if taken else "",
                        ("a" * 64) if taken else r"\N", r"\N", r"\N"]) + "\n")
                for seq, (notation, seat, digest) in enumerate(played):
                    actions.write("\t".join([
                        gid, str(seq), str(seat), notation, digest, "player",
                        (created + dt.timedelta(seconds=seq)).isoformat()]) + "\n")
            for table, columns, data in (
                    ("games", "id, game, players, seed, options, bot_seconds, clock_seconds,"
                              " rematch_of, created, seeded, rated, clock_kind,"
                              " clock_increment, timeout, outcome, ended, owner_account,"
                              " owner_network, draw_offer", games),
                    ("seats", "game_id, seat, kind, name, token_hash, account_id, network",
                     seats),
                    ("actions", "game_id, seq, seat, notation, digest, by, at", actions)):
                with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    copy.write(data.getvalue())
        conn.commit()
        cur.execute("ANALYZE")
    return time.monotonic() - started


@dataclass
class Started:
    ready_s: float
    rss_ready_mb: float
    rss_used_mb: float
    lobby_ms: float
    lobby_games: int


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start_and_measure(url: str, redis_url: str | None, open_game: str | None = None,
                      within: float = 120.0) -> Started:
    """Start ``starlanes serve`` on ``url`` (with ``--redis redis_url`` when given) and
    measure it (see the module); the process is stopped after."""
    import httpx

    port = _free_port()
    extra = ["--redis", redis_url] if redis_url else ["--no-migrate"]
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "starlanes.cli", "serve", "--port",
                             str(port), "--db", url, "--no-access-log", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "STARLANES_LIMITS__REQUESTS_PER_MINUTE":
                                 "100000"})
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            if time.monotonic() - started > within:
                raise RuntimeError(f"the server was not ready within {within:g} s")
            if proc.poll() is not None:
                raise RuntimeError("the server stopped")
            try:
                if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        ready = time.monotonic() - started
        rss_ready = _rss_mb(proc.pid)
        t = time.monotonic()
        lobby = httpx.get(base + "/api/games", timeout=30).json()["games"]
        lobby_ms = (time.monotonic() - t) * 1000
        if open_game:
            httpx.get(f"{base}/api/games/{open_game}/view", timeout=30).raise_for_status()
        return Started(ready, rss_ready, _rss_mb(proc.pid), lobby_ms, len(lobby))
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--unfinished", type=int, default=1_000)
    parser.add_argument("--admin", default=os.environ.get("STARLANES_TEST_POSTGRES", ADMIN))
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    args = parser.parse_args()
    empty, full = fresh_database(args.admin), fresh_database(args.admin)
    try:
        seconds = fill(full, args.finished, args.unfinished)
        print(f"stored {args.finished:,} finished and {args.unfinished:,} unfinished games "
              f"in {seconds:.1f} s")
        rows = []
        for name, url in (("empty", empty), ("history", full)):
            got = start_and_measure(url, args.redis, open_game="h000000001"
                                    if name == "history" else None)
            rows.append((name, got))
        print("| database | ready after | memory when ready | after lobby + an archived "
              "game | lobby |")
        print("|---|---|---|---|---|")
        for name, got in rows:
            print(f"| {name} | {got.ready_s:.2f} s | {got.rss_ready_mb:.0f} MB | "
                  f"{got.rss_used_mb:.0f} MB | {got.lobby_games} games in "
                  f"{got.lobby_ms:.0f} ms |")
        diff = rows[1][1].rss_used_mb - rows[0][1].rss_used_mb
        print(f"memory difference: {diff:+.0f} MB")
    finally:
        drop_database(args.admin, empty)
        drop_database(args.admin, full)


if __name__ == "__main__":
    main()
