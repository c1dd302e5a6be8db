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


def test_several_reactions_per_allocation(ge):
    """GE-FIRE-03 ("Target player may play cards in reaction"), GE-FIRE-04, GE-PLAY-07:
    the target's owner may play several reaction cards on one allocation, each while it
    has a function to use; the firer may then modify each with its own counter."""
    s, a, b = _setup(ge)
    t = ge.put(s, "arg_battleship", 1, engaged=True)  # shields 4, strength 7
    d1, d2, ev1, ev2 = ge.give(s, 1, "re_deflector", "re_point_defense", "re_evasive",
                               "re_evasive")
    (ovr,) = ge.give(s, 0, "re_override")
    ge.do(s, f"aim arg_battleship#{t}", f"volley arg_cruiser#{a}", f"volley arg_frigate#{b}",
          "commit")  # 6 damage
    ge.do(s, f"react re_deflector#{d1}")
    assert s.current_player() == 1 and s.stack[-1].kind == "react"  # still open
    ge.do(s, f"react re_point_defense#{d2}", f"react re_evasive#{ev1}")
    # a second evasion would use nothing (GE-PLAY-07): nothing left, the window moves on
    assert s.current_player() == 0 and s.stack[-1].kind == "counter"
    ge.do(s, f"counter re_override#{ovr} on re_evasive#{ev1}")
    assert s.plays == 1
    assert s.units[t].sdmg == 3  # 6 - 2 - 1: the evasion was overridden
    assert {d1, d2, ev1} <= set(s.discards[0]) and ev2 in s.hands[1]


def test_several_reactions_are_explained(ge):
    """GE-FIRE-03, GE-FIRE-04: a second reaction names the one already played and says more
    may follow; the firer's counter names the reaction it answers."""
    s, a, b = _setup(ge)
    t = ge.put(s, "arg_battleship", 1, engaged=True)
    d1, d2, ev1 = ge.give(s, 1, "re_deflector", "re_point_defense", "re_evasive")
    (ovr,) = ge.give(s, 0, "re_override")
    ge.do(s, f"aim arg_battleship#{t}", f"volley arg_cruiser#{a}", "commit")
    ge.do(s, f"react re_deflector#{d1}")
    legal = {str(x): x for x in s.legal_actions()}
    d = s.game.describe(s, legal[f"react re_point_defense#{d2}"])
    assert "already reacted with Deflector Burst" in d.text
    assert "GE-FIRE-03" in d.rules
    ge.do(s, f"react re_point_defense#{d2}", f"react re_evasive#{ev1}")
    legal = {str(x): x for x in s.legal_actions()}
    d = s.game.describe(s, legal[f"counter re_override#{ovr} on re_evasive#{ev1}"])
    assert "reaction to Evasive Maneuvers" in d.text
    assert "GE-FIRE-04" in d.rules


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
    # the game-over table's score by source names who scored the damage
    assert s.score_breakdown()[1] == {"Sector HQ": 25, "damage from P0": -4}
    assert sum(s.score_breakdown()[1].values()) == s.scores()[1]


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


def test_distortion_cannon_is_no_allocation(ge):
    """GE-FIRE-03, GE-FIRE-07, ruling GE-OPEN-16: a distortion cannon's fleet-wide shot is
    no allocation to a single target, so it opens no 4b reaction window (the target's
    owner holds a deflector and an evasion, yet play stays with the firer) and every
    card it hit may still be allocated fire this phase."""
    s = ge.blank(phase="fire")
    d = ge.put(s, "mch_distorter", 0, engaged=True, ammo=1)
    ship = ge.put(s, "arg_cruiser", 1, engaged=True)
    ge.give(s, 1, "re_deflector", "re_evasive")
    ge.do(s, f"distort mch_distorter#{d}.1 P1")
    assert s.units[ship].sdmg == 1
    assert not s.stack and s.current_player() == 0 and s.fired_at == []
    assert f"aim arg_cruiser#{ship}" in ge.legal(s)



def test_sector_hq_is_no_card(ge):
    """GE-DMG-10: no card represents the Sector HQ: losing every card in play leaves its
    owner in the game with his HQ intact, the HQ is fired at as ``HQ<seat>`` (never a card
    instance), and no card-targeting play can name it unless the card permits (GE-PLAY-13)."""
    s, a, b = _setup(ge)
    ship = ge.put(s, "arg_scout", 1)
    land = ge.put(s, "ice_moon", 1)
    damage(s, ship, 9, 0)
    damage(s, land, 9, 0)
    assert not any(u.owner == 1 for u in s.units.values())
    assert s.alive[1] and s.hq[1] == 0 and not s.is_terminal()
    aims = [a for a in s.legal_actions() if a.kind == "aim"]
    assert [str(x) for x in aims] == ["aim HQ1"] and aims[0].a < 0
    assert s.observation(0)["players"][1]["hq_damage"] == 0
