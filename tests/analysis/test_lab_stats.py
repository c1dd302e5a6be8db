"""The lab's statistics on known data: family-wise intervals, Holm, binomial and paired
tests, two-rate comparisons and distributions."""

from __future__ import annotations

import math

import pytest

from starlanes.analysis.stats import (
    Z95,
    binomial_p,
    bonferroni_z,
    distribution,
    holm,
    paired_difference,
    paired_signs,
    rate_family,
    tie_bounds,
    two_rates,
    wilson_interval,
)


def test_holm_matches_the_step_down_by_hand() -> None:
    # sorted 0.01, 0.02, 0.03, 0.5 -> 4*0.01, max(3*0.02, .04), max(2*0.03, .06), 1*0.5
    assert holm([0.03, 0.01, 0.5, 0.02]) == pytest.approx([0.06, 0.04, 0.5, 0.06])
    assert holm([0.4, 0.3]) == pytest.approx([0.6, 0.6])  # monotone: never below a smaller
    assert holm([0.6, 0.7, 0.8]) == pytest.approx([1.0, 1.0, 1.0])
    assert holm([]) == []


def test_bonferroni_z_widens_with_the_family() -> None:
    assert bonferroni_z(1) == pytest.approx(Z95, abs=1e-9)
    # 4 intervals jointly at 95%: each at 98.75%, z = 2.4977
    assert bonferroni_z(4) == pytest.approx(2.497705, abs=1e-5)
    lo1, hi1 = wilson_interval(30, 100)
    lo4, hi4 = wilson_interval(30, 100, bonferroni_z(4))
    assert lo4 < lo1 < 0.3 < hi1 < hi4


def test_binomial_p_exact_values() -> None:
    # 10 of 10 at p0 = 0.5: two-sided 2 * 0.5**10
    assert binomial_p(10, 10, 0.5) == pytest.approx(2 * 0.5 ** 10)
    assert binomial_p(5, 10, 0.5) == pytest.approx(1.0)
    assert binomial_p(0, 0, 0.25) == 1.0
    # a fractional total is tested rounded down and up, the larger p kept (never half-even)
    assert binomial_p(2.6, 10, 0.5) == pytest.approx(binomial_p(3, 10, 0.5))
    assert binomial_p(2.5, 10, 0.5) == pytest.approx(binomial_p(3, 10, 0.5))


def test_shared_wins_are_tested_both_ways() -> None:
    """Issue 28: shared wins are not rounded half-to-even before the exact test. 8 sole
    wins and 4 seat-games in two-way shared wins out of 20 (10 wins in shares) at fair
    0.25: tested as 8 of 20 and as 12 of 20, the larger p kept."""
    tally = (10.0, 20, 8, 4)
    assert tie_bounds(tally) == (8, 12)
    p = binomial_p(10.0, 20, 0.25, tie_bounds(tally))
    assert p == pytest.approx(max(binomial_p(8, 20, 0.25), binomial_p(12, 20, 0.25)))
    assert p == pytest.approx(binomial_p(8, 20, 0.25))  # 8 is the nearer to 5 of the two
    # round(10 / 2 ...) style rounding would have tested 10 of 20: a smaller p
    assert binomial_p(10, 20, 0.25) < p
    fam = rate_family({"x": tally, "y": (5.0, 20, 5, 0)}, 0.25)
    assert fam["x"]["p"] == pytest.approx(p, abs=1e-6)
    two = two_rates((10.0, 20, 8, 4), (5.0, 20, 5, 0))
    from scipy.stats import fisher_exact
    worst = max(fisher_exact([[k, 20 - k], [5, 15]]).pvalue for k in (8, 12))
    assert two["p"] == pytest.approx(worst, abs=1e-6)


def test_paired_signs_exact_at_small_samples() -> None:
    """Issue 28: paired win shares on a handful of games get an exact sign test and an
    interval that never leaves [-1, 1]; below MIN_COUNT nothing is significant."""
    seven = paired_signs([0.0] * 7, [1.0] * 7)
    assert seven["p"] == pytest.approx(2 * 0.5 ** 7)
    assert seven["up"] == 7 and seven["down"] == 0 and seven["few"]
    assert -1 <= seven["ci95"][0] <= seven["diff"] <= seven["ci95"][1] <= 1
    two = paired_signs([0.0, 1.0], [1.0, 1.0])
    assert two["p"] == 1.0 and two["ci95"][0] >= -1 and two["ci95"][1] <= 1
    # a shared win against a sole win counts as a difference; equal shares do not
    tie = paired_signs([1.0, 0.5, 0.0], [0.5, 0.5, 0.0])
    assert (tie["up"], tie["down"]) == (0, 1) and tie["diff"] == pytest.approx(-1 / 6, abs=1e-6)
    # with no difference in 50 games the interval is centred and narrow, but not empty
    none = paired_signs([0.0] * 50, [0.0] * 50)
    assert none["p"] == 1.0 and none["ci95"][0] < 0 < none["ci95"][1] < 0.1
    # no t-interval's escape outside [-1, 1]: every split of 2..9 pairs stays inside
    for n in range(2, 10):
        for k in range(n + 1):
            r = paired_signs([0.0] * n, [1.0] * k + [0.0] * (n - k))
            assert -1 <= r["ci95"][0] <= r["diff"] <= r["ci95"][1] <= 1
    with pytest.raises(ValueError, match="differ in length"):
        paired_signs([1.0], [1.0, 0.0])


