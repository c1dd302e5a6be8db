"""The life cycle of games: open seats that expire, idle games ended by a written rule,
and finished games taken out of memory (archived) and read back when someone opens them.

The rules (``docs/community/lifecycle.md``; the hours are ``limits`` of the server
configuration):

- **open seats**: a game that still has an open human seat ``open_seat_hours`` after it
  was created ends ``{"reason": "expired", "ranks": None}`` (no result);
- **idle games**: a game with every seat taken and no human move for its idle limit
  (``idle_game_hours``; for a game with a turn clock at least the longest decision its
  clock allows) ends:

  - with a turn clock, while it waits for a human seat: as if that seat's clock ran out
    with ``timeout = "lose"`` (``{"reason": "timeout", "loser": seat, "ranks": ...}``);
  - otherwise ``{"reason": "adjudicated", "ranks": None, "detail": ...}`` when no human
    has moved, or ``ranks`` by the current scores (equal scores share a place) when one
    has (``detail``: the rule in words);
- **bot-only games** are played to their end by the bots, after a restart too; one that
  no move reached for its idle limit since the server started (nothing can move it: a
  bot the catalogue no longer offers) ends ``{"reason": "abort", "by": None, "ranks":
  None}``.

Idle time is read from the stored moves (their ``at``), so a restart does not reset it:
the time a server was down counts, as it does for the turn clocks.

A finished game leaves ``service.games`` as soon as it ends; the process keeps the most
recently opened ones (``finished_games_kept``) in :class:`.archive.FinishedGames` for the
game-over dialog, rematches and replays, and reads any other from the database when
someone opens it. The lobby lists the unfinished games and the ``lobby_finished_games``
most recently finished ones, read by a bounded query at every sweep.

With a cluster (``--redis``) a process holds only the games it owns and uses
(:mod:`.following`): the lobby's unfinished games are a page read from the store
(:func:`.archive.read_open_page`, newest first, at most
:data:`.archive.LOBBY_OPEN_GAMES`), and the sweep applies the rules to the games this
process owns, those it holds and those the store names as due (:func:`due_games`), so no
process ever reads all the games.

:class:`Lifecycle` runs the sweep every ``sweep_seconds`` from the service's start hooks;
its ``clock`` (epoch seconds) can be replaced by a test.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .archive import GAME_ID_CHARS
from .config import Limits
from .errors import ServerError
from .outcomes import timeout_outcome
from .store import GameRow, SeatRow, StoreError
from .tables import LiveGame, places
from .views import lobby_entry

if TYPE_CHECKING:
    from .service import GameService

log = logging.getLogger("starlanes.server")

DUE_GAMES = 200
"""With a cluster: the most games one sweep reads as due for the rule."""


# ---------------------------------------------------------------------- the written rule
def idle_limit(live: LiveGame, limits: Limits) -> float:
    """Seconds without a human move after which ``live`` is idle: ``idle_game_hours``,
    and for a game with a turn clock never less than the longest decision the clock
    allows (a ``move`` clock's seconds; a ``game`` clock's seconds plus every increment
    given so far)."""
    limit = limits.idle_game_hours * 3600.0
    row = live.row
    if row.clock_seconds > 0:
        allows = row.clock_seconds
        if row.clock_kind == "game":
            allows += row.clock_increment * live.seq
        limit = max(limit, allows)
    return limit


def last_human_move(live: LiveGame) -> float | None:
    """When a human seat last moved itself (epoch seconds; the turn clock's moves do not
    count), None when none has."""
    for (_seat, at), by in zip(reversed(live.marks), reversed(live.bys), strict=False):
        if by == "player":
            return at
    return None


def verdict(live: LiveGame, now: float, limits: Limits,
            started: float | None = None) -> dict[str, Any] | None:
    """The outcome the life-cycle rule ends ``live`` with at ``now`` (epoch seconds), or
    None while it may go on (see the module). ``started``: when this process started
    (a bot-only game's idle time is counted from no earlier)."""
    if live.over:
        return None
    created = live.row.created.timestamp()
    if any(s.is_open for s in live.seats):
        if now - created >= limits.open_seat_hours * 3600.0:
            return {"reason": "expired", "ranks": None}
        return None
    limit = idle_limit(live, limits)
    if all(s.is_bot for s in live.seats):
        last = live.marks[-1][1] if live.marks else created
        if started is not None:
            last = max(last, started)
        if now - last >= limit:
            return {"reason": "abort", "by": None, "ranks": None}
        return None
    moved = last_human_move(live)
    if now - (created if moved is None else moved) < limit:
        return None
    waiting = live.waiting_for()
    if live.row.clock_seconds > 0 and waiting is not None and not live.seats[waiting].is_bot:
        return timeout_outcome(live, waiting)
    idle = _duration(limit)
    if moved is None:
        return {"reason": "adjudicated", "ranks": None,
                "detail": f"no player moved in {idle}: no result"}
    return {"reason": "adjudicated", "ranks": places([float(x) for x in live.state.scores()]),
            "detail": f"no player moved in {idle}: placed by the scores at that moment"}


def _duration(seconds: float) -> str:
    """``seconds`` in words: ``3 days``, ``5 hours``, ``40 minutes``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = round(seconds / size, 1)
            n_text = f"{n:g}"
            return f"{n_text} {unit}{'' if n_text == '1' else 's'}"
    return f"{seconds:g} seconds"


# ---------------------------------------------------------------------- the finished games' lobby
def archived_entry(service: GameService, row: GameRow, seats: list[SeatRow],
                   moves: int) -> dict[str, Any]:
    """The lobby entry of a finished game read from the database, without replaying it
    (the game is loaded at its start only, for the seats' names)."""
    try:
        live = LiveGame.rebuild(row, seats, [], service._engine_options(row))
    except (StoreError, ServerError) as e:
        log.warning("finished game %s cannot be listed: %s", row.id, e)
        raise
    entry = lobby_entry(live)
    entry.update(status="finished", moves=moves)
    return entry


# ---------------------------------------------------------------------- the sweep
class Lifecycle:
    """Runs the life-cycle rules over ``service``'s games every ``sweep_seconds`` (from
    its start hooks) and takes every game that ends out of ``service.games``. ``clock``:
    now, in epoch seconds (a test replaces it)."""

    def __init__(self, service: GameService, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.clock = clock
        self.started: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._entries: dict[str, dict[str, Any]] = {}
        service.on_start.append(self.start)
        service.on_stop.append(self.stop)
        service.listeners.append(self.on_change)

    @property
    def limits(self) -> Limits:
        return self.service.config.limits

    async def start(self) -> None:
        """Sweep once, then every ``sweep_seconds`` until the service stops. With a cluster
        the first sweep runs in the background too: the process is ready at once, however
        many games the store names as due."""
        self.started = self.clock()
        if self.service.cluster is None:
            await self.sweep()
        self._task = asyncio.get_running_loop().create_task(
            self._run(first=self.service.cluster is not None))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self, first: bool = False) -> None:
        while not self.service.stopping:
            if not first:
                await asyncio.sleep(self.limits.sweep_seconds)
            first = False
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("the life-cycle sweep failed")

    def on_change(self, live: LiveGame) -> None:
        """Service listener: a game that is over leaves ``service.games``."""
        if live.over:
            self.archive(live)

    def archive(self, live: LiveGame) -> None:
        """Move the finished ``live`` from ``service.games`` to the finished games kept,
        and to the top of the lobby's finished games; its end is stamped
        (``GameRow.ended``) unless it was."""
        service = self.service
        service.note_ended(live)  # (a bot's or a clock's last move comes here first)
        if service.games.get(live.id) is live:
            del service.games[live.id]
            service._used.pop(live.id, None)
            if service.cluster is not None:
                service.cluster.unwatch(live.id)
        service.finished.put(live)
        if self.limits.lobby_finished_games and live.id not in self._entries:
            entry = lobby_entry(live)
            self._entries[live.id] = entry
            service.finished.lobby = [entry, *service.finished.lobby][
                :self.limits.lobby_finished_games]

    async def sweep(self) -> list[tuple[str, str]]:
        """Apply the rules once: end every game the rule ends, archive every finished
        game still in memory, read the lobby's finished games and forget what viewers and
        tasks left behind. Returns ``(game id, reason)`` of each game ended."""
        service = self.service
        now = self.clock()
        ended: list[tuple[str, str]] = []
        if service.cluster is not None:
            await self._ended_elsewhere()
            await self._load_due(now)
        for live in list(service.games.values()):
            if service.stopping:
                break
            if live.over:
                self.archive(live)
                continue
            if not service.owns(live.id):
                continue  # its owner applies the rule
            outcome = verdict(live, now, self.limits, self.started)
            if outcome is None:
                continue
            if await self._end(live, outcome):
                ended.append((live.id, str(outcome["reason"])))
        await self.refresh_lobby()
        self._forget()
        service.unload_idle()
        return ended

    async def _load_due(self, now: float) -> None:
        """With a cluster: load the games this process owns that the store names as due
        for the rule (:func:`due_games`), so the loop above judges them."""
        service = self.service
        try:
            ids = await asyncio.to_thread(due_games, service.store, now, self.limits,
                                          DUE_GAMES)
        except (StoreError, ServerError) as e:
            log.warning("the games due for the life-cycle rule could not be read: %s", e)
            return
        for game_id in ids:
            if game_id not in service.games and service.owns(game_id):
                try:
                    await service.refresh(game_id)
                except (StoreError, ServerError) as e:
                    log.warning("game %s could not be read for the rule: %s", game_id, e)

    async def _ended_elsewhere(self) -> None:
        """With a cluster: take the end of every game another process ended (a server
        outcome is not an action, so following its moves does not bring it)."""
        service = self.service
        rows = await asyncio.to_thread(service.store.ended_of, list(service.games))
        for game_id, row in rows.items():
            live = service.games.get(game_id)
            if live is None or live.row.ended is not None:
                continue
            async with live.lock:
                live.row.outcome, live.row.ended = row.outcome, row.ended
                live.version += 1
            service._push(live)  # its viewers see the result; the listener archives it
            if live.over:
                self.archive(live)

    async def _end(self, live: LiveGame, outcome: dict[str, Any]) -> bool:
        service = self.service
        seq = live.seq
        try:
            done = bool(await service.end_game(live, outcome, seq))
        except (StoreError, ServerError) as e:
            log.warning("game %s could not be ended (%s): %s", live.id, outcome["reason"], e)
            return False
        if done:
            log.info("game %s ended by the life-cycle rule: %s", live.id, outcome["reason"])
            self.archive(live)
        return done

    async def refresh_lobby(self) -> None:
        """Read the most recently finished games for the lobby (one bounded query, and
        the seats and move counts of the games not listed before)."""
        want = self.limits.lobby_finished_games
        service = self.service
        if want <= 0:
            service.finished.lobby = []
            return
        try:
            entries = await asyncio.to_thread(self._read_lobby, want)
        except (StoreError, ServerError) as e:
            log.warning("the lobby's finished games could not be read: %s", e)
            return
        service.finished.lobby = entries

    def _read_lobby(self, want: int) -> list[dict[str, Any]]:
        service = self.service
        rows = service.store.finished_games(want)
        new = [r for r in rows if r.id not in self._entries]
        seats = service.store.seats_of([r.id for r in new])
        moves = service.store.moves_of([r.id for r in new])
        entries: dict[str, dict[str, Any]] = {}
        for row in rows:
            entry = self._entries.get(row.id)
            if entry is None:
                try:
                    entry = archived_entry(service, row, seats[row.id], moves[row.id])
                except (StoreError, ServerError):
                    continue
            entries[row.id] = entry
        self._entries = entries
        return list(entries.values())

    def _forget(self) -> None:
        """Drop what finished games and gone viewers left in the service's tables."""
        service = self.service
        for game_id in [g for g, subs in service.subscribers.items() if not subs]:
            del service.subscribers[game_id]
        for tasks in (service._bot_tasks, service.clocks.tasks):
            for game_id in [g for g, t in tasks.items() if t.done()]:
                del tasks[game_id]


# ---------------------------------------------------------------------- bounded queries
def due_games(store: Any, now: float, limits: Limits, limit: int) -> list[str]:
    """The ids of up to ``limit`` unfinished games the life-cycle rule may end at ``now``
    (epoch seconds): created longer ago than the shorter of the open-seat and the idle
    limit, and either with an open human seat or no move since then. A candidate only:
    :func:`verdict` decides. Blocking."""
    import datetime as dt

    from sqlalchemy import exists, select

    from .store import ActionRow

    hours = min(limits.open_seat_hours, limits.idle_game_hours)
    before = dt.datetime.fromtimestamp(now - hours * 3600.0, dt.UTC)
    with store.session() as s:
        open_seat = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind == "human",
                                   SeatRow.token_hash.is_(None))
        moved = exists().where(ActionRow.game_id == GameRow.id, ActionRow.at >= before)
        return list(s.scalars(select(GameRow.id).where(
            GameRow.ended.is_(None), GameRow.created < before, open_seat | ~moved)
            .order_by(GameRow.created).limit(limit)))


class OpenArchived:
    """ASGI middleware: before a request or websocket about a game
    (``/api/games/{id}/...``, ``/ws/games/{id}``) that is not in memory, read it from the
    database in a thread (a finished game: :meth:`.archive.FinishedGames.load`), so the
    route finds it without replaying a whole game in the event loop."""

    def __init__(self, app: Any, service: GameService) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            parts = scope.get("path", "").strip("/").split("/")
            if (len(parts) >= 3 and parts[:2] in (["api", "games"], ["ws", "games"])
                    and 0 < len(parts[2]) <= GAME_ID_CHARS):
                game_id = parts[2]
                service = self.service
                if game_id not in service.games and game_id not in service.finished:
                    with contextlib.suppress(ServerError, StoreError):
                        await asyncio.to_thread(service.finished.load, game_id)
        await self.app(scope, receive, send)
