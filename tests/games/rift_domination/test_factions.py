"""FACTIONS (RD-FAC-*): one test per ability kind used in content/factions.toml.

Only the Vespian sheet is printed (RD-FAC-03..11); the Timewarper (RD-MOV-14..16) and The
Void (RD-FAC-12) are described in the rulebook; the other sheets are designed from the same
ability vocabulary (ruling RD-OPEN-13). Each test builds a state with the faction and checks
the effect against a faction without the ability.
"""

from __future__ import annotations

import pytest

from starlanes.games.rift_domination import battle
from starlanes.games.rift_domination.rules import advance
from starlanes.games.rift_domination.turn import income_of, run_turn_end


def _kinds_in_content(content):
    return {a.kind for f in content.factions.values() for a in f.abilities}


TESTED_KINDS = {
    "trading_outpost_draw", "diplomat_recruits", "diplomat_shield", "wormhole_mastery",
    "consume", "income_bonus", "extra_draw", "extra_free_fighters", "unit_stat",
    "unit_discount", "upgrade_discount", "battle_win_reward", "dangerous_roll_bonus",
    "condition_bonus", "civilized_free", "first_strike", "hit_bonus", "system_control_bonus",
    "income_growth", "salvage", "outpost_bonus", "start_vp",
}


def test_every_ability_kind_in_content_has_a_test(rd):
    """RD-FAC-01 / RD-FAC-02: 30 faction sheets, each with its own mechanic; every ability
    kind they use is covered by a test in this module."""
    s = rd.blank()
    assert len(s.content.factions) == 30
    assert _kinds_in_content(s.content) <= TESTED_KINDS
    for f in s.content.factions.values():
        assert f.name and f.text and f.roster and f.start_units


def _turn_start(rd, faction, *top):
    s = rd.blank(phase="turn_start", factions=[faction, rd.NEUTRAL])
    s.step = 1
    rd.stack_deck(s, *top)
    return s


DECK = ("supply_convoy", "triumph", "piracy", "sabotage", "investment", "hyperdrive_boost")


# ---------------------------------------------------------------------------- Vespians
def test_vespian_trading_outposts_draw_two(rd):
    """RD-FAC-03 (trading_outpost_draw): each Vespian trading outpost gives +2 OCC-cards
    instead of one: 2 + 2 at the start of the turn."""
    s = _turn_start(rd, "vespians", *DECK)
    rd.own(s, "B1a", 0, ("military_base", "trading_outpost"))
    advance(s)
    assert len(s.hands[0]) == 4
    t = _turn_start(rd, rd.NEUTRAL, *DECK)
    rd.own(t, "B1a", 0, ("military_base", "trading_outpost"))
    advance(t)
    assert len(t.hands[0]) == 3


def test_vespian_diplomats_recruit_fighters_and_infantry(rd):
    """RD-FAC-04 (diplomat_recruits): a Vespian diplomat lets its player recruit fighters and
    infantry at its planet, with no military base there; other units still need a base."""
    s = rd.blank(phase="recruit", factions=["vespians", rd.NEUTRAL])
    rd.place(s, 0, "carrier", "C1a")
    rd.place(s, 0, "diplomat", "C1a")
    s.resources[0] = 10
    rd.touch(s)
    here = sorted(a for a in rd.legal(s) if a.startswith("recruit") and a.endswith("C1a"))
    assert here == ["recruit fighter C1a", "recruit infantry C1a"]
    rd.do(s, "recruit infantry C1a")
    assert len(rd.units_of(s, 0, "infantry", at="C1a")) == 1
    t = rd.blank(phase="recruit", factions=["aurelian_concord", rd.NEUTRAL])
    rd.place(t, 0, "diplomat", "C1a")
    t.resources[0] = 10
    rd.touch(t)
    assert not any(a.startswith("recruit") for a in rd.legal(t))


