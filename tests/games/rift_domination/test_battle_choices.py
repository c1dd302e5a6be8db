"""Battle rulings and the owner's choices in battle: fire within a phase (RD-BAT-04/10,
RD-OPEN-07), Repair Rush (RD-SKL-01), Overload (RD-SKL-09/10), retreat and landing
(RD-BAT-08/09, RD-OPEN-09/10), Weapon Industry (RD-OCC-07), recruitment cards in battle
(RD-OCC-06), bombardment (RD-OPEN-18) and the VP floor (RD-OCC-05).

Positions are built with the helpers of ``test_battle`` (neutral factions, fixed dice: a
roll the test does not list fails it).
"""

from __future__ import annotations

import random

import pytest

import starlanes
from starlanes.games.rift_domination import occ

from .test_battle import dice, fighter, ground, make_state, pass_to, passes, pending, space


def legal(s):
    return sorted(str(a) for a in s.legal_actions())


def to_pending(s, kind):
    """Pass OCC windows (and Overload windows) until a ``kind`` decision is pending."""
    while s.battle is not None and s.battle.pending[0] != kind:
        assert s.battle.pending[0] in ("cancel", "cards", "overload"), s.battle.pending
        s.apply_notation("pass")


# ---------------------------------------------------------------------- fire in a phase
def test_simultaneous_fire_units_killed_in_a_phase_still_fire():
    """RD-BAT-10 ("at the end of each phase, damage is dealt"), ruling RD-OPEN-07 default:
    the defender destroyed by the attacker's volley still fires in that phase, and both
    casualties fall together at its end: nobody is left, nobody wins."""
    s = make_state()
    (a,), (d,) = space(s, ["gun_long"], ["gun_long"], [2, 2])
    passes(s)
    assert s.battle is None and a not in s.units and d not in s.units
    assert s.vp == [0, 0]


def test_sequential_fire_is_an_option():
    """RD-BAT-04, option battle_fire="sequential": the same position, but the attacker's
    casualties fall first, so the defender never fires and the attacker wins."""
    s = make_state(battle_fire="sequential")
    (a,), (d,) = space(s, ["gun_long"], ["gun_long"], [2])
    passes(s)
    assert s.battle is None and a in s.units and d not in s.units and s.vp == [1, 0]


def test_first_strike_volley_is_resolved_before_the_attacker_fires():
    """First strike (designed faction ability) keeps its meaning with simultaneous fire:
    the defender's volley and its casualties come before the attacker fires."""
    from starlanes.games.rift_domination.factions import FactionRules

    s = make_state()
    s.fx[1] = FactionRules("b", first_strike=True)
    (a,), (d,) = space(s, ["gun_long"], ["gun_long"], [2])
    passes(s)
    assert a not in s.units and d in s.units and s.vp == [0, 1]


# ---------------------------------------------------------------------- Repair Rush
def test_repair_rush_is_the_owners_choice_and_can_be_kept():
    """RD-SKL-01: after the enemy dealt damage the owner may use Repair Rush or keep it;
    nothing is negated automatically."""
    s = make_state()
    _, (r, f) = space(s, ["gun_long"] * 3, ["repair_ship", "fighter"], [2, 2, 2, 1, 1])
    passes(s)
    s.apply_notation("hit fighter")  # the other two hits go to the repair ship
    assert pending(s)[:2] == ("rush", 1)
    assert legal(s) == ["pass", "rush 1", "rush 2", "rush 3"]
    s.apply_notation("pass")
    assert f not in s.units  # not saved
    rs = fighter(s, r)
    assert (rs.sh, rs.lp) == (0, 1) and "repair_rush" not in rs.used


def test_repair_rush_negates_up_to_four_over_the_battle():
    """RD-SKL-01 ("negate 4 damage in one battle"), RD-BAT-13 (units that negate damage):
    3 now saves the fighter and mends the ship; in the next phase only the 1 left can be
    used."""
    s = make_state()
    _, (r, f) = space(s, ["gun_long"] * 3, ["repair_ship", "fighter"],
                      [2, 2, 2, 1, 1, 3, 3, 1, 1, 1])
    passes(s)
    s.apply_notation("hit fighter")
    s.apply_notation("rush 3")
    assert f in s.units
    rs = fighter(s, r)
    assert (rs.sh, rs.lp) == (1, 2)
    # mid range: long weapons hit on 3+; two hits on the repair ship
    to_pending(s, "hit")
    s.apply_notation("hit repair_ship")
    s.apply_notation("hit repair_ship[2/0]")
    assert pending(s)[:2] == ("rush", 1)
    assert legal(s) == ["pass", "rush 1"]
    s.apply_notation("rush 1")
    assert (rs.sh, rs.lp) == (0, 2)


def test_sequential_repair_rush_saves_a_unit_before_it_would_fire():
    """RD-SKL-01 with battle_fire="sequential": the choice comes after the attacker's
    volley, before its casualties fall, so the saved fighter fires back."""
    s = make_state(battle_fire="sequential")
    (g,), (r, f) = space(s, ["gun_long"], ["repair_ship", "fighter"], [2, 1, 6])
    passes(s)
    s.apply_notation("hit fighter")
    assert pending(s)[:2] == ("rush", 1) and legal(s) == ["pass", "rush 1"]
    s.apply_notation("rush 1")
    assert any("rolls [1, 6]" in x for x in s.log_lines)  # both defenders fired
    assert s.battle is None and f in s.units and g not in s.units and s.vp == [0, 1]


