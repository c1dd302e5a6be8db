"""Decks against decks: ``starlanes balance galactic-empires --decks FILE...`` plays every
pair of the given Galactic Empires decks against each other in the Standard Game, round
robin, seats alternating (each pair's games are split evenly between the two seatings), and
reports each deck's win rate with its 95% Wilson interval, its rate against every other deck,
the first seat's rate, and each card's usage (plays per game, by deck).

A deck is a deck file, a deck code or the id of a ready-made deck of the content. Every
game's seed comes from the master seed, the pair and the game number, so a run repeats
exactly with the same arguments (agents that search against the clock aside).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from starlanes.engine import SEAT_SETUP, BadOptionError, derive_seed, game_module, load

from .lab import lab_game
from .stats import rate_entry

GAME = "galactic-empires"


def read_decks(given: Sequence[str], options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(label, code)`` of each deck named by ``given`` (a deck file, a code or a
    ready-made deck id), for the content of ``options``. Raises BadOptionError for fewer
    than two decks, one that cannot be read or one that breaks a construction rule (naming
    the deck and the rule)."""
    if len(given) < 2:
        raise BadOptionError("--decks needs at least two decks to play against each other")
    game = load(GAME, players=2, **{**options, "structure": "standard"})
    decks, codes = game_module(GAME, "decks"), game_module(GAME, "deck_code")
    out: list[tuple[str, str]] = []
    for item in given:
        path = Path(item).expanduser()
        if path.is_file():
            deck = decks.load_file(path)
        elif item in game.content.decks:
            deck = decks.from_content(game.content, item)
        elif item.strip().upper().startswith(codes.PREFIX):
            deck = codes.decode(game.content, item)
        else:
            raise BadOptionError(f"--decks {item!r}: neither a deck file, a deck code nor a "
                                 f"ready-made deck ({', '.join(sorted(game.content.decks))})")
        problems = decks.check(game.content, deck)
        if problems:
            raise BadOptionError(f"--decks {item!r} breaks rule {problems[0]}")
        label, k = deck.name, 2
        while label in [lab for lab, _ in out]:
            label, k = f"{deck.name} ({k})", k + 1
        out.append((label, codes.encode(game.content, deck)))
    return out


def deck_jobs(codes: Sequence[str], games: int, seed: int, spec: str,
              options: Mapping[str, Any], action_cap: int
              ) -> tuple[list[tuple[Any, ...]], list[tuple[int, int]]]:
    """The lab jobs of the round robin (``games`` per pair, rounded up to even) and, per
    job, the decks in seat 0 and seat 1. Game g of a pair seats its first deck first when
    g is even, its second deck first when g is odd."""
    per_pair = games + games % 2
    jobs: list[tuple[Any, ...]] = []
    seating: list[tuple[int, int]] = []
    for a, b in combinations(range(len(codes)), 2):
        for g in range(per_pair):
            first, second = (a, b) if g % 2 == 0 else (b, a)
            game_seed = derive_seed(seed, "decks", a, b, g)
            opts = {**options, "structure": "standard",
                    SEAT_SETUP: (codes[first], codes[second])}
            jobs.append((len(jobs), GAME, 2, game_seed, opts, [spec, spec],
                         [derive_seed(game_seed, "agent", s) for s in range(2)], action_cap))
            seating.append((first, second))
    return jobs, seating


