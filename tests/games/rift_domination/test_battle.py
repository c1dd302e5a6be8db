"""Battles: BATTLE, WEAPONS AND RANGE, UNIT-SKILLS (RD-BAT-*, RD-HIT-*, RD-SKL-*, RD-WIN-05).

Positions are built directly on a state whose set-up has been played; factions are made
neutral (no abilities, printed unit stats) and the dice are fixed, so every roll a test
does not list fails it.
"""

from __future__ import annotations

import pytest

import starlanes
from starlanes.games.rift_domination import battle
from starlanes.games.rift_domination.battle_model import HIT_TABLE, needed_roll
from starlanes.games.rift_domination.factions import FactionRules, UnitStats


def _stats(kind, lp=1, shields=0, close=0, mid=0, long=0, skills=(), ground=False, used=1):
    return UnitStats(kind=kind, cost=1, lp=lp, shields=shields, mp=0, close=close, mid=mid,
                     long=long, capacity=0, used_capacity=used, ground=ground,
                     skills=frozenset(skills))


def make_state(seed: int = 1, **options):
    options.setdefault("board", "classic")
    s = starlanes.load("rift-domination", players=2, seed=seed, **options).new_initial_state()
    while s.phase.startswith("setup"):
        s.apply(s.legal_actions()[0])
    s.stack.clear()
    s.units.clear()
    s.hands = [[], []]
    s.phase, s.seat = "move", 0
    s._legal = None
    neutral = {}
    for k, u in s.content.units.items():
        neutral[k] = UnitStats(kind=k, cost=u.cost, lp=u.lp, shields=u.shields, mp=u.mp,
                               close=u.close, mid=u.mid, long=u.long, capacity=u.capacity,
                               used_capacity=u.used_capacity, ground=u.ground,
                               skills=frozenset(u.skills))
    for w in ("close", "mid", "long"):
        neutral[f"gun_{w}"] = _stats(f"gun_{w}", **{w: 1})
    neutral["dummy"] = _stats("dummy", lp=20)
    s.stats = [dict(neutral), dict(neutral)]
    s.fx = [FactionRules("a"), FactionRules("b")]
    s.vp = [0, 0]
    s.resources = [0, 0]
    np_ = len(s.planet_owner)
    s.planet_owner = [-1] * np_
    s.planet_upgrades = [()] * np_
    s.system_owner = [-1] * len(s.system_owner)
    return s


def dice(s, *values):
    """Fix the next d6 results; one roll more than listed fails the test."""
    it = iter(values)

    def d6():
        try:
            return next(it)
        except StopIteration:
            raise AssertionError("more dice were rolled than the test expected") from None

    s.rng.d6 = d6
    return it


def pt(s, name):
    return s.board.index[name]


SPACE = "C1"
HOME = "B1"


def space(s, attackers, defenders, rolls=(), at=SPACE, start=True):
    """Put units at ``at`` (attackers came from B1) and start a space battle."""
    p = pt(s, at)
    a = [s.add_unit(0, k, p) for k in attackers]
    d = [s.add_unit(1, k, p) for k in defenders]
    dice(s, *rolls)
    if start:
        battle.start_space_battle(s, 0, p, {u: pt(s, HOME) for u in a})
    return a, d


def pending(s):
    return None if s.battle is None else s.battle.pending


def passes(s):
    """Pass every OCC window (and skip overload) until another decision or the end."""
    while s.battle is not None and s.battle.pending[0] in ("cancel", "cards", "overload"):
        s.apply_notation("pass")


def pass_to(s, phase):
    """Pass windows until the OCC window of ``phase`` (1 mid, 2 close) opens."""
    while not (s.battle.phase == phase and s.battle.pending[:2] == ("cards", s.battle.attacker)):
        s.apply_notation("pass")


def fighter(s, uid):
    return s.battle.fighters[uid]


def planet_setup(s, upgrades=(), owner=1):
    """Planet C1a (index 4) held by ``owner`` with ``upgrades``; C1b (5) held too so a
    capture does not complete the system."""
    s.planet_owner[4] = owner
    s.planet_owner[5] = owner
    s.planet_upgrades[4] = tuple(upgrades)
    return 4, s.board.planet_point[4]


