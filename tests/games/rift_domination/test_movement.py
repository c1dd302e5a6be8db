"""MOVEMENT (RD-MOV-*), carrying (RD-UNIT-02), warp (RD-UPG-06..10) and wormholes.

The two-player board is the small area; seat 0's home is B1a, seat 1's E2a. B1 (planets B1a,
B1b) borders C1 (C1a, C1b) to the east and B2 to the south; C2 is diagonal to B1.
"""

from __future__ import annotations

from starlanes.games.rift_domination.board import BORDER, ORBIT, SYSTEM, board_for
from starlanes.games.rift_domination.rules import advance
from starlanes.games.rift_domination.turn import reset_movement


def test_planet_to_planet_in_the_same_system_costs_one(rd):
    """RD-MOV-02: planet orbit to planet orbit in one system is 1 movement point."""
    s = rd.blank()
    assert s.board.distance(rd.pt(s, "B1a"), rd.pt(s, "B1b")) == 1
    (c,) = rd.place(s, 0, "carrier", "B1a")
    rd.do(s, "move B1a B1b")
    assert s.units[c].loc == rd.pt(s, "B1b")
    assert s.units[c].mp == 1


def test_planet_in_another_system_costs_two(rd):
    """RD-MOV-03: reaching a planet of another (adjacent) system takes 2 movement points:
    orbit -> border -> orbit."""
    s = rd.blank()
    assert s.board.distance(rd.pt(s, "B1a"), rd.pt(s, "C1a")) == 2
    assert "move B1a C1a" not in rd.legal(s)
    (c,) = rd.place(s, 0, "carrier", "B1a")
    rd.do(s, "move B1a B1|C1", "move B1|C1 C1a")
    assert s.units[c].loc == rd.pt(s, "C1a") and s.units[c].mp == 0


def test_system_to_adjacent_system_costs_one(rd):
    """RD-MOV-04: travelling to a different (adjacent) system costs 1 movement point."""
    s = rd.blank()
    assert s.board.distance(rd.pt(s, "B1"), rd.pt(s, "C1")) == 1
    (c,) = rd.place(s, 0, "carrier", "B1")
    rd.do(s, "move B1 C1")
    assert s.units[c].loc == rd.pt(s, "C1") and s.units[c].mp == 1


def test_never_diagonally(rd):
    """RD-MOV-05: adjacent systems only, not diagonally: B1 -> C2 is no move, and takes
    two system steps."""
    s = rd.blank()
    rd.place(s, 0, "carrier", "B1")
    moves = rd.legal(s)
    assert "move B1 C1" in moves and "move B1 B2" in moves
    assert "move B1 C2" not in moves
    assert s.board.distance(rd.pt(s, "B1"), rd.pt(s, "C2")) == 2
    for i, adj in enumerate(s.board.adjacent_systems):
        a = s.content.systems[s.board.system_ids[i]]
        for k in adj:
            b = s.content.systems[s.board.system_ids[k]]
            assert abs(a.x - b.x) + abs(a.y - b.y) == 1


def test_points_are_systems_borders_and_orbits_and_each_line_costs_one(rd):
    """RD-MOV-06: every bright point (system, border, planet orbit) is a place to move to;
    each move along a line costs exactly 1 movement point."""
    s = rd.blank()
    kinds = set(s.board.kind)
    assert {SYSTEM, ORBIT, BORDER} <= kinds
    (c,) = rd.place(s, 0, "carrier", "B1a")
    for q in s.board.neighbors[rd.pt(s, "B1a")]:
        t = s.clone()
        t.apply_notation(f"move B1a {s.board.names[q]}")
        assert t.units[c].mp == s.units[c].mp - 1


def test_units_begin_on_the_home_planet(rd):
    """RD-MOV-01: every player's starting units begin at the home planet."""
    s = rd.fresh(3, 4)
    for seat in range(3):
        home = s.board.planet_point[s.home[seat]]
        start = [u for u in s.units.values() if u.owner == seat and u.kind != "fighter"]
        assert start and all(u.loc == home for u in start)


