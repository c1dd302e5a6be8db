"""Notification and password-reset mails through a real local SMTP server (aiosmtpd): the
settings on the profile (an address checked for its syntax only, opt-in per kind), a turn
mail in a correspondence game (once per turn, with a link to the game and an unsubscribe
link that works without logging in), a challenge mail, the daily cap, a mail server that is
down, and a password reset by mail (one link, once). A server without a mail server sends
nothing and says so."""

from __future__ import annotations

import email
import re
import socket
import time
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from fastapi.testclient import TestClient

from starlanes.server.app import create_app
from starlanes.server.community.identity import SESSION_COOKIE, Sessions
from starlanes.server.community.models import AccountRow

from .conftest import auth, test_config

aiosmtpd = pytest.importorskip("aiosmtpd.controller", reason="aiosmtpd is not installed")

DAYS3 = 3 * 86400
PASSWORD = "a good long password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """An aiosmtpd handler keeping every message it is given."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.envelopes: list[tuple[str, list[str]]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, timeout: float = 10.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} mails, not {count}"
            time.sleep(0.05)
        return self.messages

    def quiet(self, count: int, seconds: float = 1.0) -> None:
        """Nothing more than ``count`` mails arrives within ``seconds``."""
        time.sleep(seconds)
        assert len(self.messages) == count, [m["Subject"] for m in self.messages]


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = aiosmtpd.Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def mail_app(tmp_path: Any, port: int, limits: dict[str, Any] | None = None,
             **notifications: Any) -> Any:
    config = test_config(
        public_url="http://testserver", limits=limits or {},
        smtp={"host": "127.0.0.1", "port": port, "from": "starlanes <games@example.org>",
              "starttls": False, "timeout_seconds": 5},
        notifications=notifications)
    return create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_workers=0, config=config)


@pytest.fixture
def site(tmp_path, inbox) -> Iterator[tuple[TestClient, Inbox]]:
    with TestClient(mail_app(tmp_path, inbox[1], mails_per_day=3)) as client:
        yield client, inbox[0]


def person(client: TestClient, name: str, address: str = "", turns: bool = False,
           challenges: bool = False) -> dict[str, str]:
    """An account with a session (its headers) and its notification settings."""
    store = client.app.state.community.store
    hashed = client.app.state.community.accounts.hasher.hash(PASSWORD)
    with store.session() as s:
        row = AccountRow(name=name, name_key=name.casefold(), password_hash=hashed,
                         email=address, email_turns=turns, email_challenges=challenges)
        s.add(row)
        s.flush()
        account_id = row.id
    new = Sessions(store).create(account_id)
    return {"Cookie": f"{SESSION_COOKIE}={new.cookie}", "X-CSRF-Token": new.csrf}


def game(client: TestClient, first: dict[str, str], second: dict[str, str],
         clock: float = DAYS3) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"game": "rift-domination", "players": 2,
                                        "seats": ["human", "human"], "clock_seconds": clock})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = []
    for seat, who in enumerate((first, second)):
        r = client.post(f"/api/games/{gid}/join", json={"name": "x", "seat": seat},
                        headers=who)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return gid, tokens


