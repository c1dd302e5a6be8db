"""How often uniformly random play reaches a game's length cap, and what results a learner
starting from scratch therefore sees, under each ``cap_result`` of the research adapters.

Run: ``python benchmarks/cap_results.py [--game galactic-empires] [--players 2]
[--games 200] [--seed 0 --seed 100000] [-o turn_cap=40 ...]``.

For each base seed it plays ``--games`` random games (game ``g`` seeded ``seed + g``,
actions drawn by ``random.Random(seed + g)``) to their end with the engine and prints the
share of each end reason, the mean actions per game, and for each ``cap_result``
(``draw``, the engine's result; ``score``, the win to the best score) the share of games
whose ``result`` reward is *decided* (one seat gets 1, the others 0) and the share that
is *shared* (a draw between two or more seats). The rewards are the research adapters'
own (:class:`starlanes.interop.rewards.RewardModel`), read off the same final states.
Nothing here asserts; docs/research.md quotes the figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import starlanes
from starlanes.interop.rewards import CAP_RESULTS, RewardModel


def playouts(game: str, players: int, games: int, seed: int,
             options: dict[str, object]) -> tuple[list, int]:
    """The final states of ``games`` random games and the actions they took in all."""
    finals, actions = [], 0
    for g in range(games):
        state = starlanes.load(game, players=players, seed=seed + g, **options) \
            .new_initial_state()
        rng = random.Random(seed + g)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        finals.append(state)
    return finals, actions


def report(game: str, finals: list, actions: int) -> list[str]:
    """Lines of figures for one seed's final states."""
    n = len(finals)
    ends = Counter(getattr(s, "end_reason", "") or "-" for s in finals)
    lines = ["  ends: " + ", ".join(f"{k} {v / n:.1%} ({v})" for k, v in ends.most_common())
             + f"; {actions / n:.0f} actions a game"]
    for cap in CAP_RESULTS:
        model = RewardModel(game, "result", cap)
        decided = sum(1 for s in finals if max(model.result(s)) == 1.0)
        lines.append(f"  cap_result={cap}: decided {decided / n:.1%} ({decided}), "
                     f"shared {(n - decided) / n:.1%} ({n - decided})")
    return lines


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    return key, int(value) if value.lstrip("-").isdigit() else value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="galactic-empires")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, action="append", help="base seed (repeatable)")
    p.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    a = p.parse_args()
    options = dict(_option(o) for o in a.options)
    for seed in a.seed or [0, 100_000]:
        start = time.perf_counter()
        finals, actions = playouts(a.game, a.players, a.games, seed, options)
        wall = time.perf_counter() - start
        print(f"{a.game}, {a.players} players, {a.games} random games from seed {seed}"
              f"{', options ' + str(options) if options else ''} ({wall:.0f} s):")
        print("\n".join(report(a.game, finals, actions)))


if __name__ == "__main__":
    main()
