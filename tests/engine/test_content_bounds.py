"""Content files: every number is bounded, ids and table keys are plain identifiers, and
text holds no control characters; the error names the file, the entry and the key."""

from __future__ import annotations

import copy
import importlib
import json
import shutil
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import ContentError
from starlanes.engine.content import ContentFiles

GE_CONTENT = Path(starlanes.__file__).parent / "games" / "galactic_empires" / "content"


def _load_with(tmp_path: Path, old: str, new: str) -> None:
    d = tmp_path / "content"
    shutil.copytree(GE_CONTENT, d)
    text = (d / "cards.toml").read_text()
    assert old in text
    (d / "cards.toml").write_text(text.replace(old, new, 1))
    starlanes.load("galactic-empires", players=2, content=str(d)).new_initial_state()


@pytest.mark.parametrize("new, message", [
    ('id = "crew\\u001b[2J"', "control characters"),
    ('id = "[red]crew[/red]"', "is not a plain identifier"),
    ('id = "crew gunner"', "is not a plain identifier"),
])
def test_ids_must_be_plain_identifiers(tmp_path: Path, new: str, message: str) -> None:
    with pytest.raises(ContentError) as e:
        _load_with(tmp_path, 'id = "crew_gunner"', new)
    assert "cards.toml" in str(e.value) and message in str(e.value)
    assert "key 'id'" in str(e.value)


def test_huge_numbers_are_refused_at_once(tmp_path: Path) -> None:
    """A count of 10^18 would hang set-up or exhaust memory: it is refused on loading."""
    old = 'effects = [{kind = "weapon", symbol = "P", n = 1}]'
    with pytest.raises(ContentError) as e:
        _load_with(tmp_path, old, old.replace("n = 1", f"n = {10**18}"))
    msg = str(e.value)
    assert "cards.toml" in msg and "'crew_gunner'" in msg and "effects[0].n" in msg
    assert "out of range" in msg


# ---------------------------------------------------------------- negative values
# Every number of every game's content has a lower bound where a negative value means
# nothing to the rules; the few that may be negative are listed here with their reason.
GAME_MODULES = {
    "rift-domination": "rift_domination", "galactic-domination": "galactic_domination",
    "interstellar-ambitions": "interstellar_ambitions", "galactic-empires": "galactic_empires",
}
MAY_BE_NEGATIVE = {
    # a faction may weaken a unit's stat, as long as the stat stays valid (docs/content)
    ("rift-domination", "factions.toml", "abilities.delta"),
    # a "level" colony event lowers the start level (Harsh Winter)
    ("interstellar-ambitions", "colony_events.toml", "n"),
}


