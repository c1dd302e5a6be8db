"""Rift Domination speed figures: random-playout actions/s, full games/s, clones/s and
determinisations/s.

Run: ``python benchmarks/rift_domination.py [--games N]``. Prints one line per figure.
Measured on one core; nothing here asserts, it only reports.
"""

from __future__ import annotations

import argparse
import random
import time

import starlanes
from starlanes.games.rift_domination.heuristic import HeuristicAgent


def random_playout(players: int, games: int, seed: int = 0) -> tuple[float, float]:
    """(actions/s, games/s) of uniformly random legal play to the end of the game."""
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load("rift-domination", players=players, seed=seed + g).new_initial_state()
        rng = random.Random(g)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    wall = time.perf_counter() - start
    return actions / wall, games / wall


def heuristic_game(players: int, games: int, seed: int = 0) -> float:
    """Seconds per full game with heuristic bots in every seat."""
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load("rift-domination", players=players, seed=seed + g).new_initial_state()
        bots = [HeuristicAgent(g * 10 + i) for i in range(players)]
        while not state.is_terminal():
            state.apply(bots[state.current_player()].act(state))
    return (time.perf_counter() - start) / games


def mid_game_state(players: int, seed: int = 0):
    """A state a few rounds into a heuristic game."""
    state = starlanes.load("rift-domination", players=players, seed=seed).new_initial_state()
    bots = [HeuristicAgent(i) for i in range(players)]
    while not state.is_terminal() and state.round < 3:
        state.apply(bots[state.current_player()].act(state))
    return state


def clones_per_s(players: int, n: int = 20000) -> float:
    state = mid_game_state(players)
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    return n / (time.perf_counter() - start)


def determinisations_per_s(players: int, n: int = 20000) -> float:
    """Determinisations/s of a mid-game state, for each seat in turn."""
    state = mid_game_state(players)
    rng = random.Random(1)
    start = time.perf_counter()
    for i in range(n):
        state.determinize(i % players, rng)
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="games per figure")
    args = ap.parse_args()
    for players in (2, 4, 6):
        aps, gps = random_playout(players, args.games)
        print(f"rift-domination {players}p random playout: {aps:,.0f} actions/s, {gps:.1f} games/s")
        print(f"rift-domination {players}p heuristic game: {heuristic_game(players, max(1, args.games // 4)):.3f} s/game")
        print(f"rift-domination {players}p mid-game clones: {clones_per_s(players):,.0f} clones/s")
        print(f"rift-domination {players}p mid-game determinisations: "
              f"{determinisations_per_s(players):,.0f} /s")


if __name__ == "__main__":
    main()
