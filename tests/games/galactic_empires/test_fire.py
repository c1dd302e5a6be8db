"""Weapons fire, reactions, damage and the Sector HQ (GE-FIRE, GE-DMG)."""

from __future__ import annotations

from starlanes.games.galactic_empires.units import damage, repair


def _setup(ge, **kw):
    s = ge.blank(phase="fire", **kw)
    a = ge.put(s, "arg_cruiser", 0, engaged=True, ammo=1)  # PPPT
    b = ge.put(s, "arg_frigate", 0, engaged=True)  # PP
    return s, a, b


def test_allocate_from_several_units(ge):
    """GE-FIRE-01, GE-FIRE-02, GE-FIRE-05, GE-FIRE-10: one target, weapons of several
    units named one by one, 1 damage each, resolved after allocation."""
    s, a, b = _setup(ge)
    t = ge.put(s, "arg_battleship", 1)  # shields 4, strength 7
    ge.do(s, f"aim arg_battleship#{t}", f"shoot arg_cruiser#{a}.0", f"shoot arg_cruiser#{a}.3",
          f"shoot arg_frigate#{b}.1")
    assert s.units[t].sdmg == 0
    ge.do(s, "commit")
    assert s.units[t].sdmg == 3 and s.fired_at == [t]
    assert s.units[a].ammo == 0


def test_reaction_and_counter_reaction(ge):
    """GE-FIRE-03, GE-FIRE-04: the target's owner may react; the firer may then modify the
    reaction with a counter-reaction only while he has card plays left."""
    s, a, b = _setup(ge)
    t = ge.put(s, "arg_scout", 1)
    (defl,) = ge.give(s, 1, "re_hard_deflector")
    (ovr,) = ge.give(s, 0, "re_override")
    ge.do(s, f"aim arg_scout#{t}", f"volley arg_frigate#{b}", "commit")
    ge.do(s, f"react re_hard_deflector#{defl}")
    assert s.current_player() == 0 and s.stack[-1].kind == "counter"
    ge.do(s, f"counter re_override#{ovr}")
    assert s.plays == 1
    assert s.units[t].sdmg == 1 and s.units[t].dmg == 1  # the deflector was cancelled
    s2, a2, b2 = _setup(ge)
    t2 = ge.put(s2, "arg_scout", 1)
    (d2,) = ge.give(s2, 1, "re_hard_deflector")
    ge.give(s2, 0, "re_override")
    s2.plays = 3
    ge.do(s2, f"aim arg_scout#{t2}", f"volley arg_frigate#{b2}", "commit",
          f"react re_hard_deflector#{d2}")
    assert not s2.stack and t2 in s2.units and s2.units[t2].sdmg == 0


def test_dampened_reaction_drops_fractions(ge):
    """GE-MISC-01, GE-FIRE-04: a Sensor Jammer halves a deflector's value, fractions
    dropped (3 -> 1)."""
    s, a, b = _setup(ge)
    t = ge.put(s, "arg_battleship", 1)
    (defl,) = ge.give(s, 1, "re_hard_deflector")
    (jam,) = ge.give(s, 0, "re_jammer")
    ge.do(s, f"aim arg_battleship#{t}", f"volley arg_cruiser#{a}", "commit",
          f"react re_hard_deflector#{defl}", f"counter re_jammer#{jam}")
    assert s.units[t].sdmg == 3  # 4 allocated - 1


def test_repeat_and_each_target_once(ge):
    """GE-FIRE-06, GE-FIRE-07, GE-FIRE-08: fire repeats at new targets; a target takes
    only one allocation per phase; a ship may split its weapons over several targets."""
    s, a, b = _setup(ge)
    t1 = ge.put(s, "arg_scout", 1)
    t2 = ge.put(s, "arg_escort", 1)
    ge.do(s, f"aim arg_scout#{t1}", f"shoot arg_cruiser#{a}.0", "commit")
    assert f"aim arg_scout#{t1}" not in ge.legal(s)
    ge.do(s, f"aim arg_escort#{t2}", f"shoot arg_cruiser#{a}.1", "commit")
    assert s.units[t1].sdmg == 1 and s.units[t2].sdmg == 1
    ge.do(s, "cease")
    assert s.phase == "playB"


def test_fire_to_help_an_opponent(ge):
    """GE-FIRE-09: a player may fire at a monster played against an opponent."""
    s, a, b = _setup(ge, players=3)
    mon = ge.put(s, "mon_swarm", 2, against=1)
    ge.do(s, f"aim mon_swarm#{mon}", f"volley arg_frigate#{b}", "commit")
    assert s.units[mon].dmg == 2