def test_move_as_often_as_movement_points_allow(rd):
    """RD-MOV-07: a unit may move while it has movement points left, and not after."""
    s = rd.blank()
    (c,) = rd.place(s, 0, "carrier", "B1")
    assert s.units[c].mp == s.stats[0]["carrier"].mp == 2
    rd.do(s, "move B1 C1", "move C1 D1")
    assert s.units[c].mp == 0
    assert not any(a.startswith("move D1") for a in rd.legal(s))


def test_movement_points_are_per_round(rd):
    """RD-MOV-07: movement points come back at the start of the owner's next turn."""
    s = rd.blank()
    (c,) = rd.place(s, 0, "carrier", "B1", mp=0)
    reset_movement(s, 0)
    assert s.units[c].mp == 2


def test_moving_to_a_planet_enters_its_orbit(rd):
    """RD-MOV-08: moving to a planet places the fleet in that planet's orbit."""
    s = rd.blank()
    (c,) = rd.place(s, 0, "carrier", "B1")
    rd.do(s, "move B1 B1b")
    u = s.units[c]
    assert s.board.planet_of[u.loc] == rd.pid(s, "B1b") and not u.landed


def test_moving_to_an_adjacent_system_enters_no_orbit(rd):
    """RD-MOV-09: a fleet moving into an adjacent system is at its system point, in no
    planet orbit."""
    s = rd.blank()
    (c,) = rd.place(s, 0, "carrier", "B1")
    rd.do(s, "move B1 C1")
    u = s.units[c]
    assert s.board.kind[u.loc] == SYSTEM and s.board.planet_of[u.loc] == -1


def test_entering_a_system_with_an_enemy_fleet_starts_a_battle(rd):
    """RD-MOV-10: a fleet entering a system point that holds an enemy fleet (not in a planet
    orbit) initiates a battle."""
    s = rd.blank()
    rd.place(s, 0, "carrier", "B1")
    rd.place(s, 1, "carrier", "C1")
    rd.do(s, "move B1 C1")
    assert s.battle is not None and not s.battle.ground
    assert s.battle.attacker == 0 and s.battle.defender == 1


def test_no_battle_without_an_enemy_fleet(rd):
    """RD-MOV-10 (ruling RD-OPEN-24): enemy units landed on a planet are no fleet: entering
    that orbit starts no space battle."""
    s = rd.blank()
    rd.own(s, "C1a", 1)
    rd.place(s, 1, "infantry", "C1a", landed=True)
    rd.place(s, 0, "carrier", "C1")
    rd.do(s, "move C1 C1a")
    assert s.battle is None and not s.stack


def test_two_fleets_attack_the_same_target(rd):
    """RD-MOV-11: two fleets may attack the same target simultaneously: the second stack is
    offered to join, and both fight in one battle."""
    s = rd.blank()
    a = rd.place(s, 0, "carrier", "B1")
    b = rd.place(s, 0, "carrier", "D1")
    rd.place(s, 1, "destroyer", "C1")
    rd.do(s, "move B1 C1")
    assert s.stack and s.stack[-1].kind == "join"
    assert rd.legal(s) == ["join D1", "attack"]
    rd.do(s, "join D1")
    assert s.battle is not None
    attackers = {f.fid for f in s.battle.fighters.values() if f.side == 0}
    assert attackers == {*a, *b}


