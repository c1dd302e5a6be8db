"""PLANET CONDITIONS (RD-PLC-*), SYSTEMS (RD-SYS-*), SPECIAL PLANETS (RD-SPC-*) and PLANET
UPGRADES (RD-UPG-*), on positions built on an emptied board."""

from __future__ import annotations

import pytest

from starlanes.games.rift_domination import battle
from starlanes.games.rift_domination.turn import income_of, slots


def _lander(rd, kind, value=0, resources=0, faction=None, units=("infantry",)):
    """Seat 0 with a carrier and ``units`` in the orbit of C1a, which holds a ``kind``
    tile; ``C1b`` belongs to nobody, so taking C1a does not complete the system."""
    s = rd.blank(factions=[faction or rd.NEUTRAL, rd.NEUTRAL])
    rd.tile(s, "C1a", kind, value)
    rd.tile(s, "C1b", "civilized")
    rd.place(s, 0, "carrier", "C1a")
    landing = [u for k in units for u in rd.place(s, 0, k, "C1a")]
    s.resources[0] = resources
    rd.stack_deck(s, "supply_convoy", "triumph", "piracy", "sabotage")
    return s, landing


def test_every_planet_but_the_homes_has_a_condition(rd):
    """RD-PLC-01 / RD-SET-06: after set-up every planet in play has a condition tile except
    the starting planets; RD-PLC-03: the conditions are civilized, dangerous, anomaly and
    harvester."""
    s = rd.fresh(4, 2)
    for p in s.board.in_play_planets:
        if p in s.home:
            assert s.tile_kind[p] == ""
        else:
            assert s.tile_kind[p] in ("civilized", "dangerous", "anomaly", "harvester")
    assert {t.kind for t in s.content.tiles.values()} == {
        "civilized", "dangerous", "anomaly", "harvester"}


def test_taking_control_flips_the_tile(rd):
    """RD-PLC-02: taking control of a planet flips its condition tile: its value becomes
    visible to every seat."""
    s, _ = _lander(rd, "harvester", 5)
    p = rd.pid(s, "C1a")
    assert s.observation(1)["planets"][_obs_index(s, "C1a")]["value"] is None
    rd.do(s, "land C1a")
    assert s.tile_revealed[p]
    for seat in (0, 1):
        assert s.observation(seat)["planets"][_obs_index(s, "C1a")]["value"] == 5


def _obs_index(s, planet):
    return [s.board.planet_ids[p] for p in s.board.in_play_planets].index(planet)


def test_civilized_pay_two_and_land_infantry_for_one_card(rd):
    """RD-PLC-04 / RD-PLC-06: a civilized planet is taken by paying 2 resources and landing
    infantry; the player gains 1 OCC-card."""
    s, landing = _lander(rd, "civilized", resources=5)
    rd.do(s, "land C1a")
    assert s.planet_owner[rd.pid(s, "C1a")] == 0
    assert s.resources[0] == 3
    assert s.hands[0] == ["supply_convoy"]
    assert all(s.units[u].landed for u in landing)


def test_civilized_needs_the_two_resources(rd):
    """RD-PLC-04: without 2 resources infantry cannot take a civilized planet."""
    s, _ = _lander(rd, "civilized", resources=1)
    assert "land C1a" not in rd.legal(s)


def test_negotiate_takes_a_civilized_planet(rd):
    """RD-PLC-05 / RD-SKL-07 (ruling RD-OPEN-03): a diplomat in orbit of a civilized planet
    negotiates: control at once, 2 OCC-cards, 2 fighters and one free planet upgrade (the
    upgrade is chosen next; nothing is paid)."""
    s, _ = _lander(rd, "civilized", units=("diplomat",))
    assert "land C1a" not in rd.legal(s), "a diplomat alone is no landing party"
    fighters = len(rd.units_of(s, 0, "fighter"))
    rd.do(s, "negotiate C1a")
    p = rd.pid(s, "C1a")
    assert s.planet_owner[p] == 0
    assert sorted(s.hands[0]) == ["supply_convoy", "triumph"]
    assert len(rd.units_of(s, 0, "fighter", at="C1a")) == fighters + 2
    assert s.stack[-1].kind == "free_upgrade"
    assert "free mine" in rd.legal(s) and "free none" in rd.legal(s)
    rd.do(s, "free mine")
    assert s.planet_upgrades[p] == ("mine",) and s.resources[0] == 0


