"""The batched Galactic Domination against the reference engine, step by step.

Random games (masked uniform random actions from a seeded numpy Generator) are played in
the batch and, side by side, in reference states loaded with the same seeds and options;
at every step the legal mask must equal the reference's legal indices, and the seat to
act, the observation tensor (exactly, float32, as the PettingZoo environment gives it),
the terminal flags and the returns must agree. The acting seat's tensor is the one the
environment returns (``ObsStream``: kept up to date block by block), every fifth step the
other seat's is made whole (``observation``). ``STARLANES_BATCHED_GAMES=N`` plays N games
per option set instead of the CI's few (``benchmarks/batched_env.py`` reports speed).
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from starlanes.engine import BadOptionError, load
from starlanes.envs import BatchedEnv
from starlanes.games.galactic_domination.batched import GDBatch
from starlanes.games.galactic_domination.batched_masks import SPARSE, legal_mask
from starlanes.games.galactic_domination.batched_obs import ObsStream, ObsTables, observation
from starlanes.interop import tensor_encoder

from .batched_env_checks import env_matches_reference_through_autoreset, env_refuses_bad_steps

GAMES_ENV = "STARLANES_BATCHED_GAMES"
EVENTS = {  # what a reference log line says happened
    "explorer return": " returns ",
    "arrival into a black hole": "returns into the black hole",
    "collision": " collides in sector ",
    "black hole": "a black hole opens",
    "jump": " jumps to sector ",
    "fleet destroyed": "game over (fleet_destroyed)",
    "turn limit": "game over (turn_limit)",
}


def _games(default: int) -> int:
    return int(os.environ.get(GAMES_ENV, default))


def play_side_by_side(games: int, seed: int, options: dict, counts: Counter,
                      batch: int = 64) -> int:
    """Play ``games`` random games ``batch`` at a time in the batch and in the reference,
    checking every step (see the module docstring); the steps played. ``counts`` gains
    the events met (reference log lines, ``EVENTS``) and the decisions taken."""
    steps = 0
    for start in range(0, games, batch):
        n = min(batch, games - start)
        seeds = [seed + start + i for i in range(n)]
        b = GDBatch(n, **options)
        ot = ObsTables(b.t)
        stream = ObsStream(ot, n)  # the env's tensors, kept up to date block by block
        b.reset(np.arange(n), seeds)
        ref_games = [load("galactic-domination", seed=s, **options) for s in seeds]
        states = [g.new_initial_state() for g in ref_games]
        space = ref_games[0].action_space()
        encode = tensor_encoder(ref_games[0])
        rng = np.random.default_rng(seed + start)
        live = list(range(n))
        while live:
            mask = legal_mask(b)
            cp = b.current_player()
            term = b.terminal()
            ret = b.returns()
            view = np.where(cp >= 0, cp, 0)
            obs = stream.update(b, view, current=cp)
            other = observation(b, 1 - view, ot) if steps % 5 == 0 else None
            actions = np.zeros(n, np.int64)
            still = []
            for i in live:
                st = states[i]
                assert term[i] == st.is_terminal(), (seeds[i], st.round)
                assert list(ret[i]) == st.returns(), (seeds[i], ret[i], st.returns())
                if st.is_terminal():
                    assert cp[i] == st.current_player() and not mask[i].any()
                    counts.update(k for k, text in EVENTS.items()
                                  for line in st.action_log() if text in line)
                    continue
                still.append(i)
                assert cp[i] == st.current_player(), (seeds[i], st.round)
                legal = space.legal_indices(st)
                got = np.flatnonzero(mask[i])
                if sorted(legal) != got.tolist():
                    keys = [" ".join(space.key_at(x)) for x in set(legal) ^ set(got.tolist())]
                    raise AssertionError(f"seed {seeds[i]}, round {st.round}: masks differ "
                                         f"at {keys}")
                np.testing.assert_array_equal(obs[i], encode(st, int(view[i])),
                                              err_msg=f"seed {seeds[i]}")
                if other is not None:
                    np.testing.assert_array_equal(other[i], encode(st, 1 - int(view[i])),
                                                  err_msg=f"seed {seeds[i]} (other seat)")
                a = int(got[rng.integers(got.size)])
                actions[i] = a
                counts[space.key_at(a)[0]] += 1
                st.apply(legal[a])
            live = still
            b.step(actions)
            steps += len(live)
    return steps


OPTION_SETS = [
    pytest.param({}, 10, id="defaults"),
    pytest.param({"turn_limit": 8}, 48, id="turn_limit=8"),
    pytest.param({"turn_limit": 20, "roll_off": True}, 32, id="roll_off"),
    pytest.param({"turn_limit": 20, "charge_ends_turn": True}, 32, id="charge_ends_turn"),
    pytest.param({"turn_limit": 20, "arrive_full": False}, 32, id="arrive_full=false"),
    pytest.param({"turn_limit": 40, "roll_off": True, "charge_ends_turn": True,
                  "arrive_full": False}, 20, id="all_changed"),
    pytest.param({"turn_limit": 15, "content_set": (  # the tables come from the content
        "units.raider.ap=4", "units.explorer.cost=3", "units.command.shields=0",
        "economy.specials.jump_range=2", "economy.specials.black_hole_minerals=2")},
        20, id="content_set"),
]
_COUNTS: dict[int, Counter] = {}
"""The events met by each option set's games (by its place in OPTION_SETS), in this
process: what the rare-event test sums, playing the sets that did not run here."""


def _play_option_set(i: int) -> Counter:
    """Play option set ``i``'s games side by side (its own seeds) and keep their events."""
    options, games = OPTION_SETS[i].values
    counts: Counter = Counter()
    n = _games(games)
    counts["steps"] = play_side_by_side(n, 5000 + 1000 * i, options, counts)
    counts["games"] = n
    _COUNTS[i] = counts
    return counts


