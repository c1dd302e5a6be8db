"""``starlanes admin`` through the real entry point (``python -m starlanes.cli``) on a
server's SQLite database: a reported chat message is listed and filed away, an account is
suspended (its session refused at once) and let back, unknown names exit 2 with one line."""

from __future__ import annotations

import json
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


# ---------------------------------------------------------------------- the operator's tools
from .server.conftest import db_url  # noqa: E402,F401 - the SQLite and PostgreSQL fixture

POLL = {"notifications": {"admin_poll_seconds": 0.1}}


def person(client: TestClient, name: str) -> dict[str, str]:
    """A new account ``name`` with a session: the headers of its requests."""
    store = client.app.state.community.store
    with store.session() as s:
        row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
        s.add(row)
        s.flush()
        account_id = row.id
    new = Sessions(store).create(account_id)
    return {"Cookie": f"{SESSION_COOKIE}={new.cookie}", "X-CSRF-Token": new.csrf}


def seat_for(client: TestClient, gid: str, headers: dict[str, str], seat: int) -> str:
    r = client.post(f"/api/games/{gid}/join", json={"name": "x", "seat": seat},
                    headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["token"]


def wait_until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


@pytest.fixture
def server(db_url) -> Iterator[dict[str, Any]]:  # noqa: F811 - the fixture imported above
    """A running server (its operator's requests read every 0.1 s) on SQLite or
    PostgreSQL, with a two-seat game held by the accounts Ann and Bob."""
    with TestClient(create_app(db_url, bot_workers=0, config=test_config(**POLL))) as client:
        gid = create(client)
        ann, bob = person(client, "Ann"), person(client, "Bob")
        tokens = [seat_for(client, gid, ann, 0), seat_for(client, gid, bob, 1)]
        yield {"url": db_url, "client": client, "game": gid, "tokens": tokens,
               "ann": ann, "bob": bob}


def play_one(client: TestClient, gid: str, tokens: list[str]) -> tuple[int, int]:
    """The status of one move by whoever's turn it is, and that seat."""
    for seat, token in enumerate(tokens):
        v = client.get(f"/api/games/{gid}/view", headers=auth(token)).json()
        if v["your_turn"]:
            r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                            json={"seq": v["seq"], "action": v["legal"][0]["notation"]})
            return r.status_code, seat
    raise AssertionError("nobody's turn")


def test_users_listed_searched_and_paged(server, capsys, monkeypatch):
    db = ("--db", server["url"])
    client = server["client"]
    for name in ("Carol", "Caroline", "Dave"):
        person(client, name)
    code, out, _ = admin_here(capsys, monkeypatch, "users", *db)
    assert code == 0 and "5 in all" in out
    for name in ("Ann", "Bob", "Carol", "Caroline", "Dave"):
        assert name in out
    code, out, _ = admin_here(capsys, monkeypatch, "users", "--search", "CAROL", *db)
    assert "Caroline" in out and "Dave" not in out and "2 in all" in out
    code, out, _ = admin_here(capsys, monkeypatch, "users", "--per-page", "2", "--page", "2",
                              *db)
    assert "page 2 of 3" in out and "Carol " in out and "Ann" not in out
    assert "next page: --page 3" in out
    code, out, _ = admin_here(capsys, monkeypatch, "users", "--search", "%", *db)
    assert "no accounts matching" in out  # a wildcard is a character, not "anything"
    code, _out, err = admin_here(capsys, monkeypatch, "users", "--page", "0", *db)
    assert code == 2 and "--page" in err


def test_reset_password_link_works_once(server, capsys, monkeypatch):
    import datetime as dt

    from starlanes.server.community.notify_models import PasswordResetRow

    client, db = server["client"], ("--db", server["url"])
    proc = admin("reset-password", "ann", "--url", "https://play.example.org", *db)
    assert proc.returncode == 0, proc.stderr
    link = proc.stdout.split()[-1]
    assert link.startswith("https://play.example.org/reset?token=")
    token = link.partition("token=")[2]
    assert client.get("/reset").status_code == 200  # the page that asks for the password
    r = client.post("/api/account/reset/confirm", json={"token": token, "password": "short"})
    assert r.status_code == 422  # a refused password does not use the link up
    r = client.post("/api/account/reset/confirm",
                    json={"token": token, "password": "a new password"})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Ann", r.text
    assert client.get("/api/account", headers=server["ann"]).json()["account"] is None
    r = client.post("/api/account/login", json={"name": "Ann", "password": "a new password"})
    assert r.status_code == 200, r.text
    r = client.post("/api/account/reset/confirm",
                    json={"token": token, "password": "another one!"})
    assert r.status_code == 403 and "not valid" in r.json()["error"]
    # an expired link
    code, out, _ = admin_here(capsys, monkeypatch, "reset-password", "Bob", "--minutes", "5",
                              *db)
    token = out.split()[-1].partition("token=")[2]
    with client.app.state.community.store.session() as s:
        for row in s.query(PasswordResetRow):
            row.expires = row.created - dt.timedelta(seconds=1)
    r = client.post("/api/account/reset/confirm", json={"token": token, "password": "x" * 12})
    assert r.status_code == 403
    assert admin_here(capsys, monkeypatch, "reset-password", "nobody", *db)[0] == 2


