"""The mechanism reports' "under 5%" verdicts on two seeds (docs/balance/README.md, aim 2).

Run: ``python benchmarks/usage_seeds.py [--seeds 0 100000] [--only GAME ...] [--workers 1]``.

For each page of docs/balance (``<game>-usage.md`` and the Galactic Empires Standard page),
heuristic bots in every seat play the page's games and settings on each seed, counted
with ``starlanes balance --usage``'s code. Printed per page and seed: the games, the
entries used in under 5% of games (share of games, 95% Wilson interval), and then which
entries are under 5% on one seed and not the other. A page's aim holds on two seeds when
every entry under 5% on either seed has its written reason on the page.
"""

from __future__ import annotations

import argparse
import time

from starlanes.analysis.lab import run_lab
from starlanes.analysis.usage import usage_report

PAGES = {
    "rift-domination": ("rift-domination", 4, 400, {}),
    "galactic-domination": ("galactic-domination", 2, 100, {}),
    "interstellar-ambitions": ("interstellar-ambitions", 4, 100, {}),
    "galactic-empires": ("galactic-empires", 2, 100, {}),
    "galactic-empires-standard": ("galactic-empires", 4, 100, {"structure": "standard"}),
    "galactic-empires-standard-minor": ("galactic-empires", 4, 100, {
        "structure": "standard", "decks": "mechad,dragon,corporate,bolaar"}),
}
"""Page -> (game, players, games, options), the settings each page was made with
(``galactic-empires-standard-minor``: the Standard page's section on the deal with both
minor-empire decks, whose cards the default deal does not hold)."""
RARE = 0.05
"""An entry used in fewer than this share of games is listed with its reason."""


def rare_entries(report: dict) -> dict[str, tuple[int, float, float]]:
    """``"category: entry"`` -> (games used, Wilson 95% low, high) for every catalogue entry
    used in fewer than :data:`RARE` of the games."""
    n = report["games"]
    out = {}
    for category, entries in report["uses"].items():
        for entry, v in entries.items():
            if v["games"] < RARE * n:
                lo, hi = v["ci95"]
                out[f"{category}: {entry}"] = (v["games"], lo, hi)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=[0, 100000])
    parser.add_argument("--only", nargs="*", default=list(PAGES), choices=list(PAGES))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    for page in args.only:
        game, players, games, options = PAGES[page]
        rare: list[dict[str, tuple[int, float, float]]] = []
        for seed in args.seeds:
            start = time.perf_counter()
            rows = run_lab(game, ["heuristic"], players, games, seed, options,
                           workers=args.workers, progress=False, usage=True)
            found = rare_entries(usage_report(game, rows, seed))
            rare.append(found)
            print(f"{page}, {players} players, {games} games, seed {seed} "
                  f"({time.perf_counter() - start:.0f} s): {len(found)} entries under "
                  f"{RARE:.0%} of games", flush=True)
            for name, (used, lo, hi) in sorted(found.items()):
                print(f"  {name}: {used}/{games} ({lo:.0%}-{hi:.0%})")
        first, second = (set(r) for r in rare)
        print(f"{page}: under {RARE:.0%} on both seeds: {len(first & second)}; only on seed "
              f"{args.seeds[0]}: {sorted(first - second) or 'none'}; only on seed "
              f"{args.seeds[1]}: {sorted(second - first) or 'none'}", flush=True)


if __name__ == "__main__":
    main()
