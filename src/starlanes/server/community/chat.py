"""Chat at the tables, mutes and reports.

Each game has two channels:

- ``players``: written by the seated players (a seat token in ``Authorization: Bearer``, or
  a logged-in account holding a seat of the game, with its CSRF token); read by everyone
  who may watch the game, anonymous spectators included.
- ``spectators``: written by logged-in accounts holding no seat of the game (with their
  CSRF token; anonymous spectators only read); read by everyone when the game is not a
  rated game in progress. While a rated game goes on, nothing a spectator writes reaches
  its players: only logged-in accounts holding no seat read the channel then (a guest
  could be a player who logged out). Once it is over the players read it too.

Messages are plain text: control and format characters are removed (newlines kept, tabs
made spaces, three or more line breaks made two), the text is trimmed, and an empty one or
one longer than ``limits.chat_message_chars`` characters is refused with 422. One writer
(an account, or a guest's seat) may send ``limits.chat_messages_per_minute`` messages per
minute and :data:`REPORTS_PER_MINUTE` reports (429 with ``Retry-After`` past them). A seat
whose account the operator suspended may not write.

An account mutes another by name: what the muted account writes is left out of what the
muter reads (guests mute in their browser). A report of a message is kept for the operator
(``starlanes admin reports``).

Routes: ``POST /api/games/{id}/chat``, ``GET /api/games/{id}/chat?after=``,
``POST /api/mutes``, ``DELETE /api/mutes/{name}``, ``POST /api/chat/{message_id}/report``.
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from limits import RateLimitItemPerMinute
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from ..errors import Forbidden, NotFound, TooMany, Unauthorized, Unprocessable
from ..limits import Rule
from ..rate_storage import SweptMemoryStorage as MemoryStorage
from .identity import Account, find_account, optional_account, writing_account
from .models import ROW_ID_MAX, AccountRow, ChatRow, MuteRow, ReportRow

if TYPE_CHECKING:
    from ..tables import LiveGame
    from . import Community

PLAYERS = "players"
SPECTATORS = "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
KEEP = 200
"""The most messages one read answers (the newest ones after ``after``)."""
REPORTS_PER_MINUTE = 5
"""Reports one reporter may file per minute."""
REASON_CHARS = 500
"""The longest reason of a report (characters; longer ones are cut)."""

_KEPT_FORMAT = {"\u200c", "\u200d"}
"""Format characters kept: the zero-width (non-)joiners that scripts and emoji need."""
_DROPPED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
"""Unicode categories removed from chat text (controls, format, surrogates, private use,
unassigned, line and paragraph separators)."""
_BREAKS = re.compile(r"\n{3,}")


def clean_text(text: str) -> str:
    """``text`` as chat keeps it: line breaks made ``\\n`` (three or more made two), tabs
    made spaces, every other control, format (bidi overrides, zero-width spaces),
    surrogate, private-use and unassigned character removed, every line's end and the
    whole trimmed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    kept = []
    for ch in text:
        if ch == "\n" or ch in _KEPT_FORMAT or unicodedata.category(ch) not in _DROPPED:
            kept.append(ch)
    lines = "\n".join(line.rstrip() for line in "".join(kept).split("\n"))
    return _BREAKS.sub("\n\n", lines).strip()


@dataclass(frozen=True)
class Asker:
    """Who is asking about one game's chat: the seat they hold (None: a spectator), the
    account (from the seat or the session; None: a guest), the name their messages carry,
    and the key their rates are counted under."""

    seat: int | None
    account_id: int | None
    name: str
    key: str
    logged_in: bool

    @property
    def spectator(self) -> bool:
        return self.seat is None


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid")

    channel: str = Field(description="'players' or 'spectators'")
    text: str = Field(max_length=20_000)


class MutePost(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=200)


