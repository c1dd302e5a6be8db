"""Content cross-references: every id a content entry (or the game itself) refers to must
exist; a missing one is a ContentError at load naming the file, the entry and the key, never
a KeyError at set-up."""

from __future__ import annotations

from pathlib import Path

import pytest

import starlanes
from starlanes.engine import ContentError


def _remove_deck(tmp_path: Path, *ids: str) -> str:
    d = tmp_path / "content"
    d.mkdir()
    (d / "decks.toml").write_text(
        "".join(f'[[deck]]\nid = "{i}"\nremove = true\n\n' for i in ids))
    return str(d)


@pytest.mark.parametrize("deck, options", [
    ("krebiz-argonian", {"players": 2}),
    ("corporate-mechad", {"players": 3}),
    ("mechad", {"players": 4, "structure": "standard"}),
])
def test_galactic_empires_deck_the_game_deals_must_exist(tmp_path: Path, deck: str,
                                                         options: dict) -> None:
    """A Basic Set or default Standard deck removed (or renamed) from decks.toml is
    refused when the content loads, whatever the options (GE-DECK-01, ruling GE-OPEN-01)."""
    content = _remove_deck(tmp_path, deck)
    with pytest.raises(ContentError) as e:
        starlanes.load("galactic-empires", content=content, **options)
    msg = str(e.value)
    assert "decks.toml" in msg and repr(deck) in msg and "key 'id'" in msg


def test_galactic_empires_deck_renamed_in_a_full_copy(tmp_path: Path) -> None:
    """decks.toml with a deck id changed: the old id is removed, the new one added."""
    d = tmp_path / "content"
    d.mkdir()
    (d / "decks.toml").write_text(
        '[[deck]]\nid = "argonian"\nremove = true\n\n'
        '[[deck]]\nid = "argonians"\nname = "Argonian deck"\nmajor = "argonian"\n'
        'structure = "standard"\ncards = {blue_giant = 2}\nsource = "designed"\n'
        'rationale = "renamed"\n')
    with pytest.raises(ContentError) as e:
        starlanes.load("galactic-empires", players=2, content=str(d))
    assert "decks.toml" in str(e.value) and "'argonians'" in str(e.value)


def test_galactic_empires_required_deck_keeps_its_structure() -> None:
    with pytest.raises(ContentError) as e:
        starlanes.load("galactic-empires", players=2,
                       content_set=('decks.mechad.structure="basic"',))
    msg = str(e.value)
    assert "decks.toml" in msg and "'mechad'" in msg and "key 'structure'" in msg


@pytest.mark.parametrize("game_id, override, words", [
    ("galactic-empires", 'cards.eq_arg_tech.tech="vulcan"',
     ("cards.toml", "'eq_arg_tech'", "key 'tech'", "'vulcan'")),
    ("galactic-empires", 'decks.argonian.cards={blue_giant = 2, no_such_card = 1}',
     ("decks.toml", "'argonian'", "key 'cards'", "no_such_card")),
    ("interstellar-ambitions",
     'ships.captain_rogers.effects=[{kind = "pre_battle_destroy", n = 1, arg = "x_wing"}]',
     ("ships.toml", "'captain_rogers'", "key 'effects[0].arg'", "'x_wing'")),
    ("interstellar-ambitions", 'techs.hydroponics.effects=[{kind = "teleport", n = 1}]',
     ("techs.toml", "'hydroponics'", "key 'effects[0].kind'", "'teleport'")),
    ("interstellar-ambitions",
     'techs.hydroponics.effects=[{kind = "produce_extra", n = 1, arg = "gold"}]',
     ("techs.toml", "'hydroponics'", "key 'effects[0].arg'", "'gold'")),
    ("interstellar-ambitions", 'shadow.black_market.arg="gold"',
     ("shadow.toml", "'black_market'", "key 'arg'", "'gold'")),
    ("interstellar-ambitions", 'colony_events.local_militia.arg="x_wing"',
     ("colony_events.toml", "'local_militia'", "key 'arg'", "'x_wing'")),
    ("interstellar-ambitions", 'colony_events.rich_harvest.arg="gold"',
     ("colony_events.toml", "'rich_harvest'", "key 'arg'", "'gold'")),
    ("rift-domination", 'factions.vespians.roster=["fighter", "x_wing"]',
     ("factions.toml", "'vespians'", "'x_wing'")),
    ("rift-domination",
     'occ_cards.emergency_recruitment.effect={kind = "recruit", unit = "x_wing", count = 1}',
     ("occ_cards.toml", "'emergency_recruitment'", "'x_wing'")),
    ("rift-domination", 'board.A1a.system="Z9"',
     ("board.toml", "'A1a'", "key 'system'", "'Z9'")),
    ("galactic-domination", 'board.in-zone.pairs=[["R1", "Q7"]]',
     ("board.toml", "key 'pairs'", "'Q7'")),
])
def test_unknown_references_are_refused(game_id: str, override: str,
                                        words: tuple[str, ...]) -> None:
    players = 3 if game_id != "galactic-domination" else 2
    with pytest.raises(ContentError) as e:
        starlanes.load(game_id, players=players, content_set=(override,))
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_interstellar_ambitions_unknown_board_rule(tmp_path: Path) -> None:
    """A misspelt rule id is refused, not silently ignored while the real one keeps its
    packaged value."""
    d = tmp_path / "content"
    d.mkdir()
    (d / "board.toml").write_text('[[rule]]\nid = "tech_slot"\nvalue = 3\n'
                                  'source = "designed"\nrationale = "typo"\n')
    with pytest.raises(ContentError) as e:
        starlanes.load("interstellar-ambitions", players=3, content=str(d))
    msg = str(e.value)
    assert "board.toml" in msg and "'tech_slot'" in msg and "unknown rule" in msg