@pytest.mark.parametrize("i", range(len(OPTION_SETS)),
                         ids=[p.id for p in OPTION_SETS])
def test_batched_games_match_the_reference_step_by_step(i):
    """GD-SET-*, GD-TURN-*, GD-AP-*, GD-BLD-*, GD-SPC-*, GD-DS-*, GD-BH-*, GD-WIN-*: the
    same seeds and actions give the same masks, seats, tensors and returns."""
    counts = _play_option_set(i)
    assert counts["fleet destroyed"] + counts["turn limit"] >= 1


def test_random_games_covered_every_rare_event():
    """The games above met every event the arrays handle apart from the common path:
    explorer returns, arrivals picked by the player (GD-DS-05), collisions (GD-DS-06),
    black holes (GD-BH-02, GD-BH-03), jumps (GD-SPC-08) and both ways a game ends. The
    option sets that did not run in this process (run alone, or on another worker) are
    played here."""
    total: Counter = Counter()
    for i in range(len(OPTION_SETS)):
        total.update(_COUNTS.get(i) or _play_option_set(i))
    print(f"\nbatched vs reference: {dict(sorted(total.items()))}")  # shown with -s
    for event in (*EVENTS, "arrive", "sacrifice", "fire", "jump", "warp", "build"):
        assert total[event] >= 1, (event, dict(total))


# ------------------------------------------------------------------ the environment
def test_env_shapes_and_dtypes():
    env = BatchedEnv("galactic-domination", num_envs=5, seed=11)
    obs, info = env.reset()
    game = load("galactic-domination")
    assert obs.shape == (5, *game.observation_tensor_shape()) and obs.dtype == np.float32
    assert env.observation_shape == game.observation_tensor_shape()
    mask = info["action_mask"]
    assert mask.shape == (5, game.num_distinct_actions()) and mask.dtype == np.bool_
    assert env.num_actions == game.num_distinct_actions()
    assert info["current_player"].dtype == np.int64 and info["current_player"].shape == (5,)
    assert info["game_seed"].tolist() == [11, 12, 13, 14, 15]
    actions = np.array([np.flatnonzero(m)[0] for m in mask])
    obs, rewards, term, trunc, info = env.step(actions)
    assert rewards.shape == (5, 2) and rewards.dtype == np.float64
    assert term.shape == trunc.shape == (5,) and term.dtype == trunc.dtype == np.bool_
    assert env.action_masks() is info["action_mask"]


def test_env_matches_the_reference_through_autoreset():
    """Rows reset in the step their game ends, with the seeds ``s + num_envs``, ... in
    order; rewards are the ended game's returns, the new game's tensor and mask follow."""
    env_matches_reference_through_autoreset("galactic-domination", 6, 40, 18, turn_limit=2)


def _snapshot(env):
    core = env.core
    return [core.ships.copy(), core.rng.copy(), core.minerals.copy(), core.phase.copy(),
            core.seat.copy(), env.game_seeds.copy(), env.action_masks().copy()]


