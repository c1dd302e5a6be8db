"""Reward modes of the adapters (starlanes.interop.rewards): values, ranges and episode
sums, and the dense shaping's invariance (potential-based, Ng, Harada and Russell 1999)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from starlanes.engine import BadOptionError  # noqa: E402
from starlanes.envs import pettingzoo as pz  # noqa: E402
from starlanes.envs.gymnasium import StarlanesEnv  # noqa: E402
from starlanes.interop.rewards import RewardModel, margins  # noqa: E402

SHORT = {"galactic-domination": {"turn_limit": 5}, "rift-domination": {"round_limit": 2},
         "interstellar-ambitions": {"round_limit": 2}, "galactic-empires": {"turn_cap": 3}}
PLAYERS = {"galactic-domination": 2, "rift-domination": 3, "interstellar-ambitions": 3,
           "galactic-empires": 3}


def _aec_episode(game_id: str, mode: str, seed: int = 1):
    env = pz.env(game_id, players=PLAYERS[game_id], seed=seed, reward=mode,
                 observation="array", **SHORT[game_id])
    env.reset(seed=seed)
    model = env.unwrapped.reward_model
    low, high = model.reward_range()
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(max_iter=100_000):
        _, reward, term, trunc, info = env.last(observe=False)
        totals[agent] += reward
        assert low - 1e-9 <= reward <= high + 1e-9
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    state = env.unwrapped.state
    assert state.is_terminal()
    return [totals[a] for a in env.possible_agents], state, model


@pytest.mark.parametrize("game_id", sorted(SHORT))
def test_each_mode_sums_to_its_documented_quantity(game_id):
    result, state, _ = _aec_episode(game_id, "result")
    assert result == pytest.approx(state.returns())
    score, state, model = _aec_episode(game_id, "score")
    assert score == pytest.approx(margins(state.scores(), model.scale))
    assert all(-1.0 <= s <= 1.0 for s in score)
    dense, state, model = _aec_episode(game_id, "dense")
    start = state.game.new_initial_state()  # the seats start level: potential 0
    assert model.potential(start) == [0.0] * state.game.players
    assert dense == pytest.approx(state.returns())


def test_margins_are_scaled_and_clipped():
    assert margins([30, 10, 20], 10.0) == [1.0, -1.0, -1.0]
    assert margins([5, 0], 50.0) == [0.1, -0.1]
    assert margins([200, 0], 50.0) == [1.0, -1.0]


def test_gymnasium_learner_reward_sums_per_mode():
    for mode in ("result", "score", "dense"):
        env = StarlanesEnv("galactic-domination", opponents="random", reward=mode,
                           seat=1, turn_limit=5)
        obs, _ = env.reset(seed=3)
        total, done = 0.0, False
        rng = np.random.default_rng(3)
        while not done:
            obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(
                obs["action_mask"]))))
            total += reward
            done = term or trunc
        state = env.state
        want = {"result": state.returns()[1],
                "score": margins(state.scores(), env.reward_model.scale)[1],
                "dense": state.returns()[1]}[mode]
        assert total == pytest.approx(want)
        assert env.reward_range == env.reward_model.reward_range()


class _Toy:
    """A finished or running two-seat position with given scores and winner."""

    class game:  # noqa: N801 - stands in for a Game
        players = 2

    def __init__(self, scores, winner=None):
        self._scores, self.winner = scores, winner

    def is_terminal(self):
        return self.winner is not None

    def scores(self):
        return self._scores

    def returns(self):
        return [1.0 if s == self.winner else 0.0 for s in range(2)]


def test_dense_shaping_keeps_the_optimal_choice_on_a_constructed_case():
    """Seat 0 chooses between a line that grabs score first and then loses (a greedy
    trap: its first dense reward is the larger) and one that trails first and wins.
    Each line's dense return is its result minus the starting potential, so the winning
    line stays the best one."""
    model = RewardModel("galactic-domination", "dense")
    start = _Toy([50, 50])
    trap = [_Toy([100, 20]), _Toy([100, 20], winner=1)]
    win = [_Toy([20, 60]), _Toy([20, 60], winner=0)]
    returns = {}
    firsts = {}
    for name, line in (("trap", trap), ("win", win)):
        model.start(start)
        rewards = [model.step(s)[0] for s in line]
        firsts[name], returns[name] = rewards[0], sum(rewards)
    assert firsts["trap"] > firsts["win"]  # shaping alone would lure a greedy learner
    assert returns["win"] == pytest.approx(1.0) and returns["trap"] == pytest.approx(0.0)
    assert max(returns, key=returns.get) == "win"


def test_bad_reward_mode_is_refused_by_name():
    with pytest.raises(BadOptionError, match="reward mode 'vp'"):
        StarlanesEnv("galactic-domination", opponents="random", reward="vp")
    with pytest.raises(BadOptionError, match="reward mode"):
        pz.env("galactic-domination", reward="")
