"""Games per second of the lab's backends: local with 1 and 2 workers, and Ray.

Run: ``python benchmarks/scale.py [--random-games 2000] [--heuristic-games 200]
[--workers 1,2] [--no-ray] [--games-filter rift-domination]``.

For each game it plays ``--random-games`` random-agent and ``--heuristic-games`` heuristic
games at the game's minimum player count through :func:`starlanes.analysis.lab.run_lab`
with ``backend="local"`` for every worker count and, when Ray is installed (the
``starlanes[ray]`` extra), ``backend="ray"`` on a local cluster with the largest worker
count; it prints games/s per run, Ray's throughput against local's, and checks that every
backend gave the same games. Ray start-up is not counted (the cluster is started first).
"""

from __future__ import annotations

import argparse
import time

from starlanes.analysis.lab import run_lab
from starlanes.engine import game_class, game_ids


def timed(game: str, agent: str, games: int, **run: object) -> tuple[float, list[dict]]:
    players = game_class(game).min_players
    start = time.perf_counter()
    rows = run_lab(game, [agent], players, games, 0, {}, progress=False, **run)  # type: ignore[arg-type]
    return games / (time.perf_counter() - start), rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random-games", type=int, default=2000)
    ap.add_argument("--heuristic-games", type=int, default=200)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--games-filter", default="")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    use_ray = not args.no_ray
    if use_ray:
        try:
            import ray

            ray.init(num_cpus=max(counts), include_dashboard=False, log_to_driver=False)
        except ImportError:
            print("Ray not installed: pip install 'starlanes[ray]'; local only")
            use_ray = False
    print(f"{'game':24} {'agent':10} {'games':>6} " + " ".join(
        f"{'local x' + str(w):>10}" for w in counts) + (f" {'ray':>10} {'ray/local':>9}"
                                                         if use_ray else ""))
    for game in game_ids():
        if args.games_filter and game not in args.games_filter.split(","):
            continue
        for agent, n in (("random", args.random_games), ("heuristic", args.heuristic_games)):
            rates = []
            reference = None
            for w in counts:
                rate, rows = timed(game, agent, n, workers=w)
                rates.append(rate)
                assert reference is None or rows == reference, "worker count changed games"
                reference = rows
            line = f"{game:24} {agent:10} {n:>6} " + " ".join(f"{r:>10.1f}" for r in rates)
            if use_ray:
                rate, rows = timed(game, agent, n, backend="ray", workers=max(counts))
                assert rows == reference, "Ray changed the games"
                line += f" {rate:>10.1f} {rate / rates[-1]:>9.0%}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
