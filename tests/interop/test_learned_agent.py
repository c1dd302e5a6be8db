"""The ``learned`` Galactic Domination agent: a numpy MLP policy shipped with the package
that always plays a legal action and beats ``random``; the script that makes its weights
runs."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")

from starlanes.agents import learned, make_agent  # noqa: E402
from starlanes.agents.registry import AGENT_NAMES  # noqa: E402
from starlanes.engine import AgentSpecError, load  # noqa: E402

GAME = "galactic-domination"
PIPELINE = (Path(__file__).resolve().parents[2] / "examples" / "learned_galactic_domination"
            / "pipeline.py")


def test_weights_are_small_and_match_the_game():
    w = learned.weights()
    game = load(GAME)
    assert learned.WEIGHTS.stat().st_size < 3_000_000
    assert w["w2"].shape[1] == game.num_distinct_actions()
    assert w["features"].max() < game.observation_tensor_shape()[0]
    assert w["w1"].shape == (w["features"].size, w["b1"].size)
    assert "learned" in AGENT_NAMES


def test_plays_a_legal_action_in_every_position_of_random_games():
    """Every position of two short random games (the learned agent's choice checked at
    each, random moves played on)."""
    agent = make_agent("learned", GAME, 1)
    for seed in range(2):
        state = load(GAME, players=2, seed=seed, turn_limit=4).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.is_legal(agent.act(state))
            state.apply(rng.choice(state.legal_actions()))


def test_beats_random():
    """Four short games, seats alternating (turn_limit 20: a game that reaches it is a
    draw, which does not count as a win)."""
    won = 0.0
    for g in range(4):
        state = load(GAME, players=2, seed=700 + g, turn_limit=20).new_initial_state()
        agents = [make_agent("learned", GAME, g), make_agent("random", GAME, g)]
        if g % 2:
            agents.reverse()
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
        won += state.returns()[g % 2] if state.winners and len(state.winners) == 1 else 0.0
    assert won >= 3


def test_other_games_are_refused_by_name():
    with pytest.raises(AgentSpecError, match="galactic-domination only"):
        make_agent("learned", "rift-domination", 0)
    with pytest.raises(AgentSpecError, match="no parameter"):
        make_agent("learned:depth=2", GAME, 0)


def test_pipeline_chains_imitation_and_a_dagger_round(tmp_path):
    """pipeline.py (the recipe of the packaged weights) on a tiny budget: imitation
    weights, one DAgger round that reports their result, fine-tuned weights, then one
    policy-gradient iteration whose last weights are the result."""
    done = subprocess.run(
        [sys.executable, str(PIPELINE), "--dir", str(tmp_path), "--games", "2",
         "--dagger-games", "1", "--rounds", "1", "--hidden", "8", "--epochs", "1",
         "--dagger-epochs", "1", "--rl-iterations", "1", "--rl-games", "4",
         "--rl-eval-games", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "v1 against heuristic" in done.stdout and "iteration 1: sampled" in done.stdout
    assert (tmp_path / "v1.npz").is_file() and (tmp_path / "v2.npz").is_file()
    assert f"result: {tmp_path / 'v3.npz'}" in done.stdout and (tmp_path / "v3.npz").is_file()
