"""benchmarks/batched_env.py measures either batched game, and ``--profile`` splits its
step into the parts ``BatchedEnv.step`` runs (mask, tensor, draw, rules)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "batched_env.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=False, cwd=ROOT)


@pytest.mark.parametrize(("game", "players"), [("galactic-domination", 2),
                                               ("interstellar-ambitions", 3)])
def test_each_batched_game_is_measured_and_profiled(game: str, players: int) -> None:
    done = _run("--game", game, "--seconds", "0.05", "--repeat", "1", "--sizes", "8",
                "--profile")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith(f"{game}, {players} players, cpu clock"), out
    assert re.search(r"^batched B=8 copy=False\s+\d+\s+[0-9.]+\s+[0-9.]+$", out, re.M), out
    assert re.search(r"^us per game-step\s+mask\s+tensor\s+draw\s+rules$", out, re.M), out
    parts = re.search(r"^batched B=8((?:\s+[0-9.]+){4})$", out, re.M)
    assert parts is not None, out
    assert all(float(x) > 0 for x in parts.group(1).split()), out


def test_a_game_without_a_batched_implementation_is_refused() -> None:
    done = _run("--game", "rift-domination", "--seconds", "0.05")
    assert done.returncode != 0
    assert "invalid choice: 'rift-domination'" in done.stderr