def test_vespian_diplomat_shield_is_vespian_only(rd):
    """RD-FAC-05 (diplomat_shield): the Vespians, and no faction without the ability, may
    sacrifice a diplomat instead of resolving an instant card (see test_occ for the
    hostile-card case)."""
    for faction, offered in (("vespians", True), ("aurelian_concord", False)):
        s = _turn_start(rd, faction, "reactor_leak", "triumph")
        rd.place(s, 0, "diplomat", "B1a", landed=True)
        advance(s)
        assert (bool(s.stack) and s.stack[-1].kind == "instant") is offered


# ---------------------------------------------------------------------------- The Void
@pytest.mark.parametrize("kind,value", [("anomaly", 2), ("harvester", 8), ("dangerous", 6),
                                        ("civilized", 0)])
def test_the_void_consumes_for_the_same_reward(rd, kind, value):
    """RD-FAC-12 (consume): The Void consumes an uncontrolled planet and gets the same reward
    (3 resources) whatever its condition tile; no die is rolled and no tile reward paid."""
    s = rd.blank(factions=["the_void", rd.NEUTRAL])
    rd.tile(s, "C1a", kind, value)
    rd.place(s, 0, "carrier", "C1a")
    rd.dice(s)
    assert "consume C1a" in rd.legal(s)
    rd.do(s, "consume C1a")
    assert s.planet_owner[rd.pid(s, "C1a")] == 0
    assert s.resources[0] == 3 and s.vp[0] == 0


def test_the_void_cannot_consume_owned_planets(rd):
    """RD-FAC-12: only planets nobody controls can be consumed."""
    s = rd.blank(factions=["the_void", rd.NEUTRAL])
    rd.own(s, "C1a", 1)
    rd.place(s, 0, "carrier", "C1a")
    assert "consume C1a" not in rd.legal(s)


# ---------------------------------------------------------------------------- economy
def test_income_bonus(rd):
    """income_bonus (Aurelian Concord): 2 extra resources with every income."""
    s = rd.blank(factions=["aurelian_concord", rd.NEUTRAL])
    assert income_of(s, 0) == income_of(s, 1) + 2


def test_extra_draw(rd):
    """extra_draw (Seers of Ilune): 1 extra OCC-card at the start of every turn."""
    s = _turn_start(rd, "ilune_seers", *DECK)
    advance(s)
    assert len(s.hands[0]) == 3


def test_extra_free_fighters(rd):
    """extra_free_fighters (Xith Swarm): 2 more free fighters every turn (4 in all)."""
    s = _turn_start(rd, "xith_swarm", *DECK)
    rd.own(s, "B1a", 0, ("military_base",))
    advance(s)
    assert s.stack[-1].data == (4,)
    rd.do(s, "fighters B1a")
    assert len(rd.units_of(s, 0, "fighter")) == 4


def test_income_growth(rd):
    """income_growth (Verdant Bloom): the resource-per-round counter rises by 2 a turn."""
    s = _turn_start(rd, "verdant_bloom", *DECK)
    advance(s)
    assert s.income[0] == s.content.rules.income_start + 2


def test_start_vp(rd):
    """start_vp (Ashen Conclave): the faction starts the game with 2 VP."""
    s = rd.fresh(2, 1, factions=["ashen_conclave", "korrath_hegemony"])
    assert s.vp == [2, 0]


def test_unit_discount(rd):
    """unit_discount: Helix Foundry pays 1 less for every unit (never below 1); Nyx Reavers
    pay 1 less for kamikaze drones only."""
    s = rd.blank(phase="recruit", factions=["helix_foundry", rd.NEUTRAL])
    rd.own(s, "B1a", 0, ("military_base",))
    s.resources[0] = 3
    rd.touch(s)
    rd.do(s, "recruit carrier B1a")
    assert s.resources[0] == 2
    rd.do(s, "recruit fighter B1a")
    assert s.resources[0] == 1
    t = rd.blank(phase="recruit", factions=["nyx_reavers", rd.NEUTRAL])
    rd.own(t, "B1a", 0, ("military_base",))
    t.resources[0] = 2
    rd.touch(t)
    rd.do(t, "recruit kamikaze_drone B1a")
    assert t.resources[0] == 1
    assert "recruit carrier B1a" not in rd.legal(t)