def test_negotiate_on_a_player_planet_only_without_infantry(rd):
    """RD-SKL-08: Negotiate also works on a player-controlled (civilized) planet when no
    infantry is on it."""
    s, _ = _lander(rd, "civilized", units=("diplomat",))
    rd.own(s, "C1a", 1)
    assert "negotiate C1a" in rd.legal(s)
    (inf,) = rd.place(s, 1, "infantry", "C1a", landed=True)
    assert "negotiate C1a" not in rd.legal(s)
    s.remove_unit(inf)
    rd.touch(s)
    rd.do(s, "negotiate C1a")
    assert s.planet_owner[rd.pid(s, "C1a")] == 0


def test_negotiated_planet_keeps_no_fortifications(rd):
    """RD-BAT-18 / RD-BAT-17 (ruling RD-OPEN-03): military bases, artillery and shield
    generators never pass to another player: a planet taken from its owner by Negotiate
    loses them, while its mine changes hands."""
    s, _ = _lander(rd, "civilized", units=("diplomat",))
    p = rd.own(s, "C1a", 1, ("military_base", "mine"))
    rd.do(s, "negotiate C1a")
    assert s.planet_owner[p] == 0
    assert s.planet_upgrades[p] == ("mine",)


def test_negotiate_only_on_civilized_planets(rd):
    """RD-SKL-07: the Negotiate skill takes civilized planets, no other condition."""
    s, _ = _lander(rd, "harvester", 4, units=("diplomat",))
    assert "negotiate C1a" not in rd.legal(s)


@pytest.mark.parametrize("roll", [3, 4, 6])
def test_dangerous_three_or_more_takes_it(rd, roll):
    """RD-PLC-07 / RD-PLC-09: landing on a dangerous planet rolls a die; on 3 or higher the
    player takes control and gains all resources shown on the tile."""
    s, landing = _lander(rd, "dangerous", 5)
    rd.dice(s, roll)
    rd.do(s, "land C1a")
    p = rd.pid(s, "C1a")
    assert s.planet_owner[p] == 0 and s.resources[0] == 5
    assert all(u in s.units for u in landing)
    assert s.tile_revealed[p]


def test_dangerous_gives_a_free_upgrade_of_choice(rd):
    """RD-PLC-09: on taking control of a dangerous planet the player also gains a free
    planet upgrade of their choice."""
    s, _ = _lander(rd, "dangerous", 5)
    rd.dice(s, 3)
    rd.do(s, "land C1a")
    assert s.stack and s.stack[-1].kind == "free_upgrade"
    assert "free trading_outpost" in rd.legal(s)
    rd.do(s, "free trading_outpost")
    assert s.planet_upgrades[rd.pid(s, "C1a")] == ("trading_outpost",)
    assert s.resources[0] == 5


@pytest.mark.parametrize("roll", [1, 2])
def test_dangerous_one_or_two_destroys_the_landing(rd, roll):
    """RD-PLC-08: on a 1 or 2 all landed units are destroyed and the planet stays free."""
    s, landing = _lander(rd, "dangerous", 5, units=("infantry", "infantry"))
    rd.dice(s, roll)
    rd.do(s, "land C1a")
    p = rd.pid(s, "C1a")
    assert s.planet_owner[p] == -1 and s.resources[0] == 0
    assert not any(u in s.units for u in landing)
    assert not s.tile_revealed[p]
    assert rd.units_of(s, 0, "carrier"), "the ship in orbit did not land and survives"


def test_anomaly_gives_vp_and_two_infantry(rd):
    """RD-PLC-10 / RD-PLC-11: an anomaly planet gives the VP on its tile and 2 free infantry
    placed on the planet, which can move on with the fleet."""
    s, landing = _lander(rd, "anomaly", 2)
    rd.do(s, "land C1a")
    assert s.vp[0] == 2
    inf = rd.units_of(s, 0, "infantry", at="C1a")
    assert len(inf) == len(landing) + 2
    rd.do(s, "lift C1a", "move C1a C1")
    assert len(rd.units_of(s, 0, "infantry", at="C1")) == 3


