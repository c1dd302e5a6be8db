"""What training code relies on: bounded spaces and masks where libraries look, checks
without warnings, opponents and pools, the learner's seat choice, the vector env."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
gym = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from starlanes.agents import make_agent  # noqa: E402
from starlanes.engine import AgentSpecError, BadOptionError  # noqa: E402
from starlanes.envs import pettingzoo as pz  # noqa: E402
from starlanes.envs.gymnasium import (  # noqa: E402
    OpponentPool,
    StarlanesEnv,
    StarlanesVectorEnv,
)


@pytest.mark.parametrize("observation", ["dict", "array"])
def test_check_env_gives_no_warning(observation):
    env = gym.make("starlanes/GalacticDomination-v0", opponents="random", max_steps=50,
                   observation=observation, reward="dense", turn_limit=3)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in seen] == []
    box = env.observation_space if observation == "array" else \
        env.observation_space["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()


def test_pettingzoo_api_test_with_array_observations_gives_no_warning():
    env = pz.env("rift-domination", players=3, seed=2, observation="array", reward="dense")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(env, num_cycles=60)
    assert [str(w.message) for w in seen] == []


def test_action_masks_is_what_maskable_ppo_reads():
    env = StarlanesEnv("galactic-domination", opponents="random", observation="array")
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    masks = env.action_masks()
    assert masks.dtype == bool
    assert np.array_equal(masks, env.state.legal_action_mask())
    assert info["action_mask"] is env._mask


def test_seat_cycle_and_random_put_the_learner_in_every_seat():
    env = StarlanesEnv("interstellar-ambitions", players=3, seat="cycle", opponents="random")
    seats = [env.reset(seed=s)[1]["seat"] for s in range(6)]
    assert seats == [0, 1, 2, 0, 1, 2]
    assert env.state.current_player() == env.seat  # the opponents have played up to it
    env = StarlanesEnv("galactic-domination", seat="random", opponents="random")
    assert {env.reset(seed=s)[1]["seat"] for s in range(12)} == {0, 1}
    with pytest.raises(BadOptionError, match="seat"):
        StarlanesEnv("galactic-domination", seat="any", opponents="random")


def test_opponents_as_agents_policies_and_pools():
    calls = []

    def first_legal(observation, mask):
        calls.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    env = StarlanesEnv("galactic-domination", opponents=first_legal, seat=1, turn_limit=2)
    env.reset(seed=0)
    assert calls and calls[0] == (2907,)
    agent = make_agent("random", "galactic-domination", 0)
    env = StarlanesEnv("galactic-domination", opponents=agent, turn_limit=2)
    env.reset(seed=0)
    assert env.bots[1] is agent
    pool = OpponentPool(["random", "heuristic"], weights=[1, 0])
    pool.add(first_legal)
    rng = random.Random(0)
    drawn = {e if isinstance(e, str) else e.__name__ for e in
             (pool.draw(rng) for _ in range(40))}
    assert drawn == {"random", "first_legal"}  # zero weight: never the heuristic
    env = StarlanesEnv("galactic-domination", opponents=pool, turn_limit=2)
    names = {type(env.bots[1]).__name__ for s in range(10) if env.reset(seed=s)}
    assert names == {"RandomAgent", "PolicyAgent"}
    with pytest.raises(AgentSpecError):
        OpponentPool(["no-such-bot"], game_id="galactic-domination")
    with pytest.raises(BadOptionError, match="weights"):
        OpponentPool(["random"], weights=[1, 2])
    with pytest.raises(BadOptionError, match="nothing to draw"):
        OpponentPool(["random"], weights=[0]).draw(rng)
    with pytest.raises(BadOptionError, match="opponent"):
        StarlanesEnv("galactic-domination", opponents=[3])


def test_vector_env_batches_masks_that_match_legal_actions_and_autoresets():
    env = StarlanesVectorEnv(3, "galactic-domination", opponents="random", seat="cycle",
                             turn_limit=2)
    obs, info = env.reset(seed=10)
    assert obs["observation"].shape == (3, 2907)
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        masks = env.action_masks()
        for i, inner in enumerate(env.envs):
            assert np.array_equal(masks[i], inner.state.legal_action_mask())
        assert np.array_equal(obs["action_mask"].view(bool), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terms, truncs, info = env.step(actions)
        if terms.any():
            finished += int(terms.sum())
            for i in np.flatnonzero(info["_final_obs"]):
                assert info["final_obs"][i]["observation"].shape == (2907,)
                assert len(env.envs[i].state.history) < 40  # already a new game
    assert finished >= 3
    with pytest.raises(BadOptionError, match="one action per environment"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(BadOptionError, match="num_envs"):
        StarlanesVectorEnv(0)
