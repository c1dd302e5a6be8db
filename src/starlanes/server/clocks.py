"""Turn clocks: how much time each human seat has left, when it runs out, and what then.

Two kinds (``GameRow.clock_kind``), both off while ``clock_seconds`` is 0:

- ``move``: each turn may take ``clock_seconds`` (correspondence games: days' worth):
  the decisions a seat makes one after another within one game turn share that time.
- ``game``: a seat has ``clock_seconds`` for all of its decisions, and ``clock_increment``
  more once per game turn in which it decides (chess-style, Fischer increment).

Turns are the game's own (``GameState.turn_key``: in all four games the round and the seat
whose turn it is), not decisions: a Galactic Domination turn of a dozen decisions earns one
increment, not a dozen. A seat that answers during another seat's turn (a reaction card, a
battle choice) earns one increment for that turn as well, so a seat made to answer is not
drained; a correspondence clock's time restarts when the decision comes back to a seat
after another seat decided (``docs/community/clocks.md``).

Nothing about the clocks is stored besides the settings: the time a decision took is the
stored ``at`` of its action minus the ``at`` of the action before it, so the clocks come
back as they were after a restart. A seat's first decision of the game is not taken from
its time (the clock starts with it, as on chess servers: the moment a seat joined is not
stored); it still has a deadline, the seat's whole time from the moment it became that
seat's decision with every seat taken (or from the restart, when the server restarted
meanwhile). Bots and open seats have no clock; no clock runs while a seat is open.

When a seat's time runs out (``GameRow.timeout``): ``bot``, the fallback bot decides for
it and the log says so; ``lose``, the seat loses: the server stores an outcome
(``GameRow.outcome``: ``{"reason": "timeout", "loser": seat, "ranks": [...]}``) and the
game is over. With a cluster, every web process holding the game runs its clock: the
store's one action per (game, move) and the same outcome written by each keep them in step.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from starlanes.engine import StarlanesError

from .catalogue import FALLBACK_BOT
from .errors import ServerError, Unprocessable
from .store import StoreError, now

if TYPE_CHECKING:
    from .config import FairPlay
    from .service import GameService
    from .tables import LiveGame

log = logging.getLogger("starlanes.server")

KINDS = ("move", "game")
TIMEOUTS = ("bot", "lose")
POLL = 1.0
"""Seconds a clock task sleeps at most before it looks at its deadline again."""


def wall() -> float:
    """Now, in seconds since the epoch: what the clocks measure (stored ``at`` values are
    the same scale)."""
    return time.time()


def check_settings(clock_seconds: float, kind: str, increment: float, timeout: str,
                   max_seconds: float) -> None:
    """Refuse clock settings that make no sense with Unprocessable (422): ``kind`` not in
    :data:`KINDS`, ``timeout`` not in :data:`TIMEOUTS`, an increment outside
    0..``max_seconds`` or without a ``game`` clock, ``lose`` without a clock."""
    if kind not in KINDS:
        raise Unprocessable(f"clock_kind must be one of {', '.join(KINDS)}")
    if timeout not in TIMEOUTS:
        raise Unprocessable(f"timeout must be one of {', '.join(TIMEOUTS)}")
    if not 0 <= increment <= max_seconds:
        raise Unprocessable(f"clock_increment must lie in 0..{max_seconds:g}")
    if increment > 0 and (kind != "game" or clock_seconds <= 0):
        raise Unprocessable("clock_increment is for a 'game' clock (with clock_seconds)")
    if timeout == "lose" and clock_seconds <= 0:
        raise Unprocessable("timeout 'lose' needs a clock: give clock_seconds")


def duration(seconds: float) -> str:
    """Seconds in words: ``30 seconds``, ``5 minutes``, ``2 hours``, ``3 days``."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}" + ("s" if n != 1 else "")
    n = round(seconds, 1)
    return f"{n:g} second" + ("s" if n != 1 else "")


