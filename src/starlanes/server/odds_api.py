"""The battle calculator's work on the server: every calculation bounded, in its turn, on a
share of a core (the web calculator's routes are :mod:`.odds_routes`; the tables' odds,
:meth:`.service.GameService.odds`, run here too).

The server knows no game here: everything game-specific is in each game's
``odds_calculator`` companion module (:mod:`starlanes.analysis.odds.calculator`). Every
request is bounded: body size (pydantic limits, and the server's body limit), units per
side, Monte Carlo battles, the exact state space, the seconds of an engine simulation and
the orders a 'best' order search tries (:class:`Limits`); the limits middleware
rate-limits each client.

Cost. The web calculator's battles are computed in a worker process (one per place, see
below; started when first needed, at a lower CPU priority, ending with the server), so a
calculation never holds the server's interpreter lock while players move; the tables' odds
(a seat's own battle) run in the thread pool. Before it runs, a request's cost is estimated
from its fleets (:func:`estimate`: units per side, the exact state space from the hit
points the form gives each unit, the Monte Carlo work); a large battle is answered with a
Monte Carlo estimate of fewer battles, and the report says so. While it runs, a calculation
may use :data:`CPU_SECONDS` of CPU: past that it is stopped and refused with 422 and the
reason (some battles cost far more than their size shows). At most :data:`AT_ONCE`
calculations run at once in a process (the table's odds, :meth:`.service.GameService.odds`,
included: :data:`GATE`), using at most :data:`SHARE` of a core in the long run; a request
that waits :data:`WAIT_SECONDS` for its turn, or comes while that share is spent, is
refused with 429 and ``Retry-After``.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import logging
import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

import psutil

from starlanes.engine import BadOptionError, StarlanesError, UnknownGameError

from .errors import ServerError, TooMany, Unavailable, Unprocessable
from .workers import end_worker, serve_jobs, spawn_worker, worker_ready

log = logging.getLogger("starlanes.server")

T = TypeVar("T")

WEB_LIMITS_UNITS = 60
WEB_LIMITS_TRIALS = 400
WEB_LIMITS_STATES = 200_000
WEB_LIMITS_SECONDS = 0.7
"""An engine simulation (battles the exact model does not cover) stops after this long,
within :data:`CPU_SECONDS`."""
WEB_LIMITS_BEST_ORDERS = 120
"""A 'best' combat order search tries at most this many orders (5 different ships)."""

CPU_SECONDS = 0.5
"""CPU seconds one odds calculation may use before it is stopped and refused."""
SHARE = 0.25
"""The share of one core the odds calculations of a process may use in the long run: a
calculation starts only while they owe less than :data:`CPU_SECONDS` (what they used, less
this share of the seconds since), so a stream of costly requests cannot hold the server's
interpreter lock away from the players' moves."""
AT_ONCE = 1
"""Odds calculations running at once in a process (the web calculator's and the tables')."""
WAIT_SECONDS = 2.0
"""Seconds a calculation waits for its turn before it is refused with 429."""
RETRY_AFTER = 2
"""The ``Retry-After`` of that refusal, in seconds."""
NICE = 10
"""How much lower the odds worker process's CPU priority is than the server's."""
START_WITHIN = 60.0
"""Seconds an odds worker process may take to start (imports on a loaded machine)."""
BACKSTOP_FACTOR = 4.0
"""A worker process that has used this many times a calculation's CPU seconds, plus one
second, without answering (its own stop did not fire: a long call into numpy) is killed and
the request refused with 422, as a battle too costly."""
WALL_LONGEST = 30.0
"""A worker process that has not answered after this many wall-clock seconds, without
having used its CPU budget (the machine is busy and its lower priority gets no CPU), is
killed and the request refused as busy (429 with :data:`RETRY_AFTER`): the battle was not
shown to be too costly, and it is charged only the CPU it used."""
POLL_SECONDS = 0.25
"""How often a waiting request reads its worker process's CPU seconds."""
BUSY = ("the battle calculator is busy with other players' battles; "
        f"try again in {RETRY_AFTER} seconds")
"""The reason of a refusal for a busy calculator (no turn in time, a starved worker)."""
WORKER_ENDED = "the calculation's process ended; try again in a moment"
MC_WORK = 24_000
"""Monte Carlo battles times units in them that a request gets in full; a larger battle
gets fewer battles (at least :data:`MC_LEAST`)."""
MC_LEAST = 100
"""The fewest Monte Carlo battles a reduced estimate runs."""