def ground(s, landing, rolls=(), upgrades=(), garrison=(), orbit=(), bombard=True):
    p, point = planet_setup(s, upgrades)
    land = [s.add_unit(0, k, point, landed=True) for k in landing]
    gar = [s.add_unit(1, k, point, landed=True) for k in garrison]
    orb = [s.add_unit(0, k, point) for k in orbit]
    dice(s, *rolls)
    battle.start_ground_battle(s, 0, p, land, bombard=bombard)
    return land, gar, orb


# ---------------------------------------------------------------------- hit table
CELLS = [(w, r) for w in ("close", "mid", "long") for r in ("far", "mid", "close")]


@pytest.mark.parametrize(("weapon", "rng"), CELLS)
def test_hit_table_every_cell(weapon, rng):
    """RD-HIT-02, RD-HIT-04, RD-HIT-05, RD-HIT-06, RD-HIT-07, RD-HIT-08, RD-HIT-09,
    RD-HIT-10, RD-HIT-11, RD-HIT-12: the printed roll needed, for every weapon type and
    target range; one less misses. The target range is the section of the current phase
    (RD-BAT-11)."""
    need = HIT_TABLE[weapon][rng]
    assert needed_roll(weapon, ("far", "mid", "close").index(rng)) == need
    for roll, hits in ((need, 1), (need - 1, 0)):
        s = make_state()
        order = ("far", "mid", "close")
        rolls = [roll if r == rng else 1 for r in order]
        _, (d,) = space(s, [f"gun_{weapon}"], ["dummy"], rolls)
        passes(s)
        assert pending(s)[0] == "retreat"
        assert fighter(s, d).lp == 20 - hits


def test_printed_hit_table_values():
    """RD-HIT-04..12 as printed: close 2/4/5, mid 4/2/3, long 5/3/2 (close/mid/far)."""
    assert HIT_TABLE == {
        "close": {"close": 2, "mid": 4, "far": 5},
        "mid": {"close": 4, "mid": 2, "far": 3},
        "long": {"close": 5, "mid": 3, "far": 2},
    }


def test_one_always_misses_even_with_bonus():
    """RD-HIT-03: a 1 misses, also with a faction hit bonus or a hit_boost card."""
    assert needed_roll("close", 2, bonus=5) == 2
    s = make_state()
    s.fx[0] = FactionRules("a", hit_bonus={"long": 4})
    _, (d,) = space(s, ["gun_long"], ["dummy"], [1, 1, 1])
    passes(s)
    assert fighter(s, d).lp == 20


def test_faction_hit_bonus_lowers_the_roll():
    s = make_state()
    s.fx[0] = FactionRules("a", hit_bonus={"close": 2})
    _, (d,) = space(s, ["gun_close"], ["dummy"], [3, 2, 1])  # far needs 3, mid needs 2
    passes(s)
    assert fighter(s, d).lp == 18


# ---------------------------------------------------------------------- damage
def test_rulebook_example_fighter_and_carrier_kill_a_carrier():
    """RD-HIT-17, RD-HIT-18, RD-OPEN-02 ruling: white's fighter and carrier roll 2 dice at
    far range, one per close weapon (RD-HIT-01); 5-6 hits; 2 damage (shield, then LP)
    destroys green's carrier (RD-HIT-16), whose LP are gone (RD-HIT-15). With simultaneous
    fire (RD-BAT-10, ruling RD-OPEN-07) it still fires its volley of that phase: a 4 misses
    at far range."""
    s = make_state()
    space(s, ["fighter", "carrier"], ["carrier"], [5, 6, 4])
    passes(s)
    assert s.battle is None
    assert [u.owner for u in s.units.values()] == [0, 0]
    assert s.vp == [1, 0]


def test_rulebook_example_a_four_misses_at_far_range():
    s = make_state()
    _, (d,) = space(s, ["fighter", "carrier"], ["carrier"], [4, 6, 2])
    pass_to(s, 1)
    f = fighter(s, d)
    assert (f.sh, f.lp) == (0, 1)  # the shield took the only hit (RD-HIT-14)


def test_shields_before_lp():
    """RD-HIT-14: damage breaks the shields first."""
    s = make_state()
    _, (d,) = space(s, ["gun_long"], ["cruiser"], [2, 1, 1, 1, 1])
    pass_to(s, 1)
    f = fighter(s, d)
    assert (f.sh, f.lp) == (1, 3)


def test_sequential_fire_killed_units_do_not_fire_back():
    """RD-BAT-04, ruling RD-OPEN-07, option battle_fire="sequential": the attacker's
    casualties fall before the defender fires, so it fires only with survivors."""
    s = make_state(battle_fire="sequential")
    (a,), _ = space(s, ["gun_long"], ["fighter"], [2])  # one die only: the kill
    passes(s)
    assert s.battle is None and s.units[a].owner == 0 and len(s.units) == 1


