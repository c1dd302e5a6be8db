"""Seeding of the environments: a reset without a seed plays a new deal drawn from the
environment's own generator, and the resets after ``reset(seed=s)`` repeat exactly."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from starlanes.engine import load  # noqa: E402
from starlanes.envs import pettingzoo as pz  # noqa: E402
from starlanes.envs.gymnasium import StarlanesEnv, StarlanesVectorEnv  # noqa: E402

from .conftest import research_games  # noqa: E402

# One player count per game (the smallest).
GAMES = sorted({g: (g, n) for g, n in reversed(research_games())}.values())
RESETS = 5


def _aec_digests(env, first_seed=None):
    """The starting state's digest and tensor bytes of ``RESETS`` resets, the first with
    ``first_seed`` and the others unseeded."""
    out = []
    for k in range(RESETS):
        env.reset(seed=first_seed if k == 0 else None)
        state = env.unwrapped.state
        out.append((state.digest(), env.unwrapped.game_seed))
    return out


@pytest.mark.parametrize("game_id, players", GAMES)
def test_pettingzoo_unseeded_resets_deal_new_games(game_id, players):
    env = pz.env(game_id, players=players, seed=3)
    seen = _aec_digests(env)
    assert len({d for d, _ in seen}) == RESETS
    assert len({s for _, s in seen}) == RESETS
    # the first reset without a seed plays the constructor's seed, as it always did
    assert seen[0] == (load(game_id, players=players, seed=3).new_initial_state().digest(), 3)


@pytest.mark.parametrize("game_id, players", GAMES)
def test_pettingzoo_seeded_reset_sequence_repeats(game_id, players):
    env = pz.env(game_id, players=players, seed=0)
    first = _aec_digests(env, first_seed=7)
    again = _aec_digests(env, first_seed=7)
    other = _aec_digests(pz.env(game_id, players=players, seed=99), first_seed=7)
    assert first == again == other
    assert first[0][1] == 7  # reset(seed=s) plays the deal load(seed=s) gives
    assert first[0][0] == load(game_id, players=players, seed=7).new_initial_state().digest()
    assert len({d for d, _ in first}) == RESETS
    assert _aec_digests(env, first_seed=8) != first


def test_pettingzoo_observations_differ_between_unseeded_resets():
    env = pz.env("galactic-empires", players=2, seed=0)
    tensors = []
    for _ in range(RESETS):
        env.reset()
        obs, *_ = env.last()
        tensors.append(obs["observation"].tobytes())
    assert len(set(tensors)) == RESETS


def _gym_digests(env, first_seed=None):
    out = []
    for k in range(RESETS):
        obs, _ = env.reset(seed=first_seed if k == 0 else None)
        out.append((env.state.digest(), obs["observation"].tobytes()))
    return out


@pytest.mark.parametrize("game_id, players", GAMES)
def test_gymnasium_resets_draw_new_games_and_repeat_when_seeded(game_id, players):
    env = StarlanesEnv(game_id, players=players, opponents="random")
    unseeded = _gym_digests(env)
    assert len({d for d, _ in unseeded}) == RESETS
    first = _gym_digests(env, first_seed=7)
    assert first == _gym_digests(env, first_seed=7)
    assert first == _gym_digests(StarlanesEnv(game_id, players=players, opponents="random"),
                                 first_seed=7)
    assert len({d for d, _ in first}) == RESETS


def test_vector_env_resets_draw_new_games_and_repeat_when_seeded():
    def digests(venv, seed):
        out = []
        for k in range(3):
            venv.reset(seed=seed if k == 0 else None)
            out.append(tuple(e.state.digest() for e in venv.envs))
        return out

    venv = StarlanesVectorEnv(3, game="galactic-empires", players=2, opponents="random")
    first = digests(venv, 7)
    assert len({d for row in first for d in row}) == 9  # every env, every reset: new deals
    assert digests(venv, 7) == first
    assert len({d for row in digests(venv, None) for d in row}) == 9


def test_vector_env_autoreset_deals_a_new_game():
    venv = StarlanesVectorEnv(1, game="galactic-domination", opponents="random",
                              turn_limit=1)
    venv.reset(seed=5)
    rng = np.random.default_rng(0)
    starts = [venv.envs[0].state.digest()]
    while len(starts) < 4:
        mask = venv.action_masks()[0]
        _, _, term, trunc, _ = venv.step(np.array([rng.choice(np.flatnonzero(mask))]))
        if term[0] or trunc[0]:
            starts.append(venv.envs[0].state.digest())
    assert len(set(starts)) == 4
