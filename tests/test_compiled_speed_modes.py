"""benchmarks/compiled_speed.py's modes for a drifting machine run and say what they
measured: ``--steps`` (a fixed workload for an instruction counter) and ``--paired``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "compiled_speed.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_fixed_steps_run_one_game_quietly() -> None:
    done = _run("--steps", "300", "--games", "galactic-domination", "--builds", "pure")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None,
                    reason="the paired mode measures against OpenSpiel's backgammon")
def test_paired_ratios_name_each_game_and_the_build() -> None:
    done = _run("--paired", "1", "--games", "interstellar-ambitions")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "1 pairs of 0.25 s" in lines[0]
    assert lines[-1].startswith("| interstellar-ambitions | ") and lines[-1].endswith(" | - |")
