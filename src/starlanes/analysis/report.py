"""Rich tables of a tournament report (as built by ``tournament_report``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.markup import escape
from rich.table import Table


def _ci(entry: Mapping[str, Any]) -> str:
    lo, hi = entry["ci95"]
    return f"{lo:.1%} - {hi:.1%}"


def _wins(entry: Mapping[str, Any]) -> str:
    wins = entry["wins"]
    return f"{wins:g}" if float(wins).is_integer() else f"{wins:.2f}"


def report_tables(report: Mapping[str, Any]) -> list[Table]:
    """Ratings, win rates, per-seat and head-to-head win rates and the game figures."""
    agents = list(report["agents"])
    ratings = report["ratings"]
    order = sorted(agents, key=lambda a: -ratings[a]["mu"])
    head = (f"{report['game']}: {report['games']} games, {report['players']} players, "
            f"seed {report['seed']}")

    rating = Table(title=f"{head}\nratings (openskill Plackett-Luce)")
    for col in ("agent", "mu", "sigma", "mu +- 2 sigma", "ordinal (mu - 3 sigma)"):
        rating.add_column(col, justify="left" if col == "agent" else "right")
    for a in order:
        r = ratings[a]
        rating.add_row(escape(a), f"{r['mu']:.2f}", f"{r['sigma']:.2f}",
                       f"{r['mu'] - 2 * r['sigma']:.1f} .. {r['mu'] + 2 * r['sigma']:.1f}",
                       f"{r['ordinal']:.2f}")

    wins = Table(title="win rate (ties shared), 95% Wilson interval")
    for col in ("agent", "seat-games", "wins", "win rate", "95% CI"):
        wins.add_column(col, justify="left" if col == "agent" else "right")
    for a in order:
        e = report["win_rate"][a]
        wins.add_row(escape(a), str(e["games"]), _wins(e), f"{e['rate']:.1%}", _ci(e))

    seats = Table(title="win rate per seat, 95% Wilson interval")
    seats.add_column("agent")
    for s in range(report["players"]):
        seats.add_column(f"seat {s}", justify="right")
    for a in order:
        per = report["seat_win_rate"].get(a, {})
        cells = []
        for s in range(report["players"]):
            e = per.get(str(s))
            cells.append(f"{e['rate']:.0%} ({_ci(e)}) n={e['games']}" if e else "-")
        seats.add_row(escape(a), *cells)

    pairs = Table(title="head to head: the row agent's win share against the column agent")
    pairs.add_column("agent")
    for b in order:
        pairs.add_column(escape(b), justify="right")
    for a in order:
        per = report.get("head_to_head", {}).get(a, {})
        cells = []
        for b in order:
            e = per.get(b)
            cells.append(f"{e['rate']:.0%} [{e['ci95'][0]:.0%}-{e['ci95'][1]:.0%}] "
                         f"n={e['games']}" if e else "-")
        pairs.add_row(escape(a), *cells)

    first = report["first_seat"]
    figures = Table(show_header=False, title="games")
    figures.add_column("what")
    figures.add_column("value", justify="right")
    verdict = "significant" if first["significant"] else "not significant"
    figures.add_row("seat 0 win share",
                    f"{first['rate']:.1%} ({_ci(first)}), fair {first['fair']:.1%}")
    figures.add_row("first-seat advantage", f"{first['advantage']:+.1%} ({verdict})")
    figures.add_row("win share by seat",
                    ", ".join(f"{s:.1%}" for s in first["seat_rates"]))
    if report["mean_rounds"] is not None:
        figures.add_row("mean rounds", f"{report['mean_rounds']:.1f}")
    figures.add_row("mean actions", f"{report['mean_actions']:.0f}")
    if report.get("capped"):
        figures.add_row("stopped by the action cap", str(report["capped"]))
    figures.add_row("wall time", f"{report['wall_s']:.2f} s")
    tables = [rating, wins, seats]
    if len(agents) > 2:
        tables.append(pairs)
    return tables + [figures]
