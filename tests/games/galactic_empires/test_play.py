"""Card plays, reactions, turn 1/2 limits, fleets and command points (GE-PLAY, GE-FLEET)."""

from __future__ import annotations

from starlanes.games.galactic_empires.empires import command_limit, command_used


def _plays(s):
    return [a for a in s.legal_actions() if a.kind == "play"]


def test_three_plays_per_turn(ge):
    """GE-PLAY-01, GE-PLAY-02: three card plays per turn across phase A, the weapons fire
    phase and phase B; plays before firing leave fewer after."""
    s = ge.blank()
    cards = ge.give(s, 0, "ice_moon", "red_dwarf", "pulsar", "ocean_world")
    ge.do(s, *(f"play {s.name(c)}" for c in cards[:2]))
    ge.do(s, "done")
    assert s.phase == "playB"  # nothing to fire with
    ge.do(s, f"play {s.name(cards[2])}")
    assert s.plays == 3 and not _plays(s)


def test_reactions_outside_own_turn_do_not_count(ge):
    """GE-PLAY-03, GE-PLAY-04, GE-PLAY-05, GE-PLAY-07: an R card played in reaction in
    another player's turn does not count against the reacting player's limit; one
    played in one's own turn does, and needs a function used at once."""
    s = ge.blank(phase="fire")
    gun = ge.put(s, "arg_frigate", 0, engaged=True)
    ship = ge.put(s, "arg_cruiser", 1, engaged=True, dmg=1)
    (ev,) = ge.give(s, 1, "re_evasive")
    (dc,) = ge.give(s, 0, "re_damage_control")
    (dc1,) = ge.give(s, 1, "re_deflector")
    ge.do(s, f"aim arg_cruiser#{ship}", f"volley arg_frigate#{gun}", "commit")
    assert s.current_player() == 1
    ge.do(s, f"react re_evasive#{ev}", "pass")
    assert s.plays == 0 and s.units[ship].sdmg == 0
    assert ev in s.discards[0]
    s.phase = "playB"
    ge.touch(s)
    assert not any(a.a == dc for a in _plays(s))  # nothing of P0's needs repair
    ge.set_unit(s, gun, dmg=1)
    ge.do(s, f"play re_damage_control#{dc} on arg_frigate#{gun}")
    assert s.plays == 1 and s.units[gun].dmg == 0
    del dc1


def test_reaction_windows_only_at_4b(ge):
    """GE-PLAY-06: during another player's weapons fire, reactions come only at step 4b
    (after the fire is allocated), not while it is being aimed."""
    s = ge.blank(phase="fire")
    gun = ge.put(s, "arg_frigate", 0, engaged=True)
    ship = ge.put(s, "arg_cruiser", 1)
    ge.give(s, 1, "re_deflector")
    ge.do(s, f"aim arg_cruiser#{ship}")
    assert s.current_player() == 0
    ge.do(s, f"volley arg_frigate#{gun}")
    assert s.current_player() == 0
    ge.do(s, "commit")
    assert s.current_player() == 1 and s.stack[-1].kind == "react"


def test_turn_one_only_terrain(ge):
    """GE-PLAY-08, GE-PLAY-09: on a player's first turn only terrain goes into the active
    fleet; a reserve swap is still allowed."""
    s = ge.blank(turn=1)
    t, ship, crew = ge.give(s, 0, "ice_moon", "arg_scout", "crew_gunner")
    s.reserve[0] = [ge.new_inst(s, "metal_asteroids")]
    ge.touch(s)
    plays = {a.a for a in _plays(s)}
    assert t in plays and ship not in plays and crew not in plays
    assert any(a.kind == "swap" for a in s.legal_actions())


def test_turn_two_one_ship(ge):
    """GE-PLAY-10: on the second turn at most one ship or base."""
    s = ge.blank(turn=2, players=3)
    a, b = ge.give(s, 0, "arg_scout", "base_outpost")
    ge.do(s, f"play arg_scout#{a}")
    assert not any(x.a == b for x in _plays(s))
    s2 = ge.blank(turn=3, players=3)
    a, b = ge.give(s2, 0, "arg_scout", "base_outpost")
    ge.do(s2, f"play arg_scout#{a}", f"play base_outpost#{b}")


def test_cards_on_self_or_opponent(ge):
    """GE-PLAY-11, GE-PLAY-12, GE-PLAY-13: a time warp may go on either fleet; ships and
    equipment only into one's own fleet; nothing on a Sector HQ unless the card says."""
    s = ge.blank()
    mine = ge.put(s, "arg_frigate", 0)
    theirs = ge.put(s, "arg_frigate", 1)
    tw, eq, sab, strike = ge.give(s, 0, "occ_time_warp", "eq_phaser_refit", "occ_sabotage",
                                  "hq_orbital_strike")
    texts = ge.legal(s)
    assert f"play occ_time_warp#{tw} on P0" in texts and f"play occ_time_warp#{tw} on P1" in texts
    assert f"play eq_phaser_refit#{eq} on arg_frigate#{mine}" in texts
    assert f"play eq_phaser_refit#{eq} on arg_frigate#{theirs}" not in texts
    assert not any(t.startswith(f"play occ_sabotage#{sab} on HQ") for t in texts)
    assert f"play hq_orbital_strike#{strike} on HQ1" in texts


