"""Content loading: provenance, validation errors, override directories, notation."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import BadOptionError, ContentError, NotationError
from starlanes.games.galactic_domination.content import CONTENT_DIR, load_content


def test_every_entry_has_provenance():
    c = load_content()
    for u in c.units:
        assert u.source in ("rulebook", "designed") and (u.source == "rulebook" or u.rationale)
    assert c.yields == (3, 2, 1)


def test_override_directory(tmp_path):
    text = (CONTENT_DIR / "units.toml").read_text().replace("cost = 7", "cost = 5")
    (tmp_path / "units.toml").write_text(text)
    g = starlanes.load("galactic-domination", content=str(tmp_path))
    assert g.content.units[4].cost == 5


def test_bad_content(tmp_path):
    (tmp_path / "units.toml").write_text('[[unit]]\nid = "raider"\ncost = "cheap"\n')
    with pytest.raises(ContentError, match=r"units\.toml.*'raider'.*'cost'.*integer >= 1"):
        load_content(tmp_path)
    with pytest.raises(BadOptionError):
        starlanes.load("galactic-domination", content=str(tmp_path / "missing"))


def test_notation_round_trip():
    g = starlanes.load("galactic-domination", seed=1)
    s = g.new_initial_state()
    for a in s.legal_actions():
        assert g.parse_action(s, str(a)) == a
    with pytest.raises(NotationError):
        g.parse_action(s, "fly away")
