"""benchmarks/batched_ab.py steps two trees' batched environments in turns and prints each
one's step time and their ratio; a revision git does not know, or a tree that does not
hold the package it claims, is refused by name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "batched_ab.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=False, cwd=ROOT)


def test_a_tree_against_itself_prints_both_times_and_their_ratio() -> None:
    done = _run("--base", str(ROOT), "--size", "16", "--steps", "8", "--warmup", "2",
                "--game", "interstellar-ambitions")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "interstellar-ambitions, B=16, 8 steps each" in out
    for name in ("base", "head"):
        assert re.search(rf"^{name}\s+[0-9.]+\s+\([0-9.]+-[0-9.]+\)$", out, re.M), out
    assert re.search(r"^base/head per turn: [0-9.]+ \([0-9.]+-[0-9.]+\)", out, re.M), out


def test_an_unknown_revision_is_named(tmp_path: Path) -> None:
    done = _run("--base", "no-such-revision-x", "--steps", "4")
    assert done.returncode != 0
    assert "git archive no-such-revision-x" in done.stderr
    empty = tmp_path / "tree"
    (empty / "src").mkdir(parents=True)  # holds no starlanes: the installed one would load
    done = _run("--base", str(empty), "--size", "4", "--steps", "4", "--warmup", "1")
    assert done.returncode != 0
    assert "the child imported starlanes from" in done.stderr


def test_a_revision_is_exported_and_stepped_against_the_checkout() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no revision to export")
    done = _run("--base", "HEAD", "--size", "8", "--steps", "4", "--warmup", "1")
    assert done.returncode == 0, done.stderr
    assert "galactic-domination, B=8, 4 steps each" in done.stdout
