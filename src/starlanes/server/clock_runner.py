"""The turn clocks at work: one task per game whose clock runs sleeps until the running
seat's deadline (:func:`.clocks.deadline`), then makes the fallback bot decide for the seat
(``timeout`` ``bot``) or ends the game (``lose``: :func:`.outcomes.timeout_outcome`, or
:func:`.outcomes.never_moved_outcome` for a seat that never moved).

The runner belongs to the game service (``service.clocks``), which it reaches only through
:class:`ClockHost`: what it asks of the service, not the service itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from starlanes.engine import StarlanesError

from . import clocks
from .catalogue import FALLBACK_BOT
from .errors import ServerError
from .outcomes import never_moved_outcome, timeout_outcome
from .store import StoreError, now

if TYPE_CHECKING:
    from .bots import BotJob, BotPool
    from .store import Store
    from .tables import LiveGame
    from .writer import StoreWriter

log = logging.getLogger("starlanes.server")

POLL = 1.0
"""Seconds a clock task sleeps at most before it looks at its deadline again."""


class ClockHost(Protocol):
    """What a clock task asks of the game service (:class:`.service.GameService`): whether
    it stops, its bots, store and store writer; a bot job for a seat; storing a move chosen
    at a move number (True once stored); catching a game up with the store; and what
    follows a change (views pushed, clocks and bots run on)."""

    stopping: bool
    bots: BotPool
    store: Store
    writer: StoreWriter

    def _job(self, live: LiveGame, seat: int, spec: str, seconds: float) -> BotJob: ...

    async def _store_move(self, live: LiveGame, seat: int, seq: int, notation: str,
                          by: str) -> bool: ...

    async def _catch_up(self, live: LiveGame) -> None: ...

    def _after_change(self, live: LiveGame, push: bool = True) -> None: ...


class ClockRunner:
    """One task per game whose clock runs: it sleeps until the deadline, then makes the
    fallback bot decide (``timeout`` ``bot``) or ends the game (``lose``)."""

    def __init__(self, service: ClockHost) -> None:
        self.service = service
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def running(self, game_id: str) -> bool:
        """Whether a task is watching the game's clock."""
        task = self.tasks.get(game_id)
        return task is not None and not task.done()

    def kick(self, live: LiveGame) -> None:
        """Start the game's clock task if its clock runs and no task is watching it."""
        if live.clock_deadline is not None and not self.running(live.id):
            self.tasks[live.id] = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: LiveGame) -> None:
        service = self.service
        while live.clock_deadline is not None and not service.stopping:
            delay = live.clock_deadline - clocks.wall()
            if delay > 0:
                await asyncio.sleep(min(delay, POLL))
                live.restart_clock()  # (a clock read from the store may have moved)
                continue
            seat, seq = clocks.running_seat(live), live.seq
            if seat is None:
                return
            if live.row.timeout == "lose":
                done = await self._lose(live, seat, seq)
            else:
                done = await self._bot(live, seat, seq)
            if done is None:
                return
            if not done and live.seq == seq and not live.over:
                await asyncio.sleep(POLL)  # refused or not stored: look again later
                live.restart_clock()

    async def _bot(self, live: LiveGame, seat: int, seq: int) -> bool | None:
        service = self.service
        try:
            notation = await service.bots.move(service._job(live, seat, FALLBACK_BOT, 0.0))
        except Exception as e:  # noqa: BLE001 - a broken clock must not stop the server
            log.error("turn clock move of seat %s in game %s failed: %s", seat, live.id, e)
            return None
        stored = await service._store_move(live, seat, seq, notation, "clock")
        service._after_change(live)
        return stored

    async def _lose(self, live: LiveGame, seat: int, seq: int) -> bool:
        service = self.service
        async with live.lock:
            try:
                await service._catch_up(live)
            except (StoreError, ServerError, StarlanesError) as e:
                log.warning("game %s could not be caught up: %s", live.id, e)
                return False
            live.restart_clock()
            if (live.over or live.seq != seq or clocks.running_seat(live) != seat
                    or live.clock_deadline is None or live.clock_deadline > clocks.wall()):
                return False
            outcome = (timeout_outcome(live, seat) if live.has_moved(seat)
                       else never_moved_outcome(seat))
            ended = now()
            try:
                await service.writer.run(
                    lambda: service.store.set_outcome(live.id, outcome, ended))
            except StoreError as e:
                log.warning("game %s: the timeout of seat %s could not be stored (%s)",
                            live.id, seat, e)
                return False
            live.row.outcome, live.row.ended = outcome, ended
            live.version += 1
        log.info("game %s: seat %s ran out of time (%s)", live.id, seat, outcome["reason"])
        service._after_change(live)
        return True
