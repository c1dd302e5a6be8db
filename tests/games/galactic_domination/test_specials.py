"""Special abilities (GD-SPC-*), black holes (GD-BH-*), deep space and the spinner
(GD-DS-*), special costs (GD-AP-06/09)."""

from __future__ import annotations


def _warped(gd, s, seat=0):
    e = gd.put(s, seat, "explorer", "R1" if seat == 0 else "P1")
    gd.do(s, f"warp {e}")
    return e


def test_attach(gd):
    """GD-SPC-01: a miner attaches to its planet for 1 AP; GD-AP-06: specials cost AP."""
    s = gd.blank()
    m = gd.put(s, 0, "miner", "O1")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, f"attach {m}")
    assert s.ships[m][6] == 1 and s.ships[m][5] == s.max_ap[2] - 1
    assert f"attach {m}" not in gd.legal(s)
    gd.do(s, f"move {m} O2")  # moving detaches (GD-OPEN-13)
    assert s.ships[m][6] == 0


def test_warp(gd):
    """GD-DS-01: warping costs 1 AP and moves the explorer into deep space."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    e = _warped(gd, s)
    assert s.ships[e][2] == -1
    assert not any(a.split()[1:2] == [str(e)] for a in gd.legal(s))


def test_random_return(gd):
    """GD-DS-02: the explorer returns next turn to a random zone and sector; GD-DS-03: zone
    is D10 halved (rounded up: 7 -> zone 4); GD-DS-04: sector is D6 halved (5 -> 3)."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    e = _warped(gd, s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(7), gd.segment(s, "void"), gd.d6(5))
    gd.do(s, "end")
    assert gd.sec(s, e) == "B3"
    s2 = gd.blank()
    gd.put(s2, 0, "raider", "R2")
    gd.put(s2, 1, "raider", "P2")
    e2 = _warped(gd, s2)
    gd.do(s2, "end")
    gd.rolls(s2, gd.d10(10), gd.segment(s2, "void"), gd.d6(1))
    gd.do(s2, "end")
    assert gd.sec(s2, e2) == "P1"


def test_command_ship_picks_sector(gd):
    """GD-DS-05: with a friendly command ship in the arrival zone the player picks the
    sector instead of rolling the D6."""
    s = gd.blank()
    gd.put(s, 0, "command", "G2")
    gd.put(s, 1, "raider", "P2")
    e = _warped(gd, s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(5), gd.segment(s, "void"))
    gd.do(s, "end")
    assert s.current_player() == 0 and gd.legal(s) == [f"arrive {e} G1", f"arrive {e} G2",
                                                      f"arrive {e} G3"]
    gd.do(s, f"arrive {e} G3")
    assert gd.sec(s, e) == "G3" and s.phase == "act"


def test_collision(gd):
    """GD-DS-06: arriving in a full sector, the explorer and a non-miner ship the defender
    picks are destroyed (the defender is the opponent, ruling GD-OPEN-10)."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R2")
    keep = gd.put(s, 1, "raider", "P2")
    trio = [gd.put(s, 1, "raider", "G1") for _ in range(3)]
    gd.put(s, 1, "miner", "G1")
    e = _warped(gd, s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(6), gd.segment(s, "ore"), gd.d6(2))
    gd.do(s, "end")
    assert s.current_player() == 1
    assert sorted(gd.legal(s)) == sorted(f"sacrifice {u}" for u in trio)
    gd.do(s, f"sacrifice {trio[1]}")
    assert e not in s.ships and trio[1] not in s.ships and keep in s.ships
    assert s.minerals[0] == 3 and s.current_player() == 0  # GD-DS-07: treasure anyway


def test_collision_own_ships(gd):
    """GD-OPEN-10: a full sector of only own ships: the explorer's player picks."""
    s = gd.blank()
    own = [gd.put(s, 0, "raider", "O1") for _ in range(3)]
    gd.put(s, 1, "raider", "P2")
    e = _warped(gd, s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(3), gd.segment(s, "void"), gd.d6(1))
    gd.do(s, "end")
    assert s.current_player() == 0 and len(gd.legal(s)) == 3
    gd.do(s, f"sacrifice {own[0]}")
    assert e not in s.ships and own[0] not in s.ships


