"""The research adapters' fast paths give exactly the plain answers: the games' batch maps
(``legal_index_map``), the action space's ``legal_indices`` built on them and the
PettingZoo environment's masks against the indices read from each legal action's key
(``indices_by_key``); the adapters' tensor encoder (``tensor_encoder``) against
``np.clip`` of ``observation_tensor``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from starlanes.engine import ActionIndexError, load
from starlanes.envs.pettingzoo import env as make_env
from starlanes.interop import legal_index_map, tensor_bounds, tensor_encoder

from .conftest import random_states, research_games


@pytest.mark.parametrize(("game_id", "players"), research_games())
def test_legal_index_map_is_the_spaces_answer(game_id: str, players: int) -> None:
    """Along random games, and on clones revisited in a shuffled order, the game's batch
    map and the space's ``legal_indices`` equal ``indices_by_key`` (same indices, same
    action objects)."""
    fast = legal_index_map(load(game_id))
    kept = []
    for state in random_states(game_id, players, games=2, cap=400, seed=3):
        space = state.game.action_space()
        want = space.indices_by_key(state)
        answers = [space.legal_indices(state)]
        if fast is not None:
            assert space.batch is fast
            answers.append(fast(state, space))
        for got in answers:
            assert got == want
            assert all(got[i] is want[i] for i in got)
        if len(kept) < 60 and random.Random(len(state.history)).random() < 0.2:
            kept.append(state.clone())
    random.Random(5).shuffle(kept)
    for state in kept:
        space = state.game.action_space()
        want = space.indices_by_key(state)
        assert space.legal_indices(state) == want
        if fast is not None:
            assert fast(state, space) == want
    for state in reversed(kept):  # out of order again, the batch map's caches warm
        space = state.game.action_space()
        assert space.legal_indices(state) == space.indices_by_key(state)


@pytest.mark.parametrize(("game_id", "players"), research_games())
def test_aec_masks_match_the_engine(game_id: str, players: int) -> None:
    """The AEC environment's mask is the engine's legal mask at every step, and stepping
    by index applies that index's legal action."""
    env = make_env(game_id, players=players, seed=2)
    env.reset(seed=2)
    raw = env.unwrapped
    rng = random.Random(2)
    for _ in range(300):
        _, _, term, trunc, info = env.last(observe=False)
        if term or trunc:
            break
        state = raw.state
        by_key = state.game.action_space().indices_by_key(state)
        want = np.zeros(len(info["action_mask"]), np.int8)
        want[list(by_key)] = 1
        assert np.array_equal(info["action_mask"], want)
        legal = np.flatnonzero(want)
        index = int(legal[rng.randrange(len(legal))])
        action = by_key[index]
        before = len(state.history)
        env.step(index)
        assert raw.state.history[before] == action


def test_aec_refuses_an_illegal_index() -> None:
    """An index that names no legal action now raises ActionIndexError (fast map or not)."""
    env = make_env("galactic-domination", players=2, seed=0)
    env.reset(seed=0)
    mask = env.last(observe=False)[4]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionIndexError):
        env.step(illegal)


@pytest.mark.parametrize(("game_id", "players"), research_games())
def test_tensor_encoder_is_the_clipped_tensor(game_id: str, players: int) -> None:
    """Along a random game and on clones revisited in a shuffled order, for every seat, the
    adapters' encoder gives the bytes of ``np.clip(observation_tensor(seat), low, high)``,
    in a float32 array of the caller's own (Rift Domination's is clipped as it is copied
    out of a canvas kept between calls: writing into an answer must not reach it)."""
    game = load(game_id, players=players)
    encoder = tensor_encoder(game)
    low, high = tensor_bounds(game)
    kept = []
    for state in random_states(game_id, players, games=1, cap=300, seed=11):
        if len(kept) < 30 and random.Random(len(state.history)).random() < 0.15:
            kept.append(state.clone())
        for seat in range(players):
            want = np.clip(state.observation_tensor(seat), low, high)
            got = encoder(state, seat)
            assert got.dtype == np.float32 and got.tobytes() == want.tobytes()
            got.fill(-7.0)  # the caller's own array: no later encode may read it
            assert encoder(state, seat).tobytes() == want.tobytes()
    random.Random(4).shuffle(kept)
    for state in kept:
        seat = random.Random(len(state.history)).randrange(players)
        want = np.clip(state.observation_tensor(seat), low, high)
        assert encoder(state, seat).tobytes() == want.tobytes()


def test_stateless_identity_table_gives_each_keys_index() -> None:
    """A stateless space (Rift Domination's) answers by action identity once an object is
    met: along a random game every answer is the index of each action's key, decoded
    afresh; equal actions that are new objects get the same index."""
    import copy

    for state in random_states("rift-domination", 3, games=1, cap=300, seed=4):
        space = state.game.action_space()
        assert space.stateless
        got = space.indices_by_key(state)
        want = {space.index(space.key(state, a)): a for a in state.legal_actions()}
        assert got == want
        fresh = [copy.copy(a) for a in state.legal_actions()]
        for a in fresh:  # a new object of the same value: its key's index
            i = space._stateless_indices(state, [a])
            assert list(i) == [space.index(space.key(state, a))]


def test_stateless_identity_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: a caller whose legal actions are new objects at every call (equal values)
    fills the identity table; it starts again at its cap instead of growing with every
    object ever met, and the answers stay right."""
    from starlanes.engine import action_space as mod

    monkeypatch.setattr(mod, "_ID_CAP", 50)
    state = load("rift-domination", players=2, seed=0).new_initial_state()
    space = state.game.action_space()
    want = space.indices_by_key(state)
    legal = state.legal_actions()
    import copy

    for _ in range(200):
        fresh = [copy.copy(a) for a in legal]
        got = space._stateless_indices(state, fresh)
        assert sorted(got) == sorted(want)
        assert len(space._by_id) <= 50 + len(legal)
        assert len(space._held) == len(space._by_id)
