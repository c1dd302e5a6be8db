"""Accounts: register, log in and out, change the password, delete; an account's games,
a fresh seat link for one of them, and claiming a guest seat for the account.

Names: 3 to 32 ASCII letters, digits, ``-`` and ``_``, unique regardless of case (a taken
name is 409). Passwords: 8 to 200 characters, hashed with Argon2. How passwords are
hashed and checked, the log-in rates, deletion and the reset links are
:mod:`.credentials`'.

Routes (the cookie is :mod:`.identity`'s; *CSRF* marks routes that need the session's
``X-CSRF-Token`` header, 403 without it):

- ``POST /api/account/register {name, password}`` -> 201 ``{account, csrf}`` and the cookie;
- ``POST /api/account/login {name, password}`` -> ``{account, csrf}`` and the cookie;
- ``POST /api/account/logout`` (CSRF) -> ``{"ok": true}``, the session ended;
- ``GET /api/account`` -> ``{account: {id, name} | null, csrf: str | null}``;
- ``POST /api/account/password {old, new}`` (CSRF): every other session ends;
- ``POST /api/account/delete {password}`` (CSRF): see :meth:`.credentials.Accounts.delete`;
- ``GET /api/account/games`` -> ``{"games": [...]}`` (:func:`account_games`);
- ``POST /api/games/{id}/my-seat {seat?}`` (CSRF) -> ``{seat, token, link, url}``;
- ``POST /api/games/{id}/claim`` (CSRF and the seat's ``Authorization: Bearer`` token);
- ``POST /api/account/reset {name}``: with a mail server configured, a one-time link to set
  a new password is mailed to the account's address (the answer is the same whether or not
  the name has an account with an address); 422 on a server that sends no mail;
- ``POST /api/account/reset/confirm {token, password}``: set the password with a reset link
  (mailed, or printed by ``starlanes admin reset-password``): it works once, until it
  expires (``notifications.reset_minutes``); every session of the account ends. 403 for a
  link that is not valid, used or expired. The page ``GET /reset`` asks for the password.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select, update

from starlanes.engine import game_class

from ..errors import Forbidden, Unprocessable
from ..store import ActionRow, GameRow, SeatRow
from ..tokens import new_token, token_hash
from .credentials import (
    PASSWORD_MAX,
    Accounts,
    NameTaken,
    check_password,
    make_reset,
    use_reset,
)
from .identity import (
    DELETED_NAME,
    SESSION_COOKIE,
    Account,
    account,
    clear_session_cookie,
    optional_account,
    set_session_cookie,
    writing_account,
)

if TYPE_CHECKING:
    from ..tables import LiveGame
    from . import Community

Writer = Annotated[Account, Depends(writing_account)]
"""A route parameter: the logged-in account of a request with the CSRF header."""
LoggedIn = Annotated[Account, Depends(account)]
MaybeAccount = Annotated[Account | None, Depends(optional_account)]
MAX_GAMES = 50
"""The most games :func:`account_games` lists."""
RECENT_FINISHED = 10
"""The account's most recently finished games :func:`account_games` lists (finished games
are not kept in memory: they are read from the store)."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)
    password: str = Field(max_length=PASSWORD_MAX)


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old: str = Field(max_length=PASSWORD_MAX)
    new: str = Field(max_length=PASSWORD_MAX)


class Deletion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    password: str = Field(max_length=PASSWORD_MAX)


class ResetAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)


class ResetDone(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=200)
    password: str = Field(max_length=PASSWORD_MAX)


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(default=None, ge=0, le=64)


# ---------------------------------------------------------------------- games
def game_status(live: LiveGame) -> str:
    """``open`` (a human seat is free), ``in progress`` or ``finished``."""
    if live.over:
        return "finished"
    return "open" if any(s.is_open for s in live.seats) else "in progress"


