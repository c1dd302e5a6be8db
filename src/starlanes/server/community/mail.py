"""Notification mails: "it is your turn" in a correspondence game and challenges, for the
accounts that asked for them, with a link that unsubscribes without logging in; and the
password-reset mails (:mod:`.accounts`).

Mail goes out only when the operator configured a mail server (``[smtp]`` in the server
configuration: ``host``, ``port``, ``from``, ``starttls``, ``user``, ``password``); without
one nothing is sent and the settings say so. Each mail is handed to the mail server in a
worker thread (never in the event loop), at most :data:`SENDING` at once and
:data:`WAITING` waiting (more are dropped and logged: a mail server that hangs cannot pile
up work).

Who gets what (``docs/community/notifications.md``):

- a **turn mail** when it becomes the account's turn in a game whose per-move clock gives
  at least ``notifications.turn_mail_clock_seconds`` (an hour by default), once per game
  and move (kept in ``mails_sent``, so several server processes send it once);
- a **challenge mail** for each challenge event a notifier is called with
  (``{"kind": "challenge", ...}``), once per challenge;
- at most ``notifications.mails_per_day`` of them per account in 24 hours.

Both need the account's opt-in (``email_turns``, ``email_challenges``) and an address;
an address is checked for its syntax only. Every notification mail carries an unsubscribe
link (``/unsubscribe?token=``: an HMAC of the account and its address under the server's
key, so it stops working when the address changes) and the ``List-Unsubscribe`` headers
for one-click unsubscribing (RFC 8058).

Routes: ``GET /api/account/settings``, ``POST /api/account/settings`` (CSRF),
``POST /api/unsubscribe {token}`` (also ``?token=`` for the one-click header), and the page
``GET /unsubscribe``.
"""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import hmac
import logging
import re
import secrets
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select

from ..errors import Forbidden, Unprocessable
from ..store import StoreConflict, now
from .identity import Account, writing_account
from .models import ROW_ID_MAX, AccountRow
from .notify_models import MAIL_KEEP_DAYS, MailSentRow, ServerKeyRow

if TYPE_CHECKING:
    from ..config import Smtp
    from ..tables import LiveGame
    from . import Community

log = logging.getLogger("starlanes.server")

SENDING = 2
"""Mails handed to the mail server at once."""
WAITING = 100
"""Mails waiting for their turn at most; more are dropped (and logged)."""
EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")
"""What an address may be: a local part of the usual characters, ``@``, a domain name with
a dot (no quoted local parts, no IP literals)."""
EMAIL_MAX = 254
UNSUBSCRIBE_KEY = "unsubscribe"


def check_email(address: str) -> str:
    """``address`` trimmed when its syntax is that of a mail address (or it is empty: no
    address); Unprocessable (422) otherwise. Nothing more is checked."""
    address = address.strip()
    if address and (len(address) > EMAIL_MAX or not EMAIL.fullmatch(address)):
        raise Unprocessable("this is not an e-mail address (name@example.org)")
    return address


# ---------------------------------------------------------------------- signed links
def server_key(store: Any, name: str) -> bytes:
    """The server's secret ``name`` (made at first use, shared by every process through
    the database). Blocking."""
    with store.session() as s:
        row = s.get(ServerKeyRow, name)
        if row is not None:
            return bytes.fromhex(row.value)
    try:
        with store.session() as s:
            s.add(ServerKeyRow(name=name, value=secrets.token_hex(32)))
    except StoreConflict:
        pass  # another process made it a moment ago
    with store.session() as s:
        return bytes.fromhex(s.get(ServerKeyRow, name).value)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unsubscribe_token(key: bytes, account_id: int, email: str) -> str:
    """The unsubscribe token of an account at an address: ``<id>.<signature>``."""
    mac = hmac.new(key, f"{account_id}:{email.casefold()}".encode(), hashlib.sha256)
    return f"{account_id}.{_b64(mac.digest()[:18])}"


