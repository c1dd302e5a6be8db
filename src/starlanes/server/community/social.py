"""Challenges by name and rematch offers (``docs/community/social.md``).

Both are *offers*: a game's settings and its human seats, each held by a named player who
accepts or declines (:class:`.models.OfferRow`, :class:`.models.OfferSeatRow`). Once every
seat has accepted, the game is made with every seat taken by its holder (the fair-play
checks of rated games run as for any seat); one decline, a withdrawal or the expiry closes
the offer. Nothing is made until everyone accepted.

- **Challenge**: a logged-in player names one or more accounts, a game, options and a
  time control, rated or not. The seats are drawn at random. Refused at once, with the
  reason: an unknown name (404), oneself (422), a player who blocked the challenger or was
  blocked by them (403), a rated game whose clock is too short (422) or whose pair met too
  often today (403), the challenger's quota of unfinished games (429), more than
  ``social.open_challenges`` challenges waiting or ``social.challenges_per_hour`` sent in
  the last hour (429). It expires after ``social.challenge_hours``.
- **Rematch offer** of a finished game, by one of its seats (its seat token, or the
  logged-in account holding it): the same game, options and clock, rated if the first
  was, seats rotated one place (:meth:`..service.GameService.rematch`), each held by the
  holder of the old seat (accounts keep their account; a guest is whoever holds the old
  seat's token). ``POST /api/games/{id}/rematch`` while an offer is open accepts it. The
  offer expires after ``social.rematch_offer_minutes``; a game has at most
  ``social.rematch_offers_per_game`` offers. A game with one human seat starts at once.

The new game's seats are made with tokens nobody holds. An account opens its seat as any
of its games (``POST /api/games/{id}/my-seat``); the holder of an old seat's token gets
the new seat's token from ``GET /api/games/{old id}/rematch`` with it: the token is
derived from the old one (an HMAC of the offer and seat keyed with the old token), so
every page holding the old token gets the same new one and the database keeps no token.

Each change (made, accepted, declined, withdrawn, expired, started, failed) is handed to
every ``community.notifiers`` hook for each account it concerns. Every ``sweep_seconds``
each process closes the offers that expired and notes who has a table open (presence).

This module makes the two kinds of offer and serves their routes; the life an offer has
once made (answers, expiry, the game made, the telling) is :mod:`.offers`'.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select

from starlanes.engine import game_class, load

from .. import clocks
from ..errors import Forbidden, NotFound, Stale, TooMany, Unauthorized, Unprocessable
from ..limits import client_address, network_key, rate_key
from ..store import StoreConflict, now
from ..tables import HUMAN
from .friends import block_between
from .identity import (
    CSRF_HEADER,
    Account,
    account,
    find_account,
    optional_account,
    writing_account,
)
from .models import ROW_ID_MAX, AccountRow, OfferRow, OfferSeatRow
from .offers import CHALLENGE, OPEN, REMATCH, STARTING, Asker, OfferBook

if TYPE_CHECKING:
    from ..tables import LiveGame
    from . import Community

MAX_NAMED = 15
"""The most players one challenge names."""

RowId = Annotated[int, PathParam(ge=1, le=ROW_ID_MAX)]


# ---------------------------------------------------------------------- the offers
class Offers(OfferBook):
    """Challenges and rematch offers of one server process (see the module): how each is
    made; the rest of their life is :class:`.offers.OfferBook`'s."""

    # ------------------------------------------------------------------ challenges
    async def challenge(self, acc: Account, names: list[str], game: str,
                        players: int | None, options: dict[str, Any], clock_seconds: float,
                        clock_kind: str, clock_increment: float, timeout: str, rated: bool,
                        network: str, owner: str = "") -> dict[str, Any]:
        """``acc`` challenges the accounts ``names`` to ``game`` (``players``: 1 + the
        number named; None: that) with ``options`` and the clock; the seats are drawn at
        random. Returns the challenge (:meth:`_view`). Refusals, before anything is stored:
        see the module."""
        names = [" ".join(str(n).split()) for n in names]
        if not names:
            raise Unprocessable("name the player you challenge")
        if len(names) > MAX_NAMED:
            raise Unprocessable(f"a challenge names at most {MAX_NAMED} players")
        game = self.service.catalogue.check_game(game)
        cls = game_class(game)
        n = 1 + len(names)
        if players is not None and players != n:
            raise Unprocessable(f"a challenge of {len(names)} named player"
                                f"{'s' if len(names) > 1 else ''} is a game of {n} players; "
                                "name every other player")
        if not cls.min_players <= n <= cls.max_players:
            raise Unprocessable(f"{cls.title} is played by {cls.min_players} to "
                                f"{cls.max_players} players")
        limits = self.community.config.limits
        if not 0 <= clock_seconds <= limits.max_clock_seconds:
            raise Unprocessable(f"clock_seconds must lie in 0..{limits.max_clock_seconds:g}")
        clocks.check_settings(clock_seconds, clock_kind, clock_increment, timeout,
                              limits.max_clock_seconds)
        if rated:
            clocks.check_rated(clock_seconds, clock_kind, self.community.config.fair_play)
        opts = self.service.catalogue.check_options(game, options)
        engine = self.service.catalogue.engine_options(game, opts)
        await asyncio.to_thread(load, game, players=n, seed=0, **engine)  # 400: its reason
        spec = {"game": game, "players": n, "options": opts, "clock_seconds": clock_seconds,
                "clock_kind": clock_kind, "clock_increment": clock_increment,
                "timeout": timeout, "rated": rated}
        async with self._lock:
            await self.service.check_quota(acc.id, network)  # 429 while its quota is full
            row, seats = await asyncio.to_thread(self._insert_challenge, acc, names, spec,
                                                 network)
        await self._tell(row, seats, "made", besides=acc.id)
        return await self.view(row.id, Asker(acc), CHALLENGE)

    def _targets(self, acc: Account, names: list[str]) -> list[AccountRow]:
        """The accounts named, in order: NotFound (404) an unknown name, Unprocessable
        (422) oneself or a name given twice, Forbidden (403) a suspended account or a
        block between it and ``acc``."""
        with self.store.session() as s:
            found: list[AccountRow] = []
            for name in names:
                target = find_account(s, name)
                if target is None:
                    raise NotFound(f"no player is called {name[:40]!r}")
                if target.id == acc.id:
                    raise Unprocessable("you cannot challenge yourself")
                if any(t.id == target.id for t in found):
                    raise Unprocessable(f"{target.name} is named twice")
                if target.suspended:
                    raise Forbidden(f"{target.name} cannot play now")
                found.append(target)
            block = block_between(s, acc.id, [t.id for t in found])
            if block is not None:
                other = next(t.name for t in found if t.id in block)
                raise Forbidden(f"you blocked {other}: unblock them first"
                                if block[0] == acc.id else
                                f"{other} does not take challenges from you")
            return found

    def _check_pairs(self, accounts: list[int], besides: str = "") -> None:
        """Forbidden (403) when two of ``accounts`` met in the most rated games a day."""
        fair = self.community.fair_play
        cap = self.community.config.fair_play.rated_pair_games_per_day
        ids = sorted(set(accounts))
        names = self._names(ids)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                met = fair.games_together(a, b, besides)
                if met >= cap:
                    raise Forbidden(
                        f"{names.get(a, 'a player')} and {names.get(b, 'a player')} have met "
                        f"in {met} rated games in the last 24 hours, the most this server "
                        "rates; play an unrated game, or meet again tomorrow")

    def _insert_challenge(self, acc: Account, names: list[str], spec: dict[str, Any],
                          network: str) -> tuple[OfferRow, list[OfferSeatRow]]:
        targets = self._targets(acc, names)
        if spec["rated"]:
            self._check_pairs([acc.id, *(t.id for t in targets)])
        stamp = now()
        key = f"c:{acc.id}:" + ",".join(str(i) for i in sorted(t.id for t in targets))
        with self.store.session() as s:
            # the challenger's row, locked where the database can: its caps count exactly
            s.scalars(select(AccountRow.id).where(AccountRow.id == acc.id)
                      .with_for_update()).first()
            mine = (OfferRow.kind == CHALLENGE, OfferRow.from_id == acc.id)
            waiting = s.scalar(select(func.count()).select_from(OfferRow).where(
                *mine, OfferRow.status == OPEN, OfferRow.expires > stamp)) or 0
            if waiting >= self.config.open_challenges:
                raise TooMany(f"you have {waiting} challenges waiting for an answer, the most "
                              "at once; withdraw one or wait for the answers")
            sent = s.scalar(select(func.count()).select_from(OfferRow).where(
                *mine, OfferRow.created > stamp - dt.timedelta(hours=1))) or 0
            if sent >= self.config.challenges_per_hour:
                raise TooMany(f"you have sent {sent} challenges in the last hour, the most "
                              "this server takes; try again later")
            same = s.scalars(select(OfferRow).where(OfferRow.open_key == key)).first()
            if same is not None:
                if same.expires > stamp:
                    raise Stale(f"you already challenged {', '.join(t.name for t in targets)}"
                                "; wait for the answer or withdraw that challenge")
                same.status, same.open_key, same.changed = "expired", None, stamp
                same.reason = "nobody answered in time"
                s.flush()
            people: list[tuple[int, str]] = [(acc.id, acc.name),
                                             *((t.id, t.name) for t in targets)]
            random.SystemRandom().shuffle(people)
            row = OfferRow(kind=CHALLENGE, from_id=acc.id, game=spec["game"],
                           players=spec["players"], seats=[HUMAN] * spec["players"],
                           options=spec["options"], setups=[],
                           clock_seconds=spec["clock_seconds"], clock_kind=spec["clock_kind"],
                           clock_increment=spec["clock_increment"], timeout=spec["timeout"],
                           rated=spec["rated"], created=stamp, changed=stamp,
                           expires=stamp + dt.timedelta(hours=self.config.challenge_hours),
                           status=OPEN, open_key=key, network=network[:64])
            s.add(row)
            s.flush()
            seats = []
            for i, (account_id, name) in enumerate(people):
                me = account_id == acc.id
                seat = OfferSeatRow(offer_id=row.id, seat=i, account_id=account_id,
                                    name=name, answer="accepted" if me else "open",
                                    network=network[:64] if me else None)
                if me:
                    row.from_seat = i
                s.add(seat)
                seats.append(seat)
            s.flush()
            return row, seats

    async def challenges(self, acc: Account) -> dict[str, Any]:
        """``{"received": [...], "sent": [...]}``: the account's open challenges (and
        those started in the last minutes), each as :meth:`_view`."""
        views = await self.listed(acc, CHALLENGE)
        sent = [v for v in views if v["mine"]]
        received = [v for v in views if not v["mine"]]
        return {"received": received, "sent": sent}

    # ------------------------------------------------------------------ rematches
    async def asker_of(self, live: LiveGame, token: str | None,
                       acc: Account | None) -> Asker:
        """Who asks about the finished game ``live``: the seat of ``token`` (401 for a
        wrong one), else the logged-in account's first seat there; Unauthorized (401)
        for neither, Forbidden (403) for an account holding no seat."""
        if token:
            return Asker(acc, self.service.seat_of(live, token), token)
        if acc is None:
            raise Unauthorized("no seat token: open the game with your seat link, or log in")
        seats = [s.seat for s in live.seats if s.account_id == acc.id]
        if not seats:
            raise Forbidden("only a player seated in this game may offer or answer a rematch")
        return Asker(acc, seats[0])

    async def offer_rematch(self, game_id: str, token: str | None, acc: Account | None,
                            network: str, owner: str = "") -> dict[str, Any]:
        """Offer a rematch of the finished game ``game_id`` to its other seats (or accept
        the open offer): see the module. Returns the offer (:meth:`view`; with the new
        seat's ``token`` and ``link`` once it started and a token was given). Raises
        Unauthorized (401), Forbidden (403: not over, a seat never taken, a deleted or
        blocked player, a rated pair that met too often), TooMany (429: the quota, the
        offers of this game), Unprocessable (422: a rated clock the server no longer
        takes)."""
        live = await self.service.open(game_id)
        asker = await self.asker_of(live, token, acc)
        settings = self.service.rematch(live)  # 403 while the game goes on
        n = len(live.seats)
        for info in live.seats:
            if info.is_open:
                raise Forbidden(f"seat {info.seat} of this game was never taken: a rematch "
                                "is for the same players; start a new game instead")
        if settings["rated"]:
            clocks.check_rated(settings["clock_seconds"], settings["clock_kind"],
                               self.community.config.fair_play)
        holders = [(s.seat, s.account_id, s.name, s.network) for s in live.seats
                   if not s.is_bot]
        async with self._lock:
            found = await asyncio.to_thread(self._open_rematch, game_id)
            if found is not None:  # an offer is open: this is an answer to it
                offer_id = found
            else:
                # the game will be the seat's account's (the quota it counts for)
                holder = next((a for old, a, _n, _w in holders if old == asker.seat), None)
                await self.service.check_quota(holder, network)
                row, seats = await asyncio.to_thread(
                    self._insert_rematch, game_id, asker, settings, holders, n, network)
                offer_id = row.id
        if found is not None:
            return await self.answer(offer_id, asker, True, network, REMATCH, owner)
        actor = next((a for old, a, _name, _net in holders if old == asker.seat), None)
        await self._tell(row, seats, "made", besides=actor)
        if row.status == STARTING:
            await self._start(row, seats, owner)
        return await self.view(offer_id, asker, REMATCH)

    def _open_rematch(self, game_id: str) -> int | None:
        with self.store.session() as s:
            row = s.scalars(select(OfferRow).where(OfferRow.open_key == f"r:{game_id}")).first()
            if row is None:
                return None
            if row.status == OPEN and row.expires <= now():
                row.status, row.open_key, row.changed = "expired", None, now()
                row.reason = "nobody answered in time"
                return None
            return row.id

    def _insert_rematch(self, game_id: str, asker: Asker, settings: dict[str, Any],
                        holders: list[tuple[int, int | None, str, str | None]], n: int,
                        network: str) -> tuple[OfferRow, list[OfferSeatRow]]:
        accounts = [a for _seat, a, _name, _net in holders if a is not None]
        mine = next((h for h in holders if h[0] == asker.seat), None)
        if mine is None:
            raise Forbidden("only a player seated in this game may offer a rematch")
        with self.store.session() as s:
            made = s.scalar(select(func.count()).select_from(OfferRow).where(
                OfferRow.source_game == game_id)) or 0
            if made >= self.config.rematch_offers_per_game:
                raise TooMany(f"this game has had {made} rematch offers, the most one game "
                              "may have; start a new game or challenge the players instead")
            gone = list(s.scalars(select(AccountRow).where(
                AccountRow.id.in_(accounts),
                AccountRow.deleted.is_(True) | AccountRow.suspended.is_(True))))
            if gone:
                raise Forbidden(f"{'a player' if gone[0].deleted else gone[0].name} of this "
                                "game cannot play now: no rematch")
            if mine[1] is not None:
                block = block_between(s, mine[1], accounts)
                if block is not None:
                    names = {int(i): nm for i, nm in s.execute(
                        select(AccountRow.id, AccountRow.name)
                        .where(AccountRow.id.in_(list(block))))}
                    raise Forbidden(f"you blocked {names.get(block[1], 'a player')}: unblock "
                                    "them first" if block[0] == mine[1] else
                                    f"{names.get(block[0], 'a player')} does not take "
                                    "rematch offers from you")
        if settings["rated"]:
            self._check_pairs(accounts)
        stamp = now()
        try:
            with self.store.session() as s:
                row = OfferRow(kind=REMATCH, from_id=mine[1], source_game=game_id,
                               from_seat=(mine[0] + 1) % n, game=settings["game"],
                               players=settings["players"], seats=settings["seats"],
                               options=settings["options"], setups=settings["setups"],
                               clock_seconds=settings["clock_seconds"],
                               clock_kind=settings["clock_kind"],
                               clock_increment=settings["clock_increment"],
                               timeout=settings["timeout"], rated=settings["rated"],
                               created=stamp, changed=stamp, status=OPEN,
                               expires=stamp + dt.timedelta(
                                   minutes=self.config.rematch_offer_minutes),
                               open_key=f"r:{game_id}", network=network[:64])
                s.add(row)
                s.flush()
                seats = []
                for old, account_id, name, net in holders:
                    me = old == mine[0]
                    seat = OfferSeatRow(offer_id=row.id, seat=(old + 1) % n, old_seat=old,
                                        account_id=account_id, name=name,
                                        answer="accepted" if me else "open",
                                        network=(network[:64] or net) if me else net)
                    s.add(seat)
                    seats.append(seat)
                if all(x.answer == "accepted" for x in seats):
                    row.status = STARTING
                s.flush()
                seats.sort(key=lambda x: x.seat)
                return row, seats
        except StoreConflict:
            raise Stale("a rematch of this game was offered a moment ago: answer it") from None

    async def latest_rematch(self, game_id: str, token: str | None,
                             acc: Account | None) -> dict[str, Any]:
        """The latest rematch offer of the finished game for one of its seats
        (:meth:`view`), or ``{"status": "none"}``."""
        live = await self.service.open(game_id)
        asker = await self.asker_of(live, token, acc)
        offer_id = await asyncio.to_thread(self._latest_rematch, game_id)
        if offer_id is None:
            return {"status": "none"}
        return await self.view(offer_id, asker, REMATCH)

    def _latest_rematch(self, game_id: str) -> int | None:
        with self.store.session() as s:
            return s.scalars(select(OfferRow.id).where(OfferRow.source_game == game_id)
                             .order_by(OfferRow.id.desc()).limit(1)).first()