class ReportPost(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(default="", max_length=5_000)


class Chat:
    """The chat of every game: who may write and read which channel, the rates, the
    messages, mutes and reports in the community's store."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.store = community.store
        self.limits = community.config.limits
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.message_rate = Rule("chat", RateLimitItemPerMinute(
            self.limits.chat_messages_per_minute), "too many chat messages", "minute")
        self.report_rate = Rule("report", RateLimitItemPerMinute(REPORTS_PER_MINUTE),
                                "too many reports", "minute")

    # ------------------------------------------------------------------ who asks
    def asker(self, live: LiveGame, token: str | None, account: Account | None) -> Asker:
        """Who asks about ``live``'s chat: the seat of ``token`` (Unauthorized, 401, for a
        token of no seat of this game) or else the seat the logged-in ``account`` holds;
        a spectator without either."""
        if token:
            seat = self.community.service.seat_of(live, token)
            info = live.seats[seat]
            key = f"a:{info.account_id}" if info.account_id is not None \
                else f"seat:{live.id}:{seat}"
            return Asker(seat, info.account_id, info.name, key,
                         account is not None and account.id == info.account_id)
        if account is not None:
            for info in live.seats:
                if info.account_id == account.id and not info.is_bot:
                    return Asker(info.seat, account.id, info.name, account.key, True)
            return Asker(None, account.id, account.name, account.key, True)
        return Asker(None, None, "", "", False)

    @staticmethod
    def readable(live: LiveGame, asker: Asker) -> tuple[str, ...]:
        """The channels ``asker`` reads: players always; spectators too, except while the
        game is rated and not over: then only logged-in accounts holding no seat read it
        (a player who logged out, or opened the table in another browser, is a guest and
        must not read it either)."""
        if not (live.row.rated and not live.over):
            return CHANNELS
        if asker.spectator and asker.logged_in:
            return CHANNELS
        return (PLAYERS,)

    def _check_writer(self, live: LiveGame, asker: Asker, channel: str) -> None:
        if channel not in CHANNELS:
            raise Unprocessable(f"no chat channel {channel!r} (players or spectators)")
        if channel == PLAYERS and asker.spectator:
            raise Forbidden("only the players of this game write in its players channel")
        if channel == SPECTATORS:
            if not asker.spectator:
                raise Forbidden("players write in the players channel")
            if not asker.logged_in:
                raise Unauthorized("log in to write in the spectators channel")
        self._check_not_suspended(asker)

    def _check_not_suspended(self, asker: Asker) -> None:
        if asker.account_id is None:
            return
        with self.store.session() as s:
            row = s.get(AccountRow, asker.account_id)
            if row is not None and (row.suspended or row.deleted):
                raise Forbidden("this account may not write in chat (suspended)")

    def _rate(self, rule: Rule, key: str) -> None:
        """Count one by ``key`` under ``rule``; TooMany (429, ``retry_after`` seconds) past
        the rate. (Synchronous: chat is answered in the thread pool.)"""
        if self.limiter.hit(rule.item, rule.name, key):
            return
        stats = self.limiter.get_window_stats(rule.item, rule.name, key)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        error = TooMany(rule.reason(wait))
        error.retry_after = wait
        raise error

    # ------------------------------------------------------------------ messages
    def post(self, game_id: str, token: str | None, account: Account | None,
             channel: str, text: str) -> dict[str, Any]:
        """Store a message of the asker in ``channel``; returns it as :meth:`read` shows
        messages. Raises NotFound (no such game), Unauthorized (a wrong token; a guest
        writing), Forbidden (the wrong channel for the asker, a suspended account),
        Unprocessable (an unknown channel, an empty or too long text), TooMany (the rate)."""
        live = self.community.service.live(game_id)
        asker = self.asker(live, token, account)
        self._check_writer(live, asker, channel)
        text = clean_text(text)
        if not text:
            raise Unprocessable("an empty message is not sent")
        most = self.limits.chat_message_chars
        if len(text) > most:
            raise Unprocessable(f"a chat message has at most {most} characters, "
                                f"this one {len(text)}")
        self._rate(self.message_rate, asker.key)
        with self.store.session() as s:
            row = ChatRow(game_id=live.id, channel=channel, account_id=asker.account_id,
                          seat=asker.seat if channel == PLAYERS else None,
                          name=asker.name[:80], text=text, seq=live.seq)
            s.add(row)
            s.flush()
            return _message(row)

    def read(self, game_id: str, token: str | None, account: Account | None,
             after: int = 0) -> dict[str, Any]:
        """``{messages: [{id, channel, name, seat, text, at, seq, account}], muted: [names],
        channels: [read channels], write: the channel the asker writes or None, limit:
        the longest message in characters}``: the messages after id ``after`` in the
        channels the asker reads (at most :data:`KEEP`, the newest, oldest first), less
        those of accounts the asker muted or blocked; ``at`` is ISO 8601 UTC, ``seq`` the
        number of moves made when it was written, ``seat`` None in the spectators channel,
        ``account`` whether an account wrote it (only those can be muted here)."""
        live = self.community.service.live(game_id)
        asker = self.asker(live, token, account)
        channels = self.readable(live, asker)
        with self.store.session() as s:
            muted_ids, muted = self._muted(s, asker.account_id)
            hidden = set(muted_ids) | blocked_by(s, asker.account_id)
            query = select(ChatRow).where(ChatRow.game_id == live.id, ChatRow.id > after,
                                          ChatRow.channel.in_(channels))
            if hidden:
                query = query.where(or_(ChatRow.account_id.is_(None),
                                        ChatRow.account_id.not_in(hidden)))
            rows = list(s.scalars(query.order_by(ChatRow.id.desc()).limit(KEEP)))
        return {"messages": [_message(r) for r in reversed(rows)], "muted": muted,
                "channels": list(channels), "write": self._writable(asker),
                "limit": self.limits.chat_message_chars}

    @staticmethod
    def _writable(asker: Asker) -> str | None:
        if not asker.spectator:
            return PLAYERS
        return SPECTATORS if asker.logged_in else None

    @staticmethod
    def _muted(s: Session, account_id: int | None) -> tuple[list[int], list[str]]:
        if account_id is None:
            return [], []
        rows = s.execute(select(AccountRow.id, AccountRow.name)
                         .join(MuteRow, MuteRow.muted_id == AccountRow.id)
                         .where(MuteRow.account_id == account_id)
                         .order_by(AccountRow.name)).all()
        return [r.id for r in rows], [r.name for r in rows]

    # ------------------------------------------------------------------ mutes
    def mute(self, account: Account, name: str) -> dict[str, Any]:
        """``account`` no longer reads what the account ``name`` writes; returns
        ``{muted: [names]}``. NotFound for no such account, Unprocessable for oneself."""
        with self.store.session() as s:
            target = find_account(s, name)
            if target is None:
                raise NotFound(f"no account named {name[:40]!r}")
            if target.id == account.id:
                raise Unprocessable("you cannot mute yourself")
            if s.get(MuteRow, (account.id, target.id)) is None:
                s.add(MuteRow(account_id=account.id, muted_id=target.id))
                s.flush()
            return {"muted": self._muted(s, account.id)[1]}

    def unmute(self, account: Account, name: str) -> dict[str, Any]:
        """``account`` reads the account ``name`` again; returns ``{muted: [names]}``
        (NotFound for no such account)."""
        with self.store.session() as s:
            target = find_account(s, name)
            if target is None:
                raise NotFound(f"no account named {name[:40]!r}")
            s.execute(delete(MuteRow).where(MuteRow.account_id == account.id,
                                            MuteRow.muted_id == target.id))
            return {"muted": self._muted(s, account.id)[1]}

    # ------------------------------------------------------------------ reports
    def report(self, message_id: int, token: str | None, account: Account | None,
               reason: str) -> dict[str, Any]:
        """Keep a report of message ``message_id`` for the operator; returns ``{id}``.
        The reporter is a seat of the message's game (``token``) or a logged-in account,
        and must be able to read the message (NotFound otherwise, and for no such
        message); Unauthorized for neither; TooMany past :data:`REPORTS_PER_MINUTE`."""
        if not token and account is None:
            raise Unauthorized("log in or open the game with your seat link to report")
        with self.store.session() as s:
            msg = s.get(ChatRow, message_id)
            game_id, channel = (msg.game_id, msg.channel) if msg is not None else ("", "")
        if msg is None or game_id not in self.community.service.games:
            raise NotFound(f"no chat message {message_id}")
        live = self.community.service.live(game_id)
        asker = self.asker(live, token, account)
        if channel not in self.readable(live, asker):
            raise NotFound(f"no chat message {message_id}")
        self._check_not_suspended(asker)
        self._rate(self.report_rate, asker.key)
        who = asker.name if asker.spectator else f"{asker.name} (seat {asker.seat})"
        with self.store.session() as s:
            row = ReportRow(message_id=message_id, reporter=who[:80],
                            reason=clean_text(reason)[:REASON_CHARS])
            s.add(row)
            s.flush()
            return {"id": row.id}


def _message(row: ChatRow) -> dict[str, Any]:
    return {"id": row.id, "channel": row.channel, "name": row.name, "seat": row.seat,
            "text": row.text, "at": row.at.isoformat().replace("+00:00", "Z"),
            "seq": row.seq, "account": row.account_id is not None}


def blocked_by(s: Session, account_id: int | None) -> set[int]:
    """The accounts ``account_id`` blocked (their chat is hidden from it), in the
    caller's transaction ``s``; empty for a guest."""
    from . import models

    block = getattr(models, "BlockRow", None)
    if account_id is None or block is None:
        return set()
    return set(s.scalars(select(block.blocked_id).where(block.account_id == account_id)))


