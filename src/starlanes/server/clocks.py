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

This module reads the clocks of a game (anything shaped as :class:`Clocked`: the live game
of :mod:`.tables` uses it); :mod:`.clock_runner` runs them, and the outcomes are
:mod:`.outcomes`'.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .errors import Unprocessable

if TYPE_CHECKING:
    from starlanes.engine import GameState

    from .config import FairPlay
    from .store import GameRow


class ClockSeat(Protocol):
    """What the clocks read of a seat (:class:`.tables.SeatInfo`)."""

    @property
    def is_bot(self) -> bool: ...

    @property
    def is_open(self) -> bool: ...


class Clocked(Protocol):
    """What the clocks read of a game being played (:class:`.tables.LiveGame`): its
    settings and stored result (``row``), seats, the state, per action its seat and time
    (``marks``) and game turn (``turns``), and when every seat was taken
    (``clock_began``, set by :func:`seats_filled`)."""

    row: GameRow
    marks: list[tuple[int, float]]
    turns: list[Any]
    clock_began: float | None

    @property
    def seats(self) -> Sequence[ClockSeat]: ...

    @property
    def state(self) -> GameState: ...

    @property
    def over(self) -> bool: ...

    def waiting_for(self) -> int | None: ...


KINDS = ("move", "game")
TIMEOUTS = ("bot", "lose")


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
def running_seat(live: Clocked) -> int | None:
    """The seat whose clock runs now: the human seat deciding, once every seat is taken,
    in a game with a clock that is not over; None otherwise."""
    if live.row.clock_seconds <= 0 or live.over or any(s.is_open for s in live.seats):
        return None
    waiting = live.waiting_for()
    if waiting is None or live.seats[waiting].is_bot:
        return None
    return waiting


def _decided(live: Clocked, seat: int, before: int | None = None) -> bool:
    """Whether ``seat`` made any of the first ``before`` actions (None: of all)."""
    return any(s == seat for s, _ in live.marks[:before])


def _run_start(live: Clocked, seat: int) -> int:
    """The index of the first of the actions at the end of the history that ``seat`` made
    in the game turn now under way (its decisions so far this turn, one after another);
    ``len(marks)`` when the last action is not one of them."""
    turn = live.state.turn_key()
    i = len(live.marks)
    while i > 0 and live.marks[i - 1][0] == seat and live.turns[i - 1] == turn:
        i -= 1
    return i


def turn_start(live: Clocked, now: float | None = None) -> float:
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


def _budgets(live: Clocked) -> tuple[list[float | None], list[bool]]:
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


def remaining(live: Clocked, now: float | None = None) -> tuple[list[float | None], int | None]:
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


def deadline(live: Clocked) -> float | None:
    """When the running seat's time runs out (epoch seconds), None when no clock runs."""
    running = running_seat(live)
    if running is None:
        return None
    now = wall()
    left, _ = remaining(live, now)
    return now + float(left[running] or 0.0)


def clock_view(live: Clocked) -> dict[str, Any] | None:
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


def seats_filled(live: Clocked) -> None:
    """Note the moment the last open seat was taken: a first decision's clock starts then."""
    if not any(s.is_open for s in live.seats):
        live.clock_began = wall()


def clock_note(live_or_state: Any, seat: int) -> str:
    """The log line of a decision the clock made for ``seat``."""
    state = getattr(live_or_state, "state", live_or_state)
    namer = getattr(state, "seat_name", None)
    who = namer(seat) if callable(namer) else f"P{seat}"
    return f"{who}'s turn clock ran out: the heuristic bot decided for them"
