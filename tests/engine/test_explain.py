"""Explanations through the engine contract, for every game: ``game.describe`` gives every
legal action a text and rule IDs of its game, and ``game.explain_refusal`` names a specific
reason for notations that are not legal now (unknown words, actions of another phase or of
another seat's decision), never the engine's generic fallback.

The checks run over random playouts; positions and notations come from real play, so the
mutated notations are ones a player could type.
"""

from __future__ import annotations

import random
import re

import pytest

import starlanes
from starlanes.engine import NotationError, game_module
from starlanes.engine.explain import GENERIC_KINDS, REFUSAL_KINDS, rule_group

GAMES = {
    "rift-domination": ("RD", 2),
    "galactic-domination": ("GD", 2),
    "interstellar-ambitions": ("IA", 3),
    "galactic-empires": ("GE", 2),
}
RULE_ID = re.compile(r"^[A-Z]{2}(-[A-Z]+)+-\d{2}$")
STEPS = 300


def _game(game_id: str, seed: int):
    if game_module(game_id, "explain") is None:
        pytest.skip("no explain module yet")
    prefix, players = GAMES[game_id]
    return starlanes.load(game_id, players=players, seed=seed), prefix


def _playout(game, seed: int) -> list[tuple[object, list[str]]]:
    """(state, legal notations) at every decision of a random playout of up to STEPS."""
    s = game.new_initial_state()
    rng = random.Random(seed)
    seen = []
    while not s.is_terminal() and len(seen) < STEPS:
        legal = s.legal_actions()
        seen.append((s.clone(), [str(a) for a in legal]))
        s.apply(rng.choice(legal))
    return seen


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_action_is_described(game_id: str, seed: int) -> None:
    """Every legal action of a playout has a text and rule IDs of its own game; its section
    is the group of its first rule ID."""
    game, prefix = _game(game_id, seed)
    for state, _ in _playout(game, seed):
        for action in state.legal_actions():
            d = game.describe(state, action)
            assert d.notation == str(action)
            assert d.text.strip() and d.kind.strip(), action
            assert d.rules, f"{action}: no rule IDs"
            for rule in d.rules:
                assert RULE_ID.match(rule) and rule.startswith(prefix + "-"), (action, rule)
            assert d.section == rule_group(d.rules[0])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_unknown_words_are_named(game_id: str) -> None:
    """A made-up action word, or a made-up name after a real action word, is refused as an
    unknown token."""
    game, _ = _game(game_id, 3)
    checked = 0
    for state, legal in _playout(game, 3)[::10]:
        ref = game.explain_refusal(state, "xyzzy " + legal[0])
        assert ref is not None and ref.kind == "unknown_token", ref
        with_args = [t for t in legal if len(t.split()) > 1]
        if with_args:
            words = with_args[0].split()
            bad = " ".join([*words[:-1], "qqzz9"])
            ref = game.explain_refusal(state, bad)
            assert ref is not None and ref.kind == "unknown_token", (bad, ref)
            assert "qqzz9" in ref.reason
            checked += 1
    assert checked


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [4, 5])
def test_notations_from_elsewhere_get_a_specific_reason(game_id: str, seed: int) -> None:
    """Notations legal at other points of the game - in another phase, or in another
    seat's decision - are refused with a specific reason (wrong phase, not your decision,
    cost, range, capacity ...), never the generic one, and leave the state unchanged."""
    game, _ = _game(game_id, seed)
    seen = _playout(game, seed)
    rng = random.Random(seed)
    kinds = set()
    tried = 0
    for state, legal in seen[::3]:
        digest = state.digest()
        other, other_legal = seen[rng.randrange(len(seen))]
        for text in rng.sample(other_legal, min(4, len(other_legal))):
            if text in legal:
                continue
            ref = game.explain_refusal(state, text)
            if ref is None:  # a prefix of one legal action: read_action accepts it
                continue
            tried += 1
            assert ref.kind in REFUSAL_KINDS
            assert ref.kind not in GENERIC_KINDS, (text, ref)
            assert ref.reason.strip()
            kinds.add(ref.kind)
            with pytest.raises(NotationError):
                game.read_action(state, text)
        assert state.digest() == digest
    assert tried > 20
    assert "wrong_phase" in kinds or "not_your_decision" in kinds
