"""Follows, presence and blocks (``docs/community/social.md``).

- **Follow** a player by name: the "friends" list says of each followed player whether they
  are online, playing (online, with games in progress: where to watch) or offline. A
  player may hide their presence (:class:`.models.PresenceRow` ``hidden``): they are
  listed as offline to everyone.
- **Presence** is kept in the database, one row per account (:class:`.models.PresenceRow`),
  so every process of a deployment reads the same answer and nothing grows with history:
  an account is *online* for ``social.online_minutes`` after a request of its session to
  the social routes (the lobby's friends list asks every minute) or while one of its
  seats has a table open on a socket (each process notes those every
  ``social.sweep_seconds``). A process writes an account's presence at most once a
  minute; what it remembers for that is dropped after the minute.
- **Block** a player by name: their chat is hidden from the blocker (as a mute is), they
  cannot challenge the blocker, offer them a rematch or follow them (403), their follow of
  the blocker ends, and play now never seats the two at one table.

Routes (changes need the session's CSRF token): ``GET/POST /api/follows``, ``DELETE
/api/follows/{name}``, ``GET/POST /api/presence``, ``GET/POST /api/blocks``, ``DELETE
/api/blocks/{name}``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from ..errors import Forbidden, NotFound, TooMany, Unprocessable
from ..store import StoreError, now
from .accounts import game_title
from .identity import Account, account, find_account, writing_account
from .models import AccountRow, BlockRow, FollowRow, PresenceRow

if TYPE_CHECKING:
    from . import Community

log = logging.getLogger("starlanes.server.social")

TOUCH_SECONDS = 60.0
"""A process writes one account's presence at most this often."""


def blocked_ids(s: Session, account_id: int | None) -> list[int]:
    """The accounts ``account_id`` blocked (none for a guest), in the caller's
    transaction ``s``."""
    if account_id is None:
        return []
    return list(s.scalars(select(BlockRow.blocked_id).where(BlockRow.account_id == account_id)))


def block_between(s: Session, a: int, others: Iterable[int]) -> tuple[int, int] | None:
    """A block between account ``a`` and one of ``others`` in either direction, as
    (blocker, blocked); None when there is none."""
    ids = [o for o in set(others) if o != a]
    if not ids:
        return None
    row = s.execute(select(BlockRow.account_id, BlockRow.blocked_id).where(or_(
        (BlockRow.account_id == a) & BlockRow.blocked_id.in_(ids),
        (BlockRow.blocked_id == a) & BlockRow.account_id.in_(ids))).limit(1)).first()
    return None if row is None else (int(row[0]), int(row[1]))


def _target(s: Session, acc: Account, name: str, what: str) -> AccountRow:
    """The account called ``name`` for ``acc`` to follow or block: NotFound (404) for no
    such account, Unprocessable (422) for oneself."""
    wanted = " ".join(str(name).split())
    target = find_account(s, wanted)
    if target is None:
        raise NotFound(f"no player is called {wanted[:40]!r}")
    if target.id == acc.id:
        raise Unprocessable(f"you cannot {what} yourself")
    return target


