"""The training examples run end to end on a tiny budget. The two that train with torch
are skipped without the ``train`` extra (torch, stable-baselines3, sb3-contrib) and
marked slow (10-20 s of CPU each, mostly importing torch): ``pytest -m slow
tests/interop/test_examples.py``. The learned bot's scripts need numpy only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow
def test_maskable_ppo_example_trains_against_a_pool():
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib) is not installed")
    out = _run("maskable_ppo_galactic_domination.py", "--timesteps", "64", "--eval-games",
               "1", "--turn-limit", "2", "--snapshot-every", "32")
    assert "2 snapshots in the pool" in out
    assert "win rate against heuristic" in out


@pytest.mark.slow
def test_selfplay_ppo_example_trains_and_plays():
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    out = _run("selfplay_ppo.py", "--updates", "2", "--num-envs", "2", "--num-steps", "8",
               "--eval-games", "1", "--round-limit", "1", "--snapshot-every", "1")
    assert "update 2: 32 steps" in out and "pool 2 snapshots" in out
    assert "win share against random" in out


def test_learned_bot_scripts_record_train_and_evaluate(tmp_path):
    """generate.py records labelled decisions, train.py fits and saves weights that
    evaluate.py plays (numpy only)."""
    pytest.importorskip("numpy", reason="numpy is not installed")
    data, weights = tmp_path / "d.npz", tmp_path / "w.npz"
    _run("learned_galactic_domination/generate.py", "--games", "2", "--teacher",
         "heuristic", "--out", str(data))
    out = _run("learned_galactic_domination/train.py", str(data), "--epochs", "1",
               "--hidden", "8", "--out", str(weights))
    assert "saved" in out and weights.is_file()
    out = _run("learned_galactic_domination/evaluate.py", "--opponent", "random",
               "--games", "1", "--weights", str(weights))
    assert "learned vs random" in out and "in seat 0: " in out


def test_learned_bot_reinforce_fine_tunes_and_keeps_weights(tmp_path):
    """reinforce.py plays sampled games, updates the weights, prints the learning curve
    seat by seat and saves weights that evaluate.py plays; the same seeds give the same
    weights."""
    np = pytest.importorskip("numpy", reason="numpy is not installed")
    init = EXAMPLES.parent / "src" / "starlanes" / "agents" / "learned_galactic_domination.npz"
    outs = []
    for run in ("a", "b"):
        out_path = tmp_path / f"{run}.npz"
        out = _run("learned_galactic_domination/reinforce.py", "--init", str(init),
                   "--iterations", "1", "--games", "4", "--eval-games", "2",
                   "--out", str(out_path))
        assert "iteration 0: greedy" in out and "iteration 1: sampled" in out
        assert "in seat 1" in out and out_path.is_file()
        outs.append(tmp_path / f"{run}.last.npz")
    a, b, start = np.load(outs[0]), np.load(outs[1]), np.load(init)
    assert all((a[k] == b[k]).all() for k in a.files)
    assert (a["w2"] != start["w2"]).any()  # it did learn something
    out = _run("learned_galactic_domination/evaluate.py", "--opponent", "random",
               "--games", "2", "--weights", str(outs[0]))
    assert "in seat 1: " in out

