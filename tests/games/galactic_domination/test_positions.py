"""Rules that other tests check through the content tables, probed through positions built
with the API: the board (GD-MAP-01/02/07), the components (GD-SET-02, GD-BH-05), the unit
list (GD-UNIT-01/02, GD-RNG-01, GD-AP-02, GD-SET-07), and the chosen arrival into a full
sector (GD-DS-05 with GD-MAP-05)."""

from __future__ import annotations

from starlanes.games.galactic_domination.content import UNIT_IDS

SECTORS = [z + r for z in "ROGBP" for r in "123"]


def _targets(gd, s, uid):
    return {int(a.split()[2]) for a in gd.legal(s) if a.startswith(f"attack {uid} ")}


def _return_to(gd, zone_roll, row_roll):
    """Warp an explorer in round 1 and bring it back with the given D10 and D6."""
    s = gd.blank()
    gd.put(s, 0, "raider", "R2")
    gd.put(s, 1, "raider", "P2")
    e = gd.put(s, 0, "explorer", "R1")
    gd.do(s, f"warp {e}", "end")
    gd.rolls(s, gd.d10(zone_roll), gd.segment(s, "void"), gd.d6(row_roll))
    gd.do(s, "end")
    return gd.sec(s, e)


def test_five_zones_of_three_sectors(gd):
    """GD-MAP-01: the D10 of a returning explorer lands it in exactly 5 zones; GD-MAP-02:
    each zone has 3 sectors (the D6 picks one of 3), and an explorer's zone-wide gun reaches
    exactly those 3 sectors; GD-SET-02: the D10 and the D6 are the game's dice."""
    landed = {_return_to(gd, z, r) for z in range(1, 11) for r in range(1, 7)}
    assert landed == set(SECTORS)
    zones = {name[0] for name in landed}
    assert len(zones) == 5
    s = gd.blank()
    e = gd.put(s, 0, "explorer", "G2")
    foes = {name: gd.put(s, 1, "miner", name) for name in SECTORS}
    hit = _targets(gd, s, e)
    assert {name for name, u in foes.items() if u in hit} == {"G1", "G2", "G3"}


def test_every_sector_has_a_planet(gd):
    """GD-MAP-07: each sector has a planet: a miner attaches in any of the 15 sectors and
    gathers there (GD-SPC-01/02)."""
    for name in SECTORS:
        s = gd.blank()
        gd.put(s, 1, "raider", "P2" if name != "P2" else "P1")
        m = gd.put(s, 0, "miner", name)
        gd.do(s, f"attach {m}", "end", "end")
        assert s.minerals[0] == s.content.per_miner(1), name


def test_five_unit_types_with_their_statistics(gd):
    """GD-UNIT-01: exactly five unit types can be built; GD-UNIT-02: each built unit has
    its movement (AP: that many moves), weapon damage (dealt by one attack), shields and
    hull (absorbing it in that order); GD-AP-02 / GD-SET-07: the observation tracks each
    ship's AP, shields and hull, which the reference sheets only help to note."""
    s = gd.blank()
    gd.put(s, 1, "raider", "P3")
    s.minerals[0] = 100
    kinds = {a.split()[1] for a in gd.legal(s) if a.startswith("build")}
    assert kinds == set(UNIT_IDS)
    for k, kind in enumerate(UNIT_IDS):
        t = gd.blank()
        gd.put(t, 1, "raider", "P3")
        t.minerals[0] = 100
        gd.do(t, f"build {kind} R2")
        uid = t.next_uid - 1
        ship = next(x for x in t.observation(1)["ships"] if x["id"] == uid)
        assert (ship["ap"], ship["shields"], ship["hull"]) == (
            t.max_ap[k], t.max_sh[k], t.max_hull[k])
        path = ["O2", "G2", "B2", "G2", "O2"]
        moved = 0
        while any(a == f"move {uid} {path[moved]}" for a in gd.legal(t)):
            gd.do(t, f"move {uid} {path[moved]}")
            moved += 1
        assert moved == t.max_ap[k], kind
        u = gd.blank()
        shooter = gd.put(u, 0, kind, "G2")
        target = gd.put(u, 1, "command", "G2" if kind != "destroyer" else "B2")
        before = u.observation(0)["ships"][1]
        if t.damage[k]:
            gd.do(u, f"attack {shooter} {target}")
            after = next(x for x in u.observation(0)["ships"] if x["id"] == target)
            assert before["shields"] - after["shields"] == min(t.damage[k], before["shields"])
            assert after["hull"] == before["hull"] - max(0, t.damage[k] - before["shields"])
        else:
            assert _targets(gd, u, shooter) == set()