def test_treasure_and_spinner(gd):
    """GD-DS-07: a returning explorer brings treasure (minerals, dark matter); GD-DS-08:
    the controller spins the spinner and receives what it shows."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    _warped(gd, s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(1), gd.segment(s, "derelict"), gd.d6(1))
    gd.do(s, "end")
    seg = {x.id: x for x in s.content.spinner}["derelict"]
    assert (s.minerals[0], s.dark[0]) == (seg.minerals, seg.dark_matter)


def test_black_hole_shot(gd):
    """GD-SPC-04: needs dark matter, minerals and an aim; GD-SPC-05: charging costs 1 AP and
    powers the shields down; GD-SPC-06: next turn it fires for 1 AP and a black hole
    replaces the planet; GD-BH-01: the sector is marked; GD-BH-02: all there is destroyed."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "O2")
    gd.put(s, 1, "raider", "P2")
    doomed = [gd.put(s, 1, "raider", "G1"), gd.put(s, 0, "miner", "G1")]
    sp = s.content.specials
    s.minerals[0] = sp.black_hole_minerals
    assert not any(a.startswith(f"charge {d}") for a in gd.legal(s))  # GD-AP-09
    s.dark[0] = sp.black_hole_dark_matter
    s._legal = None
    charges = [a for a in gd.legal(s) if a.startswith(f"charge {d}")]
    assert f"charge {d} G1" in charges and f"charge {d} O1" not in charges
    gd.do(s, f"charge {d} G1")
    x = s.ships[d]
    assert x[3] == 0 and x[5] == s.max_ap[3] - 1 and s.minerals[0] == 0 and s.dark[0] == 0
    gd.do(s, "end", "end")
    assert [a for a in gd.legal(s) if a.split()[1:2] == [str(d)]] == [f"fire {d}"]
    gd.do(s, f"fire {d}")
    assert s.holes[s.board.index["G1"]]
    assert all(u not in s.ships for u in doomed)
    assert s.ships[d][5] == s.max_ap[3] - 1


def test_unused_charge_lapses(gd):
    """GD-OPEN-06: a charge not fired on the next turn lapses."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "O2", chg=2, aim="G1")
    gd.put(s, 1, "raider", "P2")
    assert gd.legal(s) == ["end", f"fire {d}"]
    gd.do(s, "end")
    assert s.ships[d][7] == 0 and s.ships[d][8] == -1


def test_black_hole_blocks(gd):
    """GD-BH-03: anything entering a black hole is destroyed (a returning explorer);
    GD-BH-04: ships may not move into it (ruling GD-OPEN-11)."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "O1")
    gd.put(s, 1, "raider", "P2")
    s.holes[s.board.index["G1"]] = True
    e = _warped(gd, s)
    assert f"move {r} G1" not in gd.legal(s)
    gd.do(s, "end")
    gd.rolls(s, gd.d10(5), gd.segment(s, "ore"), gd.d6(1))
    gd.do(s, "end")
    assert e not in s.ships and s.minerals[0] == 3