def deck_report(labels: Sequence[str], seating: Sequence[tuple[int, int]],
                rows: Sequence[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The report of a round robin: ``decks`` (label -> win rate entry, as seat P0
    (``first_seat``) and P1 (``second_seat``), against each other deck), ``first_seat``
    (P0's rate over all games; who moves first is the ante's choice), ``end_reasons``, ``cards`` (label ->
    card id -> plays per game, most played first) and ``meta``. A shared win counts half;
    a game with no winner (turn cap) counts as no win for either."""
    n = len(labels)
    wins = [0.0] * n
    played = [0] * n
    by_seat = [[0.0, 0.0] for _ in range(n)]
    seat_games = [[0, 0] for _ in range(n)]
    versus = [[[0.0, 0] for _ in range(n)] for _ in range(n)]
    plays: list[Counter[str]] = [Counter() for _ in range(n)]
    first_wins = 0.0
    reasons: Counter[str] = Counter()
    for (d0, d1), row in zip(seating, rows, strict=True):
        winners = list(row["winners"])
        share = [(1 / len(winners) if s in winners else 0.0) for s in range(2)]
        first_wins += share[0]
        reasons[str(row["end_reason"])] += 1
        for seat, (d, other) in enumerate(((d0, d1), (d1, d0))):
            wins[d] += share[seat]
            played[d] += 1
            by_seat[d][seat] += share[seat]
            seat_games[d][seat] += 1
            versus[d][other][0] += share[seat]
            versus[d][other][1] += 1
            for entry, k in row["entries"][seat].items():
                if entry.startswith("card:"):
                    plays[d][entry.removeprefix("card:")] += k
    decks = {}
    for d, label in enumerate(labels):
        decks[label] = {
            **rate_entry(wins[d], played[d]),
            "first_seat": rate_entry(by_seat[d][0], seat_games[d][0]),
            "second_seat": rate_entry(by_seat[d][1], seat_games[d][1]),
            "versus": {labels[o]: rate_entry(*versus[d][o]) for o in range(n) if o != d},
        }
    cards = {label: {cid: round(k / played[d], 3) for cid, k in plays[d].most_common()}
             for d, label in enumerate(labels) if played[d]}
    return {"meta": dict(meta), "games": len(rows), "decks": decks,
            "first_seat": rate_entry(first_wins, len(rows)),
            "end_reasons": dict(reasons.most_common()), "cards": cards}


def run_deck_balance(given: Sequence[str], games: int, spec: str, seed: int,
                     options: Mapping[str, Any], action_cap: int,
                     run: Mapping[str, Any]) -> dict[str, Any]:
    """Read the decks, play the round robin (``run``: backend, workers, address as
    :func:`~.backends.run_jobs` takes them) and return :func:`deck_report`'s report."""
    from .backends import run_jobs

    named = read_decks(given, options)
    labels = [label for label, _ in named]
    jobs, seating = deck_jobs([code for _, code in named], games, seed, spec, options,
                              action_cap)
    rows = run_jobs(jobs, lab_game, run.get("backend", "local"), run.get("workers", 1),
                    run.get("address"), True, f"{GAME} decks x{len(jobs)}")
    meta = {"game": GAME, "agent": spec, "seed": seed, "games_per_pair": games + games % 2,
            "options": {k: v for k, v in options.items() if k != SEAT_SETUP},
            "decks": dict(named)}
    return deck_report(labels, seating, rows, meta)


def deck_tables(report: Mapping[str, Any], top: int = 8) -> list[Table]:
    """Terminal tables of a deck report: win rates, the head-to-head matrix, each deck's
    most played cards."""
    m = report["meta"]
    rates = Table(title=f"{GAME}: decks round robin, {report['games']} games "
                        f"({m['games_per_pair']} per pair, seats alternating), {m['agent']}")
    for col in ("deck", "games", "win rate", "95% CI", "as P0", "as P1"):
        rates.add_column(col, justify="left" if col == "deck" else "right")
    for label, e in sorted(report["decks"].items(), key=lambda kv: -kv[1]["rate"]):
        rates.add_row(escape(label), str(e["games"]), f"{e['rate']:.1%}",
                      f"{e['ci95'][0]:.1%} .. {e['ci95'][1]:.1%}",
                      f"{e['first_seat']['rate']:.1%}", f"{e['second_seat']['rate']:.1%}")
    fs = report["first_seat"]
    rates.caption = (f"seat P0 wins {fs['rate']:.1%} ({fs['ci95'][0]:.1%} .. "
                     f"{fs['ci95'][1]:.1%}); end reasons "
                     + ", ".join(f"{k} {v}" for k, v in report["end_reasons"].items()))
    labels = list(report["decks"])
    matrix = Table(title="row deck's win rate against column deck")
    matrix.add_column("deck")
    for label in labels:
        matrix.add_column(escape(label[:12]), justify="right")
    for label in labels:
        vs = report["decks"][label]["versus"]
        matrix.add_row(escape(label), *(f"{vs[o]['rate']:.0%}" if o in vs else "-"
                                        for o in labels))
    cards = Table(title=f"most played cards per game, by deck (top {top})")
    cards.add_column("deck")
    cards.add_column("cards (plays per game)", overflow="fold")
    for label, used in report["cards"].items():
        cards.add_row(escape(label), ", ".join(f"{cid} {k:.2f}"
                                               for cid, k in list(used.items())[:top]))
    return [rates, matrix, cards]


def deck_balance(game: str, players: int, given: Sequence[str], games: int,
                 specs: Sequence[str], seed: int, options: Mapping[str, Any],
                 action_cap: int, run: Mapping[str, Any]) -> tuple[dict[str, Any], list[Table]]:
    """``balance --decks``: the report and its tables. ``given`` items may hold several
    decks separated by commas. Raises BadOptionError for another game, other than 2
    players or more than one agent spec."""
    if game != GAME:
        raise BadOptionError(f"--decks is for {GAME} (Standard Game decks), not {game}")
    if players != 2:
        raise BadOptionError("--decks plays decks in pairs: give --players 2 or leave it out")
    if len(set(specs)) != 1:
        raise BadOptionError("--decks pits decks against each other with one agent: give "
                             "one agent spec")
    items = [part.strip() for item in given for part in item.split(",") if part.strip()]
    report = run_deck_balance(items, games, specs[0], seed, options, action_cap, run)
    return report, deck_tables(report)