def test_harvester_gives_its_resources(rd):
    """RD-PLC-12: a harvester planet gives the resources on its tile on landing."""
    s, _ = _lander(rd, "harvester", 8, resources=1)
    rd.do(s, "land C1a")
    assert s.resources[0] == 9 and s.planet_owner[rd.pid(s, "C1a")] == 0


def test_landing_on_an_enemy_planet_is_a_ground_battle(rd):
    """RD-PLC-02 / RD-BAT-17: a planet held by another player is not taken by its tile but by
    a ground battle; the tile is not paid out again."""
    s, _ = _lander(rd, "harvester", 8)
    rd.own(s, "C1a", 1)
    s.tile_revealed[rd.pid(s, "C1a")] = True
    rd.dice(s, 6, 1)
    rd.do(s, "land C1a")
    assert s.battle is not None and s.battle.ground
    assert s.resources[0] == 0


# ---------------------------------------------------------------------------- systems
def test_controlling_a_whole_system_scores_and_unlocks(rd):
    """RD-SYS-02 / RD-SYS-03 / RD-SYS-04: controlling every planet of a system controls it:
    +1 VP and one unit card to unlock, which joins the roster."""
    s, _ = _lander(rd, "harvester", 4)
    rd.own(s, "C1b", 0)
    sys = s.board.planet_system[rd.pid(s, "C1a")]
    rd.do(s, "land C1a")
    assert s.system_owner[sys] == 0
    assert s.vp[0] == 1
    assert s.stack[-1].kind == "unlock"
    options = rd.legal(s)
    assert "unlock goliath" in options
    assert not any(o == f"unlock {k}" for k in s.roster[0] for o in options)
    rd.do(s, "unlock goliath")
    assert "goliath" in s.roster[0] and s.unlocks[0] == 1


def test_one_planet_of_two_is_no_system(rd):
    """RD-SYS-02: holding only some of a system's planets does not control it."""
    s, _ = _lander(rd, "harvester", 4)
    rd.do(s, "land C1a")
    assert s.system_owner[s.board.planet_system[rd.pid(s, "C1a")]] == -1
    assert s.vp[0] == 0 and not s.stack


def test_unlocks_stop_at_the_faction_limit(rd):
    """RD-FAC-10: controlling systems adds unit types, but at most two (the faction's unlock
    limit): a third system scores its VP without an unlock."""
    s, _ = _lander(rd, "harvester", 4)
    assert s.content.factions[s.faction[0]].unlock_limit == 2
    s.unlocks[0] = 2
    rd.own(s, "C1b", 0)
    rd.do(s, "land C1a")
    assert s.vp[0] == 1 and not s.stack


def test_regaining_a_system_scores_again(rd):
    """RD-SYS-04: "each time" a player controls an entire system they gain 1 VP."""
    s, _ = _lander(rd, "harvester", 4)
    s.unlocks[0] = 2
    rd.own(s, "C1b", 0)
    rd.do(s, "land C1a")
    from starlanes.games.rift_domination.planets import set_owner

    set_owner(s, rd.pid(s, "C1b"), 1)
    set_owner(s, rd.pid(s, "C1b"), 0)
    assert s.vp[0] == 2


# ---------------------------------------------------------------------------- special planets
def test_central_planet_gives_system_vp_and_four(rd):
    """RD-SPC-01 / RD-SPC-02 / RD-SPC-03 (ruling RD-OPEN-21): the two huge planets C3a, C3b are the centre;
    taking one gives the 1 VP for the whole system and 4 VP for the planet."""
    s = rd.blank()
    assert [s.board.planet_ids[p] for p in s.board.in_play_planets if s.board.planet_huge[p]] \
        == ["C3a", "C3b"]
    s.unlocks[0] = 2
    rd.tile(s, "C3a", "harvester", 4)
    rd.place(s, 0, "carrier", "C3a")
    rd.place(s, 0, "infantry", "C3a")
    rd.do(s, "land C3a")
    assert s.vp[0] == 5