def check_rated(clock_seconds: float, kind: str, fair_play: FairPlay) -> None:
    """Refuse, with Unprocessable (422), the clock of a rated game that is shorter than the
    server's minimum time control (``fair_play.rated_min_game_seconds`` per player for a
    ``game`` clock, ``fair_play.rated_min_turn_seconds`` per turn for a ``move`` clock) or
    missing: a game decided by the clock in a second is no game."""
    least_game = duration(fair_play.rated_min_game_seconds)
    least_turn = duration(fair_play.rated_min_turn_seconds)
    if clock_seconds <= 0:
        raise Unprocessable(f"a rated game needs a turn clock: at least {least_game} per "
                            f"player for the whole game, or {least_turn} per turn")
    if kind == "game" and clock_seconds < fair_play.rated_min_game_seconds:
        raise Unprocessable(f"a rated game's whole-game clock gives each player at least "
                            f"{least_game} (this one {duration(clock_seconds)})")
    if kind == "move" and clock_seconds < fair_play.rated_min_turn_seconds:
        raise Unprocessable(f"a rated game's clock gives each turn at least {least_turn} "
                            f"(this one {duration(clock_seconds)})")


# ---------------------------------------------------------------------- reading the clocks
def running_seat(live: LiveGame) -> int | None:
    """The seat whose clock runs now: the human seat deciding, once every seat is taken,
    in a game with a clock that is not over; None otherwise."""
    if live.row.clock_seconds <= 0 or live.over or any(s.is_open for s in live.seats):
        return None
    waiting = live.waiting_for()
    if waiting is None or live.seats[waiting].is_bot:
        return None
    return waiting


def _decided(live: LiveGame, seat: int, before: int | None = None) -> bool:
    """Whether ``seat`` made any of the first ``before`` actions (None: of all)."""
    return any(s == seat for s, _ in live.marks[:before])


def _run_start(live: LiveGame, seat: int) -> int:
    """The index of the first of the actions at the end of the history that ``seat`` made
    in the game turn now under way (its decisions so far this turn, one after another);
    ``len(marks)`` when the last action is not one of them."""
    turn = live.state.turn_key()
    i = len(live.marks)
    while i > 0 and live.marks[i - 1][0] == seat and live.turns[i - 1] == turn:
        i -= 1
    return i


def turn_start(live: LiveGame, now: float | None = None) -> float:
    """When the time now running began (epoch seconds): for a ``game`` clock the previous
    action's time (each decision's time is taken from the seat's budget); for a ``move``
    clock the time before the seat's first decision of its run in this game turn (the run
    shares one turn's time). For a seat's first decision of the game, not before the moment
    every seat was taken (or the server restarted)."""
    waiting = live.waiting_for()
    end = len(live.marks)
    if live.row.clock_kind == "move" and waiting is not None:
        end = _run_start(live, waiting)
    last = live.marks[end - 1][1] if end > 0 else None
    if last is not None and waiting is not None and _decided(live, waiting, end):
        return last
    began = live.clock_began if live.clock_began is not None else (
        now if now is not None else wall())
    return began if last is None else max(last, began)


def _budgets(live: LiveGame) -> tuple[list[float | None], list[bool]]:
    """Per seat, its time left at the start of the decision now waited for (None: a bot)
    and whether its time is counted yet (it has made its first decision)."""
    row = live.row
    left: list[float | None] = [None if s.is_bot else float(row.clock_seconds)
                                for s in live.seats]
    counted = [False] * len(live.seats)
    paid: set[tuple[int, Any]] = set()  # (seat, turn) pairs that earned their increment
    prev: float | None = None
    for (seat, at), turn in zip(live.marks, live.turns, strict=False):
        if 0 <= seat < len(left) and left[seat] is not None and row.clock_kind == "game":
            spent = at - prev if counted[seat] and prev is not None else 0.0
            bonus = 0.0
            if (seat, turn) not in paid:
                paid.add((seat, turn))
                bonus = row.clock_increment
            left[seat] = left[seat] - spent + bonus  # type: ignore[operator]
        if 0 <= seat < len(counted):
            counted[seat] = True
        prev = at
    return left, counted


def remaining(live: LiveGame, now: float | None = None) -> tuple[list[float | None], int | None]:
    """Per seat, the seconds it has left at ``now`` (epoch seconds; default the current
    time), None for bots; and the seat whose clock runs (None: none). The running seat's
    figure may be negative once its time is out."""
    now = wall() if now is None else now
    left, _ = _budgets(live)
    running = running_seat(live)
    if running is not None:
        base = left[running] if live.row.clock_kind == "game" else live.row.clock_seconds
        left[running] = float(base or 0.0) - (now - turn_start(live, now))
    return left, running


