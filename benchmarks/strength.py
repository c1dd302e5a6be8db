"""Bot strength: one MCTS seat against copies of another agent, with 95% intervals.

Run: ``python benchmarks/strength.py [--games 40] [--workers 2] [--case GAME:P:OPP ...]``.
Without ``--case`` it runs the issue's targets: in 2-player Rift Domination, Galactic
Domination and Galactic Empires MCTS (default budget) wins >= 95% against ``random`` and
>= 70% against ``heuristic``; in 3-player Interstellar Ambitions one MCTS seat wins >= 80%
against two ``random`` seats and >= 70% against two ``heuristic`` seats. Against
``heuristic`` the lower end of the 95% interval must also lie above 60%.

The MCTS seat rotates through every seat; game g uses seed ``derive_seed(seed, g)``. For
each case it prints the MCTS seat's share of wins (ties shared), the Wilson 95% interval,
the target, whether the sample meets it, seconds per searched decision, determinisations
(sampled worlds) per searched decision, and how many searched decisions resumed a subtree
kept from the agent's previous decision (tree reuse) with the visits they carried over.
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
    ("rift-domination", 2, "random", 0.95), ("rift-domination", 2, "heuristic", 0.70),
    ("galactic-domination", 2, "random", 0.95), ("galactic-domination", 2, "heuristic", 0.70),
    ("interstellar-ambitions", 3, "random", 0.80),
    ("interstellar-ambitions", 3, "heuristic", 0.70),
    ("galactic-empires", 2, "random", 0.95), ("galactic-empires", 2, "heuristic", 0.70),
]
LOWER_BOUND = 0.60
"""Against ``heuristic`` the Wilson 95% interval must also start above this share."""


def play(job: tuple[str, int, str, str, int, int]) -> tuple[float, int, float, int, int, int]:
    """One game: (MCTS seat's win share, searched decisions, seconds spent searching,
    determinisations searched, searched decisions that resumed a kept subtree, visits those
    kept subtrees carried over)."""
    game_id, players, spec, opponent, seed, g = job
    state = starlanes.load(game_id, players=players, seed=derive_seed(seed, g)).new_initial_state()
    me = g % players
    bots = [make_agent(spec if s == me else opponent, game_id, derive_seed(seed, g, s))
            for s in range(players)]
    searched, spent, worlds, resumed, carried = 0, 0.0, 0, 0, 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat == me and len(state.legal_actions()) > 1:
            start = time.perf_counter()
            action = bots[seat].act(state)
            spent += time.perf_counter() - start
            searched += 1
            worlds += getattr(bots[seat], "last_determinisations", 0)
            reused = getattr(bots[seat], "last_reused", 0)
            resumed += reused > 0
            carried += reused
        else:
            action = bots[seat].act(state)
        state.apply(action)
    winners = [s for s, r in enumerate(state.returns()) if r > 0]
    return (1 / len(winners) if me in winners else 0.0), searched, spent, worlds, resumed, carried


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per case")
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first game: game g is seeded by g alone, so "
                             "--first N --games M plays the same games N..N+M-1 as one longer "
                             "run would (to continue a run that stopped, its --log beside)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mcts", default="mcts", help="the agent spec under test")
    parser.add_argument("--case", action="append", default=[],
                        help="GAME:PLAYERS:OPPONENT[:TARGET] (repeatable)")
    parser.add_argument("--log", default="",
                        help="append one line per finished game to this file: game, "
                             "index, MCTS share, searched decisions, seconds searching, "
                             "determinisations, resumed decisions, visits carried over")
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
                    for g in range(args.first, args.first + args.games)]
            results = []
            futures = {pool.submit(play, job): job[-1] for job in jobs}
            for future in as_completed(futures):
                results.append(future.result())
                if args.log:
                    with open(args.log, "a", encoding="utf-8") as log:
                        print(game_id, futures[future], *results[-1], file=log)
                won = sum(r[0] for r in results)
                print(f"\r  {game_id} vs {opponent}: {len(results)}/{args.games} games, "
                      f"MCTS won {won:g}", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            wins = sum(r[0] for r in results)
            decisions = sum(r[1] for r in results)
            spent = sum(r[2] for r in results)
            worlds, resumed, carried = (sum(r[i] for r in results) for i in (3, 4, 5))
            lo, hi = wilson_interval(wins, args.games)
            meets = wins / args.games >= target and (opponent != "heuristic"
                                                     or lo > LOWER_BOUND)
            verdict = "" if target != target else (" meets" if meets else " BELOW")
            print(f"{game_id} {players}p, {args.mcts} vs {opponent}: "
                  f"{wins:g}/{args.games} = {wins / args.games:.0%} "
                  f"(95% CI {lo:.0%}-{hi:.0%}), target {target:.0%}{verdict}; "
                  f"{spent / max(decisions, 1):.3f} s per searched decision, "
                  f"{decisions / args.games:.0f} per game; "
                  f"{worlds / max(decisions, 1):.1f} determinisations a searched decision; "
                  f"reuse: {resumed}/{decisions} searched decisions resumed a kept subtree "
                  f"({carried / max(resumed, 1):.0f} visits each); "
                  f"wall {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