def _inline(value: object) -> str:
    """A TOML inline value (the override syntax ``FILE.ID.KEY=VALUE``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items()) + "}"


def _int_leaves(value: object, path: tuple = ()):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _int_leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _int_leaves(v, (*path, i))


def _negative_cases(game_id: str):
    """One case per distinct numeric key of each file: (file, table, entry id or '', key,
    key path without indices, the new value of ``key`` with one number set to -1)."""
    mod = importlib.import_module(f"starlanes.games.{GAME_MODULES[game_id]}.content")
    docs = ContentFiles(mod.CONTENT_DIR, mod.FILES).docs
    seen: set[tuple] = set()
    for fn, doc in docs.items():
        for table, rows in doc.items():
            entries = rows if isinstance(rows, list) else [rows]
            for row in entries:
                for key, value in row.items():
                    for path in _int_leaves(value, (key,)):
                        sig = (fn, ".".join(str(p) for p in path if isinstance(p, str)))
                        if sig in seen:
                            continue
                        seen.add(sig)
                        new = copy.deepcopy(value)
                        if len(path) == 1:
                            new = -1
                        else:
                            target = new
                            for p in path[1:-1]:
                                target = target[p]
                            target[path[-1]] = -1
                        ident = row.get("id", "") if isinstance(rows, list) else ""
                        yield fn, table, ident, key, sig[1], new


def _dotted(fn: str, table: str, ident: str, key: str, value: object) -> str:
    name = fn.removesuffix(".toml")
    where = f"{table}.{ident}" if ident else table
    return f"{name}.{where}.{key}={_inline(value)}"


@pytest.mark.parametrize("game_id", sorted(GAME_MODULES))
def test_negative_numbers_are_refused_naming_file_entry_and_key(game_id: str) -> None:
    """Every numeric key of every file, set to -1, is refused on loading with a
    ContentError naming the file, the entry and the key, and nothing is loaded: the
    packaged content stays as it was; only the listed keys may be negative."""
    mod = importlib.import_module(f"starlanes.games.{GAME_MODULES[game_id]}.content")
    packaged = mod.load_content()
    cases = list(_negative_cases(game_id))
    assert len(cases) > 10
    accepted = []
    for fn, table, ident, key, sig, value in cases:
        override = _dotted(fn, table, ident, key, value)
        if (game_id, fn, sig) in MAY_BE_NEGATIVE:
            continue
        try:
            mod.load_content(overrides=(override,))
        except ContentError as e:
            msg = str(e)
            assert fn in msg, (override, msg)
            if ident:
                assert repr(ident) in msg or f"'{ident}'" in msg, (override, msg)
            assert key in msg, (override, msg)
        else:
            accepted.append(override)
    assert accepted == []
    assert mod.load_content() is packaged
    assert mod.load_content().fingerprint == packaged.fingerprint


def test_negative_value_in_an_override_directory_loads_no_game(tmp_path: Path) -> None:
    """Through the game: a negative shield value in a content directory stops the game
    from loading, naming file, entry and key."""
    d = tmp_path / "content"
    d.mkdir()
    (d / "units.toml").write_text('[[unit]]\nid = "destroyer"\nshields = -2\n')
    with pytest.raises(ContentError) as e:
        starlanes.load("rift-domination", players=2, content=str(d))
    msg = str(e.value)
    assert "units.toml" in msg and "'destroyer'" in msg and "key 'shields'" in msg
    assert ">= 0" in msg and "-2" in msg


@pytest.mark.parametrize("game_id, override, words", [
    ("interstellar-ambitions", "board.tech_slots.value=-1",
     ("board.toml", "'tech_slots'", "key 'value'", "from 1 to 30")),
    ("interstellar-ambitions", "board.merc_slots.value=0",
     ("board.toml", "'merc_slots'", "key 'value'")),
    ("interstellar-ambitions", "ambitions.expansionist.n=0",
     ("ambitions.toml", "'expansionist'", "key 'n'", ">= 1")),
    ("interstellar-ambitions", "colony_events.harsh_winter.n=-9",
     ("colony_events.toml", "'harsh_winter'", "key 'n'", "-4 to 4")),
    ("interstellar-ambitions", 'ships.sniper_frigate.effects=[{kind = "hit_on", n = 7}]',
     ("ships.toml", "'sniper_frigate'", "key 'effects[0].n'", "from 1 to 6")),
    ("galactic-empires", 'cards.crew_gunner.effects=[{kind = "weapon", symbol = "P", n = 0}]',
     ("cards.toml", "'crew_gunner'", "key 'effects[0].n'", "n >= 1")),
    ("rift-domination", "units.fighter.lp=0",
     ("units.toml", "'fighter'", "key 'lp'", ">= 1")),
    ("rift-domination", "rules.income_max.value=-2",
     ("rules.toml", "'income_max'", "key 'value'", "-2")),
    ("rift-domination", 'factions.ghostwing_syndicate.abilities=[{kind = "unit_stat", '
     'unit = "corvette", stat = "mp", delta = -3}]',
     ("factions.toml", "'ghostwing_syndicate'", "abilities", "mp at 0")),
])
def test_zero_or_out_of_range_where_meaningless(game_id: str, override: str,
                                                words: tuple[str, ...]) -> None:
    with pytest.raises(ContentError) as e:
        starlanes.load(game_id, players=3, content_set=(override,))
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_the_negatives_the_rules_allow_are_accepted() -> None:
    """A faction may weaken a stat that stays valid (corvette mp 3 - 1); a level event
    lowers the start level (the packaged Harsh Winter has n = -1)."""
    weaker = ('factions.ghostwing_syndicate.abilities=[{kind = "unit_stat", '
              'unit = "corvette", stat = "mp", delta = -1}]')
    starlanes.load("rift-domination", players=2, content_set=(weaker,)).new_initial_state()
    ia = starlanes.load("interstellar-ambitions", players=3)
    assert ia.content.events["harsh_winter"].n == -1