def test_second_central_planet_does_not_score_the_system_again(rd):
    """RD-SPC-02 / RD-SYS-04 (ruling RD-OPEN-21): the system VP (and the unit unlock) come
    when control of the whole central system is gained; taking the second huge planet while
    already holding the system gives only the planet's 4 VP, not 4 + 1 again."""
    s = rd.blank()
    rd.tile(s, "C3a", "harvester", 4)
    rd.tile(s, "C3b", "harvester", 4)
    for planet in ("C3a", "C3b"):
        rd.place(s, 0, "carrier", planet)
        rd.place(s, 0, "infantry", planet)
    rd.do(s, "land C3a")
    while s.stack:  # the unit unlock of the system
        s.apply(s.legal_actions()[0])
    assert (s.vp[0], s.unlocks[0]) == (5, 1)
    rd.do(s, "land C3b")
    assert not s.stack
    assert (s.vp[0], s.unlocks[0]) == (9, 1)
    assert s.system_owner[s.board.planet_system[rd.pid(s, "C3b")]] == 0


def test_central_system_changes_hands_with_a_huge_planet(rd):
    """RD-SPC-02 / RD-SYS-04 (ruling RD-OPEN-21): a player who takes a huge planet while
    another holds the centre gains control of the system, and its VP."""
    s = rd.blank()
    s.unlocks[1] = 2
    rd.own(s, "C3a", 0)
    s.system_owner[s.board.planet_system[rd.pid(s, "C3a")]] = 0
    rd.tile(s, "C3b", "harvester", 4)
    s.seat = 1
    rd.place(s, 1, "carrier", "C3b")
    rd.place(s, 1, "infantry", "C3b")
    rd.do(s, "land C3b")
    assert s.vp[1] == 5
    assert s.system_owner[s.board.planet_system[rd.pid(s, "C3b")]] == 1


@pytest.mark.parametrize("scoring, again", [("each_capture", 4), ("once", 0)])
def test_retaking_a_huge_planet_scores_it_again_or_not_by_option(rd, scoring, again):
    """RD-SPC-03 (ruling RD-OPEN-21, option huge_planet_vp): by default every capture of a
    huge planet scores its 4 VP; with "once" a player scores a given huge planet only the
    first time, and another player who takes it still scores it. The system VP follows
    RD-SYS-04 either way (each time control of the centre is gained)."""
    from starlanes.games.rift_domination.planets import set_owner

    s = rd.blank(huge_planet_vp=scoring)
    p = rd.pid(s, "C3a")
    set_owner(s, p, 0)
    assert s.vp[0] == 5  # 4 for the planet, 1 for the system
    set_owner(s, p, 1)
    assert s.vp[1] == 5
    set_owner(s, p, 0)
    assert s.vp[0] == 5 + again + 1
    set_owner(s, p, 1)
    assert s.vp[1] == 5 + again + 1
    assert s.clone().vp == s.vp and (s.clone().digest() == s.digest())


def test_huge_planets_have_four_slots(rd):
    """RD-UPG-02: up to 4 upgrades on each of the two huge planets (others: 2, RD-UPG-01)."""
    s = rd.blank(phase="build")
    p = rd.own(s, "C3a", 0, ("mine", "mine", "trading_outpost"))
    s.resources[0] = 50
    rd.touch(s)
    assert slots(s, p) == 4
    rd.do(s, "build mine C3a")
    assert len(s.planet_upgrades[p]) == 4
    assert not any(a.startswith("build") and a.endswith("C3a") for a in rd.legal(s))


# ---------------------------------------------------------------------------- upgrades
UPGRADE_COSTS = {"warp": 4, "mine": 4, "trading_outpost": 4, "artillery": 2,
                 "military_base": 6, "shield_generator": 3}


@pytest.mark.parametrize("upgrade,cost", sorted(UPGRADE_COSTS.items()))
def test_build_pays_the_cost_and_places_the_upgrade(rd, upgrade, cost):
    """RD-UPG-03: building pays the upgrade's cost and places it on the planet card
    (costs: RD-UPG-06 warp 4, RD-UPG-11 mines 4, RD-UPG-13 trading outpost 4, RD-UPG-14
    artillery 2, RD-UPG-15 military base 6, RD-UPG-17 shield generator 3)."""
    s = rd.blank(phase="build")
    p = rd.own(s, "B1a", 0)
    s.resources[0] = cost - 1
    rd.touch(s)
    assert f"build {upgrade} B1a" not in rd.legal(s)
    s.resources[0] = cost + 1
    rd.touch(s)
    rd.do(s, f"build {upgrade} B1a")
    assert s.resources[0] == 1 and s.planet_upgrades[p] == (upgrade,)


