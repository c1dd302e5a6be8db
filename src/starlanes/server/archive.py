"""Finished games and the bounded reads of the store a process makes instead of holding
every game: the finished games kept in memory and read back when someone opens one
(:class:`FinishedGames`), and, with a cluster (:mod:`.following`), the lobby's page of
unfinished games, the games with a running clock and the newest move of watched games.

A finished game leaves ``service.games`` as soon as it ends (:mod:`.lifecycle`); the process
keeps the most recently opened ones (``finished_games_kept``) for the game-over dialog,
rematches and replays, and reads any other from the database when someone opens it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from .errors import NotFound, ServerError
from .store import ActionRow, GameRow, StoreError
from .tables import LiveGame
from .views import lobby_entry

if TYPE_CHECKING:
    from .store import Store

log = logging.getLogger("starlanes.server")

GAME_ID_CHARS = 32
"""The longest game id (``games.id``): a longer one is never looked up."""
LOBBY_OPEN_GAMES = 200
"""With a cluster: the most unfinished games the lobby lists (the newest)."""


class FinishedGames:
    """The finished games a process keeps in memory: at most ``keep``, the least recently
    opened forgotten first (they stay in ``store``, and :meth:`load` reads one back, with
    ``engine_options`` turning a game's stored options into the engine's). Thread-safe:
    routes that replay run in worker threads."""

    def __init__(self, keep: int, store: Store,
                 engine_options: Callable[[GameRow], dict[str, Any]]) -> None:
        self.keep = max(1, keep)
        self.store = store
        self.engine_options = engine_options
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()
        self.lobby: list[dict[str, Any]] = []
        """Lobby entries of the most recently finished games, newest first (set by the
        sweep, :meth:`.lifecycle.Lifecycle.refresh_lobby`)."""

    def get(self, game_id: str) -> LiveGame | None:
        with self._lock:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def put(self, live: LiveGame) -> None:
        with self._lock:
            self._games[live.id] = live
            self._games.move_to_end(live.id)
            while len(self._games) > self.keep:
                self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def load(self, game_id: str) -> LiveGame:
        """Read the finished game ``game_id`` from the store and replay it (blocking: call
        it in a thread from the event loop); it joins the games kept. Raises NotFound for
        no such game, or one that is not finished (a process holds every unfinished game
        it knows), StoreError when the database cannot be read."""
        if not game_id or len(game_id) > GAME_ID_CHARS:
            raise NotFound(f"no game {game_id[:40]!r}")
        store = self.store
        row = store.game(game_id)
        if row is None or row.ended is None:
            raise NotFound(f"no game {game_id!r}")
        live = LiveGame.rebuild(row, store.seats(game_id), store.actions(game_id),
                                self.engine_options(row))
        self.put(live)
        return live


# ---------------------------------------------------------------------- bounded queries
def read_open_page(store: Store, engine_options: Callable[[GameRow], dict[str, Any]],
                   limit: int = LOBBY_OPEN_GAMES) -> list[dict[str, Any]]:
    """The lobby entries of the ``limit`` newest unfinished games, read from the store
    (one query for the games, one for their seats, one for their move counts; the index
    on ``games.ended`` keeps it from reading finished games); ``engine_options`` turns a
    game's stored options into the engine's. Blocking."""
    with store.session() as s:
        rows = list(s.scalars(select(GameRow).where(GameRow.ended.is_(None))
                              .order_by(GameRow.created.desc()).limit(limit)))
        s.expunge_all()
    ids = [r.id for r in rows]
    seats = store.seats_of(ids)
    moves = store.moves_of(ids)
    entries = []
    for row in rows:
        try:
            live = LiveGame.rebuild(row, seats.get(row.id, []), [],
                                    engine_options(row))
        except (StoreError, ServerError) as e:
            log.warning("game %s cannot be listed: %s", row.id, e)
            continue
        entry = lobby_entry(live)
        entry["moves"] = moves.get(row.id, 0)
        entries.append(entry)
    return entries


def clocked_games(store: Store, limit: int) -> list[str]:
    """The ids of up to ``limit`` unfinished games with a turn clock, oldest first
    (what a process that becomes their owner must time). Blocking."""
    with store.session() as s:
        return list(s.scalars(select(GameRow.id).where(GameRow.ended.is_(None),
                                                       GameRow.clock_seconds > 0)
                              .order_by(GameRow.created).limit(limit)))


def newest_moves(store: Store, game_ids: list[str]) -> dict[str, tuple[int, bool]]:
    """Per game of ``game_ids``: (its number of moves, whether it has ended), in two
    queries. Blocking."""
    out: dict[str, tuple[int, bool]] = {}
    with store.session() as s:
        counts = dict(s.execute(select(ActionRow.game_id, func.count())
                                .where(ActionRow.game_id.in_(game_ids))
                                .group_by(ActionRow.game_id)).all())
        for game_id, ended in s.execute(select(GameRow.id, GameRow.ended)
                                        .where(GameRow.id.in_(game_ids))).all():
            out[game_id] = (int(counts.get(game_id, 0)), ended is not None)
    return out
