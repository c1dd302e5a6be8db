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


# ---------------------------------------------------------------------- lab tests
def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given), each capped at 1.

    The family-wise error rate stays at the level compared against whatever the number of
    tests; an adjusted p-value below 0.05 is a discovery at 5% family-wise.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def bonferroni_z(family: int, level: float = 0.95) -> float:
    """z of a two-sided interval whose ``family`` members hold jointly at ``level``
    (each at ``1 - (1 - level) / family``). ``family == 1`` gives :data:`Z95`."""
    from scipy.stats import norm

    return float(norm.ppf(1 - (1 - level) / (2 * max(1, family))))


#: Below this many games (or paired games) a lab figure is reported with a warning and is
#: never marked significant, whatever its p-value: too few to judge.
MIN_COUNT = 10


def tie_bounds(tally: Sequence[float]) -> tuple[int, int]:
    """Whole wins with shared wins counted as losses and as wins: ``(low, high)``.

    ``tally`` is ``(wins, games)`` or ``(wins, games, sole wins, seat-games in a shared
    win)``; with only two items a fractional ``wins`` gives its floor and ceiling."""
    if len(tally) >= 4:
        sole, tied = int(tally[2]), int(tally[3])
        return sole, sole + tied
    wins = float(tally[0])
    return math.floor(wins + 1e-9), math.ceil(wins - 1e-9)


def binomial_p(wins: float, n: int, p0: float, ties: tuple[int, int] | None = None) -> float:
    """Two-sided exact binomial test p-value of ``wins`` in ``n`` against rate ``p0``; 1.0
    without games.

    Shared wins are treated explicitly, never rounded: the test is made with the shared
    wins counted as losses and as wins (``ties = (low, high)`` from :func:`tie_bounds`; by
    default the floor and ceiling of ``wins``) and the larger p-value is kept, so a result
    holds whichever way a shared win is read."""
    from scipy.stats import binomtest

    if n <= 0:
        return 1.0
    low, high = ties if ties is not None else tie_bounds((wins, n))
    return max(float(binomtest(min(n, max(0, k)), n, p0).pvalue) for k in {low, high})


def rate_family(tallies: Mapping[str, Sequence[float]], fair: float) -> dict[str, Any]:
    """Win rates of a family of groups (seats, factions, openings) tested against ``fair``.

    ``tallies`` maps a group to ``(wins, seat-games)`` or ``(wins, seat-games, sole wins,
    seat-games in a shared win)``. Each entry has the plain :func:`rate_entry` fields plus
    ``ci95_adj`` (a Wilson interval widened by Bonferroni over the family so that all hold
    jointly at 95%), ``p`` (exact binomial test against ``fair``, shared wins treated as in
    :func:`binomial_p`), ``p_holm`` (Holm-adjusted over the family), ``few`` (fewer than
    :data:`MIN_COUNT` seat-games) and ``significant`` (``p_holm < 0.05`` and not ``few``).
    """
    keys = list(tallies)
    z = bonferroni_z(len(keys))
    ps = [binomial_p(t[0], int(t[1]), fair, tie_bounds(t)) for t in (tallies[k] for k in keys)]
    adjusted = holm(ps)
    out: dict[str, Any] = {}
    for key, p, q in zip(keys, ps, adjusted, strict=True):
        wins, n = tallies[key][0], int(tallies[key][1])
        lo, hi = wilson_interval(wins, n, z)
        few = n < MIN_COUNT
        out[key] = {**rate_entry(wins, n), "ci95_adj": [round(lo, 6), round(hi, 6)],
                    "p": round(p, 6), "p_holm": round(q, 6),
                    "significant": q < 0.05 and not few, "few": few}
    return out


