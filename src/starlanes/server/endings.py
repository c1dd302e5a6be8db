"""How a game ends other than by its rules, and when every game ended: the server's
outcomes (``GameRow.outcome``) and the ``ended`` stamp. A mixin of
:class:`.service.GameService`.

Every outcome the server decides is a dict with a ``reason``:

- ``timeout``: ``loser`` ran out of time (:mod:`.clocks`);
- ``resign``: ``loser`` resigned;
- ``abort``: the game was called off before it really began (``by``: the seat that asked,
  or None when the server's life-cycle rule did); no ranks: nobody won or lost;
- ``draw``: the seats agreed a draw (every seat shares first place);
- ``expired``: an open game whose seats were never taken; no ranks;
- ``adjudicated``: an idle game the server decided by its written rule.

``ranks`` (per seat, 0 first, equal places shared) is present for every outcome with a
result; ``abort`` and ``expired`` have ``ranks: None`` and count for nobody.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from .store import StoreError, now

if TYPE_CHECKING:
    from .store import Store
    from .tables import LiveGame
    from .writer import StoreWriter

log = logging.getLogger("starlanes.server")

NO_RESULT = frozenset({"abort", "expired"})
"""Outcomes that count for nobody: no ranks, never rated."""


class Endings:
    """The ending side of the game service (see the module)."""

    store: Store
    writer: StoreWriter
    # provided by the service
    _after_change: Any
    _catch_up: Any

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
            outcome = dict(outcome)
            ended = now()
            await self.writer.run(lambda: self.store.set_outcome(live.id, outcome, ended))
            live.row.outcome, live.row.ended = outcome, ended
            live.row.draw_offer = None
            live.version += 1
        log.info("game %s ended: %s", live.id, outcome.get("reason"))
        self._after_change(live)
        return True

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
