"""``starlanes cards``, ``starlanes games GAME``, ``starlanes rules`` and content overrides
through the real entry point."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import GameRecord, game_class, game_ids
from tests.test_cli import COMMAND, run

GAMES = ("rift-domination", "galactic-domination", "interstellar-ambitions", "galactic-empires")
KINDS = {
    "rift-domination": {"faction", "unit", "card", "upgrade", "tile", "system", "planet"},
    "galactic-domination": {"unit", "yield", "spinner", "special", "zone"},
    "interstellar-ambitions": {"tech", "planet", "ship", "merc", "shadow", "ambition", "event"},
    "galactic-empires": {"terrain", "ship", "base", "crew", "equipment", "occurrence",
                         "hazard", "monster", "dragon", "empire", "deck"},
}


def run80(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1")
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=60,
                          env=env)


# ---------------------------------------------------------------------- cards
@pytest.mark.parametrize("game", GAMES)
def test_cards_lists_every_entry_of_every_game(game: str) -> None:
    proc = run("cards", game, "--json")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    entries = starlanes.load(game).entries()
    assert [(e["kind"], e["id"]) for e in listed] == [(e.kind, e.id) for e in entries]
    assert KINDS[game] <= {e["kind"] for e in listed}
    assert all(e["text"] and e["name"] and e["source"] in ("rulebook", "designed")
               for e in listed)


@pytest.mark.parametrize("game", GAMES)
def test_cards_table_at_80_columns_never_cuts_an_id(game: str) -> None:
    proc = run80("cards", game)
    assert proc.returncode == 0, proc.stderr
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80
    first_cells = {line.split("│")[1].strip() for line in proc.stdout.splitlines()
                   if line.startswith("│")}
    for e in starlanes.load(game).entries():
        assert e.id in first_cells, e.id


def test_cards_filters_by_kind_stat_and_text() -> None:
    proc = run("cards", "rift-domination", "--kind", "units", "--stat", "cost=4", "--json")
    assert proc.returncode == 0, proc.stderr
    got = {e["id"] for e in json.loads(proc.stdout)}
    content = starlanes.load("rift-domination").content
    assert got == {u.id for u in content.units.values() if u.cost == 4}
    proc = run("cards", "interstellar-ambitions", "--grep", "shadow check", "--json")
    hits = json.loads(proc.stdout)
    assert hits and all("shadow check" in f"{e['id']} {e['name']} {e['text']}".lower()
                        for e in hits)


def test_cards_galactic_empires_empire_and_type_filters() -> None:
    proc = run("cards", "galactic-empires", "--empire", "krebiz", "--type", "s", "--json")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    pool = starlanes.load("galactic-empires").content.cards.values()
    assert {e["id"] for e in got} == {c.id for c in pool if c.empire == "krebiz" and c.type == "S"}


def test_cards_bad_filters_are_user_errors() -> None:
    bad = run("cards", "galactic-domination", "--kind", "faction")
    assert bad.returncode == 2 and "no entries of kind 'faction'; kinds: unit" in bad.stderr
    none = run("cards", "galactic-empires", "--type", "Z")
    assert none.returncode == 2 and "matches the filters" in none.stderr
    form = run("cards", "rift-domination", "--stat", "cost")
    assert form.returncode == 2 and "KEY=VALUE" in form.stderr


def test_cards_show_content_overrides(tmp_path: Path) -> None:
    proc = run("cards", "rift-domination", "--kind", "unit", "--json",
               "-o", "content.units.destroyer.cost=2")
    assert proc.returncode == 0, proc.stderr
    by_id = {e["id"]: e for e in json.loads(proc.stdout)}
    assert by_id["destroyer"]["stats"]["cost"] == 2
    (tmp_path / "factions.toml").write_text(
        '[[faction]]\nid = "vespians"\ntext = "Traders first."\n')
    proc = run("cards", "rift-domination", "--kind", "faction", "--content", str(tmp_path),
               "--json")
    assert {e["id"]: e["text"] for e in json.loads(proc.stdout)}["vespians"] == "Traders first."
    bad = run("cards", "rift-domination", "-o", "content.units.destroyer.cost=free")
    assert bad.returncode == 2
    assert "units.toml" in bad.stderr and "'destroyer'" in bad.stderr
    assert "'cost'" in bad.stderr and "integer" in bad.stderr


# ---------------------------------------------------------------------- games
@pytest.mark.parametrize("game", GAMES)
def test_games_game_shows_every_option(game: str) -> None:
    cls = game_class(game)
    proc = run("games", game, "--json")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)["options"]
    assert [o["name"] for o in shown] == [s.name for s in cls.option_set.specs]
    for o in shown:
        assert o["settles"] and o["type"] and o["allowed"] and o["default"]
    table = run80("games", game)
    assert table.returncode == 0
    for spec in cls.option_set.specs:
        assert spec.name in table.stdout


def test_every_option_of_every_game_says_what_it_settles() -> None:
    for gid in game_ids():
        for spec in game_class(gid).option_set.specs:
            assert len(spec.help) > 10, (gid, spec.name)


def test_command_help_points_to_the_options() -> None:
    for cmd in ("play", "simulate", "tournament", "cards"):
        proc = run(cmd, "--help")
        assert proc.returncode == 0
        flat = " ".join(proc.stdout.split())
        assert "starlanes games GAME" in flat and "content.FILE.ID.KEY=VALUE" in flat


# ---------------------------------------------------------------------- replay
def test_replay_verify_says_when_the_content_differs(tmp_path: Path) -> None:
    d = tmp_path / "content"
    d.mkdir()
    (d / "units.toml").write_text('[[unit]]\nid = "destroyer"\ncost = 3\n')
    save = tmp_path / "game.json"
    proc = run("simulate", "rift-domination", "--games", "1", "--seed", "2", "--action-cap",
               "40", "--content", str(d), "--save-records", str(tmp_path / "recs"))
    assert proc.returncode == 0, proc.stderr
    save = next((tmp_path / "recs").glob("*.json"))
    rec = GameRecord.load(save)
    assert rec.options["content"] == str(d.resolve()) and len(rec.content_fingerprint) == 64
    ok = run("replay", "--verify", str(save))
    assert ok.returncode == 0, ok.stderr
    (d / "units.toml").write_text('[[unit]]\nid = "destroyer"\ncost = 5\n')
    changed = run("replay", "--verify", str(save))
    assert changed.returncode == 1
    assert "content differs" in changed.stderr and str(d.resolve()) in changed.stderr


@pytest.mark.parametrize(("game", "override", "kind", "ident", "stat", "value"), [
    ("rift-domination", "units.cruiser.cost=7", "unit", "cruiser", "cost", 7),
    ("galactic-domination", "units.raider.hull=6", "unit", "raider", "hull", 6),
    ("interstellar-ambitions", "techs.monuments.vp=7", "tech", "monuments", "vp", 7),
    ("galactic-empires", 'empires.krebiz.text="Shells."', "empire", "krebiz", None, "Shells."),
])
def test_entries_follow_the_content_the_game_was_loaded_with(game, override, kind, ident,
                                                            stat, value) -> None:
    key, _, raw = override.partition("=")
    g = starlanes.load(game, **{f"content.{key}": raw})
    entry = next(e for e in g.entries(kind) if e.id == ident)
    assert (entry.stats[stat] if stat else entry.text) == value
    packaged = next(e for e in starlanes.load(game).entries(kind) if e.id == ident)
    assert packaged != entry
