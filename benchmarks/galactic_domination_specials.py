"""Galactic Domination: how often heuristic self-play uses each special, and game length.

Run: ``python benchmarks/galactic_domination_specials.py [--games N] [--seed S]``. Game g
uses seed ``S + g`` and bots seeded ``g * 10`` and ``g * 10 + 1``. For each special it
prints the total uses and the number of games with at least one: warps, chosen arrivals,
collisions (split into those that destroy an enemy ship and an own ship, and those the
arriving player chose), black hole shots charged and fired, fleet jumps charged and made.
Then the median and longest game in rounds and player 1's share of wins.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

import starlanes
from starlanes.games.galactic_domination.heuristic import HeuristicAgent

KINDS = ("warp", "arrive", "collide_enemy", "collide_own", "collide_chosen", "charge_shot",
         "fire", "charge_jump", "jump")


def use(state, notation: str, previous: str) -> str | None:
    """The special an action notation is, or None."""
    words = notation.split()
    if words[0] == "charge":
        return "charge_shot" if len(words) == 3 else "charge_jump"
    if words[0] == "sacrifice":
        if previous.startswith("arrive"):
            return "collide_chosen"
        return "collide_own" if state.current_player() == state.seat else "collide_enemy"
    return words[0] if words[0] in KINDS else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    total: Counter[str] = Counter()
    games: Counter[str] = Counter()
    rounds = []
    first = 0.0
    for g in range(args.games):
        s = starlanes.load("galactic-domination", seed=args.seed + g).new_initial_state()
        bots = [HeuristicAgent(g * 10), HeuristicAgent(g * 10 + 1)]
        seen: Counter[str] = Counter()
        previous = ""
        while not s.is_terminal():
            a = bots[s.current_player()].act(s)
            kind = use(s, str(a), previous)
            if kind:
                seen[kind] += 1
            previous = str(a)
            s.apply(a)
        total += seen
        games.update(seen.keys())
        rounds.append(s.round)
        first += s.returns()[s.first]
    for k in KINDS:
        print(f"{k:15s} {total[k]:6d} uses in {games[k]:4d} of {args.games} games")
    print(f"rounds: median {statistics.median(rounds)}, longest {max(rounds)}; "
          f"player 1 won {first / args.games:.1%}")


if __name__ == "__main__":
    main()
