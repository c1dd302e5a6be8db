"""Bot seats: agents think in worker processes, never in the server's event loop.

A job names the game's settings and the notations played so far; the worker rebuilds the
state (keeping a few recent games cached, so a bot's next move only applies the actions
since its last one) and returns the agent's action as notation. The server then applies it
like anyone's action, so bot moves are checked, stored and pushed the same way.

Fairness. Jobs wait in one queue per game, and games are grouped by their ``owner`` (the
client that created them). The groups share the workers by what their bots cost, not by how
many games they have: each group is charged the CPU seconds its jobs really used (measured
in the worker, in steps of :data:`QUANTUM`; a job is charged its budget while it thinks),
and a free worker takes the next job of the group charged least so far (fair queueing on
CPU time), within that group its games in turn (first come first served within a game); a
game never has two jobs thinking at once. A group that comes back after a pause starts
at most :data:`CREDIT` seconds behind the least charged group waiting (its idle time buys
little), a new group level with it; so a client that created sixty games of a heavy bot gets
the same CPU as a client with one, and a cheap bot goes ahead of groups that have been
thinking hard. Jobs whose budget is over
``quick_seconds`` (by default every search with a time budget, even half a second) are
*slow*: they may hold all workers but one, so random, heuristic and learned bots always
find a worker however many searching games think (a flood of games of the cheapest search
once made every heuristic move wait for a search to end). A pool
asked for a single worker process therefore runs two: one for any bot and one kept for
quick bots.
A job that thinks past its budget plus ``overrun`` seconds has its worker process killed
and fails with TimeoutError (threads cannot be stopped: in thread mode that cap is not
enforced).

Workers end with the server; how a worker process lives, and the thread of the pool that
serves it, are :mod:`.workers`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from starlanes.agents import make_agent, parse_spec
from starlanes.engine import GameState, derive_seed, load

from .jobs import QUICK_SECONDS
from .workers import Slot, serve_jobs
from .writer import settle

_CACHE_SIZE = 256
"""Games a worker keeps replayed; beyond that a bot's move replays its game from the start."""
_cache: OrderedDict[str, GameState] = OrderedDict()

THREADS = 4
"""Threads thinking for bots when the server runs no worker process."""

NICE = 19
"""How much lower than the server's the CPU priority of worker processes is (the lowest):
where the machine's cores are all busy, the server's answers to players go first and a
thinking bot takes what is left (its search then runs fewer iterations within its time).
At nice 10 the bots of many search games still took a tenth of a core's turns from the
server process (the abuse benchmark's bot CPU attack)."""

QUANTUM = 0.01
"""Seconds of CPU a job is charged at least, and the step its charge is rounded to: a few
milliseconds of measuring noise do not reorder clients whose bots cost the same."""

CREDIT = 0.5
"""Seconds of CPU a group that comes back may be behind the least charged group with jobs:
a game whose bot moves now and then (a human plays in between) goes ahead of games that
think all the time, but a client back after a long pause takes at most this much CPU
before the others get their turns again. A group never seen starts level with the least
charged, with no credit."""

GROUPS_KEPT = 10_000
"""Fairness groups whose charge is remembered while they have no job; past that the least
charged are forgotten (they would start level with the least charged group anyway)."""


@dataclass(frozen=True)
class BotJob:
    """Everything a worker needs: the server's game id (cache key, and the unit of fairness),
    game settings, the notations so far, the seat, its agent spec and ``seconds``, the
    bot's thinking budget per move (0 for bots that answer at once), and ``owner``, the
    group the game is served in turn with (its creator; empty: a group of its own)."""

    key: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    notations: tuple[str, ...]
    seat: int
    spec: str
    seconds: float = 0.0
    owner: str = ""

    @property
    def group(self) -> str:
        """The fairness group: the owner, or the game itself when it has none."""
        return f"owner {self.owner}" if self.owner else f"game {self.key}"


class ClientBotTime:
    """Bot seconds the games of each owning client spent in its current hour (a fixed
    window of :data:`WINDOW` seconds per client, from its first charge); the empty owner
    is never counted. Memory stays bounded: past 10,000 clients, ended windows are
    forgotten."""

    WINDOW = 3600.0

    def __init__(self) -> None:
        self._spent: dict[str, tuple[float, float]] = {}  # owner: (window start, seconds)

    def spent(self, owner: str) -> float:
        """Seconds ``owner``'s bots spent in its current window (0 without one)."""
        window = self._spent.get(owner) if owner else None
        if window is None or time.monotonic() - window[0] >= self.WINDOW:
            return 0.0
        return window[1]

    def charge(self, owner: str, seconds: float) -> None:
        """Add ``seconds`` of thinking to ``owner``'s current window."""
        if not owner:
            return
        now = time.monotonic()
        start, spent = self._spent.get(owner, (now, 0.0))
        if now - start >= self.WINDOW:
            start, spent = now, 0.0
        self._spent[owner] = (start, spent + seconds)
        if len(self._spent) > 10_000:
            self._spent = {k: v for k, v in self._spent.items() if now - v[0] < self.WINDOW}