def test_upgrade_discount(rd):
    """upgrade_discount: Orrin Architects pay 1 less for every upgrade; Graviton Order pay 2
    less for warps only."""
    s = rd.blank(phase="build", factions=["orrin_architects", "graviton_order"])
    rd.own(s, "B1a", 0)
    s.resources[0] = 3
    rd.touch(s)
    rd.do(s, "build mine B1a")
    assert s.resources[0] == 0
    s.phase, s.seat = "build", 1
    rd.own(s, "E2a", 1)
    s.resources[1] = 2
    rd.touch(s)
    assert "build warp E2a" in rd.legal(s) and "build mine E2a" not in rd.legal(s)
    rd.do(s, "build warp E2a")
    assert s.resources[1] == 0


def test_unit_stat(rd):
    """unit_stat: Sollen Shipwrights' carriers carry 2 more (6); Ghostwing corvettes have
    1 more movement point (4)."""
    s = rd.blank(factions=["sollen_shipwrights", "ghostwing_syndicate"])
    assert s.stats[0]["carrier"].capacity == 6 and s.stats[1]["carrier"].capacity == 4
    rd.place(s, 0, "carrier", "B1")
    inf = rd.place(s, 0, "infantry", "B1", n=7)
    rd.do(s, "move B1 C1")
    assert sum(s.units[u].loc == rd.pt(s, "C1") for u in inf) == 6
    assert s.stats[1]["corvette"].mp == 4 == s.stats[0]["corvette"].mp + 1
    (c,) = rd.place(s, 1, "corvette", "E2", mp=0)
    from starlanes.games.rift_domination.turn import reset_movement

    reset_movement(s, 1)
    assert s.units[c].mp == 4


# ---------------------------------------------------------------------------- planets
def _lander(rd, faction, kind, value, resources=0):
    s = rd.blank(factions=[faction, rd.NEUTRAL])
    rd.tile(s, "C1a", kind, value)
    rd.tile(s, "C1b", "civilized")
    rd.place(s, 0, "carrier", "C1a")
    rd.place(s, 0, "infantry", "C1a")
    s.resources[0] = resources
    rd.stack_deck(s, *DECK)
    return s


def test_dangerous_roll_bonus(rd):
    """dangerous_roll_bonus (Kesh): +1 to the dangerous-planet roll: a 2 succeeds, a 1 still
    fails (RD-PLC-07/08)."""
    s = _lander(rd, "kesh_nomads", "dangerous", 4)
    rd.dice(s, 2)
    rd.do(s, "land C1a")
    assert s.planet_owner[rd.pid(s, "C1a")] == 0
    t = _lander(rd, "kesh_nomads", "dangerous", 4)
    rd.dice(t, 1)
    rd.do(t, "land C1a")
    assert t.planet_owner[rd.pid(t, "C1a")] == -1


def test_condition_bonus(rd):
    """condition_bonus: Lumen Synod +1 VP on anomaly planets; Tessari +2 resources on
    harvester planets."""
    s = _lander(rd, "lumen_synod", "anomaly", 1)
    rd.do(s, "land C1a")
    assert s.vp[0] == 2
    t = _lander(rd, "tessari_traders", "harvester", 4)
    rd.do(t, "land C1a")
    assert t.resources[0] == 6


def test_civilized_free(rd):
    """civilized_free (Quorum of Seval): civilized planets are taken with infantry without
    paying the 2 resources (RD-PLC-04)."""
    s = _lander(rd, "seval_quorum", "civilized", 0, resources=0)
    assert "land C1a" in rd.legal(s)
    rd.do(s, "land C1a")
    assert s.planet_owner[rd.pid(s, "C1a")] == 0 and s.resources[0] == 0
    assert len(s.hands[0]) == 1


