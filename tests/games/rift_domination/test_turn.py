"""BASIC GAME STRUCTURE (RD-TURN-*) and RECRUITMENT (RD-REC-*)."""

from __future__ import annotations

from starlanes.games.rift_domination.rules import advance


def _turn_start(rd, seat=0, **kw):
    s = rd.blank(phase="turn_start", seat=seat, **kw)
    s.step = 1
    rd.stack_deck(s, "supply_convoy", "triumph", "piracy", "sabotage", "investment")
    return s


def test_turn_steps_in_order(rd):
    """RD-TURN-01: draw two cards, gain resources and 2 fighters, counter up, build, move,
    battle/negotiate, recruit and end; then the next player's turn begins."""
    s = _turn_start(rd)
    rd.own(s, "B1a", 0, ("military_base",))
    advance(s)
    assert len(s.hands[0]) == 2  # step 1
    assert s.resources[0] == 3  # step 2
    assert s.stack[-1].kind == "fighters"
    rd.do(s, "fighters B1a")
    assert s.income[0] == 4  # step 3
    assert s.phase == "build"  # step 4
    rd.do(s, "done")
    assert s.phase == "move"  # steps 5-6
    rd.do(s, "done")
    assert s.phase == "recruit"  # step 7
    rd.do(s, "end")
    assert s.seat == 1 and s.phase == "build" and len(s.hands[1]) == 2


def test_draw_two_cards_at_turn_start(rd):
    """RD-TURN-02: the active player draws two OCC-cards at the beginning of the turn."""
    s = _turn_start(rd)
    advance(s)
    assert sorted(s.hands[0]) == ["supply_convoy", "triumph"]
    assert s.hands[1] == []


def test_gain_the_resource_counter_value(rd):
    """RD-TURN-03: in step 2 the player gains resources equal to the resource-per-round
    counter; RD-TURN-06: the counter then rises by one, so next turn's income is 1 more."""
    s = _turn_start(rd)
    s.income[0] = 7
    s.resources[0] = 1
    advance(s)
    assert s.resources[0] == 8
    assert s.income[0] == 8


def test_income_rises_every_turn(rd):
    """RD-TURN-06: the resource-per-round counter moves up one point every turn."""
    s = rd.fresh(2, 5, factions=["korrath_hegemony", "korrath_hegemony"])
    start = s.content.rules.income_start
    seen = []
    for _ in range(3):
        while s.seat != 0 or s.phase != "build" or s.stack:
            if s.stack and s.stack[-1].kind == "window":
                rd.do(s, "pass")  # no card plays between turns here
            else:
                s.apply(s.legal_actions()[0] if s.stack or s.battle else _ender(s))
        seen.append(s.income[0])
        rd.do(s, "done", "done", "end")
    assert seen == [start + 1, start + 2, start + 3]


def _ender(s):
    for a in s.legal_actions():
        if str(a) in ("done", "end"):
            return a
    return s.legal_actions()[0]


def test_two_free_fighters_every_turn(rd):
    """RD-TURN-04 / RD-TURN-05: the player gains 2 free fighters every turn, placed in any of
    their fleets or on one of their planets with a military base."""
    s = _turn_start(rd)
    rd.own(s, "B1a", 0, ("military_base",))
    rd.own(s, "B1b", 0, ("mine",))
    rd.place(s, 0, "carrier", "C1")
    rd.place(s, 0, "infantry", "B1b", landed=True)
    advance(s)
    d = s.stack[-1]
    assert d.kind == "fighters" and d.data == (2,)
    assert sorted(rd.legal(s)) == ["fighters B1a", "fighters C1"]
    rd.do(s, "fighters C1")
    assert len(rd.units_of(s, 0, "fighter", at="C1")) == 2


def test_resources_are_plain_counts(rd):
    """RD-TURN-08: resources are spent on recruiting and on planet upgrades: both lower the
    same resource count by the printed cost."""
    s = rd.blank(phase="build")
    rd.own(s, "B1a", 0)
    s.resources[0] = 10
    rd.touch(s)
    rd.do(s, "build military_base B1a", "done", "done")
    assert s.resources[0] == 4
    rd.do(s, "recruit carrier B1a")
    assert s.resources[0] == 2


def test_resources_are_one_number_with_no_cube_denominations(rd):
    """RD-TURN-07: a white cube counts as 5 resources, so cubes are only change: a cost is
    taken from one resource count to the exact unit, whatever cubes would have made it."""
    s = _recruit(rd, resources=23)  # four white cubes and three single ones
    rd.do(s, "recruit fighter B1a")
    fighter = s.content.units["fighter"].cost
    assert s.resources[0] == 23 - fighter
    while "recruit fighter B1a" in rd.legal(s):
        rd.do(s, "recruit fighter B1a")
    assert s.resources[0] == 23 % fighter