def test_each_type_has_its_own_range(gd):
    """GD-RNG-01: with an enemy in every sector, the five types in G2 can reach five
    different sets of sectors."""
    reach = {}
    for kind in UNIT_IDS:
        s = gd.blank()
        me = gd.put(s, 0, kind, "G2")
        foes = {gd.put(s, 1, "miner", name): name for name in SECTORS}
        reach[kind] = frozenset(foes[u] for u in _targets(gd, s, me))
    assert reach["miner"] == frozenset() and reach["raider"] == {"G2"}
    assert len(set(reach.values())) == 5


def test_five_black_hole_markers_in_play(gd):
    """GD-BH-05 / GD-SET-02: five black holes can be fired through play; then no destroyer
    can charge another shot (ruling GD-OPEN-11)."""
    s = gd.blank()
    gd.put(s, 1, "raider", "P2")
    gd.put(s, 0, "raider", "R2")
    sp = s.content.specials
    for name in ("O1", "O3", "B1", "B3", "G2"):
        d = gd.put(s, 0, "destroyer", "R1" if name[0] == "O" else "G1" if name[0] == "B"
                   else "O2")
        s.minerals[0], s.dark[0] = sp.black_hole_minerals, sp.black_hole_dark_matter
        gd.do(s, f"charge {d} {name}", "end", "end", f"fire {d}")
        assert s.holes[s.board.index[name]]
    d = gd.put(s, 0, "destroyer", "R3")
    s.minerals[0], s.dark[0] = 50, 5
    assert sum(s.holes) == 5
    assert not any(a.startswith(f"charge {d}") for a in gd.legal(s))


def _arrival_with_full_sector(gd, **options):
    s = gd.blank(**options)
    gd.put(s, 0, "command", "G2")
    full = [gd.put(s, 1, "raider", "G1") for _ in range(3)]
    gd.put(s, 1, "raider", "P2")
    e = gd.put(s, 0, "explorer", "R1")
    gd.do(s, f"warp {e}", "end")
    gd.rolls(s, gd.d10(5), gd.segment(s, "void"), gd.d6(1))
    gd.do(s, "end")
    return s, e, full


def test_chosen_arrival_into_a_full_sector(gd):
    """GD-DS-05: the player picks any sector of the zone, a full one too, and then collides
    (GD-DS-06); with the option ``arrive_full`` off a full sector is not offered (GD-MAP-05:
    not willingly into a full sector), and when every sector left is full the D6 decides."""
    s, e, full = _arrival_with_full_sector(gd)
    assert f"arrive {e} G1" in gd.legal(s)
    gd.do(s, f"arrive {e} G1", f"sacrifice {full[0]}")
    assert e not in s.ships and full[0] not in s.ships
    s, e, _ = _arrival_with_full_sector(gd, arrive_full=False)
    assert gd.legal(s) == [f"arrive {e} G2", f"arrive {e} G3"]
    t = gd.blank(arrive_full=False)
    gd.put(t, 0, "command", "G2")
    gd.put(t, 0, "raider", "R2")
    for name, n in (("G1", 3), ("G2", 2), ("G3", 3)):
        for _ in range(n):
            gd.put(t, 1, "raider", name)
    e = gd.put(t, 0, "explorer", "R1")
    gd.do(t, f"warp {e}", "end")
    gd.rolls(t, gd.d10(5), gd.segment(t, "void"), gd.d6(3))
    gd.do(t, "end")
    assert t.stack and t.stack[-1].kind == "collide" and t.current_player() == 1
