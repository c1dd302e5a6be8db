"""benchmarks/batched_scaling.py runs P processes at once and prints the machine's rate,
each process's mean and the efficiency, one row per process count; bad counts are refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "batched_scaling.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, check=False)


def test_two_process_counts_give_a_row_each() -> None:
    done = _run("--processes", "1,2", "--seconds", "0.5", "--size", "32",
                "--games", "galactic-domination", "--no-aec")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()
            if line.startswith("galactic-domination")]
    assert [(r[1], r[2]) for r in rows] == [("batched", "1"), ("batched", "2")]
    for _, _, p, machine, each, _ in rows:
        total, mean = float(machine.replace(",", "")), float(each.replace(",", ""))
        assert total > 0 and abs(total / int(p) - mean) <= 1
    assert rows[0][5] == "1.00" and float(rows[1][5]) > 0


def test_a_count_below_one_or_not_a_number_is_refused() -> None:
    for bad in ("0", "two", ""):
        done = _run("--processes", bad)
        assert done.returncode == 2, bad
        assert "--processes needs counts of at least 1" in done.stderr