class Friends:
    """Follows, presence and blocks in the community's store."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.store = community.store
        self.config = community.config.social
        self._touched: dict[int, float] = {}
        """Accounts whose presence this process wrote in the last TOUCH_SECONDS (monotonic
        time of the write); older entries are dropped."""

    # ------------------------------------------------------------------ blocks
    def blocked_pairs(self, accounts: list[int]) -> set[frozenset[int]]:
        """The pairs among ``accounts`` of which one blocked the other: one query."""
        ids = sorted(set(accounts))
        if len(ids) < 2:
            return set()
        with self.store.session() as s:
            rows = s.execute(select(BlockRow.account_id, BlockRow.blocked_id).where(
                BlockRow.account_id.in_(ids), BlockRow.blocked_id.in_(ids))).all()
        return {frozenset((int(a), int(b))) for a, b in rows}

    def blocks(self, acc: Account) -> dict[str, Any]:
        """``{"blocked": [names]}``, by name."""
        with self.store.session() as s:
            return {"blocked": self._blocked_names(s, acc.id)}

    @staticmethod
    def _blocked_names(s: Session, account_id: int) -> list[str]:
        return list(s.scalars(select(AccountRow.name)
                              .join(BlockRow, BlockRow.blocked_id == AccountRow.id)
                              .where(BlockRow.account_id == account_id)
                              .order_by(AccountRow.name_key)))

    def block(self, acc: Account, name: str) -> dict[str, Any]:
        """``acc`` blocks the account ``name`` (again: nothing changes); that account's
        follow of ``acc`` ends. Returns :meth:`blocks`. NotFound (404) no such account,
        Unprocessable (422) oneself, TooMany (429) past ``social.blocks``."""
        with self.store.session() as s:
            target = _target(s, acc, name, "block")
            if s.get(BlockRow, (acc.id, target.id)) is None:
                count = s.scalar(select(func.count()).select_from(BlockRow)
                                 .where(BlockRow.account_id == acc.id)) or 0
                if count >= self.config.blocks:
                    raise TooMany(f"you have blocked {count} players, the most this server "
                                  "keeps; unblock someone first")
                s.add(BlockRow(account_id=acc.id, blocked_id=target.id, created=now()))
                s.execute(delete(FollowRow).where(FollowRow.account_id == target.id,
                                                  FollowRow.followed_id == acc.id))
                s.flush()
            return {"blocked": self._blocked_names(s, acc.id)}

    def unblock(self, acc: Account, name: str) -> dict[str, Any]:
        """``acc`` no longer blocks the account ``name``; returns :meth:`blocks`. NotFound
        (404) for no such account or one that is not blocked."""
        with self.store.session() as s:
            target = _target(s, acc, name, "unblock")
            done = s.execute(delete(BlockRow).where(BlockRow.account_id == acc.id,
                                                    BlockRow.blocked_id == target.id))
            if not done.rowcount:
                raise NotFound(f"you have not blocked {target.name}")
            return {"blocked": self._blocked_names(s, acc.id)}

    # ------------------------------------------------------------------ follows
    def follow(self, acc: Account, name: str) -> None:
        """``acc`` follows the account ``name`` (again: nothing changes). NotFound (404) no
        such account, Unprocessable (422) oneself, Forbidden (403) a player who blocked
        ``acc`` (or whom ``acc`` blocked), TooMany (429) past ``social.follows``."""
        with self.store.session() as s:
            target = _target(s, acc, name, "follow")
            block = block_between(s, acc.id, [target.id])
            if block is not None:
                raise Forbidden(f"you blocked {target.name}: unblock them first"
                                if block[0] == acc.id else
                                f"{target.name} does not take follows from you")
            if s.get(FollowRow, (acc.id, target.id)) is not None:
                return
            count = s.scalar(select(func.count()).select_from(FollowRow)
                             .where(FollowRow.account_id == acc.id)) or 0
            if count >= self.config.follows:
                raise TooMany(f"you follow {count} players, the most this server keeps; "
                              "unfollow someone first")
            s.add(FollowRow(account_id=acc.id, followed_id=target.id, created=now()))

    def unfollow(self, acc: Account, name: str) -> None:
        """``acc`` no longer follows ``name``: NotFound (404) for no such account or one
        not followed."""
        with self.store.session() as s:
            target = _target(s, acc, name, "unfollow")
            done = s.execute(delete(FollowRow).where(FollowRow.account_id == acc.id,
                                                     FollowRow.followed_id == target.id))
            if not done.rowcount:
                raise NotFound(f"you do not follow {target.name}")

    def _followed(self, account_id: int) -> list[tuple[int, str, dt.datetime | None, bool]]:
        """(id, name, seen, hidden) of every account ``account_id`` follows, by name."""
        with self.store.session() as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.name, PresenceRow.seen, PresenceRow.hidden)
                .join(FollowRow, FollowRow.followed_id == AccountRow.id)
                .outerjoin(PresenceRow, PresenceRow.account_id == AccountRow.id)
                .where(FollowRow.account_id == account_id, AccountRow.deleted.is_(False))
                .order_by(AccountRow.name_key)).all()
        return [(int(i), n, seen, bool(hidden)) for i, n, seen, hidden in rows]

    def online(self, seen: dt.datetime | None, hidden: bool) -> bool:
        """Whether a player last seen at ``seen`` counts as online now (never when hidden)."""
        if hidden or seen is None:
            return False
        return now() - seen <= dt.timedelta(minutes=self.config.online_minutes)

    def games_of(self, account_id: int) -> list[dict[str, Any]]:
        """The games in progress holding a seat of the account (``{id, game, title,
        url}``; ``url`` is where to watch), from this process's live games."""
        out = []
        for live in list(self.community.service.games.values()):
            if live.over or not any(s.account_id == account_id for s in live.seats):
                continue
            out.append({"id": live.id, "game": live.row.game,
                        "title": game_title(live.row.game), "url": f"/games/{live.id}"})
        return out

    async def following(self, acc: Account) -> dict[str, Any]:
        """``{"following": [{name, status: "online"|"playing"|"offline", games: [{id,
        game, title, url}]}], "hidden": whether acc hides its own presence}``; ``games``
        (where to watch) only for a player online and playing."""
        rows = await asyncio.to_thread(self._followed, acc.id)
        hidden = await asyncio.to_thread(self.hidden, acc.id)
        out = []
        for followed_id, name, seen, their_hidden in rows:
            games = self.games_of(followed_id) if self.online(seen, their_hidden) else []
            status = ("playing" if games else "online") if self.online(seen, their_hidden) \
                else "offline"
            out.append({"name": name, "status": status, "games": games})
        return {"following": out, "hidden": hidden}

    # ------------------------------------------------------------------ presence
    def hidden(self, account_id: int) -> bool:
        with self.store.session() as s:
            row = s.get(PresenceRow, account_id)
            return bool(row is not None and row.hidden)

    def set_hidden(self, account_id: int, hidden: bool) -> dict[str, Any]:
        """Hide (or show) the account's presence -> ``{"hidden": bool}``."""
        with self.store.session() as s:
            row = s.get(PresenceRow, account_id)
            if row is None:
                s.add(PresenceRow(account_id=account_id, seen=now(), hidden=hidden))
            else:
                row.hidden = hidden
        return {"hidden": hidden}

    async def touch(self, account_ids: Iterable[int]) -> None:
        """Note the accounts as seen now (each at most once per TOUCH_SECONDS from this
        process); a database fault is logged, never raised (presence is a courtesy)."""
        clock = time.monotonic()
        fresh = [a for a in set(account_ids)
                 if clock - self._touched.get(a, -TOUCH_SECONDS) >= TOUCH_SECONDS]
        if not fresh:
            return
        for a in fresh:
            self._touched[a] = clock
        if len(self._touched) > 1024:  # forget the writes older than a minute
            self._touched = {a: t for a, t in self._touched.items()
                             if clock - t < TOUCH_SECONDS}
        try:
            await asyncio.to_thread(self._seen, fresh)
        except StoreError as e:
            log.warning("presence of %d accounts not written: %s", len(fresh), e)

    def _seen(self, ids: list[int]) -> None:
        stamp = now()
        with self.store.session() as s:
            s.execute(update(PresenceRow).where(PresenceRow.account_id.in_(ids))
                      .values(seen=stamp))
            have = set(s.scalars(select(PresenceRow.account_id)
                                 .where(PresenceRow.account_id.in_(ids))))
            for a in ids:
                if a not in have:
                    s.add(PresenceRow(account_id=a, seen=stamp, hidden=False))

    def at_tables(self) -> set[int]:
        """The accounts holding a seat whose table is open on a socket of this process."""
        service = self.community.service
        out: set[int] = set()
        for game_id, subs in list(service.subscribers.items()):
            live = service.games.get(game_id)
            if live is None:
                continue
            for sub in list(subs):
                if sub.seat is not None and sub.seat < len(live.seats):
                    account_id = live.seats[sub.seat].account_id
                    if account_id is not None:
                        out.add(account_id)
        return out


