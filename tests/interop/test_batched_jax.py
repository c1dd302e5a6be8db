"""Galactic Domination in JAX against the numpy batch, field by field.

The numpy batch (``GDBatch``) is checked step by step against the reference engine in
``test_batched_gd.py``; here random games (masked uniform random actions from a seeded
numpy Generator) are played in it and, side by side, in the JAX build from the same seeds,
and at every step every field of the games' state, the legal masks and both seats'
tensors must be equal. Four option sets, 1,024 games in all (``STARLANES_JAX_GAMES=N``
plays N per set). The environment is checked against ``BatchedEnv`` through autoreset.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="the JAX build needs the jax extra")

from starlanes.engine import BadOptionError, StarlanesError  # noqa: E402
from starlanes.envs import BatchedEnv  # noqa: E402
from starlanes.envs.jax_batched import JaxBatchedEnv, JaxGD  # noqa: E402
from starlanes.games.galactic_domination import batched as nb  # noqa: E402
from starlanes.games.galactic_domination.batched import GDBatch  # noqa: E402
from starlanes.games.galactic_domination.batched_jax import GDState, from_batch  # noqa: E402
from starlanes.games.galactic_domination.batched_masks import legal_mask  # noqa: E402
from starlanes.games.galactic_domination.batched_obs import ObsTables, observation  # noqa: E402

from .batched_env_checks import (  # noqa: E402
    env_matches_reference_through_autoreset,
    env_refuses_bad_steps,
)

OPTION_SETS = [  # each flag at both values (defaults, all_changed); each flag alone is
    # checked against the reference engine in test_batched_gd.py, and the JAX build takes
    # every flag by the same static branch whatever the others are
    pytest.param({"turn_limit": 8}, 256, id="turn_limit=8"),
    pytest.param({"turn_limit": 20, "roll_off": True, "charge_ends_turn": True,
                  "arrive_full": False}, 256, id="all_changed"),
    pytest.param({"turn_limit": 15, "content_set": (
        "units.raider.ap=4", "units.explorer.cost=3", "units.command.shields=0",
        "economy.specials.jump_range=2", "economy.specials.black_hole_minerals=2")},
        256, id="content_set"),
    pytest.param({"turn_limit": 12, "content_set": (  # deadly guns: fleets destroyed, games won
        "units.raider.damage=20", "units.destroyer.damage=20", "units.command.damage=20",
        "units.explorer.damage=20", "units.raider.ap=4")}, 256, id="deadly"),
]


def _differ(step: int, name: str, x: np.ndarray, y: np.ndarray) -> str:
    bad = np.flatnonzero((x != y).reshape(len(x), -1).any(1))
    return f"step {step}: {name} differs in games {bad[:8].tolist()}"


def play_side_by_side(games: int, seed: int, options: dict, batch: int = 256) -> Counter:
    """Play ``games`` random games ``batch`` at a time in both builds, checking every
    step (see the module docstring); what happened, counted."""
    counts: Counter = Counter()
    fns = JaxGD(**options)

    def probe(st, view):  # everything compared, in one compiled call
        r, v = fns.rules, fns.view
        return (jax.vmap(v.legal_mask)(st), jax.vmap(r.current_player)(st),
                jax.vmap(v.observe)(st, view), jax.vmap(v.observe)(st, 1 - view))

    probe = jax.jit(probe)
    for start in range(0, games, batch):
        n = min(batch, games - start)
        seeds = np.arange(seed + start, seed + start + n)
        b = GDBatch(n, **options)
        ot = ObsTables(b.t)
        b.reset(np.arange(n), seeds.tolist())
        st = fns.init(seeds)
        rng = np.random.default_rng(seed + start)
        step = 0
        while True:
            ref = from_batch(b)
            cp = b.current_player()
            view = np.maximum(cp, 0)
            with jax.enable_x64(True):
                got_st, (got_mask, got_cp, got_a, got_b) = jax.device_get(
                    (st, probe(st, view.astype(np.int32))))
            deciding = ref.dec != 0
            for name in GDState._fields:
                x, y = getattr(got_st, name), getattr(ref, name)
                if name.startswith("dec_"):  # only meaningful while a decision is pending
                    x, y = x[deciding], y[deciding]
                assert np.array_equal(x, y), _differ(step, name, x, y)
            mask = legal_mask(b)
            assert np.array_equal(got_mask, mask), _differ(step, "mask", got_mask, mask)
            assert np.array_equal(got_cp, cp)
            for seats, got in ((view, got_a), (1 - view, got_b)):
                want = observation(b, seats, ot)
                assert np.array_equal(got, want), _differ(step, "tensor", got, want)
            counts["holes"] += int(b.holes.sum())
            counts["arrival picked"] += int((b.dec == nb.ARRIVE).sum())
            counts["collision"] += int((b.dec == nb.COLLIDE).sum())
            if b.terminal().all():
                break
            actions = np.zeros(n, np.int64)
            for i in np.flatnonzero(mask.any(1)):
                legal = np.flatnonzero(mask[i])
                actions[i] = legal[rng.integers(legal.size)]
                counts[b.t.family_names[b.t.family_of[actions[i]]]] += 1
            b.step(actions)
            st = fns.step(st, actions)
            step += 1
        ret = b.ret
        counts["draws"] += int((ret[:, 0] == 0.5).sum())
        counts["wins"] += int((ret[:, 0] != 0.5).sum())
        counts["games"] += n
    return counts


def test_jax_games_match_the_numpy_batch_step_by_step():
    """GD-SET-*, GD-TURN-*, GD-AP-*, GD-BLD-*, GD-SPC-*, GD-DS-*, GD-BH-*, GD-WIN-*: the
    same seeds and actions give the same states, masks and tensors in both builds, in
    every option set; and the games met what the rules handle off the common path:
    black holes, arrivals picked, collisions, jumps, sacrifices, builds, warps, and games
    won and drawn. (One test: the compiled functions of each set are made once.)"""
    total: Counter = Counter()
    for i, param in enumerate(OPTION_SETS):
        options, games = param.values
        n = int(os.environ.get("STARLANES_JAX_GAMES", games))
        counts = play_side_by_side(n, 90_000 + 10_000 * i, options)
        assert counts["games"] == n and counts["wins"] + counts["draws"] == n
        total.update(counts)
    print(f"\njax vs numpy: {dict(sorted(total.items()))}")
    for event in ("holes", "arrival picked", "collision", "fire", "jump", "charge_jump",
                  "charge_shot", "sacrifice", "arrive", "warp", "build", "attack", "wins",
                  "draws"):
        assert total[event] >= 1, (event, dict(total))
    assert total["games"] >= 1000 or "STARLANES_JAX_GAMES" in os.environ


def test_the_pure_functions_compose_in_a_scan_on_the_device():
    """A rollout written as one ``lax.scan`` (actions drawn with JAX from the masks, the
    whole loop compiled) gives the games that stepping call by call gives."""
    import jax.numpy as jnp

    fns = JaxGD(turn_limit=6)
    seeds = np.arange(16)

    def body(carry, _):
        st, key = carry
        key, sub = jax.random.split(key)
        mask = jax.vmap(fns.view.legal_mask)(st)
        a = jax.random.categorical(sub, jnp.where(mask, 0.0, -jnp.inf)).astype(jnp.int32)
        return (jax.vmap(fns.rules.step)(st, a), key), a

    with jax.enable_x64(True):
        st0 = fns.init(seeds)
        (end, _), actions = jax.jit(lambda s: jax.lax.scan(
            body, (s, jax.random.key(3)), None, length=60))(st0)
    st = fns.init(seeds)
    for a in np.asarray(actions):
        st = fns.step(st, a)
    for name in GDState._fields:
        np.testing.assert_array_equal(np.asarray(getattr(st, name)),
                                      np.asarray(getattr(end, name)), err_msg=name)
    assert int(np.asarray(end.round).max()) >= 2  # the games got past the set-up


def test_the_pure_functions_refuse_to_run_in_32_bits():
    """Outside ``jax.enable_x64(True)`` the generator would be cut to 32 bits and the
    games would differ silently: every rules function refuses, naming the fix."""
    import jax.numpy as jnp

    fns = JaxGD()
    st = fns.init(np.arange(2))
    calls = {"init": lambda: jax.vmap(fns.rules.init)(jnp.arange(2)),
             "step": lambda: jax.vmap(fns.rules.step)(st, jnp.zeros(2, jnp.int32)),
             "legal_mask": lambda: jax.vmap(fns.view.legal_mask)(st),
             "observe": lambda: jax.vmap(fns.view.observe)(st, jnp.zeros(2, jnp.int32))}
    for call in calls.values():
        with pytest.raises(StarlanesError, match=r"enable_x64\(True\)"):
            call()
    assert np.asarray(fns.legal_mask(st)).shape == (2, fns.num_actions)  # methods: fine


# ------------------------------------------------------------------ the environment
def test_env_matches_batched_env_through_autoreset():
    """Same seeds, same actions: the same tensors, masks, seats, seeds, rewards and
    terminations as ``BatchedEnv``, with games ending and restarting in the rows."""
    n = 24
    env = JaxBatchedEnv(num_envs=n, seed=7, turn_limit=3)
    ref = BatchedEnv("galactic-domination", num_envs=n, seed=7, turn_limit=3)
    (obs, info), (want_obs, want) = env.reset(), ref.reset()
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(250):
        np.testing.assert_array_equal(np.asarray(obs), want_obs)
        for key in ("action_mask", "current_player", "game_seed"):
            np.testing.assert_array_equal(np.asarray(info[key]), want[key], err_msg=key)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in want["action_mask"]])
        obs, rewards, term, trunc, info = env.step(actions)
        want_obs, want_rewards, want_term, _, want = ref.step(actions)
        np.testing.assert_array_equal(np.asarray(rewards), want_rewards)
        np.testing.assert_array_equal(np.asarray(term), want_term)
        assert not np.asarray(trunc).any()
        ended += int(want_term.sum())
    assert ended >= n  # every row restarted at least once on average
    assert np.asarray(rewards).dtype == np.float64 and np.asarray(obs).dtype == np.float32
    assert env.observation_shape == ref.observation_shape
    assert env.num_actions == ref.num_actions


def test_env_matches_the_reference_through_autoreset():
    """Straight against the reference engine too: seats, masks, tensors, rewards and the
    seeds of the restarted rows."""
    env_matches_reference_through_autoreset("galactic-domination", 6, 40, 18,
                                            make=JaxBatchedEnv, turn_limit=2)


def _snapshot(env):
    return [np.asarray(x).copy() for x in (*env._state, env.game_seeds, env.action_masks(),
                                           env._next_seed)]


def test_env_refuses_bad_steps_and_changes_nothing():
    env = JaxBatchedEnv(num_envs=3, seed=2)
    with pytest.raises(StarlanesError, match="reset"):
        env.action_masks()
    env_refuses_bad_steps(env, _snapshot)


def test_env_seeds_follow_one_sequence_and_bad_construction_is_refused():
    env = JaxBatchedEnv(num_envs=3, seed=-7)
    assert np.asarray(env.reset()[1]["game_seed"]).tolist() == [-7, -6, -5]
    assert np.asarray(env.reset()[1]["game_seed"]).tolist() == [-4, -3, -2]
    assert np.asarray(env.reset(seed=100)[1]["game_seed"]).tolist() == [100, 101, 102]
    with pytest.raises(BadOptionError, match="seed"):
        env.reset(seed=2**63)
    with pytest.raises(BadOptionError, match="no JAX build"):
        JaxBatchedEnv("interstellar-ambitions")
    with pytest.raises(BadOptionError, match="num_envs"):
        JaxBatchedEnv(num_envs=0)
    with pytest.raises(BadOptionError, match="colour"):
        JaxBatchedEnv(colour="red")
