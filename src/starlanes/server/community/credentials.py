"""An account's credentials: its name and password, checked at log-in, changed, reset by a
one-time link, and the account deleted (:mod:`.accounts` has the routes).

Passwords are hashed with Argon2 (pwdlib, its recommended parameters); a hash made with
other parameters is replaced at the next log-in. Hashing runs in a thread, never in the
event loop, at most :attr:`Accounts.gate`'s number at once. A wrong name and a wrong
password are refused with the same words (:data:`WRONG`), and an unknown name is checked
against a dummy hash so both take about as long. Log-in and registration attempts are
counted per client address, log-in attempts also per account name
(``limits.logins_per_minute`` each, a 429 with ``Retry-After`` past it).

Names: 3 to 32 ASCII letters, digits, ``-`` and ``_``, unique regardless of case (a taken
name is 409, :class:`NameTaken`). Passwords: 8 to 200 characters.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Request
from limits import RateLimitItemPerMinute
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import delete, select, update

from ..errors import Forbidden, ServerError, TooMany, Unauthorized, Unprocessable
from ..limits import Rates, Rule, client_address, rate_key
from ..rate_storage import AsyncSweptMemoryStorage as MemoryStorage
from ..store import SeatRow, StoreConflict, now
from ..tokens import token_hash
from .identity import DELETED_NAME, NAME, Account
from .models import AccountRow, SessionRow
from .notify_models import PasswordResetRow

if TYPE_CHECKING:
    from . import Community

PASSWORD_MIN, PASSWORD_MAX = 8, 200
WRONG = "wrong name or password"
"""The one refusal of a log-in with an unknown name or a wrong password."""
T = TypeVar("T")



class NameTaken(ServerError):
    """A name another account already has (case-insensitively): 409."""

    status = 409



def name_key(name: str) -> str:
    """What must be unique among names: the case-folded name."""
    return name.casefold()


def check_name(name: str) -> str:
    """``name`` if it is a valid account name; Unprocessable (422) with the rule if not."""
    if not NAME.fullmatch(name):
        raise Unprocessable("a name has 3 to 32 characters: letters A-Z, digits, - and _")
    return name


def check_password(password: str) -> str:
    """``password`` if its length is allowed; Unprocessable (422) if not."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Unprocessable(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


@dataclass(frozen=True)
class Found:
    """An account as read for a log-in."""

    id: int
    name: str
    password_hash: str
    suspended: bool


