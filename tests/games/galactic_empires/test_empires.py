"""Empire rules (GE-EMP-ARG, GE-EMP-KRB, GE-EMP-CORP, GE-EMP-MCH, GE-EMP-MIN, GE-EMP-DRG)."""

from __future__ import annotations

from starlanes.games.galactic_empires.empires import command_used, join, tech_allowed
from starlanes.games.galactic_empires.setup import begin_turn
from starlanes.games.galactic_empires.units import damage, shield_cap, strength


def _combo(ge, s, cru="krb_cruiser_heavy", cap="krb_capsule_command", **fields):
    a = ge.put(s, cru, 0, **fields)
    b = ge.put(s, cap, 0, **fields)
    join(s, a, b)
    ge.touch(s)
    return a, b


def test_argonians_standard(ge):
    """GE-EMP-ARG-01: Argonian ships follow the standard rules (shields then structure,
    destroyed at shields + strength)."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 1)
    assert not damage(s, ship, 4, 0)
    assert s.units[ship].sdmg == 2 and s.units[ship].dmg == 2
    assert damage(s, ship, 1, 0) and ship not in s.units


def test_krebiz_combination_is_one_ship(ge):
    """GE-EMP-KRB-01, GE-EMP-KRB-02: a cruiser with a capsule counts as one ship for
    command; neither is destroyed until the whole combination is, then both go."""
    s = ge.blank()
    a, b = _combo(ge, s)
    assert command_used(s, 0) == 1
    assert strength(s, a) == 7 and shield_cap(s, a) == 4
    assert not damage(s, a, 4 + 6, 1)
    assert a in s.units and b in s.units
    assert damage(s, b, 1, 1)
    assert a not in s.units and b not in s.units
    assert {a, b} <= set(s.discards[0])


def test_krebiz_pair_is_one_play(ge):
    """GE-EMP-KRB-03, GE-EMP-KRB-04: a cruiser and capsule played together are one card
    play; a capsule played onto a cruiser in play combines at once."""
    s = ge.blank()
    cru, cap, cap2, cru2 = ge.give(s, 0, "krb_cruiser_light", "krb_capsule_weapon",
                                   "krb_capsule_shield", "krb_cruiser_war")
    ge.do(s, f"play krb_cruiser_light#{cru}+krb_capsule_weapon#{cap}")
    assert s.plays == 1 and s.units[cru].partner == cap
    ge.do(s, f"play krb_cruiser_war#{cru2}")
    ge.do(s, f"play krb_capsule_shield#{cap2} on krb_cruiser_war#{cru2}")
    assert s.units[cru2].partner == cap2 and s.plays == 3


def test_krebiz_separation(ge):
    """GE-EMP-KRB-05, GE-EMP-KRB-06, GE-EMP-KRB-07, GE-EMP-KRB-08, GE-EMP-KRB-09: only
    on the owner's turn, one card play; the owner splits damage keeping shield and
    structure damage apart and destroying neither, and places the accompanying cards."""
    s = ge.blank(players=3)
    a, b = _combo(ge, s, cru="krb_cruiser_light", cap="krb_capsule_cargo")  # str 3 + 3
    s.units[a] = s.units[a]._replace(sdmg=1, dmg=4)
    gun = ge.put(s, "crew_gunner", 0, host=a)
    s.seat = 1
    ge.touch(s)
    assert not any(x.startswith("separate") for x in ge.legal(s))
    s.seat = 0
    ge.touch(s)
    ge.do(s, f"separate krb_cruiser_light#{a}")
    assert s.plays == 1
    opts = ge.legal(s)
    # cruiser keeps (shield, structure); structure 4 split so neither reaches 3
    assert opts == ["split 0 2", "split 1 2"]
    ge.do(s, "split 1 2")
    assert (s.units[a].sdmg, s.units[a].dmg, s.units[b].sdmg, s.units[b].dmg) == (1, 2, 0, 2)
    assert s.units[a].partner == -1
    ge.do(s, f"place crew_gunner#{gun} krb_capsule_cargo#{b}")
    assert s.units[gun].host == b


def test_krebiz_no_separation_without_command(ge):
    """GE-EMP-KRB-10: no separation when no command point is free."""
    s = ge.blank(players=2)
    _combo(ge, s)
    ge.put(s, "base_outpost", 0)
    assert not any(x.startswith("separate") for x in ge.legal(s))


def test_krebiz_component_played_onto_engaged(ge):
    """GE-EMP-KRB-11, GE-EMP-KRB-12: a component played onto an Engaged one makes the
    combination Engaged, but only the earlier one fires; crew on it works."""
    s = ge.blank()
    cru = ge.put(s, "krb_cruiser_war", 0, engaged=True)
    crew = ge.put(s, "crew_gunner", 0, host=cru)
    (cap,) = ge.give(s, 0, "krb_capsule_lance")
    ge.put(s, "arg_scout", 1)
    ge.do(s, f"play krb_capsule_lance#{cap} on krb_cruiser_war#{cru}")
    assert s.units[cap].engaged and s.units[cap].nofire
    from starlanes.games.galactic_empires.fire import weapon_sources

    shooters = {i for i, _, _ in weapon_sources(s, 0)}
    assert shooters == {cru, crew}


def test_krebiz_recombine_later_turn(ge):
    """GE-EMP-KRB-13, GE-EMP-KRB-14, GE-EMP-KRB-16: separated components recombine only on
    a later turn, for one card play; a cruiser takes only one capsule."""
    s = ge.blank(players=3)
    a, b = _combo(ge, s)
    ge.do(s, f"separate krb_cruiser_heavy#{a}", "split 0 0")
    assert not any(x.startswith("combine") for x in ge.legal(s))
    s.turns[0] += 1
    ge.touch(s)
    ge.do(s, f"combine krb_cruiser_heavy#{a} krb_capsule_command#{b}")
    assert s.units[a].partner == b and s.plays == 2
    (cap2,) = ge.give(s, 0, "krb_capsule_weapon")
    assert not any(x.startswith(f"play krb_capsule_weapon#{cap2} on") for x in ge.legal(s))


def test_krebiz_engage_one_component(ge):
    """GE-EMP-KRB-15: a combination given points for one component only; separated in a
    card play phase, that component is Engaged at once."""
    s = ge.blank(players=3, phase="alloc")
    a, b = _combo(ge, s)  # cruiser needs 2E 1S, capsule 1E
    s.pool = [1, 0, 0, 0, 0, 0, 0]
    assert f"engage krb_cruiser_heavy#{a}" not in ge.legal(s)
    ge.do(s, f"engage krb_cruiser_heavy#{a} only krb_capsule_command#{b}", "done")
    assert not s.units[a].engaged
    ge.do(s, f"separate krb_cruiser_heavy#{a}", "split 0 0")
    assert s.units[b].engaged and not s.units[a].engaged


def test_variplaz(ge):
    """GE-EMP-CORP-01, GE-EMP-CORP-02, GE-EMP-CORP-03: a variplaz needs 1 ammo and does
    damage equal to its energy (at most the card's maximum), all on one target."""
    s = ge.blank(phase="alloc")
    ship = ge.put(s, "corp_enforcer", 0)  # vmax 2, weapons PV
    ge.put(s, "arg_battleship", 1)
    s.pool = [5, 1, 1, 0, 0, 0, 0]
    ge.do(s, f"engage corp_enforcer#{ship}")
    ge.do(s, f"charge corp_enforcer#{ship}", f"charge corp_enforcer#{ship}")
    assert f"charge corp_enforcer#{ship}" not in ge.legal(s)  # at its maximum
    ge.do(s, "done", "done")
    target = next(i for i, u in s.units.items() if u.owner == 1)
    ge.do(s, f"aim arg_battleship#{target}")
    assert f"shoot corp_enforcer#{ship}.1" not in ge.legal(s)  # no ammunition yet
    s.units[ship] = s.units[ship]._replace(ammo=1)
    ge.touch(s)
    ge.do(s, f"shoot corp_enforcer#{ship}.1", "commit")
    assert s.units[target].sdmg == 2  # 2 energy = 2 damage on the one target


def test_mechad_emf(ge):
    """GE-EMP-MCH-01, GE-EMP-MCH-02, GE-EMP-MCH-03, GE-EMP-MCH-04, GE-EMP-MCH-07: EMF =
    nodes x energy, at most twice the strength; Disengaged it is the rated strength; it is
    rebuilt from scratch each allocation and absorbs damage like shields."""
    s = ge.blank(phase="alloc")
    bast = ge.put(s, "mch_bastion", 0, sdmg=3)  # 2 nodes, strength 5
    assert shield_cap(s, bast) == 5
    begin_turn(s)
    assert s.units[bast].sdmg == 0
    s.pool = [10, 2, 0, 0, 0, 0, 0]
    ge.do(s, f"engage mch_bastion#{bast}")
    for _ in range(5):
        ge.do(s, f"charge mch_bastion#{bast}")
    assert f"charge mch_bastion#{bast}" not in ge.legal(s)
    assert shield_cap(s, bast) == 10
    damage(s, bast, 12, 1)
    assert s.units[bast].sdmg == 10 and s.units[bast].dmg == 2
    s.pool = [0, 0, 0, 0, 5, 0, 0]
    ge.touch(s)
    ge.do(s, f"repair mch_bastion#{bast}")
    assert s.units[bast].dmg == 1 and s.units[bast].sdmg == 10


def test_mechad_no_shield_refits(ge):
    """GE-EMP-MCH-05: shield refits may not go on Mechad ships."""
    s = ge.blank()
    m = ge.put(s, "mch_sentinel", 0)
    a = ge.put(s, "arg_frigate", 0)
    (refit,) = ge.give(s, 0, "eq_shield_refit")
    texts = ge.legal(s)
    assert f"play eq_shield_refit#{refit} on arg_frigate#{a}" in texts
    assert f"play eq_shield_refit#{refit} on mch_sentinel#{m}" not in texts


def test_mechad_no_shield_generator(ge):
    """GE-EMP-MCH-01, GE-EMP-MCH-05 (ruling): a Mechad ship has an EMF, not shields, so
    a shield generator (which only adds shields) cannot be played on it."""
    s = ge.blank()
    m = ge.put(s, "mch_sentinel", 0)
    a = ge.put(s, "arg_frigate", 0)
    (gen,) = ge.give(s, 0, "eq_shield_gen")
    texts = ge.legal(s)
    assert f"play eq_shield_gen#{gen} on arg_frigate#{a}" in texts
    assert f"play eq_shield_gen#{gen} on mch_sentinel#{m}" not in texts


def test_emf_does_not_block_transporters(ge):
    """GE-EMP-MCH-06: boarders beam through an EMF but not through intact shields."""
    s = ge.blank()
    ship = ge.put(s, "arg_frigate", 0, engaged=True)
    ge.put(s, "eq_transporter", 0, host=ship)
    marines = ge.put(s, "crew_boarders", 0, host=ship)
    mech = ge.put(s, "mch_sentinel", 1, engaged=True, charge=4)
    arg = ge.put(s, "arg_cruiser", 1)
    targets = {a.b for a in s.legal_actions() if a.kind == "operate" and a.a == marines}
    assert mech in targets and arg not in targets
    ge.do(s, f"operate crew_boarders#{marines} on mch_sentinel#{mech}")
    assert s.units[mech].dmg == 2 and s.units[mech].sdmg == 0


def test_whips_are_phasers(ge):
    """GE-EMP-MCH-08: subspace whips fire like phasers (no ammunition, not at terrain) and
    a phaser refit on a Mechad ship adds a whip."""
    s = ge.blank(phase="fire")
    m = ge.put(s, "mch_sentinel", 0, engaged=True)
    ge.put(s, "eq_phaser_refit", 0, host=m)
    t = ge.put(s, "ocean_world", 1)
    ship = ge.put(s, "arg_scout", 1)
    assert f"aim ocean_world#{t}" not in ge.legal(s)
    ge.do(s, f"aim arg_scout#{ship}", f"volley mch_sentinel#{m}")
    assert len(s.picks) == 2
    ge.do(s, "commit")
    assert s.units[ship].sdmg == 1 and s.units[ship].dmg == 1


def test_distortion_cannon(ge):
    """GE-EMP-MCH-09, GE-EMP-MCH-10, GE-EMP-MCH-11: 1 damage to every ship, base, dragon
    and free-flying card of one opponent and to his monsters; not terrain, hazards or the
    HQ; at one's own fleet it hits the hostile monsters there."""
    s = ge.blank(phase="fire", players=3)
    d = ge.put(s, "mch_distorter", 0, engaged=True, ammo=2)
    ship = ge.put(s, "arg_frigate", 1)
    base = ge.put(s, "base_outpost", 1)
    drag = ge.put(s, "drg_hatchling", 1)
    shuttle = ge.put(s, "eq_shuttle", 1, host=ship)
    terr = ge.put(s, "ocean_world", 1)
    haz = ge.put(s, "hz_minefield", 1, against=0)
    mon = ge.put(s, "mon_leviathan", 1, against=2)
    ge.do(s, f"distort mch_distorter#{d}.1 P1")
    assert s.units[ship].sdmg == 1 and s.units[base].sdmg == 1 and s.units[drag].dmg == 1
    assert shuttle not in s.units  # strength 1: destroyed
    assert s.units[terr].dmg == 0 and s.units[haz].dmg == 0 and s.units[mon].dmg == 1
    assert s.hq[1] == 0
    s.units[d] = s.units[d]._replace(fired=0)
    worm = ge.put(s, "mon_space_worm", 2, against=0)
    ge.do(s, f"distort mch_distorter#{d}.1 P0")
    assert s.units[worm].dmg == 1


def test_minor_empire_as_major(ge):
    """GE-EMP-MIN-01: a deck stocked with Bolaar ships uses them as its major empire."""
    s = ge.fresh(2, structure="standard", decks="bolaar,dragon")
    assert s.major == ["bolaar", "dragon"]


def test_basic_major_empire_comes_from_the_deck(ge):
    """GE-FLEET-03, GE-EMP-MIN-01, ruling GE-OPEN-15: in the Basic Game a player's major
    empire comes from how the deck is stocked, not from the first ship he plays. A
    Bolaar ship played first neither bars Argonian or Krebiz ships nor loses the
    minor-empire command bonus."""
    from starlanes.games.galactic_empires.content import stocked_minor

    s = ge.blank()
    assert s.major == ["", ""]  # the Basic Set deck is stocked with Krebiz and Argonians
    bol, arg, krb = ge.give(s, 0, "bol_corsair", "arg_frigate", "krb_cruiser_war")
    ge.do(s, f"play bol_corsair#{bol}")
    assert s.major[0] == ""
    plays = {a.a for a in s.legal_actions() if a.kind == "play"}
    assert {arg, krb} <= plays
    ge.do(s, f"play arg_frigate#{arg}")
    assert command_used(s, 0) == 1  # the Bolaar ship keeps the minor bonus
    ids = ["bol_corsair"] * 5 + ["arg_frigate"] * 3 + ["ice_moon"] * 20
    assert stocked_minor(s.cards, ids) == "bolaar"
    assert stocked_minor(s.cards, ids + ["arg_scout"] * 2) == ""


def test_foreign_technology(ge):
    """GE-EMP-MIN-02, GE-EMP-MIN-03: Bolaar and Vektrean ships use foreign technology
    freely; exclusive technology only with a card granting foreign technology; other
    empires' ships need such a card even for foreign technology."""
    s = ge.blank()
    bol = ge.put(s, "bol_corsair", 0)
    vek = ge.put(s, "vek_lance", 0)
    arg = ge.put(s, "arg_frigate", 0)
    pir = ge.put(s, "pir_cutter", 0)
    corp_tech = s.cards["eq_corp_tech"]
    mech_excl = s.cards["eq_mch_tech"]
    assert tech_allowed(s, bol, corp_tech) and tech_allowed(s, vek, corp_tech)
    assert not tech_allowed(s, arg, corp_tech) and not tech_allowed(s, pir, corp_tech)
    assert not tech_allowed(s, bol, mech_excl)
    ge.put(s, "crew_renegade", 0, host=bol)
    assert tech_allowed(s, bol, mech_excl)
    ge.put(s, "crew_renegade", 0, host=arg)
    assert tech_allowed(s, arg, corp_tech) and not tech_allowed(s, arg, mech_excl)
    assert tech_allowed(s, arg, s.cards["eq_arg_secret"])


def test_indirigan_targeting(ge):
    """GE-EMP-MIN-04, GE-EMP-MIN-05, GE-EMP-MIN-06: an Indirigan ship must first destroy
    the Indirigan ships of opponent fleets (its own tribe's ships do not count) before
    firing at bases or other ships, unless the Indirigans are its owner's major empire."""
    s = ge.blank(phase="fire")
    ind = ge.put(s, "ind_wanderer", 0, engaged=True)
    ge.put(s, "ind_outrider", 0)  # same tribe: no restriction from it
    arg = ge.put(s, "arg_frigate", 1)
    assert f"aim arg_frigate#{arg}" in ge.legal(s)
    foe = ge.put(s, "ind_ark", 1)
    texts = ge.legal(s)
    assert f"aim arg_frigate#{arg}" not in texts and f"aim ind_ark#{foe}" in texts
    s.major[0] = "indirigan"
    ge.touch(s)
    assert f"aim arg_frigate#{arg}" in ge.legal(s)
    del ind


def test_dragons(ge):
    """GE-EMP-DRG-01, GE-EMP-DRG-02, GE-EMP-DRG-05: M monsters are not of the Dragon
    Empire, D dragons are; no equipment, crew or occurrences on D dragons; they have no
    shields and die at their strength."""
    s = ge.blank()
    assert s.cards["mon_male_dragon"].empire != "dragon"
    assert s.cards["drg_warden"].empire == "dragon" and s.cards["drg_warden"].type == "D"
    drg = ge.put(s, "drg_warden", 0)
    foe = ge.put(s, "drg_hatchling", 1)
    crew, eq, sab = ge.give(s, 0, "crew_gunner", "eq_phaser_refit", "occ_sabotage")
    texts = ge.legal(s)
    assert not any(f"on drg_warden#{drg}" in t for t in texts)
    assert f"play occ_sabotage#{sab} on drg_hatchling#{foe}" not in texts
    assert shield_cap(s, foe) == 0
    assert not damage(s, foe, 2, 0) and damage(s, foe, 1, 0)
    del crew, eq


def test_dragons_fire_and_guard_hq(ge):
    """GE-EMP-DRG-03, GE-EMP-DRG-04, GE-EMP-DRG-07, GE-EMP-DRG-08: D dragons block fire at
    their owner's HQ and may damage an enemy HQ; breath needs ammunition, physical attacks
    work like phasers once Engaged."""
    s = ge.blank(phase="fire")
    drg = ge.put(s, "drg_warden", 0, engaged=True)  # FFB
    guard = ge.put(s, "drg_hatchling", 1)
    assert "aim HQ1" not in ge.legal(s)
    del s.units[guard]
    ge.touch(s)
    ge.do(s, "aim HQ1")
    assert ge.legal(s) == [f"shoot drg_warden#{drg}.0", f"shoot drg_warden#{drg}.1",
                           f"volley drg_warden#{drg}"]
    s.units[drg] = s.units[drg]._replace(ammo=1)
    ge.touch(s)
    ge.do(s, f"volley drg_warden#{drg}", "commit")
    assert s.hq[1] == 3


def test_research_healing_and_dragons(ge):
    """GE-EMP-DRG-06, GE-EMP-DRG-09, GE-EMP-DRG-10: research points damage M monsters but
    never D dragons; dragons are repaired only by healing points, which also heal friendly
    monsters that can be repaired."""
    s = ge.blank()
    mon = ge.put(s, "mon_young_male", 1, against=0)
    foe = ge.put(s, "drg_hatchling", 1)
    s.pool = [0, 0, 0, 2, 0, 0, 0]
    ge.touch(s)
    assert f"study mon_young_male#{mon}" in ge.legal(s)
    assert not any(t.startswith(f"study drg_hatchling#{foe}") for t in ge.legal(s))
    ge.do(s, f"study mon_young_male#{mon}")
    assert s.units[mon].rdmg == 1
    t = ge.blank(phase="alloc")
    drg = ge.put(t, "drg_sister", 0, dmg=2)
    pet = ge.put(t, "mon_swarm", 0, against=1, dmg=1)
    rock = ge.put(t, "mon_crystal", 0, against=1, dmg=1)
    t.pool = [0, 0, 0, 0, 3, 0, 0]
    ge.touch(t)
    assert f"repair drg_sister#{drg}" not in ge.legal(t)
    t.pool = [0, 0, 0, 0, 0, 3, 0]
    ge.touch(t)
    texts = ge.legal(t)
    assert f"heal drg_sister#{drg}" in texts and f"heal mon_swarm#{pet}" in texts
    assert f"heal mon_crystal#{rock}" not in texts
    ge.do(t, f"heal drg_sister#{drg}", f"heal mon_swarm#{pet}")
    assert t.units[drg].dmg == 1 and t.units[pet].dmg == 0


def test_m_and_d_dragons_in_play(ge):
    """GE-EMP-DRG-01, GE-EMP-DRG-06, GE-FLEET-08: an M dragon is played as a monster
    against a fleet and falls to research points; a D dragon is played into its owner's
    fleet as a ship of the Dragon Empire (the first one free of command as a minor-empire
    ship, the second counting) and research points cannot touch it."""
    s = ge.blank()
    ge.put(s, "arg_scout", 1)
    m, d1, d2 = ge.give(s, 0, "mon_male_dragon", "drg_hatchling", "drg_warden")
    ge.do(s, f"play mon_male_dragon#{m} on P1")
    assert s.units[m].against == 1 and s.units[m].owner == 0
    ge.do(s, f"play drg_hatchling#{d1}", f"play drg_warden#{d2}")
    assert s.units[d1].against < 0 and command_used(s, 0) == 1
    s.pool[3] = 1
    ge.touch(s)
    texts = ge.legal(s)
    assert f"study mon_male_dragon#{m}" in texts
    assert not any(t.startswith("study drg_") for t in texts)
    ge.do(s, f"study mon_male_dragon#{m}")
    assert s.units[m].rdmg == 1
