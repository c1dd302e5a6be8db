"""Win rate of the ``learned`` agent against another agent in Galactic Domination.

Plays ``--games`` games with the seats alternating (game ``g`` has seed ``--seed + g``;
the learned agent sits in seat ``g % 2``), counting a draw as half a win, and prints the
rate with a 95% Wilson interval, then the rate in each seat (the aim is met only when
both seats reach it). ``--weights`` evaluates another weights file than the
packaged one.

Run: ``python examples/learned_galactic_domination/evaluate.py --opponent heuristic
--games 1000 --seed 900000``.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

from starlanes.agents import learned, make_agent
from starlanes.engine import derive_seed, load

GAME = "galactic-domination"


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    p, z = wins / n, 1.96
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=900_000)
    parser.add_argument("--weights", default="")
    args = parser.parse_args()
    if args.weights:
        learned.WEIGHTS = Path(args.weights)
        learned.weights.cache_clear()
    won, start = 0.0, time.time()
    by_seat = [0.0, 0.0]
    for g in range(args.games):
        seed = args.seed + g
        seat = g % 2
        state = load(GAME, players=2, seed=seed).new_initial_state()
        agents = [None, None]
        agents[seat] = make_agent("learned", GAME, derive_seed(seed, "learned"))
        agents[1 - seat] = make_agent(args.opponent, GAME, derive_seed(seed, "opponent"))
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
        won += state.returns()[seat]
        by_seat[seat] += state.returns()[seat]
    lo, hi = wilson(won, args.games)
    print(f"learned vs {args.opponent}: {won:g} of {args.games} = {won / args.games:.3f} "
          f"(95% {lo:.3f}-{hi:.3f}), {time.time() - start:.0f} s")
    for seat in (0, 1):
        n = len(range(seat, args.games, 2))
        if n:
            lo, hi = wilson(by_seat[seat], n)
            print(f"  in seat {seat}: {by_seat[seat]:g} of {n} = {by_seat[seat] / n:.3f} "
                  f"(95% {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
