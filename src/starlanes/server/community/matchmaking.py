"""Play now: a queue per game, player count and clock mode that seats logged-in players of
similar rating together (and, after a wait, with the catalogue bots nearest in rating), and
invitations of an account to an open seat of a game.

The queue is kept in the database (:class:`.models.QueueRow`: it survives a restart) and in
memory (what :meth:`Matchmaking.tick` pairs from, rebuilt from the database at start).
Seating an entry is decided by the database alone: one transaction marks every entry of a
table taken *if it is still open* (not left, no game yet), so two ticks, or two processes,
never seat one entry twice. See ``docs/community/play-now.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from limits import RateLimitItemPerMinute
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import or_, select, update

from starlanes.engine import game_class

from ..catalogue import FALLBACK_BOT
from ..errors import NotFound, Stale, TooMany, Unprocessable
from ..limits import Rule, client_address, network_key
from ..quotas import QuotaFull
from ..rate_storage import SweptMemoryStorage as MemoryStorage
from ..store import GameRow, now
from ..tables import HUMAN
from .identity import Account, account, writing_account
from .invitations import Invitations
from .models import ROW_ID_MAX, AccountRow, QueueRow
from .pairing import MODES, Table, Waiting, plan_tables

RowId = Annotated[int, PathParam(ge=1, le=ROW_ID_MAX)]
"""An invitation's id in a path (422 outside 1..ROW_ID_MAX)."""

__all__ = ["MODES", "Matchmaking", "Waiting", "plan_tables", "router"]

if TYPE_CHECKING:
    from . import Community

log = logging.getLogger("starlanes.server.play")


FALLBACK_RATING = 0.0
"""The rating of every player while the ratings part offers none."""
CLAIM = "claim-"
"""Prefix of the mark an entry bears while its game is being made (then the claim's time,
Unix seconds, and a random part)."""
CLAIM_STALE = 300
"""Seconds after which a claim never settled is taken for one whose process stopped."""


def _claimed_at(mark: str) -> int:
    try:
        return int(mark[len(CLAIM):].split("-")[0])
    except ValueError:
        return 0


def _open() -> tuple[Any, ...]:
    """Where an entry may still be seated: not left, no game, its account neither deleted
    nor suspended."""
    able = select(AccountRow.id).where(AccountRow.deleted.is_(False),
                                       AccountRow.suspended.is_(False))
    return (QueueRow.left.is_(False), QueueRow.game_id.is_(None),
            QueueRow.account_id.in_(able))


def _apart(spent: set[frozenset[int]]) -> Callable[[Waiting, Waiting], bool]:
    """Whether two entries' accounts are a pair of ``spent`` (met too often today, or
    one blocked the other)."""
    def apart(a: Waiting, b: Waiting) -> bool:
        return frozenset((a.account_id, b.account_id)) in spent
    return apart


class _Taken(Exception):
    """An entry of a table was no longer open: the whole claim is rolled back."""


