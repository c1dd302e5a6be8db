"""OpenSpiel registration: the random simulation test and OpenSpiel's own ISMCTS bot."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'starlanes[rl]')")
np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

import random  # noqa: E402

from starlanes.interop import openspiel_game as og  # noqa: E402

from .conftest import research_games  # noqa: E402

SHORT = {"galactic-domination": {"turn_limit": 4}, "rift-domination": {"round_limit": 2},
         "interstellar-ambitions": {"round_limit": 2}, "galactic-empires": {"turn_cap": 2}}


@pytest.mark.parametrize("game_id, players", research_games())
def test_random_simulation_test(game_id, players):
    params = {"players": players, "seed": 3, "options": json.dumps(SHORT.get(game_id, {}))}
    game = pyspiel.load_game(og.short_name(game_id), params)
    assert game.num_distinct_actions() == game.engine_game.num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type_describes_the_game():
    """Chance is drawn inside actions from a hidden RNG fixed by the seed parameter, so
    every game is deterministic and imperfect-information to OpenSpiel (see the module
    docstring)."""
    for game_id, _ in research_games():
        t = pyspiel.load_game(og.short_name(game_id)).get_type()
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert t.provides_information_state_tensor and t.provides_observation_tensor
    rd = pyspiel.load_game(og.short_name("rift-domination"), {"players": 3})
    assert rd.num_players() == 3
    assert rd.max_chance_outcomes() == 0


@pytest.mark.parametrize("game_id, players", sorted(
    {g: (g, n) for g, n in reversed(research_games())}.values()))
def test_tensors_and_strings_are_the_engines(game_id, players):
    game = pyspiel.load_game(og.short_name(game_id), {"players": players, "seed": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    inner = state.inner
    for p in range(players):
        want = inner.observation_tensor(p)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), want)
        info_tensor = np.asarray(state.information_state_tensor(p), np.float32)
        assert np.array_equal(info_tensor[:want.size], want)
        assert len(info_tensor) == game.information_state_tensor_size()
        assert info_tensor[-1] == len(inner.history)  # the history's length, last
        obs = json.loads(state.observation_string(p))
        assert obs == json.loads(json.dumps(inner.observation(p), default=str))
        info = state.information_state_string(p)
        seen = " | ".join(str(a) for a in inner.history_seen_by(p))
        assert info.startswith(seen) and info.endswith(state.observation_string(p))


def test_bad_options_parameter_is_refused_by_name():
    from starlanes.engine import BadOptionError

    name = og.short_name("rift-domination")
    with pytest.raises(BadOptionError, match="not JSON"):
        pyspiel.load_game(name, {"options": "{round_limit: 2"})
    with pytest.raises(BadOptionError, match="JSON object"):
        pyspiel.load_game(name, {"options": "[2]"})
    with pytest.raises(BadOptionError, match="round_limit"):
        pyspiel.load_game(name, {"options": json.dumps({"round_limit": "soon"})})


QUICK = {"galactic-domination": {"turn_limit": 1}, "rift-domination": {"round_limit": 1},
         "interstellar-ambitions": {"round_limit": 1}, "galactic-empires": {"turn_cap": 1}}
"""Options that keep a game short enough for a search bot to play it to the end."""


@pytest.mark.parametrize("game_id", sorted({g for g, _ in research_games()}))
def test_openspiel_ismcts_bot_plays_a_whole_game(game_id):
    """OpenSpiel's own ISMCTS bot (random-rollout evaluator, 3 simulations a move) plays
    every seat of a short game to its end; its root samples come from
    ``resample_from_infostate``, whose information-state key must equal the real one."""
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    players = pyspiel.load_game(og.short_name(game_id)).num_players()
    game = pyspiel.load_game(og.short_name(game_id), {
        "players": players, "seed": 1, "options": json.dumps(QUICK.get(game_id, {}))})
    evaluator = RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=3,
                           random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 3000:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
    assert state.is_terminal()
    assert state.returns() == pytest.approx(state.inner.returns())
    assert sum(state.returns()) in (0.0, 1.0)
