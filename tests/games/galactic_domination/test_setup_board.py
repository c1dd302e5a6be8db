"""Starting the Game (GD-SET-*), zones, sectors and capacity (GD-MAP-*), team size
(GD-LIM-*) and the content tables."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import BadOptionError
from starlanes.games.galactic_domination.content import UNIT_IDS, load_content
from starlanes.games.galactic_domination.fleet import MINER_MAX, TEAM_MAX, TYPE_MAX


def test_two_players_only():
    """GD-SET-01: the game is for 2 players."""
    assert starlanes.load("galactic-domination").players == 2
    with pytest.raises(BadOptionError):
        starlanes.load("galactic-domination", players=3)


def test_components():
    """GD-SET-02: 5 black hole markers, one spinner, a D10 and a D6; GD-BH-05: 5 markers;
    GD-UNIT-01: the five unit types."""
    c = load_content()
    assert c.specials.black_hole_markers == 5
    assert len(c.spinner) >= 2 and sum(seg.weight for seg in c.spinner) == len(c.spin_table)
    assert [u.name for u in c.units] == ["Command Ship", "Deep Space Explorer", "Miner Ship",
                                         "Long Range Destroyer", "Raider Ship"]


def test_unit_statistics():
    """GD-UNIT-02: each unit has movement (AP), weapon damage, range, shields, hull and a
    special; GD-RNG-01: each type has its own range; GD-SET-07 / GD-AP-02: AP and ranges
    come from the unit list (the reference sheets' content), kept per ship in the state."""
    c = load_content()
    for u in c.units:
        assert u.ap >= 1 and u.hull >= 1 and u.cost >= 1 and u.range and u.special
    assert len({u.range for u in c.units}) == 5


def test_alternating_placement(gd):
    """GD-SET-03: 10 ships, 2 of each type; GD-SET-04: placed one at a time alternately,
    player 1 first, each in its own start zone; GD-SET-05: 0 minerals."""
    s = gd.fresh()
    assert s.minerals == [0, 0]
    order = []
    while s.phase == "setup":
        order.append(s.seat)
        a = s.legal_actions()[0]
        assert s.board.zone_of[s.board.index[a.sector]] == s.start[s.seat]
        s.apply(a)
    assert order == [0, 1] * 10
    for p in (0, 1):
        assert s.fleet_counts(p) == [2] * 5
        assert all(s.board.zone_of[x[2]] == s.start[p] for x in s.ships.values() if x[0] == p)
    assert s.minerals == [0, 0]


def test_roll_off(gd):
    """GD-SET-06: with the roll-off the higher D10 is player 1 (red, places first); 0 counts
    as 10; ties are rolled again (GD-OPEN-04)."""
    s = gd.fresh(roll_off=True)
    gd.rolls(s, gd.d10(4), gd.d10(4), gd.d10(3), gd.d10(10))
    from starlanes.games.galactic_domination import setup

    setup.begin(s)
    assert s.first == 1 and s.seat == 1
    assert s.board.zone_colors[s.start[1]] == "red"
    firsts = {gd.fresh(seed, roll_off=True).first for seed in range(20)}
    assert firsts == {0, 1}


def test_board_geometry():
    """GD-MAP-01: 5 zones; GD-MAP-02: 3 sectors each; GD-MAP-03: red and purple start
    zones; GD-MAP-07: each sector has a planet (a sector is a planet until a black hole)."""
    b = load_content().board
    assert len(b.zone_sectors) == 5
    assert all(len(z) == 3 for z in b.zone_sectors)
    assert b.zone_colors[b.start_zone[0]] == "red"
    assert b.zone_colors[b.start_zone[1]] == "purple"
    assert len(b.names) == 15 and all(b.adj[i] for i in range(15))


def test_start_zones_by_seat(gd):
    """GD-MAP-03: player 1 starts in red, player 2 in purple."""
    s = gd.fresh()
    assert [s.board.zone_colors[z] for z in s.start] == ["red", "purple"]


def test_capacity_and_miners(gd):
    """GD-MAP-04: capacity 3; GD-MAP-05: no moving into a full sector; GD-MAP-06: miners do
    not count and may still enter."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "O1")
    m = gd.put(s, 0, "miner", "O1")
    for _ in range(3):
        gd.put(s, 1, "raider", "G1")
    gd.put(s, 1, "miner", "G1")
    assert s.load_at(s.board.index["G1"]) == 3
    assert f"move {r} G1" not in gd.legal(s)
    assert f"move {m} G1" in gd.legal(s)
    gd.do(s, f"move {m} G1")
    assert gd.sec(s, m) == "G1"


def test_deep_space_off_board(gd):
    """GD-MAP-08: ships in deep space are off the board."""
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "R1")
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P1")
    gd.do(s, f"warp {e}")
    assert s.ships[e][2] == -1 and s.on_board(0) == 1


@pytest.mark.parametrize("kind,limit", [("raider", TYPE_MAX), ("miner", MINER_MAX)])
def test_type_limits(gd, kind, limit):
    """GD-LIM-02: at most 5 of each type but miners; GD-LIM-03: at most 15 miners."""
    s = gd.blank()
    gd.put(s, 1, "raider", "P1")
    for i in range(limit - 1):
        gd.put(s, 0, kind, "O" + str(i % 3 + 1) if kind == "raider" else "O1")
    s.minerals[0] = 100
    assert any(a.startswith(f"build {kind}") for a in gd.legal(s))
    gd.put(s, 0, kind, "B1")
    assert not any(a.startswith(f"build {kind}") for a in gd.legal(s))
    assert limit == (15 if kind == "miner" else 5)


def test_team_limit(gd):
    """GD-LIM-01: a team has at most 25 units."""
    s = gd.blank()
    gd.put(s, 1, "raider", "P1")
    for _ in range(15):
        gd.put(s, 0, "miner", "O1")
    for k in UNIT_IDS[:2] + UNIT_IDS[3:]:
        for _ in range(2):
            gd.put(s, 0, k, "G1")
    gd.put(s, 0, "raider", "G2")
    assert sum(s.fleet_counts(0)) == 24
    s.minerals[0] = 100
    assert any(a.startswith("build") for a in gd.legal(s))
    gd.do(s, "build raider R1")
    assert sum(s.fleet_counts(0)) == TEAM_MAX
    assert not any(a.startswith("build") for a in gd.legal(s))
