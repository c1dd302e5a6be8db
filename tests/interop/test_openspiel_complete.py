"""OpenSpiel completeness: serialisation round trips, the length bound, the
information-state tensor's history part, reward modes and the guarded C++ bots."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'starlanes[rl]')")
np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.interop import openspiel_game as og  # noqa: E402

GAMES = [("galactic-domination", 2), ("rift-domination", 3),
         ("interstellar-ambitions", 3), ("galactic-empires", 2)]


def _played(game, steps: int, seed: int = 0):
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state, rng


@pytest.mark.parametrize("game_id, players", GAMES)
def test_serialisation_round_trip_keeps_the_rng(game_id, players):
    """pyspiel's serialize_game_and_state / deserialize_game_and_state give back the same
    state, RNG included: both play on identically, and a determinisation round-trips."""
    game = pyspiel.load_game(og.short_name(game_id), {"players": players, "seed": 5})
    state, rng = _played(game, 80)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert game2.num_players() == players
    assert state2.inner.digest() == state.inner.digest()
    assert state2.inner.rng.getstate() == state.inner.rng.getstate()
    for _ in range(20):  # the same future rolls and draws
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        state2.apply_action(action)
    assert state2.inner.digest() == state.inner.digest()
    sampled = state.resample_from_infostate(0, random.Random(1).random)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, sampled))
    assert back.inner.digest() == sampled.inner.digest()


def test_a_tampered_record_is_refused():
    from starlanes.engine import BadOptionError

    game = pyspiel.load_game(og.short_name("galactic-domination"), {"seed": 2})
    state, _ = _played(game, 10)
    restore, args = state._engine.__reduce__()
    bad = list(args)
    bad[6] = "0" * 16  # another digest
    with pytest.raises(BadOptionError, match="digest"):
        restore(*bad)


@pytest.mark.parametrize("game_id, players", GAMES)
def test_max_game_length_bounds_random_games(game_id, players):
    """Random games of short caps end within max_game_length(), which grows with the
    game's own cap option."""
    short = {"galactic-domination": {"turn_limit": 3}, "rift-domination": {"round_limit": 2},
             "interstellar-ambitions": {"round_limit": 2}, "galactic-empires": {"turn_cap": 2}}
    for seed in range(2):
        game = pyspiel.load_game(og.short_name(game_id), {
            "players": players, "seed": seed, "options": json.dumps(short[game_id])})
        state, _ = _played(game, 100_000, seed)
        assert state.is_terminal()
        assert len(state.history()) <= game.max_game_length()
        assert state.inner.is_terminal()  # the engine's own cap came first
    default = pyspiel.load_game(og.short_name(game_id), {"players": players})
    assert game.max_game_length() < default.max_game_length() < 1_000_000


def test_a_game_reaching_its_length_cap_ends_with_no_winner():
    game = pyspiel.load_game(og.short_name("galactic-domination"),
                             {"seed": 1, "max_game_length": 30})
    assert game.max_game_length() == 30
    state, _ = _played(game, 1000)
    assert state.is_terminal() and not state.inner.is_terminal()
    assert len(state.history()) == 30 and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    with pytest.raises(Exception, match="max_game_length"):
        pyspiel.load_game(og.short_name("galactic-domination"), {"max_game_length": -1})


def _counts(game, tensor):
    """The history part of an information-state tensor as (relative seat, family + 1)."""
    size = game.observation_tensor_size()
    families = len(game.engine_game.action_space().families)
    return np.asarray(tensor[size:-1]).reshape(game.num_players(), families + 1)


def test_information_state_tensor_counts_what_the_seat_saw():
    """After the observation part: per relative seat, actions per action-space family and
    unseen secret choices; then the number of actions."""
    game = pyspiel.load_game(og.short_name("galactic-domination"), {"seed": 3})
    state, _ = _played(game, 40)
    space = game.engine_game.action_space()
    counts = [[0] * (len(space.families) + 1) for _ in range(2)]
    for seat, index in state._engine.log:
        family = max(f for f, off in enumerate(space.offsets) if off <= index)
        counts[seat][family] += 1
    t = state.information_state_tensor(1)
    assert np.array_equal(_counts(game, t), [counts[1], counts[0]])  # seat 1 first
    assert t[-1] == 40 and len(t) == game.information_state_tensor_size()
    assert _counts(game, t)[:, -1].sum() == 0  # nothing is secret in this game
    other, _ = _played(game, 40, seed=9)
    assert t != other.information_state_tensor(1)


def test_secret_choices_other_seats_did_not_see_are_counted_apart():
    """Interstellar Ambitions keeps some choices secret (a private Buy offer, combat
    orders): a seat's tensor counts them per seat, not by family."""
    game = pyspiel.load_game(og.short_name("interstellar-ambitions"), {"players": 3, "seed": 1})
    state, _ = _played(game, 400, seed=2)
    inner = state.inner
    for p in range(3):
        counts = _counts(game, state.information_state_tensor(p))
        unseen = sum(1 for _, seen, *_ in inner._secrets if p not in seen)
        assert counts[:, -1].sum() == unseen and counts[0, -1] == 0
        assert counts.sum() == len(inner.history)


@pytest.mark.parametrize("mode, low, high", [("result", 0, 1), ("score", -1, 1),
                                             ("dense", -0.5, 1.5)])
def test_reward_modes_through_pyspiel(mode, low, high):
    game = pyspiel.load_game(og.short_name("galactic-domination"), {
        "seed": 4, "reward": mode, "options": json.dumps({"turn_limit": 4})})
    assert (game.min_utility(), game.max_utility()) == (low, high)
    state = game.new_initial_state()
    rng = random.Random(4)
    total = np.zeros(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        total += state.rewards()
    assert np.allclose(total, state.returns())
    assert all(low <= r <= high for r in state.returns())
    if mode != "score":  # both seats start level: the dense sum is the result
        assert np.allclose(state.returns(), state.inner.returns())
    with pytest.raises(Exception, match="reward mode"):
        pyspiel.load_game(og.short_name("galactic-domination"), {"reward": "vp"})


def test_cpp_search_bots_are_refused_before_they_crash():
    """pyspiel's C++ MCTS and ISMCTS bots release the interpreter lock and crash on any
    Python-defined game; they raise a TypeError naming the Python bot instead, and still
    play C++ games."""
    game = pyspiel.load_game(og.short_name("galactic-domination"))
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    with pytest.raises(TypeError, match="open_spiel.python.algorithms.mcts"):
        pyspiel.MCTSBot(game, evaluator, 1.4, 5, 10, False, 0, False)
    bot = pyspiel.ISMCTSBot(0, evaluator, 1.4, 5, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    with pytest.raises(TypeError, match="ismcts"):
        bot.step(game.new_initial_state())
    ttt = pyspiel.load_game("tic_tac_toe")
    cpp = pyspiel.MCTSBot(ttt, evaluator, 1.4, 5, 10, False, 0, False)
    assert cpp.step(ttt.new_initial_state()) in range(9)
