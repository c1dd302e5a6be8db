"""The life an offer shares, challenge or rematch offer alike (``docs/community/social.md``):
how it is read, answered, withdrawn, closed when it expires, told to its players and, once
every seat accepted, made into a game. How each kind is made is :mod:`.social`'s.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import hashlib
import hmac
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update

from starlanes.engine import StarlanesError

from ..errors import Forbidden, NotFound, Stale
from ..store import now
from ..tokens import token_hash, token_matches
from .accounts import game_title
from .identity import Account
from .models import AccountRow, OfferRow, OfferSeatRow

if TYPE_CHECKING:
    from . import Community

log = logging.getLogger("starlanes.server.social")

CHALLENGE, REMATCH = "challenge", "rematch"
OPEN, STARTING, STARTED = "open", "starting", "started"
RECENT = dt.timedelta(minutes=10)
"""Started offers stay in the lists this long (a page that missed the start finds it)."""
STARTING_STALE = dt.timedelta(minutes=5)
"""An offer still being made after this long (its process stopped) is closed as failed."""
SWEEP_BATCH = 200
"""Expired offers one sweep closes at most (the next sweep takes the rest)."""


@dataclass(frozen=True)
class Asker:
    """Who asks about an offer: a logged-in account, and for a rematch the seat of the
    finished game its token proves (with the token, to derive the new seat's)."""

    account: Account | None
    seat: int | None = None
    token: str | None = None

    @property
    def account_id(self) -> int | None:
        return None if self.account is None else self.account.id


def derived_token(old_token: str, offer_id: int, seat: int) -> str:
    """The new seat's token for the holder of ``old_token``: 32 URL-safe characters
    (192 bits) of an HMAC keyed with the old token."""
    mac = hmac.new(old_token.encode("utf-8", "replace"),
                   f"starlanes rematch {offer_id} seat {seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def _status(row: OfferRow) -> str:
    """The offer's status, an open one past its time read as ``expired``."""
    if row.status == OPEN and row.expires <= now():
        return "expired"
    return row.status


def _clock(row: OfferRow) -> dict[str, Any]:
    return {"seconds": row.clock_seconds, "kind": row.clock_kind,
            "increment": row.clock_increment, "timeout": row.timeout}


# ---------------------------------------------------------------------- the offers
class OfferBook:
    """The offers of one server process, whatever their kind: their life once made
    (see the module); :class:`.social.Offers` makes them."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.store, self.service = community.store, community.service
        self.config = community.config.social
        self._lock = asyncio.Lock()
        """Offer writes of this process, one at a time (caps are counted exactly; across
        processes the challenger's or the offer's row is locked in the database)."""
        self._task: asyncio.Task[None] | None = None
        community.service.on_start.append(self.start)
        community.service.on_stop.append(self.stop)

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - one bad sweep must not end the next
                log.exception("a sweep of the offers failed")

    async def sweep(self) -> list[int]:
        """Close the offers that expired (and those whose making stopped), telling their
        players; note the accounts with a table open here as online. Returns the ids of
        the offers closed."""
        closed = await asyncio.to_thread(self._close_due)
        for row, seats, event in closed:
            await self._tell(row, seats, event)
        await self.community.friends.touch(self.community.friends.at_tables())
        return [row.id for row, _seats, _event in closed]

    def _close_due(self) -> list[tuple[OfferRow, list[OfferSeatRow], str]]:
        stamp = now()
        out = []
        with self.store.session() as s:
            due = list(s.scalars(select(OfferRow).where(
                OfferRow.status == OPEN, OfferRow.expires <= stamp).limit(SWEEP_BATCH)))
            stuck = list(s.scalars(select(OfferRow).where(
                OfferRow.status == STARTING, OfferRow.changed <= stamp - STARTING_STALE)
                .limit(SWEEP_BATCH)))
            for row, status, event in ([(r, "expired", "expired") for r in due]
                                       + [(r, "failed", "failed") for r in stuck]):
                done = s.execute(update(OfferRow).where(OfferRow.id == row.id,
                                                        OfferRow.status == row.status)
                                 .values(status=status, open_key=None, changed=stamp,
                                         reason=row.reason or (
                                             "nobody answered in time" if status == "expired"
                                             else "the game could not be made")))
                if done.rowcount == 1:
                    row.status = status
                    out.append((row, self._seats(s, row.id), event))
        return out

    # ------------------------------------------------------------------ telling
    async def _tell(self, row: OfferRow, seats: list[OfferSeatRow], event: str,
                    besides: int | None = None) -> None:
        """Hand the change ``event`` of an offer to every ``community.notifiers`` hook, for
        each account of the offer but ``besides`` (the one who acted). The event:
        ``kind`` (``challenge`` or ``rematch`` for a new offer, ``challenge_update`` or
        ``rematch_update`` for any later change), ``event`` (made, accepted, declined,
        withdrawn, expired, started, failed), ``id``, ``from``, ``game``, ``title``,
        ``status``, ``url`` (where to answer or, once started, the game) and ``offer``
        (the offer as that account reads it). A notifier's fault is logged, never raised."""
        notifiers = list(getattr(self.community, "notifiers", []))
        if not notifiers:
            return
        accounts = {a for a in [row.from_id, *(s.account_id for s in seats)]
                    if a is not None and a != besides}
        if not accounts:
            return
        names = await asyncio.to_thread(self._names, list(accounts | {
            s.account_id for s in seats if s.account_id is not None}))
        for account_id in sorted(accounts):
            view = self._view(row, seats, names, Asker(None), account_id)
            url = view["url"] or (f"/games/{row.source_game}" if row.kind == REMATCH
                                  else "/#challenges-box")
            message = {"kind": row.kind if event == "made" else f"{row.kind}_update",
                       "event": event, "id": row.id, "from": view["from"],
                       "game": row.game, "title": view["title"], "status": view["status"],
                       "url": url, "offer": view}
            for notify in notifiers:
                try:
                    await notify(account_id, message)
                except Exception:  # noqa: BLE001 - a notifier must not undo the offer
                    log.exception("a notifier failed on %s %s", row.kind, row.id)

    # ------------------------------------------------------------------ reading
    @staticmethod
    def _seats(s: Any, offer_id: int) -> list[OfferSeatRow]:
        return list(s.scalars(select(OfferSeatRow).where(OfferSeatRow.offer_id == offer_id)
                              .order_by(OfferSeatRow.seat)))

    def _names(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.store.session() as s:
            return {int(i): n for i, n in s.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids)))}

    def _load(self, offer_id: int) -> tuple[OfferRow, list[OfferSeatRow], dict[int, str]]:
        with self.store.session() as s:
            row = s.get(OfferRow, offer_id)
            if row is None:
                raise NotFound(f"there is no offer {offer_id}")
            seats = self._seats(s, offer_id)
        ids = [a for a in [row.from_id, *(x.account_id for x in seats)] if a is not None]
        return row, seats, self._names(ids)

    @staticmethod
    def _mine(seats: Sequence[OfferSeatRow], asker: Asker,
              account_id: int | None = None) -> OfferSeatRow | None:
        """The asker's seat of the offer: by account, else by the old seat its token
        proves."""
        account_id = asker.account_id if account_id is None else account_id
        for seat in seats:
            if account_id is not None and seat.account_id == account_id:
                return seat
        for seat in seats:
            if asker.seat is not None and seat.old_seat == asker.seat:
                return seat
        return None

    def _view(self, row: OfferRow, seats: list[OfferSeatRow], names: dict[int, str],
              asker: Asker, account_id: int | None = None) -> dict[str, Any]:
        """An offer as its players read it: ``{id, kind, status, game, title, players,
        rated, clock: {seconds, kind, increment, timeout}, options, from, seats: [{seat,
        name, bot, answer}], you (the asker's seat of the new game, or None), mine
        (whether the asker made the offer), your_answer, created, expires, game_id, url, reason, source_game}``."""
        held = {x.seat: x for x in seats}
        mine = self._mine(seats, asker, account_id)
        table = []
        for i, kind in enumerate(row.seats):
            holder = held.get(i)
            if holder is None:
                table.append({"seat": i, "name": f"bot {kind}", "bot": kind,
                              "answer": "accepted"})
                continue
            name = names.get(holder.account_id or 0) or holder.name or "a guest"
            table.append({"seat": i, "name": name, "bot": None, "answer": holder.answer})
        sender = names.get(row.from_id or 0) if row.from_id is not None else None
        if sender is None and row.from_seat is not None and row.from_seat < len(table):
            sender = table[row.from_seat]["name"]
        return {"id": row.id, "kind": row.kind, "status": _status(row), "game": row.game,
                "title": game_title(row.game), "players": row.players,
                "rated": bool(row.rated), "clock": _clock(row),
                "options": dict(row.options or {}), "from": sender or "a player",
                "seats": table, "you": None if mine is None else mine.seat,
                "mine": mine is not None and mine.seat == row.from_seat,
                "your_answer": None if mine is None else mine.answer,
                "created": row.created.isoformat(), "expires": row.expires.isoformat(),
                "game_id": row.game_id,
                "url": f"/games/{row.game_id}" if row.game_id else None,
                "reason": row.reason or None, "source_game": row.source_game}

    async def view(self, offer_id: int, asker: Asker, kind: str) -> dict[str, Any]:
        """The offer ``offer_id`` of ``kind`` for one of its players (NotFound, 404, for
        anyone else: an offer is nobody else's business). For the holder of an old seat's
        token, once the rematch started, ``token`` and ``link`` of the new seat
        (:meth:`seat_link`)."""
        row, seats, names = await asyncio.to_thread(self._load, offer_id)
        if row.kind != kind:
            raise NotFound(f"there is no {kind} {offer_id}")
        mine = self._mine(seats, asker)
        if mine is None and not (asker.account_id is not None
                                 and row.from_id == asker.account_id):
            raise NotFound(f"there is no {kind} {offer_id} of yours")
        out = self._view(row, seats, names, asker)
        if mine is not None and asker.token and row.status == STARTED:
            out.update(await self.seat_link(row, mine, asker.token))
        return out

    # ------------------------------------------------------------------ answering
    async def answer(self, offer_id: int, asker: Asker, accept: bool, network: str,
                     kind: str, owner: str = "") -> dict[str, Any]:
        """Accept or decline ``offer_id`` (of ``kind``) for the asker's seat; once every
        seat accepted, the game is made (:meth:`_start`). Raises NotFound (404: not the
        asker's), Stale (409: answered already, closed, expired), Forbidden (403: a rated
        game that would seat two accounts of one network), or what making the game
        refuses (the offer is then closed as failed with that reason)."""
        async with self._lock:
            row, seats, event = await asyncio.to_thread(self._answer, offer_id, asker,
                                                        accept, network, kind)
        if event == "expired":
            await self._tell(row, seats, "expired")
            raise Stale(f"this {kind} expired at {row.expires:%Y-%m-%d %H:%M} UTC: "
                        "nobody can answer it any more")
        mine = self._mine(seats, asker)
        await self._tell(row, seats, event, besides=None if mine is None else mine.account_id)
        if row.status == STARTING:
            row, seats = await self._start(row, seats, owner)
        return await self.view(offer_id, asker, kind)

    def _answer(self, offer_id: int, asker: Asker, accept: bool, network: str,
                kind: str) -> tuple[OfferRow, list[OfferSeatRow], str]:
        stamp = now()
        with self.store.session() as s:
            row = s.scalars(select(OfferRow).where(OfferRow.id == offer_id)
                            .with_for_update()).first()
            seats = [] if row is None else self._seats(s, offer_id)
            mine = None if row is None else self._mine(seats, asker)
            if row is None or row.kind != kind or mine is None:
                raise NotFound(f"you have no {kind} {offer_id}")
            if row.status == OPEN and row.expires <= stamp:
                row.status, row.open_key, row.changed = "expired", None, stamp
                row.reason = "nobody answered in time"
                return row, seats, "expired"
            if row.status != OPEN:
                raise Stale(f"this {kind} is {row.status} already"
                            + (f" ({row.reason})" if row.reason else ""))
            if mine.answer != "open":
                raise Stale(f"you have {mine.answer} this {kind} already")
            if not accept:
                mine.answer = "declined"
                row.status, row.open_key, row.changed = "declined", None, stamp
                row.reason = f"{mine.name or 'a player'} declined"
                return row, seats, "declined"
            if (row.rated and network and mine.account_id is not None
                    and not self.community.config.fair_play.rated_same_network):
                for other in seats:
                    if (other is not mine and other.answer == "accepted"
                            and other.account_id is not None and other.network == network):
                        raise Forbidden(
                            f"{other.name} accepted this rated game from your network; two "
                            "accounts playing from one network cannot meet in a rated game "
                            "(decline it and play an unrated game together instead)")
            mine.answer, mine.network = "accepted", network or mine.network
            row.changed = stamp
            if all(x.answer == "accepted" for x in seats):
                row.status = STARTING
            return row, seats, "accepted"

    async def withdraw(self, offer_id: int, asker: Asker, kind: str) -> dict[str, Any]:
        """The offer's maker withdraws it while it is open. NotFound (404) not the
        asker's offer, Stale (409) no longer open."""
        async with self._lock:
            row, seats = await asyncio.to_thread(self._withdraw, offer_id, asker, kind)
        mine = self._mine(seats, asker)
        await self._tell(row, seats, "withdrawn",
                         besides=None if mine is None else mine.account_id)
        return await self.view(offer_id, asker, kind)

    def _withdraw(self, offer_id: int, asker: Asker,
                  kind: str) -> tuple[OfferRow, list[OfferSeatRow]]:
        with self.store.session() as s:
            row = s.scalars(select(OfferRow).where(OfferRow.id == offer_id)
                            .with_for_update()).first()
            seats = [] if row is None else self._seats(s, offer_id)
            mine = None if row is None else self._mine(seats, asker)
            if (row is None or row.kind != kind or mine is None
                    or mine.seat != row.from_seat):
                raise NotFound(f"you made no {kind} {offer_id}")
            if _status(row) != OPEN:
                raise Stale(f"this {kind} is {_status(row)} already")
            row.status, row.open_key, row.changed = "withdrawn", None, now()
            row.reason = f"{mine.name or 'the player'} withdrew it"
            return row, seats

    # ------------------------------------------------------------------ making the game
    async def _start(self, row: OfferRow, seats: list[OfferSeatRow],
                     owner: str) -> tuple[OfferRow, list[OfferSeatRow]]:
        """Make the game of an offer every seat accepted: create it, then take each human
        seat for its holder (the fair-play checks run). A refusal closes the offer as
        failed with the reason (a half-made game is aborted) and is raised."""
        try:
            live = await self.service.create(
                row.game, row.players, list(row.seats), dict(row.options or {}),
                setups=list(row.setups or []), clock_seconds=row.clock_seconds,
                clock_kind=row.clock_kind, clock_increment=row.clock_increment,
                timeout=row.timeout, rated=bool(row.rated), rematch_of=row.source_game,
                owner=owner, owner_account=row.from_id, owner_network=row.network)
        except StarlanesError as e:
            await self._failed(row, seats, str(e))
            raise
        hashes: dict[int, str] = {}
        try:
            for seat in seats:
                names = await asyncio.to_thread(self._names, [seat.account_id]
                                                if seat.account_id is not None else [])
                _seat, token = await self.service.join(
                    live.id, names.get(seat.account_id or 0) or seat.name or "player",
                    seat.seat, account_id=seat.account_id, network=seat.network or None)
                hashes[seat.seat] = token_hash(token)
        except StarlanesError as e:
            with contextlib.suppress(Exception):
                await self.service.end_game(live, {"reason": "abort", "by": None,
                                                   "ranks": None})
            await self._failed(row, seats, str(e))
            raise
        await asyncio.to_thread(self._started, row.id, live.id, hashes)
        row.status, row.game_id = STARTED, live.id
        for seat in seats:
            seat.first_hash = hashes.get(seat.seat)
        await self._tell(row, seats, "started")
        return row, seats

    def _started(self, offer_id: int, game_id: str, hashes: dict[int, str]) -> None:
        with self.store.session() as s:
            s.execute(update(OfferRow).where(OfferRow.id == offer_id).values(
                status=STARTED, game_id=game_id, open_key=None, changed=now()))
            for seat in self._seats(s, offer_id):
                seat.first_hash = hashes.get(seat.seat)

    async def _failed(self, row: OfferRow, seats: list[OfferSeatRow], reason: str) -> None:
        reason = f"the game could not be made: {reason}"[:400]

        def write() -> None:
            with self.store.session() as s:
                s.execute(update(OfferRow).where(OfferRow.id == row.id).values(
                    status="failed", open_key=None, reason=reason, changed=now()))

        await asyncio.to_thread(write)
        row.status, row.reason = "failed", reason
        await self._tell(row, seats, "failed")

    async def seat_link(self, row: OfferRow, seat: OfferSeatRow,
                        old_token: str) -> dict[str, Any]:
        """``{token, link}`` of the new game's seat for the holder of the old seat's
        token: the derived token (:func:`derived_token`), put in place of the seat's first
        token the first time it is asked; ``{token: None, link: None}`` once the seat was
        given another token (its account opened it with ``my-seat``)."""
        none = {"token": None, "link": None}
        if not row.game_id:
            return none
        token = derived_token(old_token, row.id, seat.seat)
        live = await self.service.open(row.game_id)
        info = live.seats[seat.seat]
        if not token_matches(token, info.token_hash):
            if not seat.first_hash or info.token_hash != seat.first_hash:
                return none
            fresh, first = token_hash(token), seat.first_hash
            async with live.lock:
                if info.token_hash != first or not await self.service.writer.run(
                        lambda: self._swap_token(row.game_id or "", seat.seat, first, fresh)):
                    return none
                info.token_hash = fresh
        return {"token": token, "link": f"/games/{row.game_id}?token={token}"}

    def _swap_token(self, game_id: str, seat: int, old: str, new: str) -> bool:
        from ..store import SeatRow

        with self.store.session() as s:
            done = s.execute(update(SeatRow).where(
                SeatRow.game_id == game_id, SeatRow.seat == seat,
                SeatRow.token_hash == old).values(token_hash=new))
            return bool(done.rowcount)

    # ------------------------------------------------------------------ listing
    def _list(self, account_id: int, kind: str) -> list[tuple[OfferRow, list[OfferSeatRow]]]:
        """The account's offers of ``kind``: open ones, and those started in the last
        RECENT; oldest first."""
        stamp = now()
        with self.store.session() as s:
            ids = select(OfferSeatRow.offer_id).where(OfferSeatRow.account_id == account_id)
            rows = list(s.scalars(select(OfferRow).where(
                OfferRow.id.in_(ids), OfferRow.kind == kind,
                ((OfferRow.status == OPEN) & (OfferRow.expires > stamp))
                | (OfferRow.status == STARTING)
                | ((OfferRow.status == STARTED) & (OfferRow.changed > stamp - RECENT))
            ).order_by(OfferRow.id).limit(100)))
            return [(row, self._seats(s, row.id)) for row in rows]

    async def listed(self, acc: Account, kind: str) -> list[dict[str, Any]]:
        found = await asyncio.to_thread(self._list, acc.id, kind)
        ids = {a for row, seats in found
               for a in [row.from_id, *(x.account_id for x in seats)] if a is not None}
        names = await asyncio.to_thread(self._names, sorted(ids))
        return [self._view(row, seats, names, Asker(acc)) for row, seats in found]
