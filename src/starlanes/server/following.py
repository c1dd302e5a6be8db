"""How a web process of a cluster (``starlanes serve --redis``) follows the games other
processes move: it catches a game up from the store before using it, loads games other
processes created, pushes its viewers' views when told of a change, ends its viewers'
sockets when Redis is lost, and queues bot decisions for the bot service. A mixin of
:class:`.service.GameService`; without a cluster every method here does nothing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from .endings import read_ending, take_ending
from .errors import NotFound, ServerError
from .jobs import BotTask, NoticedAction, read_notice
from .store import StoreError
from .tables import LiveGame

if TYPE_CHECKING:
    from .catalogue import Catalogue
    from .cluster import Cluster
    from .lifecycle import FinishedGames
    from .service import Subscriber
    from .store import Store

log = logging.getLogger("starlanes.server")


class Following:
    """The clustered side of the game service (see the module)."""

    cluster: Cluster | None
    store: Store
    catalogue: Catalogue
    games: dict[str, LiveGame]
    finished: FinishedGames
    subscribers: dict[str, set[Subscriber]]
    stopping: bool
    _following: dict[str, bool]
    _background: set[asyncio.Task[Any]]

    # provided by the service: _engine_options(row), _push(live), _kick_clock(live)
    _engine_options: Any
    _push: Any
    _kick_clock: Any

    async def refresh(self, game_id: str) -> None:
        """With a cluster: bring ``game_id`` up to date with the store (loading it when
        another process created it); nothing without one, or for a game not stored."""
        if self.cluster is None:
            return
        live = self.games.get(game_id)
        if live is None:
            if len(game_id) > 32 or game_id in self.finished:
                return  # (a finished game does not change)
            fresh = await asyncio.to_thread(self._load, game_id)
            if fresh is not None and fresh.over:  # archived: kept with the finished ones
                self.finished.put(fresh)
            elif fresh is not None and game_id not in self.games:
                self.games[game_id] = fresh
            return
        async with live.lock:
            await self._catch_up(live)

    async def refresh_lobby(self) -> None:
        """With a cluster: load the games other processes created since this one started."""
        if self.cluster is None:
            return
        rows = await asyncio.to_thread(self.store.games)
        for row in rows:
            if row.id not in self.games:
                await self.refresh(row.id)

    def _load(self, game_id: str) -> LiveGame | None:
        row = self.store.game(game_id)
        if row is None:
            return None
        return LiveGame.rebuild(row, self.store.seats(game_id), self.store.actions(game_id),
                                self._engine_options(row))

    async def _catch_up(self, live: LiveGame) -> None:
        """With a cluster, holding ``live.lock``: apply what other processes stored for
        the game since this process last looked (rebuilding it after an undo elsewhere),
        and take its ending and draw offer as stored (:mod:`.endings`)."""
        if self.cluster is None:
            return

        def read() -> tuple[Any, Any, Any]:
            return (*self.store.since(live.id, max(live.seq - 1, 0)),
                    read_ending(self.store, live.id))

        seats, actions, ending = await asyncio.to_thread(read)
        if live.catch_up(seats, actions) is None:
            fresh = await asyncio.to_thread(self._load, live.id)
            if fresh is None:
                raise NotFound(f"no game {live.id!r}")
            live.take_over(fresh)
        else:
            take_ending(live, ending)

    async def _follow(self, text: str) -> None:
        """A notice that a game changed (:func:`.jobs.notice`): unless this process is
        already there, catch the game up and push its viewers' views (one catch-up per
        game at a time; a notice meanwhile runs it once more)."""
        game_id, seq, digest, action = read_notice(text)
        if game_id not in self.subscribers or game_id not in self.games:
            return
        live = self.games[game_id]
        if seq == live.seq and digest and live.state.digest().startswith(digest):
            if not self.stopping:  # stored here, or caught up by a request:
                self._push(live)    # viewers not sent this version yet get it now
            return
        self.follow_now(game_id, action)

    def follow_now(self, game_id: str, action: NoticedAction | None = None) -> None:
        """Catch ``game_id`` up (by ``action`` when it is the next move, else from the
        store) and push its views; while a catch-up runs, it runs once more instead. Called
        for a notice, and when a viewer subscribes: notices that came while the game was
        loading, or before this process held a viewer of it, were not followed."""
        if game_id in self._following:
            self._following[game_id] = True
            return
        self._following[game_id] = False
        self._spawn(self._follow_loop(game_id, action))

    async def _follow_loop(self, game_id: str, action: NoticedAction | None = None) -> None:
        """Catch ``game_id`` up and push its views, again while notices came meanwhile;
        first by ``action`` (a notice's) when it is the next move, saving a store read."""
        live = self.games[game_id]
        try:
            while True:
                try:
                    async with live.lock:
                        if action is None or not live.follow_action(action):
                            await self._catch_up(live)
                    action = None
                except (StoreError, ServerError) as e:
                    log.warning("game %s could not be caught up: %s", game_id, e)
                if not self.stopping:
                    self._push(live)
                    live.restart_clock()
                    self._kick_clock(live)
                if not self._following.get(game_id):
                    return
                self._following[game_id] = False
        finally:
            self._following.pop(game_id, None)

    def _drop_viewers(self) -> None:
        """Redis is lost: end every viewer's socket (they reconnect, to another process or
        to this one once it is ready again, and get the current view)."""
        from .service import _offer

        for subs in self.subscribers.values():
            for sub in subs:
                _offer(sub, None)

    def _queue_bot(self, live: LiveGame, seat: int) -> None:
        assert self.cluster is not None
        entry = self.catalogue.bot(live.seats[seat].kind)
        seconds = entry.seconds if entry is not None else 0.0
        task = BotTask(live.id, live.seq, seat, live.state.digest(), live.owner)
        self._spawn(self.cluster.enqueue(task, seconds))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