RECORD_MESSAGES = 10_000
"""The most chat messages a game record keeps (the newest)."""


def replay_chat(store: Any, game_id: str, finished: bool, step: int | None,
                hidden: set[int]) -> list[dict[str, Any]]:
    """The chat a replay shows at ``step`` (None: the latest): the players' channel, and
    the spectators' once the game is over, written at that move or before, the newest
    :data:`KEEP`, less what ``hidden`` accounts wrote. Blocking."""
    channels = CHANNELS if finished else (PLAYERS,)
    return game_chat(store, game_id, channels, hidden, upto=step, limit=KEEP)


def with_chat(record: Any, store: Any, game_id: str, hidden: set[int],
              finished: bool = True) -> Any:
    """``record`` (a :class:`~starlanes.engine.GameRecord` of the stored game ``game_id``)
    with the game's chat: the players' channel, and the spectators' when the game is
    ``finished``, the newest :data:`RECORD_MESSAGES`, less what ``hidden`` accounts wrote.
    Blocking."""
    from starlanes.engine.record import ChatLine

    channels = CHANNELS if finished else (PLAYERS,)
    chat = [ChatLine(**m) for m in game_chat(store, game_id, channels, hidden,
                                              limit=RECORD_MESSAGES)]
    return record.model_copy(update={"chat": chat or None})


