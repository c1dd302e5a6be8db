"""Fixtures of the server tests: an app on a fresh SQLite file (or PostgreSQL when one is
reachable), a client, and helpers that create games and take seats."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402

POSTGRES_ADMIN = os.environ.get("STARLANES_TEST_POSTGRES",
                                "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def postgres_url() -> str | None:
    """A fresh PostgreSQL database for one test module, or None when none is reachable."""
    try:
        import psycopg
        from sqlalchemy.engine import make_url
    except ImportError:
        return None
    admin = make_url(POSTGRES_ADMIN)
    try:
        conn = psycopg.connect(host=admin.host, port=admin.port or 5432, user=admin.username,
                               dbname=admin.database, autocommit=True, connect_timeout=2)
    except Exception:  # noqa: BLE001 - no server, no driver, no rights: skip
        return None
    name = f"starlanes_{uuid.uuid4().hex[:10]}"
    with conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin.set(database=name).render_as_string(hide_password=False)


def drop_postgres(url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    admin = make_url(POSTGRES_ADMIN)
    name = make_url(url).database
    with psycopg.connect(host=admin.host, port=admin.port or 5432, user=admin.username,
                         dbname=admin.database, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """Every store-backed test runs on SQLite and, when reachable, on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.db'}"
        return
    url = postgres_url()
    if url is None:
        pytest.skip(f"no PostgreSQL reachable at {POSTGRES_ADMIN} "
                    "(set STARLANES_TEST_POSTGRES to an admin URL to run these)")
    try:
        yield url
    finally:
        drop_postgres(url)


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    """A client of a server on a fresh SQLite file, bots thinking in a thread."""
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0)
    with TestClient(app) as c:
        yield c


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli_command() -> list[str]:
    return [sys.executable, "-m", "starlanes.cli"]


class Server:
    """``starlanes serve`` in a subprocess on a free port."""

    def __init__(self, db: str, bot_workers: int = 0) -> None:
        self.db = db
        self.bot_workers = bot_workers
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(self.port), "--db", self.db,
             "--bot-workers", str(self.bot_workers)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url("/api/games"), timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise AssertionError(self.proc.stderr.read().decode()) from None
                time.sleep(0.1)
        raise AssertionError("server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


def create(client: TestClient, game: str = "rift-domination", seats: list[str] | None = None,
           **extra: Any) -> str:
    seats = seats or ["human", "human"]
    body = {"game": game, "players": len(seats), "seats": seats, "seed": 7, **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def join(client: TestClient, game_id: str, name: str, seat: int | None = None) -> str:
    r = client.post(f"/api/games/{game_id}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()
