"""``cap_result="score"``: a game the engine abandons as a draw at its length cap pays the
result by score in every adapter, and leaves the game itself (its returns, its winners)
a draw; the default keeps the engine's result."""

from __future__ import annotations

import json
import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from starlanes.engine import BadOptionError, load  # noqa: E402
from starlanes.envs import pettingzoo as pz  # noqa: E402
from starlanes.envs.gymnasium import StarlanesEnv  # noqa: E402
from starlanes.interop.rewards import (  # noqa: E402
    RewardModel,
    best_score_result,
    zero_sum,
)

# Short caps: random play reaches them with the scores apart.
CAPPED = {"galactic-empires": {"turn_cap": 12}, "galactic-domination": {"turn_limit": 6}}


def _capped_state(game_id: str, seed: int):
    state = load(game_id, players=2, seed=seed, **CAPPED[game_id]).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def _uneven_capped_state(game_id: str):
    """A random game that reached the cap with one seat ahead on score."""
    for seed in range(50):
        state = _capped_state(game_id, seed)
        scores = state.scores()
        if RewardModel(game_id).capped_draw(state) and scores[0] != scores[1]:
            return seed, state
    raise AssertionError(f"no capped game with uneven scores in {game_id}")


def test_best_score_result_shares_ties():
    assert best_score_result([20, 25]) == [0.0, 1.0]
    assert best_score_result([25, 25, 3]) == [0.5, 0.5, 0.0]


@pytest.mark.parametrize("game_id", sorted(CAPPED))
def test_a_capped_draw_is_decided_by_score_only_when_asked(game_id):
    _, state = _uneven_capped_state(game_id)
    draw = state.returns()
    assert draw == [0.5, 0.5]  # the engine's ruling: abandoned as a draw
    want = best_score_result(state.scores())
    assert sorted(want) == [0.0, 1.0]
    assert RewardModel(game_id, "result").terminal(state) == draw
    assert RewardModel(game_id, "result", "score").terminal(state) == want
    assert RewardModel(game_id, "zero_sum", "score").terminal(state) == zero_sum(want)
    assert RewardModel(game_id, "zero_sum").terminal(state) == [0.0, 0.0]
    # the score mode reads the scores already; cap_result changes nothing there
    assert RewardModel(game_id, "score", "score").terminal(state) == \
        RewardModel(game_id, "score").terminal(state)
    assert state.returns() == draw  # the game is untouched


def test_a_game_won_by_the_rules_keeps_its_result():
    """A conquest (not the cap) pays the engine's result under either choice."""
    for seed in range(40):
        state = load("galactic-empires", players=2, seed=seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if state.end_reason == "conquest":
            break
    assert state.end_reason == "conquest"
    model = RewardModel("galactic-empires", "result", "score")
    assert not model.capped_draw(state)
    assert model.terminal(state) == state.returns()
    # a game whose cap already ends on VP has no capped draw to decide
    assert RewardModel("rift-domination", "result", "score").draw_end_reason == ""


@pytest.mark.parametrize("game_id", sorted(CAPPED))
def test_pettingzoo_pays_the_score_result_at_the_cap(game_id):
    seed, state = _uneven_capped_state(game_id)
    want = best_score_result(state.scores())
    for cap, expected in (("draw", state.returns()), ("score", want)):
        for mode in ("result", "dense"):
            env = pz.env(game_id, players=2, seed=seed, reward=mode, cap_result=cap,
                         observation="array", **CAPPED[game_id])
            env.reset()
            totals = dict.fromkeys(env.possible_agents, 0.0)
            rng = random.Random(seed)
            for agent in env.agent_iter(max_iter=100_000):
                _, reward, term, trunc, _ = env.last(observe=False)
                totals[agent] += reward
                if term or trunc:
                    env.step(None)
                    continue
                inner = env.unwrapped
                # the same random line as _capped_state: index of the engine's choice
                action = rng.choice(inner.state.legal_actions())
                env.step(inner.game.action_to_index(action, inner.state))
            assert env.unwrapped.state.digest() == state.digest()
            assert list(totals.values()) == pytest.approx(expected), (cap, mode)


def test_gymnasium_learner_sees_wins_and_losses_at_the_cap():
    """The same random episodes: a draw at the cap pays 0.5 by default, and a win or a
    loss by score with ``cap_result="score"``."""
    totals = {"draw": [], "score": []}
    for cap, seen in totals.items():
        env = StarlanesEnv("galactic-empires", players=2, opponents="random",
                           cap_result=cap, **CAPPED["galactic-empires"])
        for episode in range(12):
            obs, _ = env.reset(seed=episode)
            rng = np.random.default_rng(episode)
            total, done = 0.0, False
            while not done:
                obs, reward, term, trunc, _ = env.step(int(rng.choice(
                    np.flatnonzero(obs["action_mask"]))))
                total += reward
                done = term or trunc
            if env.state.end_reason == "turn_cap":
                seen.append(total)
                assert total == best_score_result(env.state.scores())[0] \
                    if cap == "score" else total == 0.5
    assert len(totals["draw"]) == len(totals["score"]) >= 8
    assert set(totals["draw"]) == {0.5}
    assert {0.0, 1.0} <= set(totals["score"])


def test_openspiel_takes_the_parameter():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from starlanes.interop import openspiel_game as og

    seed, state = _uneven_capped_state("galactic-domination")
    want = best_score_result(state.scores())
    for cap, reward, expected in (("draw", "result", state.returns()),
                                  ("score", "result", want),
                                  ("score", "zero_sum", zero_sum(want))):
        game = pyspiel.load_game(og.short_name("galactic-domination"), {
            "players": 2, "seed": seed, "reward": reward, "cap_result": cap,
            "options": json.dumps(CAPPED["galactic-domination"])})
        spiel = game.new_initial_state()
        rng = random.Random(seed)
        while not spiel.is_terminal():
            inner = spiel.inner
            action = rng.choice(inner.legal_actions())
            spiel.apply_action(inner.game.action_to_index(action, inner))
        assert spiel.inner.digest() == state.digest()
        assert spiel.returns() == expected
    text = pyspiel.serialize_game_and_state(game, spiel)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.returns() == zero_sum(want)


def test_a_bad_cap_result_is_refused_by_name():
    with pytest.raises(BadOptionError, match="cap_result 'win'"):
        pz.env("galactic-empires", cap_result="win")
    with pytest.raises(BadOptionError, match="cap_result"):
        StarlanesEnv("galactic-empires", opponents="random", cap_result="")
