"""The game service: the lobby, seats and tokens, actions, undo, bots, turn clocks and the
push of fresh views to every connected viewer.

Order of every write: check (under the game's lock), commit to the store, change the live
state, then acknowledge and push. The game's lock is held until the commit is done, so one
game's actions are stored one at a time and in order, while other games go on: the commit
itself runs in the store's writer thread (:mod:`.writer`), which groups the actions of all
games waiting at that moment into one transaction. Nothing that waits for the disk, a bot
or a replay of a whole game runs in the event loop. A restarted single process rebuilds
every unfinished game from the store and lets waiting bots play on; a process of a cluster
(``--redis``) loads no game at start but the ones with a running clock it owns, and any
other when it is used (:mod:`.following`). Finished games are archived
(:mod:`.lifecycle`): read from the store when someone opens one, never all at start.

Its parts, each a mixin of :class:`GameService`: what it answers about a game without
changing it (:mod:`.reading`), the bot seats' turns (:mod:`.bot_turns`), the endings
(:mod:`.endings`) and a cluster's games (:mod:`.following`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from starlanes.engine import (
    BadOptionError,
    game_class,
    load,
)

from . import clocks, quotas
from .archive import FinishedGames
from .bot_turns import BotTurns
from .bots import BotPool, ClientBotTime
from .catalogue import Catalogue, display_name
from .clock_runner import ClockRunner
from .cluster import Cluster
from .config import ServerConfig
from .endings import Endings
from .errors import (
    Forbidden,
    ServerError,
    Stale,
    Unauthorized,
    Unavailable,
    Unprocessable,
)
from .following import Following
from .reading import Reading
from .replays import ReplayCache
from .setups import checked_setups, join_setup
from .store import GameRow, SeatRow, Store, StoreConflict, StoreError, now
from .tables import HUMAN, LiveGame, Pending
from .tokens import new_game_id, new_token, token_hash, token_matches
from .views import Subscriber, game_view, lobby_entry
from .writer import StoreWriter

log = logging.getLogger("starlanes.server")


@dataclass(frozen=True)
class Ack:
    """What an applied action is acknowledged with: its notation and the number of actions
    now played. (No state digest: it would let a client test guesses about hidden
    information; tests read digests from the store.)"""

    applied: str
    seq: int


def view_text(view: dict[str, Any]) -> str:
    """A view as the JSON text sent on a websocket (compact, UTF-8, keys that are not
    strings written as strings). Encoded by orjson: every move encodes a view per seat,
    which the standard library took 4-20 times longer to do on the event loop."""
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS).decode()


class GameService(Following, Endings, BotTurns, Reading):
    """Everything the HTTP and websocket routes do, without HTTP."""

    def __init__(self, store: Store, bots: BotPool, config: ServerConfig | None = None,
                 cluster: Cluster | None = None) -> None:
        self.config = config or ServerConfig()
        self.cluster = cluster
        """With a cluster (Redis), other processes serve the same games: see
        :mod:`.cluster`; bot seats are played by the bot service, not by ``bots``."""
        self.catalogue = Catalogue(self.config)
        self.replays = ReplayCache()
        self.store = store
        self.writer = StoreWriter(store)
        self.bots = bots
        self.stopping = False
        self.games: dict[str, LiveGame] = {}
        """The unfinished games (a game that ends leaves: :mod:`.lifecycle`)."""
        self.finished = FinishedGames(self.config.limits.finished_games_kept, store,
                                      self._engine_options)
        """The finished games kept in memory (the most recently opened ones), and the
        reader of any other (:meth:`.archive.FinishedGames.load`)."""
        self._quota_lock = asyncio.Lock()
        self.subscribers: dict[str, set[Subscriber]] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.clocks = ClockRunner(self)
        self.client_bot_time = ClientBotTime()
        self._background: set[asyncio.Task[Any]] = set()
        self._following: dict[str, bool] = {}
        """With a cluster: games being caught up after a notice (True: another came)."""
        self._used: dict[str, float] = {}
        """With a cluster: when each held game was last used (monotonic seconds)."""
        self._open_lobby: list[dict[str, Any]] = []
        """With a cluster: the lobby's page of unfinished games, read from the store."""
        self.listeners: list[Callable[[LiveGame], None]] = []
        """Called (in the event loop) with a game each time its viewers are sent a fresh
        view: after a move, a join, an undo (the community's ratings and turn signals)."""
        self.join_checks: list[Callable[[LiveGame, int, int | None, str | None],
                                        Awaitable[None]]] = []
        """Awaited with (game, seat, account id, client network) before a seat is taken,
        holding the game's lock; each may refuse it by raising a ServerError (the
        community's fair-play rules for rated games)."""
        self.on_start: list[Callable[[], Awaitable[None]]] = []
        self.on_stop: list[Callable[[], Awaitable[None]]] = []
        """Awaited after the games are rebuilt at start, and first thing at stop."""

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the bot workers, rebuild every unfinished stored game (in a thread) and
        let bots and clocks run on. A game its rules ended whose end was never stamped
        (``GameRow.ended``) is stamped now and kept with the finished games. With a
        cluster, no game is read here: the process joins the members, and the games with
        a running clock that it owns are loaded in the background
        (:meth:`.following.Following.take_over`). Raises RuntimeError for a service that
        was stopped (its bot workers are gone: make a new one)."""
        if self.stopping:
            raise RuntimeError("a stopped game service does not start again")
        self.bots.start()
        if self.cluster is not None:
            await self.cluster.start(self._follow, self._watching, self._members_changed,
                                     self._redis_lost)
            self._spawn(self.take_over())
            self._spawn(self._housekeeping())
            for hook in self.on_start:
                await hook()
            return
        for live in await asyncio.to_thread(self._rebuild_all):
            if live.over:
                self.note_ended(live)
                self.finished.put(live)
                continue
            self.games[live.id] = live
            self._after_change(live, push=False)
        for hook in self.on_start:
            await hook()

    def _rebuild_all(self) -> list[LiveGame]:
        """The unfinished stored games, replayed (finished ones are never read here)."""
        games = []
        for row in self.store.games():
            try:
                games.append(LiveGame.rebuild(row, self.store.seats(row.id),
                                              self.store.actions(row.id),
                                              self._engine_options(row)))
            except (StoreError, ServerError) as e:
                log.error("skipping game %s: %s", row.id, e)
        return games

    def _engine_options(self, row: GameRow) -> dict[str, Any]:
        return self.catalogue.engine_options(row.game, dict(row.options))

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop bots and clocks, end every viewer's socket, stop the bot workers and finish
        the queued writes. Every acknowledged action is already stored; a bot move that was
        being thought about is simply thought again after a restart."""
        self.stopping = True
        for hook in self.on_stop:
            with contextlib.suppress(Exception):
                await hook()
        tasks = [*self._bot_tasks.values(), *self.clocks.tasks.values()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        for subs in self.subscribers.values():
            for sub in subs:
                _offer(sub, None)
        self.bots.close()
        if self.cluster is not None:
            await self.cluster.stop()
        await asyncio.to_thread(self.writer.close, timeout)

    # ------------------------------------------------------------------ lobby
    async def create(self, game: str, players: int | None, seats: Sequence[str],
                     options: dict[str, Any] | None = None, seed: int | None = None,
                     clock_seconds: float = 0.0, rematch_of: str | None = None,
                     owner: str = "", setups: Sequence[str] = (), rated: bool = False,
                     clock_kind: str = "move", clock_increment: float = 0.0,
                     timeout: str = "bot", owner_account: int | None = None,
                     owner_network: str = "") -> LiveGame:
        """Create a game; ``seats`` holds ``human`` or a bot's catalogue name per seat,
        ``options`` the game's options (``content``: a content pack's name), ``owner`` the
        creating client's key (its bots share that client's bot time); ``owner_account``
        (None: no account) and ``owner_network`` (:func:`.limits.network_key` of the
        client's address) name who caused the game, for the quotas (:mod:`.quotas`), and
        are stored with it. ``seed`` None
        draws a secret seed from the operating system; a given one marks the game as seeded
        by its creator. ``rated`` asks for a rated game; ``clock_kind``, ``clock_increment``
        and ``timeout`` are the turn clock's settings (:class:`.store.GameRow`). Raises
        Unprocessable (422: a bot or pack the server does not offer,
        something that is not an option), BadOptionError (400: an option's value, the
        player count) or TooMany (429: a quota is full, or the server holds its most
        unfinished games); nothing is stored then."""
        game = self.catalogue.check_game(game)
        cls = game_class(game)
        n = players if players is not None else len(seats) or cls.min_players
        if len(seats) != n:
            raise BadOptionError(f"{len(seats)} seats named for {n} players")
        limits = self.config.limits
        if not 0 <= clock_seconds <= limits.max_clock_seconds:
            raise Unprocessable(f"clock_seconds must lie in 0..{limits.max_clock_seconds:g}")
        clocks.check_settings(clock_seconds, clock_kind, clock_increment, timeout,
                              limits.max_clock_seconds)
        if rated:
            clocks.check_rated(clock_seconds, clock_kind, self.config.fair_play)
        kinds = [self.catalogue.seat_kind(spec, game) for spec in seats]
        opts = self.catalogue.check_options(game, options or {})
        seeded = seed is not None
        if seeded and not self.config.creator_seeds:
            raise Unprocessable("this server draws every seed itself: leave 'seed' out")
        await self.check_quota(owner_account, owner_network)  # before any work
        if seed is None:
            seed = secrets.randbits(62)
        engine_opts = self.catalogue.engine_options(game, opts)
        checked = await asyncio.to_thread(load, game, players=n, seed=seed, **engine_opts)
        if setups:  # per seat, what it brings (a deck code): 422 with the game's reason
            opts = await asyncio.to_thread(checked_setups, checked, opts, engine_opts, setups)
            engine_opts = self.catalogue.engine_options(game, opts)
        row = GameRow(id=new_game_id(), game=game, players=n, seed=seed, options=opts,
                      bot_seconds=0.0, clock_seconds=clock_seconds, rematch_of=rematch_of,
                      created=now(), seeded=seeded, rated=rated, clock_kind=clock_kind,
                      clock_increment=clock_increment, timeout=timeout,
                      owner_account=owner_account, owner_network=owner_network[:64])
        seat_rows = [SeatRow(game_id=row.id, seat=i, kind=k,
                             name="" if k == HUMAN else f"bot {k}", token_hash=None)
                     for i, k in enumerate(kinds)]
        live = await asyncio.to_thread(LiveGame.rebuild, row, seat_rows, [], engine_opts)
        live.owner = owner
        async with self._quota_lock:  # counted and stored one create at a time
            await self.check_quota(owner_account, owner_network)
            await self.writer.run(lambda: self.store.create_game(row, seat_rows))
        self.hold(live)
        self._after_change(live, push=False)
        return live

    async def check_quota(self, account: int | None, network: str) -> None:
        """Raise TooMany (429) when one more game caused by ``account`` (None: without an
        account) from ``network`` would pass a quota (:mod:`.quotas`, counted in the
        database); nothing otherwise."""
        counts = await asyncio.to_thread(self.store.open_counts, account, network[:64])
        quotas.check(self.config.limits, counts, account)

    def lobby(self) -> list[dict[str, Any]]:
        """The unfinished games, newest first, then the most recently finished ones
        (``limits.lobby_finished_games``). With a cluster, the unfinished games are a page
        read from the store (:meth:`.following.Following.refresh_lobby`)."""
        if self.cluster is not None:
            return [*self._open_lobby, *self.finished.lobby]
        games = sorted((g for g in self.games.values() if not g.over),
                       key=lambda g: g.row.created, reverse=True)
        return [*(lobby_entry(g) for g in games), *self.finished.lobby]

    def live(self, game_id: str) -> LiveGame:
        """The game ``game_id``: an unfinished one, a finished one kept in memory, or a
        finished one read from the store and replayed (in the caller's thread: routes in
        the event loop find it read already, :class:`.lifecycle.OpenArchived`). Raises
        NotFound, StoreError."""
        live = self.games.get(game_id) or self.finished.get(game_id)
        if live is None:
            live = self.finished.load(game_id)
        return live

    async def open(self, game_id: str) -> LiveGame:
        """As :meth:`live`, reading an archived game in a thread."""
        live = self.games.get(game_id) or self.finished.get(game_id)
        if live is None:
            live = await asyncio.to_thread(self.finished.load, game_id)
        return live

    async def join(self, game_id: str, name: str, seat: int | None = None,
                   setup: str = "", account_id: int | None = None,
                   network: str | None = None) -> tuple[int, str]:
        """Take an open human seat (the first open one when ``seat`` is None) bringing
        ``setup`` (a deck code; before the first move), for the account ``account_id``
        (None: a guest) from the client network ``network`` (:func:`.limits.network_key`);
        returns the seat and its token. Every check in :attr:`join_checks` runs first.
        Raises Forbidden when the seat is taken or held by a bot, or a check refuses it
        (a rated game's fair-play rules), Unprocessable (422) for a setup the game
        refuses."""
        live = self.live(game_id)
        name = display_name(name)
        async with live.lock:
            await self._catch_up(live)
            if live.over:  # (an expired game still has its open seats)
                raise Forbidden("this game is over: its seats can no longer be taken")
            if seat is None:
                free = [s.seat for s in live.seats if s.is_open]
                if not free:
                    raise Forbidden("every seat of this game is taken")
                seat = free[0]
            info = live.open_seat(seat)
            for check in self.join_checks:
                await check(live, seat, account_id, network)
            options, rebuilt = None, None
            if setup.strip():
                options, rebuilt = await asyncio.to_thread(
                    join_setup, live, seat, setup,
                    lambda o: self.catalogue.engine_options(live.row.game, o))
            token = new_token()
            hashed = token_hash(token)
            if not await self.writer.run(
                    lambda: self.store.claim_seat(game_id, seat, name, hashed, options,
                                                  account_id, network)):
                raise Forbidden(f"seat {seat} was taken a moment ago")
            if rebuilt is not None:
                live.row.options = options
                live.game, live.state = rebuilt, rebuilt.new_initial_state()
            info.name, info.token_hash, info.account_id = name, hashed, account_id
            info.network = network
            clocks.seats_filled(live)
            live.version += 1
        self._after_change(live)
        return seat, token

    def seat_of(self, live: LiveGame, token: str | None) -> int:
        """The seat whose token this is; Unauthorized (401) for none or a wrong one."""
        if not token:
            raise Unauthorized("no seat token: open the game with your seat link")
        for info in live.seats:
            if token_matches(token, info.token_hash):
                return info.seat
        raise Unauthorized("this seat token belongs to no seat of this game")

    # ------------------------------------------------------------------ play
    async def act(self, game_id: str, token: str | None, seq: int, notation: str) -> Ack:
        """Apply a seat's action chosen at ``seq``; returns it once it is stored. Raises
        Unauthorized, Stale, Forbidden, Illegal or StoreError, changing nothing."""
        live = self.live(game_id)
        try:
            seat = self.seat_of(live, token)
        except Unauthorized:
            if self.cluster is None:
                raise
            async with live.lock:  # the seat may have been taken on another process
                await self._catch_up(live)
            seat = self.seat_of(live, token)
        if not isinstance(notation, str) or not notation.strip():
            raise BadOptionError("no action given")
        ack = await self._apply(live, seat, seq, notation)
        self._after_change(live)
        return ack

    async def _apply(self, live: LiveGame, seat: int, seq: int, notation: str,
                     by: str = "player") -> Ack:
        """Check, store and apply one action holding the game's lock (one writer per game;
        other games go on while this one waits for its commit)."""
        async with live.lock:
            try:
                pending: Pending = live.prepare(seat, seq, notation, by)
            except Stale:
                if self.cluster is None or seq <= live.seq:
                    raise
                # chosen at a move this process has not seen: another process moved the
                # game; (a cache that is behind without knowing it meets the store's
                # (game, seq) key below instead)
                await self._catch_up(live)
                pending = live.prepare(seat, seq, notation, by)
            try:
                await self.writer.append(pending.stored())
            except StoreConflict:
                if self.cluster is None:
                    raise
                await self._catch_up(live)  # another process stored this move first
                raise Stale(f"the action was chosen at move {seq}, but another action was "
                            f"stored at that move a moment ago; look at the board "
                            f"again") from None
            text = live.commit(pending)
            await self.withdraw_draw(live)  # a move withdraws a standing draw offer
            return Ack(text, live.seq)

    async def undo(self, game_id: str, token: str | None, seq: int) -> int:
        """Take back the seat's last decision, asked at move ``seq`` (the view the player
        saw); returns the number of actions left. Raises Stale (409) when the game has
        moved since, Forbidden when the last decision is final. The earlier state is
        rebuilt by replay in a thread, then the store deletes the action."""
        live = self.live(game_id)
        seat = self.seat_of(live, token)
        async with live.lock:
            await self._catch_up(live)
            if seq != live.seq:
                raise Stale(f"the undo was asked at move {seq}, but the game is at move "
                            f"{live.seq}; look at the board again")
            keep = live.check_undo(seat)
            actions = await asyncio.to_thread(self.store.actions, game_id)
            rebuilt = await asyncio.to_thread(LiveGame.rebuild, live.row, [], actions[:keep],
                                              self._engine_options(live.row))
            total = live.seq if self.cluster is not None else None
            try:
                await self.writer.run(lambda: self.store.truncate_actions(game_id, keep, total))
            except StoreConflict:
                if self.cluster is None:
                    raise
                await self._catch_up(live)
                raise Stale("the game moved on another server; look at the board "
                            "again") from None
            live.take_back(keep, rebuilt.state)
            await self.withdraw_draw(live)
        self._after_change(live)
        return keep

    # ------------------------------------------------------------------ pushing views
    def subscribe(self, game_id: str, token: str | None) -> Subscriber:
        if self.cluster is not None and not self.cluster.ready:
            raise Unavailable("this server has lost its link to the other servers; "
                              "connect again in a moment")
        live = self.live(game_id)
        seat = self.seat_of(live, token) if token else None
        sub = Subscriber(seat, version=live.version)
        self.subscribers.setdefault(game_id, set()).add(sub)
        _offer(sub, view_text(game_view(live, seat)))
        if self.cluster is not None:
            self.follow_now(game_id)
        return sub

    def unsubscribe(self, game_id: str, sub: Subscriber) -> None:
        self.subscribers.get(game_id, set()).discard(sub)

    def _push(self, live: LiveGame) -> None:
        for listener in self.listeners:
            try:
                listener(live)
            except Exception:  # a listener's fault must not stop the game
                log.exception("a listener failed on game %s", live.id)
        subs = self.subscribers.get(live.id)
        if not subs:
            return
        views: dict[int | None, str] = {}  # built and encoded once per seat
        for sub in list(subs):
            if self.cluster is not None:  # several paths reach here: each version once
                if sub.version == live.version:
                    continue
                sub.version = live.version
            text = views.get(sub.seat)
            if text is None:
                text = views[sub.seat] = view_text(game_view(live, sub.seat))
            _offer(sub, text)

    def _after_change(self, live: LiveGame, push: bool = True) -> None:
        if self.stopping:
            return
        if live.over and live.row.ended is None:
            self.note_ended(live)
        if push:
            self._push(live)
        live.restart_clock()
        self._kick_clock(live)
        waiting = live.waiting_for()
        if self.cluster is not None:
            if push:  # an action: followers one move behind apply it; else they read
                action = live.noticed_action()
                self._spawn(self.cluster.changed(live.id, live.seq, live.state.digest(),
                                                 action) if action is not None
                            else self.cluster.changed(live.id))
            if waiting is not None and live.seats[waiting].is_bot:
                self._queue_bot(live, waiting)
            return
        if waiting is not None and live.seats[waiting].is_bot:
            task = self._bot_tasks.get(live.id)
            if task is None or task.done():
                self._bot_tasks[live.id] = asyncio.get_running_loop().create_task(
                    self._run_bots(live))

    def _kick_clock(self, live: LiveGame) -> None:
        """Let the game's turn clock run (:class:`.clock_runner.ClockRunner`): with a cluster,
        only on the game's owner."""
        if self.owns(live.id):
            self.clocks.kick(live)


def _offer(sub: Subscriber, item: str | None) -> None:
    """Queue ``item`` for a viewer; one that stopped reading keeps only the newest views."""
    if sub.queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            sub.queue.get_nowait()
    sub.queue.put_nowait(item)