@dataclass(frozen=True)
class BotStats:
    """A snapshot of a pool: jobs waiting and thinking in each lane, and totals since it
    started (``dropped``: results nobody waited for any more, ``timed_out``: jobs killed
    past their budget)."""

    queued_quick: int
    queued_slow: int
    running_quick: int
    running_slow: int
    started: int
    dropped: int
    timed_out: int


def timed_spec(spec: str, seconds: float) -> str:
    """``spec`` with the game's bot time budget added to an MCTS spec that sets neither
    ``seconds`` nor ``iterations``; other specs are returned unchanged."""
    name, params = parse_spec(spec)
    if name != "mcts" or "seconds" in params or "iterations" in params or seconds <= 0:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}seconds={seconds:g}"


def job_budget(job: BotJob) -> float:
    """Seconds ``job`` may think: its ``seconds``, or an MCTS spec's own ``seconds`` when
    larger (a job built without ``seconds`` is not taken for a quick one)."""
    try:
        name, params = parse_spec(job.spec)
        spec_seconds = float(params.get("seconds", 0)) if name == "mcts" else 0.0
    except Exception:  # noqa: BLE001 - a bad spec fails in the worker, with its message
        spec_seconds = 0.0
    return max(job.seconds, spec_seconds, 0.0)


def _state_for(job: BotJob) -> GameState:
    state = _cache.pop(job.key, None)
    done = len(state.history) if state is not None else 0
    if state is None or [str(a) for a in state.history] != list(job.notations[:done]):
        state = load(job.game, players=job.players, seed=job.seed,
                     **job.options).new_initial_state()
        done = 0
    for text in job.notations[done:]:
        state.apply(state.game.parse_action(state, text))
    _cache[job.key] = state
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return state


def charge_of(cpu: float) -> float:
    """What a job that used ``cpu`` seconds of CPU is charged: whole steps of
    :data:`QUANTUM`, at least one."""
    return QUANTUM * max(1, round(cpu / QUANTUM))


def timed_move(job: BotJob) -> tuple[str, float]:
    """:func:`bot_move` and the CPU seconds this thread spent on it."""
    began = time.thread_time()
    notation = bot_move(job)
    return notation, time.thread_time() - began


def bot_move(job: BotJob) -> str:
    """Worker entry: the agent's action for ``job.seat`` as notation. The agent's RNG is
    seeded from the game seed, the seat and the move number, so a replayed server makes
    the same choices. Raises ValueError when the seat is not deciding, and what the agent
    raised."""
    state = _state_for(job)
    if state.current_player() != job.seat:
        raise ValueError(f"seat {job.seat} is not deciding at action {len(job.notations)}")
    agent = make_agent(job.spec, job.game,
                       derive_seed(job.seed, "bot", job.seat, len(job.notations)))
    return str(agent.act(state.clone()))


# ---------------------------------------------------------------------------- worker process
def _bot_job(job: BotJob) -> tuple[bool, Any]:
    try:
        return True, bot_move(job)
    except Exception as e:  # noqa: BLE001 - handed to the server
        return False, e


def _worker_main(conn: Connection, parent_pid: int, nice: int = NICE) -> None:
    """A bot worker process: :func:`.workers.serve_jobs` answering with ``(True, notation, cpu
    seconds)`` or ``(False, exception, cpu seconds)``."""
    serve_jobs(conn, parent_pid, nice, _bot_job)


# ---------------------------------------------------------------------------- the pool
class _Ticket:
    """One call of :meth:`BotPool.move`: the job, its lane, budget (``limit``: budget plus
    overrun) and what its group is charged while it thinks (``estimate``), and the future
    of the waiting task (compared by identity)."""

    __slots__ = ("job", "slow", "limit", "estimate", "loop", "future")

    def __init__(self, job: BotJob, slow: bool, limit: float, estimate: float,
                 loop: asyncio.AbstractEventLoop, future: asyncio.Future[str]) -> None:
        self.job, self.slow, self.limit, self.estimate = job, slow, limit, estimate
        self.loop, self.future = loop, future

    def deliver(self, result: str | None, error: BaseException | None) -> bool:
        """Hand the outcome to the waiting task; False when nobody waits any more."""
        if self.future.done():
            return False
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
            self.loop.call_soon_threadsafe(settle, self.future, result, error)
        return True


