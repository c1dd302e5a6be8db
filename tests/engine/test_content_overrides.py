"""Content overrides that forgive: partial files merged entry by entry, dotted overrides,
errors naming file, entry, key and expected type, the content fingerprint and replay."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import ContentError, GameRecord, RecordError, replay
from starlanes.engine.content import ContentFiles
from starlanes.games.galactic_empires import content as ge_content
from starlanes.games.interstellar_ambitions import content as ia_content
from starlanes.games.rift_domination import content as rd_content
from starlanes.games.rift_domination.content import CONTENT_DIR, FILES, load_content

RD = "rift-domination"
PACKAGED = load_content()


def _dir(tmp_path: Path, **files: str) -> Path:
    d = tmp_path / "content"
    d.mkdir(exist_ok=True)
    for name, text in files.items():
        (d / f"{name}.toml").write_text(text)
    return d


def _playout(game, steps: int = 60):
    s = game.new_initial_state()
    for i in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply(legal[i % len(legal)])
    return s


# ------------------------------------------------------------------ merging
def test_partial_file_changes_exactly_what_it_names(tmp_path):
    d = _dir(tmp_path, units='[[unit]]\nid = "destroyer"\ncost = 2\n')
    merged = ContentFiles(CONTENT_DIR, FILES, d)
    expected = copy.deepcopy(ContentFiles(CONTENT_DIR, FILES).docs)
    row = next(r for r in expected["units.toml"]["unit"] if r["id"] == "destroyer")
    row["cost"] = 2
    assert merged.docs == expected
    c = load_content(d)
    assert c.units["destroyer"].cost == 2
    assert c.units["destroyer"].model_copy(update={"cost": PACKAGED.units["destroyer"].cost}) \
        == PACKAGED.units["destroyer"]
    assert {k: v for k, v in c.units.items() if k != "destroyer"} == \
        {k: v for k, v in PACKAGED.units.items() if k != "destroyer"}
    assert c.factions == PACKAGED.factions and c.cards == PACKAGED.cards
    assert c.systems == PACKAGED.systems and c.rules == PACKAGED.rules


def test_single_table_merges_key_by_key(tmp_path):
    d = _dir(tmp_path, upgrades="[outpost]\nlp = 3\n")
    c = load_content(d)
    assert c.outpost.lp == 3
    assert c.outpost.close == PACKAGED.outpost.close
    assert c.upgrades == PACKAGED.upgrades


def test_new_entry_is_added_and_remove_drops_one(tmp_path):
    d = _dir(tmp_path, occ_cards='[[card]]\nid = "windfall"\nremove = true\n')
    with pytest.raises(ContentError, match=r"sum to 100, they sum to 96"):
        load_content(d)


def test_new_entry_needs_every_key(tmp_path):
    d = _dir(tmp_path, units='[[unit]]\nid = "dreadnought"\nname = "Dreadnought"\n')
    with pytest.raises(ContentError, match=r"units\.toml.*'dreadnought': missing key\(s\) .*'cost'.*cost: an integer >= 1"):
        load_content(d)


def test_dotted_overrides_equal_the_same_partial_file(tmp_path):
    d = _dir(tmp_path, units='[[unit]]\nid = "destroyer"\ncost = 2\n')
    dotted = load_content(None, ("units.destroyer.cost=2",))
    assert dotted.units == load_content(d).units
    assert dotted.fingerprint == load_content(d).fingerprint


def test_dotted_override_reaches_into_a_table():
    c = load_content(None, ("factions.vespians.start_units.fighter=6",
                            "upgrades.outpost.lp=4", 'units.fighter.name="Interceptor"'))
    assert c.factions["vespians"].start_units["fighter"] == 6
    assert c.factions["vespians"].start_units["infantry"] == \
        PACKAGED.factions["vespians"].start_units["infantry"]
    assert c.outpost.lp == 4
    assert c.units["fighter"].name == "Interceptor"


def test_every_game_merges_partial_overrides(tmp_path):
    ia = ia_content.load_content(None, ("techs.hydroponics.vp=3",))
    assert ia.techs["hydroponics"].vp == 3
    assert ia.techs["think_tanks"] == ia_content.load_content().techs["think_tanks"]
    ge = ge_content.load_content(None, ("terrain.blue_giant.strength=5",))
    assert ge.cards["blue_giant"].strength == 5
    g = starlanes.load("galactic-domination", **{"content.units.raider.cost": "5"})
    assert g.content.units[4].cost == 5


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize(("files", "overrides", "pattern"), [
    ({"units": '[[unit]]\nid = "destroyer"\ncost = "two"\n'}, (),
     r"units\.toml \(entry changed by .*units\.toml\): entry 'destroyer': key 'cost'.*"
     r"expected an integer >= 1, got 'two'"),
    ({"units": '[[unit]]\nid = "destroyer"\nspeed = 3\n'}, (),
     r"units\.toml.*'destroyer': unknown key 'speed'.*known keys: .*cost"),
    ({"units": '[[unit]]\nid = "destroyer"\nground = "maybe"\n'}, (),
     r"'destroyer': key 'ground'.*expected true or false"),
    ({"units": '[[units]]\nid = "destroyer"\ncost = 2\n'}, (),
     r"units\.toml: unknown table 'units'; units\.toml holds \[\[unit\]\]"),
    ({"units": '[[unit]]\ncost = 2\n'}, (), r"needs an id"),
    ({"unit": '[[unit]]\nid = "destroyer"\ncost = 2\n'}, (),
     r"unknown file\(s\) unit\.toml; this game reads only board\.toml, units\.toml"),
    ({}, ("units.destroyer.cost=lots",),
     r"override 'units\.destroyer\.cost=lots'.*'cost'.*expected an integer >= 1"),
    ({}, ("unit.destroyer.cost=2",), r"unknown content file 'unit'; one of board, units"),
    ({}, ("units.dreadnought.cost=2",), r"units\.toml has no entry 'dreadnought'"),
    ({}, ("units.destroyer=2",), r"not of the form FILE\.ID\.KEY=VALUE"),
    ({"occ_cards": '[[card]]\nid = "no_such"\nremove = true\n'}, (), r"no such \[\[card\]\]"),
])
def test_bad_overrides_name_file_entry_key_and_type(tmp_path, files, overrides, pattern):
    d = _dir(tmp_path, **files) if files else None
    with pytest.raises(ContentError, match=pattern):
        load_content(d, overrides)


def test_bad_override_through_load_is_a_content_error_and_keeps_packaged_content(tmp_path):
    with pytest.raises(ContentError, match="'cost'"):
        starlanes.load(RD, players=2, **{"content.units.destroyer.cost": "-1"})
    assert load_content().units["destroyer"].cost == PACKAGED.units["destroyer"].cost
    assert rd_content.load_content() is PACKAGED


# ------------------------------------------------------------------ fingerprint and records
def test_fingerprint_changes_with_content(tmp_path):
    g0 = starlanes.load(RD, players=2)
    assert len(g0.content_fingerprint) == 64
    assert starlanes.load(RD, players=3).content_fingerprint == g0.content_fingerprint
    g1 = starlanes.load(RD, players=2, **{"content.units.destroyer.cost": "3"})
    g2 = starlanes.load(RD, players=2, **{"content.units.destroyer.cost": "5"})
    assert len({g0.content_fingerprint, g1.content_fingerprint, g2.content_fingerprint}) == 3


def test_record_keeps_fingerprint_absolute_path_and_overrides(tmp_path, monkeypatch):
    d = _dir(tmp_path, units='[[unit]]\nid = "destroyer"\ncost = 3\n')
    monkeypatch.chdir(tmp_path)
    g = starlanes.load(RD, players=2, seed=3, content="content",
                       **{"content.units.carrier.cost": "1"})
    rec = _playout(g).record()
    assert rec.options["content"] == str(d.resolve())
    assert rec.options["content_set"] == ["units.carrier.cost=1"]
    assert rec.content_fingerprint == g.content_fingerprint
    path = tmp_path / "game.json"
    rec.save(path)
    monkeypatch.chdir(Path(os.sep))  # replay from elsewhere still finds the content
    back = GameRecord.load(path)
    assert replay(back).digest() == rec.digest


def test_replay_detects_changed_content(tmp_path):
    d = _dir(tmp_path, units='[[unit]]\nid = "destroyer"\ncost = 3\n')
    rec = _playout(starlanes.load(RD, players=2, seed=4, content=str(d))).record()
    (d / "units.toml").write_text('[[unit]]\nid = "destroyer"\ncost = 4\n')
    with pytest.raises(RecordError, match=r"content differs.*" + str(d.resolve())):
        replay(rec)
    forged = rec.model_copy(update={"content_fingerprint": "0" * 64})
    (d / "units.toml").write_text('[[unit]]\nid = "destroyer"\ncost = 3\n')
    assert replay(rec).digest() == rec.digest
    with pytest.raises(RecordError, match="content differs"):
        replay(forged)


def test_records_without_fingerprint_still_replay():
    rec = _playout(starlanes.load(RD, players=2, seed=2)).record()
    old = rec.model_copy(update={"content_fingerprint": ""})
    assert replay(old).digest() == rec.digest


@pytest.mark.parametrize(("module", "file", "table", "ident", "key", "value"), [
    (rd_content, "units", "unit", "cruiser", "cost", 7),
    (ia_content, "ships", "ship", "battleship", "combat", 5),
    (ge_content, "ships", "card", "arg_scout", "strength", 3),
    ("galactic_domination", "economy", "segment", "void", "weight", 2),
])
def test_every_game_merged_equals_packaged_plus_the_change(tmp_path, module, file, table,
                                                          ident, key, value):
    if isinstance(module, str):
        from starlanes.games.galactic_domination import content as module
    d = _dir(tmp_path, **{file: f'[[{table}]]\nid = "{ident}"\n{key} = {value}\n'})
    merged = ContentFiles(module.CONTENT_DIR, module.FILES, d)
    expected = copy.deepcopy(ContentFiles(module.CONTENT_DIR, module.FILES).docs)
    row = next(r for r in expected[f"{file}.toml"][table] if r["id"] == ident)
    assert row[key] != value
    row[key] = value
    assert merged.docs == expected
    loaded = module.load_content(d)
    assert loaded.fingerprint == merged.fingerprint != module.load_content().fingerprint