def test_defender_survivors_fire_back():
    s = make_state()
    (a,), (d,) = space(s, ["fighter"], ["gun_long"], [1, 2])
    passes(s)
    assert s.battle is None and a not in s.units and d in s.units
    assert s.vp == [0, 1]


def test_first_strike_defender_fires_first():
    s = make_state()
    s.fx[1] = FactionRules("b", first_strike=True)
    (a,), (d,) = space(s, ["gun_long"], ["gun_long"], [2])  # the defender's die kills
    passes(s)
    assert a not in s.units and s.vp == [0, 1]


def test_hit_assignment_is_the_firing_players_choice():
    """RD-HIT-13: with several target groups the shooter chooses; damaged units form their
    own group."""
    s = make_state()
    _, (c1, c2, f) = space(s, ["gun_long", "gun_long"], ["carrier", "carrier", "fighter"],
                           [2, 2, 1, 1, 1])
    passes(s)
    assert pending(s)[:2] == ("hit", 0)
    assert sorted(str(a) for a in s.legal_actions()) == ["hit carrier", "hit fighter"]
    s.apply_notation("hit carrier")
    assert sorted(str(a) for a in s.legal_actions()) == [
        "hit carrier", "hit carrier[1/0]", "hit fighter"]
    s.apply_notation("hit carrier[1/0]")
    assert c1 not in s.units and c2 in s.units and f in s.units


def test_phases_far_mid_close_then_retreat():
    """RD-BAT-01, RD-BAT-02, RD-BAT-05, RD-BAT-06, RD-BAT-07, RD-BAT-08, RD-BAT-10: a space
    battle starts in the far section and moves one section closer after each phase:
    far -> mid -> close, then the retreat window."""
    s = make_state()
    space(s, ["gun_close"], ["dummy"], [1, 1, 1])
    passes(s)
    phases = [x for x in s.log_lines if x.endswith("range phase")]
    assert phases == ["far range phase", "mid range phase", "close range phase"]
    assert pending(s)[:2] == ("retreat", 0)


def test_ground_battle_starts_at_mid_range():
    """RD-BAT-03/05: the far phase is skipped in ground battles."""
    s = make_state()
    # infantry at mid (needs 4) misses; outpost at mid misses; close round follows
    ground(s, ["infantry"], [3, 3, 1, 1])
    passes(s)
    phases = [x for x in s.log_lines if x.endswith("range phase")]
    assert phases == ["mid range phase", "close range phase"]


# ---------------------------------------------------------------------- retreat
def test_attacker_retreats_to_where_it_came_from():
    """RD-BAT-08, RD-BAT-12, ruling RD-OPEN-09: retreat comes after close combat; no
    movement points used; the defender, still standing, wins."""
    s = make_state()
    (a,), _ = space(s, ["gun_close"], ["dummy"], [1, 1, 1])
    passes(s)
    s.apply_notation("retreat")
    assert s.battle is None
    assert s.units[a].loc == pt(s, HOME)
    assert s.vp == [0, 1]


def test_defender_retreats_to_a_free_adjacent_point():
    s = make_state()
    _, (d,) = space(s, ["gun_close"], ["gun_close"], [1] * 6)
    passes(s)
    s.apply_notation("stay")
    assert pending(s)[:2] == ("retreat", 1)
    s.apply_notation("retreat")
    assert s.battle is None
    assert s.units[d].loc in s.board.neighbors[pt(s, SPACE)]
    assert s.vp == [1, 0]


def test_staying_means_another_close_round():
    """RD-BAT-07: units stay in close combat; ruling: another close round is fought."""
    s = make_state()
    _, (d,) = space(s, ["gun_close"], ["gun_close"], [1] * 6 + [2, 1])
    passes(s)
    s.apply_notation("stay")
    s.apply_notation("stay")
    passes(s)
    assert s.battle is None and d not in s.units


def test_a_side_without_weapons_must_retreat():
    s = make_state()
    _, (d,) = space(s, ["gun_close"], ["dummy"], [1, 1, 1])
    passes(s)
    s.apply_notation("stay")
    assert s.battle is None
    assert s.units[d].loc in s.board.neighbors[pt(s, SPACE)]