def pass_turn_to(client: TestClient, gid: str, tokens: list[str], seat: int) -> None:
    """Play whoever's turn it is until it is ``seat``'s turn."""
    for _ in range(500):
        views = [client.get(f"/api/games/{gid}/view", headers=auth(t)).json() for t in tokens]
        if views[seat]["your_turn"]:
            return
        mover = next(i for i, v in enumerate(views) if v["your_turn"])
        v = views[mover]
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[mover]),
                        json={"seq": v["seq"], "action": v["legal"][-1]["notation"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the turn never came")


def body(message: Message) -> str:
    return message.get_payload(decode=True).decode()


def link(message: Message, path: str) -> str:
    found = re.search(r"http://testserver(" + re.escape(path) + r"[^\s]*)", body(message))
    assert found, body(message)
    return found.group(1)


def test_settings_are_checked(site):
    client, _inbox = site
    ann = person(client, "Ann")
    r = client.get("/api/account/settings", headers=ann)
    assert r.json() == {"email": "", "email_turns": False, "email_challenges": False,
                        "mail": True}
    assert client.get("/api/account/settings").status_code == 401
    assert client.post("/api/account/settings", json={"email": "a@b.org"},
                       headers={"Cookie": ann["Cookie"]}).status_code == 403  # no CSRF
    for bad in ("ann", "ann@", "@example.org", "ann@example", "a b@example.org",
                "ann@exa_mple.org", "x" * 250 + "@example.org"):
        r = client.post("/api/account/settings", json={"email": bad}, headers=ann)
        assert r.status_code == 422 and "not an e-mail address" in r.json()["error"], bad
    r = client.post("/api/account/settings", json={"email_turns": True}, headers=ann)
    assert r.status_code == 422 and "give an e-mail address" in r.json()["error"]
    assert client.get("/api/account/settings", headers=ann).json()["email_turns"] is False
    r = client.post("/api/account/settings", headers=ann, json={
        "email": " ann+games@example.org ", "email_turns": True})
    assert r.status_code == 200 and r.json()["email"] == "ann+games@example.org"
    assert r.json()["email_turns"] is True and r.json()["email_challenges"] is False


def test_turn_mail_once_per_turn_with_working_links(site):
    client, inbox = site
    ann = person(client, "Ann", "ann@example.org", turns=True)
    bob = person(client, "Bob", "bob@example.org")  # an address, but no opt-in
    gid, tokens = game(client, ann, bob)
    # a game that starts on Ann's turn mails her at once; then each turn she gets
    starts = client.get(f"/api/games/{gid}/view", headers=auth(tokens[0])).json()["your_turn"]
    pass_turn_to(client, gid, tokens, 1)
    pass_turn_to(client, gid, tokens, 0)
    mails = inbox.wait(2 if starts else 1)
    mail = mails[-1]
    assert {to for _, [to] in inbox.envelopes} == {"ann@example.org"}
    assert mail["To"] == "ann@example.org" and "games@example.org" in mail["From"]
    assert mail["Subject"] == "starlanes: it is your turn in Rift Domination"
    assert link(mail, "/games/") == f"/games/{gid}"
    assert client.get(link(mail, "/games/")).status_code == 200
    # the same turn signalled again (another process, a catch-up) mails nothing more
    live = client.app.state.service.games[gid]
    client.portal.call(_signal_again, client, live)
    inbox.quiet(len(mails))
    # unsubscribing works without logging in, from the link or the one-click header
    unsubscribe = link(mail, "/unsubscribe")
    token = unsubscribe.partition("token=")[2]
    one_click = "".join(mail["List-Unsubscribe"].split())  # (a long header is folded)
    assert one_click == f"<http://testserver/api/unsubscribe?token={token}>"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert client.get(unsubscribe).status_code == 200  # the page
    assert client.post("/api/unsubscribe", json={"token": token + "x"}).status_code == 403
    assert client.post("/api/unsubscribe", json={"token": "7." + token[2:]}).status_code == 403
    r = client.post(one_click.strip("<>").removeprefix("http://testserver"),
                    content="List-Unsubscribe=One-Click",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and r.json()["account"] == "Ann", r.text
    settings = client.get("/api/account/settings", headers=ann).json()
    assert settings["email_turns"] is False and settings["email"] == "ann@example.org"
    pass_turn_to(client, gid, tokens, 1)
    pass_turn_to(client, gid, tokens, 0)
    inbox.quiet(len(mails))


async def _signal_again(client: TestClient, live: Any) -> None:
    account = live.seats[live.waiting_for()].account_id
    client.app.state.community.mail.turn_came(live, account)


def test_only_correspondence_games_mail_turns_and_a_daily_cap_holds(site):
    client, inbox = site
    ann = person(client, "Ann", "ann@example.org", turns=True)
    bob = person(client, "Bob")
    quick, quick_tokens = game(client, ann, bob, clock=600)  # ten minutes a move: no mail
    pass_turn_to(client, quick, quick_tokens, 1)
    pass_turn_to(client, quick, quick_tokens, 0)
    inbox.quiet(0)
    for _ in range(4):  # four correspondence games: the cap (3 a day) stops the fourth
        gid, tokens = game(client, ann, bob)
        pass_turn_to(client, gid, tokens, 1)
        pass_turn_to(client, gid, tokens, 0)
    inbox.wait(3)
    inbox.quiet(3)


def test_challenge_mail_through_a_real_challenge(site):
    client, inbox = site
    person(client, "Ann", "ann@example.org", challenges=True)
    bob = person(client, "Bob")
    r = client.post("/api/challenges", headers=bob,
                    json={"name": "Ann", "game": "rift-domination", "clock_seconds": DAYS3})
    assert r.status_code == 201, r.text
    [mail] = inbox.wait(1)
    assert mail["To"] == "ann@example.org"
    assert mail["Subject"] == "starlanes: Bob challenges you to Rift Domination"
    assert "Bob challenges you to a game of Rift Domination" in body(mail)
    assert link(mail, "/unsubscribe")
    inbox.quiet(1)


def test_a_mail_server_that_is_down_changes_nothing_for_the_game(tmp_path):
    with TestClient(mail_app(tmp_path, free_port())) as client:
        ann = person(client, "Ann", "ann@example.org", turns=True)
        bob = person(client, "Bob")
        gid, tokens = game(client, ann, bob)
        pass_turn_to(client, gid, tokens, 1)
        pass_turn_to(client, gid, tokens, 0)
        pass_turn_to(client, gid, tokens, 1)  # the game goes on
        assert client.app.state.community.mail.sent == 0


def test_password_reset_by_mail(site):
    client, inbox = site
    person(client, "Ann", "ann@example.org")
    person(client, "Bob")  # no address
    same = {"ok": True, "message": "if this account has an e-mail address, a link to set "
                                   "a new password is on its way"}
    for name in ("ann", "Bob", "nobody"):
        r = client.post("/api/account/reset", json={"name": name})
        assert r.status_code == 200 and r.json() == same, r.text
    [mail] = inbox.wait(1)
    inbox.quiet(1)
    assert mail["To"] == "ann@example.org" and "new password" in mail["Subject"]
    path = link(mail, "/reset")
    assert client.get(path).status_code == 200
    token = path.partition("token=")[2]
    r = client.post("/api/account/reset/confirm", json={"token": token,
                                                        "password": "brand new words"})
    assert r.status_code == 200, r.text
    assert client.post("/api/account/login", json={"name": "Ann", "password":
                                                   "brand new words"}).status_code == 200
    r = client.post("/api/account/reset/confirm", json={"token": token,
                                                        "password": "once more please"})
    assert r.status_code == 403


def test_no_mail_server_no_mail(client):
    ann = {"Cookie": "", "X-CSRF-Token": ""}
    r = client.post("/api/account/reset", json={"name": "Ann"})
    assert r.status_code == 422 and "sends no mail" in r.json()["error"]
    assert client.get("/api/account/settings", headers=ann).status_code == 401
    assert client.app.state.community.mail.enabled is False


def test_reset_requests_count_as_log_in_attempts(tmp_path, inbox):
    app = mail_app(tmp_path, inbox[1], limits={"logins_per_minute": 2})
    with TestClient(app) as client:
        codes = [client.post("/api/account/reset", json={"name": "Ann"}).status_code
                 for _ in range(3)]
        assert codes[:2] == [200, 200] and codes[2] == 429
