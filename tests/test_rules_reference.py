"""The rules reference: a section for every rule group the tests cite, shipped in the
package, and ``starlanes rules`` through the real entry point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from starlanes.engine.explain import rule_group
from starlanes.reference import HEADING, find_sections, reference_sections, reference_text
from tests.test_cli import run

GAMES = {"RD": "rift-domination", "GD": "galactic-domination",
         "IA": "interstellar-ambitions", "GE": "galactic-empires"}
TESTS = Path(__file__).parent
RULE_ID = re.compile(r"\b(?:RD|GD|IA|GE)(?:-[A-Z]+)+-\d+\b")


def _cited_groups() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {gid: set() for gid in GAMES.values()}
    for path in TESTS.rglob("*.py"):
        for rid in RULE_ID.findall(path.read_text()):
            out[GAMES[rid[:2]]].add(rule_group(rid))
    return out


def _available() -> list[str]:
    found = []
    for gid in GAMES.values():
        try:
            reference_text(gid)
        except Exception:  # noqa: BLE001  (a reference not yet written)
            continue
        found.append(gid)
    return found


@pytest.mark.parametrize("game", _available())
def test_every_cited_rule_group_has_a_section(game: str) -> None:
    groups = {s.group for s in reference_sections(game)}
    missing = _cited_groups()[game] - groups
    assert not missing, f"{game}: no section for {sorted(missing)}"


@pytest.mark.parametrize("game", _available())
def test_sections_cite_their_own_rule_ids(game: str) -> None:
    """Each section's paragraphs name the rule IDs they rest on, of the section's group."""
    for s in reference_sections(game):
        if not s.group:
            continue
        cited = {rule_group(r) for r in RULE_ID.findall(s.markdown.replace("..", "-"))}
        assert s.group in cited, f"{game} {s.group}: cites none of its own rule IDs"


@pytest.mark.parametrize("game", _available())
def test_headings_are_title_and_group(game: str) -> None:
    text = reference_text(game)
    for line in text.splitlines():
        if line.startswith("## "):
            assert HEADING.match(line), line


def test_the_reference_ships_as_package_data() -> None:
    import tomllib

    data = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())
    assert "*.md" in data["tool"]["setuptools"]["package-data"]["*"]
    assert (TESTS.parent / "src" / "starlanes" / "reference" / "__init__.py").exists()


def test_find_sections_by_group_rule_id_and_word() -> None:
    by_group = find_sections("rift-domination", "RD-BAT")
    assert [s.group for s in by_group] == ["RD-BAT"]
    assert find_sections("rift-domination", "bat") == by_group
    assert find_sections("rift-domination", "rd-bat-08") == by_group
    assert find_sections("rift-domination", "Battle") == by_group


def test_rules_command_whole_and_one_section() -> None:
    whole = run("rules", "rift-domination")
    assert whole.returncode == 0, whole.stderr
    assert "Battle" in whole.stdout and "Victory" in whole.stdout
    one = run("rules", "rift-domination", "RD-HIT")
    assert one.returncode == 0, one.stderr
    assert "Weapons and range" in one.stdout and "Victory" not in one.stdout
    plain = run("rules", "rift-domination", "battle", "--plain")
    assert plain.stdout.startswith("## Battle (RD-BAT)")
    listing = run("rules", "rift-domination", "--list")
    assert "RD-BAT" in listing.stdout and "RD-OPEN" in listing.stdout


def test_rules_command_errors() -> None:
    unknown = run("rules", "rift-domination", "teleportation")
    assert unknown.returncode == 2
    assert "no section" in unknown.stderr and "RD-BAT" in unknown.stderr
    game = run("rules", "chess")
    assert game.returncode == 2 and "unknown game" in game.stderr


def test_readme_points_to_the_projects_own_rules_reference() -> None:
    readme = (TESTS.parent / "README.md").read_text()
    assert "starlanes rules GAME" in readme and "docs/rules/<game>.md" in readme
    assert "../shared" not in readme
    for gid in GAMES.values():
        pointer = (TESTS.parent / "docs" / "rules" / f"{gid}.md").read_text()
        assert f"src/starlanes/reference/{gid}.md" in pointer
