"""Tournaments: a seat-balanced schedule of bot games, played in-process or in workers.

Seating: every seating gives each of the K agents ``players // K`` or that plus one seats
(with more agents than seats, each agent sits at most once). Seatings come in blocks of K: a
seating and its K-1 relabellings that shift every seat's agent one step along the agent
list. Within a block each agent occupies each seat exactly once, so any schedule whose
length is a multiple of K is seat-balanced; the blocks run through all balanced seatings
before any repeats, so every line-up and order meets.

Game ``g`` is seeded with ``derive_seed(seed, g)`` and the agent in seat ``s`` with
``derive_seed(seed, g, "agent", s)``, so the results do not depend on the number of workers.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from starlanes.agents import make_agent
from starlanes.engine import AgentSpecError, GameState, StarlanesError, derive_seed, load

from .ratings import rate_games
from .stats import first_seat_advantage, head_to_head, mean_length, seat_win_rates, win_rates

#: Default per-game action cap: a game still running after this many actions is stopped.
DEFAULT_ACTION_CAP = 200_000

#: How many times a run replaces a worker pool that lost a process before giving up.
MAX_POOL_RESTARTS = 3


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run of many games; ``rows`` holds the games that had finished
    (result rows in game order), so a caller can still report them."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(f"interrupted after {len(rows)} finished games")
        self.rows = rows


class WorkerFailure(StarlanesError):
    """Worker processes kept dying on the same games even after the pool was replaced."""


# ---------------------------------------------------------------------- seating
def _balanced(k: int, players: int) -> Iterator[tuple[int, ...]]:
    """Seatings (agent index per seat) with seat 0 = agent 0 and every agent seated
    ``players // k`` or ``players // k + 1`` times, in lexicographic order."""
    low, high = divmod(players, k)
    high = low + (1 if high else 0)
    counts = [0] * k

    def extend(prefix: list[int]) -> Iterator[tuple[int, ...]]:
        left = players - len(prefix)
        if left == 0:
            if min(counts) >= low:
                yield tuple(prefix)
            return
        if sum(max(0, low - c) for c in counts) > left:
            return
        for a in range(k):
            if counts[a] < high:
                counts[a] += 1
                prefix.append(a)
                yield from extend(prefix)
                prefix.pop()
                counts[a] -= 1

    counts[0] = 1
    yield from extend([0])


def seat_schedule(agents: Sequence[str], players: int, games: int) -> list[list[str]]:
    """The agent of every seat in each of ``games`` games (see the module docstring).

    Raises AgentSpecError without agents or without players.
    """
    if not agents:
        raise AgentSpecError("no agents given")
    if players < 1:
        raise AgentSpecError("a tournament needs at least one seat")
    k = len(agents)
    schedule: list[list[str]] = []
    bases = itertools.cycle(list(_balanced(k, players)))
    while len(schedule) < games:
        base = next(bases)
        for shift in range(k):
            schedule.append([agents[(a + shift) % k] for a in base])
    return schedule[:games]


def schedule_block(agents: Sequence[str]) -> int:
    """The schedule is seat-balanced whenever the number of games is a multiple of this."""
    return len(agents)


# ---------------------------------------------------------------------- one game
def play_game(game_id: str, players: int, seed: int, options: Mapping[str, str],
              specs: Sequence[str], agent_seeds: Sequence[int],
              action_cap: int = DEFAULT_ACTION_CAP,
              observer: Callable[[GameState, int, Any], None] | None = None,
              ) -> tuple[GameState, dict[str, Any]]:
    """Play one bot game; returns the final state and its result row (``seed``,
    ``agents``, ``winners``, ``scores``, ``end_reason``, ``rounds``, ``actions``,
    ``digest``). ``observer(state, seat, action)``, when given, sees every action just
    before it is applied (the lab uses it to note what each seat did)."""
    state = load(game_id, players=players, seed=seed, **options).new_initial_state()
    bots = [make_agent(s, game_id, k) for s, k in zip(specs, agent_seeds, strict=True)]
    n = 0
    while not state.is_terminal() and n < action_cap:
        seat = state.current_player()
        action = bots[seat].act(state)
        if observer is not None:
            observer(state, seat, action)
        state.apply(action)
        n += 1
    terminal = state.is_terminal()
    reason = getattr(state, "end_reason", "") or "finished"
    return state, {
        "seed": seed,
        "agents": list(specs),
        "winners": [i for i, r in enumerate(state.returns()) if r > 0] if terminal else [],
        "scores": list(state.scores()),
        "end_reason": str(reason) if terminal else "action_cap",
        "rounds": rounds_played(game_id, state),
        "actions": len(state.history),
        "digest": state.digest(),
    }