def test_goliath_example(rd):
    """RD-MOV-12: a goliath (2 MP) moves to a planet in its own system (1 MP), takes control
    by landing infantry, and its remaining MP takes it to another planet of the system or
    to a new system."""
    s = rd.blank()
    rd.own(s, "B1a", 0, ("military_base",))
    rd.tile(s, "B1b", "harvester", 4)
    (g,) = rd.place(s, 0, "goliath", "B1a")
    inf = rd.place(s, 0, "infantry", "B1a", n=2)
    assert s.units[g].mp == 2
    rd.do(s, "move B1a B1b")
    assert s.units[g].mp == 1
    assert all(s.units[u].loc == rd.pt(s, "B1b") for u in inf)
    rd.do(s, "land B1b")
    assert s.planet_owner[rd.pid(s, "B1b")] == 0
    assert all(s.units[u].landed for u in inf)
    rd.do(s, "unlock goliath")  # B1 is now wholly controlled (RD-SYS-03)
    moves = rd.legal(s)
    assert "move B1b B1a" in moves and "move B1b B1" in moves and "move B1b B1|C1" in moves
    rd.do(s, "move B1b B1")
    assert s.units[g].loc == rd.pt(s, "B1") and s.units[g].mp == 0
    assert all(s.units[u].loc == rd.pt(s, "B1b") for u in inf), "landed infantry stays"


def test_goliath_diagram_landing_on_an_enemy_planet_starts_a_ground_battle(rd):
    """RD-MOV-13: the other planet is 1 MP away; infantry landing there starts a ground
    battle; the goliath keeps its remaining MP (it can still move to the system point, the
    other planet or the borders afterwards)."""
    s = rd.blank()
    rd.own(s, "B1b", 1)
    (g,) = rd.place(s, 0, "goliath", "B1a")
    rd.place(s, 0, "infantry", "B1a")
    rd.do(s, "move B1a B1b", "land B1b")
    assert s.battle is not None and s.battle.ground
    assert s.units[g].mp == 1


def test_capacity_limits_what_moves(rd):
    """RD-UNIT-02: capacity is the room to carry units; a carrier (capacity 4) takes four
    units of used capacity 1, the rest stay behind."""
    s = rd.blank()
    assert s.stats[0]["carrier"].capacity == 4
    rd.place(s, 0, "carrier", "B1")
    inf = rd.place(s, 0, "infantry", "B1", n=6)
    rd.do(s, "move B1 C1")
    moved = [u for u in inf if s.units[u].loc == rd.pt(s, "C1")]
    assert len(moved) == 4


def test_carried_units_do_not_move_alone(rd):
    """RD-UNIT-02: units with a used capacity above 0 (fighters, infantry) need to be
    carried: without a ship they cannot move; a ship with capacity 0 carries nothing."""
    s = rd.blank()
    rd.place(s, 0, "fighter", "B1", n=3)
    assert not any(a.startswith("move") for a in rd.legal(s))
    assert s.stats[0]["destroyer"].capacity == 0
    rd.place(s, 0, "destroyer", "B1")
    rd.do(s, "move B1 C1")
    assert len(rd.units_of(s, 0, "fighter", at="B1")) == 3


def test_used_capacity_zero_needs_no_carrier(rd):
    """RD-UNIT-02 / RD-UNIT-08: used capacity 0 means a unit moves by itself; the flagship
    (capacity 8, used capacity 0) carries eight infantry."""
    s = rd.blank()
    st = s.stats[0]["flagship"]
    assert (st.used_capacity, st.capacity) == (0, 8)
    rd.place(s, 0, "flagship", "B1")
    inf = rd.place(s, 0, "infantry", "B1", n=8)
    rd.do(s, "move B1 C1")
    assert all(s.units[u].loc == rd.pt(s, "C1") for u in inf)


# ---------------------------------------------------------------------------- warp
def _warp_board(rd, **options):
    s = rd.blank(**options)
    rd.own(s, "C1a", 0, ("warp",))
    return s


def test_warp_gives_the_owner_one_more_movement_point(rd):
    """RD-UPG-08: the warp owner's units in the system have +1 movement point."""
    s = _warp_board(rd)
    (c,) = rd.place(s, 0, "carrier", "C1", mp=0)
    (far,) = rd.place(s, 0, "carrier", "D2", mp=0)
    reset_movement(s, 0)
    assert s.units[c].mp == 3
    assert s.units[far].mp == 2


