"""The heuristic bot's fire choices (phase 4, GE-FIRE-01..10): it attacks where damage lasts.

Shields regenerate (GE-TURN-03), a Mechad field is rebuilt (GE-EMP-MCH-03) and repair
points mend ships and terrain every turn, so fire that destroys nothing is mostly undone:
the bot takes the kill and the open Sector HQ, and wastes nothing on terrain it cannot
destroy (docs/balance/galactic-empires-standard-endings.md).
"""

from __future__ import annotations

from starlanes.games.galactic_empires.actions import is_hq
from starlanes.games.galactic_empires.heuristic import HeuristicAgent


def _fleet(ge):
    """P0 in its Weapons Fire Phase with 6 weapons (arg_cruiser PPPT armed, arg_frigate
    PP), 1 of them heavy."""
    s = ge.blank(phase="fire")
    ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    ge.put(s, "arg_frigate", 0, engaged=True)
    return s


def test_kills_the_last_guard_then_fires_at_the_open_hq(ge):
    """GE-DMG-05, GE-WIN-01: a damaged last guard the fleet can destroy is destroyed with
    no overkill (3 weapons for 3 points left), and the rest of the fire goes into the
    Sector HQ it no longer guards."""
    s = _fleet(ge)
    guard = ge.put(s, "arg_frigate", 1, engaged=True, sdmg=2)  # 3 points left
    ge.put(s, "blue_giant", 1)
    bot = HeuristicAgent(0)
    a = bot.act(s)
    assert a.kind == "aim" and a.a == guard
    s.apply(a)
    shots = 0
    while s.phase == "aim":
        a = bot.act(s)
        shots += a.kind == "shoot"
        s.apply(a)
    assert shots == 3 and guard not in s.units
    a = bot.act(s)
    assert a.kind == "aim" and is_hq(a.a)
    s.apply(a)
    while s.phase == "aim":
        s.apply(bot.act(s))
    assert s.hq[1] == 3  # the three weapons left


def test_no_fire_on_terrain_it_cannot_destroy(ge):
    """GE-DMG-03 (only heavy weapons damage terrain): with one heavy weapon and a 4-point
    Blue Giant, terrain damage would only be repaired; the bot fires at a ship instead."""
    s = _fleet(ge)
    ship = ge.put(s, "arg_battleship", 1, engaged=True)  # 11 points, not killable now
    terrain = ge.put(s, "blue_giant", 1)
    bot = HeuristicAgent(0)
    a = bot.act(s)
    assert a.kind == "aim" and a.a == ship and a.a != terrain


def test_no_kill_possible_wears_down_the_weakest_guard(ge):
    """GE-FIRE-07 (one allocation per target a phase): when no ship can be destroyed this
    turn, the fire goes into the guard closest to destruction, not the biggest ship."""
    s = _fleet(ge)
    ge.put(s, "arg_battleship", 1, engaged=True)  # 11 points
    cruiser = ge.put(s, "arg_cruiser", 1, engaged=True)  # 8 points
    bot = HeuristicAgent(0)
    a = bot.act(s)
    assert a.kind == "aim" and a.a == cruiser


def test_terrain_it_can_destroy_is_destroyed(ge):
    """GE-DMG-03: a terrain card the heavy weapons can destroy this turn is a lasting loss
    of production, taken when no ship can be killed."""
    s = _fleet(ge)
    ge.put(s, "arg_battleship", 1, engaged=True)
    dwarf = ge.put(s, "red_dwarf", 1, dmg=2)  # 1 point left
    bot = HeuristicAgent(0)
    a = bot.act(s)
    assert a.kind == "aim" and a.a == dwarf


def test_opening_an_hq_comes_before_a_bigger_kill(ge):
    """GE-DMG-05, GE-WIN-01: destroying the last ship that guards a Sector HQ opens it to
    the rest of the fire; the bot takes that kill before a bigger one elsewhere."""
    s = ge.blank(players=3, phase="fire")
    ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    ge.put(s, "arg_frigate", 0, engaged=True)
    big = ge.put(s, "arg_battleship", 1, engaged=True, sdmg=4, dmg=3)  # 4 points left
    ge.put(s, "arg_cruiser", 1, engaged=True)
    last = ge.put(s, "arg_scout", 2, engaged=True)  # 3 points, P2's only ship
    a = HeuristicAgent(0).act(s)
    assert a.kind == "aim" and a.a == last and a.a != big


def test_hq_cards_go_to_the_weakest_opponent(ge):
    """GE-DMG-11 (some cards can damage the Sector HQ), GE-WIN-04: an Orbital Strike is
    played on the HQ closest to destruction, to knock a player out sooner."""
    from starlanes.games.galactic_empires.actions import hq_code

    s = ge.blank(players=3, phase="playA")
    (strike,) = ge.give(s, 0, "hq_orbital_strike")
    s.hq[2] = 18
    a = HeuristicAgent(0).act(s)
    assert a.kind == "play" and a.a == strike and a.b == hq_code(2)
