"""Fixtures of the server tests: an app on a fresh SQLite file (or PostgreSQL when one is
reachable), a client, and helpers that create games and take seats."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402
from starlanes.server.config import ServerConfig, load_config  # noqa: E402

GENEROUS = {"requests_per_minute": 1_000_000, "creates_per_hour": 100_000,
            "joins_per_minute": 100_000, "replays_per_minute": 1_000_000,
            "auth_failures_per_minute": 100_000, "network_creates_per_hour": 100_000,
            "anonymous_games_per_network": 100_000, "games_per_account": 100_000,
            "anonymous_share": 1.0}
"""Limits and quotas no test of the game itself reaches (one test client plays every seat
from one address); tests/server/test_limits.py and test_quotas.py attack the real ones."""


SAME_NETWORK = {"rated_same_network": True}
"""Fair play as a club server behind one address has it: every test client plays from one
address; tests/server/test_fair_play.py checks the rules with it off."""


def test_config(**flags: Any) -> ServerConfig:
    """The defaults with :data:`GENEROUS` limits and :data:`SAME_NETWORK` fair play (and
    ``flags`` over them)."""
    limits = {**GENEROUS, **flags.pop("limits", {})}
    fair_play = {**SAME_NETWORK, **flags.pop("fair_play", {})}
    return load_config(limits=limits, fair_play=fair_play, **flags)


test_config.__test__ = False  # a helper, not a test


def generous_env() -> dict[str, str]:
    """The environment of a server subprocess with :data:`GENEROUS` limits."""
    return {**os.environ, **{f"STARLANES_LIMITS__{k.upper()}": str(v)
                             for k, v in GENEROUS.items()},
            "STARLANES_FAIR_PLAY__RATED_SAME_NETWORK": "true"}

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
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0,
                     config=test_config())
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

    def __init__(self, db: str, bot_workers: int = 0, config: str | None = None,
                 log: str | None = None, extra: list[str] | None = None) -> None:
        self.db = db
        self.bot_workers = bot_workers
        self.config = config
        self.extra = extra or []
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        # the server's log (access log included) goes to a file: a pipe nobody reads
        # would fill up and stop the server
        self.log_path = log or tempfile.mkstemp(prefix="starlanes-server-", suffix=".log")[1]

    def start(self) -> None:
        config = ["--config", self.config] if self.config else []
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [*cli_command(), "serve", "--port", str(self.port), "--db", self.db,
                 "--bot-workers", str(self.bot_workers), *config, *self.extra],
                stdout=subprocess.DEVNULL, stderr=log, env=generous_env())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url("/healthz"), timeout=1).raise_for_status()
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise AssertionError(self.log()) from None
                time.sleep(0.1)
        raise AssertionError("server did not start")

    def log(self) -> str:
        """What the server wrote on stderr so far."""
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

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


def finish(client: TestClient, game_id: str, token: str, timeout: float = 60.0) -> dict[str, Any]:
    """Play the seat of ``token`` (its last legal action each time, often the turn's end)
    until the game is over; the other seats are bots. Returns the final view."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = view(client, game_id, token)
        if v["result"] is not None:
            return v
        if v["your_turn"]:
            r = client.post(f"/api/games/{game_id}/actions",
                            json={"seq": v["seq"], "action": v["legal"][-1]["notation"]},
                            headers=auth(token))
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end in time")


def wait_view(client: TestClient, game_id: str, until: Any, token: str | None = None,
              timeout: float = 60.0) -> dict[str, Any]:
    """The first view (of ``token``'s seat, or the spectators') for which ``until(view)``
    holds, asked every 50 ms; AssertionError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = view(client, game_id, token)
        if until(v):
            return v
        time.sleep(0.05)
    raise AssertionError("the server did not reach the expected view in time")


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------------- browsers
CHROMIUM = os.environ.get("STARLANES_CHROMIUM") or shutil.which("chromium") \
    or shutil.which("chromium-browser")
"""The Chromium the browser tests drive (Debian's package, or STARLANES_CHROMIUM)."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


SHOWN_WORDS = """
new MutationObserver((records) => {
  const bad = /^(null|undefined|NaN|\\[object Object\\])$/;
  const look = (n) => {
    if (n.nodeType === 3) {
      if (bad.test(n.data.trim())) console.error(`starlanes-shown: "${n.data.trim()}" in <${n.parentNode?.localName}${n.parentNode?.id ? "#" + n.parentNode.id : ""}>`);
    } else if (n.nodeType === 1 && n.localName !== "script" && n.localName !== "textarea") {
      n.childNodes.forEach(look);
    }
  };
  for (const r of records) r.addedNodes.forEach(look);
}).observe(document, { childList: true, subtree: true });
"""
"""A script every test page runs first: any text a page shows that is a program's value
and not words (``null``, ``undefined``, ``NaN``, ``[object Object]``) is reported on the
console as ``starlanes-shown: ...`` and fails the test (:func:`no_program_values_shown`)."""
SHOWN: list[str] = []
"""What :data:`SHOWN_WORDS` reported during the running test."""


def _report_shown(message: Any) -> None:
    if message.type == "error" and message.text.startswith("starlanes-shown:"):
        SHOWN.append(message.text)


class _WatchedBrowser:
    """The browser, with :data:`SHOWN_WORDS` in every page and context it opens."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        page.add_init_script(SHOWN_WORDS)
        page.on("console", _report_shown)
        return page

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.add_init_script(SHOWN_WORDS)
        context.on("console", _report_shown)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(autouse=True)
def no_program_values_shown() -> Iterator[None]:
    """Fail a browser test whose pages showed ``null``, ``undefined``, ``NaN`` or
    ``[object Object]`` as text (players read words)."""
    SHOWN.clear()
    yield
    shown, SHOWN[:] = list(SHOWN), []
    assert not shown, f"a page showed a program value as text: {shown[:5]}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (pages and contexts watched for program
    values shown as text); skips without Playwright or Chromium."""
    playwright_api = pytest.importorskip("playwright.sync_api",
                                         reason="Playwright for Python is not installed")
    if CHROMIUM is None:
        pytest.skip("no Chromium found")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield _WatchedBrowser(b)
        b.close()


def open_groups(page: Any, tap: bool = False) -> None:
    """Open every closed group of the action list. Each opened group leaves the set of
    closed ones, so the first closed one is opened until none is left (a list of locators
    taken beforehand would point past the end)."""
    closed = page.locator("#groups details:not([open])")
    for _ in range(closed.count()):
        if not closed.count():
            break
        summary = closed.first.locator("summary")
        summary.tap() if tap else summary.click()


# ---------------------------------------------------------------------- turn clocks
class FakeTime:
    """The clocks' idea of now (epoch seconds), moved by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    """The turn clocks read this time instead of the machine's (``fake.now += s``)."""
    from starlanes.server import clocks

    t = FakeTime()
    monkeypatch.setattr(clocks, "wall", t)
    return t