def paired_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Paired comparison of two measures taken on the same games (``b - a`` per game).

    Returns ``mean_a``, ``mean_b``, ``diff`` (mean of ``b - a``), ``ci95`` (Student t
    interval of the mean difference), ``p`` (paired t-test; 1.0 when every difference is
    equal, since nothing varies) and ``n``. Raises ValueError when the lengths differ.
    """
    from scipy import stats as st

    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    n = len(a)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n if n else 0.0
    if n < 2 or all(d == diffs[0] for d in diffs):
        return {"n": n, "mean_a": _mean(a), "mean_b": _mean(b), "diff": round(mean, 6),
                "ci95": [round(mean, 6), round(mean, 6)], "p": 1.0}
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = float(st.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    p = float(st.ttest_rel(b, a).pvalue)
    return {"n": n, "mean_a": _mean(a), "mean_b": _mean(b), "diff": round(mean, 6),
            "ci95": [round(mean - half, 6), round(mean + half, 6)], "p": round(p, 6)}


def two_rates(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Two independent win rates, each ``(wins, games)`` or ``(wins, games, sole wins,
    seat-games in a shared win)``: ``rate_a``, ``rate_b``, ``diff`` (b - a) with a Newcombe
    hybrid-score 95% interval, and Fisher's exact test ``p``, shared wins counted as losses
    and as wins on each side and the largest p-value kept (see :func:`binomial_p`)."""
    from scipy.stats import fisher_exact

    wa, na, wb, nb = float(a[0]), int(a[1]), float(b[0]), int(b[1])
    pa = wa / na if na else 0.0
    pb = wb / nb if nb else 0.0
    la, ha = wilson_interval(wa, na)
    lb, hb = wilson_interval(wb, nb)
    d = pb - pa
    lo = d - math.sqrt((pb - lb) ** 2 + (ha - pa) ** 2)
    hi = d + math.sqrt((hb - pb) ** 2 + (pa - la) ** 2)
    p = 1.0
    if na and nb:
        p = max(float(fisher_exact([[ka, na - ka], [kb, nb - kb]]).pvalue)
                for ka in set(tie_bounds(a)) for kb in set(tie_bounds(b)))
    return {"rate_a": round(pa, 6), "rate_b": round(pb, 6), "games_a": na, "games_b": nb,
            "diff": round(d, 6), "ci95": [round(lo, 6), round(hi, 6)], "p": round(p, 6),
            "few": min(na, nb) < MIN_COUNT}


def paired_signs(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Paired comparison of two win shares (each in [0, 1]) taken on the same games, exact
    at any sample size (the lab's seat and faction comparisons).

    Per pair the difference ``b - a``; ``up``/``down`` count the pairs where B did better
    or worse (a shared win against a sole win counts, ties of equal shares do not). ``p`` is
    the exact two-sided sign test on ``up`` of ``up + down``. ``ci95`` bounds the mean
    difference and never leaves [-1, 1]: a Clopper-Pearson interval for the share of pairs
    that differ and one for the share of those that favour B, each at 97.5% (so both hold at
    95%), combined with the mean size of a difference. ``few`` marks fewer than
    :data:`MIN_COUNT` pairs. Raises ValueError when the lengths differ."""
    from scipy.stats import binomtest

    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    n = len(a)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    up = sum(1 for d in diffs if d > 1e-12)
    down = sum(1 for d in diffs if d < -1e-12)
    m = up + down
    mean = sum(diffs) / n if n else 0.0
    base = {"n": n, "mean_a": _mean(a), "mean_b": _mean(b), "diff": round(mean, 6),
            "up": up, "down": down, "few": n < MIN_COUNT}
    if n == 0:
        return {**base, "ci95": [-1.0, 1.0], "p": 1.0}
    size = sum(abs(d) for d in diffs) / m if m else 1.0
    r_lo, r_hi = _clopper_pearson(m, n, 0.975)
    if m:
        ci = binomtest(up, m).proportion_ci(confidence_level=0.975, method="exact")
        t_lo, t_hi = 2 * ci.low - 1, 2 * ci.high - 1
    else:
        t_lo, t_hi = -1.0, 1.0
    lo = size * min(r * t_lo for r in (r_lo, r_hi))
    hi = size * max(r * t_hi for r in (r_lo, r_hi))
    p = float(binomtest(up, m).pvalue) if m else 1.0
    return {**base, "ci95": [round(max(-1.0, lo), 6), round(min(1.0, hi), 6)],
            "p": round(p, 6)}


def _clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of ``k`` successes in ``n``."""
    from scipy.stats import beta

    alpha = 1 - level
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def distribution(values: Sequence[float]) -> dict[str, Any]:
    """``n``, ``mean``, ``min``, quartiles ``q1``/``median``/``q3``, ``max`` of a sample
    (None entries dropped; all None when nothing is left)."""
    xs = sorted(v for v in values if v is not None)
    if not xs:
        return {"n": 0, "mean": None, "min": None, "q1": None, "median": None, "q3": None,
                "max": None}

    def q(f: float) -> float:
        pos = f * (len(xs) - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, len(xs) - 1)
        return round(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo), 6)

    return {"n": len(xs), "mean": _mean(xs), "min": xs[0], "q1": q(0.25), "median": q(0.5),
            "q3": q(0.75), "max": xs[-1]}


def _mean(xs: Sequence[float]) -> float:
    return round(sum(xs) / len(xs), 6) if xs else 0.0