def test_two_slots_per_planet(rd):
    """RD-UPG-01 / RD-UPG-04: at most 2 upgrades on a planet; building needs a free slot."""
    s = rd.blank(phase="build")
    p = rd.own(s, "B1a", 0, ("mine",))
    s.resources[0] = 50
    rd.touch(s)
    rd.do(s, "build mine B1a")
    assert len(s.planet_upgrades[p]) == 2 == slots(s, p)
    assert not any(a.startswith("build") for a in rd.legal(s))


def test_build_only_on_own_planets(rd):
    """RD-UPG-04: upgrades go on the player's own planet cards."""
    s = rd.blank(phase="build")
    rd.own(s, "C1a", 1)
    s.resources[0] = 50
    rd.touch(s)
    assert not any("C1a" in a for a in rd.legal(s))


def test_demolish_without_refund(rd):
    """RD-UPG-05: a player may destroy their own upgrade (e.g. to build another); no
    resources are refunded."""
    s = rd.blank(phase="build")
    p = rd.own(s, "B1a", 0, ("mine", "artillery"))
    s.resources[0] = 4
    rd.touch(s)
    assert "build warp B1a" not in rd.legal(s)
    rd.do(s, "demolish artillery B1a")
    assert s.planet_upgrades[p] == ("mine",) and s.resources[0] == 4
    rd.do(s, "build warp B1a")
    assert s.planet_upgrades[p] == ("mine", "warp")


def test_only_own_upgrades_can_be_demolished(rd):
    """RD-UPG-05: the player destroys *their own* upgrades only."""
    s = rd.blank(phase="build")
    rd.own(s, "C1a", 1, ("mine",))
    assert "demolish mine C1a" not in rd.legal(s)


def test_mines_produce_two_each(rd):
    """RD-UPG-11: each mine produces +2 resources every round."""
    s = rd.blank()
    base = income_of(s, 0)
    rd.own(s, "B1a", 0, ("mine",))
    assert income_of(s, 0) == base + 2
    rd.own(s, "B1b", 0, ("mine", "mine"))
    assert income_of(s, 0) == base + 6


def test_two_mines_on_a_harvester_give_two_more(rd):
    """RD-UPG-12: two mines on a harvester planet give an additional +2 per round."""
    s = rd.blank()
    base = income_of(s, 0)
    rd.tile(s, "C1a", "harvester", 4)
    rd.own(s, "C1a", 0, ("mine",))
    assert income_of(s, 0) == base + 2
    rd.own(s, "C1a", 0, ("mine", "mine"))
    assert income_of(s, 0) == base + 6


def test_trading_outpost_draws_one_more(rd):
    """RD-UPG-13 / RD-TURN-02: a trading outpost gives 1 extra OCC-card at the start of the
    owner's turn (3 instead of 2)."""
    s = rd.blank(phase="turn_start")
    s.step = 1
    rd.own(s, "B1a", 0, ("trading_outpost", "military_base"))
    rd.stack_deck(s, "supply_convoy", "triumph", "piracy", "sabotage")
    from starlanes.games.rift_domination.turn import run_turn_start

    run_turn_start(s)
    assert len(s.hands[0]) == 3


def _ground_fighters(rd, upgrades):
    s = rd.blank()
    rd.own(s, "C1a", 1, upgrades)
    rd.place(s, 0, "infantry", "C1a")
    rd.dice(s, *([1] * 30))
    battle.start_ground_battle(s, 0, rd.pid(s, "C1a"), rd.units_of(s, 0, "infantry"),
                               bombard=False)
    return {f.kind: f for f in s.battle.fighters.values() if f.building}