def test_cancel_attack_sends_the_attackers_back():
    s = make_state()
    s.hands[1] = ["ceasefire"]
    (a,), _ = space(s, ["gun_close"], ["dummy"])
    assert pending(s)[:2] == ("cancel", 1)
    s.apply_notation("play ceasefire")
    # RD-OCC-04: the attacker may answer the card in its reaction window
    assert s.current_player() == 0 and s.stack[-1].kind == "counter"
    s.apply_notation("pass")
    assert s.battle is None and s.units[a].loc == pt(s, HOME) and s.vp == [0, 0]
    assert "ceasefire" in s.discard


# ---------------------------------------------------------------------- ground battles
def test_ground_battle_against_the_outpost_captures_the_planet():
    """RD-BAT-14: the outpost has 1 close weapon and 2 LP; RD-BAT-17: capture."""
    s = make_state()
    (i,), _, _ = ground(s, ["infantry"], [4, 3, 2, 1])
    passes(s)
    # mid: infantry 4 hits (outpost 2 -> 1), outpost 3 misses at mid (needs 4)
    # close: infantry 2 hits -> outpost destroyed, its last shot (1) misses
    assert s.battle is None
    assert s.planet_owner[4] == 0
    assert s.units[i].landed
    assert s.vp[0] >= 1 and s.vp[1] == 0


def test_outpost_fires_back():
    s = make_state()
    (i,), _, _ = ground(s, ["infantry"], [3, 4])
    passes(s)
    assert s.battle is None and i not in s.units and s.planet_owner[4] == 1
    assert s.vp == [0, 1]


def test_military_base_stats():
    """RD-UPG-15: 1 shield, 3 LP, 2 close and 2 mid weapons."""
    s = make_state()
    ground(s, ["infantry"], [1] * 6, upgrades=("military_base",))
    base = s.battle.fighters[-2]
    assert (base.kind, base.sh, base.lp, base.close, base.mid, base.long) == (
        "military_base", 1, 3, 2, 2, 0)
    out = s.battle.fighters[-1]
    assert (out.kind, out.lp, out.close) == ("outpost", 2, 1)
    pass_to(s, 2)  # mid: 1 infantry die + 5 defender dice (outpost 1, base 4): all miss
    assert s.battle.fighters[-2].lp == 3


def test_bombardment_hits_building_lp_skipping_shields():
    """RD-BAT-16, RD-SKL-04, RD-SKL-05, ruling RD-OPEN-18: the bomber deals 1 and the
    flagship's Bombardment II 2 damage to every building incl. the outpost."""
    s = make_state()
    ground(s, ["infantry"], upgrades=("military_base", "artillery"),
           orbit=["bomber", "flagship"])
    # 1 + 2 = 3 damage to the LP of each building: outpost (2) and artillery (1) and the
    # base (3) are all destroyed -> the landing wins at once
    assert s.battle is None and s.planet_owner[4] == 0
    assert s.planet_upgrades[4] == ()


def test_bombardment_single_damage():
    s = make_state()
    ground(s, ["infantry"], [1, 1, 1, 1, 1, 1], upgrades=("military_base",), orbit=["bomber"])
    f = s.battle.fighters
    assert (f[-1].lp, f[-2].lp, f[-2].sh) == (1, 2, 1)


def test_shield_generator_blocks_bombardment():
    """RD-SKL-06, RD-UPG-18."""
    s = make_state()
    ground(s, ["infantry"], [], upgrades=("shield_generator",), orbit=["flagship"])
    f = s.battle.fighters
    assert (f[-1].lp, f[-2].lp, f[-2].sh) == (2, 1, 1)


def test_capture_keeps_mines_and_trading_posts_but_not_fortifications():
    """RD-BAT-17/18."""
    s = make_state()
    s.planet_owner[4] = s.planet_owner[5] = 1
    s.planet_upgrades[4] = ("mine", "artillery")
    point = s.board.planet_point[4]
    land = [s.add_unit(0, "infantry", point, landed=True)]
    s.add_unit(0, "flagship", point)
    dice(s)
    battle.start_ground_battle(s, 0, 4, land)  # bombardment II destroys outpost + artillery
    assert s.battle is None and s.planet_owner[4] == 0
    assert s.planet_upgrades[4] == ("mine",)


