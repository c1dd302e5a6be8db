"""Log lines and rulings a player reads, worded as they should be: a blockaded base's free
fighters (RD-TURN-05, ruling RD-OPEN-24), Repair Bldg naming the building it mends
(RD-SKL-13), and Weapon Industry's default reading written where the option is
(RD-OCC-07)."""

from __future__ import annotations

import re
from pathlib import Path

import starlanes
from starlanes.games.rift_domination.rules import advance
from tests.games.rift_domination.test_battle import ground, make_state, passes

RULINGS = Path(__file__).resolve().parents[3] / "docs" / "rulings" / "rift-domination.md"


def _lost_line(t) -> str:
    advance(t)
    return next(x for x in t.action_log() if "free fighters lost" in x)


def test_one_blockaded_base_reads_as_one_sentence(rd) -> None:
    """RD-TURN-05, ruling RD-OPEN-24: one base, its orbit held by an enemy fleet."""
    t = rd.blank(phase="turn_start")
    t.step = 2
    rd.own(t, "C1a", 0, ("military_base",))
    rd.place(t, 1, "carrier", "C1a")
    line = _lost_line(t)
    assert ("no fleet, and the orbit of the military base at C1a is blockaded by an enemy "
            "fleet (no new units enter an enemy-held orbit, RD-OPEN-24): free fighters lost"
            in line)
    assert "orbit is of" not in line


def test_several_blockaded_bases_read_in_the_plural(rd) -> None:
    """RD-TURN-05, ruling RD-OPEN-24: two bases, both orbits held by enemy fleets."""
    t = rd.blank(phase="turn_start")
    t.step = 2
    rd.own(t, "C1a", 0, ("military_base",))
    rd.own(t, "C2a", 0, ("military_base",))
    rd.place(t, 1, "carrier", "C1a")
    rd.place(t, 1, "carrier", "C2a")
    line = _lost_line(t)
    assert ("no fleet, and the orbits of the military bases at C1a, C2a are blockaded by "
            "enemy fleets" in line)


def test_repair_bldg_log_names_the_building() -> None:
    """RD-SKL-13: the engineer mends 1 damage of the planet outpost; the log line says
    whose unit repaired what."""
    s = make_state()
    ground(s, ["infantry"], [4, 1, 1], garrison=["engineer"])
    passes(s)
    s.apply_notation("hit outpost")
    line = next(x for x in s.action_log() if "Repair Bldg" in x)
    assert line.endswith("'s Engineer repairs 1 damage to the planet outpost (Repair Bldg)")
    assert line.startswith(s.seat_name(1))


def test_repair_bldg_names_an_upgrade_by_its_name() -> None:
    """RD-SKL-13 with a military base in the fight: the base is named as the content
    names it ("Military Base"), not by its id."""
    s = make_state()
    ground(s, ["infantry"], [4] + [1] * 12, upgrades=("military_base",),
           garrison=["engineer"])
    passes(s)
    s.apply_notation("hit military_base")
    line = next(x for x in s.action_log() if "Repair Bldg" in x)
    assert "repairs 1 damage to the Military Base (Repair Bldg)" in line
    assert "military_base" not in line


def test_weapon_industry_default_is_the_ruling_written() -> None:
    """RD-OCC-07: the option's default is the reading the rulings page settles, in its
    options table and in its text, and every other option's default in that table is the
    code's too."""
    game = starlanes.load("rift-domination", players=2)
    specs = {s.name: s for s in game.option_set.specs}
    assert specs["weapon_industry"].default == "phase"
    text = RULINGS.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| `([\w-]+)` \|", text, flags=re.M))
    assert rows["weapon_industry"] == "phase"
    for name, default in rows.items():
        assert str(specs[name].default) == default, name
    entry = text[text.index("**RD-OCC-07 Weapon Industry.**"):]
    entry = entry[:entry.index("\n- **")]
    assert "By default (`weapon_industry=phase`)" in entry
    assert "leans to one shot" not in text