def rounds_played(game_id: str, state: GameState) -> int | None:
    """Rounds the game lasted: the game's ``usage.rounds_played(state)`` when it declares
    one (a round counter that moves past a round limit), else ``state.round``; None for a
    game that keeps no round count."""
    from .usage import usage_module

    hooks = usage_module(game_id)
    if hooks is not None and hasattr(hooks, "rounds_played"):
        return int(hooks.rounds_played(state))
    return getattr(state, "round", None)


def _play_job(job: tuple[Any, ...]) -> tuple[int, dict[str, Any]]:
    """Worker entry: ``(index, game_id, players, seed, options, specs, agent_seeds, cap)``."""
    index, game_id, players, seed, options, specs, agent_seeds, cap = job
    _, row = play_game(game_id, players, seed, options, specs, agent_seeds, cap)
    return index, row


# ---------------------------------------------------------------------- many games
def run_tournament(game_id: str, agents: Sequence[str], players: int, games: int,
                   seed: int = 0, options: Mapping[str, str] | None = None,
                   workers: int = 1, action_cap: int = DEFAULT_ACTION_CAP,
                   progress: bool = True,
                   on_game: Callable[[int], None] | None = None, backend: str = "local",
                   address: str | None = None,
                   start_method: str | None = None) -> list[dict[str, Any]]:
    """Play the seat-balanced schedule; returns the result rows in game order.

    ``workers`` > 1 plays games in that many processes, started with the multiprocessing
    ``start_method`` (``"fork"``, ``"spawn"``, ``"forkserver"``; None: the platform's
    default); ``backend="ray"`` sends them to Ray (see :mod:`starlanes.analysis.backends`;
    ``address`` names the cluster). The rows are the same either way. Agents are rebuilt
    from their specs in each worker, so a user's agent named ``module:Class`` works under
    every start method when its module is importable. ``progress`` shows a bar on stderr;
    ``on_game`` is called with each finished game's number.
    """
    opts = dict(options or {})
    jobs = [
        (g, game_id, players, derive_seed(seed, g), opts, seats,
         [derive_seed(seed, g, "agent", s) for s in range(players)], action_cap)
        for g, seats in enumerate(seat_schedule(agents, players, games))
    ]
    rows: list[dict[str, Any] | None] = [None] * len(jobs)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    bar = Progress(*columns, console=Console(stderr=True), transient=False,
                   disable=not progress)
    from .backends import stdout_to_stderr

    with stdout_to_stderr(), bar:
        task = bar.add_task(f"{game_id} tournament x{games}", total=len(jobs))

        def done(index: int, row: dict[str, Any]) -> None:
            rows[index] = row
            bar.advance(task)
            if on_game is not None:
                on_game(index)

        try:
            if backend != "local" or address is not None:
                from .backends import _play_on_ray, check_backend

                check_backend(backend, address)
                _play_on_ray(jobs, _play_job, workers, address, done)
            elif workers <= 1:
                for job in jobs:
                    done(*_play_job(job))
            else:
                play_in_pool(jobs, workers, done, start_method=start_method)
        except KeyboardInterrupt:
            raise RunInterrupted([r for r in rows if r is not None]) from None
    return [r for r in rows if r is not None]


