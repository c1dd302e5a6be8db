"""Ratings of agents from tournament results, with openskill's Plackett-Luce model.

Every game is rated as a free-for-all: the winners share first place, the other seats
follow by score (equal scores share a place); a game without winners (stopped by the action
cap) is ranked by score alone. Games are rated in schedule order, so the ratings are
reproducible.

An agent sitting in several seats of one game is rated once per seat from its rating before
the game; its new mu and sigma are the means over those seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Row = Mapping[str, Any]


def ranks_of(row: Row) -> list[int]:
    """Places of the seats of one game, 1 = best; winners first, then by score."""
    winners = set(row["winners"])
    scores = row["scores"]
    keys = [(seat not in winners, -scores[seat]) for seat in range(len(scores))]
    distinct = sorted(set(keys))
    return [distinct.index(k) + 1 for k in keys]


def rate_games(rows: Sequence[Row], agents: Sequence[str]) -> dict[str, dict[str, float]]:
    """``{agent: {"mu", "sigma", "ordinal"}}`` after rating every game in order.

    ``ordinal`` is openskill's conservative estimate, mu - 3 sigma.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {a: model.rating(name=a) for a in agents}
    for row in rows:
        seats = list(row["agents"])
        teams = [[model.rating(mu=current[a].mu, sigma=current[a].sigma, name=a)]
                 for a in seats]
        rated = model.rate(teams, ranks=ranks_of(row))
        updates: dict[str, list[tuple[float, float]]] = {}
        for a, team in zip(seats, rated, strict=True):
            updates.setdefault(a, []).append((team[0].mu, team[0].sigma))
        for a, values in updates.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            current[a] = model.rating(mu=mu, sigma=sigma, name=a)
    return {
        a: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "ordinal": round(r.ordinal(), 4)}
        for a, r in current.items()
    }
