"""Action points (GD-AP-*), turn structure (GD-TURN-*) and building (GD-BLD-*)."""

from __future__ import annotations


def test_move_costs_one_ap(gd):
    """GD-UNIT-03 / GD-AP-04: each sector moved costs 1 AP; AP limit the distance;
    GD-AP-01: AP are spent on moves, attacks and specials."""
    s = gd.blank()
    r = gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, f"move {r} O2", f"move {r} G2", f"move {r} B2")
    assert s.ships[r][5] == 0
    assert not any(a.startswith(f"move {r} ") for a in gd.legal(s))


def test_ap_belong_to_ships(gd):
    """GD-AP-02: each ship has its own AP; GD-AP-03: a ship acts while it has AP left."""
    s = gd.blank()
    a = gd.put(s, 0, "raider", "R1")
    b = gd.put(s, 0, "explorer", "R3")
    gd.put(s, 1, "raider", "P2")
    assert s.ships[a][5] == 3 and s.ships[b][5] == s.max_ap[1]
    gd.put(s, 0, "miner", "R2", ap=0)
    assert not any(x.split()[1:2] == [str(len(s.ships))] for x in gd.legal(s))


def test_one_ship_at_a_time(gd):
    """GD-AP-08: once the player switches to another ship, the first cannot act again."""
    s = gd.blank()
    a = gd.put(s, 0, "raider", "R1")
    b = gd.put(s, 0, "raider", "R3")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, f"move {a} O1")
    assert any(x.startswith(f"move {a} ") for x in gd.legal(s))
    gd.do(s, f"move {b} O3")
    assert not any(x.split()[1:2] == [str(a)] for x in gd.legal(s))
    assert s.ships[a][5] == 0


def test_unused_ap(gd):
    """GD-AP-07: a ship need not use all its AP; GD-OPEN-14: unused AP are lost and AP
    refresh at the start of the owner's turn."""
    s = gd.blank()
    a = gd.put(s, 0, "raider", "R1")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, f"move {a} O1", "end")
    assert s.ships[a][5] == 0
    gd.do(s, "end")
    assert s.ships[a][5] == 3


def test_turn_order(gd):
    """GD-TURN-01: player 1 then player 2, round after round."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R1")
    gd.put(s, 1, "raider", "P2")
    seen = []
    for _ in range(4):
        seen.append((s.round, s.seat))
        gd.do(s, "end")
    assert seen == [(1, 0), (1, 1), (2, 0), (2, 1)]


def test_turn_steps_in_order(gd):
    """GD-TURN-02: recharge, gather, explorer return, then spend AP; GD-TURN-06: spending
    is last (the player acts once the automatic steps are done)."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R1")
    m = gd.put(s, 1, "miner", "P1", att=1, sh=0)
    e = gd.put(s, 1, "explorer", "P2")
    s.ships[e] = (*s.ships[e][:2], -1, 0, *s.ships[e][4:])
    gd.rolls(s, gd.d10(1), gd.segment(s, "void"), gd.d6(1))
    gd.do(s, "end")
    log = s.log_lines[-3:]
    assert "gathers" in log[0] and "spins" in log[1] and "returns" in log[2]
    assert s.ships[m][3] == 1 and s.phase == "act" and s.current_player() == 1


def test_recharge(gd):
    """GD-TURN-03: at the start of a turn each own unit gains 1 shield up to its maximum."""
    s = gd.blank()
    a = gd.put(s, 0, "command", "R1", sh=0)
    b = gd.put(s, 0, "raider", "R2", sh=2)
    c = gd.put(s, 1, "raider", "P2", sh=0)
    gd.do(s, "end")
    assert s.ships[c][3] == 1 and s.ships[a][3] == 0
    gd.do(s, "end")
    assert s.ships[a][3] == 1 and s.ships[b][3] == 2


def test_gather(gd):
    """GD-TURN-04 / GD-SPC-02: attached miners gather at the start of their owner's turn;
    GD-SPC-03: the yield per miner depends on how many are attached to the planet;
    GD-BLD-06: minerals carry over."""
    s = gd.blank()
    gd.put(s, 0, "miner", "R1", att=1)
    gd.put(s, 0, "miner", "R2", att=1)
    gd.put(s, 0, "miner", "R2", att=1)
    gd.put(s, 0, "miner", "R3")  # not attached
    gd.put(s, 1, "raider", "P2")
    c = s.content
    s.minerals[0] = 5
    gd.do(s, "end", "end")
    assert s.minerals[0] == 5 + c.per_miner(1) + 2 * c.per_miner(2)
    assert c.per_miner(1) > c.per_miner(2) > c.per_miner(3) == c.per_miner(9)


def test_explorer_return_step(gd):
    """GD-TURN-05: the active player's explorers in deep space come back at turn start."""
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "R1")
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    gd.do(s, f"warp {e}", "end")
    assert gd.sec(s, e) == "deep"
    gd.do(s, "end")
    assert gd.sec(s, e) != "deep"


def test_build(gd):
    """GD-BLD-01: build during the spending step; GD-BLD-02: pay the cost; GD-BLD-04: in a
    non-full sector of the own start zone; GD-BLD-05: it may act at once; GD-BLD-07:
    minerals buy ships."""
    s = gd.blank()
    gd.put(s, 1, "raider", "P2")
    for _ in range(3):
        gd.put(s, 0, "raider", "R1")
    s.minerals[0] = 20
    builds = [a for a in gd.legal(s) if a.startswith("build raider")]
    assert builds == ["build raider R2", "build raider R3"]
    gd.do(s, "build raider R2")
    assert s.minerals[0] == 20 - s.cost[4]
    uid = s.next_uid - 1
    gd.do(s, f"move {uid} O2")
    assert gd.sec(s, uid) == "O2"
    assert "build miner R1" in gd.legal(s)  # miners ignore capacity


def test_no_negative_minerals(gd):
    """GD-BLD-03: a player who cannot afford a ship cannot build it."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R1")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = s.cost[4] - 1
    assert not any(a.startswith("build raider") for a in gd.legal(s))
    assert any(a.startswith("build miner") for a in gd.legal(s))


def test_full_start_zone(gd):
    """GD-OPEN-15: with every start sector full only miners can be built."""
    s = gd.blank()
    kinds = ["raider"] * 5 + ["destroyer"] * 4
    for i, kind in enumerate(kinds):
        gd.put(s, 0, kind, ("R1", "R2", "R3")[i // 3])
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = 100
    assert {a.split()[1] for a in gd.legal(s) if a.startswith("build")} == {"miner"}


def test_build_keeps_active_ship(gd):
    """Ruling: building between two actions of a ship does not end that ship's actions."""
    s = gd.blank()
    a = gd.put(s, 0, "raider", "R1")
    gd.put(s, 1, "raider", "P2")
    s.minerals[0] = 10
    gd.do(s, f"move {a} O1", "build miner R2", f"move {a} G1")
    assert gd.sec(s, a) == "G1"