def read_unsubscribe(store: Any, token: str) -> int:
    """The account an unsubscribe token is for; Forbidden (403) for a token that is not
    the server's or no longer matches the account's address. Blocking."""
    head, _, _sig = token.partition(".")
    if not head.isdigit() or len(token) > 100 or len(head) > 10:
        raise Forbidden("this unsubscribe link is not valid")
    account_id = int(head)
    if account_id > ROW_ID_MAX:
        raise Forbidden("this unsubscribe link is not valid")
    with store.session() as s:
        row = s.get(AccountRow, account_id)
        email = row.email if row is not None and not row.deleted else None
    if not email:
        raise Forbidden("this unsubscribe link is not valid any more (the account has no "
                        "e-mail address now)")
    want = unsubscribe_token(server_key(store, UNSUBSCRIBE_KEY), account_id, email)
    if not hmac.compare_digest(want.encode(), token.encode("utf-8", "replace")):
        raise Forbidden("this unsubscribe link is not valid (or the address changed since)")
    return account_id


# ---------------------------------------------------------------------- sending
def deliver(smtp: Smtp, message: EmailMessage) -> None:
    """Hand ``message`` to the mail server (STARTTLS and log-in as configured). Blocking;
    raises OSError / smtplib.SMTPException."""
    with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout_seconds) as server:
        if smtp.starttls:
            server.starttls(context=ssl.create_default_context())
        if smtp.user:
            server.login(smtp.user, smtp.password or "")
        server.send_message(message)


