"""``starlanes admin`` through the real entry point (``python -m starlanes.cli``) on a
server's SQLite database: a reported chat message is listed and filed away, an account is
suspended (its session refused at once) and let back, unknown names exit 2 with one line."""

from __future__ import annotations

import os
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
    env = dict(os.environ, COLUMNS="250", NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "starlanes.cli", "admin", *args],
                          capture_output=True, text=True, timeout=60, env=env)


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


def test_reports_listed_and_handled(served):
    proc = admin("reports", "--db", served["url"])
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for shown in (served["game"], "Bob (seat 1)", "Ann (seat 0)", "rude",
                  "[players] you play like a [bold]bot[/bold]"):
        assert shown in text, (shown, text)
    assert admin("handled", "1", "--db", served["url"]).returncode == 0
    assert "no reports to handle" in admin("reports", "--db", served["url"]).stdout
    everything = admin("reports", "--all", "--db", served["url"]).stdout
    assert "rude" in everything and "yes" in everything
    missing = admin("handled", "99", "--db", served["url"])
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == ["error: no report 99"]


def test_suspend_and_unsuspend(served):
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
    assert admin("unsuspend", "Carol", "--db", served["url"]).returncode == 0
    with store.session() as s:
        assert not s.get(AccountRow, served["carol"]).suspended
    unknown = admin("suspend", "nobody", "--db", served["url"])
    assert unknown.returncode == 2
    assert unknown.stderr.strip().splitlines() == ["error: no account named 'nobody'"]
