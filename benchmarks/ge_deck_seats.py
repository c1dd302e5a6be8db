"""Galactic Empires 4-player Standard Game: deck or seat? The decks rotated through the seats.

Run: ``python benchmarks/ge_deck_seats.py [--seeds 0 100000] [--games 200] [--workers 1]``.

``starlanes balance`` deals the ``decks`` option in seat order, so a deck's win rate there
carries its seat's edge too. Here each deal (the four major decks, and the deal with both
minor empires) is played in its four rotations (deck ``i`` in seat ``(i + r) mod 4``),
``--games`` heuristic games each, the same game seeds in every rotation: every deck then
sits in every seat equally often, and every seat holds every deck equally often. Printed
per deal and seed: each deck's win rate over its seat-games in all seats, and each seat's
over all decks, with 95% Wilson intervals and Holm-adjusted p-values against the fair 25%
(the lab's own tallies, :func:`starlanes.analysis.lab.group_tallies`, through
:func:`starlanes.analysis.stats.rate_family`), and the deck-by-seat table. The figures are in docs/balance/galactic-empires-decks.md.
"""

from __future__ import annotations

import argparse
import time

from starlanes.analysis.lab import group_tallies, run_lab
from starlanes.analysis.stats import rate_family

DEALS = {
    "major": ("krebiz", "argonian", "corporate", "mechad"),
    "minor": ("mechad", "dragon", "corporate", "bolaar"),
}
"""The default Standard deal (seat order as dealt) and the deal with both minor empires."""
PLAYERS = 4


def rotation(deal: tuple[str, ...], r: int) -> list[str]:
    """The decks by seat when deck ``i`` of ``deal`` sits in seat ``(i + r) mod 4``."""
    seats = [""] * PLAYERS
    for i, deck in enumerate(deal):
        seats[(i + r) % PLAYERS] = deck
    return seats


def _line(name: str, entry: dict) -> str:
    lo, hi = entry["ci95"]
    mark = " *" if entry["significant"] else ""
    return (f"  {name:<10} {entry['rate']:6.1%} ({lo:.1%}-{hi:.1%}) of {entry['games']}, "
            f"Holm p {entry['p_holm']:.3f}{mark}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 100000])
    parser.add_argument("--games", type=int, default=200, help="games per rotation")
    parser.add_argument("--deals", nargs="+", default=list(DEALS), choices=list(DEALS))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    fair = 1.0 / PLAYERS
    for deal_name in args.deals:
        deal = DEALS[deal_name]
        for seed in args.seeds:
            start = time.perf_counter()
            everything: list[dict] = []
            cell: dict[tuple[str, int], float] = {}
            for r in range(PLAYERS):
                decks = rotation(deal, r)
                rows = run_lab("galactic-empires", ["heuristic"], PLAYERS, args.games, seed,
                               {"structure": "standard", "decks": ",".join(decks)},
                               workers=args.workers, progress=False)
                everything += rows
                for s, (wins, n, *_) in group_tallies(rows, "seat")["seat"].items():
                    cell[decks[int(s)], int(s)] = wins / n
            # the deck is the seat's empire fact; shared wins split, counted both ways
            decks_family = rate_family(group_tallies(everything, "fact:empire")["empire"],
                                       fair)
            seats_family = rate_family({f"P{s}": v for s, v in group_tallies(
                everything, "seat")["seat"].items()}, fair)
            print(f"{deal_name} deal {','.join(deal)}, seed {seed}, {args.games} games x "
                  f"{PLAYERS} rotations ({time.perf_counter() - start:.0f} s)", flush=True)
            print(" by deck (every seat):")
            for d in deal:
                print(_line(d, decks_family[d]))
            print(" by seat (every deck):")
            for s in range(PLAYERS):
                print(_line(f"P{s}", seats_family[f"P{s}"]))
            print(" deck by seat (win rate, " + f"{args.games} games a cell):")
            print("  " + " " * 10 + "".join(f"{'P' + str(s):>8}" for s in range(PLAYERS)))
            for d in deal:
                print(f"  {d:<10}" + "".join(f"{cell[d, s]:8.1%}" for s in range(PLAYERS)))
            print(flush=True)


if __name__ == "__main__":
    main()