# ---------------------------------------------------------------------- routes
Writer = Annotated[Account, Depends(writing_account)]
Reader = Annotated[Account, Depends(account)]


class NameBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=64)


class PresenceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hidden: bool


def router(community: Community, web: Path) -> APIRouter:
    """The follow, presence and block routes (see the module)."""
    r = APIRouter()
    friends: Friends = community.friends

    @r.get("/api/follows")
    async def following(acc: Reader) -> dict[str, Any]:
        """The players ``acc`` follows with their presence and where to watch (and the
        asker counts as online)."""
        await friends.touch([acc.id])
        return await friends.following(acc)

    @r.post("/api/follows", status_code=201)
    async def follow(body: NameBody, acc: Writer) -> dict[str, Any]:
        """Follow a player by name -> the list (as ``GET``)."""
        await asyncio.to_thread(friends.follow, acc, body.name)
        return await friends.following(acc)

    @r.delete("/api/follows/{name}")
    async def unfollow(name: str, acc: Writer) -> dict[str, Any]:
        """Stop following a player -> the list (as ``GET``)."""
        await asyncio.to_thread(friends.unfollow, acc, name[:64])
        return await friends.following(acc)

    @r.get("/api/presence")
    async def presence(acc: Reader) -> dict[str, Any]:
        """``{"hidden": bool}``: whether the account hides its presence."""
        return {"hidden": await asyncio.to_thread(friends.hidden, acc.id)}

    @r.post("/api/presence")
    async def set_presence(body: PresenceBody, acc: Writer) -> dict[str, Any]:
        """Hide or show the account's presence ``{"hidden": bool}``."""
        return await asyncio.to_thread(friends.set_hidden, acc.id, body.hidden)

    @r.get("/api/blocks")
    async def blocks(acc: Reader) -> dict[str, Any]:
        """``{"blocked": [names]}``."""
        return await asyncio.to_thread(friends.blocks, acc)

    @r.post("/api/blocks", status_code=201)
    async def block(body: NameBody, acc: Writer) -> dict[str, Any]:
        """Block a player by name -> ``{"blocked": [names]}``."""
        return await asyncio.to_thread(friends.block, acc, body.name)

    @r.delete("/api/blocks/{name}")
    async def unblock(name: str, acc: Writer) -> dict[str, Any]:
        """Unblock a player -> ``{"blocked": [names]}``."""
        return await asyncio.to_thread(friends.unblock, acc, name[:64])

    return r