class BotPool:
    """Where bots think: ``workers`` worker processes (at least two: with ``workers=1`` a
    second one is kept for quick bots), or with ``workers=0`` ``threads``
    daemon threads of this process (tests and tiny servers; a search then shares the
    server's interpreter lock). Each worker is served by a thread of the pool that takes
    jobs in the fair order described in the module docstring.

    Workers are started with ``spawn`` when first needed, never forked from the running
    server (a fork copies the server's threads' locks in whatever state they are), so a
    script that starts a server with workers needs the usual ``if __name__ == "__main__":``
    guard. :meth:`close` ends them at once, even in the middle of a long search: a stopping
    server never waits for a bot.

    ``quick_seconds``: the largest budget of a quick job; ``overrun``: seconds a process
    worker may think past a job's budget before it is killed; ``nice``: how much lower the
    worker processes' CPU priority is than this process's (:data:`NICE`)."""

    def __init__(self, workers: int = 2, *, quick_seconds: float = QUICK_SECONDS,
                 nice: int = NICE, threads: int | None = None,
                 overrun: float = 60.0) -> None:
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = workers
        self.quick_seconds = quick_seconds
        self.overrun = overrun
        self.nice = nice
        slots = max(workers, 2) if workers else (THREADS if threads is None else threads)
        if slots < 1:
            raise ValueError("a pool in thread mode needs at least one thread")
        self.slow_cap = slots - 1 if slots >= 2 else 1
        """How many slow jobs may think at once: all workers but one, or the only one."""
        self._slots = [Slot(self, i, _worker_main, timed_move) for i in range(slots)]
        self._cond = threading.Condition()
        self._queues: OrderedDict[str, OrderedDict[str, deque[_Ticket]]] = OrderedDict()
        """Waiting jobs per fairness group and game, both in turn order (next to serve
        first; among groups charged alike, the first in this order goes)."""
        self._charged: dict[str, float] = {}
        """CPU seconds each fairness group was charged (its virtual time): of groups with a
        job waiting or thinking, and of idle groups charged more than :attr:`_floor`."""
        self._floor = 0.0
        """The least charge of the groups with jobs, never going back: where a group that
        comes back starts."""
        self._thinking: dict[str, int] = {}
        """Jobs thinking now per fairness group."""
        self._busy: set[str] = set()
        self._running: set[_Ticket] = set()
        self._counts = {"started": 0, "dropped": 0, "timed_out": 0}
        self._last_slow = False
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Start the workers now (worker processes are spawned in the background), so that
        no bot's first move waits for a Python process to start: on a loaded machine that
        takes seconds. Without it they start with the first move."""
        with self._cond:
            if not self._closed:
                self._start_locked()

    def _start_locked(self) -> None:
        if not self._started:
            self._started = True
            for slot in self._slots:
                slot.thread.start()

    async def move(self, job: BotJob) -> str:
        """The bot's action as notation. Raises what the agent raised, TimeoutError for a
        job killed past its budget, RuntimeError when its worker died or the pool is
        closed. Cancelling the call drops a waiting job; a thinking one finishes in its
        worker and its result is dropped."""
        budget = job_budget(job)
        loop = asyncio.get_running_loop()
        ticket = _Ticket(job, budget > self.quick_seconds, budget + self.overrun,
                         charge_of(budget), loop, loop.create_future())
        with self._cond:
            if self._closed:
                raise RuntimeError("the bot pool is closed")
            self._start_locked()
            if not self._active(job.group):  # new, or back after a pause
                floor = self._lowest()
                own = self._charged.get(job.group)
                self._charged[job.group] = floor if own is None else max(own, floor - CREDIT)
            games = self._queues.setdefault(job.group, OrderedDict())
            games.setdefault(job.key, deque()).append(ticket)
            self._cond.notify_all()
        try:
            return await ticket.future
        except asyncio.CancelledError:
            self._unqueue(ticket)
            raise

    def charged(self) -> dict[str, float]:
        """CPU seconds each fairness group (``owner X`` or ``game K``) was charged so far,
        of the groups the pool remembers (a snapshot)."""
        with self._cond:
            return dict(self._charged)

    def stats(self) -> BotStats:
        """Jobs waiting and thinking now, per lane, and the totals so far."""
        with self._cond:
            waiting = list(self._waiting())
            slow_running = sum(t.slow for t in self._running)
            slow_waiting = sum(t.slow for t in waiting)
            return BotStats(len(waiting) - slow_waiting, slow_waiting,
                            len(self._running) - slow_running, slow_running, **self._counts)

    def close(self) -> None:
        """Drop the waiting bot moves (their callers are cancelled) and stop the workers
        without waiting for their searches (threads are left to end with the process)."""
        with self._cond:
            self._closed = True
            tickets = list(self._waiting()) + list(self._running)
            self._queues.clear()
            self._cond.notify_all()
        for ticket in tickets:
            with contextlib.suppress(RuntimeError):
                ticket.loop.call_soon_threadsafe(ticket.future.cancel)
        for slot in self._slots:
            slot.stop()

    # -------------------------------------------------------------- used by the slots
    def _waiting(self) -> Iterator[_Ticket]:
        for games in self._queues.values():
            for queue in games.values():
                yield from queue

    def _unqueue(self, ticket: _Ticket) -> None:
        with self._cond:
            games = self._queues.get(ticket.job.group)
            queue = games.get(ticket.job.key) if games is not None else None
            if games is not None and queue is not None and ticket in queue:
                queue.remove(ticket)
                if not queue:
                    del games[ticket.job.key]
                if not games:
                    del self._queues[ticket.job.group]
                    self._forget()

    def _active(self, group: str) -> bool:
        return group in self._queues or group in self._thinking

    def _lowest(self) -> float:
        """The floor, raised to the least charge of the groups with jobs (under the lock)."""
        active = [c for g, c in self._charged.items() if self._active(g)]
        if active:
            self._floor = max(self._floor, min(active))
        return self._floor

    def _forget(self) -> None:
        """Drop the charges of idle groups :data:`CREDIT` or more below the floor (they
        would start about there anyway), and past :data:`GROUPS_KEPT` idle groups the
        least charged (under the lock)."""
        floor = self._lowest() - CREDIT
        idle = [g for g, c in self._charged.items() if not self._active(g)]
        drop = [g for g in idle if self._charged[g] <= floor]
        if len(idle) - len(drop) > GROUPS_KEPT:
            rest = sorted((g for g in idle if self._charged[g] > floor),
                          key=self._charged.__getitem__)
            drop += rest[:len(rest) - GROUPS_KEPT]
        for g in drop:
            del self._charged[g]

    def _candidates(self, slow_running: int) -> Iterator[tuple[str, str]]:
        """(group, game) of the jobs that may start now: groups by their charge (the least
        first; alike, in turn order), each group's first game in turn that may start."""
        order = sorted(self._queues, key=lambda g: self._charged.get(g, 0.0))  # stable
        for group in order:
            for key, queue in self._queues[group].items():
                if key in self._busy or (queue[0].slow and slow_running >= self.slow_cap):
                    continue
                yield group, key
                break

    def _take(self) -> _Ticket | None:
        """Block until a job may start, and start it; None once the pool is closed.

        The least charged group (among groups charged alike, the first in turn), and in it
        the first game in turn, whose next job may start goes; the group is charged the
        job's budget while it thinks. With a single slot (thread mode with one thread) a quick job goes
        first right after a slow one, so it waits for one slow job at most however many
        slow games wait."""
        with self._cond:
            while not self._closed:
                slow_running = sum(t.slow for t in self._running)
                ready = list(self._candidates(slow_running))
                if ready and self._last_slow and len(self._slots) == 1:
                    ready.sort(key=lambda gk: self._queues[gk[0]][gk[1]][0].slow)  # stable
                if ready:
                    group, key = ready[0]
                    games = self._queues[group]
                    queue = games[key]
                    ticket = queue.popleft()
                    self._last_slow = ticket.slow
                    if queue:
                        games.move_to_end(key)
                    else:
                        del games[key]
                    if games:
                        self._queues.move_to_end(group)
                    else:
                        del self._queues[group]
                    self._thinking[group] = self._thinking.get(group, 0) + 1
                    self._charged[group] = self._charged.get(group, 0.0) + ticket.estimate
                    self._busy.add(key)
                    self._running.add(ticket)
                    self._counts["started"] += 1
                    return ticket
                self._cond.wait()
            return None

    def _finish(self, ticket: _Ticket, result: str | None, error: BaseException | None,
                cpu: float) -> None:
        """Hand over a job's outcome; its group is charged the ``cpu`` seconds it used
        instead of its budget."""
        with self._cond:
            group = ticket.job.group
            self._charged[group] = (self._charged.get(group, 0.0) - ticket.estimate
                                    + charge_of(cpu))
            left = self._thinking.get(group, 1) - 1
            if left:
                self._thinking[group] = left
            else:
                self._thinking.pop(group, None)
            if not self._active(group):
                self._forget()
            self._busy.discard(ticket.job.key)
            self._running.discard(ticket)
            if isinstance(error, TimeoutError):
                self._counts["timed_out"] += 1
            closed = self._closed
            if closed or not ticket.deliver(result, error):
                self._counts["dropped"] += 1
            self._cond.notify_all()
