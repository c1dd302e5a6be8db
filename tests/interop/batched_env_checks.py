"""Checks shared by the batched environments' tests: the environment against reference
states, step by step, through same-step autoreset; the refusals of bad steps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from starlanes.engine import ActionIndexError, BadOptionError, StarlanesError, load
from starlanes.envs import BatchedEnv
from starlanes.interop import tensor_encoder


def env_matches_reference_through_autoreset(game_id: str, n: int, seed: int, endings: int,
                                            make: Callable[..., Any] = BatchedEnv,
                                            **options) -> None:
    """``make(game_id, num_envs=n)`` (``BatchedEnv`` or its JAX build) reset with ``seed``
    and stepped with random legal actions until ``endings`` games ended: every step the
    seat to act, the mask and the tensor equal the reference's, rewards are the ended
    games' returns and the rows restarted take the seeds ``seed + n``, ... in order."""
    env = make(game_id, num_envs=n, seed=0, **options)

    def host(out: tuple) -> tuple:  # the JAX build's arrays copied to the host
        *arrays, info = out
        return (*map(np.asarray, arrays), {k: np.asarray(v) for k, v in info.items()})

    obs, info = host(env.reset(seed=seed))
    game = load(game_id, players=env.players, **options)
    space, encode = game.action_space(), tensor_encoder(game)

    def fresh(s):
        return load(game_id, seed=s, players=env.players, **options).new_initial_state()

    states = [fresh(seed + i) for i in range(n)]
    rng = np.random.default_rng(1)
    next_seed, ended = seed + n, 0
    while ended < endings:
        legal = [space.legal_indices(st) for st in states]
        for i, st in enumerate(states):
            assert info["current_player"][i] == st.current_player()
            assert sorted(legal[i]) == np.flatnonzero(info["action_mask"][i]).tolist()
            np.testing.assert_array_equal(obs[i], encode(st, st.current_player()))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        expected = np.zeros((n, env.players))
        for i, st in enumerate(states):
            st.apply(legal[i][int(actions[i])])
            if st.is_terminal():
                expected[i] = st.returns()
                states[i] = fresh(next_seed)
                next_seed += 1
                ended += 1
        obs, rewards, term, trunc, info = host(env.step(actions))
        np.testing.assert_array_equal(rewards, expected)
        assert term.tolist() == expected.any(1).tolist() and not trunc.any()
        assert info["game_seed"].tolist() == [s.game.seed for s in states]


def env_refuses_bad_steps(env: Any, snapshot: Callable[[Any], list]) -> None:
    """``env`` (a batched environment, not reset yet) refuses a step before ``reset``, then
    an illegal index (named with its action), one past the space, -1, a wrong shape and a
    non-integer array, each without changing what ``snapshot(env)`` (arrays) holds; and
    then still steps."""
    with pytest.raises(StarlanesError, match="reset"):
        env.step(np.zeros(env.num_envs, np.int64))
    obs, info = env.reset()
    mask = np.asarray(info["action_mask"])
    legal = np.array([np.flatnonzero(m)[0] for m in mask])
    before = snapshot(env)
    bad = legal.copy()
    bad[1] = np.flatnonzero(~mask[1])[0]
    with pytest.raises(ActionIndexError, match=rf"row 1: action {bad[1]} \(.*not legal"):
        env.step(bad)
    for index in (env.num_actions, -1):
        bad[1] = index
        with pytest.raises(ActionIndexError, match=f"row 1: action {index} is outside"):
            env.step(bad)
    with pytest.raises(BadOptionError, match="shape"):
        env.step(legal[:2])
    with pytest.raises(BadOptionError, match="integers"):
        env.step(legal.astype(np.float64))
    for x, y in zip(before, snapshot(env), strict=True):
        np.testing.assert_array_equal(x, y)
    env.step(legal)  # and the env still steps
