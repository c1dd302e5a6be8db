"""Log lines a player reads (issue 28): lost free fighters say why (a blockaded base is
not "no military base"), and a kamikaze's die and damage are logged (RD-SKL-03)."""

from __future__ import annotations

from starlanes.games.rift_domination.rules import advance
from tests.games.rift_domination.test_battle import make_state, passes, pending, space


def test_fighters_lost_at_a_blockaded_base_say_so(rd) -> None:
    """RD-TURN-05 with ruling RD-OPEN-24: the base exists but its orbit is held by an
    enemy fleet and the player has no fleet, so the free fighters are lost; the log names
    the base and the blockade."""
    t = rd.blank(phase="turn_start")
    t.step = 2
    rd.own(t, "C1a", 0, ("military_base",))
    rd.place(t, 1, "carrier", "C1a")
    advance(t)
    line = next(x for x in t.action_log() if "free fighters lost" in x)
    assert "no military base" not in line
    assert "the orbit of the military base at C1a is blockaded by an enemy fleet" in line


def test_fighters_lost_without_a_base_say_so(rd) -> None:
    t = rd.blank(phase="turn_start")
    t.step = 2
    advance(t)
    assert any("no fleet and no military base: free fighters lost" in x
               for x in t.action_log())


def test_kamikaze_logs_its_die_and_damage() -> None:
    """RD-SKL-03: destroyed, the drone rolls; 3+ deals 3 damage to a ship its owner
    chooses. The roll and the damage are in the log."""
    s = make_state()
    space(s, ["cruiser", "fighter"], ["kamikaze_drone"], [1, 1, 1, 2, 1, 1, 3])
    passes(s)
    assert pending(s)[:2] == ("kamikaze", 1)
    s.apply_notation("kamikaze cruiser")
    log = s.action_log()
    assert any("Kamikaze Drone rolls 3 (needs 3+)" in x for x in log)
    assert "kamikaze deals 3 damage to a Cruiser" in log


def test_kamikaze_miss_is_logged() -> None:
    s = make_state()
    space(s, ["cruiser", "fighter"], ["kamikaze_drone"], [1, 1, 1, 2, 1, 1, 2])
    passes(s)
    assert s.battle is None
    assert any("Kamikaze Drone rolls 2 (needs 3+): no damage" in x for x in s.action_log())


def test_tile_placement_log_uses_the_right_article() -> None:
    """Set-up (RD-SET): placing an anomaly tile reads "places an anomaly tile"."""
    import starlanes

    s = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    while s.phase.startswith("setup"):
        s.apply(s.legal_actions()[0])
    placed = [x for x in s.action_log() if " tile on " in x]
    assert any("places an anomaly tile" in x for x in placed)
    assert not any("places a anomaly" in x or "places an civilized" in x for x in placed)
    assert any("places a civilized tile" in x for x in placed)

