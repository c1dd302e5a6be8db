"""Steps/s of a whole machine: the batched environments and the AEC loop in P processes at once.

Run: ``python benchmarks/batched_scaling.py [--processes 1,2,4,8,16] [--seconds 10]
[--size 4096] [--games galactic-domination,interstellar-ambitions] [--no-aec]``.

The per-core figures of ``benchmarks/batched_env.py`` say what one core gives; a training
run uses every core of its machine, and cores share the memory bus and the last-level
cache, so P processes need not give P times one. For each game and each P, P spawned
processes (numpy held to one thread each) build their environment, step it through a
warm-up, wait for one another at a barrier, then step for ``--seconds`` of wall clock:

- ``batched``: ``BatchedEnv(game, num_envs=--size, copy=False)`` under masked uniform
  random actions (``batched_env.batched_rate``, the draw's cost counted), with a different
  seed in each process;
- ``aec`` (unless ``--no-aec``): the PettingZoo AEC loop with tensors
  (``envs.aec_rate``; needs the ``rl`` extra).

Printed per game and P: the machine's game-steps/s (the sum of the processes' steps over
the window), the mean per process, and the efficiency (per process over the first P's).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import multiprocessing  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

HERE = Path(__file__).resolve().parent


def _batched_worker(game: str, size: int, seed: int, seconds: float, barrier: Any,
                    results: Any) -> None:
    """One process: a batched environment stepped for ``seconds`` after the barrier; puts
    its game-steps/s on ``results`` (``batched_env.batched_rate`` on the wall clock)."""
    sys.path.insert(0, str(HERE))
    from batched_env import batched_rate

    results.put(batched_rate(size, seconds, time.monotonic, copy=False, game=game, seed=seed,
                             ready=barrier.wait))


def _aec_worker(game: str, players: int, seed: int, seconds: float, barrier: Any,
                results: Any) -> None:
    """One process: the PettingZoo AEC loop with tensors for ``seconds`` of wall clock
    after the barrier; puts its steps/s on ``results``."""
    sys.path.insert(0, str(HERE))
    import envs as env_bench

    env_bench._CLOCK[0] = time.monotonic
    env_bench.aec_rate(game, players, 0.2, observe=True)  # imports and tables
    barrier.wait()
    results.put(env_bench.aec_rate(game, players, seconds, observe=True))


def machine_rate(worker: Any, args: tuple[Any, ...], processes: int,
                 seconds: float) -> list[float]:
    """Steps/s of each of ``processes`` spawned processes running ``worker(*args, seed,
    seconds, barrier, results)`` at once."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(*args, 1000 + i, seconds, barrier, results))
             for i in range(processes)]
    for p in procs:
        p.start()
    rates = [float(results.get(timeout=600 + seconds)) for _ in procs]
    for p in procs:
        p.join()
        if p.exitcode:
            raise RuntimeError(f"a measuring process ended with exit code {p.exitcode}")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default=f"1,{os.cpu_count() or 1}",
                        help="comma-separated process counts (default 1 and every core)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="wall-clock seconds of each measure (default 10)")
    parser.add_argument("--size", type=int, default=4096,
                        help="games per batched environment (default 4096)")
    parser.add_argument("--games", default="galactic-domination,interstellar-ambitions",
                        help="comma-separated games with a batched environment")
    parser.add_argument("--no-aec", action="store_true", help="measure no AEC loop")
    args = parser.parse_args()
    try:
        counts = [int(p) for p in args.processes.split(",") if p]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        parser.error("--processes needs counts of at least 1")
    from starlanes.engine import game_class

    print(f"{os.cpu_count()} logical cores; {args.seconds:g} s of wall clock a measure; "
          f"batched: B={args.size}, copy=False")
    print(f"{'game':24} {'loop':8} {'P':>3} {'machine steps/s':>16} {'per process':>12} "
          f"{'efficiency':>10}")
    for game in [g for g in args.games.split(",") if g]:
        loops = [("batched", _batched_worker, (game, args.size))]
        if not args.no_aec:
            loops.append(("aec", _aec_worker, (game, game_class(game).min_players)))
        for name, worker, wargs in loops:
            one = None
            for p in counts:
                rates = machine_rate(worker, wargs, p, args.seconds)
                each = sum(rates) / p
                one = each if one is None else one
                print(f"{game:24} {name:8} {p:>3} {sum(rates):>16,.0f} {each:>12,.0f} "
                      f"{each / one:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
