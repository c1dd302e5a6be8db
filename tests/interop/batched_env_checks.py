"""A check shared by the batched environments' tests: the environment against reference
states, step by step, through same-step autoreset."""

from __future__ import annotations

import numpy as np

from starlanes.engine import load
from starlanes.envs import BatchedEnv
from starlanes.interop import tensor_encoder


def env_matches_reference_through_autoreset(game_id: str, n: int, seed: int, endings: int,
                                            **options) -> None:
    """``BatchedEnv(game_id, num_envs=n)`` reset with ``seed`` and stepped with random legal
    actions until ``endings`` games ended: every step the seat to act, the mask and the
    tensor equal the reference's, rewards are the ended games' returns and the rows
    restarted take the seeds ``seed + n``, ... in order."""
    env = BatchedEnv(game_id, num_envs=n, seed=0, **options)
    obs, info = env.reset(seed=seed)
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
        obs, rewards, term, trunc, info = env.step(actions)
        np.testing.assert_array_equal(rewards, expected)
        assert term.tolist() == expected.any(1).tolist() and not trunc.any()
        assert info["game_seed"].tolist() == [s.game.seed for s in states]
