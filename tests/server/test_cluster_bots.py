"""Bot jobs in a cluster are not left waiting (docs/deploy.md, The bot service): a killed
bot service's jobs are taken by another service within seconds (not after ``--reclaim``),
and a job that failed because the database went away is played within 2 seconds of the
database answering again.

One web process and bot services started with the default ``--reclaim`` (15 s), on a fresh
PostgreSQL database and a Redis of the test's own.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from starlanes.server.store import ActionRow, Store, upgrade

from .conftest import (
    POSTGRES_ADMIN,
    Server,
    cli_command,
    drop_postgres,
    generous_env,
    postgres_url,
)
from .test_scale_cluster import RedisServer, launch, wait_for

GAMES = 3


class BotService:
    """``starlanes bots`` with the default take-over time."""

    def __init__(self, db: str, redis_url: str) -> None:
        self.log_path = tempfile.mkstemp(prefix="starlanes-bots-", suffix=".log")[1]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*cli_command(), "bots", "--db", db, "--redis", redis_url, "--workers", "1"],
                stdout=subprocess.DEVNULL, stderr=log, env=generous_env(),
                start_new_session=True)

    def kill(self) -> None:
        os.killpg(os.getpgid(self.proc.pid), signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def setup() -> Iterator[tuple[str, Server, list[BotService], RedisServer]]:
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    db = postgres_url()
    if db is None:
        pytest.skip(f"no PostgreSQL reachable at {POSTGRES_ADMIN}")
    redis_server = RedisServer()
    services: list[BotService] = []
    server = None
    try:
        redis_server.start()
        upgrade(db)
        server = Server(db, extra=["--redis", redis_server.url, "--no-access-log"])
        launch(server)
        services = [BotService(db, redis_server.url) for _ in range(2)]
        yield db, server, services, redis_server
    finally:
        for s in services:
            s.stop()
        if server is not None and server.proc is not None and server.proc.poll() is None:
            server.proc.terminate()
            server.proc.wait(15)
        redis_server.stop()
        drop_postgres(db)


def _bot_games(server: Server) -> list[str]:
    ids = []
    for _ in range(GAMES):
        r = httpx.post(server.url("/api/games"), timeout=10, json={
            "game": "rift-domination", "players": 3, "seats": ["random"] * 3,
            "options": {"round_limit": 6}})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    return ids


def _bot_moves(db: str, games: list[str]) -> list[float]:
    """When each bot move of ``games`` was stored (epoch seconds), in order."""
    from sqlalchemy import select

    store = Store(db)
    try:
        with store.session() as s:
            rows = s.scalars(select(ActionRow.at).where(ActionRow.game_id.in_(games))
                             .order_by(ActionRow.at))
            return [a.replace(tzinfo=dt.UTC).timestamp() if a.tzinfo is None
                    else a.timestamp() for a in rows]
    finally:
        store.engine.dispose()


def _workers(redis_server: RedisServer) -> int:
    """How many bot workers are alive (their keys, docs/deploy.md)."""
    import redis

    client = redis.Redis(port=redis_server.port, socket_timeout=2)
    try:
        return len(client.keys("starlanes-db0:bot-worker:*"))
    finally:
        client.close()


def _pause_after(moves: list[float], moment: float) -> float:
    """Seconds from ``moment`` to the first move stored after it."""
    later = [t for t in moves if t > moment]
    assert later, "no bot move after the moment"
    return later[0] - moment


def test_a_killed_bot_service_s_games_move_on_within_seconds(setup):
    db, server, services, _redis = setup
    games = _bot_games(server)
    wait_for(lambda: len(_bot_moves(db, games)) >= 30, 60, "30 bot moves")
    for _ in range(3):  # kill whichever service, at moments it may be thinking
        wait_for(lambda: _workers(_redis) == 2, 60, "both services' workers")
        victim = next(s for s in services if s.proc.poll() is None)
        victim.kill()
        killed = time.time()
        wait_for(lambda k=killed: any(t > k + 0.2 for t in _bot_moves(db, games)), 20,
                 "a bot move after the kill")
        # a job the dead service held waits for its key to expire (2 s), not --reclaim
        # (15 s); usually 2 to 2.5 s here, up to 7.5 s seen on the busy 2-core machine
        moves = _bot_moves(db, games)
        around = [round(t - killed, 2) for t in moves if killed - 3 < t < killed + 10]
        pause = _pause_after(moves, killed)
        print(f"first bot move {pause:.2f} s after the kill")  # shown with -s
        assert pause < 10.0, around
        services.remove(victim)
        services.append(BotService(db, _redis.url))  # the restarted service


def test_bot_jobs_go_on_within_two_seconds_of_the_database_answering_again(setup):
    """Every connection to the database is cut again and again for two seconds (a
    failover): the bot moves stop, and start again within 2 s of the cuts ending."""
    import psycopg
    from sqlalchemy.engine import make_url

    db, server, _services, _redis = setup
    games = _bot_games(server)
    wait_for(lambda: len(_bot_moves(db, games)) >= 10, 60, "10 bot moves")
    admin = make_url(POSTGRES_ADMIN)
    name = make_url(db).database
    stop = threading.Event()

    def cut() -> None:
        with psycopg.connect(host=admin.host, port=admin.port or 5432, user=admin.username,
                             dbname=admin.database, autocommit=True) as conn:
            while not stop.is_set():
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
                time.sleep(0.05)

    cutter = threading.Thread(target=cut, daemon=True)
    cutter.start()
    time.sleep(2.0)
    stop.set()
    cutter.join(5)
    back = time.time()
    wait_for(lambda: any(t > back for t in _bot_moves(db, games)), 20,
             "a bot move after the database came back")
    assert _pause_after(_bot_moves(db, games), back) < 2.0


def test_a_restarted_bot_service_moves_its_games_within_seconds(setup):
    """The only bot service is killed (kill -9) and started again a second later: its
    games move on as soon as the new service is up (docs/deploy.md, The bot service; aim
    3 s from the start of the new process, which includes the interpreter's start-up)."""
    db, server, services, _redis = setup
    services.pop().stop()  # one service only: nobody else can take its jobs
    games = _bot_games(server)
    wait_for(lambda: len(_bot_moves(db, games)) >= 20, 60, "20 bot moves")
    services[0].kill()
    time.sleep(1.0)
    started = time.time()
    services[0] = BotService(db, _redis.url)
    wait_for(lambda: any(t > started for t in _bot_moves(db, games)), 30,
             "a bot move after the restart")
    pause = _pause_after(_bot_moves(db, games), started)
    print(f"first bot move {pause:.2f} s after the restarted service was launched")
    # 3 s is the aim on a quiet machine; CI's cores are shared, and the pause includes the
    # new interpreter's start-up (10.4 s seen on a loaded 2-core machine). Under 13 s still
    # tells the new service's own start from the 15 s --reclaim of a job left behind.
    assert pause < 13.0
