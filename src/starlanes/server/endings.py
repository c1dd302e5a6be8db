"""How the game service ends a game other than by its rules, and when every game ended:
the server's outcomes (``GameRow.outcome``) stored, then made live, and the ``ended``
stamp; a seat's way out of a game (resign, abort, draw offers) and the standing draw offer
(``GameRow.draw_offer``) kept in step with the store. A mixin of
:class:`.service.GameService`. The rules (each outcome, what a seat may do when) are
:mod:`.outcomes`'.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from .errors import Forbidden, Stale, Unauthorized, Unprocessable
from .outcomes import draw_refusal, resign_outcome, standing_offer
from .store import GameRow, StoreError, now

if TYPE_CHECKING:
    from .cluster import Cluster
    from .store import Store
    from .tables import LiveGame
    from .writer import StoreWriter

log = logging.getLogger("starlanes.server")


# ---------------------------------------------------------------------- storing
def _write_offer(store: Store, game_id: str, offer: dict[str, int] | None) -> None:
    """Store ``games.draw_offer`` (None: no offer). Raises StoreError."""
    with store.session() as s:
        row = s.get(GameRow, game_id)
        if row is not None:
            row.draw_offer = None if offer is None else dict(offer)


def read_ending(store: Store, game_id: str) -> tuple[Any, Any, Any] | None:
    """The stored ``(outcome, ended, draw_offer)`` of a game, None for no such game.
    Blocking (a thread)."""
    row = store.game(game_id)
    return None if row is None else (row.outcome, row.ended, row.draw_offer)


def take_ending(live: LiveGame, stored: tuple[Any, Any, Any] | None) -> None:
    """Make ``stored`` (:func:`read_ending`) the game's outcome, ``ended`` and draw offer:
    with a cluster, another process may have ended the game or stored or cleared an
    offer. Call it holding ``live.lock``."""
    if stored is None:
        return
    if stored != (live.row.outcome, live.row.ended, live.row.draw_offer):
        live.row.outcome, live.row.ended, live.row.draw_offer = stored
        live.version += 1


class Endings:
    """The ending side of the game service (see the module)."""

    store: Store
    writer: StoreWriter
    cluster: Cluster | None
    # provided by the service
    _after_change: Any
    _catch_up: Any
    live: Any
    seat_of: Any

    # ------------------------------------------------------------------ the core
    async def end_game(self, live: LiveGame, outcome: dict[str, Any],
                       seq: int | None = None) -> bool:
        """End ``live`` with ``outcome`` (a dict as in the module docstring), stored with
        the moment it ended before anything changes in memory; then every viewer is sent
        the result. ``seq``: the move the ending was decided at; when the game moved since
        (or is already over) nothing happens and False comes back. Raises StoreError when
        the database refuses (nothing changed then)."""
        async with live.lock:
            await self._catch_up(live)
            if live.over or (seq is not None and live.seq != seq):
                return False
            await self._end(live, outcome)
        self._after_change(live)
        return True

    async def _end(self, live: LiveGame, outcome: dict[str, Any]) -> None:
        """Store ``outcome`` with the moment the game ended (and the end of any draw
        offer), then make it the live result. Call it holding ``live.lock``."""
        outcome = dict(outcome)
        ended = now()
        offer = live.row.draw_offer

        def write() -> None:
            self.store.set_outcome(live.id, outcome, ended)
            if offer is not None:
                _write_offer(self.store, live.id, None)

        await self.writer.run(write)
        live.row.outcome, live.row.ended = outcome, ended
        live.row.draw_offer = None
        live.version += 1
        log.info("game %s ended: %s", live.id, outcome.get("reason"))

    async def _seat(self, game_id: str, token: str | None) -> tuple[LiveGame, int]:
        """The game and the seat of ``token`` in it (with a cluster, after catching up
        when the seat was taken on another process). Raises NotFound, Unauthorized."""
        live = self.live(game_id)
        try:
            return live, self.seat_of(live, token)
        except Unauthorized:
            if self.cluster is None or not token:
                raise
            async with live.lock:
                await self._catch_up(live)
            return live, self.seat_of(live, token)

    # ------------------------------------------------------------------ resign, abort
    async def resign(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The seat of ``token`` resigns: it is placed last and the game ends (the other
        seats placed by the current scores); returns the outcome. Raises Unauthorized,
        Forbidden (the game is over) or StoreError, changing nothing."""
        live, seat = await self._seat(game_id, token)
        async with live.lock:
            await self._catch_up(live)
            if live.over:
                raise Forbidden("the game is over")
            outcome = resign_outcome(live, seat)
            await self._end(live, outcome)
        self._after_change(live)
        return outcome

    async def abort(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The seat of ``token`` calls the game off before its first decision: nobody wins
        or loses (``{"reason": "abort", "by": seat, "ranks": None}``); returns the outcome.
        Raises Unauthorized, Forbidden (the game is over, or the seat has decided) or
        StoreError, changing nothing."""
        live, seat = await self._seat(game_id, token)
        async with live.lock:
            await self._catch_up(live)
            if live.over:
                raise Forbidden("the game is over")
            if live.has_moved(seat):
                raise Forbidden("you have made a move already: a game can be aborted only "
                                "before your first decision (resign to leave it)")
            outcome: dict[str, Any] = {"reason": "abort", "by": seat, "ranks": None}
            await self._end(live, outcome)
        self._after_change(live)
        return outcome

    # ------------------------------------------------------------------ draws
    async def offer_draw(self, game_id: str, token: str | None) -> dict[str, int]:
        """The seat of ``token`` offers a draw, standing until the other seat answers or a
        move is made; returns the offer (``{"seat", "seq"}``). Raises Unauthorized,
        Unprocessable (not a two-player game; the other seat is a bot), Forbidden (the game
        is over; the other seat is open), Stale (an offer stands already) or StoreError,
        changing nothing."""
        live, seat = await self._seat(game_id, token)
        async with live.lock:
            await self._catch_up(live)
            refusal = draw_refusal(live, seat)
            if refusal is not None:
                kind, reason = refusal
                raise kind(reason)
            offer = {"seat": seat, "seq": live.seq}
            await self.writer.run(lambda: _write_offer(self.store, live.id, offer))
            live.row.draw_offer = offer
            live.version += 1
        log.info("game %s: seat %s offered a draw", live.id, seat)
        self._after_change(live)
        return offer

    async def answer_draw(self, game_id: str, token: str | None,
                          accept: bool) -> dict[str, Any] | None:
        """The seat of ``token`` accepts (the game is drawn: the outcome comes back) or
        declines (the offer is gone: None comes back) the other seat's standing draw offer.
        Raises Unauthorized, Unprocessable (not a two-player game), Forbidden (the game is
        over; the offer is the seat's own), Stale (no offer stands) or StoreError,
        changing nothing."""
        live, seat = await self._seat(game_id, token)
        async with live.lock:
            await self._catch_up(live)
            if live.over:
                raise Forbidden("the game is over")
            if live.row.players != 2:
                raise Unprocessable("draw offers are for two-player games")
            offer = standing_offer(live)
            if offer is None:
                raise Stale("no draw offer stands (a move made after an offer withdraws "
                            "it); look at the board again")
            if offer["seat"] == seat:
                raise Forbidden("this draw offer is your own: the other player answers "
                                "it (your next move withdraws it)")
            if not accept:
                await self.writer.run(lambda: _write_offer(self.store, live.id, None))
                live.row.draw_offer = None
                live.version += 1
                result = None
            else:
                result = {"reason": "draw", "ranks": [0] * live.row.players}
                await self._end(live, result)
        log.info("game %s: seat %s %s the draw", live.id, seat,
                 "accepted" if accept else "declined")
        self._after_change(live)
        return result

    async def withdraw_draw(self, live: LiveGame) -> None:
        """A move was made (or taken back) in ``live``: an offer made before it is
        withdrawn, in memory and in the store. Call it holding ``live.lock``, after the
        move is live. A store fault is only logged: an offer made at another move never
        stands (:func:`standing_offer`)."""
        if live.row.draw_offer is None:
            return
        live.row.draw_offer = None
        try:
            await self.writer.run(lambda: _write_offer(self.store, live.id, None))
        except StoreError as e:
            log.warning("game %s: the withdrawn draw offer could not be cleared in the "
                        "store (%s)", live.id, e)

    # ------------------------------------------------------------------ ended stamp
    def note_ended(self, live: LiveGame) -> None:
        """Stamp ``ended`` on a game its rules just ended (in the background: the result
        is already stored as its last action)."""
        if live.row.ended is not None or not live.over:
            return
        ended = live.row.ended = now()

        async def stamp() -> None:
            try:
                await self.writer.run(lambda: self.store.set_ended(live.id, ended))
            except StoreError as e:  # the ended stamp comes back at the next start
                log.warning("game %s: when it ended could not be stored (%s)", live.id, e)

        task = asyncio.get_running_loop().create_task(stamp())
        _KEEP.add(task)
        task.add_done_callback(_KEEP.discard)


_KEEP: set[asyncio.Task[None]] = set()