def _ignore_sigint() -> None:
    """Worker initialiser: Ctrl-C is the parent's to handle; it stops the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the worker processes at once."""
    # The executor has no public way to kill its workers before Python 3.14.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    # Let the executor's manager thread see the dead workers and close its pipes before
    # the interpreter exits: otherwise its exit hook may write to a pipe being closed
    # (OSError: Bad file descriptor at shutdown, CPython before 3.12.8).
    if manager is not None:
        manager.join(timeout=10)


def play_in_pool(jobs: Sequence[tuple[Any, ...]], workers: int,
                  done: Callable[[int, dict[str, Any]], None],
                  play: Callable[[tuple[Any, ...]], tuple[int, dict[str, Any]]] | None = None,
                  start_method: str | None = None) -> None:
    """Play ``jobs`` in a pool of ``workers`` processes, calling ``done(index, row)`` as
    each finishes. A worker that dies (killed, out of memory) breaks the pool: the games
    that had not finished are played again in a fresh pool (they are seeded, so they give
    the same results), at most :data:`MAX_POOL_RESTARTS` times; then WorkerFailure names
    the games. Ctrl-C terminates the workers at once and propagates. ``play`` is the
    picklable worker entry (job -> ``(index, row)``; default :func:`_play_job`); a job's
    first item is its index."""
    play = play if play is not None else _play_job
    pending = {job[0]: job for job in jobs}
    restarts = 0
    while pending:
        context = multiprocessing.get_context(start_method)
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint,
                                   mp_context=context)
        try:
            futures = [pool.submit(play, job) for job in pending.values()]
            for future in as_completed(futures):
                try:
                    index, row = future.result()
                except BrokenProcessPool:
                    break
                pending.pop(index)
                done(index, row)
        except BaseException:
            _stop_workers(pool)
            raise
        pool.shutdown(wait=True, cancel_futures=True)
        if pending:
            restarts += 1
            if restarts > MAX_POOL_RESTARTS:
                games = ", ".join(str(i) for i in sorted(pending)[:10])
                raise WorkerFailure(
                    f"worker processes died {restarts} times; games not played: {games}"
                )


def tournament_report(game_id: str, agents: Sequence[str], players: int, seed: int,
                      rows: Sequence[Mapping[str, Any]], wall_s: float) -> dict[str, Any]:
    """The JSON report of a tournament: settings, ratings, win rates with 95% intervals,
    per-seat win rates, first-seat advantage, mean game length and every result row."""
    mean_rounds, mean_actions = mean_length(rows)
    return {
        "game": game_id,
        "players": players,
        "games": len(rows),
        "seed": seed,
        "agents": list(agents),
        "ratings": rate_games(rows, agents),
        "win_rate": win_rates(rows, agents),
        "seat_win_rate": seat_win_rates(rows, agents),
        "head_to_head": head_to_head(rows, agents),
        "first_seat": first_seat_advantage(rows),
        "mean_rounds": mean_rounds,
        "mean_actions": mean_actions,
        "capped": sum(1 for r in rows if r["end_reason"] == "action_cap"),
        "balanced": len(rows) % schedule_block(agents) == 0,
        "results": list(rows),
        "wall_s": round(wall_s, 4),
    }


def timed_tournament(game_id: str, agents: Sequence[str], players: int, games: int,
                     seed: int = 0, options: Mapping[str, str] | None = None,
                     workers: int = 1, action_cap: int = DEFAULT_ACTION_CAP,
                     progress: bool = True, backend: str = "local",
                     address: str | None = None) -> dict[str, Any]:
    """Run a tournament and return its report (``wall_s`` measured here)."""
    start = time.perf_counter()
    rows = run_tournament(game_id, agents, players, games, seed, options, workers,
                          action_cap, progress, backend=backend, address=address)
    return tournament_report(game_id, agents, players, seed, rows,
                             time.perf_counter() - start)