# ---------------------------------------------------------------------- Overload
def _overload_all(s, *groups):
    """Place Overload shields on the named groups in turn (a group's label changes once it
    holds extra shields, so the prefix picks it)."""
    for g in groups:
        a = next(a for a in s.legal_actions() if str(a).startswith(f"overload {g}"))
        s.apply(a)


def test_overload_any_split():
    """RD-SKL-09 ("split it as you please"): the 4 shields go one at a time, here 2 and 2,
    and only the first may be declined."""
    s = make_state()
    (sup, g), _ = space(s, ["support", "gun_long"], ["dummy"], [1, 1])
    to_pending(s, "overload")
    assert pending(s)[:2] == ("overload", 0)
    assert legal(s) == ["overload gun_long", "overload support", "pass"]
    _overload_all(s, "gun_long")
    assert "pass" not in legal(s)
    _overload_all(s, "support", "gun_long", "support")
    assert fighter(s, g).sh == 2 and fighter(s, sup).sh == 1 + 2


def test_defender_overloads_before_the_first_volley():
    """RD-SKL-09/10: the defender's support unit may overload before the attacker fires
    (no die has been rolled yet)."""
    s = make_state()
    _, (sup,) = space(s, ["gun_long"], ["support"])  # no dice listed: none may be rolled
    to_pending(s, "overload")
    assert pending(s)[:2] == ("overload", 1)
    dice(s, *([1] * 40))
    _overload_all(s, "support", "support", "support", "support")
    assert fighter(s, sup).sh == 1 + 4


def test_shield_generator_overload_before_the_landing_fires():
    """RD-UPG-17 with RD-SKL-09, ruling RD-OPEN-27: the shield generator overloads for the
    planet before the first volley of the ground battle."""
    s = make_state()
    ground(s, ["infantry"], [], upgrades=("shield_generator",))
    to_pending(s, "overload")
    assert pending(s)[:2] == ("overload", 1)
    dice(s, *([1] * 40))
    _overload_all(s, "outpost", "shield_generator", "shield_generator", "outpost")
    assert s.battle.fighters[-1].sh == 2 and s.battle.fighters[-2].sh == 1 + 2


def test_overload_is_used_once_per_battle_and_may_wait():
    """RD-SKL-10: once per battle per support unit; passing keeps it for a later phase."""
    s = make_state()
    space(s, ["support", "gun_close"], ["dummy"], [1] * 12)
    windows = uses = 0
    while s.battle is not None:
        kind = s.battle.pending[0]
        if kind == "overload":
            windows += 1
            if windows == 1:
                s.apply_notation("pass")
            else:
                uses += 1
                _overload_all(s, "support", "support", "support", "support")
        elif kind == "retreat" and s.battle.close_rounds >= 2:
            s.apply_notation("retreat")
        else:
            s.apply(s.legal_actions()[-1] if kind == "retreat" else s.legal_actions()[0])
    assert (windows, uses) == (2, 1)


# ---------------------------------------------------------------------- retreat, landing
def test_ground_defender_may_retreat_and_gives_the_planet_up():
    """RD-BAT-08 ("Retreat (attacker or defender)"), ruling RD-OPEN-09: the planet's landed
    defenders may retreat into the orbit; the attacker wins and takes the planet."""
    s = make_state()
    (i1, i2), (g,), _ = ground(s, ["infantry", "infantry"], [1] * 8, garrison=["infantry"])
    passes(s)
    assert pending(s)[:2] == ("retreat", 0)
    s.apply_notation("stay")
    assert pending(s)[:2] == ("retreat", 1)
    s.apply_notation("retreat")
    assert s.battle is None and s.planet_owner[4] == 0
    u = s.units[g]
    assert not u.landed and u.loc == s.board.planet_point[4]
    assert s.vp == [1, 0]


def test_ground_defenders_avoid_an_orbit_held_by_enemy_ships():
    """Ruling RD-OPEN-09: with the attacker's ship in the orbit, retreating defenders go to
    the first adjacent point without enemy units."""
    s = make_state()
    _, (g,), _ = ground(s, ["infantry"], [1] * 6, garrison=["infantry"], orbit=["carrier"])
    passes(s)
    s.apply_notation("stay")
    s.apply_notation("retreat")
    u = s.units[g]
    assert u.loc != s.board.planet_point[4] and not u.landed
    assert u.loc in s.board.neighbors[s.board.planet_point[4]]
    assert s.planet_owner[4] == 0


