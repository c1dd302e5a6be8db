"""How a web process of a cluster (``starlanes serve --redis``) holds its games: it loads a
game when it owns it and someone uses it (or it has viewers of it here), catches it up from
the store before using it, follows the notices of the games it holds, takes the games with
a running turn clock when it becomes their owner, unloads games nobody used for
:data:`IDLE_SECONDS`, reads the store for its viewers' games while Redis is lost, and
queues bot decisions for the bot service. A mixin of :class:`.service.GameService`; without
a cluster every method here does nothing (one process holds all its unfinished games).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from .archive import clocked_games, newest_moves, read_open_page
from .endings import read_ending, take_ending
from .errors import NotFound, ServerError
from .jobs import BotTask, NoticedAction, read_notice
from .store import StoreError
from .tables import LiveGame

if TYPE_CHECKING:
    from .archive import FinishedGames
    from .catalogue import Catalogue
    from .cluster import Cluster
    from .store import Store
    from .views import Subscriber

log = logging.getLogger("starlanes.server")

IDLE_SECONDS = 120.0
"""A held game with no viewer here, no running clock and no request for this long is
unloaded (it stays in the store; the next request loads it again)."""
POLL_SECONDS = 1.0
"""While Redis is lost: how often the store is read for the games this process's sockets
watch (one query for all of them)."""
TAKE_OVER_GAMES = 5000
"""The most clocked games one look for games to take over reads (the quotas keep the
unfinished games far fewer)."""


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
    _used: dict[str, float]
    _take_over_due = False
    """A take-over was cut short by a store error: housekeeping runs it again."""
    _open_lobby: list[dict[str, Any]]

    # provided by the service: _engine_options(row), _push(live), _kick_clock(live), clocks
    _engine_options: Any
    _push: Any
    _kick_clock: Any
    clocks: Any

    def owns(self, game_id: str) -> bool:
        """Whether this process owns ``game_id`` (always, without a cluster)."""
        return self.cluster is None or self.cluster.owns(game_id)

    def touch(self, game_id: str) -> None:
        """``game_id`` was used now (it stays loaded another :data:`IDLE_SECONDS`)."""
        if self.cluster is not None:
            self._used[game_id] = time.monotonic()

    def hold(self, live: LiveGame) -> None:
        """Keep the unfinished ``live`` loaded and follow its notices."""
        self.games[live.id] = live
        self.touch(live.id)
        if self.cluster is not None:
            self.cluster.watch(live.id)

    def release(self, game_id: str) -> None:
        """Unload ``game_id``: stop its clock here and its notices (it stays stored)."""
        self.games.pop(game_id, None)
        self._used.pop(game_id, None)
        task = self.clocks.tasks.pop(game_id, None)
        if task is not None:
            task.cancel()
        if self.cluster is not None:
            self.cluster.unwatch(game_id)

    async def refresh(self, game_id: str) -> None:
        """With a cluster: bring ``game_id`` up to date with the store (loading it when
        it is not held); nothing without one, or for a game not stored."""
        if self.cluster is None:
            return
        self.touch(game_id)
        live = self.games.get(game_id)
        if live is None:
            if len(game_id) > 32 or game_id in self.finished:
                return  # (a finished game does not change)
            fresh = await asyncio.to_thread(self._load, game_id)
            if fresh is not None and fresh.over:  # archived: kept with the finished ones
                self.finished.put(fresh)
            elif fresh is not None and game_id not in self.games:
                self.hold(fresh)
                fresh.restart_clock()
                self._kick_clock(fresh)
            return
        async with live.lock:
            await self._catch_up(live)

    async def refresh_lobby(self) -> None:
        """With a cluster: read the lobby's page of unfinished games from the store (one
        bounded query, :func:`.archive.read_open_page`)."""
        if self.cluster is None:
            return
        try:
            self._open_lobby = await asyncio.to_thread(read_open_page, self.store,
                                                       self._engine_options)
        except (StoreError, ServerError) as e:
            log.warning("the lobby's games could not be read: %s", e)

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
        live = self.games.get(game_id)
        if live is None:
            if self.cluster is not None:
                self.cluster.received_elsewhere += 1
            return
        if seq == live.seq and digest and live.state.digest().startswith(digest):
            if not self.stopping:  # stored here, or caught up by a request:
                self._push(live)    # viewers not sent this version yet get it now
            return
        self.follow_now(game_id, action)

    def _watching(self, game_ids: list[str]) -> None:
        """The notices of ``game_ids`` now come: catch up what came before."""
        for game_id in game_ids:
            if game_id in self.games:
                self.follow_now(game_id)

    def follow_now(self, game_id: str, action: NoticedAction | None = None) -> None:
        """Catch ``game_id`` up (by ``action`` when it is the next move, else from the
        store) and push its views; while a catch-up runs, it runs once more instead. Called
        for a notice, and when a viewer subscribes: notices that came while the game was
        loading, or before this process held a viewer of it, were not followed."""
        if game_id not in self.games:
            return
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

    # ------------------------------------------------------------------ owners
    def _members_changed(self) -> None:
        """The live processes changed: give up the games another process owns now (kept
        here, without their clock, only while viewers here watch them) and take the ones
        this process owns now that have a running clock."""
        if self.cluster is None or self.stopping:
            return
        for game_id in list(self.games):
            if not self.owns(game_id):
                task = self.clocks.tasks.pop(game_id, None)
                if task is not None:
                    task.cancel()
                if not self.subscribers.get(game_id):
                    self.release(game_id)
        self._spawn(self.take_over())

    async def take_over(self) -> int:
        """Let the clocks run of the unfinished games with a turn clock that this process
        owns (what a process that died or left was timing): loaded from the store when not
        held, caught up when held without a running clock (a game this process created or
        showed while another owned it). Returns how many games' clocks it started. A store
        error leaves the take-over due: housekeeping runs it again."""
        if self.cluster is None:
            return 0
        try:
            ids = await asyncio.to_thread(clocked_games, self.store, TAKE_OVER_GAMES)
        except (StoreError, ServerError) as e:
            log.warning("the clocked games could not be read: %s", e)
            self._take_over_due = True
            return 0
        self._take_over_due = False
        taken = 0
        for game_id in ids:
            if self.stopping:
                break
            if not self.owns(game_id) or self.clocks.running(game_id):
                continue
            try:
                await self.refresh(game_id)  # loads it, or catches the held one up
            except (StoreError, ServerError) as e:
                log.warning("game %s could not be taken over: %s", game_id, e)
                self._take_over_due = True
                continue
            live = self.games.get(game_id)
            if live is not None:
                live.restart_clock()
                self._kick_clock(live)
                taken += self.clocks.running(game_id)
        if taken:
            log.info("took over %s games with a running clock", taken)
        return taken

    def unload_idle(self) -> int:
        """Unload every held game nobody used for :data:`IDLE_SECONDS` that has no viewer
        here and no running clock, and every one another process owns that has no viewer
        here. Returns how many were unloaded."""
        if self.cluster is None:
            return 0
        now = time.monotonic()
        gone = []
        for game_id, live in self.games.items():
            if self.subscribers.get(game_id) or game_id in self._following \
                    or live.lock.locked():
                continue
            if not self.owns(game_id) or (
                    now - self._used.get(game_id, 0.0) >= IDLE_SECONDS
                    and live.clock_deadline is None):
                gone.append(game_id)
        for game_id in gone:
            self.release(game_id)
        return len(gone)

    # ------------------------------------------------------------------ Redis lost
    def _redis_lost(self) -> None:
        """Redis is lost: the sockets stay open; read the store for their games until it
        is back (:meth:`poll_store`)."""
        if not self.stopping and not getattr(self, "_polling", False):
            self._polling = True
            self._spawn(self.poll_store())

    async def poll_store(self) -> None:
        """While Redis is lost: every :data:`POLL_SECONDS`, read the newest move of every
        game that viewers here watch (one query) and catch up those that moved."""
        try:
            while not self.stopping and self.cluster is not None and not self.cluster.ready:
                await asyncio.sleep(POLL_SECONDS)
                watched = [g for g, subs in self.subscribers.items()
                           if subs and g in self.games]
                if not watched:
                    continue
                try:
                    newest = await asyncio.to_thread(newest_moves, self.store, watched)
                except (StoreError, ServerError) as e:
                    log.warning("the watched games could not be read: %s", e)
                    continue
                for game_id, (moves, ended) in newest.items():
                    live = self.games.get(game_id)
                    if live is not None and (moves != live.seq
                                             or (ended and live.row.ended is None)):
                        self.follow_now(game_id)
        finally:
            self._polling = False
        for game_id in list(self.games):  # back: notices missed meanwhile
            self.follow_now(game_id)

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

    async def _housekeeping(self) -> None:
        """With a cluster: every few seconds, unload idle games and those another process
        owns (the life-cycle sweep does too, less often), and run a take-over again that a
        store error cut short (:meth:`take_over`)."""
        while not self.stopping:
            await asyncio.sleep(5.0)
            with contextlib.suppress(Exception):
                self.unload_idle()
            if self._take_over_due:
                with contextlib.suppress(Exception):
                    await self.take_over()