def test_defender_win_keeps_fortifications_and_restores_damage():
    s = make_state()
    ground(s, ["infantry"], [4, 1, 1, 6], upgrades=("artillery", "trading_outpost"))
    passes(s)  # mid: the infantry hits; its owner chooses the target
    assert pending(s)[:2] == ("hit", 0)
    assert {str(a) for a in s.legal_actions()} == {"hit outpost", "hit artillery"}
    s.apply_notation("hit outpost")
    # outpost close misses, artillery close misses, artillery mid 6 kills the infantry
    assert s.battle is None and s.planet_owner[4] == 1 and s.vp == [0, 1]
    assert s.planet_upgrades[4] == ("artillery", "trading_outpost")


def test_destroyed_fortification_is_gone_even_if_the_defender_wins():
    s = make_state()
    ground(s, ["infantry"], [4, 1, 1, 2], upgrades=("artillery", "trading_outpost"))
    passes(s)
    s.apply_notation("hit artillery")
    passes(s)  # outpost misses at mid; close: infantry misses, outpost hits
    assert s.battle is None and s.planet_owner[4] == 1
    assert s.planet_upgrades[4] == ("trading_outpost",)


# ---------------------------------------------------------------------- skills
def test_taunt_must_be_destroyed_first():
    """RD-SKL-12."""
    s = make_state()
    _, (g, f) = space(s, ["gun_long", "gun_long"], ["goliath", "fighter"], [2, 2, 1, 1, 1, 1])
    assert s.battle.targets(1) == {"goliath": g}
    pass_to(s, 1)
    assert (fighter(s, g).sh, fighter(s, g).lp) == (0, 4)  # both hits forced onto it
    assert fighter(s, f).lp == 1


def test_rocket_barrage_at_the_start():
    """RD-SKL-02: up to 3 enemy fighters, 4+ destroys each; automatic at the start."""
    s = make_state()
    _, d = space(s, ["missile_frigate"], ["fighter"] * 4, [4, 3, 6] + [1] * 5)
    pass_to(s, 1)
    alive = [u for u in d if u in s.units]
    assert len(alive) == 2


def test_kamikaze_strikes_back():
    """RD-SKL-03: destroyed, roll 3+ -> 3 damage to an enemy ship of its owner's choice."""
    s = make_state()
    (c, f), _ = space(s, ["cruiser", "fighter"], ["kamikaze_drone"],
                      [1, 1, 1, 2, 1, 1, 3])
    # far: cruiser close/mid/mid miss, long 2 hits; fighter misses; the drone fires its
    # last shot (1, a miss), is removed at the end of the phase and rolls 3
    passes(s)
    assert pending(s)[:2] == ("kamikaze", 1)
    assert {str(a) for a in s.legal_actions()} == {"kamikaze cruiser", "kamikaze fighter"}
    s.apply_notation("kamikaze cruiser")
    # 3 damage: 2 shields and 1 LP; the attacker wins and the lost LP stays as a wound
    assert s.battle is None and s.units[c].wounds == 1 and s.vp == [1, 0]


def test_repair_bldg_negates_one_building_damage():
    """RD-SKL-13."""
    s = make_state()
    ground(s, ["infantry"], [4, 1, 1], garrison=["engineer"])
    passes(s)
    s.apply_notation("hit outpost")
    out = s.battle.fighters[-1]
    assert out.lp == 2


def test_defensive_ring_at_home():
    """RD-SKL-11, ruling RD-OPEN-17: +2 LP and +2 shields in a system where the owner
    controls a planet."""
    s = make_state()
    s.planet_owner[4] = 1
    _, (d,) = space(s, ["gun_close"], ["sentinel"], [1, 1, 1])
    f = fighter(s, d)
    assert (f.lp, f.sh) == (5, 3)
    s2 = make_state()
    _, (d2,) = space(s2, ["gun_close"], ["sentinel"], [1, 1, 1])
    assert (fighter(s2, d2).lp, fighter(s2, d2).sh) == (3, 1)


# ---------------------------------------------------------------------- OCC-cards
def test_weapon_industry_deals_two_per_hit():
    """RD-OCC-07: still one target per hit, but 2 damage."""
    s = make_state()
    s.hands[0] = ["weapon_industry"]
    (a,), (d,) = space(s, ["gun_long"], ["cruiser"], [2, 1, 1, 1, 1])
    s.apply_notation("pass")  # cancel window
    s.apply_notation("play weapon_industry")
    assert "weapon_industry" in s.discard
    pass_to(s, 1)
    f = fighter(s, d)
    assert (f.sh, f.lp) == (0, 3)