def test_a_retreated_landing_cannot_land_again_before_it_arrives_anew():
    """RD-BAT-09 (landing is phase 5 of the battle), ruling RD-OPEN-10: a landing that
    retreated into orbit may not land again at once; moving away and back (a new arrival,
    paid in movement points) allows it."""
    s = make_state()
    (i,), _, (c,) = ground(s, ["infantry"], [1, 1, 1, 1], orbit=["carrier"])
    name = s.board.planet_ids[4]
    passes(s)
    s.apply_notation("retreat")
    assert s.battle is None and s.vp == [0, 1]
    assert f"land {name}" not in legal(s)
    s.units[c] = s.units[c]._replace(mp=2)
    s._legal = None
    s.apply_notation(f"move {name} C1")
    s.apply_notation(f"move C1 {name}")
    assert s.units[i].loc == s.board.planet_point[4] and s.units[c].mp == 0
    assert f"land {name}" in legal(s)


def test_ground_attacker_retreat_lifts_back_into_orbit():
    """Ruling RD-OPEN-09: a landing that retreats goes back into orbit; a planet whose
    defence is buildings only has nobody who could retreat."""
    s = make_state()
    (i,), _, _ = ground(s, ["infantry"], [1, 1, 1, 1])
    passes(s)
    assert pending(s)[:2] == ("retreat", 0)
    s.apply_notation("retreat")
    u = s.units[i]
    assert s.battle is None and not u.landed and u.loc == s.board.planet_point[4]
    assert s.planet_owner[4] == 1 and s.vp == [0, 1]


# ---------------------------------------------------------------------- cards
@pytest.mark.parametrize(("reading", "left"), [("phase", (0, 1)), ("one_shot", (0, 2))])
def test_weapon_industry_readings(reading, left):
    """RD-OCC-07 (FAQ: one target per hit, 2 damage instead of 1), option weapon_industry:
    every hit of the player's volley in the phase deals 2 ("phase"), or only one hit does
    ("one_shot"). Two hits on a cruiser (2 shields, 3 LP): 4 or 3 damage."""
    s = make_state(weapon_industry=reading)
    s.hands[0] = ["weapon_industry"]
    _, (d,) = space(s, ["gun_long", "gun_long"], ["cruiser"], [2, 2, 1, 1, 1, 1])
    s.apply_notation("pass")  # cancel window
    s.apply_notation("play weapon_industry")
    pass_to(s, 1)
    f = fighter(s, d)
    assert (f.sh, f.lp) == left


def test_destroyer_requisition_can_be_played_in_battle():
    """FAQ: recruitment OCC-cards can be played in a battle (RD-OCC-06): the own-turn
    Destroyer Requisition puts its destroyer into the fight."""
    s = make_state()
    s.hands[0] = ["destroyer_requisition"]
    space(s, ["dummy"], ["dummy"], [1] * 40)
    s.apply_notation("pass")  # cancel window
    assert "play destroyer_requisition" in legal(s)
    s.apply_notation("play destroyer_requisition")
    assert [f.kind for f in s.battle.fighters.values() if f.side == 0] == ["dummy", "destroyer"]
    assert "destroyer_requisition" in s.discard


# ---------------------------------------------------------------------- bombardment, VP
def test_bombardment_alone_takes_the_planet_but_scores_no_battle():
    """Ruling RD-OPEN-18: a flagship's Bombardment II destroys the outpost before any die is
    rolled; the landing takes the planet, but no battle was fought, so no battle VP."""
    s = make_state()
    (i,), _, _ = ground(s, ["infantry"], [], orbit=["flagship"])
    assert s.battle is None and s.planet_owner[4] == 0 and s.units[i].landed
    assert s.vp == [0, 0]
    assert any("no battle was fought" in x for x in s.log_lines)


def test_vp_never_below_zero_and_the_log_says_so():
    """RD-OCC-05 (a card makes its player lose VP), ruling: VP cannot go below 0; a lost VP
    that is not there is reported as such, never as "-1 VP"."""
    s = make_state()
    occ.resolve_effect(s, 0, "public_scandal", "", 0)
    assert s.vp == [0, 0]
    assert "-1 VP" not in s.log_lines[-1] and "no VP to lose" in s.log_lines[-1]
    s.vp[0] = 2
    occ.resolve_effect(s, 0, "public_scandal", "", 0)
    assert s.vp[0] == 1 and "-1 VP" in s.log_lines[-1]


# ---------------------------------------------------------------------- determinisation
def test_determinisation_never_deals_instant_cards_into_hidden_hands():
    """RD-OCC-03: instant cards are revealed and resolved when drawn, so no hand holds one
    unseen; a determinisation keeps that fact (and everything the seat can observe)."""
    s = starlanes.load("rift-domination", players=3, seed=5).new_initial_state()
    while s.phase.startswith("setup"):
        s.apply(s.legal_actions()[0])
    instants = {c for c, card in s.content.cards.items() if card.timing == "instant"}
    assert any(c in instants for c in s.deck)
    obs = s.observation(0)
    rng = random.Random(3)
    for _ in range(60):
        t = s.determinize(0, rng)
        assert t.observation(0) == obs
        for seat in (1, 2):
            assert not instants & set(t.hands[seat])
            assert len(t.hands[seat]) == len(s.hands[seat])
        assert sorted(t.deck + t.hands[1] + t.hands[2]) == sorted(
            s.deck + s.hands[1] + s.hands[2])

