"""The ``zero_sum`` reward and the utility each reward mode declares to OpenSpiel: a mode
whose returns add up to 0 says ``ZERO_SUM``, the others ``GENERAL_SUM``."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.interop.rewards import REWARD_MODES, RewardModel, zero_sum  # noqa: E402

from .conftest import research_games  # noqa: E402

SHORT = {"galactic-domination": {"turn_limit": 4}, "rift-domination": {"round_limit": 2},
         "interstellar-ambitions": {"round_limit": 2}, "galactic-empires": {"turn_cap": 2}}
TWO_PLAYER = sorted(g for g, n in research_games() if n == 2)
SMALLEST = sorted({g: (g, n) for g, n in reversed(research_games())}.values())


@pytest.fixture
def spiel():
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed (pip install 'starlanes[rl]')")
    from starlanes.interop import openspiel_game

    return pyspiel, openspiel_game


def test_zero_sum_is_the_result_less_the_mean_of_the_others():
    assert zero_sum([1.0, 0.0]) == [1.0, -1.0]
    assert zero_sum([0.5, 0.5]) == [0.0, 0.0]
    assert zero_sum([0.0, 0.0]) == [0.0, 0.0]
    assert zero_sum([1.0, 0.0, 0.0]) == [1.0, -0.5, -0.5]
    assert sum(zero_sum([0.5, 0.5, 0.0, 0.0])) == pytest.approx(0.0)
    assert "zero_sum" in REWARD_MODES
    assert RewardModel("galactic-empires", "zero_sum").reward_range() == (-1.0, 1.0)


def _playout(game, seed: int) -> list[float]:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


@pytest.mark.parametrize("game_id", TWO_PLAYER)
def test_two_player_zero_sum_reward_is_declared_zero_sum(spiel, game_id):
    pyspiel, og = spiel
    params = {"players": 2, "seed": 5, "reward": "zero_sum"}
    game = pyspiel.load_game(og.short_name(game_id), params)
    t = game.get_type()
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.utility_sum() == 0.0
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    seen = set()
    for seed in range(40):  # full games, until one is won (most Galactic Empires ones
        returns = _playout(game, seed)  # reach the turn cap, a shared result)
        assert sum(returns) == 0.0
        seen.add(tuple(returns))
        if seen & {(1.0, -1.0), (-1.0, 1.0)}:
            break
    assert seen <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert seen & {(1.0, -1.0), (-1.0, 1.0)}
    # a game cut at the adapter's length cap pays nothing, which is zero-sum too
    cut = pyspiel.load_game(og.short_name(game_id), dict(params, max_game_length=3))
    assert _playout(cut, 0) == [0.0, 0.0]
    short = pyspiel.load_game(og.short_name(game_id),
                              dict(params, options=json.dumps(SHORT[game_id])))
    pyspiel.random_sim_test(short, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id, players", SMALLEST)
def test_each_mode_declares_the_utility_its_returns_have(spiel, game_id, players):
    pyspiel, og = spiel
    zero, general = pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.GENERAL_SUM
    for mode in REWARD_MODES:
        game = pyspiel.load_game(og.short_name(game_id), {
            "players": players, "seed": 1, "reward": mode,
            "options": json.dumps(SHORT[game_id])})
        t = game.get_type()
        want = mode == "zero_sum" or (mode == "score" and players == 2)
        assert og.zero_sum_returns(mode, players) == want
        assert t.utility == (zero if want else general), mode
        assert (game.utility_sum() == 0.0) if want else game.utility_sum() is None
        want_rewards = pyspiel.GameType.RewardModel.REWARDS if mode == "dense" \
            else pyspiel.GameType.RewardModel.TERMINAL
        assert t.reward_model == want_rewards
        for seed in range(2):
            returns = _playout(game, seed)
            if want:
                assert sum(returns) == pytest.approx(0.0, abs=1e-12)


def test_score_is_general_sum_with_more_than_two_players(spiel):
    pyspiel, og = spiel
    game = pyspiel.load_game(og.short_name("rift-domination"),
                             {"players": 3, "reward": "score"})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert not og.zero_sum_returns("score", 3)
    # three seats' margins need not cancel: the leader's +1 against two -1s
    from starlanes.interop.rewards import margins

    assert sum(margins([30, 10, 20], 10.0)) != 0.0


def test_pettingzoo_zero_sum_episode_sums_cancel():
    pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
    from starlanes.envs import pettingzoo as pz

    for seed in range(3):
        env = pz.env("galactic-domination", players=2, seed=seed, reward="zero_sum",
                     observation="array", turn_limit=4)
        env.reset()
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_iter=100_000):
            _, reward, term, trunc, info = env.last(observe=False)
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        state = env.unwrapped.state
        assert list(totals.values()) == zero_sum(state.returns())
        assert sum(totals.values()) == 0.0
