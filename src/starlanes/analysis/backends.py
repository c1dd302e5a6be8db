"""Where many games are played: in this process, in a local process pool, or on Ray.

Every job is a tuple whose first item is its index; ``play(job) -> (index, row)`` is a
picklable module-level function. Jobs are seeded, so a game gives the same row wherever and
however often it is played: the results do not depend on the backend or the worker count,
unless an agent searches against the clock (``mcts:seconds=...``; see
:func:`time_budget_warning`).

``local`` plays in this process (``workers == 1``) or in a fault-tolerant process pool
(:func:`starlanes.analysis.tournament.play_in_pool`). ``ray`` (the optional extra
``starlanes[ray]``) sends batches of games as Ray tasks to the cluster at ``address``
(``"auto"``, ``"ray://host:10001"``; None starts a local Ray with ``workers`` CPUs); a task
whose worker dies is retried by Ray, so the lost games are played again with the same seeds.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from starlanes.engine import BadOptionError

from .tournament import MAX_POOL_RESTARTS, RunInterrupted, WorkerFailure, play_in_pool

#: Backends accepted by :func:`run_jobs`.
BACKENDS = ("local", "ray")

#: Ray batches: about this many tasks per worker, so scheduling overhead stays small while
#: the load still evens out and progress still moves.
TASKS_PER_WORKER = 4

Job = tuple[Any, ...]
Play = Callable[[Job], tuple[int, dict[str, Any]]]


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """While games run, whatever anything writes to standard output (a library's warning,
    Ray's log lines, a worker process's print, at the Python or the C level) goes to
    standard error instead, so that ``--json`` output on stdout holds only the report. File
    descriptor 1 is pointed at descriptor 2 and restored afterwards; nothing is done when
    either is closed."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def check_backend(backend: str, address: str | None) -> None:
    """Raise BadOptionError for an unknown backend, an address without Ray, or Ray missing."""
    if backend not in BACKENDS:
        raise BadOptionError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise BadOptionError("--ray-address needs --backend ray")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise BadOptionError(
                "the ray backend needs Ray: pip install 'starlanes[ray]'") from None


def time_budget_warning(specs: Sequence[str], game_id: str) -> str | None:
    """A warning when an agent searches against the clock (an agent with ``seconds`` > 0,
    such as ``mcts:seconds=0.5``), else None. Such an agent does as much work as the
    machine allows in its time, so its moves depend on load, the number of workers and the
    backend: the same seeds no longer give the same games, and two runs may differ. Raises
    AgentSpecError for a bad spec."""
    from starlanes.agents import make_agent

    timed = [spec for spec in dict.fromkeys(specs)
             if float(getattr(make_agent(spec, game_id, 0), "seconds", 0) or 0) > 0]
    if not timed:
        return None
    return (f"{', '.join(timed)} search{'es' if len(timed) == 1 else ''} against the clock: "
            "its moves depend on how fast this machine plays them (load, --workers, the "
            "backend), so the same seeds can give different games from run to run; give "
            "iterations=N instead of seconds for a reproducible run")


def run_jobs(jobs: Sequence[Job], play: Play, backend: str = "local", workers: int = 1,
             address: str | None = None, progress: bool = True,
             label: str = "games") -> list[dict[str, Any]]:
    """Play ``jobs`` and return their rows in job order, with a progress bar on stderr.

    Raises BadOptionError for a bad backend, WorkerFailure when workers keep dying, and
    RunInterrupted (holding the finished rows) on Ctrl-C.
    """
    check_backend(backend, address)
    rows: dict[int, dict[str, Any]] = {}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    bar = Progress(*columns, console=Console(stderr=True), disable=not progress)
    with stdout_to_stderr(), bar:
        task = bar.add_task(label, total=len(jobs))

        def done(index: int, row: dict[str, Any]) -> None:
            rows[index] = row
            bar.advance(task)

        try:
            if backend == "ray":
                _play_on_ray(jobs, play, workers, address, done)
            elif workers <= 1:
                for job in jobs:
                    done(*play(job))
            else:
                play_in_pool(jobs, workers, done, play)
        except KeyboardInterrupt:
            raise RunInterrupted([rows[i] for i in sorted(rows)]) from None
    return [rows[job[0]] for job in jobs]