def test_combat_upgrades_fight_with_their_printed_stats(rd):
    """RD-UPG-14: artillery 1 LP, 1 close + 1 mid weapon; RD-UPG-15: military base 1 shield,
    3 LP, 2 close + 2 mid; RD-UPG-17: shield generator 1 shield, 1 LP and Overload; all of
    them take part in the ground battle (RD-BAT-15)."""
    f = _ground_fighters(rd, ("artillery", "military_base"))
    art, base = f["artillery"], f["military_base"]
    assert (art.lp, art.sh, art.close, art.mid, art.long) == (1, 0, 1, 1, 0)
    assert (base.lp, base.sh, base.close, base.mid, base.long) == (3, 1, 2, 2, 0)
    g = _ground_fighters(rd, ("shield_generator",))["shield_generator"]
    assert (g.lp, g.sh) == (1, 1) and "overload" in g.skills


def test_military_base_lets_units_be_produced_there(rd):
    """RD-UPG-16: units can be produced and placed on planets with a military base."""
    s = rd.blank(phase="recruit")
    rd.own(s, "B1a", 0, ("military_base",))
    rd.own(s, "B1b", 0, ("mine",))
    s.resources[0] = 5
    rd.touch(s)
    recruits = [a for a in rd.legal(s) if a.startswith("recruit")]
    assert recruits and all(a.endswith("B1a") for a in recruits)
    rd.do(s, "recruit carrier B1a")
    assert len(rd.units_of(s, 0, "carrier", at="B1a")) == 1


def test_lifting_needs_a_carrier_and_costs_it_a_movement_point(rd):
    """Ruling RD-OPEN-12 (transport): landed units go back into orbit only aboard one of
    the player's ships with capacity there, which spends 1 movement point; without such a
    ship no lift is offered, so landing and lifting cannot repeat without end."""
    s = rd.blank(factions=[rd.NEUTRAL, rd.NEUTRAL])
    rd.own(s, "C1a", 0)
    rd.place(s, 0, "infantry", "C1a", landed=True)
    assert "lift C1a" not in rd.legal(s)
    carrier = rd.place(s, 0, "carrier", "C1a", mp=1)[0]
    assert "lift C1a" in rd.legal(s)
    rd.do(s, "lift C1a")
    assert s.units[carrier].mp == 0
    assert not any(u.landed for u in s.units.values())
    rd.do(s, "land C1a")
    assert "lift C1a" not in rd.legal(s)


# ---------------------------------------------------------------------------- neutral garrisons
def _garrisoned(rd, kind, infantry, value=4):
    """Standard board: seat 0 with a carrier and ``infantry`` infantry in the orbit of B2a
    (garrison 2), which holds a ``kind`` tile."""
    s = rd.blank(board="standard")
    assert s.board.planet_garrison[rd.pid(s, "B2a")] == 2
    rd.tile(s, "B2a", kind, value)
    rd.tile(s, "B2b", "civilized")
    rd.place(s, 0, "carrier", "B2a")
    rd.place(s, 0, "infantry", "B2a", n=infantry)
    s.resources[0] = 5
    return s


def test_a_garrison_beats_off_a_small_landing(rd):
    """RD-MOV-13 (ruling RD-OPEN-25): a landing on a neutral planet meets its garrison
    ("infantry landing on planet - battle initiated ... either gets destroyed or you win
    control"): each garrison point destroys one landing unit; with none left the planet
    stays neutral and its tile face down."""
    s = _garrisoned(rd, "harvester", 2)
    rd.do(s, "land B2a")
    p = rd.pid(s, "B2a")
    assert s.planet_owner[p] == -1 and not s.tile_revealed[p]
    assert rd.units_of(s, 0, "infantry") == [] and s.resources[0] == 5


def test_a_landing_larger_than_the_garrison_takes_the_planet(rd):
    """RD-PLC-12 (ruling RD-OPEN-25): three infantry against a garrison of 2: two fall, the
    third lands and the harvester's resources are paid; the garrison does not fight
    civilized planets, which are bought (RD-PLC-04)."""
    s = _garrisoned(rd, "harvester", 3)
    rd.do(s, "land B2a")
    assert s.planet_owner[rd.pid(s, "B2a")] == 0 and s.resources[0] == 9
    assert len(rd.units_of(s, 0, "infantry")) == 1
    t = _garrisoned(rd, "civilized", 1)
    rd.do(t, "land B2a")
    assert t.planet_owner[rd.pid(t, "B2a")] == 0 and len(rd.units_of(t, 0, "infantry")) == 1
    u = rd.blank(board="classic")  # the classic board has no garrisons
    assert set(u.board.planet_garrison) == {0}
