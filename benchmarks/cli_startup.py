"""Start-up time of the ``starlanes`` command: the median wall time (seconds) of
``starlanes --version``, ``starlanes --help`` and ``starlanes games`` over --repeat runs,
each a fresh process (and their median CPU time, user + system, which a busy machine
inflates less), and the ten imports with the largest cumulative time (microseconds,
``python -X importtime``) of ``import starlanes.cli``.

Run: python benchmarks/cli_startup.py [--repeat N] [--top N]
(``PYTHONPATH=OTHER/src`` measures another checkout with the same environment). Run it on
a quiet machine: other processes inflate every figure.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = (["--version"], ["--help"], ["games"])
"""The argument lists timed, each after the ``starlanes`` command."""


def command() -> list[str]:
    """The ``starlanes`` console script beside this Python (or on the PATH), else
    ``python -m starlanes.cli``."""
    beside = Path(sys.executable).with_name("starlanes")
    script = str(beside) if beside.is_file() else shutil.which("starlanes")
    return [script] if script else [sys.executable, "-m", "starlanes.cli"]


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_times(args: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """Seconds of wall time and of CPU time (user + system) of ``repeat`` runs of the
    command with ``args``; raises CalledProcessError when a run fails."""
    walls, cpus = [], []
    for _ in range(repeat):
        cpu, start = _child_cpu(), time.perf_counter()
        subprocess.run([*command(), *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        cpus.append(_child_cpu() - cpu)
    return walls, cpus


def import_times(module: str = "starlanes.cli") -> list[tuple[int, str]]:
    """``(cumulative microseconds, module)`` of every import made by ``import module`` in a
    fresh process, largest first."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          check=True, capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        rows.append((int(cumulative), name.rstrip()))
    rows.sort(key=lambda row: -row[0])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15, help="runs per command (default 15)")
    ap.add_argument("--top", type=int, default=10, help="imports listed (default 10)")
    args = ap.parse_args()
    where = subprocess.run([sys.executable, "-c", "import starlanes; print(starlanes.__file__)"],
                           check=True, capture_output=True, text=True).stdout.strip()
    print(f"starlanes from {where}")
    run_times(["--version"], 2)  # warm the file cache
    for argv in COMMANDS:
        walls, cpus = run_times(argv, args.repeat)
        print(f"starlanes {' '.join(argv):<10} median {statistics.median(walls):.3f} s  "
              f"min {min(walls):.3f} s  CPU median {statistics.median(cpus):.3f} s  "
              f"({args.repeat} runs)")
    print(f"\nimport starlanes.cli: top {args.top} cumulative import times (ms)")
    for cumulative, name in import_times()[:args.top]:
        print(f"{cumulative / 1000:8.1f}  {name}")


if __name__ == "__main__":
    main()
