"""The game-agnostic engine: registry, options, legality, notation, records, content errors
and secret choices, exercised through Rift Domination."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

import starlanes
from starlanes.engine import (
    BadOptionError,
    ContentError,
    GameRecord,
    IllegalActionError,
    NotationError,
    RecordError,
    SecretChoices,
    UnknownGameError,
    game_ids,
    load,
)
from starlanes.games.rift_domination.actions import Move
from starlanes.games.rift_domination.content import CONTENT_DIR, load_content

GAME = "rift-domination"


def _played(players=2, seed=1, steps=150, **options):
    s = load(GAME, players=players, seed=seed, **options).new_initial_state()
    r = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        s.apply(acts[r.randrange(len(acts))])
    return s


# ---------------------------------------------------------------------------- registry
def test_registry_lists_the_game():
    assert GAME in game_ids()
    assert GAME in starlanes.game_ids()


def test_unknown_game():
    with pytest.raises(UnknownGameError, match="unknown game"):
        starlanes.load("no-such-game")


@pytest.mark.parametrize("players", [1, 7, 0])
def test_bad_player_count(players):
    with pytest.raises(BadOptionError, match="2-6 players"):
        starlanes.load(GAME, players=players)


def test_players_must_be_an_int():
    with pytest.raises(BadOptionError):
        starlanes.load(GAME, players="two")
    with pytest.raises(BadOptionError):
        starlanes.load(GAME, players=True)


def test_unknown_option():
    with pytest.raises(BadOptionError, match="unknown option 'colour'"):
        starlanes.load(GAME, players=2, colour="red")


@pytest.mark.parametrize("name,value", [
    ("round_limit", "many"), ("round_limit", 0), ("round_limit", True),
    ("first_round_no_instants", "maybe"), ("first_round_no_instants", 3),
    ("warp_limit", "galaxy"), ("warp_limit", 1),
])
def test_ill_typed_option(name, value):
    with pytest.raises(BadOptionError, match=name):
        starlanes.load(GAME, players=2, **{name: value})


def test_options_are_coerced_from_text():
    g = starlanes.load(GAME, players=3, **{"round-limit": "7", "first_round_no_instants": "yes"})
    assert g.options["round_limit"] == 7 and g.options["first_round_no_instants"] is True
    assert g.options["warp_limit"] == "system"


def test_missing_content_directory(tmp_path):
    with pytest.raises(BadOptionError, match="does not exist"):
        starlanes.load(GAME, players=2, content=str(tmp_path / "nope"))


# ---------------------------------------------------------------------------- legality
def test_illegal_action_leaves_the_state_unchanged():
    s = _played(steps=60)
    before = s.digest()
    hist = len(s.history)
    with pytest.raises(IllegalActionError):
        s.apply(Move("Z9", "Z8"))
    assert s.digest() == before and len(s.history) == hist
    s.apply(s.legal_actions()[0])
    assert s.digest() != before


def test_no_actions_after_the_end():
    s = _played(steps=100000, round_limit=1)
    assert s.is_terminal() and s.legal_actions() == []
    d = s.digest()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(Move("B1", "C1"))
    assert s.digest() == d


@pytest.mark.parametrize("seed", [1, 2])
def test_notation_round_trips_every_legal_action(seed):
    s = load(GAME, players=3, seed=seed).new_initial_state()
    r = random.Random(seed)
    for _ in range(250):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        for a in acts:
            assert s.game.parse_action(s, str(a)) == a
        s.apply(acts[r.randrange(len(acts))])


@pytest.mark.parametrize("text", ["", "fly to the moon", "move", "build castle B1a", "12"])
def test_garbage_notation(text):
    s = _played(steps=40)
    d = s.digest()
    with pytest.raises(NotationError):
        s.game.parse_action(s, text)
    with pytest.raises(IllegalActionError):
        s.apply_notation(text)
    assert s.digest() == d


def test_notation_ignores_extra_whitespace():
    s = load(GAME, players=2, seed=1).new_initial_state()
    a = s.legal_actions()[0]
    assert s.game.parse_action(s, "  " + str(a).replace(" ", "   ") + " ") == a


# ---------------------------------------------------------------------------- records
def test_record_save_load_and_replay(tmp_path):
    s = _played(steps=300, seed=5)
    rec = s.record(seats=["random", "random"])
    path = tmp_path / "game.json"
    rec.save(path)
    back = GameRecord.load(path)
    assert back == rec
    again = starlanes.replay(back)
    assert again.digest() == s.digest() == rec.digest
    assert again.scores() == rec.scores


def test_replay_prefix():
    s = _played(steps=120, seed=6)
    rec = s.record()
    part = starlanes.replay(rec, upto=50)
    assert len(part.history) == 50


def test_tampered_record_raises():
    s = _played(steps=120, seed=7)
    rec = s.record()
    bad = rec.model_copy(update={"digest": "0" * 16})
    with pytest.raises(RecordError, match="digest"):
        starlanes.replay(bad)
    acts = list(rec.actions)
    acts[len(acts) // 2] = "teleport home"
    with pytest.raises(RecordError, match="does not replay"):
        starlanes.replay(rec.model_copy(update={"actions": acts}))
    with pytest.raises(RecordError, match="version"):
        starlanes.replay(rec.model_copy(update={"version": "0"}))
    with pytest.raises(RecordError):
        starlanes.replay(rec.model_copy(update={"game": "no-such-game"}))


def test_malformed_record_files(tmp_path):
    p = tmp_path / "r.json"
    p.write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.load(p)
    p.write_text(json.dumps({"game": GAME}))
    with pytest.raises(RecordError, match="malformed"):
        GameRecord.load(p)
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")


@pytest.mark.parametrize("payload, reason", [
    (b"\xff\xfe{\x00", "not UTF-8"),
    ("{}".encode("utf-16"), "not UTF-8"),
    ("{\"game\": \"caf\xe9\"}".encode("latin-1"), "not UTF-8"),
    (b"[" * 200_000, "nested too deeply"),
])
def test_record_files_that_are_not_utf8_json_give_one_clear_error(tmp_path, payload, reason):
    p = tmp_path / "r.json"
    p.write_bytes(payload)
    with pytest.raises(RecordError, match=reason):
        GameRecord.load(p)


def test_verify_checks_every_field_the_record_states():
    s = _played(steps=120, seed=8)
    rec = s.record()
    with pytest.raises(RecordError, match=r"scores: recorded \[99"):
        starlanes.replay(rec.model_copy(update={"scores": [99] * len(rec.scores)}))
    with pytest.raises(RecordError, match="finished: recorded True"):
        starlanes.replay(rec.model_copy(update={"finished": True}))
    both = rec.model_copy(update={"finished": True, "scores": [99] * len(rec.scores)})
    with pytest.raises(RecordError) as info:
        starlanes.replay(both)
    assert "finished" in str(info.value) and "scores" in str(info.value)


# ---------------------------------------------------------------------------- content
def _override(tmp_path: Path, name: str, old: str, new: str) -> Path:
    d = tmp_path / "content"
    d.mkdir(exist_ok=True)
    text = (CONTENT_DIR / name).read_text()
    assert old in text
    (d / name).write_text(text.replace(old, new, 1))
    return d


def test_broken_content_override_raises_content_error(tmp_path):
    d = _override(tmp_path, "units.toml", "cost = 2", "cost = -2")
    with pytest.raises(ContentError, match="units.toml"):
        starlanes.load(GAME, players=2, content=str(d))


def test_invalid_toml_override(tmp_path):
    d = tmp_path / "content"
    d.mkdir()
    (d / "rules.toml").write_text("[[rule]\nid = ")
    with pytest.raises(ContentError, match="not valid TOML"):
        load_content(d)


def test_unknown_faction_ability_kind(tmp_path):
    d = _override(tmp_path, "factions.toml", 'kind = "start_vp"', 'kind = "teleport_home"')
    with pytest.raises(ContentError, match="factions.toml"):
        load_content(d)


def test_valid_override_is_used(tmp_path):
    d = tmp_path / "content"
    d.mkdir()
    shutil.copy(CONTENT_DIR / "rules.toml", d / "rules.toml")
    text = (d / "rules.toml").read_text().replace(
        'id = "vp_to_win_2p"\nvalue = 10', 'id = "vp_to_win_2p"\nvalue = 9')
    (d / "rules.toml").write_text(text)
    c = load_content(d)
    assert c.rules.vp_to_win(2) == 9


# ---------------------------------------------------------------------------- state API
def test_clone_is_independent():
    s = _played(steps=80)
    d = s.digest()
    c = s.clone()
    for _ in range(30):
        if c.is_terminal():
            break
        c.apply(c.legal_actions()[-1])
    assert s.digest() == d
    assert c.digest() != d


def test_same_seed_same_game():
    assert _played(seed=11).digest() == _played(seed=11).digest()
    assert _played(seed=11).digest() != _played(seed=12).digest()


def test_observation_is_json():
    s = _played(steps=100)
    for seat in range(2):
        json.dumps(s.observation(seat))


# ---------------------------------------------------------------------------- secret choices
def test_secret_choices_commit_in_order_and_reveal_at_the_end():
    sc = SecretChoices((2, 0, 1))
    assert sc.due() == 2 and not sc.revealed
    with pytest.raises(ValueError):
        sc.commit(0, "x")
    sc.commit(2, "a")
    with pytest.raises(ValueError):
        sc.commit(2, "again")
    assert sc.view(2) == {"2": "a", "0": None, "1": None}
    assert sc.view(0) == {"2": "hidden", "0": None, "1": None}
    sc.commit(0, "b")
    c = sc.copy()
    sc.commit(1, "c")
    assert sc.revealed and sc.due() is None
    assert sc.view(0) == {"2": "a", "0": "b", "1": "c"}
    assert not c.revealed and c.view(1) == {"2": "hidden", "0": "hidden", "1": None}


def test_per_content_tables_are_shared_by_content_and_player_count():
    """Static tables (tensor layouts, token tables) are built once per game class, content
    and player count, and rebuilt for another player count or another content."""
    from starlanes.engine.game import per_content

    built = []

    def build(game):
        built.append(game)
        return object()

    a = per_content(load("galactic-empires", players=2, seed=1), build)
    assert per_content(load("galactic-empires", players=2, seed=9), build) is a
    assert per_content(load("galactic-empires", players=3, seed=1), build) is not a
    assert per_content(load("galactic-empires", players=4), build, by_players=False) \
        is per_content(load("galactic-empires", players=5), build, by_players=False)
    cheaper = load("rift-domination", players=2, content_set=("units.carrier.cost=1",))
    assert per_content(cheaper, build) is not per_content(load("rift-domination"), build)
    assert len(built) == 5