def test_few_games_are_never_significant() -> None:
    fam = rate_family({"lucky": (9, 9), "rest": (300, 1200)}, fair=0.25)
    assert fam["lucky"]["p_holm"] < 0.05 and fam["lucky"]["few"]
    assert not fam["lucky"]["significant"]


def test_rate_family_flags_only_the_out_of_line_group() -> None:
    family = rate_family({"seat 0": (25, 100), "seat 1": (24, 100), "seat 2": (26, 100),
                          "seat 3": (45, 100)}, fair=0.25)
    assert [k for k, e in family.items() if e["significant"]] == ["seat 3"]
    e = family["seat 3"]
    assert e["rate"] == 0.45 and e["games"] == 100
    assert e["ci95_adj"][0] < e["ci95"][0] and e["ci95_adj"][1] > e["ci95"][1]
    assert e["p_holm"] == pytest.approx(min(1.0, 4 * binomial_p(45, 100, 0.25)), abs=1e-6)
    assert not family["seat 0"]["significant"] and family["seat 0"]["p"] == pytest.approx(1.0)


def test_paired_difference_known_t_interval() -> None:
    a = [1.0, 2.0, 3.0, 4.0]
    b = [2.0, 4.0, 4.0, 6.0]  # differences 1, 2, 1, 2: mean 1.5, sd 0.57735
    r = paired_difference(a, b)
    half = 3.182446 * 0.5773503 / 2  # t(0.975, 3) * sd / sqrt(4)
    assert r["diff"] == pytest.approx(1.5)
    assert r["ci95"] == pytest.approx([1.5 - half, 1.5 + half], abs=1e-5)
    # t = 1.5 / (0.57735 / 2) = 5.196 on 3 df: p = 0.01385
    assert r["p"] == pytest.approx(0.013846, abs=1e-5)
    same = paired_difference(a, a)
    assert same["diff"] == 0 and same["p"] == 1.0 and same["ci95"] == [0, 0]
    with pytest.raises(ValueError, match="differ in length"):
        paired_difference([1.0], [1.0, 2.0])


def test_two_rates_newcombe_and_fisher() -> None:
    r = two_rates((10, 50), (30, 50))
    assert r["diff"] == pytest.approx(0.4)
    # Wilson 10/50: 0.11244 .. 0.33038; 30/50: 0.46181 .. 0.72393. Newcombe (1998, method
    # 10): 0.4 - sqrt(0.13819^2 + 0.13038^2) = 0.21001, 0.4 + sqrt(0.12393^2 + 0.08756^2)
    # = 0.55174
    assert r["ci95"] == pytest.approx([0.21001, 0.55174], abs=1e-4)
    assert r["p"] < 1e-3
    assert two_rates((5, 20), (5, 20))["p"] == pytest.approx(1.0)


def test_distribution_quartiles() -> None:
    d = distribution([4, 1, 3, 2, None])
    assert d == {"n": 4, "mean": 2.5, "min": 1, "q1": 1.75, "median": 2.5, "q3": 3.25,
                 "max": 4}
    assert distribution([None])["mean"] is None
    assert math.isclose(distribution([7])["median"], 7)


def _row(winner: int, faction: list[str]) -> dict:
    return {"agents": ["heuristic", "heuristic"], "winners": [winner], "facts":
            {"faction": faction}, "rounds": 5, "actions": 100, "margin": 1.0,
            "end_reason": "victory_points", "digest": str(winner)}


def test_compare_on_seven_games_marks_nothing_and_warns() -> None:
    """Issue 28: a faction that wins its 7 games in B and none in A has an exact p of
    0.016, yet 7 paired games are too few: a warning, no mark, an interval in [-1, 1]."""
    from starlanes.analysis.compare import compare_report

    factions = [["x", "y"]] * 7
    rows_a = [_row(1, f) for f in factions]
    rows_b = [_row(0, f) for f in factions]
    r = compare_report({"game": "g", "players": 2}, {}, {}, rows_a, rows_b, 0.0)
    x = r["facts"]["faction"]["x"]
    assert x["paired"] and x["diff"] == 1.0 and x["p"] == pytest.approx(2 * 0.5 ** 7)
    assert x["few"] and not x["significant"]
    assert x["ci95"][0] >= -1 and x["ci95"][1] <= 1
    assert not r["seats"]["0"]["significant"]
    assert any("only 7 paired games" in w for w in r["warnings"])
    assert any("faction values" in w for w in r["warnings"])