def test_system_control_bonus(rd):
    """system_control_bonus (Meridian Accord): 3 resources each time a whole system is
    gained, besides the 1 VP (RD-SYS-04)."""
    s = _lander(rd, "meridian_accord", "harvester", 4)
    rd.own(s, "C1b", 0)
    s.unlocks[0] = 2
    rd.do(s, "land C1a")
    assert s.resources[0] == 4 + 3 and s.vp[0] == 1


# ---------------------------------------------------------------------------- battle
def _space(rd, a_faction, d_faction, attackers, defenders, rolls):
    s = rd.blank(factions=[a_faction, d_faction])
    for k in attackers:
        rd.place(s, 0, k, "B1")
    for k in defenders:
        rd.place(s, 1, k, "C1")
    rd.dice(s, *rolls)
    rd.do(s, "move B1 C1")
    return s


def test_battle_win_reward(rd):
    """battle_win_reward (Korrath Hegemony): each won battle also pays 3 resources, besides
    the 1 VP (RD-WIN-05)."""
    s = _space(rd, "korrath_hegemony", "aurelian_concord", ["carrier"], ["fighter"], [6, 1])
    rd.finish_battle(s)
    assert s.vp[0] == 1 and s.resources[0] == 3
    t = _space(rd, "aurelian_concord", "korrath_hegemony", ["carrier"], ["fighter"], [6, 1])
    rd.finish_battle(t)
    assert t.vp[0] == 1 and t.resources[0] == 0


def test_salvage(rd):
    """salvage (Marrow Collective): 1 resource per enemy unit destroyed in a won battle."""
    s = _space(rd, "marrow_collective", "aurelian_concord", ["destroyer"],
               ["fighter", "fighter"], [6, 6, 6, 1, 1])
    rd.finish_battle(s)
    assert not rd.units_of(s, 1)
    assert s.resources[0] == 2 and s.vp[0] == 1


def test_first_strike(rd):
    """first_strike (Vigil of Thane): when attacked, its units fire before the attacker's."""
    s = _space(rd, "aurelian_concord", "thane_vigil", ["carrier"], ["carrier"], [])
    assert s.battle.order == [1, 0]
    t = _space(rd, "aurelian_concord", "korrath_hegemony", ["carrier"], ["carrier"], [])
    assert t.battle.order == [0, 1]


def test_hit_bonus(rd):
    """hit_bonus (Pyre Legion): +1 to close range hit rolls: a 4 hits at far range, where
    close weapons need 5-6 (RD-HIT-06)."""
    s = _space(rd, "pyre_legion", "aurelian_concord", ["carrier"], ["fighter"], [4, 1])
    rd.finish_battle(s)
    assert not rd.units_of(s, 1) and s.vp[0] == 1


def test_outpost_bonus(rd):
    """outpost_bonus (Iron Bastion): its planet outposts have 2 more LP and 1 more close
    weapon than the printed outpost (RD-BAT-14: 1 close, 2 LP)."""
    s = rd.blank(factions=["aurelian_concord", "iron_bastion"])
    rd.own(s, "C1a", 1)
    (inf,) = rd.place(s, 0, "infantry", "C1a")
    rd.dice(s, *([1] * 40))
    battle.start_ground_battle(s, 0, rd.pid(s, "C1a"), [inf], bombard=False)
    o = s.battle.fighters[-1]
    assert (o.lp, o.close) == (4, 2)


def test_round_end_keeps_faction_state(rd):
    """RD-FAC-02: faction abilities belong to the seat for the whole game: they survive the
    end of a turn and round."""
    s = rd.blank(factions=["aurelian_concord", "vespians"], phase="turn_end", seat=1)
    run_turn_end(s)
    assert s.fx[0].income_bonus == 2 and s.fx[1].diplomat_shield
