"""Search speed: MCTS iterations/s per game and budget, clone and determinisation cost.

Run: ``python benchmarks/mcts.py [--games rift-domination,...]``. For each game a
mid-game position is reached with heuristic play; then it prints clones/s and
determinisations/s of that position, MCTS iterations/s with rollouts cut off at the leaf
(``depth=0``, scored by the game's evaluation) for budgets of 100, 400 and 1600 iterations,
with UCT at the root and with sequential halving (``root=halving``), and the seconds per
decision of the game's default MCTS agent with its iterations/s. One core; figures only.
"""

from __future__ import annotations

import argparse
import random
import time

import starlanes
from starlanes.agents.mcts import MCTSAgent
from starlanes.agents.registry import make_agent

PLAYERS = {"rift-domination": 2, "galactic-domination": 2, "interstellar-ambitions": 3,
           "galactic-empires": 2}


def mid_game(game_id: str, players: int):
    """The position halfway through a heuristic game (seed 5)."""

    def play(limit: int | None):
        state = starlanes.load(game_id, players=players, seed=5).new_initial_state()
        bots = [make_agent("heuristic", game_id, i) for i in range(players)]
        n = 0
        while not state.is_terminal() and (limit is None or n < limit):
            state.apply(bots[state.current_player()].act(state))
            n += 1
        return state, n

    _, length = play(None)
    state, _ = play(length // 2)
    rng = random.Random(1)  # step on to a decision with several options
    while not state.is_terminal() and len(state.legal_actions()) < 3:
        state.apply(rng.choice(state.legal_actions()))
    return state


def rate(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default=",".join(PLAYERS), help="comma-separated game ids")
    args = ap.parse_args()
    for game_id in args.games.split(","):
        players = PLAYERS[game_id]
        state = mid_game(game_id, players)
        seat = state.current_player()
        rng = random.Random(2)
        print(f"{game_id} {players}p: {len(state.legal_actions())} legal actions at the test position")
        clones = rate(state.clone, 5000)
        dets = rate(lambda s=state, seat=seat, r=rng: s.determinize(seat, r), 5000)
        print(f"  clones: {clones:,.0f}/s, determinisations: {dets:,.0f}/s")
        for budget in (100, 400, 1600):
            agent = MCTSAgent(seed=3, iterations=budget, depth=0)
            start = time.perf_counter()
            agent.act(state)
            wall = time.perf_counter() - start
            halving = MCTSAgent(seed=3, iterations=budget, depth=0, root="halving")
            start = time.perf_counter()
            halving.act(state)
            h_wall = time.perf_counter() - start
            print(f"  mcts depth=0, {budget} iterations: {budget / wall:,.0f} iterations/s "
                  f"(root=halving: {halving.last_iterations / h_wall:,.0f}/s)")
        # The default agent, at the first decision from here that it searches (with
        # focus=on it leaves routine decisions to the heuristic).
        probe, step = state.clone(), random.Random(3)
        agent = make_agent("mcts", game_id, 4)
        wall = 0.0
        while not probe.is_terminal():
            agent = make_agent("mcts", game_id, 4)
            start = time.perf_counter()
            agent.act(probe)
            wall = time.perf_counter() - start
            if agent.last_iterations:
                break
            probe.apply(step.choice(probe.legal_actions()))
        print(f"  default mcts agent: {wall:.3f} s for one decision of "
              f"{len(probe.legal_actions())} actions ({agent.last_iterations} iterations "
              f"with rollouts, {agent.last_iterations / max(wall, 1e-9):,.0f}/s)")


if __name__ == "__main__":
    main()