class Mailer:
    """The notification and reset mails of one server process."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.store = community.store
        self.config = community.config
        self.smtp = community.config.smtp
        self.settings = community.config.notifications
        self._gate: asyncio.Semaphore | None = None
        self._waiting = 0
        self.sent = 0
        """Mails handed to the mail server so far (for tests and operators)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        community.notifiers.append(self.on_event)
        community.service.on_stop.append(self.stop)

    @property
    def enabled(self) -> bool:
        return self.smtp is not None

    def link(self, path: str) -> str:
        """An absolute link to ``path`` on this server (the public URL; without one, the
        address the server was started on)."""
        return self.community.base_url.rstrip("/") + path

    async def stop(self) -> None:
        """Wait (a few seconds at most) for the mails being sent."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    # ------------------------------------------------------------------ the queue
    def _spawn(self, work: Any) -> None:
        """Run ``work()`` (blocking: it decides and sends one mail) in a thread, in turn."""
        if self._waiting >= WAITING:
            log.warning("%d mails are waiting already: one more is dropped", WAITING)
            return
        self._waiting += 1
        task = asyncio.get_running_loop().create_task(self._run(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, work: Any) -> None:
        if self._gate is None:
            self._gate = asyncio.Semaphore(SENDING)
        try:
            async with self._gate:
                await asyncio.to_thread(work)
        except Exception:  # noqa: BLE001 - a mail that fails is logged, nothing else
            log.exception("a notification mail could not be sent")
        finally:
            self._waiting -= 1

    def _send(self, to: str, subject: str, text: str,
              unsubscribe: str | None = None) -> None:
        """Build and send one plain-text mail (blocking)."""
        assert self.smtp is not None
        message = EmailMessage()
        message["From"] = self.smtp.from_
        message["To"] = to
        message["Subject"] = subject
        message["Message-ID"] = make_msgid(domain=self.smtp.from_.rpartition("@")[2]
                                           .strip("> ") or None)
        message["Auto-Submitted"] = "auto-generated"
        if unsubscribe is not None:  # one-click (RFC 8058): a POST to the API's address
            token = unsubscribe.partition("token=")[2]
            message["List-Unsubscribe"] = f"<{self.link('/api/unsubscribe?token=' + token)}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(text)
        deliver(self.smtp, message)
        self.sent += 1

    # ------------------------------------------------------------------ notifications
    def turn_came(self, live: LiveGame, account_id: int) -> None:
        """It became ``account_id``'s turn in ``live``: a turn mail when the game is a
        correspondence game and the account asked for them (see the module)."""
        row = live.row
        if (not self.enabled or live.over or row.clock_kind != "move"
                or row.clock_seconds <= 0
                or row.clock_seconds < self.settings.turn_mail_clock_seconds):
            return
        from .accounts import game_title

        title = game_title(row.game)
        key = f"turn:{live.id}:{live.seq}"
        path = f"/games/{live.id}"

        from .. import clocks

        self._mail_once(account_id, "email_turns", key,
                        f"starlanes: it is your turn in {title}",
                        f"it is your turn in {title}.\n\n"
                        f"Play it here (log in if the page asks): {self.link(path)}\n\n"
                        f"The game gives {clocks.duration(row.clock_seconds)} for each move.",
                        "turn mails")

    async def on_event(self, account_id: int, event: dict[str, Any]) -> None:
        """Notifier: a challenge mail for a ``challenge`` event (``from``: the
        challenger's name, ``game``/``title``, ``url``, ``id``)."""
        if not self.enabled or not isinstance(event, dict) or event.get("kind") != "challenge":
            return
        who = str(event.get("from") or event.get("by") or "another player")[:40]
        title = str(event.get("title") or event.get("game") or "a game")[:80]
        url = str(event.get("url") or "/")
        if not url.startswith("/"):
            url = "/"
        ident = str(event.get("id") or event.get("challenge") or url)[:60]
        key = f"challenge:{ident}"

        self._mail_once(account_id, "email_challenges", key,
                        f"starlanes: {who} challenges you to {title}",
                        f"{who} challenges you to a game of {title}.\n\n"
                        f"Answer here (log in if the page asks): {self.link(url)}",
                        "challenge mails")

    def _mail_once(self, account_id: int, setting: str, key: str, subject: str, body: str,
                   what: str) -> None:
        """In a worker thread: mail ``body`` to the account if its ``setting`` asks for
        ``what`` and ``key`` was not mailed yet (:meth:`_claim`), greeted by name and
        ending with the unsubscribe link."""
        def work() -> None:
            to = self._claim(account_id, setting, key)
            if to is None:
                return
            address, name, unsubscribe = to
            self._send(address, subject, (
                f"Hello {name},\n\n{body}\n\n"
                f"-- \nYou get this mail because you asked for {what} on your profile "
                f"page. To get no more mails, open {unsubscribe}\n"), unsubscribe)

        self._spawn(work)

    def _claim(self, account_id: int, toggle: str,
               key: str) -> tuple[str, str, str] | None:
        """Whether a notification ``key`` goes to the account now: it asked for it
        (``toggle``), has an address, is not suspended, is under the daily cap and was
        not sent ``key`` before (the stamp is stored here, once for every process).
        Returns (address, name, unsubscribe link) or None. Blocking."""
        stamp = now()
        with self.store.session() as s:
            row = s.get(AccountRow, account_id)
            if (row is None or row.deleted or row.suspended or not row.email
                    or not getattr(row, toggle)):
                return None
            address, name = row.email, row.name
            s.execute(delete(MailSentRow).where(
                MailSentRow.at < stamp - dt.timedelta(days=MAIL_KEEP_DAYS)))
            today = s.scalar(select(func.count()).select_from(MailSentRow).where(
                MailSentRow.account_id == account_id,
                MailSentRow.at >= stamp - dt.timedelta(days=1)))
        if (today or 0) >= self.settings.mails_per_day:
            log.info("account %s reached its %d notification mails today", account_id,
                     self.settings.mails_per_day)
            return None
        try:
            with self.store.session() as s:
                s.add(MailSentRow(account_id=account_id, key=key[:120], at=stamp))
        except StoreConflict:
            return None  # sent already (by this process or another)
        token = unsubscribe_token(server_key(self.store, UNSUBSCRIBE_KEY), account_id,
                                  address)
        return address, name, self.link(f"/unsubscribe?token={token}")

    # ------------------------------------------------------------------ resets
    async def send_reset(self, account_id: int, token: str, minutes: float) -> None:
        """Mail the one-time reset link ``token`` to the account's address (if it has
        one); never waits for the mail server."""
        if not self.enabled:
            return
        link = self.link(f"/reset?token={token}")

        def work() -> None:
            with self.store.session() as s:
                row = s.get(AccountRow, account_id)
                if row is None or row.deleted or not row.email:
                    return
                address, name = row.email, row.name
            self._send(address, "starlanes: set a new password", (
                f"Hello {name},\n\nsomeone (you, we hope) asked to set a new password for "
                f"the account {name}. Open this link to choose one; it works once, for "
                f"{int(minutes)} minutes:\n\n{link}\n\nIf you did not ask for it, do "
                f"nothing: your password stays as it is.\n"))

        self._spawn(work)


# ---------------------------------------------------------------------- settings
class SettingsPost(BaseModel):
    """What the profile's notification settings change (each optional)."""

    model_config = ConfigDict(extra="forbid")

    email: str | None = Field(default=None, max_length=1000)
    email_turns: bool | None = None
    email_challenges: bool | None = None


class Unsubscribe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=200)


