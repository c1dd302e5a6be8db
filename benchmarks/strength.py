"""Bot strength: one MCTS seat against copies of another agent, with 95% intervals.

Run: ``python benchmarks/strength.py [--games 40] [--workers 2] [--case GAME:P:OPP ...]``.
Without ``--case`` it runs the issue's targets: in 2-player Rift Domination, Galactic
Domination and Galactic Empires MCTS (default budget) wins >= 95% against ``random`` and
>= 60% against ``heuristic``; in 3-player Interstellar Ambitions one MCTS seat wins >= 80%
against two ``random`` seats and >= 50% against two ``heuristic`` seats.

The MCTS seat rotates through every seat; game g uses seed ``derive_seed(seed, g)``. For
each case it prints the MCTS seat's share of wins (ties shared), the Wilson 95% interval,
the target, whether the point estimate meets it, and seconds per searched decision.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import starlanes
from starlanes.agents.registry import make_agent
from starlanes.analysis.stats import wilson_interval
from starlanes.engine import derive_seed

TARGETS = [
    ("rift-domination", 2, "random", 0.95), ("rift-domination", 2, "heuristic", 0.60),
    ("galactic-domination", 2, "random", 0.95), ("galactic-domination", 2, "heuristic", 0.60),
    ("interstellar-ambitions", 3, "random", 0.80),
    ("interstellar-ambitions", 3, "heuristic", 0.50),
    ("galactic-empires", 2, "random", 0.95), ("galactic-empires", 2, "heuristic", 0.60),
]


def play(job: tuple[str, int, str, str, int, int]) -> tuple[float, int, float]:
    """One game: (MCTS seat's win share, searched decisions, seconds spent searching)."""
    game_id, players, spec, opponent, seed, g = job
    state = starlanes.load(game_id, players=players, seed=derive_seed(seed, g)).new_initial_state()
    me = g % players
    bots = [make_agent(spec if s == me else opponent, game_id, derive_seed(seed, g, s))
            for s in range(players)]
    searched, spent = 0, 0.0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == me and len(state.legal_actions()) > 1:
            start = time.perf_counter()
            action = bots[seat].act(state)
            spent += time.perf_counter() - start
            searched += 1
        else:
            action = bots[seat].act(state)
        state.apply(action)
    winners = [s for s, r in enumerate(state.returns()) if r > 0]
    return (1 / len(winners) if me in winners else 0.0), searched, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per case")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mcts", default="mcts", help="the agent spec under test")
    parser.add_argument("--case", action="append", default=[],
                        help="GAME:PLAYERS:OPPONENT[:TARGET] (repeatable)")
    args = parser.parse_args()
    cases = TARGETS
    if args.case:
        cases = []
        for text in args.case:
            parts = text.split(":")
            target = float(parts[3]) if len(parts) > 3 else float("nan")
            cases.append((parts[0], int(parts[1]), parts[2], target))
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for game_id, players, opponent, target in cases:
            start = time.perf_counter()
            jobs = [(game_id, players, args.mcts, opponent, args.seed, g)
                    for g in range(args.games)]
            results = []
            for future in as_completed([pool.submit(play, job) for job in jobs]):
                results.append(future.result())
                won = sum(r[0] for r in results)
                print(f"\r  {game_id} vs {opponent}: {len(results)}/{args.games} games, "
                      f"MCTS won {won:g}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            wins = sum(r[0] for r in results)
            decisions = sum(r[1] for r in results)
            spent = sum(r[2] for r in results)
            lo, hi = wilson_interval(wins, args.games)
            verdict = "" if target != target else (" meets" if wins / args.games >= target
                                                   else " BELOW")
            print(f"{game_id} {players}p, {args.mcts} vs {opponent}: "
                  f"{wins:g}/{args.games} = {wins / args.games:.0%} "
                  f"(95% CI {lo:.0%}-{hi:.0%}), target {target:.0%}{verdict}; "
                  f"{spent / max(decisions, 1):.3f} s per searched decision, "
                  f"{decisions / args.games:.0f} per game; "
                  f"wall {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