def deadline(live: LiveGame) -> float | None:
    """When the running seat's time runs out (epoch seconds), None when no clock runs."""
    running = running_seat(live)
    if running is None:
        return None
    now = wall()
    left, _ = remaining(live, now)
    return now + float(left[running] or 0.0)


def clock_view(live: LiveGame) -> dict[str, Any] | None:
    """The clocks as a view shows them, None for a game without a clock: ``kind``,
    ``seconds`` (the setting), ``increment``, ``timeout`` (``bot``/``lose``),
    ``remaining`` (per seat: seconds left, at least 0, at ``server_time``; None for a bot),
    ``counted`` (per seat: whether its time is taken yet; a seat's first decision is not),
    ``running`` (the seat whose clock runs, or None) and ``server_time`` (epoch seconds),
    so that a page counts the running clock down by itself."""
    row = live.row
    if row.clock_seconds <= 0:
        return None
    now = wall()
    left, running = remaining(live, now)
    _, counted = _budgets(live)
    outcome = row.outcome or {}
    if outcome.get("reason") == "timeout" and 0 <= int(outcome.get("loser", -1)) < len(left):
        left[int(outcome["loser"])] = 0.0  # the seat lost on time: its clock shows 0:00
    return {"kind": row.clock_kind, "seconds": row.clock_seconds,
            "increment": row.clock_increment, "timeout": row.timeout,
            "remaining": [None if x is None else max(0.0, round(x, 3)) for x in left],
            "counted": counted, "running": running, "server_time": round(now, 3)}


def seats_filled(live: LiveGame) -> None:
    """Note the moment the last open seat was taken: a first decision's clock starts then."""
    if not any(s.is_open for s in live.seats):
        live.clock_began = wall()


def timeout_outcome(live: LiveGame, loser: int) -> dict[str, Any]:
    """The result of ``loser`` running out of time: last place for it; the other seats are
    placed by the game's current scores (equal scores share a place)."""
    from .tables import places

    scores = list(live.state.scores())
    others = [s for s in range(len(scores)) if s != loser]
    ranks = [0] * len(scores)
    for seat, place in zip(others, places([scores[s] for s in others]), strict=True):
        ranks[seat] = place
    ranks[loser] = len(scores) - 1
    return {"reason": "timeout", "loser": loser, "ranks": ranks}


def never_moved_outcome(seat: int) -> dict[str, Any]:
    """The result of a seat whose time ran out before it made any decision of its own: the
    game is aborted (the abort rule of rated play: nobody wins, nobody's rating moves),
    since a game a seat never played is no game (``docs/community/fair-play.md``)."""
    return {"reason": "abort", "by": None, "never_moved": seat, "ranks": None}


def clock_note(live_or_state: Any, seat: int) -> str:
    """The log line of a decision the clock made for ``seat``."""
    state = getattr(live_or_state, "state", live_or_state)
    namer = getattr(state, "seat_name", None)
    who = namer(seat) if callable(namer) else f"P{seat}"
    return f"{who}'s turn clock ran out: the heuristic bot decided for them"


# ---------------------------------------------------------------------- running them
class ClockRunner:
    """One task per game whose clock runs: it sleeps until the deadline, then makes the
    fallback bot decide (``timeout`` ``bot``) or ends the game (``lose``)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def kick(self, live: LiveGame) -> None:
        """Start the game's clock task if its clock runs and no task is watching it."""
        if live.clock_deadline is None:
            return
        task = self.tasks.get(live.id)
        if task is None or task.done():
            self.tasks[live.id] = asyncio.get_running_loop().create_task(self._run(live))

    async def _run(self, live: LiveGame) -> None:
        service = self.service
        while live.clock_deadline is not None and not service.stopping:
            delay = live.clock_deadline - wall()
            if delay > 0:
                await asyncio.sleep(min(delay, POLL))
                live.restart_clock()  # (a clock read from the store may have moved)
                continue
            seat, seq = running_seat(live), live.seq
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
            if (live.over or live.seq != seq or running_seat(live) != seat
                    or live.clock_deadline is None or live.clock_deadline > wall()):
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