def test_skill_block_stops_enemy_skills():
    s = make_state()
    s.hands[1] = ["jamming_field"]
    space(s, ["missile_frigate"], ["fighter"], [1] * 4)
    s.apply_notation("pass")
    s.apply_notation("pass")
    s.apply_notation("play jamming_field")
    pass_to(s, 1)
    assert not any("rocket barrage" in x for x in s.log_lines)


def test_ambush_and_recruit_cards():
    s = make_state()
    s.hands[0] = ["ambush", "emergency_recruitment"]
    _, (d,) = space(s, ["dummy"], ["cruiser"], [1] * 20)
    s.apply_notation("pass")
    s.apply_notation("play ambush")
    s.apply_notation("pass")  # the defender's reaction window
    s.apply_notation("ambush cruiser")
    assert (fighter(s, d).sh, fighter(s, d).lp) == (0, 3)
    s.apply_notation("play emergency_recruitment")
    assert sum(1 for u in s.units.values() if u.owner == 0 and u.kind == "fighter") == 3
    assert sum(1 for f in s.battle.fighters.values() if f.kind == "fighter") == 3


def test_battle_win_vp_and_salvage():
    """RD-WIN-05: +1 VP per battle won (+ faction rewards, salvage per unit destroyed)."""
    s = make_state()
    s.fx[0] = FactionRules("a", battle_win_vp=1, battle_win_resources=2, salvage=1)
    space(s, ["gun_long", "gun_long"], ["fighter", "fighter"], [2, 2, 1, 1])
    passes(s)
    assert s.vp == [2, 0] and s.resources == [4, 0]


def test_clone_is_independent_during_a_battle():
    s = make_state()
    _, (d,) = space(s, ["gun_long"], ["dummy"], [2, 2, 2])
    c = s.clone()
    before = s.digest()
    dice(c, 2, 3, 5)
    passes(c)
    assert c.battle.fighters[d].lp == 17
    assert s.digest() == before and s.battle.fighters[d].lp == 20


def test_close_rounds_are_capped_at_ten():
    """Ruling RD-OPEN-07: after 10 close rounds the attacker must retreat."""
    s = make_state()
    (a,), _ = space(s, ["gun_close"], ["gun_close"], [1] * 24)
    stays = 0
    while s.battle is not None:
        passes(s)
        if s.battle is not None:
            assert pending(s)[0] == "retreat"
            s.apply_notation("stay")
            stays += 1
    assert s.battle is None and s.units[a].loc == pt(s, HOME)
    assert stays == 2 * 9 and s.vp == [0, 1]


def test_cancel_window_is_offered_without_cards_too():
    """The defender's counter window is offered even with no card, hiding its hand."""
    s = make_state()
    space(s, ["gun_close"], ["dummy"])
    assert pending(s)[:2] == ("cancel", 1)
    assert [str(a) for a in s.legal_actions()] == ["pass"]


def test_battle_card_can_be_countered():
    """RD-OCC-04: OCC-cards counter other OCC-cards, also inside a battle."""
    s = make_state()
    s.hands[0] = ["ambush"]
    counter = next(c for c, card in s.content.cards.items()
                   if card.timing == "counter" and card.effect.kind == "counter")
    s.hands[1] = [counter]
    _, (d,) = space(s, ["dummy"], ["cruiser"], [1] * 20)
    s.apply_notation("pass")
    s.apply_notation("play ambush")
    assert s.current_player() == 1
    s.apply_notation(f"play {counter}")
    assert s.battle is not None and s.battle.pending is not None
    assert (fighter(s, d).sh, fighter(s, d).lp) == (fighter(s, d).sh_max, fighter(s, d).lp_max)
    assert "ambush" in s.discard and counter in s.discard


def test_landing_follows_a_won_space_battle():
    """RD-BAT-09: after the space battle in an enemy planet's orbit, the winner may land on
    the planet (phase 5), which starts the ground battle."""
    s = make_state()
    p, point = planet_setup(s)
    name = s.board.planet_ids[p]
    a, _ = space(s, ["carrier", "infantry"], ["fighter"], [6, 6, 1], at=name)
    passes(s)
    assert s.battle is None and all(u in s.units for u in a)
    s.phase, s.seat = "move", 0
    s._legal = None
    assert f"land {name}" in [str(x) for x in s.legal_actions()]
    dice(s)
    s.apply_notation(f"land {name}")
    assert s.battle is not None and s.battle.ground and s.battle.planet == p
