"""Who is asking: the session cookie of a logged-in account, and the CSRF check on every
request that changes something with that cookie's authority.

A session is a random 256-bit value in the ``starlanes_session`` cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` over HTTPS); the database keeps only its SHA-256. With it comes
a CSRF token, given to the page in the log-in answer (and by ``GET /api/account``), that
every state-changing request made with the cookie must repeat in the ``X-CSRF-Token``
header: a page of another site can make the browser send the cookie, never read the token
(``GET /api/account`` answers it only to a request carrying the cookie, and no other
origin may read that answer).
Seat tokens (``Authorization: Bearer``) need no CSRF token: a browser never sends them by
itself.

FastAPI dependencies: :func:`optional_account` (None for a guest), :func:`account` (401 for
a guest) and :func:`writing_account` (401, or 403 without the right CSRF token).
"""

from __future__ import annotations

import datetime as dt
import hmac
import re
import secrets
from dataclasses import dataclass

from fastapi import Request
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..errors import Forbidden, Unauthorized
from ..store import Store, now
from ..tokens import token_hash
from .models import AccountRow, SessionRow

SESSION_COOKIE = "starlanes_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_DAYS = 30
"""A session not used for this many days ends."""
TOUCH_SECONDS = 300
"""A session's ``last_seen`` is written at most this often."""
DELETED_NAME = "deleted player"
NAME = re.compile(r"[A-Za-z0-9_-]{3,32}")
"""What an account name may be: 3 to 32 ASCII letters, digits, ``-`` or ``_``."""


@dataclass(frozen=True)
class Account:
    """A logged-in account as a request sees it: id, name, and the hash of the session it
    came with (``session``: the key of its row)."""

    id: int
    name: str
    session: str

    @property
    def key(self) -> str:
        """The account's player key in ratings (``a:<id>``)."""
        return f"a:{self.id}"


@dataclass(frozen=True)
class NewSession:
    """A session just made: the cookie's value and the CSRF token (both shown once)."""

    cookie: str
    csrf: str


class Sessions:
    """Sessions in the database: make, look up, end."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, account_id: int) -> NewSession:
        """A new session for ``account_id``."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        stamp = now()
        with self.store.session() as s:
            s.add(SessionRow(id=token_hash(cookie), account_id=account_id,
                             csrf=csrf, created=stamp, last_seen=stamp,
                             expires=stamp + dt.timedelta(days=SESSION_DAYS)))
        return NewSession(cookie, csrf)

    def lookup(self, cookie: str | None) -> tuple[Account, SessionRow] | None:
        """The account and session of a cookie's value; None for none, an unknown or ended
        one, or an account deleted or suspended. A session in use is kept alive."""
        if not cookie or len(cookie) > 200:
            return None
        key = token_hash(cookie)
        stamp = now()
        with self.store.session() as s:
            row = s.get(SessionRow, key)
            if row is None:
                return None
            if row.expires <= stamp:
                s.delete(row)
                return None
            acc = s.get(AccountRow, row.account_id)
            if acc is None or acc.deleted or acc.suspended:
                return None
            if (stamp - row.last_seen).total_seconds() > TOUCH_SECONDS:
                row.last_seen = stamp
                row.expires = stamp + dt.timedelta(days=SESSION_DAYS)
            return Account(acc.id, acc.name, key), row

    def end(self, session: str) -> None:
        """End one session (log out)."""
        with self.store.session() as s:
            s.execute(delete(SessionRow).where(SessionRow.id == session))

    def end_all(self, account_id: int, keep: str | None = None) -> None:
        """End every session of an account but ``keep`` (a password change, a deletion)."""
        with self.store.session() as s:
            query = delete(SessionRow).where(SessionRow.account_id == account_id)
            if keep is not None:
                query = query.where(SessionRow.id != keep)
            s.execute(query)

    def count(self, account_id: int) -> int:
        with self.store.session() as s:
            return len(list(s.scalars(select(SessionRow.id)
                                      .where(SessionRow.account_id == account_id))))


def find_account(s: Session, name: str) -> AccountRow | None:
    """The account (not deleted) named ``name`` (spaces around it ignored), whatever the
    letter case; None when none is. Runs in the caller's transaction ``s``."""
    name = name.strip()
    if not NAME.fullmatch(name):  # no account has it (and the database never sees it)
        return None
    return s.scalars(select(AccountRow).where(AccountRow.name_key == name.casefold(),
                                              AccountRow.deleted.is_(False)).limit(1)).first()


def sessions_of(request: Request) -> Sessions:
    return request.app.state.community.sessions


def _lookup(request: Request) -> tuple[Account, SessionRow] | None:
    cached = getattr(request.state, "account_lookup", False)
    if cached is not False:
        return cached
    found = sessions_of(request).lookup(request.cookies.get(SESSION_COOKIE))
    request.state.account_lookup = found
    return found


def optional_account(request: Request) -> Account | None:
    """The logged-in account of this request, or None (a guest)."""
    found = _lookup(request)
    return found[0] if found else None


def account(request: Request) -> Account:
    """The logged-in account; Unauthorized (401) for a guest."""
    found = _lookup(request)
    if found is None:
        raise Unauthorized("log in first")
    return found[0]


def writing_account(request: Request) -> Account:
    """The logged-in account of a request that changes something: Unauthorized (401) for a
    guest, Forbidden (403) unless the ``X-CSRF-Token`` header holds the session's token."""
    found = _lookup(request)
    if found is None:
        raise Unauthorized("log in first")
    acc, row = found
    given = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), row.csrf.encode()):
        raise Forbidden(f"this request needs the {CSRF_HEADER} header of your session "
                        "(reload the page)")
    return acc


def set_session_cookie(response: object, request: Request, cookie: str) -> None:
    """Put the session cookie on ``response``: HttpOnly, SameSite=Lax, Secure over HTTPS
    (the public URL's scheme, or the request's when there is none)."""
    config = request.app.state.config
    secure = (config.public_url or str(request.base_url)).startswith("https://")
    response.set_cookie(SESSION_COOKIE, cookie, max_age=SESSION_DAYS * 86400,  # type: ignore[attr-defined]
                        httponly=True, samesite="lax", secure=secure, path="/")


def clear_session_cookie(response: object) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/")  # type: ignore[attr-defined]
