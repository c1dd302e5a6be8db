"""``starlanes admin`` through the real entry point (``python -m starlanes.cli``) on a
server's SQLite database: a reported chat message is listed and filed away, an account is
suspended (its session refused at once) and let back, unknown names exit 2 with one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402
from starlanes.server.community.identity import SESSION_COOKIE, Sessions  # noqa: E402
from starlanes.server.community.models import AccountRow  # noqa: E402

from .server.conftest import auth, create, join, test_config  # noqa: E402


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m starlanes.cli admin ARGS`` in a subprocess: the real entry point."""
    env = dict(os.environ, COLUMNS="250", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "starlanes.cli", "admin", *args],
                          capture_output=True, text=True, timeout=60, env=env)


def admin_here(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
               *args: str) -> tuple[int, str, str]:
    """The same command through :func:`starlanes.cli.main` in this process (no start-up
    cost): its exit status, stdout and stderr."""
    from starlanes.cli import main
    from starlanes.cli.app import STOP_SIGNALS

    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setattr(sys, "argv", ["starlanes", "admin", *args])
    handlers = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    capsys.readouterr()
    try:
        with pytest.raises(SystemExit) as stop:
            main()
    finally:  # main() installs the command's signal handlers: give pytest its own back
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    got = capsys.readouterr()
    return int(stop.value.code or 0), got.out, got.err


@pytest.fixture
def served(tmp_path) -> Iterator[dict[str, Any]]:
    """A server's database holding a game, a chat message of seat 0 reported by seat 1, and
    an account Carol with a session; the client stays open to try that session."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with TestClient(create_app(url, bot_workers=0, config=test_config())) as client:
        gid = create(client)
        ann, bob = join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)
        r = client.post(f"/api/games/{gid}/chat", headers=auth(ann),
                        json={"channel": "players", "text": "you play like a [bold]bot[/bold]"})
        assert r.status_code == 201, r.text
        r = client.post(f"/api/chat/{r.json()['id']}/report", headers=auth(bob),
                        json={"reason": "rude"})
        assert r.status_code == 201, r.text
        store = client.app.state.community.store
        with store.session() as s:
            row = AccountRow(name="Carol", name_key="carol", password_hash="")
            s.add(row)
            s.flush()
            carol = row.id
        session = Sessions(store).create(carol)
        yield {"url": url, "client": client, "game": gid, "carol": carol,
               "headers": {"Cookie": f"{SESSION_COOKIE}={session.cookie}",
                           "X-CSRF-Token": session.csrf}}


def test_reports_listed_and_handled(served, capsys, monkeypatch):
    proc = admin("reports", "--db", served["url"])
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for shown in (served["game"], "Bob (seat 1)", "Ann (seat 0)", "rude",
                  "[players] you play like a [bold]bot[/bold]"):
        assert shown in text, (shown, text)
    db = ("--db", served["url"])
    assert admin_here(capsys, monkeypatch, "handled", "1", *db)[0] == 0
    assert "no reports to handle" in admin_here(capsys, monkeypatch, "reports", *db)[1]
    everything = admin_here(capsys, monkeypatch, "reports", "--all", *db)[1]
    assert "rude" in everything and "yes" in everything
    code, _out, err = admin_here(capsys, monkeypatch, "handled", "99", *db)
    assert code == 2 and err.strip().splitlines() == ["error: no report 99"]


def test_suspend_and_unsuspend(served, capsys, monkeypatch):
    client, gid, headers = served["client"], served["game"], served["headers"]
    body = {"channel": "spectators", "text": "hello"}
    assert client.post(f"/api/games/{gid}/chat", json=body, headers=headers).status_code == 201
    proc = admin("suspend", "carol", "--db", served["url"])
    assert proc.returncode == 0, proc.stderr
    assert "Carol suspended" in proc.stdout
    assert client.post(f"/api/games/{gid}/chat", json=body, headers=headers).status_code == 401
    store = client.app.state.community.store
    with store.session() as s:
        assert s.get(AccountRow, served["carol"]).suspended
    assert Sessions(store).count(served["carol"]) == 0
    db = ("--db", served["url"])
    assert admin_here(capsys, monkeypatch, "unsuspend", "Carol", *db)[0] == 0
    with store.session() as s:
        assert not s.get(AccountRow, served["carol"]).suspended
    code, _out, err = admin_here(capsys, monkeypatch, "suspend", "nobody", *db)
    assert code == 2 and err.strip().splitlines() == ["error: no account named 'nobody'"]
