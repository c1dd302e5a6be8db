"""How the game service plays the bot seats of a game in a single process (a cluster's
bot seats are the bot service's, :mod:`.bot_service`): one bot after another while a bot
decides, each within its thinking budget or, once a budget is spent, as the fallback bot;
and how a bot's or the turn clock's move is stored, retried with backoff while the
database is unavailable. A mixin of :class:`.service.GameService`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from starlanes.engine import StarlanesError

from .bots import BotJob
from .catalogue import FALLBACK_BOT
from .errors import ServerError, Stale
from .store import StoreUnavailable

if TYPE_CHECKING:
    from .bots import BotPool, ClientBotTime
    from .catalogue import Catalogue
    from .config import ServerConfig
    from .tables import LiveGame

log = logging.getLogger("starlanes.server")

RETRY_FIRST, RETRY_MOST = 0.5, 30.0
"""A bot or clock move the database could not store is retried after RETRY_FIRST seconds,
then twice as long each time, at most RETRY_MOST seconds apart, until it is stored."""


class BotTurns:
    """The bot side of the game service (see the module)."""

    config: ServerConfig
    catalogue: Catalogue
    bots: BotPool
    client_bot_time: ClientBotTime
    stopping: bool
    # provided by the service: _apply(...), _push(live), _kick_clock(live),
    # _engine_options(row)
    _apply: Any
    _push: Any
    _kick_clock: Any
    _engine_options: Any


    async def _run_bots(self, live: LiveGame) -> None:
        """Play the bot seats of ``live`` while one of them decides. A bot thinks within its
        catalogue budget, and once the game's bots have spent the server's budget per game,
        or the bots of its owner's games their budget for this hour, the fallback bot (no
        search) plays for them. A move the database could not store
        is retried with backoff until it is stored (or the game moved meanwhile)."""
        while True:
            waiting = live.waiting_for()
            if waiting is None or not live.seats[waiting].is_bot:
                return
            seq = live.seq
            kind = live.seats[waiting].kind
            entry = self.catalogue.bot(kind)
            if entry is None:
                log.error("game %s: seat %s is the bot %r, which the bot catalogue does not "
                          "offer; that seat waits", live.id, waiting, kind)
                return
            spec, seconds = entry.spec, entry.seconds
            if (live.bot_seconds_used >= self.config.limits.bot_seconds_per_game
                    or self.client_bot_time.spent(live.owner) >= self.config.limits
                    .bot_seconds_per_client_hour):
                spec, seconds = FALLBACK_BOT, 0.0
            started = time.monotonic()
            try:
                notation = await self.bots.move(self._job(live, waiting, spec, seconds))
            except Exception as e:  # noqa: BLE001 - a broken bot must not stop the server
                log.error("bot of seat %s in game %s failed: %s", waiting, live.id, e)
                return
            finally:
                spent = time.monotonic() - started
                live.bot_seconds_used += spent
                self.client_bot_time.charge(live.owner, spent)
            if not await self._store_move(live, waiting, seq, notation, "bot"):
                continue  # someone undid or the clock moved first: think again
            self._push(live)
            live.restart_clock()
            self._kick_clock(live)

    def _job(self, live: LiveGame, seat: int, spec: str, seconds: float) -> BotJob:
        return BotJob(live.id, live.row.game, live.row.players, live.row.seed,
                      self._engine_options(live.row),
                      tuple(str(a) for a in live.state.history), seat, spec, seconds,
                      owner=live.owner)

    async def _store_move(self, live: LiveGame, seat: int, seq: int, notation: str,
                          by: str) -> bool:
        """Apply a bot's or the clock's move chosen at ``seq``; True once stored, False when
        the game moved meanwhile (stale) or the move was refused. While the database is
        unavailable the move is retried with backoff."""
        delay = RETRY_FIRST
        while not self.stopping:
            try:
                await self._apply(live, seat, seq, notation, by=by)
                return True
            except Stale:
                return False
            except StoreUnavailable as e:
                log.warning("game %s: the %s move of seat %s could not be stored (%s); "
                            "trying again in %.1f s", live.id, by, seat, e, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MOST)
            except (ServerError, StarlanesError) as e:
                log.error("%s move %r refused in game %s: %s", by, notation, live.id, e)
                return False
        return False