# ---------------------------------------------------------------------- the queue
class Matchmaking(Invitations):
    """The play-now queue and invitations of one server process.

    ``clock`` gives seconds (monotonic) for waiting times; ``interval`` is the pause between
    two background ticks (seconds; None: no background task, the caller ticks)."""

    def __init__(self, community: Community, clock: Callable[[], float] = time.monotonic,
                 interval: float | None = 1.0) -> None:
        self.community = community
        self.store, self.service = community.store, community.service
        self.clock = clock
        self.interval = interval
        self.queue: dict[tuple[str, int, str], dict[int, Waiting]] = {}
        """Waiting entries by (game, players, mode), then by entry id."""
        self.tokens: dict[int, str] = {}
        """Seat tokens of the entries this process seated, by entry id (handed out on the
        account's polls; gone after a restart: ``POST /api/games/{id}/my-seat``)."""
        self._task: asyncio.Task[None] | None = None
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._joins = Rule("queue", RateLimitItemPerMinute(
            community.config.limits.queue_joins_per_minute),
            "too many play-now queue joins from your account", "minute")
        community.service.on_start.append(self.start)
        community.service.on_stop.append(self.stop)

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Rebuild the queue from the database, then tick every ``interval`` seconds."""
        await asyncio.to_thread(self.load)
        if self.interval is not None and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        # ``interval`` set to None while the task runs ends it: from then on the caller
        # ticks, and no background round runs between (or beside) the caller's
        while self.interval is not None:
            await asyncio.sleep(self.interval)
            if self.interval is None:
                break
            try:
                await self.tick()
            except Exception:  # noqa: BLE001 - one bad round must not end the queue
                log.exception("a play-now round failed")

    def load(self) -> None:
        """Rebuild the in-memory queue from the open entries in the database. Entries
        claimed more than CLAIM_STALE seconds ago for a game never settled (the process
        making it stopped) are opened again."""
        with self.store.session() as s:
            stale = int(time.time() - CLAIM_STALE)
            for entry_id, mark in s.execute(select(QueueRow.id, QueueRow.game_id)
                                            .where(QueueRow.game_id.like(f"{CLAIM}%"))):
                if _claimed_at(mark) < stale:
                    s.execute(update(QueueRow).where(QueueRow.id == entry_id,
                                                     QueueRow.game_id == mark)
                              .values(game_id=None, seat=None))
            rows = list(s.scalars(select(QueueRow).where(QueueRow.left.is_(False),
                                                         QueueRow.game_id.is_(None))))
        stamp, clock = now(), self.clock()
        self.queue.clear()
        for row in rows:
            waited = max(0.0, (stamp - row.joined).total_seconds())
            self._add(row, clock - waited)

    def _add(self, row: QueueRow, since: float) -> None:
        bucket = self.queue.setdefault((row.game, row.players, row.mode), {})
        # (a server that lets one network's accounts meet pairs them as well)
        network = "" if self.community.config.fair_play.rated_same_network else row.network
        bucket[row.id] = Waiting(row.id, row.account_id, row.rating, since, network or "")

    def _drop(self, entry_id: int) -> None:
        for bucket in self.queue.values():
            bucket.pop(entry_id, None)

    # ------------------------------------------------------------------ ratings
    def rating_of(self, player: str, game: str) -> float:
        """The player's rating in ``game`` from the ratings part (FALLBACK_RATING while it
        offers none)."""
        rating = getattr(self.community.ratings, "rating", None)
        if rating is None:
            return FALLBACK_RATING
        try:
            return float(rating(player, game)["rating"])
        except Exception:  # noqa: BLE001 - no rating must not keep anyone from playing
            log.exception("no rating for %s in %s", player, game)
            return FALLBACK_RATING

    def bot_for(self, game: str, rating: float) -> str:
        """The catalogue bot nearest in rating to ``rating`` (the fallback bot, or the
        catalogue's first, while the ratings part names none)."""
        nearest = getattr(self.community.ratings, "nearest_bot", None)
        name = None
        if nearest is not None:
            try:
                name = nearest(game, rating)
            except Exception:  # noqa: BLE001
                log.exception("no nearest bot for %s at %s", game, rating)
        config = self.community.config
        for choice in (name, FALLBACK_BOT):
            if isinstance(choice, str) and config.bot(choice) is not None:
                return config.bot(choice).name
        return config.bots[0].name

    # ------------------------------------------------------------------ the account's entry
    async def join(self, acc: Account, game: str, players: int, mode: str,
                   network: str = "") -> dict[str, Any]:
        """Queue ``acc``, from the client network ``network``, for a rated game of ``game``
        with ``players`` seats in clock mode ``mode``; returns its entry (:meth:`entry`).
        Raises Unprocessable (422) for an unknown mode or a player count the game does not
        allow, BadOptionError (400) for an unknown game, Stale (409) while the account
        already waits in a queue or has a play-now game of ``game`` that has not ended (one
        at a time per game: ``docs/community/fair-play.md``)."""
        if mode not in MODES:
            raise Unprocessable(f"mode is one of {', '.join(MODES)}")
        self._rate(acc.id)
        game = self.service.catalogue.check_game(game)
        cls = game_class(game)
        if not cls.min_players <= players <= cls.max_players:
            raise Unprocessable(f"{game} is played by {cls.min_players} to "
                                f"{cls.max_players} players")
        await self.service.check_quota(acc.id, network)  # 429 while its quota is full
        rating = await asyncio.to_thread(self.rating_of, acc.key, game)
        row = await asyncio.to_thread(self._insert, acc.id, game, players, mode, rating,
                                      network)
        self._add(row, self.clock())
        return self._entry_view(row)

    def _insert(self, account_id: int, game: str, players: int, mode: str,
                rating: float, network: str = "") -> QueueRow:
        with self.store.session() as s:
            # the account's row, locked where the database can: one open entry per account
            s.scalars(select(AccountRow.id).where(AccountRow.id == account_id)
                      .with_for_update()).first()
            open_row = s.scalars(select(QueueRow).where(
                QueueRow.account_id == account_id, QueueRow.left.is_(False),
                or_(QueueRow.game_id.is_(None), QueueRow.game_id.like(f"{CLAIM}%")))).first()
            if open_row is not None:
                raise Stale(f"you are already waiting for {open_row.game} "
                            f"({open_row.players} players, {open_row.mode}); leave that "
                            "queue first")
            running = s.scalars(select(GameRow.id).join(
                QueueRow, QueueRow.game_id == GameRow.id).where(
                QueueRow.account_id == account_id, QueueRow.game == game,
                GameRow.ended.is_(None))).first()
            if running is not None:
                title = getattr(game_class(game), "title", game)
                raise Stale(f"you already have a play-now game of {title} going; finish "
                            "it (or resign) before you queue for another")
            row = QueueRow(account_id=account_id, game=game, players=players, mode=mode,
                           rating=rating, joined=now(), network=network)
            s.add(row)
            s.flush()
            return row

    async def entry(self, acc: Account) -> dict[str, Any]:
        """The account's latest entry: ``{"status": "none"}`` without one, else ``{id,
        status: "waiting"|"seated", game, players, mode, rating, waited_seconds}`` and once
        seated ``game_id, seat, token, link, over`` (``token`` and ``link`` None when this
        process does not hold the token: after a restart; ask ``my-seat`` then)."""
        row, created = await asyncio.to_thread(self._latest, acc.id)
        if row is None:
            return {"status": "none"}
        return self._entry_view(row, created)

    def _latest(self, account_id: int) -> tuple[QueueRow | None, Any]:
        with self.store.session() as s:
            row = s.scalars(select(QueueRow).where(QueueRow.account_id == account_id,
                                                   QueueRow.left.is_(False))
                            .order_by(QueueRow.id.desc())).first()
            created = None
            if row is not None and row.game_id and not row.game_id.startswith(CLAIM):
                found = s.execute(select(GameRow.created, GameRow.ended)
                                  .where(GameRow.id == row.game_id)).first()
                created = None if found is None else (found[0], found[1])
            return row, created

    def _entry_view(self, row: QueueRow, created: Any = None) -> dict[str, Any]:
        """The entry as the API shows it; ``created``: its game's (created, ended) stored
        times, once seated (a finished game is archived: its end is read from the store)."""
        created, ended = created if isinstance(created, tuple) else (created, None)
        seated = bool(row.game_id) and not str(row.game_id).startswith(CLAIM)
        out: dict[str, Any] = {"id": row.id, "status": "seated" if seated else "waiting",
                               "game": row.game, "players": row.players, "mode": row.mode,
                               "rating": row.rating}
        if not seated:
            waiting = self.queue.get((row.game, row.players, row.mode), {}).get(row.id)
            waited = (self.clock() - waiting.since if waiting is not None
                      else (now() - row.joined).total_seconds())
            out["waited_seconds"] = round(max(0.0, waited), 1)
            return out
        out["waited_seconds"] = (round(max(0.0, (created - row.joined).total_seconds()), 1)
                                 if created is not None else None)
        token = self.tokens.get(row.id)
        live = self.service.games.get(row.game_id)
        out.update(game_id=row.game_id, seat=row.seat, token=token,
                   link=f"/games/{row.game_id}?token={token}" if token else None,
                   over=bool(ended is not None or (live is not None and live.over)))
        return out

    async def leave(self, acc: Account) -> dict[str, Any]:
        """Leave the queue. Raises NotFound (404) when the account waits in none, Stale (409)
        when it was seated a moment ago (its game stands)."""
        left, latest = await asyncio.to_thread(self._leave, acc.id)
        for entry_id in left:
            self._drop(entry_id)
        if left:
            return {"status": "left"}
        if latest is not None and latest.game_id:
            raise Stale("you were seated a moment ago: your game is waiting for you")
        raise NotFound("you are not waiting in the play-now queue")

    def _leave(self, account_id: int) -> tuple[list[int], QueueRow | None]:
        with self.store.session() as s:
            mine = (QueueRow.account_id == account_id, QueueRow.left.is_(False))
            ids = list(s.scalars(select(QueueRow.id).where(*mine, QueueRow.game_id.is_(None))))
            s.execute(update(QueueRow).where(QueueRow.id.in_(ids), QueueRow.game_id.is_(None))
                      .values(left=True))
            latest = s.scalars(select(QueueRow).where(*mine).order_by(QueueRow.id.desc()))
            return ids, None if ids else latest.first()

    def _rate(self, account_id: int) -> None:
        """Count one queue join of the account; TooMany (429 with the wait) past
        ``limits.queue_joins_per_minute``."""
        rule = self._joins
        if self._limiter.hit(rule.item, rule.name, str(account_id)):
            return
        stats = self._limiter.get_window_stats(rule.item, rule.name, str(account_id))
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        error = TooMany(rule.reason(wait))
        error.retry_after = wait
        raise error

    # ------------------------------------------------------------------ pairing rounds
    async def tick(self) -> list[str]:
        """One round: make every table :func:`plan_tables` finds in every queue; returns the
        ids of the games made."""
        at = self.clock()
        wait = self.community.config.queue_wait_seconds
        made = []
        for key, bucket in list(self.queue.items()):
            waiting = list(bucket.values())
            apart = None
            if len(waiting) > 1:  # met in too many rated games today, or one blocked
                spent = await asyncio.to_thread(self._apart_pairs,
                                                [w.account_id for w in waiting])
                apart = _apart(spent)
            for table in plan_tables(waiting, key[1], at, wait, apart):
                game_id = await self._seat(key, table)
                if game_id is not None:
                    made.append(game_id)
        return made

    def _apart_pairs(self, accounts: list[int]) -> set[frozenset[int]]:
        """The pairs among ``accounts`` never seated together: met in the most rated games
        today (:meth:`.fairplay.FairPlay.pairs_at_cap`) or one blocked the other
        (:meth:`.friends.Friends.blocked_pairs`). Blocking: one thread call for both."""
        pairs = self.community.fair_play.pairs_at_cap(accounts)
        friends = getattr(self.community, "friends", None)
        return pairs | (friends.blocked_pairs(accounts) if friends is not None else set())

    async def _seat(self, key: tuple[str, int, str], table: Table) -> str | None:
        game, players, mode_name = key
        mode = MODES.get(mode_name, MODES["correspondence"])
        bucket = self.queue.setdefault(key, {})
        for m in table.members:
            bucket.pop(m.entry_id, None)
        order: list[Waiting | None] = [*table.members, *([None] * table.bots)]
        random.SystemRandom().shuffle(order)
        seat_of = {m.entry_id: order.index(m) for m in table.members}
        claim = f"{CLAIM}{int(time.time())}-{secrets.token_hex(4)}"
        try:
            names = await asyncio.to_thread(self._claim, claim, seat_of)
        except _Taken:
            # another round or process seated (or the player left) first: keep the rest
            still = await asyncio.to_thread(self._open_ids, list(seat_of))
            for m in table.members:
                if m.entry_id in still:
                    bucket[m.entry_id] = m
            return None
        bot = ""
        if table.bots:
            mean = sum(m.rating for m in table.members) / len(table.members)
            bot = await asyncio.to_thread(self.bot_for, game, mean)
        seats = [HUMAN if w is not None else bot for w in order]
        first = min(table.members, key=lambda m: m.since)
        try:
            live = await self.service.create(
                game, players, seats, {}, rated=True, owner="play-now",
                # the game counts for the quota of the player who waited longest
                owner_account=first.account_id, owner_network=first.network,
                clock_seconds=mode.clock_seconds, clock_kind=mode.clock_kind,
                clock_increment=mode.increment, timeout=mode.timeout)
        except QuotaFull as e:
            # the longest waiting player's quota of unfinished games filled while it
            # waited: it leaves the queue (its other games first), the others wait on
            log.info("play-now entry %s leaves the queue: %s", first.entry_id, e)
            await asyncio.to_thread(self._settle, claim, None)
            await asyncio.to_thread(self._leave, first.account_id)
            for m in table.members:
                if m is not first:
                    bucket[m.entry_id] = m
            return None
        except Exception:  # noqa: BLE001 - the players wait on; the next round tries again
            log.exception("a play-now game of %s could not be made", game)
            await asyncio.to_thread(self._settle, claim, None)
            for m in table.members:
                bucket[m.entry_id] = m
            return None
        for m in table.members:
            try:
                _seat, token = await self.service.join(
                    live.id, names.get(m.account_id) or "player", seat_of[m.entry_id],
                    account_id=m.account_id, network=m.network or None)
                self.tokens[m.entry_id] = token
            except Exception:  # noqa: BLE001
                log.exception("play-now seat %s of game %s could not be taken",
                              seat_of[m.entry_id], live.id)
        await asyncio.to_thread(self._settle, claim, live.id)
        return live.id

    def _claim(self, claim: str, seat_of: dict[int, int]) -> dict[int, str]:
        """Mark every entry taken for the game being made, in one transaction that checks
        each is still open; raises _Taken (rolling back) when one is not. Returns the names
        of the entries' accounts."""
        with self.store.session() as s:
            for entry_id, seat in seat_of.items():
                done = s.execute(update(QueueRow).where(QueueRow.id == entry_id, *_open())
                                 .values(game_id=claim, seat=seat))
                if done.rowcount != 1:
                    raise _Taken(entry_id)
            ids = list(s.scalars(select(QueueRow.account_id)
                                 .where(QueueRow.id.in_(list(seat_of)))))
            return {a.id: a.name for a in s.scalars(select(AccountRow)
                                                     .where(AccountRow.id.in_(ids)))}

    def _open_ids(self, ids: list[int]) -> set[int]:
        with self.store.session() as s:
            return set(s.scalars(select(QueueRow.id).where(QueueRow.id.in_(ids), *_open())))

    def _settle(self, claim: str, game_id: str | None) -> None:
        """Turn a claim into its game's id (None: release the entries, with their seats)."""
        with self.store.session() as s:
            values: dict[str, Any] = {"game_id": game_id}
            if game_id is None:
                values["seat"] = None
            s.execute(update(QueueRow).where(QueueRow.game_id == claim).values(**values))


# ---------------------------------------------------------------------- routes
Writer = Annotated[Account, Depends(writing_account)]
Reader = Annotated[Account, Depends(account)]


class PlayBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64)
    players: int = Field(ge=1, le=16)
    mode: str = Field(default="realtime", max_length=16)


class InviteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=64)
    name: str = Field(min_length=1, max_length=64)


def router(community: Community, web: Path) -> APIRouter:
    """``/api/play`` (the queue), ``/api/play/modes``, ``/api/games/{id}/invite`` and
    ``/api/invitations...``. Every change needs a logged-in account and its CSRF token."""
    r = APIRouter()
    proxies = community.config.proxy_networks()

    def mm() -> Matchmaking:
        return community.matchmaking

    @r.get("/api/play/modes")
    def modes() -> dict[str, Any]:
        """The clock modes and how long a player waits before bots fill the table."""
        return {"modes": [asdict(m) for m in MODES.values()],
                "queue_wait_seconds": community.config.queue_wait_seconds}

    @r.post("/api/play", status_code=201)
    async def play(body: PlayBody, acc: Writer, request: Request) -> dict[str, Any]:
        """Join the queue of ``{game, players, mode}`` -> the entry (as ``GET``)."""
        network = network_key(client_address(request.scope, proxies))
        return await mm().join(acc, body.game, body.players, body.mode, network)

    @r.get("/api/play")
    async def my_entry(acc: Reader) -> dict[str, Any]:
        """The account's entry: waiting (how long) or seated (the game and seat link)."""
        return await mm().entry(acc)

    @r.delete("/api/play")
    async def leave(acc: Writer) -> dict[str, Any]:
        """Leave the queue -> ``{status: "left"}``."""
        return await mm().leave(acc)

    @r.post("/api/games/{game_id}/invite", status_code=201)
    async def invite(game_id: str, body: InviteBody,
                     acc: Writer) -> dict[str, Any]:
        """Invite an account by name to an open seat -> ``{id, game_id, seat, to, status}``."""
        return await mm().invite(acc, game_id, body.seat, body.name)

    @r.get("/api/invitations")
    async def invitations(acc: Reader) -> dict[str, Any]:
        return await mm().invitations(acc)

    @r.post("/api/invitations/{iid}/accept")
    async def accept(iid: RowId, acc: Writer) -> dict[str, Any]:
        return await mm().answer(acc, iid, True)

    @r.post("/api/invitations/{iid}/decline")
    async def decline(iid: RowId, acc: Writer) -> dict[str, Any]:
        return await mm().answer(acc, iid, False)

    return r