def _play_batch(play: Play, batch: Sequence[Job]) -> list[tuple[int, dict[str, Any]]]:
    """One Ray task: play a batch of jobs in the worker."""
    return [play(job) for job in batch]


#: A run with fewer jobs than this that starts its own Ray gets a note: starting and
#: stopping a local Ray (10-20 s on a small machine) outweighs the games.
SHORT_RAY_RUN = 200


def ray_connect_error(address: str | None, error: BaseException) -> str:
    """The message for a Ray cluster that could not be reached or joined at ``address``:
    what failed, and what to check (the address; token authentication, which a cluster
    started with ``RAY_AUTH_MODE=token``, Ray's default in newer releases, requires of
    every driver; ``ray[client]`` for ``ray://``)."""
    where = address or "a new local Ray"
    text = f"cannot connect to the Ray cluster at {where}: {type(error).__name__}"
    detail = str(error).strip().splitlines()
    if detail:
        text += f" ({detail[-1][:200]})"
    cause = f"{error} {error.__cause__ or ''}".lower()
    if "auth" in cause or "token" in cause:
        text += " - the cluster refused this driver's authentication token"
    hints = ["check the address (HOST:6379 for the head's GCS port, ray://HOST:10001 for "
             "Ray Client)"]
    if os.environ.get("RAY_AUTH_MODE", "") != "token":
        hints.append("a cluster with token authentication accepts only drivers started "
                     "with RAY_AUTH_MODE=token and its token (in ~/.ray/auth_token, or "
                     "RAY_AUTH_TOKEN_PATH=FILE, or RAY_AUTH_TOKEN); see docs/lab.md")
    if address is not None and address.startswith("ray://"):
        hints.append("ray:// needs Ray Client: pip install 'starlanes[ray]' here and "
                     "'ray[client]' on the head")
    return text + "; " + "; ".join(hints)


def _play_on_ray(jobs: Sequence[Job], play: Play, workers: int, address: str | None,
                 done: Callable[[int, dict[str, Any]], None]) -> None:
    """Send ``jobs`` to Ray in batches and stream the rows back as tasks finish. Raises
    BadOptionError (:func:`ray_connect_error`) when the cluster cannot be joined."""
    import ray

    started = not ray.is_initialized()
    if started:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if address is None:
            kwargs["num_cpus"] = max(1, workers)
            if len(jobs) < SHORT_RAY_RUN:
                Console(stderr=True).print(
                    f"[yellow]note: starting a local Ray for {len(jobs)} games; its start "
                    "and stop (10-20 s on a small machine) may outweigh the games: "
                    "--backend local is quicker here, or start Ray once with 'ray start "
                    "--head' and pass --ray-address 127.0.0.1:6379 to every run[/yellow]")
        try:
            # "local": a new Ray of our own, never a cluster some 'ray start' left running
            ray.init(address=address or "local", **kwargs)
        except (ConnectionError, RuntimeError, ValueError, OSError, TimeoutError) as e:
            with contextlib.suppress(Exception):
                ray.shutdown()
            raise BadOptionError(ray_connect_error(address, e)) from None
    try:
        slots = max(1, int(ray.cluster_resources().get("CPU", workers)))
        size = max(1, math.ceil(len(jobs) / (slots * TASKS_PER_WORKER)))
        remote = ray.remote(_play_batch).options(max_retries=MAX_POOL_RESTARTS,
                                                 retry_exceptions=False)
        play_ref = ray.put(play)
        pending = [remote.remote(play_ref, list(jobs[i:i + size]))
                   for i in range(0, len(jobs), size)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                results = ray.get(ready[0])
            except ray.exceptions.RayError as e:
                raise WorkerFailure(f"a Ray task failed after {MAX_POOL_RESTARTS} retries: "
                                    f"{type(e).__name__}") from None
            for index, row in results:
                done(index, row)
    finally:
        if started:
            ray.shutdown()