@dataclass(frozen=True)
class Estimate:
    """What a request is expected to cost, worked out before it runs: ``units`` per side,
    ``states`` (the exact state space: the product of each side's hit points plus one, the
    hit points a unit can take read from the form's ``max_damage``), ``trials`` (the Monte
    Carlo battles it gets: :data:`WEB_LIMITS_TRIALS`, fewer for a large battle), and
    ``reduced`` when that is fewer."""

    units: tuple[int, int]
    states: int
    trials: int
    reduced: bool

    def limits(self, base: Any) -> Any:
        """``base`` (:class:`~starlanes.analysis.odds.calculator.Limits`) with this
        estimate's trials."""
        from dataclasses import replace

        return replace(base, trials=self.trials)

    def json(self) -> dict[str, Any]:
        return {"units": list(self.units), "states": self.states, "trials": self.trials,
                "reduced": self.reduced, "cpu_seconds": CPU_SECONDS}


_ENTRY = re.compile(r"^\s*(?:(\d+)\s*x?\s+)?([^/\s]+)")


def estimate(form: dict[str, Any], attacker: str, defender: str,
             trials: int = WEB_LIMITS_TRIALS) -> Estimate:
    """The cost of the battle ``attacker`` against ``defender`` (fleet texts such as
    ``"3 fighter, destroyer/1"``) with the game's calculator ``form``, read loosely (the
    game's own parser reports malformed entries; an unknown unit counts one hit point).
    Cheap: no game is loaded."""
    hit_points = {u["id"]: int(u.get("max_damage", 0)) + 1 for u in form.get("units", [])}
    units, hp = [0, 0], [0, 0]
    for side, text in enumerate((attacker, defender)):
        for part in text.split(","):
            m = _ENTRY.match(part)
            if m is None:
                continue
            n = int(m.group(1) or 1)
            units[side] += n
            hp[side] += n * hit_points.get(m.group(2), 1)
    total = max(1, units[0] + units[1])
    most = max(MC_LEAST, MC_WORK // total)
    return Estimate((units[0], units[1]), (hp[0] + 1) * (hp[1] + 1), min(trials, most),
                    most < trials)


def _too_many(message: str, wait: int) -> TooMany:
    """A refusal (429) with ``message`` and ``Retry-After: wait`` seconds."""
    error = TooMany(message)
    error.retry_after = wait
    return error


class OddsGate:
    """At most ``at_once`` odds calculations at once (a process's), each within
    ``cpu_seconds`` of CPU. Thread-safe; ``running`` and ``most`` (the most at once so far)
    are for tests and operators."""

    def __init__(self, at_once: int = AT_ONCE, wait: float = WAIT_SECONDS,
                 cpu_seconds: float = CPU_SECONDS) -> None:
        self.at_once, self.wait, self.cpu_seconds = at_once, wait, cpu_seconds
        self._slots = threading.BoundedSemaphore(at_once)
        self._lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.share = SHARE
        self._owed = 0.0
        self._at = time.monotonic()

    def _owing(self) -> float:
        """CPU seconds the calculations owe now (under ``_lock``)."""
        now = time.monotonic()
        self._owed = max(0.0, self._owed - (now - self._at) * self.share)
        self._at = now
        return self._owed

    @contextmanager
    def turn(self) -> Iterator[list[float]]:
        """Hold one of the places; TooMany (429, ``Retry-After``) after waiting
        ``wait`` seconds for one, or while the calculations owe more than ``cpu_seconds``
        of their share. Yields a list: append the CPU seconds a calculation used elsewhere
        (a worker process); without, this thread's are counted."""
        if not self._slots.acquire(timeout=self.wait):
            raise _too_many(BUSY, RETRY_AFTER)
        with self._lock:
            owed = self._owing()
            if owed >= self.cpu_seconds:
                self._slots.release()
                wait = max(1, round((owed - self.cpu_seconds) / self.share + 0.5))
                raise _too_many("the battle calculator has used its share of the server "
                                f"for now; try again in {wait} seconds", wait)
            self.running += 1
            self.most = max(self.most, self.running)
        began = time.thread_time()
        spent: list[float] = []
        try:
            yield spent
        finally:
            with self._lock:
                self._owing()
                self._owed += sum(spent) if spent else time.thread_time() - began
                self.running -= 1
            self._slots.release()

    def run(self, compute: Callable[[], T]) -> T:
        """``compute()`` in its turn, stopped past ``cpu_seconds`` of this thread's CPU
        (Unprocessable, 422, saying so). Raises TooMany when no turn comes in time."""
        with self.turn():
            return within_cpu(compute, self.cpu_seconds)

    def compute_elsewhere(self, game: str, attacker: str, defender: str,
                          settings: dict[str, Any], limits: Any) -> dict[str, Any]:
        """The odds report (as JSON) of the web calculator's request, computed in a worker
        process in its turn, stopped past ``cpu_seconds``. Raises TooMany, Unprocessable
        (the game's reason, or the CPU budget)."""
        with self.turn() as spent:
            worker = _WORKERS.get()
            try:
                ok, value, cpu = worker.compute((game, attacker, defender, settings, limits,
                                                 self.cpu_seconds))
            finally:
                _WORKERS.put(worker)
            spent.append(cpu)
        if ok is None:
            raise _too_many(value, RETRY_AFTER)
        if not ok:
            raise Unprocessable(value)
        return value


def _odds_job(job: tuple[str, str, str, dict[str, Any], Any, float]) -> dict[str, Any]:
    """A worker's calculation: the report as JSON. Raises Unprocessable with the reason."""
    game, attacker, defender, settings, limits, seconds = job
    module = calculator_for(game)
    try:
        report = within_cpu(lambda: module.compute(_game(game), attacker, defender,
                                                   settings, limits), seconds)
    except ServerError:
        raise
    except (StarlanesError, BadOptionError) as e:
        raise Unprocessable(str(e)) from None
    return report.to_json()


def _odds_reply(job: Any) -> tuple[bool, Any]:
    try:
        return True, _odds_job(job)
    except ServerError as e:
        return False, str(e)
    except Exception as e:  # noqa: BLE001 - any fault is this request's only
        return False, f"the calculation failed: {e}"


def _worker_main(conn: Connection, parent_pid: int, nice: int) -> None:
    """An odds worker process (:func:`.workers.serve_jobs`): answers jobs with ``(ok, report
    or reason, cpu seconds)`` until the pipe closes."""
    serve_jobs(conn, parent_pid, nice, _odds_reply)


class _Worker:
    """One odds worker process, started when first needed and again after it was
    killed."""

    def __init__(self) -> None:
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None

    def compute(self, job: tuple[Any, ...]) -> tuple[bool | None, Any, float]:
        """``(ok, report or reason, CPU seconds)``. A worker that does not answer is
        watched by its CPU seconds, not the clock, since a busy machine may give it none:
        past :data:`BACKSTOP_FACTOR` times the job's CPU seconds plus one it is killed and
        the job refused (``ok`` False, the battle too costly); past :data:`WALL_LONGEST`
        wall-clock seconds it is killed and the job refused as busy (``ok`` None). Either
        way the CPU seconds it used are charged."""
        proc, conn = self._process()
        watch = _cpu_clock(proc.pid)
        cpu_began = watch()
        began = time.monotonic()
        backstop = job[-1] * BACKSTOP_FACTOR + 1.0
        ok: bool | None
        try:
            conn.send(job)
            while True:
                left = began + WALL_LONGEST - time.monotonic()
                ready = wait([conn, proc.sentinel], timeout=max(0.0, min(POLL_SECONDS, left)))
                if conn in ready:
                    return conn.recv()
                used = watch() - cpu_began
                if ready:  # the process ended
                    reason, ok = WORKER_ENDED, None
                    break
                if used >= backstop:
                    ok = False
                    reason = (f"this battle needs more computing than the calculator gives "
                              f"one request ({job[-1]:g} s of CPU); make the fleets smaller "
                              "or simpler, or run it on your own machine with 'starlanes odds'")
                    break
                if left <= 0:
                    reason, ok = BUSY, None
                    break
        except (EOFError, OSError):
            reason, ok, used = WORKER_ENDED, None, watch() - cpu_began
        self.stop()
        log.info("an odds worker was stopped after %.1f s (%.2f s of CPU) without an answer",
                 time.monotonic() - began, used)
        return ok, reason, max(0.0, used)

    def _process(self) -> tuple[BaseProcess, Connection]:
        if self._proc is not None and self._conn is not None and self._proc.is_alive():
            return self._proc, self._conn
        proc, conn = spawn_worker(_worker_main, NICE, "starlanes-odds")
        self._proc, self._conn = proc, conn
        if worker_ready(proc, conn, START_WITHIN):
            return proc, conn
        self.stop()
        raise Unavailable("the battle calculator could not start; try again in a moment")

    def stop(self) -> None:
        proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        end_worker(proc, conn)


_WORKERS: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
for _ in range(AT_ONCE):
    _WORKERS.put(_Worker())


def _cpu_clock(pid: int) -> Callable[[], float]:
    """A reader of process ``pid``'s CPU seconds (user and system; its last reading once it
    ended, 0 when it ended before it was first read)."""
    last = [0.0]
    try:
        process: psutil.Process | None = psutil.Process(pid)
    except psutil.Error:
        process = None

    def read() -> float:
        if process is not None:
            with contextlib.suppress(psutil.Error):
                times = process.cpu_times()
                last[0] = times.user + times.system
        return last[0]

    return read


class _OverBudget(BaseException):
    """Raised inside a calculation that passed its CPU seconds (a BaseException, so that
    no ``except Exception`` in the calculation swallows it)."""


def within_cpu(compute: Callable[[], T], seconds: float) -> T:
    """``compute()`` in this thread, stopped once this thread used ``seconds`` of CPU on it
    (where the clock of a thread cannot be read: of wall-clock time). A watcher thread
    raises an exception in this thread, which Python delivers between two bytecodes (a
    long call into numpy ends first). Raises Unprocessable (422) with the reason then."""
    ident = threading.get_ident()
    clock_of = getattr(time, "pthread_getcpuclockid", None)
    try:
        clock = clock_of(ident) if clock_of is not None else None
        read: Callable[[], float] = ((lambda: time.clock_gettime(clock)) if clock is not None
                                     else time.monotonic)
    except OSError:
        read = time.monotonic
    began = read()
    lock = threading.Lock()
    fired = [False]
    finished = threading.Event()

    def watch() -> None:
        pause = 0.02
        while not finished.wait(pause):
            try:
                used = read() - began
            except OSError:  # the thread ended
                return
            if used >= seconds:  # again now and then: a callback (a weakref's) may swallow it
                with lock:
                    if finished.is_set():
                        return
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(ident), ctypes.py_object(_OverBudget))
                    fired[0] = True
                pause = 0.2

    threading.Thread(target=watch, name="starlanes-odds-watch", daemon=True).start()
    try:
        try:
            return compute()
        finally:
            finished.set()  # first: the watcher fires no more
            with lock:
                if fired[0]:  # raised already, or still pending: drop it
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
    except _OverBudget:
        log.info("an odds calculation was stopped after %g s of CPU", seconds)
        raise Unprocessable(f"this battle needs more computing than the calculator gives "
                            f"one request ({seconds:g} s of CPU); make the fleets smaller "
                            "or simpler, or run it on your own machine with "
                            "'starlanes odds'") from None


GATE = OddsGate()
"""The process's odds calculations (the web calculator's and the tables')."""


def calculator_for(game: str) -> Any:
    """The game's battle calculator (its ``odds_calculator`` companion). Raises
    Unprocessable (422) for a game without one or an unknown game."""
    from starlanes.analysis.odds.calculator import calculator
    from starlanes.analysis.odds.rd_position import OddsError

    try:
        return calculator(game)
    except (UnknownGameError, OddsError) as e:
        raise Unprocessable(str(e)) from None


@functools.lru_cache(maxsize=8)
def _game(game: str) -> Any:
    """The game with its packaged content and default options (the calculator's)."""
    from starlanes.engine import game_class

    cls = game_class(game)
    return cls(players=max(2, cls.min_players))


@functools.lru_cache(maxsize=8)
def form_for(game: str) -> dict[str, Any]:
    """What the calculator's form offers for ``game``: ``{"game", ...}`` with the units
    and settings it can pick (:func:`calculator_for` ``.form``). Raises Unprocessable."""
    return {"game": game, **calculator_for(game).form(_game(game))}