class Accounts:
    """Accounts in the store, their passwords and the log-in rates."""

    def __init__(self, community: Community, hasher: PasswordHash | None = None) -> None:
        self.community = community
        self.store = community.store
        self.sessions = community.sessions
        self.hasher = hasher or PasswordHash((Argon2Hasher(),))
        self._dummy: tuple[PasswordHash, str] | None = None
        self.gate = asyncio.Semaphore(max(2, os.cpu_count() or 2))
        """Password checks running at once (each takes Argon2's 64 MiB and a core): more
        wait their turn here, in the event loop, holding no worker thread."""
        config = community.config
        self.networks = config.proxy_networks()
        per_minute = config.limits.logins_per_minute
        self.rates = Rates(MemoryStorage(), "fixed-window")
        self.by_address = Rule("login-address", RateLimitItemPerMinute(per_minute),
                               "too many log-in attempts from your address", "minute")
        self.by_name = Rule("login-name", RateLimitItemPerMinute(per_minute),
                            "too many log-in attempts for this name", "minute")

    # -------------------------------------------------------------- limits
    async def count_attempt(self, request: Request, name: str | None = None) -> None:
        """Count a log-in (``name`` given) or registration attempt of the request's client;
        TooMany (429, ``retry_after`` in seconds) once over a rate."""
        checks = [(self.by_address, rate_key(client_address(request.scope, self.networks)))]
        if name is not None:
            checks.append((self.by_name, name_key(name)[:64]))
        for rule, key in checks:
            if not await self.rates.hit(rule, key):
                wait = await self.rates.wait(rule, key)
                refusal = TooMany(rule.reason(wait))
                refusal.retry_after = wait
                raise refusal

    # -------------------------------------------------------------- passwords
    async def in_thread(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` (something that hashes) in a worker thread, at most
        :attr:`gate`'s number at once."""
        async with self.gate:
            return await asyncio.to_thread(call, *args)

    def dummy_hash(self) -> str:
        """A hash no password matches, checked for unknown names (same cost as a real one)."""
        if self._dummy is None or self._dummy[0] is not self.hasher:
            self._dummy = (self.hasher, self.hasher.hash(secrets.token_urlsafe(24)))
        return self._dummy[1]

    def _find(self, name: str) -> Found | None:
        if not NAME.fullmatch(name):  # no account has it (and the database never sees it)
            return None
        with self.store.session() as s:
            row = s.scalars(select(AccountRow)
                            .where(AccountRow.name_key == name_key(name))).first()
            if row is None or row.deleted or not row.password_hash:
                return None
            return Found(row.id, row.name, row.password_hash, row.suspended)

    def _set_hash(self, account_id: int, hashed: str) -> None:
        with self.store.session() as s:
            s.execute(update(AccountRow).where(AccountRow.id == account_id)
                      .values(password_hash=hashed))

    def _check(self, found: Found | None, password: str) -> Found:
        """``found`` if ``password`` is its password; Unauthorized (401, :data:`WRONG`)
        for none or a wrong one. A hash with outdated parameters is replaced."""
        if found is None:
            self.hasher.verify(password, self.dummy_hash())
            raise Unauthorized(WRONG)
        valid, fresh = self.hasher.verify_and_update(password, found.password_hash)
        if not valid:
            raise Unauthorized(WRONG)
        if fresh is not None:
            self._set_hash(found.id, fresh)
        return found

    # -------------------------------------------------------------- accounts
    def register(self, name: str, password: str) -> tuple[int, str]:
        """A new account -> (id, name). Unprocessable (422) for a name or password the rules
        refuse, NameTaken (409) for a name in use. Blocking (hashes): call in a thread."""
        check_name(name)
        check_password(password)
        if self._find_any(name):
            raise NameTaken(f"the name {name} is taken")
        hashed = self.hasher.hash(password)
        try:
            with self.store.session() as s:
                row = AccountRow(name=name, name_key=name_key(name), password_hash=hashed,
                                 created=now())
                s.add(row)
                s.flush()
                return row.id, row.name
        except StoreConflict:  # registered a moment ago
            raise NameTaken(f"the name {name} is taken") from None

    def _find_any(self, name: str) -> bool:
        with self.store.session() as s:
            return s.scalars(select(AccountRow.id)
                             .where(AccountRow.name_key == name_key(name))).first() is not None

    def authenticate(self, name: str, password: str) -> tuple[int, str]:
        """(id, name) of the account ``name`` with ``password``; Unauthorized (401, the same
        words for an unknown name and a wrong password), Forbidden (403) for a suspended
        account (said only to its right password). Blocking: call in a thread."""
        found = self._check(self._find(name), password)
        if found.suspended:
            raise Forbidden("this account is suspended")
        return found.id, found.name

    def _confirm(self, acc: Account, password: str, wrong: str) -> None:
        """Check the logged-in account's own password before a change: Unauthorized (401)
        when the account is gone, Forbidden (403, ``wrong``) for a wrong password."""
        found = self._find(acc.name)
        if found is None or found.id != acc.id:
            raise Unauthorized("log in first")
        try:
            self._check(found, password)
        except Unauthorized:
            raise Forbidden(wrong) from None

    def change_password(self, acc: Account, old: str, new: str) -> None:
        """Set a new password after checking the current one (Forbidden, 403, when wrong;
        Unprocessable for a new one of a refused length); every other session of the
        account ends. Blocking: call in a thread."""
        check_password(new)
        self._confirm(acc, old, "the current password is wrong")
        self._set_hash(acc.id, self.hasher.hash(new))
        self.sessions.end_all(acc.id, keep=acc.session)

    def delete(self, acc: Account, password: str) -> list[tuple[str, int]]:
        """Delete an account (its password checked: Forbidden, 403, when wrong). The row
        stays (its games keep their seats) with the name ``deleted player``, the name free
        again, no password; its seats show ``deleted player``; every session ends, all in
        one transaction. Returns the (game id, seat) pairs it held. Blocking."""
        self._confirm(acc, password, "the password is wrong")
        return anonymise(self.store, acc.id)

    def log_in(self, account_id: int, name: str, old_cookie: str | None) -> dict[str, Any]:
        """A new session for the account (the browser's previous one ends) -> the answer's
        body ``{account, csrf}`` and the cookie under ``"_cookie"``."""
        if old_cookie and len(old_cookie) <= 200:
            self.sessions.end(token_hash(old_cookie))
        new = self.sessions.create(account_id)
        return {"account": {"id": account_id, "name": name}, "csrf": new.csrf,
                "_cookie": new.cookie}


def anonymise(store: Any, account_id: int) -> list[tuple[str, int]]:
    """Delete an account: the row stays (its games and ratings keep their seats) with the
    name ``deleted player``, the name free again, no password, no e-mail address, no
    notifications; its seats show ``deleted player``; every session and reset link ends,
    all in one transaction. Returns the (game id, seat) pairs it held. Blocking."""
    with store.session() as s:
        s.execute(update(AccountRow).where(AccountRow.id == account_id).values(
            name=DELETED_NAME, name_key=f"deleted:{account_id}", password_hash="",
            deleted=True, email="", email_turns=False, email_challenges=False))
        seats = [(r.game_id, r.seat) for r in s.scalars(
            select(SeatRow).where(SeatRow.account_id == account_id))]
        s.execute(update(SeatRow).where(SeatRow.account_id == account_id)
                  .values(name=DELETED_NAME))
        s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
        s.execute(delete(PasswordResetRow).where(PasswordResetRow.account_id == account_id))
    return seats


# ---------------------------------------------------------------------- password resets
def make_reset(store: Any, account_id: int, minutes: float, by: str) -> str:
    """A one-time reset token for the account, working for ``minutes`` (the store keeps
    only its hash; expired ones are deleted here). Blocking."""
    token = secrets.token_urlsafe(32)
    stamp = now()
    with store.session() as s:
        s.execute(delete(PasswordResetRow).where(PasswordResetRow.expires <= stamp))
        s.add(PasswordResetRow(id=token_hash(token), account_id=account_id, created=stamp,
                               expires=stamp + dt.timedelta(minutes=minutes), by=by))
    return token


def use_reset(store: Any, token: str, hashed: str) -> tuple[int, str]:
    """Set the password hash ``hashed`` for the account of reset ``token``, in one
    transaction: the link is used up (with every other link of the account) and every
    session ends. Returns (account id, name); Forbidden (403) for a token that is not
    valid, used or expired, or an account deleted since. Blocking."""
    invalid = Forbidden("this link to set a new password is not valid: it was used, it "
                        "expired, or it was never made (ask for a new one)")
    if not token or len(token) > 200:
        raise invalid
    with store.session() as s:
        row = s.get(PasswordResetRow, token_hash(token))
        if row is None or row.expires <= now():
            raise invalid
        acc = s.get(AccountRow, row.account_id)
        if acc is None or acc.deleted:
            raise invalid
        acc.password_hash = hashed
        s.execute(delete(PasswordResetRow).where(PasswordResetRow.account_id == acc.id))
        s.execute(delete(SessionRow).where(SessionRow.account_id == acc.id))
        return acc.id, acc.name