def test_suspension_stops_seat_links_in_every_game(server, capsys, monkeypatch):
    client, gid, tokens = server["client"], server["game"], server["tokens"]
    db = ("--db", server["url"])
    assert admin_here(capsys, monkeypatch, "suspend", "Ann", "--reason", "abuse", *db)[0] == 0
    wait_until(lambda: client.app.state.community.admin.suspended, "the server reads it")
    status, seat = play_one(client, gid, tokens)
    while seat == 1:  # Bob plays on until it is Ann's turn
        assert status == 200
        status, seat = play_one(client, gid, tokens)
    assert status == 403
    r = client.post(f"/api/games/{gid}/resign", headers=auth(tokens[0]))
    assert r.status_code == 403 and "suspended" in r.json()["error"]
    # a finished game's seat link may not offer a rematch either
    assert client.post(f"/api/games/{gid}/resign", headers=auth(tokens[1])).status_code == 200
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0]))
    assert r.status_code == 403 and "suspended" in r.json()["error"]
    assert admin_here(capsys, monkeypatch, "unsuspend", "Ann", *db)[0] == 0
    wait_until(lambda: not client.app.state.community.admin.suspended, "the server reads it")
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0]))
    assert r.status_code in (200, 201), r.text


def test_delete_keeps_games_under_a_placeholder(server, capsys, monkeypatch):
    client, gid = server["client"], server["game"]
    db = ("--db", server["url"])
    code, out, _ = admin_here(capsys, monkeypatch, "delete", "Bob", "--reason", "asked to",
                              *db)
    assert code == 0 and "deleted" in out
    wait_until(lambda: [s["name"] for s in client.get(f"/api/games/{gid}/view")
                        .json()["seats"]] == ["Ann", "deleted player"], "the seat's new name")
    assert client.get("/api/account", headers=server["bob"]).json()["account"] is None
    code, out, _ = admin_here(capsys, monkeypatch, "users", *db)
    assert "Bob" not in out
    assert admin_here(capsys, monkeypatch, "delete", "Bob", *db)[0] == 2  # gone already


@pytest.mark.parametrize("how", [("--winner", "1"), ("--no-result",)])
def test_end_a_game_with_the_reason_shown(server, how):
    client, gid = server["client"], server["game"]
    proc = admin("end", gid, "--reason", "both players asked", *how, "--db", server["url"])
    assert proc.returncode == 0, proc.stderr
    assert "ended" in proc.stdout
    v = client.get(f"/api/games/{gid}/view").json()
    assert v["result"] is not None
    words = json.dumps(v["result"])
    assert "by the server's operator" in words and "both players asked" in words
    if how[0] == "--winner":
        assert v["result"]["outcome"]["ranks"] == [1, 0]
    else:
        assert v["result"]["outcome"]["ranks"] is None
    proc = admin("end", gid, "--reason", "again", "--no-result", "--db", server["url"])
    assert proc.returncode == 2 and "over already" in proc.stderr


def test_end_refuses_what_it_cannot_do(server, capsys, monkeypatch):
    gid, db = server["game"], ("--db", server["url"])
    for args, words in (
            ((gid, "--no-result"), "--reason"),
            ((gid, "--reason", "x"), "one of"),
            ((gid, "--reason", "x", "--no-result", "--winner", "0"), "one of"),
            ((gid, "--reason", "x", "--winner", "5"), "seats are 0 to 1"),
            ((gid, "--reason", "x", "--ranks", "0"), "2 places"),
            ((gid, "--reason", "x", "--ranks", "a,b"), "whole numbers"),
            (("nosuchgame", "--reason", "x", "--no-result"), "no game")):
        code, _out, err = admin_here(capsys, monkeypatch, "end", *args, *db)
        assert code == 2 and words in err, (args, err)
    assert server["client"].get(f"/api/games/{gid}/view").json()["result"] is None


def test_end_asked_while_no_server_runs_is_done_when_one_starts(tmp_path, capsys,
                                                                monkeypatch):
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with TestClient(create_app(url, bot_workers=0, config=test_config())) as client:
        gid = create(client)
        join(client, gid, "Ann", 0)
        join(client, gid, "Bob", 1)
    code, out, _ = admin_here(capsys, monkeypatch, "end", gid, "--reason", "stuck",
                              "--no-result", "--wait", "0", "--db", url)
    assert code == 0 and "a server ends it when it starts" in out
    with TestClient(create_app(url, bot_workers=0, config=test_config())) as client:
        r = client.get(f"/api/games/{gid}/view")
        assert r.json()["result"] is not None and "stuck" in r.text


def test_every_operator_command_is_logged(server, capsys, monkeypatch):
    import getpass

    db = ("--db", server["url"])
    admin_here(capsys, monkeypatch, "suspend", "Ann", "--reason", "spam", *db)
    admin_here(capsys, monkeypatch, "unsuspend", "Ann", *db)
    admin_here(capsys, monkeypatch, "reset-password", "Bob", *db)
    code, out, _ = admin_here(capsys, monkeypatch, "log", *db)
    assert code == 0
    lines = [line for line in out.splitlines() if getpass.getuser() in line]
    assert [what for what in ("reset-password", "unsuspend", "suspend")
            if any(what in line for line in lines)] == ["reset-password", "unsuspend",
                                                        "suspend"]
    assert "spam" in out
    code, out, _ = admin_here(capsys, monkeypatch, "log", "--limit", "1", *db)
    assert "reset-password" in out and "spam" not in out
