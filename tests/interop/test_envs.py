"""PettingZoo AEC and Gymnasium environments pass their frameworks' own checks."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from starlanes.envs import pettingzoo as pz  # noqa: E402
from starlanes.envs.gymnasium import ENV_IDS, StarlanesEnv  # noqa: E402

from .conftest import research_games  # noqa: E402

GAMES = research_games()


# With the default dict observations (tensor and mask, the form PettingZoo's masked
# environments use) api_test warns that they are not a Box or an array; the array format is
# checked to give no warning in test_training_envs.py.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("game_id, players", GAMES)
def test_pettingzoo_api_test(game_id, players):
    api_test(pz.env(game_id, players=players, seed=4), num_cycles=200)


@pytest.mark.parametrize("game_id, players", GAMES)
def test_pettingzoo_game_plays_to_the_end_with_returns_as_rewards(game_id, players):
    env = pz.env(game_id, players=players, seed=2, turn_limit=3) \
        if game_id == "galactic-domination" else pz.env(game_id, players=players, seed=2)
    env.reset(seed=2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    import numpy as np

    rng = np.random.default_rng(0)
    for agent in env.agent_iter(max_iter=50_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    state = env.unwrapped.state
    assert state.is_terminal()
    assert [totals[a] for a in env.possible_agents] == pytest.approx(state.returns())


@pytest.mark.parametrize("game_id, players", GAMES)
def test_gymnasium_check_env(game_id, players):
    check_env(StarlanesEnv(game_id, players=players, opponents="random", max_steps=300),
              skip_render_check=True)


def test_registered_ids_make_the_game_and_opponents_play():
    env = gym.make("starlanes/GalacticDomination-v0", opponents="random", turn_limit=3)
    obs, _ = env.reset(seed=1)
    import numpy as np

    done = False
    reward = 0.0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, term, trunc, _ = env.step(action)
        done = term or trunc
    inner = env.unwrapped
    assert inner.state.is_terminal()
    assert reward == inner.state.returns()[0]
    assert set(ENV_IDS.values()) == {"rift-domination", "galactic-domination",
                                     "interstellar-ambitions", "galactic-empires"}


def test_an_illegal_index_ends_the_gym_episode_without_changing_the_game():
    env = StarlanesEnv("galactic-domination", opponents="random")
    obs, _ = env.reset(seed=0)
    import numpy as np

    before = env.state.digest()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and reward == -1.0 and info["illegal_action"]
    assert env.state.digest() == before


@pytest.mark.parametrize("game_id, players", GAMES[:1] + GAMES[-1:])
def test_pettingzoo_mask_is_in_the_acting_agents_info_and_cleared_on_truncation(
        game_id, players):
    import numpy as np

    e = pz.env(game_id, players=players, seed=1, max_steps=6)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(6):
        agent = e.agent_selection
        obs, _, term, trunc, info = e.last()
        state = e.unwrapped.state
        assert info["action_mask"] is obs["action_mask"]
        assert np.array_equal(info["action_mask"], state.legal_action_mask())
        for other in e.agents:
            if other != agent:
                assert not e.infos[other]["action_mask"].any()
                assert not e.observe(other)["action_mask"].any()
        _, _, _, _, bare = e.last(observe=False)
        assert bare["action_mask"] is info["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert all(e.truncations.values())
    for agent in e.agents:
        assert not e.observe(agent)["action_mask"].any()
        assert not e.infos[agent]["action_mask"].any()


@pytest.mark.parametrize("game_id, players", GAMES)
def test_legal_indices_in_the_info_are_the_legal_actions_in_order(game_id, players):
    """``infos[agent]["legal_indices"]``: the acting agent's legal indices in the order of
    ``legal_actions()`` (read from each action's key, not the batch map the environment
    uses), the mask's 1s; empty for the others and once the game is over or truncated."""
    import numpy as np

    e = pz.env(game_id, players=players, seed=3, max_steps=400)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        state = e.unwrapped.state
        legal = info["legal_indices"]
        if term or trunc:
            assert legal.size == 0 and not obs["action_mask"].any()
            e.step(None)
            continue
        space = state.game.action_space()
        assert legal.tolist() == list(space.indices_by_key(state))
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), np.sort(legal))
        for other in e.agents:
            if other != agent:
                assert e.infos[other]["legal_indices"].size == 0
        e.step(int(legal[rng.integers(len(legal))]))
    assert e.unwrapped.steps > 0


@pytest.mark.parametrize("game_id, players", GAMES[:1] + GAMES[-1:])
def test_gymnasium_info_holds_the_legal_indices(game_id, players):
    import numpy as np

    env = StarlanesEnv(game_id, players=players, opponents="random", max_steps=60)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        legal = info["legal_indices"]
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), np.sort(legal))
        assert legal.tolist() == list(env.state.game.action_space().indices_by_key(env.state))
        obs, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        done = term or trunc
    if term:
        assert info["legal_indices"].size == 0 and not obs["action_mask"].any()
