"""Win-rate statistics over tournament results, with Wilson 95% confidence intervals.

Every function reads result rows as the tournament (and ``simulate``) produce them: dicts
with ``agents`` (the spec in each seat), ``winners`` (winning seats), ``rounds`` and
``actions``. A game with several winners shares the win: each winning seat counts
``1 / len(winners)`` of a win. A game without winners (stopped by the action cap) counts as
played and lost by every seat.

An agent's "games" are the seats it occupied: an agent sitting in two seats of one game
counts two seat-games there, so its fair win rate is always ``1 / players``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

Row = Mapping[str, Any]


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``wins`` successes in ``n`` trials.

    ``wins`` may be fractional (shared wins). With ``n == 0`` the interval is ``(0, 1)``.
    """
    if n <= 0:
        return 0.0, 1.0
    if wins < 0 or wins > n:
        raise ValueError(f"wins {wins} outside 0..{n}")
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_entry(wins: float, games: int) -> dict[str, Any]:
    """``{"wins", "games", "rate", "ci95": [lo, hi]}`` for a tally."""
    lo, hi = wilson_interval(wins, games)
    return {
        "wins": round(wins, 6),
        "games": games,
        "rate": round(wins / games, 6) if games else 0.0,
        "ci95": [round(lo, 6), round(hi, 6)],
    }


def win_shares(row: Row) -> list[float]:
    """Each seat's share of the win in one game (ties shared; no winner: all zero)."""
    n = len(row["agents"])
    winners = list(row["winners"])
    return [(1 / len(winners) if seat in winners else 0.0) for seat in range(n)]


def _tally(rows: Iterable[Row], key: Any) -> dict[Any, list[float]]:
    tally: dict[Any, list[float]] = {}
    for row in rows:
        for seat, share in enumerate(win_shares(row)):
            k = key(row["agents"][seat], seat)
            entry = tally.setdefault(k, [0.0, 0])
            entry[0] += share
            entry[1] += 1
    return tally


def win_rates(rows: Sequence[Row], agents: Sequence[str] | None = None) -> dict[str, Any]:
    """Win rate per agent: ``{agent: {"wins", "games", "rate", "ci95"}}``.

    ``agents`` fixes the order (and lists agents that never played with zero games).
    """
    tally = _tally(rows, lambda agent, seat: agent)
    order = list(agents) if agents is not None else sorted(tally)
    return {a: rate_entry(*tally.get(a, (0.0, 0))) for a in order}


def seat_win_rates(rows: Sequence[Row],
                   agents: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Win rate per agent and seat: ``{agent: {"0": {...}, "1": {...}}}`` (seat keys are
    strings so the result is JSON as it stands)."""
    tally = _tally(rows, lambda agent, seat: (agent, seat))
    order = list(agents) if agents is not None else sorted({a for a, _ in tally})
    seats = sorted({s for _, s in tally})
    return {
        a: {str(s): rate_entry(*tally[(a, s)]) for s in seats if (a, s) in tally}
        for a in order
    }


def head_to_head(rows: Sequence[Row],
                 agents: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """Each agent's win share in the games it played with each other agent:
    ``{agent: {other: {"wins", "games", "rate", "ci95"}}}``. In a 2-player tournament this is
    the head-to-head record; ties and wins by a third agent count as shares as usual."""
    tally: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        names = list(row["agents"])
        shares = win_shares(row)
        for seat, name in enumerate(names):
            for other in set(names) - {name}:
                entry = tally.setdefault((name, other), [0.0, 0])
                entry[0] += shares[seat]
                entry[1] += 1
    order = list(agents) if agents is not None else sorted({a for a, _ in tally})
    return {
        a: {b: rate_entry(*tally[(a, b)]) for b in order if (a, b) in tally}
        for a in order
    }


def first_seat_advantage(rows: Sequence[Row]) -> dict[str, Any]:
    """Seat 0's share of the wins against the fair share ``1 / players``.

    Returns the seat-0 tally (``wins``, ``games``, ``rate``, ``ci95``) plus ``fair``,
    ``advantage`` (rate minus fair), ``significant`` (the interval excludes the fair share)
    and ``seat_rates`` (every seat's win share, for comparison).
    """
    if not rows:
        entry = rate_entry(0.0, 0)
        return {**entry, "fair": 0.0, "advantage": 0.0, "significant": False,
                "seat_rates": []}
    players = len(rows[0]["agents"])
    totals = [0.0] * players
    for row in rows:
        for seat, share in enumerate(win_shares(row)):
            totals[seat] += share
    n = len(rows)
    entry = rate_entry(totals[0], n)
    fair = 1 / players
    lo, hi = entry["ci95"]
    return {
        **entry,
        "fair": round(fair, 6),
        "advantage": round(totals[0] / n - fair, 6),
        "significant": not lo <= fair <= hi,
        "seat_rates": [round(t / n, 6) for t in totals],
    }


def mean_length(rows: Sequence[Row]) -> tuple[float | None, float]:
    """Mean rounds (None when the game keeps no round count) and mean actions per game."""
    if not rows:
        return None, 0.0
    rounds = [r["rounds"] for r in rows if r.get("rounds") is not None]
    mean_rounds = round(sum(rounds) / len(rounds), 3) if rounds else None
    return mean_rounds, round(sum(r["actions"] for r in rows) / len(rows), 3)