# ---------------------------------------------------------------------- routes
class ChallengeBody(BaseModel):
    """A challenge: whom (``name``, or ``names`` for a game of more players), the game,
    its options and time control, rated or not."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=64)
    names: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default=[], max_length=MAX_NAMED)
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=2, le=16)
    options: dict[str, Any] = {}
    clock_seconds: float = Field(default=0.0, ge=0)
    clock_kind: str = Field(default="move", max_length=16)
    clock_increment: float = Field(default=0.0, ge=0)
    timeout: str = Field(default="bot", max_length=16)
    rated: bool = False


Writer = Annotated[Account, Depends(writing_account)]
Reader = Annotated[Account, Depends(account)]
MaybeAccount = Annotated[Account | None, Depends(optional_account)]


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return (value.strip() or None) if scheme.lower() == "bearer" else None


def seat_or_account(request: Request) -> Account | None:
    """The account of a rematch request: with a seat token, the session's account if
    there is one (the token speaks); without, the CSRF-checked account (401, 403)."""
    if _bearer(request):
        if CSRF_HEADER in request.headers:
            return writing_account(request)
        return optional_account(request)
    if optional_account(request) is None:
        raise Unauthorized("no seat token: open the game with your seat link, or log in")
    return writing_account(request)


SeatWriter = Annotated[Account | None, Depends(seat_or_account)]


def router(community: Community, web: Path) -> APIRouter:
    """``/api/challenges...``, ``/api/rematches...`` and ``GET /api/games/{id}/rematch``
    (``POST`` is the game routes', :mod:`..app`)."""
    r = APIRouter()
    offers: Offers = community.offers
    proxies = community.config.proxy_networks()

    def client(request: Request) -> tuple[str, str]:
        address = client_address(request.scope, proxies)
        return network_key(address), rate_key(address)

    async def asker(offer_id: int, request: Request, acc: Account | None) -> Asker:
        """For a rematch: the old seat the request's token proves (and the account)."""
        token = _bearer(request)
        if not token:
            if acc is None:
                raise Unauthorized("log in, or open the game with your seat link")
            return Asker(acc)
        row, _seats, _names = await asyncio.to_thread(offers._load, offer_id)
        if row.source_game is None:
            return Asker(acc)
        live = await community.service.open(row.source_game)
        return Asker(acc, community.service.seat_of(live, token), token)

    @r.post("/api/challenges", status_code=201)
    async def challenge(body: ChallengeBody, acc: Writer, request: Request) -> dict[str, Any]:
        """Challenge a player (or several) by name -> the challenge."""
        names = ([body.name] if body.name else []) + list(body.names)
        network, owner = client(request)
        await community.friends.touch([acc.id])
        return await offers.challenge(acc, names, body.game, body.players, body.options,
                                      body.clock_seconds, body.clock_kind,
                                      body.clock_increment, body.timeout, body.rated,
                                      network, owner)

    @r.get("/api/challenges")
    async def challenges(acc: Reader) -> dict[str, Any]:
        """``{"received": [...], "sent": [...]}``."""
        await community.friends.touch([acc.id])
        return await offers.challenges(acc)

    @r.get("/api/challenges/{offer_id}")
    async def one_challenge(offer_id: RowId, acc: Reader) -> dict[str, Any]:
        return await offers.view(offer_id, Asker(acc), CHALLENGE)

    @r.post("/api/challenges/{offer_id}/accept")
    async def accept_challenge(offer_id: RowId, acc: Writer,
                               request: Request) -> dict[str, Any]:
        network, owner = client(request)
        return await offers.answer(offer_id, Asker(acc), True, network, CHALLENGE, owner)

    @r.post("/api/challenges/{offer_id}/decline")
    async def decline_challenge(offer_id: RowId, acc: Writer,
                                request: Request) -> dict[str, Any]:
        network, owner = client(request)
        return await offers.answer(offer_id, Asker(acc), False, network, CHALLENGE, owner)

    @r.delete("/api/challenges/{offer_id}")
    async def withdraw_challenge(offer_id: RowId, acc: Writer) -> dict[str, Any]:
        return await offers.withdraw(offer_id, Asker(acc), CHALLENGE)

    @r.get("/api/rematches")
    async def rematches(acc: Reader) -> dict[str, Any]:
        """``{"offers": [...]}``: the account's open rematch offers (and those started in
        the last minutes)."""
        await community.friends.touch([acc.id])
        return {"offers": await offers.listed(acc, REMATCH)}

    @r.get("/api/rematches/{offer_id}")
    async def one_rematch(offer_id: RowId, request: Request,
                          acc: MaybeAccount) -> dict[str, Any]:
        return await offers.view(offer_id, await asker(offer_id, request, acc), REMATCH)

    @r.post("/api/rematches/{offer_id}/accept")
    async def accept_rematch(offer_id: RowId, request: Request,
                             acc: SeatWriter) -> dict[str, Any]:
        network, owner = client(request)
        return await offers.answer(offer_id, await asker(offer_id, request, acc), True,
                                   network, REMATCH, owner)

    @r.post("/api/rematches/{offer_id}/decline")
    async def decline_rematch(offer_id: RowId, request: Request,
                              acc: SeatWriter) -> dict[str, Any]:
        network, owner = client(request)
        return await offers.answer(offer_id, await asker(offer_id, request, acc), False,
                                   network, REMATCH, owner)

    @r.delete("/api/rematches/{offer_id}")
    async def withdraw_rematch(offer_id: RowId, request: Request,
                               acc: SeatWriter) -> dict[str, Any]:
        return await offers.withdraw(offer_id, await asker(offer_id, request, acc), REMATCH)

    @r.get("/api/games/{game_id}/rematch")
    async def latest(game_id: str, request: Request, acc: MaybeAccount) -> dict[str, Any]:
        """The game's latest rematch offer for one of its seats (its token, or the
        account holding it), with the new seat's token for the token's holder once it
        started; ``{"status": "none"}`` when there is none."""
        if acc is not None:
            await community.friends.touch([acc.id])
        return await offers.latest_rematch(game_id, _bearer(request), acc)

    return r