def test_warp_slows_enemies_but_never_to_zero(rd):
    """RD-UPG-07: enemy units in the system have -1 movement point, never reduced to 0."""
    s = _warp_board(rd)
    (c,) = rd.place(s, 1, "carrier", "C1b", mp=0)
    (sen,) = rd.place(s, 1, "sentinel", "C1", mp=0)
    assert s.stats[1]["sentinel"].mp == 1
    reset_movement(s, 1)
    assert s.units[c].mp == 1
    assert s.units[sen].mp == 1


def test_warp_slows_enemies_that_fly_in(rd):
    """RD-UPG-07 (ruling RD-OPEN-23): the -1 applies in the warp's system, so an enemy
    unit that enters it mid-turn loses a movement point on entering (not only at the next
    refresh); moving within the system costs no more, and the owner's units pay nothing."""
    s = _warp_board(rd, seat=1)
    (c,) = rd.place(s, 1, "carrier", "D1")
    assert s.units[c].mp == 2
    rd.do(s, "move D1 C1")
    assert s.units[c].mp == 0
    (d,) = rd.place(s, 1, "carrier", "C1")
    rd.do(s, "move C1 C1b")
    assert s.units[d].mp == 1
    u = rd.blank()
    rd.own(u, "C1a", 0, ("warp",))
    (own,) = rd.place(u, 0, "carrier", "D1")
    rd.do(u, "move D1 C1")
    assert u.units[own].mp == 1


def test_warp_does_not_affect_infantry(rd):
    """RD-UPG-09: infantry units are not affected by the warp (they move only when carried,
    with 0 movement points of their own, inside or outside a warp system)."""
    s = _warp_board(rd)
    (i0,) = rd.place(s, 0, "infantry", "C1", mp=0)
    (i1,) = rd.place(s, 1, "infantry", "C1b", mp=0)
    reset_movement(s, 0)
    reset_movement(s, 1)
    assert s.units[i0].mp == 0 and s.units[i1].mp == 0


def test_warp_costs_four(rd):
    """RD-UPG-06: a warp costs 4 resources."""
    s = rd.blank(phase="build")
    rd.own(s, "B1a", 0)
    s.resources[0] = 3
    assert "build warp B1a" not in rd.legal(s)
    s.resources[0] = 4
    rd.touch(s)
    rd.do(s, "build warp B1a")
    assert s.resources[0] == 0 and s.planet_upgrades[rd.pid(s, "B1a")] == ("warp",)


def test_one_warp_per_system(rd):
    """RD-UPG-10 (ruling RD-OPEN-23, default warp_limit="system"): only one warp per system
    in total: neither player may add a second warp in C1."""
    s = _warp_board(rd)
    rd.own(s, "C1b", 1)
    s.phase, s.seat = "build", 1
    s.resources = [20, 20]
    rd.touch(s)
    assert "build mine C1b" in rd.legal(s)
    assert "build warp C1b" not in rd.legal(s)
    s.planet_upgrades[rd.pid(s, "C1b")] = ()
    rd.own(s, "C1b", 0)
    s.seat = 0
    rd.touch(s)
    assert "build warp C1b" not in rd.legal(s)
    assert "build warp C1a" not in rd.legal(s)


def test_one_warp_per_system_per_player_option(rd):
    """RD-UPG-10 with option warp_limit="player" (ruling RD-OPEN-23): each player may have
    one warp per system, so a rival may add its own, but not a second of its own."""
    s = _warp_board(rd, warp_limit="player")
    rd.own(s, "C1b", 1)
    s.phase, s.seat = "build", 1
    s.resources = [20, 20]
    rd.touch(s)
    assert "build warp C1b" in rd.legal(s)
    rd.own(s, "C1b", 0)
    s.seat = 0
    rd.touch(s)
    assert "build warp C1b" not in rd.legal(s)


