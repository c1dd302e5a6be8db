"""Readings of Rift Domination offered as options (issue 28; docs/rulings/rift-domination.md):
Repair Rush split over several phases or used once (RD-SKL-01, ruling RD-OPEN-16)."""

from __future__ import annotations

from tests.games.rift_domination.test_battle import make_state, passes, pending, space


def test_repair_rush_once_reading_spends_the_whole_budget() -> None:
    """RD-SKL-01 ("negate 4 damage in one battle"), ruling RD-OPEN-16: by default a unit
    may split its 4 over the phases; with ``repair_rush=once`` its first use spends all 4,
    so after negating 3 in the long-range phase nothing is left for the mid-range phase."""
    from tests.games.rift_domination.test_battle import fighter
    from tests.games.rift_domination.test_battle_choices import to_pending

    s = make_state(repair_rush="once")
    _, (r, f) = space(s, ["gun_long"] * 3, ["repair_ship", "fighter"],
                      [2, 2, 2, 1, 1, 3, 3, 1, 1, 1])
    passes(s)
    s.apply_notation("hit fighter")
    s.apply_notation("rush 3")
    assert f in s.units
    assert s.battle.rush_left[r] == 0
    to_pending(s, "hit")
    s.apply_notation("hit repair_ship")
    s.apply_notation("hit repair_ship[2/0]")
    assert pending(s) is None or pending(s)[0] != "rush"
    rs = fighter(s, r)
    assert (rs.sh, rs.lp) == (0, 1)  # the mid-range hits stand: nothing left to negate
