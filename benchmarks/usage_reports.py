"""Write the mechanism reports of docs/balance/<game>-usage.md (issue 29).

For each game: heuristic bots in every seat over ``--games`` games, then a short run of MCTS
against the heuristic (``--mcts-games`` games, ``--mcts`` spec), each counted with
``starlanes balance --usage``'s code, and the page written with the settings that made it.
Prints each game's headline figures. A page's hand-written section "Below 5%, and why"
(the reasons a mechanism is rarely used) is kept when the page is written again.

    python benchmarks/usage_reports.py --games 100 --mcts-games 8 --workers 2
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from starlanes.analysis.lab import run_lab
from starlanes.analysis.usage import usage_report
from starlanes.analysis.usage_view import usage_markdown

GAMES = {"rift-domination": 4, "galactic-domination": 2, "interstellar-ambitions": 4,
         "galactic-empires": 2}


def _headline(report: dict) -> str:
    sources = ", ".join(f"{k} {v['share']:.1%}" for k, v in sorted(
        report["sources"]["all"].items(), key=lambda kv: -kv[1]["points"]))
    never = sum(len(v) for v in report["unused"].values())
    return f"{report['score_label']}: {sources}; catalogue entries never used: {never}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--mcts-games", type=int, default=8)
    parser.add_argument("--mcts", default="mcts:iterations=100")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", default=sorted(GAMES))
    parser.add_argument("--out", type=Path, default=Path("docs/balance"))
    parser.add_argument("--players", type=int, default=None, help="instead of the default")
    parser.add_argument("--option", action="append", default=[], help="key=value, repeatable")
    parser.add_argument("--suffix", default="", help="page name: GAME-usage{suffix}.md")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    options = dict(o.split("=", 1) for o in args.option)
    for game in args.only:
        n = args.players or GAMES[game]
        parts = []
        for agents, games in ((["heuristic"], args.games),
                              ([args.mcts, "heuristic"], args.mcts_games)):
            if games <= 0:
                continue
            start = time.perf_counter()
            rows = run_lab(game, agents, n, games, args.seed, options, workers=args.workers,
                           progress=False, usage=True)
            wall = time.perf_counter() - start
            report = usage_report(game, rows, args.seed)
            rounds = sorted(r["rounds"] for r in rows if r["rounds"] is not None)
            median = rounds[len(rounds) // 2] if rounds else None
            ends: dict[str, int] = {}
            for r in rows:
                ends[r["end_reason"]] = ends.get(r["end_reason"], 0) + 1
            who = " against ".join(agents) if len(agents) > 1 else f"{agents[0]} in every seat"
            command = (f"starlanes balance {game} --players {n} --games {games} --agents "
                       f"{','.join(agents)} --seed {args.seed} --usage --workers {args.workers}"
                       + "".join(f" -o {k}={v}" for k, v in options.items()))
            intro = (f"{games} games, {n} players, {who}, seed {args.seed}; median "
                     f"{median} rounds; ends: "
                     + ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
                     + f"; {wall:.0f} s with {args.workers} workers.\n\nMade by `{command}` "
                     "(the same counts as `python benchmarks/usage_reports.py`). Shares of "
                     "games carry 95% Wilson intervals; score shares 95% bootstrap intervals "
                     "over games. \"Seat-games used\" is the share of an agent's seats that "
                     "used the entry at least once.")
            parts.append(usage_markdown(report, who, intro, level=2))
            print(f"{game} [{', '.join(agents)}] x{games} ({wall:.0f} s): {_headline(report)}")
        page = args.out / f"{game}-usage{args.suffix}.md"
        settings = f" ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else ""
        head = (f"# {game}{settings}: how each mechanism is used\n\nWritten by "
                "`benchmarks/usage_reports.py`; see docs/lab.md (Mechanism report) for how "
                "to read it.\n")
        notes = kept_notes(page)
        page.write_text(head + "\n" + "\n\n".join(parts) + notes, encoding="utf-8")


def kept_notes(page: Path) -> str:
    """The hand-written reasons of an existing page: from its heading "Below 5%, and why"
    (any level) to its end, carried over when the page is written again; "" for none."""
    if not page.exists():
        return ""
    text = page.read_text(encoding="utf-8")
    match = re.search(r"^#{2,4} Below 5%, and why", text, flags=re.MULTILINE)
    return "\n\n" + text[match.start():].strip() + "\n" if match else ""


if __name__ == "__main__":
    main()