def read_settings(store: Any, account_id: int, mail: bool) -> dict[str, Any]:
    """``{email, email_turns, email_challenges, mail}`` of an account (``mail``: whether
    the server sends mail at all). Blocking."""
    with store.session() as s:
        row = s.get(AccountRow, account_id)
        if row is None:
            raise Forbidden("log in first")
        return {"email": row.email, "email_turns": row.email_turns,
                "email_challenges": row.email_challenges, "mail": mail}


def change_settings(store: Any, account_id: int, body: SettingsPost,
                    mail: bool) -> dict[str, Any]:
    """Change what ``body`` gives; Unprocessable (422) for an address of bad syntax or a
    notification turned on without an address (nothing changes then). Blocking."""
    email = check_email(body.email) if body.email is not None else None
    with store.session() as s:
        row = s.get(AccountRow, account_id)
        if row is None:
            raise Forbidden("log in first")
        address = row.email if email is None else email
        turns = row.email_turns if body.email_turns is None else body.email_turns
        challenges = (row.email_challenges if body.email_challenges is None
                      else body.email_challenges)
        if (turns or challenges) and not address:
            raise Unprocessable("give an e-mail address to get notification mails")
        row.email, row.email_turns, row.email_challenges = address, turns, challenges
    return read_settings(store, account_id, mail)


def unsubscribe(store: Any, token: str) -> str:
    """Turn off every notification mail of the token's account; returns its name."""
    account_id = read_unsubscribe(store, token)
    with store.session() as s:
        row = s.get(AccountRow, account_id)
        row.email_turns = row.email_challenges = False
        return row.name


Writer = Annotated[Account, Depends(writing_account)]


def router(community: Community, web: Path) -> APIRouter:
    """The settings and unsubscribe routes, and the unsubscribe page."""
    r = APIRouter()
    mailer: Mailer = community.mail
    store = community.store

    @r.get("/api/account/settings")
    def get_settings(acc: Annotated[Account, Depends(writing_account)]) -> dict[str, Any]:
        """``{email, email_turns, email_challenges, mail}`` (``mail``: whether this server
        sends mail); 401 for a guest, 403 without the CSRF header (it shows the address)."""
        return read_settings(store, acc.id, mailer.enabled)

    @r.post("/api/account/settings")
    def post_settings(body: SettingsPost, acc: Writer) -> dict[str, Any]:
        """Change the address and the opt-in notification mails (422: an address that is
        not one; a notification turned on without an address)."""
        return change_settings(store, acc.id, body, mailer.enabled)

    @r.post("/api/unsubscribe")
    async def post_unsubscribe(request: Request,
                               token: Annotated[str | None, Query(max_length=200)] = None,
                               ) -> dict[str, Any]:
        """Turn off the notification mails of the token's account (no log-in needed): the
        token in the JSON body ``{token}`` or, for mail programs' one-click unsubscribe,
        in ``?token=`` with a form body. 403 for a token that is not valid."""
        if token is None:
            try:
                body = Unsubscribe.model_validate(await request.json())
            except Exception:  # noqa: BLE001 - not JSON, or not {token}
                raise Unprocessable("give the unsubscribe link's token") from None
            token = body.token
        name = await asyncio.to_thread(unsubscribe, store, token)
        return {"ok": True, "account": name}

    @r.get("/unsubscribe", include_in_schema=False)
    def unsubscribe_page() -> FileResponse:
        return FileResponse(web / "unsubscribe.html")

    return r


