"""``starlanes compare``: the same games (seeds and seat agents) under variants A and B.

Seat win shares are paired game by game and win rates per set-up fact value (faction,
empire) seat-game by seat-game when set-up gave the same values in both variants: exact
sign tests with intervals that stay inside [-1, 1] at any sample size
(:func:`starlanes.analysis.stats.paired_signs`). When a variant changes what set-up draws
they are compared as independent proportions (Newcombe interval, Fisher's exact test).
Game length and score margin are paired t comparisons. p-values are Holm-adjusted within
each family; a figure on fewer than :data:`starlanes.analysis.stats.MIN_COUNT` games is
listed in ``warnings`` and never marked significant.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .lab import group_tallies
from .stats import MIN_COUNT, holm, paired_difference, paired_signs, two_rates, win_shares

Rows = Sequence[Mapping[str, Any]]


def parse_variant(text: str) -> tuple[dict[str, str], str | None]:
    """A variant as given to ``--a``/``--b``: ``"key=value / key=value / content=DIR"``
    (parts separated by `` / `` with spaces, or by ``;``, so a folder path keeps its
    slashes; ``content=DIR`` names a content folder; an empty
    text is the game as it stands). Returns ``(options, content dir or None)``.

    Raises BadOptionError for a part that is not ``key=value``.
    """
    from starlanes.engine import BadOptionError

    options: dict[str, str] = {}
    content = None
    for raw in re.split(r"\s+/\s+|;", text):
        part = raw.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise BadOptionError(f"variant part {part!r} is not of the form key=value")
        if key == "content":
            content = value
        else:
            options[key] = value
    return options, content


def _adjust(family: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    keys = list(family)
    for key, q in zip(keys, holm([family[k]["p"] for k in keys]), strict=True):
        family[key]["p_holm"] = round(q, 6)
        family[key]["significant"] = q < 0.05 and not family[key].get("few", False)
    return family


def _paired_fact(rows_a: Rows, rows_b: Rows, name: str) -> dict[str, dict[str, Any]] | None:
    """When set-up gave every seat of every game the same ``name`` in both variants (the
    usual case: same seeds, a change that does not touch the draw), each value's seat-games
    pair up: the paired difference of win shares per value. None when set-up differs."""
    shares: dict[str, tuple[list[float], list[float]]] = {}
    for x, y in zip(rows_a, rows_b, strict=True):
        fa, fb = x.get("facts", {}).get(name), y.get("facts", {}).get(name)
        if fa is None or fa != fb:
            return None
        wa, wb = win_shares(x), win_shares(y)
        for seat, value in enumerate(fa):
            if value != "":
                pair = shares.setdefault(str(value), ([], []))
                pair[0].append(wa[seat])
                pair[1].append(wb[seat])
    out = {}
    for value in sorted(shares):
        a, b = shares[value]
        d = paired_signs(a, b)
        out[value] = {"rate_a": d["mean_a"], "rate_b": d["mean_b"], "games_a": len(a),
                      "games_b": len(b), "diff": d["diff"], "ci95": d["ci95"], "p": d["p"],
                      "up": d["up"], "down": d["down"], "few": d["few"], "paired": True}
    return out


def compare_report(meta: Mapping[str, Any], a_meta: Mapping[str, Any],
                   b_meta: Mapping[str, Any], rows_a: Rows, rows_b: Rows,
                   wall_s: float) -> dict[str, Any]:
    """Paired comparison of two variants' rows (game ``g`` of each uses the same seed and
    agents). Returns meta plus ``a``/``b`` (each variant's options and content
    fingerprint), ``seats`` (per seat: paired difference of win share), ``facts`` (per fact
    and value: paired signs or two rates), ``rounds``, ``actions``, ``margin`` (paired
    differences), ``end_reasons`` (counts per variant), ``warnings`` (figures on too few
    games) and ``results_a``/``results_b``."""
    players = meta["players"]
    seats: dict[str, dict[str, Any]] = {}
    for seat in range(players):
        sa = [win_shares(r)[seat] for r in rows_a]
        sb = [win_shares(r)[seat] for r in rows_b]
        seats[str(seat)] = paired_signs(sa, sb)
    facts: dict[str, dict[str, Any]] = {}
    ta, tb = group_tallies(rows_a, "fact"), group_tallies(rows_b, "fact")
    for name in sorted(set(ta) | set(tb)):
        paired = _paired_fact(rows_a, rows_b, name)
        if paired is not None:
            facts[name] = _adjust(paired)
            continue
        values = sorted(set(ta.get(name, {})) | set(tb.get(name, {})))
        facts[name] = _adjust({v: {**two_rates(ta.get(name, {}).get(v, (0.0, 0, 0, 0)),
                                               tb.get(name, {}).get(v, (0.0, 0, 0, 0))),
                                   "paired": False}
                               for v in values})
    lengths = {}
    for measure in ("rounds", "actions", "margin"):
        pairs = [(x[measure], y[measure]) for x, y in zip(rows_a, rows_b, strict=True)
                 if x[measure] is not None and y[measure] is not None]
        lengths[measure] = paired_difference([p[0] for p in pairs], [p[1] for p in pairs])
    warnings = []
    if len(rows_a) < MIN_COUNT:
        warnings.append(f"only {len(rows_a)} paired games: nothing is marked significant "
                        f"below {MIN_COUNT}")
    for name, family in facts.items():
        few = sorted(v for v, e in family.items() if e.get("few"))
        if few:
            warnings.append(f"{len(few)} of {len(family)} {name} values sat in fewer than "
                            f"{MIN_COUNT} seat-games per variant (never marked significant): "
                            + ", ".join(few[:8]) + (" ..." if len(few) > 8 else ""))
    reasons_a = Counter(r["end_reason"] for r in rows_a)
    reasons_b = Counter(r["end_reason"] for r in rows_b)
    return {
        **meta,
        "games": len(rows_a),
        "a": dict(a_meta),
        "b": dict(b_meta),
        "seats": _adjust(seats),
        "facts": facts,
        **lengths,
        "end_reasons": {k: {"a": reasons_a[k], "b": reasons_b[k]}
                        for k in sorted(set(reasons_a) | set(reasons_b))},
        "same_games": sum(1 for x, y in zip(rows_a, rows_b, strict=True)
                          if x["digest"] == y["digest"]),
        "warnings": [*meta.get("warnings", []), *warnings],
        "wall_s": round(wall_s, 4),
        "results_a": list(rows_a),
        "results_b": list(rows_b),
    }