def test_card_text_overrides_rules(ge):
    """GE-PLAY-14: a card's text beats the rulebook: Orbital Strike damages a Sector HQ
    although its owner still has ships in play (GE-DMG-05 says it could not be hit)."""
    s = ge.blank()
    ge.put(s, "arg_frigate", 1)
    (strike,) = ge.give(s, 0, "hq_orbital_strike")
    ge.do(s, f"play hq_orbital_strike#{strike} on HQ1")
    assert s.hq[1] == 3


def test_active_fleet(ge):
    """GE-FLEET-01: the active fleet holds terrain, ships, bases, crew and equipment."""
    s = ge.blank()
    t, ship, crew = ge.give(s, 0, "ice_moon", "arg_scout", "crew_gunner")
    ge.do(s, f"play ice_moon#{t}", f"play arg_scout#{ship}", f"play crew_gunner#{crew} on arg_scout#{ship}")
    assert {u.owner for u in s.units.values()} == {0} and len(s.units) == 3


def test_one_major_empire(ge):
    """GE-FLEET-02, GE-FLEET-03: with a Krebiz ship in play no Argonian, Corporate or
    Mechad ship may join; minor-empire and generic ships always may."""
    s = ge.blank(players=4)
    ge.put(s, "krb_cruiser_light", 0)
    arg, corp, bol, gen, krb = ge.give(s, 0, "arg_scout", "corp_auditor", "bol_sloop",
                                       "gen_patrol", "krb_cruiser_war")
    plays = {a.a for a in _plays(s)}
    assert arg not in plays and corp not in plays
    assert {bol, gen, krb} <= plays


def test_command_points(ge):
    """GE-FLEET-04, GE-FLEET-05, GE-FLEET-06: ships and bases in play, Engaged or not, may
    number as many as the starting players; a card that generates command points, or a
    self-destruct, makes room."""
    s = ge.blank(players=2)
    ge.put(s, "arg_scout", 0)
    ge.put(s, "base_outpost", 0)
    assert command_limit(s, 0) == 2 and command_used(s, 0) == 2
    (ship,) = ge.give(s, 0, "arg_frigate")
    assert not any(a.a == ship for a in _plays(s))
    (tac,) = ge.give(s, 0, "crew_tactician")
    scout = next(i for i, u in s.units.items() if u.card == "arg_scout")
    ge.do(s, f"play crew_tactician#{tac} on arg_scout#{scout}")
    assert command_limit(s, 0) == 3
    assert any(a.a == ship for a in _plays(s))


def test_ship_lost_in_own_fire_phase_frees_command_next_turn(ge):
    """GE-FLEET-06: a ship destroyed in its owner's own Weapons Fire Phase (here by
    Return Fire) frees its command point only from his next turn, not for Play Cards
    Phase B of the same turn."""
    from starlanes.games.galactic_empires.setup import begin_turn

    s = ge.blank(phase="fire")
    gun = ge.put(s, "arg_scout", 0, engaged=True, dmg=1)
    ge.put(s, "arg_frigate", 0)
    foe = ge.put(s, "arg_cruiser", 1, engaged=True)
    (rf,) = ge.give(s, 1, "re_return_fire")
    (spare,) = ge.give(s, 0, "arg_destroyer")
    assert command_used(s, 0) == command_limit(s, 0) == 2
    ge.do(s, f"aim arg_cruiser#{foe}", f"volley arg_scout#{gun}", "commit",
          f"react re_return_fire#{rf} on arg_scout#{gun}")
    assert gun not in s.units  # 2 damage on shield 1 + 1 structure left
    assert command_used(s, 0) == 2
    ge.first(s, "cease")
    assert s.phase == "playB"
    assert not any(a.a == spare for a in _plays(s))
    ge.do(s, "done", "done", "draw 0")
    s.seat = 0
    begin_turn(s)
    s.phase = "playA"
    ge.touch(s)
    assert any(a.a == spare for a in _plays(s))


def test_command_limit_unchanged_by_elimination(ge):
    """GE-FLEET-07: eliminations do not lower the command limit."""
    s = ge.blank(players=3)
    from starlanes.games.galactic_empires.endturn import eliminate

    eliminate(s, 2, 0)
    assert command_limit(s, 0) == 3


def test_minor_empire_bonus(ge):
    """GE-FLEET-08, GE-FLEET-09: one minor-empire ship does not count against command,
    unless that minor empire is the player's major empire (then all count)."""
    s = ge.blank(players=2)
    ge.put(s, "arg_scout", 0)
    ge.put(s, "arg_frigate", 0)
    ge.put(s, "bol_sloop", 0)
    assert command_used(s, 0) == 2
    ge.put(s, "vek_lance", 0)
    assert command_used(s, 0) == 3  # the bonus is one ship in total (ruling GE-OPEN-14)
    s.major[0] = "bolaar"
    assert command_used(s, 0) == 3
    t = ge.blank(players=2, minor_bonus="per_empire")
    for c in ("arg_scout", "bol_sloop", "vek_lance"):
        ge.put(t, c, 0)
    assert command_used(t, 0) == 1
