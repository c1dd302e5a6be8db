"""Point allocation and engagement (GE-PTS)."""

from __future__ import annotations

from starlanes.games.galactic_empires.setup import begin_turn
from starlanes.games.galactic_empires.units import attachment_active, shield_cap


def test_terrain_and_cards_produce_points(ge):
    """GE-PTS-01, GE-PTS-08: terrain produces its points from the turn after it is
    played; other cards (a supply depot, a crew card) generate points too."""
    s = ge.blank(phase="alloc")
    ge.put(s, "core_world", 0, turn_in=1)
    ge.put(s, "research_station", 0, turn_in=1)
    ge.put(s, "shipyard_moon", 0, turn_in=1)
    ge.put(s, "asteroid_belt", 0, turn_in=1)
    ge.put(s, "blue_giant", 0, turn_in=s.turns[0] + 1)  # played this coming turn
    depot = ge.put(s, "base_depot", 0)
    ge.put(s, "crew_scientist", 0, host=depot)
    begin_turn(s)
    # energy, supply, ammo, research, repair, healing, economy
    assert s.pool == [1, 2, 2, 3, 2, 0, 1]


def test_economy_pays_for_anything(ge):
    """GE-PTS-02, GE-PTS-03: economy points stand in for missing energy or supply; the
    player distributes points as he wishes."""
    s = ge.blank(phase="alloc")
    a = ge.put(s, "arg_frigate", 0)
    b = ge.put(s, "arg_scout", 0)
    s.pool = [1, 0, 0, 0, 0, 0, 3]
    ge.do(s, f"engage arg_scout#{b}")
    assert s.pool == [0, 0, 0, 0, 0, 0, 2]
    ge.do(s, f"engage arg_frigate#{a}")
    assert s.pool[6] == 0 and s.units[a].engaged and s.units[b].engaged


def test_unit_short_of_points_stays_disengaged(ge):
    """GE-PTS-04, GE-PTS-06: a unit not given all its energy and supply stays
    Disengaged for the turn; one given them is Engaged."""
    s = ge.blank(phase="alloc")
    big = ge.put(s, "arg_battleship", 0)
    small = ge.put(s, "arg_scout", 0)
    s.pool = [2, 2, 0, 0, 0, 0, 0]
    assert f"engage arg_battleship#{big}" not in ge.legal(s)
    ge.do(s, f"engage arg_scout#{small}", "done")
    assert s.units[small].engaged and not s.units[big].engaged


def test_ammo_only_to_engaged_units(ge):
    """GE-PTS-05: only a unit fully supplied with energy and supply may be armed."""
    s = ge.blank(phase="alloc")
    d = ge.put(s, "arg_destroyer", 0)
    s.pool = [2, 1, 2, 0, 0, 0, 0]
    assert f"arm arg_destroyer#{d}" not in ge.legal(s)
    ge.do(s, f"engage arg_destroyer#{d}", f"arm arg_destroyer#{d}")
    assert s.units[d].ammo == 1
    assert f"arm arg_destroyer#{d}" not in ge.legal(s)  # one heavy weapon


def test_ships_enter_disengaged(ge):
    """GE-PTS-07: ship and base cards are played Disengaged."""
    s = ge.blank()
    ship, base = ge.give(s, 0, "arg_frigate", "base_outpost")
    ge.do(s, f"play arg_frigate#{ship}", f"play base_outpost#{base}")
    assert not s.units[ship].engaged and not s.units[base].engaged


def test_equipment_on_engaged_unit(ge):
    """GE-PTS-09, GE-PTS-10: equipment on an Engaged unit works at once unless it needs
    points; one that does must be in play at allocation to be powered."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 0, engaged=True)
    refit, gen = ge.give(s, 0, "eq_phaser_refit", "eq_shield_gen")
    ge.do(s, f"play eq_phaser_refit#{refit} on arg_frigate#{ship}",
          f"play eq_shield_gen#{gen} on arg_frigate#{ship}")
    assert attachment_active(s, refit) and not attachment_active(s, gen)
    assert shield_cap(s, ship) == 2
    s.phase = "alloc"
    s.pool = [2, 1, 0, 0, 0, 0, 0]
    ge.set_unit(s, ship, engaged=False)
    ge.do(s, f"engage arg_frigate#{ship}", f"engage eq_shield_gen#{gen}")
    assert shield_cap(s, ship) == 4


def test_disengaged_units_take_no_action(ge):
    """GE-PTS-11: a Disengaged ship, and the crew and equipment on it, cannot act (no
    fire, no functions)."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 0)
    ge.put(s, "crew_engineer", 0, host=ship)
    hurt = ge.put(s, "arg_scout", 0, dmg=1)
    ge.put(s, "arg_scout", 1)
    assert not any(x.startswith("operate") for x in ge.legal(s))
    ge.do(s, "done")
    assert s.phase == "playB"  # nothing can fire
    del hurt


def test_disengaged_ship_still_blocks_hq_and_defends(ge):
    """GE-PTS-12, GE-PTS-13, GE-PTS-14: a Disengaged ship blocks fire at its Sector HQ,
    its shields still work, and it can be fired on and have cards played on it."""
    s = ge.blank(phase="fire")
    mine = ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)
    theirs = ge.put(s, "arg_frigate", 1)
    assert "aim HQ1" not in ge.legal(s)
    assert f"aim arg_frigate#{theirs}" in ge.legal(s)
    assert shield_cap(s, theirs) == 2
    ge.do(s, f"aim arg_frigate#{theirs}", f"volley arg_cruiser#{mine}", "commit")
    assert s.units[theirs].sdmg == 2 and s.units[theirs].dmg == 2
    s.phase = "playB"
    (sab,) = ge.give(s, 0, "occ_mutiny")
    assert f"play occ_mutiny#{sab} on arg_frigate#{theirs}" in ge.legal(s)