def test_env_seeds_follow_one_sequence():
    env = BatchedEnv("galactic-domination", num_envs=3, seed=-7)
    assert env.reset()[1]["game_seed"].tolist() == [-7, -6, -5]
    assert env.reset()[1]["game_seed"].tolist() == [-4, -3, -2]
    assert env.reset(seed=100)[1]["game_seed"].tolist() == [100, 101, 102]
    obs, info = env.reset(seed=100)
    state = load("galactic-domination", seed=101).new_initial_state()
    np.testing.assert_array_equal(obs[1], tensor_encoder(state.game)(state, 0))
    with pytest.raises(BadOptionError, match="seed"):
        env.reset(seed=2**63)
    with pytest.raises(BadOptionError, match="seed"):
        env.reset(seed=1.5)


def test_env_refuses_bad_steps_and_changes_nothing():
    env_refuses_bad_steps(BatchedEnv("galactic-domination", num_envs=3, seed=2), _snapshot)


def test_env_copy_false_reuses_its_two_arrays():
    fresh = BatchedEnv("galactic-domination", num_envs=4, seed=5)
    reused = BatchedEnv("galactic-domination", num_envs=4, seed=5, copy=False)
    obs_a, info_a = fresh.reset()
    obs_b, info_b = reused.reset()
    first_obs, first_mask = obs_b, info_b["action_mask"]
    rng = np.random.default_rng(0)
    for _ in range(30):
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(info_a["action_mask"], info_b["action_mask"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info_a["action_mask"]])
        obs_a2, _, _, _, info_a = fresh.step(actions)
        assert obs_a2 is not obs_a
        obs_a = obs_a2
        obs_b, _, _, _, info_b = reused.step(actions)
        assert obs_b is first_obs and info_b["action_mask"] is first_mask
    with pytest.raises(ValueError):  # the env's own tensors, kept up to date between steps
        obs_b[0, 0] = 1.0


def test_env_refuses_bad_construction():
    with pytest.raises(BadOptionError, match="batched games: galactic-domination"):
        BatchedEnv("rift-domination")
    with pytest.raises(BadOptionError, match="unknown game"):
        BatchedEnv("no-such-game")
    with pytest.raises(BadOptionError, match="num_envs"):
        BatchedEnv("galactic-domination", num_envs=0)
    with pytest.raises(BadOptionError, match="colour"):
        BatchedEnv("galactic-domination", colour="red")
    with pytest.raises(BadOptionError):
        BatchedEnv("galactic-domination", turn_limit=0)


def test_a_reused_mask_array_clears_the_sparse_families_where_they_were_written():
    """``legal_mask(b, out)`` clears the families it writes for some games only (set-up,
    jumps, decisions) or some ships only (moves, attacks) where the last call into the
    same array wrote them: a reused array
    equals a fresh mask at every step of long random play, and an array the batch did not
    write last is cleared whole. The capacity counts kept from step to step
    (``GDBatch.load()``) equal counts made afresh at every step."""
    b = GDBatch(64)
    b.reset(np.arange(64), list(range(64)))
    out = np.zeros((64, b.t.size), np.bool_)
    rng = np.random.default_rng(3)
    seen: Counter[str] = Counter()
    for step in range(700):
        fresh = legal_mask(b)
        np.testing.assert_array_equal(legal_mask(b, out), fresh, err_msg=f"step {step}")
        np.testing.assert_array_equal(b.load(), b.load(np.arange(64)))  # kept = counted
        assert b.mask_record is not None
        seen.update(name for name, rows in b.mask_record.sparse.items() if rows.size)
        seen.update(name for name, (rows, _) in b.mask_record.items.items() if rows.size)
        flat = np.flatnonzero(fresh)
        row = flat // fresh.shape[1]
        count = np.bincount(row, minlength=64)
        pick = np.cumsum(count) - count + (rng.random(64) * count).astype(np.int64)
        b.step(flat[pick] - np.arange(64) * fresh.shape[1])
        done = np.flatnonzero(b.terminal())
        if done.size:
            b.reset(done, (1000 + step * 64 + done).tolist())
    assert set(seen) == set(SPARSE), seen
    stranger = np.ones_like(out)  # True everywhere: not the array this batch wrote last
    legal_mask(b, stranger)
    fresh = legal_mask(b)
    for name in SPARSE:
        lo, hi = b.t.family_span[name]
        np.testing.assert_array_equal(stranger[:, lo:hi], fresh[:, lo:hi], err_msg=name)
