"""Rift Domination content files: counts, printed numbers and loader errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from starlanes.engine.errors import ContentError
from starlanes.games.rift_domination.content import (
    ABILITY_PARAMS,
    CONTENT_DIR,
    EFFECT_PARAMS,
    SKILLS,
    UNIT_IDS,
    load_content,
)

C = load_content()


def _stats(entry, *fields):
    return tuple(getattr(entry, f) for f in fields)


# ---------------------------------------------------------------- board


def test_thirty_systems_on_grid():
    """RD-SYS-01: the board has 30 systems (here a 6 x 5 grid, ids A1..F5)."""
    assert len(C.systems) == 30
    assert {(s.x, s.y) for s in C.systems.values()} == {(x, y) for x in range(6) for y in range(5)}
    assert C.systems["A1"].x == 0 and C.systems["A1"].y == 0
    assert (C.systems["C3"].x, C.systems["C3"].y) == (2, 2)


def test_grid_adjacency_is_orthogonal():
    """RD-MOV-05: travel to any adjacent system, but not diagonally."""
    assert set(C.neighbours("C3")) == {"C2", "C4", "B3", "D3"}
    assert set(C.neighbours("A1")) == {"B1", "A2"}
    assert set(C.neighbours("F5")) == {"E5", "F4"}
    assert "B2" not in C.neighbours("A1")
    pairs = {frozenset((a, b)) for a in C.systems for b in C.neighbours(a)}
    assert len(pairs) == 5 * 5 + 6 * 4


@pytest.mark.parametrize("board,twos,ones,empty", [("standard", 21, 0, 8),
                                                   ("classic", 13, 16, 0)])
def test_forty_four_planets(board, twos, ones, empty):
    """RD-CMP-02 / RD-SYS-01: 30 systems and 44 planet cards on every board; RD-SPC-01: two
    huge planets in the centre. The standard board has no one-planet systems and 8 empty
    ones, the classic board 16 one-planet systems."""
    c = load_content(board=board)
    assert len(c.systems) == 30 and len(c.planets) == 44
    assert [p.id for p in c.planets.values() if p.huge] == ["C3a", "C3b"]
    assert [s.id for s in c.systems.values() if s.central] == ["C3"]
    counts = {sid: len(c.planets_of(sid)) for sid in c.systems}
    assert counts["C3"] == 2
    others = [n for sid, n in counts.items() if sid != "C3"]
    assert (others.count(2), others.count(1), others.count(0)) == (twos, ones, empty)
    assert len({p.name for p in c.planets.values()}) == 44


@pytest.mark.parametrize("board,columns,garrison", [("standard", (0, 4), 2),
                                                    ("classic", (1, 4), 0)])
def test_small_area_and_starting_systems(board, columns, garrison):
    """RD-SET-07/08: small area for <= 4 players; white starts for 5-6, yellow for 2-4.
    The standard small area is the 5 x 5 square centred on C3 with the yellow starts in its
    corners, and every planet has a neutral garrison (ruling RD-OPEN-25)."""
    c = load_content(board=board)
    small = {s.id for s in c.systems.values() if s.small_area}
    assert small == {s.id for s in c.systems.values() if columns[0] <= s.x <= columns[1]}
    assert "C3" in small
    white, yellow = c.start_systems(6), c.start_systems(4)
    assert len(white) == 6 and len(yellow) == 4
    assert c.start_systems(5) == white and c.start_systems(2) == yellow
    assert not set(white) & set(yellow)
    assert set(yellow) <= small
    for sid in (*white, *yellow):
        assert len(c.planets_of(sid)) == 2
    dist = {s.id: abs(s.x - 2) + abs(s.y - 2) for s in c.systems.values()}
    assert len({dist[s] for s in yellow}) == 1
    assert {p.garrison for p in c.planets.values()} == {garrison}


def test_wormholes():
    """RD-MOV-14: wormholes (Timewarper games) link far-apart systems."""
    assert sorted(C.wormholes) == ["W1", "W2", "W3", "W4"]
    ends = [e for w in C.wormholes.values() for e in (w.a, w.b)]
    assert len(set(ends)) == 8
    small = {s.id for s in C.systems.values() if s.small_area}
    inside = [w for w in C.wormholes.values() if {w.a, w.b} <= small]
    assert len(inside) == 2
    for w in C.wormholes.values():
        a, b = C.systems[w.a], C.systems[w.b]
        assert abs(a.x - b.x) + abs(a.y - b.y) >= 4


# ---------------------------------------------------------------- units and upgrades

FIELDS = ("cost", "lp", "shields", "close", "mid", "long")


def test_sixteen_unit_types():
    """RD-UNIT-01/02: unit cards; carried units move only aboard ships."""
    assert set(C.units) == set(UNIT_IDS) and len(C.units) == 16
    for u in C.units.values():
        assert set(u.skills) <= set(SKILLS)
        if u.ground or u.id in ("fighter", "kamikaze_drone"):
            assert u.mp == 0 and u.used_capacity >= 1, u.id
        else:
            assert u.used_capacity == 0 and u.mp >= 1, u.id
    assert {u.id for u in C.units.values() if u.ground} == {"infantry", "diplomat", "engineer"}


def test_fighter_printed():
    """RD-UNIT-03: fighter cost 1, 1 LP, 0 shields, 1x close / 0x mid / 0x long."""
    assert _stats(C.units["fighter"], *FIELDS) == (1, 1, 0, 1, 0, 0)
    assert C.units["fighter"].source == "rulebook"


def test_carrier_printed():
    """RD-UNIT-04: carrier cost 2, 1 LP, 1 shield, 1x close / 0x mid / 0x long."""
    assert _stats(C.units["carrier"], *FIELDS) == (2, 1, 1, 1, 0, 0)
    assert C.units["carrier"].capacity > 0


def test_unit_skills_printed():
    """RD-UNIT-05: carrier, infantry and fighter have no skill; the diplomat negotiates."""
    for uid in ("carrier", "infantry", "fighter"):
        assert C.units[uid].skills == ()
    assert C.units["diplomat"].skills == ("negotiate",)


def test_flagship_printed():
    """RD-UNIT-06, RD-UNIT-07, RD-UNIT-08, RD-UNIT-09: flagship cost 13, 5 LP, 5 shields, mp 2, 2/2/2 weapons, capacity 8,
    used capacity 0, Bombardment II and Rocket Barrage."""
    f = C.units["flagship"]
    assert _stats(f, *FIELDS) == (13, 5, 5, 2, 2, 2)
    assert (f.mp, f.capacity, f.used_capacity) == (2, 8, 0)
    assert set(f.skills) == {"bombardment_2", "rocket_barrage"}
    assert f.source == "rulebook"


def test_goliath_movement_example():
    """RD-MOV-12: a goliath has two movement points."""
    assert C.units["goliath"].mp == 2 and "taunt" in C.units["goliath"].skills


def test_upgrades_printed():
    """RD-UPG-06, 11, 13, 14, 15, 17: costs and ground-combat stats of the six upgrades."""
    up = C.upgrades
    assert {k: u.cost for k, u in up.items()} == {
        "warp": 4, "mine": 4, "trading_outpost": 4, "artillery": 2, "military_base": 6,
        "shield_generator": 3,
    }
    assert _stats(up["artillery"], *FIELDS[1:]) == (1, 0, 1, 1, 0)
    assert _stats(up["military_base"], *FIELDS[1:]) == (3, 1, 2, 2, 0)
    assert _stats(up["shield_generator"], *FIELDS[1:]) == (1, 1, 0, 0, 0)
    assert up["shield_generator"].skills == ("overload",)
    assert all(u.source == "rulebook" for u in up.values())


def test_upgrade_transfer_and_combat():
    """RD-BAT-15/17/18: combat buildings fight and never pass to the captor; others pass."""
    for uid in ("artillery", "military_base", "shield_generator"):
        assert C.upgrades[uid].combatant and not C.upgrades[uid].transfers
    for uid in ("warp", "mine", "trading_outpost"):
        assert C.upgrades[uid].transfers and not C.upgrades[uid].combatant


def test_planet_outpost():
    """RD-BAT-14: a planet outpost has 1 close range attack and 2 LP."""
    assert (C.outpost.lp, C.outpost.close, C.outpost.mid, C.outpost.long) == (2, 1, 0, 0)


# ---------------------------------------------------------------- factions


def test_vespians_printed():
    """RD-FAC-03..09: the Vespian sheet, exactly as printed."""
    v = C.factions["vespians"]
    assert v.name == "Vespians" and v.source == "rulebook"
    assert v.start_units == {"infantry": 2, "carrier": 2, "fighter": 4, "diplomat": 2}
    assert v.start_resources == 8
    assert v.start_upgrades == ("trading_outpost",)
    assert set(v.roster) == {"infantry", "fighter", "carrier", "diplomat"}
    assert v.unlock_limit == 2
    ab = {a.kind: a for a in v.abilities}
    assert set(ab) == {"trading_outpost_draw", "diplomat_recruits", "diplomat_shield"}
    assert ab["trading_outpost_draw"].cards == 2
    assert set(ab["diplomat_recruits"].units) == {"fighter", "infantry"}


def test_thirty_distinct_factions():
    """RD-FAC-01: 30 factions, each with its own mechanic; RD-FAC-12: The Void consumes."""
    assert len(C.factions) == 30
    sigs = {
        tuple(sorted(repr(sorted(a.model_dump().items())) for a in f.abilities))
        for f in C.factions.values()
    }
    assert len(sigs) == 30
    assert C.factions["timewarper"].ability("wormhole_mastery")
    (consume,) = C.factions["the_void"].ability("consume")
    assert consume.resources + consume.vp > 0
    used = {a.kind for f in C.factions.values() for a in f.abilities}
    assert used == set(ABILITY_PARAMS)


def test_faction_starts_are_balanced():
    """RD-SET-12: starting materials: units worth 14-20, 5-13 resources, cargo fits."""
    for f in C.factions.values():
        worth = sum(C.units[u].cost * n for u, n in f.start_units.items())
        assert 14 <= worth <= 20, f.id
        assert 5 <= f.start_resources <= 13, f.id
        cargo = sum(C.units[u].used_capacity * n for u, n in f.start_units.items())
        room = sum(C.units[u].capacity * n for u, n in f.start_units.items())
        assert cargo <= room + sum(
            a.delta * f.start_units.get(a.unit, 0)
            for a in f.ability("unit_stat") if a.stat == "capacity"
        ), f.id
        assert len(f.start_upgrades) <= 1


# ---------------------------------------------------------------- cards, tiles, rules


def test_occ_deck():
    """RD-CMP-01: 100 OCC-cards in more than 25 variants; RD-OCC-03/04: some instant,
    some bad."""
    assert len(C.deck()) == 100
    assert len(C.cards) > 25
    instant = sum(c.count for c in C.cards.values() if c.timing == "instant")
    assert 15 <= instant <= 25
    kinds = {c.effect.kind for c in C.cards.values()}
    assert {"lose_vp", "lose_resources", "income_down", "lose_units"} <= kinds
    assert kinds == set(EFFECT_PARAMS)


def test_printed_card_kinds():
    """RD-OCC-05..07, RD-OCC-04: VP cards, recruitment in battle, Weapon Industry, and
    counters to attacks, skills and other cards."""
    by_kind = {}
    for c in C.cards.values():
        by_kind.setdefault(c.effect.kind, []).append(c)
    assert any(c.timing == "battle" for c in by_kind["recruit"])
    assert by_kind["weapon_industry"][0].name == "Weapon Industry"
    assert by_kind["gain_vp"] and by_kind["lose_vp"]
    assert by_kind["cancel_attack"][0].timing == "counter"
    assert by_kind["counter"][0].timing == "counter"
    assert by_kind["skill_block"][0].timing == "battle"


def test_condition_tiles():
    """RD-PLC-03, RD-SET-06: tiles of all four conditions, enough for every non-home planet."""
    assert len(C.tile_bag()) >= 40
    assert {t.kind for t in C.tiles.values()} == {"civilized", "dangerous", "anomaly", "harvester"}


def test_rule_constants():
    """RD-WIN-02/03, RD-TURN-02/04, RD-UPG-01/02, RD-SPC-03, RD-SYS-04: printed numbers."""
    r = C.rules
    assert r.vp_to_win(2) == 10 and r.vp_to_win(6) == 14
    assert r.victory_points[2] == 10
    assert (r.occ_draw_per_turn, r.free_fighters_per_turn, r.start_occ_cards) == (2, 2, 2)
    assert (r.upgrade_slots, r.huge_upgrade_slots, r.huge_planet_vp) == (2, 4, 4)
    assert (r.system_control_vp, r.battle_win_vp, r.civilized_cost) == (1, 1, 2)
    assert r.dangerous_min_roll == 3 and r.overload_shields == 4


def test_every_designed_entry_has_rationale():
    """Provenance: designed entries explain themselves."""
    tables = (C.systems, C.planets, C.wormholes, C.units, C.upgrades, C.tiles, C.factions,
              C.cards, C.rule_entries)
    for table in tables:
        for e in table.values():
            assert e.source == "rulebook" or e.rationale.strip()


# ---------------------------------------------------------------- loader


def test_default_load_is_cached(tmp_path):
    assert load_content() is load_content()
    assert load_content(tmp_path) is not load_content(tmp_path)


def _override(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> Path:
    text = (CONTENT_DIR / name).read_text()
    assert old in text, old
    (tmp_path / name).write_text(text.replace(old, new, count))
    return tmp_path


def test_override_replaces_only_its_files(tmp_path):
    _override(tmp_path, "units.toml", 'name = "Fighter"', 'name = "Interceptor"')
    c = load_content(tmp_path)
    assert c.units["fighter"].name == "Interceptor"
    assert c.factions == C.factions and c.cards == C.cards and c.systems == C.systems


@pytest.mark.parametrize(
    ("name", "old", "new", "pattern"),
    [
        ("units.toml", "[[unit]]", "[[unit]\n", r"units\.toml.*not valid TOML"),
        ("units.toml", "cost = 1\n", "cost = 1\nspeed = 3\n", r"'fighter'.*speed.*[Ee]xtra"),
        ("occ_cards.toml", "count = 4", "count = 5", r"occ_cards\.toml.*sum to 100.*101"),
        ("factions.toml", 'roster = ["infantry", "fighter", "carrier", "diplomat"]',
         'roster = ["infantry", "fighter", "carrier", "tank"]', r"vespians.*unknown unit id 'tank'"),
        ("factions.toml", 'units = ["fighter", "infantry"]', 'units = ["fighter", "walker"]',
         r"diplomat_recruits.*'walker'"),
        ("factions.toml", 'kind = "diplomat_shield"', 'kind = "mind_control"', r"vespians.*abilities"),
        ("factions.toml", "cards = 2", "cards = 2, bonus = 1", r"vespians.*bonus"),
        ("occ_cards.toml", '{ kind = "recruit", unit = "fighter"',
         '{ kind = "recruit", unit = "dragon"', r"unknown unit id 'dragon'"),
        ("occ_cards.toml", 'timing = "battle"\neffect = { kind = "weapon_industry" }',
         'timing = "instant"\neffect = { kind = "weapon_industry" }', r"weapon_industry.*timing"),
        ("board.toml", 'system = "C3"', 'system = "Z9"', r"board\.toml.*'Z9'"),
        ("board.toml", 'a = "C1"', 'a = "E3"', r"wormhole.*'E3'"),
        ("rules.toml", 'id = "vp_to_win_2p"', 'id = "vp_to_win_1p"', r"rules\.toml.*vp_to_win_1p"),
    ],
)
def test_broken_override_raises(tmp_path, name, old, new, pattern):
    _override(tmp_path, name, old, new)
    with pytest.raises(ContentError, match=pattern):
        load_content(tmp_path)


def test_designed_without_rationale(tmp_path):
    text = (CONTENT_DIR / "units.toml").read_text()
    text = re.sub(r'rationale = "The basic ground unit[^"]*"', 'rationale = ""', text)
    (tmp_path / "units.toml").write_text(text)
    with pytest.raises(ContentError, match=r"units\.toml.*'infantry'.*rationale"):
        load_content(tmp_path)


def test_wrong_counts_raise(tmp_path):
    """An override may drop a packaged entry (remove = true); the count check still holds."""
    (tmp_path / "factions.toml").write_text('[[faction]]\nid = "vespians"\nremove = true\n')
    with pytest.raises(ContentError, match=r"exactly 30 factions, has 29"):
        load_content(tmp_path)
