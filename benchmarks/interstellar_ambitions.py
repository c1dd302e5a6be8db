"""Interstellar Ambitions speed figures: random-playout actions/s and games/s, and clones/s
and determinisations/s of a 4-player mid-game state.

Run: ``python benchmarks/interstellar_ambitions.py [--games N]``. Prints one line per
figure (targets: 30,000 actions/s, clones/s and determinisations/s). Measured on one core;
nothing here asserts, it only reports.
"""

from __future__ import annotations

import argparse
import random
import time

import starlanes
from starlanes.games.interstellar_ambitions.heuristic import HeuristicAgent

GAME = "interstellar-ambitions"


def random_playout(players: int, games: int, seed: int = 0) -> tuple[float, float]:
    """(actions/s, games/s) of uniformly random legal play to the end of the game."""
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        state = starlanes.load(GAME, players=players, seed=seed + g).new_initial_state()
        rng = random.Random(g)
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            actions += 1
    wall = time.perf_counter() - start
    return actions / wall, games / wall


def mid_game_state(players: int = 4, seed: int = 0):
    """A state in round 6 of a heuristic game (hands, fleets, planets, tokens in play)."""
    state = starlanes.load(GAME, players=players, seed=seed).new_initial_state()
    bots = [HeuristicAgent(i) for i in range(players)]
    while not state.is_terminal() and state.round < 6:
        state.apply(bots[state.current_player()].act(state))
    return state


def clones_per_s(state, n: int = 30000) -> float:
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    return n / (time.perf_counter() - start)


def determinisations_per_s(state, n: int = 30000) -> float:
    rng = random.Random(7)
    seat = state.current_player()
    start = time.perf_counter()
    for _ in range(n):
        state.determinize(seat, rng)
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20, help="random games per player count")
    args = ap.parse_args()
    for players in (3, 4, 6):
        aps, gps = random_playout(players, args.games)
        print(f"{GAME} {players}p random playout: {aps:,.0f} actions/s, {gps:.1f} games/s")
    mid = mid_game_state(4)
    print(f"{GAME} 4p mid-game (round {mid.round}) clones: {clones_per_s(mid):,.0f} clones/s")
    print(f"{GAME} 4p mid-game determinisations: {determinisations_per_s(mid):,.0f} /s")


if __name__ == "__main__":
    main()
