"""Bot seats: agents think in worker processes, never in the server's event loop.

A job names the game's settings and the notations played so far; the worker rebuilds the
state (keeping a few recent games cached, so a bot's next move only applies the actions
since its last one) and returns the agent's action as notation. The server then applies it
like anyone's action, so bot moves are checked, stored and pushed the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import queue
import signal
import threading
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from starlanes.agents import make_agent, parse_spec
from starlanes.engine import GameState, derive_seed, load

from .writer import settle

_CACHE_SIZE = 256
"""Games a worker keeps replayed; beyond that a bot's move replays its game from the start."""
_cache: OrderedDict[str, GameState] = OrderedDict()


@dataclass(frozen=True)
class BotJob:
    """Everything a worker needs: the server's game id (cache key), game settings, the
    notations so far, the seat and its agent spec."""

    key: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    notations: tuple[str, ...]
    seat: int
    spec: str


def timed_spec(spec: str, seconds: float) -> str:
    """``spec`` with the game's bot time budget added to an MCTS spec that sets neither
    ``seconds`` nor ``iterations``; other specs are returned unchanged."""
    name, params = parse_spec(spec)
    if name != "mcts" or "seconds" in params or "iterations" in params or seconds <= 0:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}seconds={seconds:g}"


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


def bot_move(job: BotJob) -> str:
    """Worker entry: the agent's action for ``job.seat`` as notation. The agent's RNG is
    seeded from the game seed, the seat and the move number, so a replayed server makes
    the same choices."""
    state = _state_for(job)
    if state.current_player() != job.seat:
        raise ValueError(f"seat {job.seat} is not deciding at action {len(job.notations)}")
    agent = make_agent(job.spec, job.game,
                       derive_seed(job.seed, "bot", job.seat, len(job.notations)))
    return str(agent.act(state.clone()))


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class BotPool:
    """Where bots think: a process pool of ``workers`` processes, or with ``workers=0``
    daemon threads of this process (tests and tiny servers; a search then shares the
    server's interpreter lock).

    Workers are started with ``spawn``, never forked from the running server (a fork copies
    the server's threads' locks in whatever state they are), so a script that starts a
    server with workers needs the usual ``if __name__ == "__main__":`` guard. :meth:`close`
    ends them at once, even in the middle of a long search: a stopping server never waits
    for a bot."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._pool = (ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                                          mp_context=multiprocessing.get_context("spawn"))
                      if workers > 0 else None)
        self._threads = _DaemonThreads(THREADS) if workers == 0 else None

    async def move(self, job: BotJob) -> str:
        """The bot's action as notation; raises what the agent raised."""
        if self._threads is not None:
            return await self._threads.run(bot_move, job)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, bot_move, job)

    def close(self) -> None:
        """Drop the queued bot moves and stop the workers without waiting for their
        searches (daemon threads are left to end with the process)."""
        if self._threads is not None:
            self._threads.close()
        if self._pool is None:
            return
        # the pool has no public way to end a running job: end its processes, then let the
        # pool (which sees them gone) release its queues
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
        for proc in processes:
            proc.join(2)
        self._pool.shutdown(wait=True, cancel_futures=True)


THREADS = 4
"""Threads thinking for bots when the server runs no worker process."""


class _DaemonThreads:
    """A few daemon threads running jobs from a queue. Unlike an executor's threads, which
    the interpreter joins at exit, these never hold up a stopping server."""

    def __init__(self, count: int) -> None:
        self._jobs: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._count = count
        self._started = False

    async def run(self, fn: Any, *args: Any) -> Any:
        if not self._started:
            self._started = True
            for i in range(self._count):
                threading.Thread(target=self._work, name=f"starlanes-bot-{i}",
                                 daemon=True).start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return await future

    def _work(self) -> None:
        while (item := self._jobs.get()) is not None:
            loop, future, fn, args = item
            if future.cancelled():
                continue
            try:
                result, error = fn(*args), None
            except Exception as e:  # noqa: BLE001 - handed to the waiting task
                result, error = None, e
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                loop.call_soon_threadsafe(settle, future, result, error)

    def close(self) -> None:
        for _ in range(self._count):
            self._jobs.put(None)