def last_moves(community: Community, game_ids: list[str]) -> dict[str, Any]:
    """When each game's last action was stored (games without one left out). Blocking."""
    if not game_ids:
        return {}
    with community.store.session() as s:
        rows = s.execute(select(ActionRow.game_id, func.max(ActionRow.at))
                         .where(ActionRow.game_id.in_(game_ids))
                         .group_by(ActionRow.game_id))
        return {gid: at for gid, at in rows}


def game_title(game: str) -> str:
    try:
        return str(game_class(game).title)
    except Exception:  # noqa: BLE001 - a game no longer installed keeps its id
        return game


def recent_finished(community: Community, account_id: int) -> list[tuple[GameRow, int]]:
    """The account's :data:`RECENT_FINISHED` most recently ended games, each with the
    account's first seat in it. Blocking."""
    with community.store.session() as s:
        rows = s.execute(select(GameRow, func.min(SeatRow.seat))
                         .join(SeatRow, SeatRow.game_id == GameRow.id)
                         .where(SeatRow.account_id == account_id, GameRow.ended.is_not(None))
                         .group_by(GameRow.id).order_by(GameRow.ended.desc())
                         .limit(RECENT_FINISHED))
        return [(row, int(seat)) for row, seat in rows]


async def account_games(community: Community, account_id: int,
                        mine: bool = True) -> list[dict[str, Any]]:
    """The live games holding a seat of the account and its most recently finished ones
    (:data:`RECENT_FINISHED`), newest move first, at most :data:`MAX_GAMES`: ``{id, game,
    title, status, seat, your_turn, url, updated}`` (``updated``: ISO time of the last
    move, else of the creation; of the end for a finished game). ``your_turn`` (whether
    the game waits for one of its seats) is left out unless ``mine``."""
    found: list[tuple[LiveGame, list[int]]] = []
    for live in list(community.service.games.values()):
        seats = [s.seat for s in live.seats if s.account_id == account_id]
        if seats:
            found.append((live, seats))
    stamps = await asyncio.to_thread(last_moves, community, [live.id for live, _ in found])
    out = []
    for live, seats in found:
        waiting = None if live.over else live.waiting_for()
        entry: dict[str, Any] = {
            "id": live.id, "game": live.row.game, "title": game_title(live.row.game),
            "status": game_status(live),
            "seat": waiting if waiting in seats else seats[0],
            "url": f"/games/{live.id}",
            "updated": (stamps.get(live.id) or live.row.created).isoformat()}
        if mine:
            entry["your_turn"] = waiting in seats
        out.append(entry)
    listed = {g["id"] for g in out}
    for row, seat in await asyncio.to_thread(recent_finished, community, account_id):
        if row.id not in listed and row.ended is not None:
            out.append({"id": row.id, "game": row.game, "title": game_title(row.game),
                        "status": "finished", "seat": seat, "url": f"/games/{row.id}",
                        "updated": row.ended.isoformat(), **({"your_turn": False}
                                                             if mine else {})})
    out.sort(key=lambda g: g["updated"], reverse=True)
    return out[:MAX_GAMES]


def _find_with_email(community: Community, name: str) -> int | None:
    """The id of the account ``name`` when it may get a reset mail (it has an address);
    None otherwise. Blocking."""
    from .identity import find_account

    with community.store.session() as s:
        row = find_account(s, name)
        return row.id if row is not None and row.email and not row.deleted else None


def _replace_token(community: Community, game_id: str, seat: int, account_id: int,
                   hashed: str) -> bool:
    with community.store.session() as s:
        done = s.execute(update(SeatRow).where(
            SeatRow.game_id == game_id, SeatRow.seat == seat,
            SeatRow.account_id == account_id).values(token_hash=hashed))
        return bool(getattr(done, "rowcount", 0))


def _give_seat(community: Community, game_id: str, seat: int, account_id: int) -> bool:
    with community.store.session() as s:
        done = s.execute(update(SeatRow).where(
            SeatRow.game_id == game_id, SeatRow.seat == seat,
            SeatRow.account_id.is_(None)).values(account_id=account_id))
        return bool(getattr(done, "rowcount", 0))


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


