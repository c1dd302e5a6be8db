"""benchmarks/jax_env.py names JAX's device and measures the JAX build of Galactic
Domination both ways (the environment driven from Python, the loop as one compiled scan)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the JAX build needs the jax extra")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "jax_env.py"


def test_the_jax_build_is_measured_on_the_default_device() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "4", "--seconds", "0.05",
                           "--steps", "2", "--no-reference"], capture_output=True, text=True,
                          timeout=600, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.match(r"jax \S+, backend \w+, device .+ \(\d+ device\(s\)\)$", out.splitlines()[0])
    row = re.search(r"^\s+4\s+([0-9,]+)\s+([0-9,]+)\s+-\s+-\s+-\s+[0-9.]+, [0-9.]+$", out, re.M)
    assert row is not None, out
    assert all(int(x.replace(",", "")) > 0 for x in row.groups()), out