def test_marker_cap(gd):
    """GD-BH-05 / GD-OPEN-11: no more than 5 black holes."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "G2")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0], s.dark[0] = 50, 5
    for sec in ("R1", "R2", "R3", "P1", "P3"):
        s.holes[s.board.index[sec]] = True
    assert not any(a.startswith(f"charge {d}") for a in gd.legal(s))


def test_fleet_jump(gd):
    """GD-SPC-07: the command ship charges with shields down; GD-SPC-08: next turn it jumps
    with friendly units in its sector up to 4 sectors away; GD-SPC-09: only units there at
    the start of the jump turn come along."""
    s = gd.blank()
    c = gd.put(s, 0, "command", "R2")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = s.content.specials.jump_minerals
    gd.do(s, f"charge {c}")
    assert s.ships[c][3] == 0 and s.ships[c][7] == 1
    early = gd.put(s, 0, "raider", "R1")
    gd.do(s, f"move {early} R2")  # need not be there while charging, only at turn start
    gd.do(s, "end", "end")
    late = gd.put(s, 0, "raider", "R1")
    gd.do(s, f"move {late} R2")
    jumps = [a for a in gd.legal(s) if a.startswith(f"jump {c}")]
    assert f"jump {c} P2" in jumps and f"jump {c} P1" not in jumps  # 4 away ok, 5 not
    assert f"jump {c} G1" in jumps and f"jump {c} R2" not in jumps
    gd.do(s, f"jump {c} G2")
    assert gd.sec(s, c) == "G2" and gd.sec(s, early) == "G2" and gd.sec(s, late) == "R2"


def test_jump_needs_room(gd):
    """GD-OPEN-08: a jump may not end in a sector without room for the group."""
    s = gd.blank()
    c = gd.put(s, 0, "command", "R2", chg=2)
    gd.put(s, 0, "raider", "R2")
    for _ in range(2):
        gd.put(s, 1, "raider", "G2")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, "end", "end")
    jumps = [a for a in gd.legal(s) if a.startswith(f"jump {c}")]
    assert jumps == []  # charge lapsed at the end of turn 1 (chg was set mid-turn)
    s.ships[c] = (*s.ships[c][:7], 2, -1)
    s.jump_group = {c: tuple(u for u, x in s.ships.items() if x[0] == 0 and u != c)}
    s._legal = None
    jumps = [a for a in gd.legal(s) if a.startswith(f"jump {c}")]
    assert f"jump {c} G2" not in jumps and f"jump {c} G1" in jumps


def test_charging_costs_one_ap_only(gd):
    """GD-SPC-05: charging a black hole shot takes 1 AP; GD-AP-07 / GD-AP-03: the rest of
    the destroyer's AP stay usable that turn (ruling GD-OPEN-07), but it cannot charge
    twice. GD-SPC-07: the same for a command ship charging a fleet jump."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "O2")
    c = gd.put(s, 0, "command", "R3")
    foe = gd.put(s, 1, "raider", "G3")
    sp = s.content.specials
    s.minerals[0] = sp.black_hole_minerals + sp.jump_minerals
    s.dark[0] = 2 * sp.black_hole_dark_matter
    gd.do(s, f"charge {d} G1")
    mine = [a for a in gd.legal(s) if a.split()[1:2] == [str(d)]]
    assert f"attack {d} {foe}" in mine and not any(a.startswith("charge") for a in mine)
    gd.do(s, f"attack {d} {foe}")
    assert s.ships[d][5] == s.max_ap[3] - 2 and s.ships[foe][3] == s.max_sh[4] - 2
    gd.do(s, f"charge {c}")
    assert s.ships[c][3] == 0 and s.ships[c][5] == s.max_ap[0] - 1
    gd.do(s, f"move {c} R2")
    assert gd.sec(s, c) == "R2" and f"charge {c}" not in gd.legal(s)


def test_charge_ends_turn_option(gd):
    """GD-OPEN-07, option ``charge_ends_turn``: charging ends the ship's actions."""
    s = gd.blank(charge_ends_turn=True)
    d = gd.put(s, 0, "destroyer", "O2")
    gd.put(s, 1, "raider", "G3")
    s.minerals[0], s.dark[0] = 50, 5
    gd.do(s, f"charge {d} G1")
    assert s.ships[d][5] == 0 and not any(a.split()[1:2] == [str(d)] for a in gd.legal(s))


def test_shot_needs_aim_in_range(gd):
    """GD-SPC-06 with GD-RNG-03/04: a destroyer that moved after charging so that its aim
    is in its own zone cannot fire (ruling GD-OPEN-06); the charge lapses."""
    s = gd.blank()
    d = gd.put(s, 0, "destroyer", "O1")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0], s.dark[0] = 50, 5
    gd.do(s, f"charge {d} G1", f"move {d} O2")
    gd.do(s, "end", "end")
    assert f"fire {d}" in gd.legal(s)  # G1 is still in an adjacent zone from O2
    s2 = gd.blank()
    d2 = gd.put(s2, 0, "destroyer", "O1")
    gd.put(s2, 1, "raider", "P2")
    s2.minerals[0], s2.dark[0] = 50, 5
    gd.do(s2, f"charge {d2} G1", f"move {d2} G1")
    gd.do(s2, "end", "end")
    assert f"fire {d2}" not in gd.legal(s2)
    gd.do(s2, "end")
    assert s2.ships[d2][7] == 0