def test_heavy_weapons_need_ammunition(ge):
    """GE-FIRE-11: a heavy weapon without ammunition cannot fire."""
    s, a, b = _setup(ge)
    s.units[a] = s.units[a]._replace(ammo=0)
    t = ge.put(s, "arg_scout", 1)
    ge.do(s, f"aim arg_scout#{t}")
    assert f"shoot arg_cruiser#{a}.3" not in ge.legal(s)


def test_shields_then_structure(ge):
    """GE-DMG-01, GE-DMG-04: damage fills shields then structure, tracked apart; a unit
    dies when damage reaches defence plus strength."""
    s = ge.blank()
    t = ge.put(s, "arg_cruiser", 1)  # shields 3, strength 5
    damage(s, t, 7, 0)
    assert (s.units[t].sdmg, s.units[t].dmg) == (3, 4)
    repair(s, t, 1)
    assert (s.units[t].sdmg, s.units[t].dmg) == (3, 3)
    assert damage(s, t, 2, 0)


def test_destroyed_with_crew_and_equipment(ge):
    """GE-DMG-02, GE-REM-08: a destroyed ship goes to the discard pile with its crew and
    equipment; a transporter saves them to the hand."""
    s = ge.blank()
    t = ge.put(s, "arg_scout", 1)
    crew = ge.put(s, "crew_gunner", 1, host=t)
    damage(s, t, 10, 0)
    assert t not in s.units and crew not in s.units and crew in s.discards[0]
    u = ge.put(s, "arg_scout", 1)
    crew2 = ge.put(s, "crew_gunner", 1, host=u)
    ge.put(s, "eq_transporter", 1, host=u)
    damage(s, u, 10, 0)
    assert crew2 in s.hands[1]


def test_only_heavy_weapons_hit_terrain(ge):
    """GE-DMG-03: phasers cannot fire at terrain; heavy weapons can."""
    s, a, b = _setup(ge)
    t = ge.put(s, "ocean_world", 1)
    ge.do(s, f"aim ocean_world#{t}")
    assert ge.legal(s) == [f"shoot arg_cruiser#{a}.3", f"volley arg_cruiser#{a}"]
    ge.do(s, f"volley arg_cruiser#{a}", "commit")
    assert s.units[t].dmg == 1


def test_hq_only_when_no_ships(ge):
    """GE-DMG-05, GE-DMG-06, GE-DMG-07: an HQ can be fired at only when its owner has no
    ships (bases, terrain, monsters do not protect it); only ships and cards on ships fire
    at it, never bases."""
    s, a, b = _setup(ge)
    base = ge.put(s, "base_fortress", 0, engaged=True, ammo=1)
    shuttle = ge.put(s, "eq_shuttle", 0, host=b)
    ge.put(s, "base_outpost", 1)
    ge.put(s, "ocean_world", 1)
    ge.put(s, "mon_swarm", 1, against=0)
    ship = ge.put(s, "arg_scout", 1)
    assert "aim HQ1" not in ge.legal(s)
    del s.units[ship]
    ge.touch(s)
    ge.do(s, "aim HQ1")
    shooters = {a.a for a in s.legal_actions() if a.kind == "shoot"}
    assert shooters == {a, b, shuttle} and base not in shooters
    ge.do(s, f"volley arg_cruiser#{a}", "commit")
    assert s.hq[1] == 4


def test_hq_falls_at_25_and_is_not_repaired(ge):
    """GE-DMG-08, GE-DMG-09, GE-DMG-10, GE-DMG-11: the 25th point destroys a Sector HQ
    (which is no card); nothing repairs it but special cards; some cards damage it."""
    s = ge.blank(players=3)
    assert all(s.card(i).name != "Sector HQ" for i in range(len(s.defs)))
    s.hq[1] = 20
    s.phase = "alloc"
    s.pool = [0, 0, 0, 0, 5, 5, 5]
    ge.touch(s)
    assert not any("HQ" in t for t in ge.legal(s))
    s.phase = "playA"
    (strike, fix) = ge.give(s, 0, "hq_orbital_strike", "hq_rebuild")
    s.hq[0] = 6
    ge.do(s, f"play hq_rebuild#{fix} on HQ0")
    assert s.hq[0] == 2
    ge.do(s, f"play hq_orbital_strike#{strike} on HQ1")
    assert s.hq[1] == 23 and s.alive[1]
    from starlanes.games.galactic_empires.effects import hq_damage

    hq_damage(s, 1, 2, 0)
    assert not s.alive[1]
