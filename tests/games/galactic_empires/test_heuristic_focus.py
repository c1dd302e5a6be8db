"""The heuristic bot's focus with several opponents (GE-WIN-01/04: the last player left
wins, so each elimination must be finished): every fire target and harmful card of the
opponent closest to elimination gains, so the bots finish one player instead of wearing
several down at once (docs/balance/galactic-empires-standard-endings.md).
"""

from __future__ import annotations

from starlanes.games.galactic_empires.actions import hq_code
from starlanes.games.galactic_empires.heuristic import HeuristicAgent
from starlanes.games.galactic_empires.heuristic_specials import (
    easiest_victim,
    elimination_effort,
)


def _three_fleets(ge):
    """P0 to fire with 6 weapons (arg_cruiser PPPT armed, arg_frigate PP). P1: a damaged
    Argonian cruiser it can destroy (the bigger kill) behind an 11-point battleship, Sector
    HQ untouched. P2: a scout it can destroy and a frigate, Sector HQ 6 points down."""
    s = ge.blank(players=3, phase="fire")
    ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    ge.put(s, "arg_frigate", 0, engaged=True)
    cruiser = ge.put(s, "arg_cruiser", 1, engaged=True, sdmg=2)
    ge.put(s, "arg_battleship", 1, engaged=True)
    scout = ge.put(s, "arg_scout", 2, engaged=True)
    ge.put(s, "arg_frigate", 2, engaged=True)
    s.hq[2] = 6
    return s, cruiser, scout


def test_effort_counts_the_guards_and_the_hq(ge):
    """GE-DMG-05 (every ship must be destroyed before the Sector HQ can be fired at) and
    GE-WIN-02 (25 points destroy it): the damage still needed to eliminate a player."""
    s, cruiser, scout = _three_fleets(ge)
    assert elimination_effort(s, 1) == 25 + 6 + 11
    assert elimination_effort(s, 2) == 25 - 6 + 3 + 5
    assert easiest_victim(s, 0) == 2
    assert easiest_victim(s, 2) == 0  # P0: 25 + 8 + 5 = 38 < P1's 42


def test_no_focus_with_one_opponent(ge):
    """With one opponent there is no one to choose: the 2-player bot is unchanged."""
    s = ge.blank(players=2, phase="fire")
    ge.put(s, "arg_scout", 1, engaged=True)
    assert easiest_victim(s, 0) == -1


def test_fire_finishes_the_opponent_closest_to_elimination(ge):
    """GE-FIRE-01..07: kills are in reach in both fleets; the bot takes one in the fleet of
    the player whose elimination needs the least damage, not the bigger ship (the
    cruiser) of a player far from elimination."""
    s, cruiser, _ = _three_fleets(ge)
    a = HeuristicAgent(0).act(s)
    assert a.kind == "aim" and a.a != cruiser and s.units[a.a].owner == 2


def test_harmful_cards_go_to_the_opponent_closest_to_elimination(ge):
    """GE-DMG-11 (some cards damage the Sector HQ): with both HQs untouched, an Orbital
    Strike goes to the player with no ship left to guard his, the nearest to elimination."""
    s = ge.blank(players=3, phase="playA")
    (strike,) = ge.give(s, 0, "hq_orbital_strike")
    ge.put(s, "arg_battleship", 1, engaged=True)
    ge.put(s, "blue_giant", 2)
    a = HeuristicAgent(0).act(s)
    assert a.kind == "play" and a.a == strike and a.b == hq_code(2)


def test_a_tie_goes_to_the_next_player_not_a_fixed_seat(ge):
    """At the start every Sector HQ is untouched and no ship guards one: each bot picks the
    next player in turn order, so no seat is everybody's first victim."""
    s = ge.blank(players=4, phase="playA")
    assert [easiest_victim(s, me) for me in range(4)] == [1, 2, 3, 0]