# ---------------------------------------------------------------------------- wormholes
def test_wormholes_only_with_the_timewarper(rd):
    """RD-MOV-14: wormholes are on the board only when the Timewarper faction plays."""
    s = rd.fresh(2, 3, factions=["aurelian_concord", "korrath_hegemony"])
    assert not s.board.wormholes
    assert not any(n.startswith("W") for n in s.board.names)
    t = rd.fresh(2, 3, factions=["aurelian_concord", "timewarper"])
    assert t.board.wormholes
    assert "W1a" in t.board.names and "W1b" in t.board.names


def _wormhole_state(rd, seat0_faction):
    s = rd.blank(factions=[seat0_faction, "korrath_hegemony"])
    s.board = board_for(s.game, wormholes=True)
    rd.touch(s)
    return s


def test_wormhole_costs_one_to_reach_and_one_to_pass(rd):
    """RD-MOV-15: reaching a wormhole costs 1 movement point and travelling through it
    another 1 (W1 joins C1 and D5)."""
    s = _wormhole_state(rd, "korrath_hegemony")
    (c,) = rd.place(s, 0, "carrier", "C1")
    moves = rd.legal(s)
    assert "move C1 W1a" in moves and "move C1 W1b" not in moves
    rd.do(s, "move C1 W1a", "move W1a W1b")
    assert s.units[c].loc == rd.pt(s, "W1b") and s.units[c].mp == 0
    assert s.board.distance(rd.pt(s, "C1"), rd.pt(s, "W1b")) == 2


def test_timewarper_reaches_and_passes_a_wormhole_for_one(rd):
    """RD-MOV-16: Timewarper units use only 1 movement point in all to reach and travel
    through a wormhole."""
    s = _wormhole_state(rd, "timewarper")
    (c,) = rd.place(s, 0, "carrier", "C1")
    assert "move C1 W1b" in rd.legal(s)
    rd.do(s, "move C1 W1b")
    assert s.units[c].loc == rd.pt(s, "W1b") and s.units[c].mp == 1
    rd.do(s, "move W1b D5")
    assert s.units[c].loc == rd.pt(s, "D5")


def test_rift_jump_into_an_enemy_held_orbit_starts_a_battle(rd):
    """RD-MOV-10 (ruling RD-OPEN-24; designed card Rift Jump): a fleet that jumps into an
    orbit held by an enemy fleet starts a space battle, however it got there; a retreat
    takes it back to where it jumped from."""
    s = rd.blank()
    rd.own(s, "C1a", 0, ("military_base",))
    rd.place(s, 1, "carrier", "C1a")
    rd.place(s, 0, "carrier", "D2", n=2)
    rd.give(s, 0, "rift_jump")
    rd.do(s, "play rift_jump D2>C1a")
    assert s.battle is not None and not s.battle.ground
    assert (s.battle.attacker, s.battle.defender) == (0, 1)
    assert s.battle.point == rd.pt(s, "C1a")
    assert set(s.battle.came_from.values()) == {rd.pt(s, "D2")}


def test_no_new_units_into_an_enemy_held_orbit(rd):
    """RD-REC-03 / RD-TURN-05 (ruling RD-OPEN-24): recruits, free fighters and units from
    cards are never placed into an orbit held by an enemy fleet (that would start no battle
    and put new units next to the enemy); a base with a clear orbit still works."""
    s = rd.blank(phase="recruit")
    rd.own(s, "C1a", 0, ("military_base",))
    rd.own(s, "B1b", 0, ("military_base",))
    rd.place(s, 1, "carrier", "C1a")
    s.resources[0] = 20
    legal = rd.legal(s)
    assert "recruit carrier C1a" not in legal and "recruit carrier B1b" in legal
    rd.give(s, 0, "mercenary_wing")
    legal = rd.legal(s)
    assert "play mercenary_wing C1a" not in legal and "play mercenary_wing B1b" in legal
    t = rd.blank(phase="turn_start")
    t.step = 2
    rd.own(t, "C1a", 0, ("military_base",))
    rd.place(t, 1, "carrier", "C1a")
    rd.place(t, 0, "carrier", "D2")
    advance(t)
    assert rd.legal(t) == ["fighters D2"]
