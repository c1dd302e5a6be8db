"""Unit statistics and damage (GD-UNIT-*), ranges (GD-RNG-*) and attacks."""

from __future__ import annotations


def _targets(gd, s, uid):
    return sorted(int(a.split()[2]) for a in gd.legal(s) if a.startswith(f"attack {uid} "))


def test_attack_deals_weapon_damage(gd):
    """GD-UNIT-04: an attack deals the attacker's weapon damage to one ship in range;
    GD-AP-05: it costs 1 AP."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")
    c = gd.put(s, 1, "command", "G2")
    dmg = s.damage[4]
    gd.do(s, f"attack {r} {c}")
    assert s.ships[c][3] == s.max_sh[0] - dmg
    assert s.ships[r][5] == s.max_ap[4] - 1


def test_shields_before_hull(gd):
    """GD-UNIT-05: damage goes to shields first, to the hull only once they are depleted
    (overflow carries into the hull, ruling GD-OPEN-09); GD-UNIT-06: depleted shields do
    not destroy a ship."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")  # damage 2
    t = gd.put(s, 1, "raider", "G2", sh=2, hull=4)
    gd.do(s, f"attack {r} {t}")
    assert s.ships[t][3:5] == (0, 4)
    gd.do(s, f"attack {r} {t}")
    assert s.ships[t][3:5] == (0, 2)
    u = gd.put(s, 1, "raider", "G2", sh=1, hull=4)
    gd.do(s, f"attack {r} {u}")
    assert s.ships[u][3:5] == (0, 3)


def test_hull_zero_destroys(gd):
    """GD-UNIT-08: a ship whose hull is depleted is destroyed and leaves the fleet."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")
    gd.put(s, 1, "raider", "P1")
    t = gd.put(s, 1, "miner", "G2", sh=0, hull=2)
    gd.do(s, f"attack {r} {t}")
    assert t not in s.ships and s.fleet_counts(1)[2] == 0


def test_hull_never_regenerates(gd):
    """GD-UNIT-07: hull damage is permanent; shields recharge (GD-TURN-03)."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R1")
    t = gd.put(s, 1, "raider", "P1", sh=0, hull=1)
    gd.do(s, "end")
    assert s.ships[t][3:5] == (1, 1)
    gd.do(s, "end", "end")
    assert s.ships[t][3:5] == (2, 1)


def test_raider_same_sector_only(gd):
    """GD-RNG-06: a raider attacks only ships in its own sector."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")
    a = gd.put(s, 1, "raider", "G2")
    gd.put(s, 1, "raider", "G1")
    gd.put(s, 1, "raider", "B2")
    assert _targets(gd, s, r) == [a]


def test_raider_has_no_special(gd):
    """GD-UNIT-09: the raider has no special ability."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "G2")
    gd.put(s, 1, "raider", "P1")
    s.minerals[0] = s.dark[0] = 50
    assert {a.split()[0] for a in gd.legal(s) if a.split()[1:2] == [str(r)]} == {"move"}


def test_command_own_or_adjacent(gd):
    """GD-RNG-07: a command ship attacks its own or an adjacent sector."""
    s = gd.blank()
    c = gd.put(s, 0, "command", "G2")
    own = gd.put(s, 1, "raider", "G2")
    up = gd.put(s, 1, "raider", "G1")
    left = gd.put(s, 1, "raider", "O2")
    gd.put(s, 1, "raider", "O1")  # diagonal: not adjacent
    gd.put(s, 1, "raider", "P2")
    assert _targets(gd, s, c) == sorted([own, up, left])


def test_explorer_same_zone(gd):
    """GD-RNG-05: an explorer attacks anything in its own zone."""
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "G1")
    a = gd.put(s, 1, "raider", "G3")
    b = gd.put(s, 1, "miner", "G1")
    gd.put(s, 1, "raider", "B1")
    assert _targets(gd, s, e) == sorted([a, b])


def test_destroyer_adjacent_zones_not_own(gd):
    """GD-RNG-03: a destroyer attacks units in zones adjacent to its sector; GD-RNG-04:
    never its own zone (ruling GD-OPEN-03 for zone adjacency)."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "G2")
    own = gd.put(s, 1, "raider", "G2")
    o3 = gd.put(s, 1, "raider", "O3")
    b1 = gd.put(s, 1, "raider", "B1")
    gd.put(s, 1, "raider", "P1")
    gd.put(s, 1, "raider", "R2")
    t = _targets(gd, s, d)
    assert t == sorted([o3, b1]) and own not in t


def test_miner_unarmed(gd):
    """GD-RNG-02: the miner may not attack."""
    s = gd.blank()
    m = gd.put(s, 0, "miner", "G2")
    gd.put(s, 1, "raider", "G2")
    assert _targets(gd, s, m) == []
