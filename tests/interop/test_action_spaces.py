"""Fixed action spaces and observation tensors, over random playouts of every game that
has them."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.engine import ActionIndexError, IllegalActionError, load  # noqa: E402

from .conftest import random_states, research_games  # noqa: E402

GAMES = research_games()


@pytest.mark.parametrize("game_id, players", GAMES)
def test_mask_is_exactly_the_legal_actions_and_indices_round_trip(game_id, players):
    game = load(game_id, players=players)
    n = game.num_distinct_actions()
    for state in random_states(game_id, players, games=3, cap=400):
        mask = state.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (n,)
        legal = state.legal_actions()
        indices = [game.action_to_index(a, state) for a in legal]
        assert sorted(indices) == sorted(np.flatnonzero(mask).tolist())
        assert len(set(indices)) == len(legal)
        for a, i in zip(legal, indices, strict=True):
            assert 0 <= i < n
            assert state.game.index_to_action(state, i) == a


@pytest.mark.parametrize("game_id, players", GAMES)
def test_indices_are_stable_for_a_given_content(game_id, players):
    a = load(game_id, players=players, seed=1).action_space()
    b = load(game_id, players=players, seed=99).action_space()
    assert a.size == b.size
    for i in random.Random(0).sample(range(a.size), min(500, a.size)):
        assert a.key_at(i) == b.key_at(i)
        assert b.index(a.key_at(i)) == i


@pytest.mark.parametrize("game_id, players", GAMES)
def test_an_index_that_is_not_legal_is_refused(game_id, players):
    game = load(game_id, players=players)
    state = game.new_initial_state()
    mask = state.legal_action_mask()
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(ActionIndexError, match="not legal now"):
        game.index_to_action(state, illegal)
    with pytest.raises(ActionIndexError, match="outside"):
        game.index_to_action(state, game.num_distinct_actions())
    assert isinstance(ActionIndexError("x"), Exception)
    assert not issubclass(ActionIndexError, IllegalActionError)


@pytest.mark.parametrize("game_id, players", GAMES)
def test_tensor_has_the_documented_shape_and_ignores_others_hidden_information(
        game_id, players):
    game = load(game_id, players=players)
    shape = game.observation_tensor_shape()
    rng = random.Random(3)
    for k, state in enumerate(random_states(game_id, players, games=2, cap=300)):
        if k % 7:
            continue
        for seat in range(players):
            t = state.observation_tensor(seat)
            assert t.shape == shape and t.dtype == np.float32
            assert np.isfinite(t).all()
            # every determinisation for this seat resamples only what it cannot see
            d = state.determinize(seat, rng)
            assert np.array_equal(d.observation_tensor(seat), t)


def test_galactic_domination_names_ships_by_slot_not_number():
    """Ship numbers grow; the index of 'move the oldest raider to R2' does not."""
    game = load("galactic-domination", players=2)
    space = game.action_space()
    i = space.index(("move", "raider0", "R2"))
    assert space.key_at(i) == ("move", "raider0", "R2")
    seen: set[int] = set()
    for state in random_states("galactic-domination", 2, games=4, cap=600, seed=10):
        for a in state.legal_actions():
            seen.add(game.action_to_index(a, state))
    assert max(seen) < game.num_distinct_actions()
    state = game.new_initial_state()
    rng = random.Random(1)
    while not any(str(a).startswith("move ") for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    move = next(a for a in state.legal_actions() if str(a).startswith("move "))
    with pytest.raises(ActionIndexError, match="needs the state"):
        game.action_to_index(move)