def test_printed_component_counts_do_not_cap_units(rd):
    """RD-CMP-03 (ruling: components are not limits): with more fighters on the board than
    the box's 486 unit tiles, the turn's two free fighters are still placed."""
    s = _turn_start(rd)
    rd.own(s, "B1a", 0, ("military_base",))
    for _ in range(500):
        rd.place(s, 0, "fighter", "C1")
    advance(s)
    rd.do(s, "fighters C1")
    assert len(rd.units_of(s, 0, "fighter", at="C1")) == 502


def test_move_again_after_a_battle(rd):
    """RD-TURN-09: after a battle, step 5 may be repeated while units have movement points
    left (RD-WIN-05: the won battle is worth 1 VP)."""
    s = rd.blank()
    (c,) = rd.place(s, 0, "carrier", "B1")
    rd.place(s, 1, "fighter", "C1")
    rd.dice(s, 6, 1)  # the fighter's last volley (simultaneous fire, RD-BAT-10) misses
    rd.do(s, "move B1 C1")
    rd.finish_battle(s)
    assert not rd.units_of(s, 1)
    assert s.vp[0] == 1
    assert s.phase == "move" and s.units[c].mp == 1
    rd.do(s, "move C1 D1")
    assert s.units[c].loc == rd.pt(s, "D1")


def test_recruiting_ends_the_turn_and_play_passes_clockwise(rd):
    """RD-TURN-10 / RD-SET-18: recruiting ends the turn, the next seat clockwise plays; after
    the last seat a new round starts with seat 0."""
    s = rd.blank(players=3, phase="recruit", seat=1)
    rd.do(s, "end")
    assert s.seat == 2 and s.round == 1
    s.phase = "recruit"
    s.stack.clear()
    rd.touch(s)
    rd.do(s, "end")
    assert s.seat == 0 and s.round == 2


# ---------------------------------------------------------------------------- recruitment
def _recruit(rd, resources=20, upgrades=("military_base",), faction=None):
    s = rd.blank(phase="recruit", factions=[faction or rd.NEUTRAL, rd.NEUTRAL])
    rd.own(s, "B1a", 0, upgrades)
    s.resources[0] = resources
    rd.touch(s)
    return s


def test_recruit_only_roster_units(rd):
    """RD-REC-01: only unit types on the player's roster can be recruited; a unit unlocked
    by a system (RD-SYS-03) joins the roster and can then be recruited."""
    s = _recruit(rd)
    kinds = {a.split()[1] for a in rd.legal(s) if a.startswith("recruit")}
    assert kinds == set(s.roster[0]) == {"infantry", "fighter", "carrier", "destroyer"}
    s.roster[0] = (*s.roster[0], "goliath")
    rd.touch(s)
    assert "recruit goliath B1a" in rd.legal(s)


def test_recruit_while_resources_last(rd):
    """RD-REC-02: a player may recruit as long as resources pay each unit's cost."""
    s = _recruit(rd, resources=5)
    rd.do(s, "recruit destroyer B1a")
    assert s.resources[0] == 1
    options = rd.legal(s)
    assert "recruit fighter B1a" in options and "recruit infantry B1a" in options
    assert "recruit carrier B1a" not in options and "recruit destroyer B1a" not in options
    rd.do(s, "recruit fighter B1a")
    assert s.resources[0] == 0
    assert not any(a.startswith("recruit") for a in rd.legal(s))


def test_recruits_are_placed_at_a_military_base(rd):
    """RD-REC-03: recruited units are placed on a planet with a military base."""
    s = _recruit(rd)
    rd.own(s, "C1a", 0, ("mine",))
    assert not any(a.startswith("recruit") and a.endswith("C1a") for a in rd.legal(s))
    rd.do(s, "recruit carrier B1a")
    (u,) = rd.units_of(s, 0, "carrier")
    assert s.units[u].loc == rd.pt(s, "B1a")


def test_no_military_base_no_recruiting(rd):
    """RD-REC-04: without a military base a player cannot recruit; after building one they
    can again."""
    s = _recruit(rd, upgrades=("mine",))
    assert not any(a.startswith("recruit") for a in rd.legal(s))
    assert "end" in rd.legal(s)
    s.planet_upgrades[rd.pid(s, "B1a")] = ("mine", "military_base")
    rd.touch(s)
    assert "recruit carrier B1a" in rd.legal(s)
