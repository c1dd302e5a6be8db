"""OpenSpiel registration: the random simulation test and OpenSpiel's own ISMCTS bot."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'starlanes[openspiel]')")
pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.interop import openspiel_game as og  # noqa: E402

from .conftest import research_games  # noqa: E402

SHORT = {"galactic-domination": {"turn_limit": 4}, "rift-domination": {"round_limit": 2},
         "galactic-empires": {"turn_cap": 4}}


@pytest.mark.parametrize("game_id, players", research_games())
def test_random_simulation_test(game_id, players):
    params = {"players": players, "seed": 3, "options": json.dumps(SHORT.get(game_id, {}))}
    game = pyspiel.load_game(og.short_name(game_id), params)
    assert game.num_distinct_actions() == game.engine_game.num_distinct_actions()
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_type_describes_the_game():
    gd = pyspiel.load_game(og.short_name("galactic-domination"))
    rd = pyspiel.load_game(og.short_name("rift-domination"), {"players": 3})
    t = rd.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gd.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert rd.num_players() == 3


def test_openspiel_ismcts_bot_plays_a_game():
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    game = pyspiel.load_game(og.short_name("rift-domination"),
                             {"players": 2, "seed": 1,
                              "options": json.dumps({"round_limit": 1})})
    import numpy as np

    evaluator = RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=4,
                           random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 2000:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
    assert state.is_terminal()
    assert sum(state.returns()) in (0.0, 1.0)
