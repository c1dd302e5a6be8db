"""Galactic Domination speed figures: random-playout actions/s, games/s, clones/s.

Run: ``python benchmarks/galactic_domination.py [--games N]``. Prints one line per figure.
Measured on one core; nothing here asserts, it only reports. Targets: 50,000 actions/s and
50,000 clones/s.
"""

from __future__ import annotations

import argparse
import random
import time

import starlanes
from starlanes.games.galactic_domination.heuristic import HeuristicAgent

GAME = "galactic-domination"


def random_playout(games: int, seed: int = 0) -> tuple[float, float]:
    """(actions/s, games/s) of uniformly random legal play to the end of the game."""
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load(GAME, seed=seed + g).new_initial_state()
        rng = random.Random(g)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
    wall = time.perf_counter() - start
    return actions / wall, games / wall


def heuristic_game(games: int, seed: int = 0) -> float:
    """Seconds per full game with heuristic bots in both seats."""
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load(GAME, seed=seed + g).new_initial_state()
        bots = [HeuristicAgent(g * 10 + i) for i in range(2)]
        while not state.is_terminal():
            state.apply(bots[state.current_player()].act(state))
    return (time.perf_counter() - start) / games


def mid_game_state(seed: int = 0):
    """A state a few rounds into a random game."""
    state = starlanes.load(GAME, seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and state.round < 5:
        state.apply(rng.choice(state.legal_actions()))
    return state


def clones_per_s(n: int = 50000) -> float:
    state = mid_game_state()
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=50, help="games per figure")
    args = ap.parse_args()
    aps, gps = random_playout(args.games)
    print(f"{GAME} random playout: {aps:,.0f} actions/s, {gps:.1f} games/s")
    print(f"{GAME} heuristic game: {heuristic_game(max(1, args.games // 5)):.3f} s/game")
    print(f"{GAME} mid-game clones: {clones_per_s():,.0f} clones/s")


if __name__ == "__main__":
    main()
