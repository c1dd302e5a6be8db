"""Two versions of the batched environment, step against step: the time a step takes in
each, measured in turns so that a machine's drift falls on both alike.

Run: ``python benchmarks/batched_ab.py --base REV [--head DIR] [--game galactic-domination]
[--size 4096] [--steps 200] [--warmup 50] [--seed 0]``.

``--base`` is a git revision of this repository, exported with ``git archive`` into a
temporary directory, or a directory holding a ``src`` tree. ``--head`` is a directory
holding a ``src`` tree; by default it is this checkout. Each version runs in a child
process of its own, with its ``src`` first on ``PYTHONPATH`` and numpy held to one thread.
Both children build ``BatchedEnv(game, num_envs=size, seed=seed, copy=False)``, take
``--warmup`` steps, then step in turns: base, head, head, base, and so on, so that neither
always goes first. One step is a masked uniform random draw (``batched_env.masked_random``)
and ``env.step``. Each child times its own step on its process's CPU clock.

Printed, in ms per step: each version's median and quartiles, and the median with
quartiles of the per-turn ratios base/head (above 1: the head is faster). Two trees that
play the same rules play the same games (the same seed and draws). The compiled
extensions of a tree are used where they lie beside its sources; an exported revision has
none, so both sides should be alike in that.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CHILD = """
import os, sys, time
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"
sys.path.insert(0, {bench!r})
import numpy as np
from batched_env import masked_random
from starlanes.envs.batched import BatchedEnv
env = BatchedEnv({game!r}, num_envs={size}, seed={seed}, copy=False)
rng = np.random.default_rng({seed})
info = env.reset()[1]
for _ in range({warmup}):
    info = env.step(masked_random(info["action_mask"], rng))[4]
import starlanes
print("ready", starlanes.__file__, flush=True)
for line in sys.stdin:
    if line.strip() != "step":
        break
    t0 = time.process_time()
    info = env.step(masked_random(info["action_mask"], rng))[4]
    print(time.process_time() - t0, flush=True)
"""


def export(rev: str, into: Path) -> Path:
    """``rev``'s tree (``git archive``) unpacked into ``into``; returns it. Raises
    SystemExit naming the revision when git refuses it."""
    tar = into / "tree.tar"
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(tar), rev, "src"],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"git archive {rev}: {done.stderr.strip()}")
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def child(src: Path, args: argparse.Namespace) -> subprocess.Popen[str]:
    """A child process stepping the environment of the tree ``src`` on demand."""
    env = dict(os.environ, PYTHONPATH=str(src))
    code = CHILD.format(bench=str(HERE), game=args.game, size=args.size, seed=args.seed,
                        warmup=args.warmup)
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    word, _, where = proc.stdout.readline().strip().partition(" ")
    if word != "ready":
        raise SystemExit(f"the environment of {src} did not start")
    if not Path(where).resolve().is_relative_to(src.resolve()):
        proc.kill()
        raise SystemExit(f"{src}: the child imported starlanes from {where} instead")
    return proc


def step(proc: subprocess.Popen[str]) -> float:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("step\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(xs, n=4)
    return q[0], statistics.median(xs), q[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="a git revision, or a directory with src/")
    ap.add_argument("--head", default=str(ROOT), help="a directory with src/ (this checkout)")
    ap.add_argument("--game", default="galactic-domination")
    ap.add_argument("--size", type=int, default=4096, help="num_envs (default 4096)")
    ap.add_argument("--steps", type=int, default=200, help="timed steps of each (default 200)")
    ap.add_argument("--warmup", type=int, default=50, help="steps before timing (default 50)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.steps < 4:
        ap.error("--steps must be at least 4")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.base)
        base_src = base / "src" if base.is_dir() else export(args.base, Path(tmp)) / "src"
        procs = {"base": child(base_src, args), "head": child(Path(args.head) / "src", args)}
        times: dict[str, list[float]] = {"base": [], "head": []}
        try:
            for i in range(args.steps):
                for name in ("base", "head") if i % 2 == 0 else ("head", "base"):
                    times[name].append(step(procs[name]))
        finally:
            for proc in procs.values():
                proc.communicate("stop\n")
    print(f"{args.game}, B={args.size}, {args.steps} steps each, in turns "
          f"(ms a step, CPU time: median and quartiles)")
    for name in ("base", "head"):
        lo, mid, hi = quartiles(times[name])
        print(f"{name:5} {mid * 1e3:8.2f}  ({lo * 1e3:.2f}-{hi * 1e3:.2f})")
    ratios = [b / h for b, h in zip(times["base"], times["head"], strict=True)]
    lo, mid, hi = quartiles(ratios)
    print(f"base/head per turn: {mid:.3f} ({lo:.3f}-{hi:.3f}); above 1: the head is faster")


if __name__ == "__main__":
    main()
