"""``BatchedEnv(copy=True)``: the arrays a caller keeps are never written again; those it
let go of are filled anew (``starlanes.envs.batched.Recycler``)."""

from __future__ import annotations

import weakref

import numpy as np
import pytest

from starlanes.envs import BatchedEnv
from starlanes.envs.batched import Recycler

GAMES = ("galactic-domination", "interstellar-ambitions")


def _random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


@pytest.mark.parametrize("game", GAMES)
def test_what_a_caller_keeps_is_never_written_again(game: str):
    env = BatchedEnv(game, num_envs=6, seed=11)
    twin = BatchedEnv(game, num_envs=6, seed=11, copy=False)  # the same games, for reference
    obs, info = env.reset()
    twin.reset()
    rng = np.random.default_rng(1)
    kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # array, its snapshot, a view
    views: list[tuple[np.ndarray, np.ndarray]] = []
    infos: list[tuple[dict, np.ndarray]] = []
    for step in range(40):
        np.testing.assert_array_equal(obs, twin._obs_view)
        np.testing.assert_array_equal(info["action_mask"], twin.action_masks())
        if step % 3 == 0:
            kept.append((obs, obs.copy(), info["action_mask"].copy()))
        elif step % 3 == 1:
            views.append((obs[2], obs[2].copy()))  # only a view of the array is kept
        else:
            infos.append((info, info["action_mask"].copy()))  # only the info dict
        actions = _random(info["action_mask"], rng)
        obs, _, _, _, info = env.step(actions)
        twin.step(actions)
    for array, snapshot, _mask in kept:
        np.testing.assert_array_equal(array, snapshot)
    for view, snapshot in views:
        np.testing.assert_array_equal(view, snapshot)
    for old_info, snapshot in infos:
        np.testing.assert_array_equal(old_info["action_mask"], snapshot)


@pytest.mark.parametrize("game", GAMES)
def test_arrays_let_go_of_are_filled_anew(game: str):
    env = BatchedEnv(game, num_envs=4, seed=3)
    obs, info = env.reset()
    rng = np.random.default_rng(2)
    seen_obs, seen_masks = [], []
    for _ in range(12):
        seen_obs.append(weakref.ref(obs))  # a weak reference holds nothing
        seen_masks.append(weakref.ref(info["action_mask"]))
        actions = _random(info["action_mask"], rng)
        obs, _, _, _, info = env.step(actions)
    live = {id(r()) for r in seen_obs if r() is not None}
    assert 1 <= len(live) <= 3  # a few arrays, filled in turn
    assert any(r() is obs for r in seen_obs)
    assert any(r() is info["action_mask"] for r in seen_masks)


def test_the_recycler_copies_and_bounds_its_pool():
    pool = Recycler(keep=2)
    src = np.arange(6.0)
    held = [pool.copy_of(src) for _ in range(5)]  # all held: five distinct copies
    assert len({id(a) for a in held}) == 5
    assert all((a == src).all() and not np.shares_memory(a, src) for a in held)
    assert len(pool._arrays) == 2  # the pool keeps no more than `keep`
    first = pool.copy_of(src)
    pooled = [id(a) for a in pool._arrays]  # held[4] then first, both alive in the pool
    del first, held
    again = pool.copy_of(src + 1)  # nobody holds them now: the older one is filled anew
    assert id(again) == pooled[0]
    np.testing.assert_array_equal(again, src + 1)
    assert [id(a) for a in pool._arrays] == [pooled[1], pooled[0]]
