"""Bot seats: agents think in worker processes, never in the server's event loop.

A job names the game's settings and the notations played so far; the worker rebuilds the
state (keeping a few recent games cached, so a bot's next move only applies the actions
since its last one) and returns the agent's action as notation. The server then applies it
like anyone's action, so bot moves are checked, stored and pushed the same way.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from starlanes.agents import make_agent, parse_spec
from starlanes.engine import GameState, derive_seed, load

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
    """A process pool for bot moves; ``workers=0`` thinks in a thread of this process
    (tests and tiny servers).

    Workers are started with ``spawn``, never forked from the running server (a fork copies
    the server's threads' locks in whatever state they are), so a script that starts a
    server with workers needs the usual ``if __name__ == "__main__":`` guard. :meth:`close`
    ends them at once, even in the middle of a long search."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._pool = (ProcessPoolExecutor(max_workers=workers, initializer=_worker_init,
                                          mp_context=multiprocessing.get_context("spawn"))
                      if workers > 0 else None)

    async def move(self, job: BotJob) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, bot_move, job)

    def close(self) -> None:
        """Drop the queued bot moves and stop the workers without waiting for their
        searches."""
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