# ---------------------------------------------------------------------- routes
def _answer(body: dict[str, Any], request: Request, status: int = 200) -> JSONResponse:
    cookie = body.pop("_cookie")
    response = JSONResponse(body, status_code=status)
    set_session_cookie(response, request, cookie)
    return response


def router(community: Community, web: Path) -> APIRouter:
    """The account routes (see the module); the profiles' are :mod:`.profiles`'."""
    accounts = Accounts(community)
    community.accounts = accounts  # type: ignore[attr-defined]  # tests tune its hasher
    service = community.service
    base_url = (community.config.public_url or "").rstrip("/")
    r = APIRouter()

    @r.post("/api/account/register", status_code=201)
    async def register(body: Credentials, request: Request) -> JSONResponse:
        """Register and log in: 201 ``{account: {id, name}, csrf}`` with the cookie; 409 a
        taken name, 422 a refused name or password, 429 too many attempts."""
        await accounts.count_attempt(request)
        acc_id, name = await accounts.in_thread(accounts.register, body.name, body.password)
        answer = await asyncio.to_thread(accounts.log_in, acc_id, name,
                                         request.cookies.get(SESSION_COOKIE))
        return _answer(answer, request, 201)

    @r.post("/api/account/login")
    async def login(body: Credentials, request: Request) -> JSONResponse:
        """Log in: ``{account: {id, name}, csrf}`` with the cookie; 401 a wrong name or
        password (the same words), 403 a suspended account, 429 too many attempts."""
        await accounts.count_attempt(request, body.name)
        acc_id, name = await accounts.in_thread(accounts.authenticate, body.name,
                                               body.password)
        answer = await asyncio.to_thread(accounts.log_in, acc_id, name,
                                         request.cookies.get(SESSION_COOKIE))
        return _answer(answer, request)

    @r.post("/api/account/logout")
    def logout(acc: Writer) -> JSONResponse:
        """End this session and clear the cookie."""
        accounts.sessions.end(acc.session)
        response = JSONResponse({"ok": True})
        clear_session_cookie(response)
        return response

    @r.get("/api/account")
    def whoami(request: Request, acc: MaybeAccount) -> dict[str, Any]:
        """``{account: {id, name} | null, csrf: str | null}`` (the CSRF token only to a
        request with a valid cookie)."""
        if acc is None:
            return {"account": None, "csrf": None}
        # the dependency's look-up, kept on the request (else look again)
        found = getattr(request.state, "account_lookup", None) or \
            accounts.sessions.lookup(request.cookies.get(SESSION_COOKIE))
        return {"account": {"id": acc.id, "name": acc.name},
                "csrf": found[1].csrf if found else None}

    @r.post("/api/account/password")
    async def password(body: NewPassword, acc: Writer, request: Request) -> dict[str, Any]:
        """Change the password (403 a wrong current one, 429 too many attempts: each counts
        as a log-in); other sessions end."""
        await accounts.count_attempt(request, acc.name)
        await accounts.in_thread(accounts.change_password, acc, body.old, body.new)
        return {"ok": True}

    @r.post("/api/account/delete")
    async def delete_account(body: Deletion, acc: Writer, request: Request) -> JSONResponse:
        """Delete the account (403 a wrong password, 429 too many attempts: each counts as
        a log-in): see :meth:`Accounts.delete`."""
        await accounts.count_attempt(request, acc.name)
        seats = await accounts.in_thread(accounts.delete, acc, body.password)
        changed = {}
        for game_id, seat in seats:
            live = service.games.get(game_id)
            if live is not None and seat < len(live.seats):
                live.seats[seat].name = DELETED_NAME
                changed[game_id] = live
        push = getattr(service, "_push", None)  # the viewers see the new name at once
        for live in changed.values():
            live.version += 1
            if push is not None:
                push(live)
        response = JSONResponse({"ok": True})
        clear_session_cookie(response)
        return response

    @r.post("/api/account/reset")
    async def ask_reset(body: ResetAsk, request: Request) -> dict[str, Any]:
        """Mail a one-time link to set a new password to the account's address; the same
        answer whether or not ``name`` has an account with an address. 422 on a server
        that sends no mail, 429 too many attempts (each counts as a log-in)."""
        mailer = community.mail
        if not mailer.enabled:
            raise Unprocessable("this server sends no mail: ask its operator to reset your "
                                "password")
        await accounts.count_attempt(request, body.name)
        minutes = community.config.notifications.reset_minutes
        found = await asyncio.to_thread(_find_with_email, community, body.name)
        if found is not None:
            token = await asyncio.to_thread(make_reset, community.store, found, minutes,
                                            "mail")
            await mailer.send_reset(found, token, minutes)
        return {"ok": True, "message": "if this account has an e-mail address, a link to "
                                       "set a new password is on its way"}

    @r.post("/api/account/reset/confirm")
    async def confirm_reset(body: ResetDone, request: Request) -> dict[str, Any]:
        """Set a new password with a reset link's token (403 a link not valid, used or
        expired; 422 a refused password; 429 too many attempts). Every session ends: log
        in with the new password."""
        await accounts.count_attempt(request)
        check_password(body.password)
        hashed = await accounts.in_thread(accounts.hasher.hash, body.password)
        acc_id, name = await asyncio.to_thread(use_reset, community.store, body.token, hashed)
        events = getattr(community, "events", None)
        if events is not None:
            events.end_account(acc_id)
        return {"ok": True, "account": {"id": acc_id, "name": name}}

    @r.get("/reset", include_in_schema=False)
    def reset_page() -> FileResponse:
        return FileResponse(web / "reset.html")

    @r.get("/api/account/games")
    async def my_games(acc: LoggedIn) -> dict[str, Any]:
        """``{"games": [{id, game, title, status, seat, your_turn, url, updated}]}``."""
        return {"games": await account_games(community, acc.id)}

    @r.post("/api/games/{game_id}/my-seat")
    async def my_seat(game_id: str, acc: Writer,
                      body: SeatChoice | None = None) -> dict[str, Any]:
        """A fresh seat token for the account's seat (``seat``, default its first) of the
        game: the old token stops working. 403 no seat of the account, 404 no game."""
        live = service.live(game_id)
        mine = [s.seat for s in live.seats if s.account_id == acc.id]
        seat = body.seat if body is not None and body.seat is not None else \
            (mine[0] if mine else None)
        if seat is None or seat not in mine:
            raise Forbidden("your account holds no such seat of this game")
        token = new_token()
        hashed = token_hash(token)
        async with live.lock:
            if not await service.writer.run(
                    lambda: _replace_token(community, game_id, seat, acc.id, hashed)):
                raise Forbidden("your account holds no such seat of this game")
            live.seats[seat].token_hash = hashed
        link = f"/games/{game_id}?token={token}"
        return {"seat": seat, "token": token, "link": link, "url": base_url + link}

    @r.post("/api/games/{game_id}/claim")
    async def claim(game_id: str, acc: Writer,
                    authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Make the seat of the ``Authorization: Bearer`` token the account's: 401 a wrong
        token, 409 a seat another account holds."""
        live = service.live(game_id)
        seat = service.seat_of(live, _bearer(authorization))
        async with live.lock:
            info = live.seats[seat]
            if info.account_id not in (None, acc.id):
                raise NameTaken("this seat belongs to another account")
            if info.account_id is None:
                if not await service.writer.run(
                        lambda: _give_seat(community, game_id, seat, acc.id)):
                    raise NameTaken("this seat belongs to another account")
                info.account_id = acc.id
                live.version += 1
        return {"game": game_id, "seat": seat, "account": {"id": acc.id, "name": acc.name}}

    return r