def hidden_authors(store: Any, account_id: int | None) -> set[int]:
    """The accounts whose chat ``account_id`` does not read: those it muted or blocked.
    Blocking."""
    if account_id is None:
        return set()
    with store.session() as s:
        return set(Chat._muted(s, account_id)[0]) | blocked_by(s, account_id)


def game_chat(store: Any, game_id: str, channels: tuple[str, ...], hidden: set[int],
              upto: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """The game's chat in ``channels`` as records and replays keep it, oldest first:
    ``{seq, channel, name, seat, text, at}`` (``seq``: the moves made when it was
    written), less what accounts in ``hidden`` wrote; with ``upto``, only messages written
    at move ``upto`` or before; with ``limit``, the newest ``limit`` of them. Blocking."""
    with store.session() as s:
        query = select(ChatRow).where(ChatRow.game_id == game_id,
                                      ChatRow.channel.in_(channels))
        if upto is not None:
            query = query.where(or_(ChatRow.seq.is_(None), ChatRow.seq <= upto))
        if hidden:
            query = query.where(or_(ChatRow.account_id.is_(None),
                                    ChatRow.account_id.not_in(hidden)))
        query = query.order_by(ChatRow.id.desc())
        if limit is not None:
            query = query.limit(limit)
        rows = list(s.scalars(query))
    return [{"seq": r.seq if r.seq is not None else 0, "channel": r.channel, "name": r.name,
             "seat": r.seat, "text": r.text,
             "at": r.at.isoformat().replace("+00:00", "Z")} for r in reversed(rows)]


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def _chat_account(request: Request) -> Account | None:
    """The session's account of a chat write: none with a seat token (the token speaks),
    else the CSRF-checked account (401 for a guest, 403 without the CSRF token)."""
    if _bearer(request):
        return optional_account(request)
    return writing_account(request)


ChatAccount = Annotated[Account | None, Depends(_chat_account)]
MaybeAccount = Annotated[Account | None, Depends(optional_account)]
WritingAccount = Annotated[Account, Depends(writing_account)]


def router(community: Community, web: Path) -> APIRouter:
    """The chat, mute and report routes (see the module's text)."""
    r = APIRouter()
    chat: Chat = community.chat

    @r.post("/api/games/{game_id}/chat", status_code=201)
    def post_chat(game_id: str, body: ChatPost, request: Request,
                  account: ChatAccount) -> dict[str, Any]:
        """Send a chat message; answers it as the reads show it."""
        return chat.post(game_id, _bearer(request), account, body.channel, body.text)

    @r.get("/api/games/{game_id}/chat")
    def get_chat(game_id: str, request: Request, account: MaybeAccount,
                 after: Annotated[int, Query(ge=0, le=ROW_ID_MAX)] = 0) -> dict[str, Any]:
        """The messages after id ``after`` the asker may read, and whom they muted."""
        return chat.read(game_id, _bearer(request), account, after)

    @r.post("/api/mutes")
    def post_mute(body: MutePost,
                  account: WritingAccount) -> dict[str, Any]:
        """Mute an account by name."""
        return chat.mute(account, body.name)

    @r.delete("/api/mutes/{name}")
    def delete_mute(name: str,
                    account: WritingAccount) -> dict[str, Any]:
        """Unmute an account by name."""
        return chat.unmute(account, name)

    @r.post("/api/chat/{message_id}/report", status_code=201)
    def post_report(message_id: Annotated[int, PathParam(ge=1, le=ROW_ID_MAX)],
                    body: ReportPost, request: Request,
                    account: ChatAccount) -> dict[str, Any]:
        """Report a chat message to the operator."""
        return chat.report(message_id, _bearer(request), account, body.reason)

    return r
