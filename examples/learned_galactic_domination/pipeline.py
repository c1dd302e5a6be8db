"""Make the ``learned`` Galactic Domination weights from scratch: imitation, DAgger, then
policy gradient against the heuristic.

Runs ``generate.py`` and ``train.py`` (one process each, one after the other) with the
budget and seeds of the packaged weights (docs/research.md, "A learned bot"):

1. ``generate.py --teacher heuristic --games 1000 --seed 100000``: the heuristic's own
   decisions in heuristic-against-heuristic games (``imitation.npz``);
2. ``train.py imitation.npz --hidden 256 --epochs 8 --seed 0`` -> ``v1.npz``;
3. for round ``r`` = 1 .. ``--rounds``: ``generate.py --teacher heuristic --player learned
   --weights v{r}.npz --games 300 --seed 200000 + 1000 r`` (the policy plays, the
   heuristic labels the states it reaches: ``dagger{r}.npz``), then ``train.py
   imitation.npz dagger1.npz .. dagger{r}.npz --init v{r}.npz --epochs 3 --seed r`` ->
   ``v{r+1}.npz``;
4. ``reinforce.py --init v{rounds+1}.npz --iterations 30 --games 400 --seed 500000
   --eval-games 400 --eval-seed 950000 --out rl.npz``: 30 iterations of 400 sampled
   games against the heuristic (``--rl-iterations``; 0 skips it); its last weights,
   ``rl.last.npz``, are copied to ``v{rounds+2}.npz``.

The last ``v{...}.npz`` is the result; copy it over
``src/starlanes/agents/learned_galactic_domination.npz`` to ship it. Each generated file
reports the policy's results in its games (``result``), so every round is also a
300-game measure of the previous weights against the heuristic.

Run: ``python examples/learned_galactic_domination/pipeline.py --dir /tmp/learned``
(set ``OMP_NUM_THREADS=1`` to keep numpy on one core; ``--games``, ``--dagger-games``,
``--rounds``, ``--rl-iterations``, ``--rl-games`` and ``--rl-eval-games`` shrink the
budget for a trial).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def run(script: str, *args: object) -> None:
    """Run one of the sibling scripts with ``args``; raises CalledProcessError on failure."""
    cmd = [sys.executable, str(HERE / script), *map(str, args)]
    print("$", " ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, check=True)


def win_rate(path: Path) -> tuple[float, int]:
    """The recorded seat's mean result over the games of a ``generate.py`` file, and the
    number of games."""
    with np.load(path) as data:
        per_game = dict(zip(data["game"].tolist(), data["result"].tolist(), strict=True))
    return sum(per_game.values()) / max(1, len(per_game)), len(per_game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="learned_run", help="where the data and weights go")
    parser.add_argument("--games", type=int, default=1000, help="imitation games")
    parser.add_argument("--dagger-games", type=int, default=300, help="games a DAgger round")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=8, help="imitation epochs")
    parser.add_argument("--dagger-epochs", type=int, default=3)
    parser.add_argument("--rl-iterations", type=int, default=30)
    parser.add_argument("--rl-games", type=int, default=400, help="games an iteration")
    parser.add_argument("--rl-eval-games", type=int, default=400)
    args = parser.parse_args()
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    data = [out / "imitation.npz"]
    run("generate.py", "--teacher", "heuristic", "--games", args.games, "--seed", 100_000,
        "--out", data[0])
    run("train.py", data[0], "--hidden", args.hidden, "--epochs", args.epochs, "--seed", 0,
        "--out", out / "v1.npz")
    for r in range(1, args.rounds + 1):
        rec = out / f"dagger{r}.npz"
        run("generate.py", "--teacher", "heuristic", "--player", "learned", "--weights",
            out / f"v{r}.npz", "--games", args.dagger_games, "--seed", 200_000 + 1000 * r,
            "--out", rec)
        rate, n = win_rate(rec)
        print(f"v{r} against heuristic: {rate:.3f} of {n} games", flush=True)
        data.append(rec)
        run("train.py", *data, "--init", out / f"v{r}.npz", "--epochs", args.dagger_epochs,
            "--seed", r, "--out", out / f"v{r + 1}.npz")
    last = out / f"v{args.rounds + 1}.npz"
    if args.rl_iterations > 0:
        run("reinforce.py", "--init", last, "--iterations", args.rl_iterations, "--games",
            args.rl_games, "--seed", 500_000, "--eval-games", args.rl_eval_games, "--eval-seed", 950_000,
            "--out", out / "rl.npz")
        last = out / f"v{args.rounds + 2}.npz"
        shutil.copyfile(out / "rl.last.npz", last)
    print(f"result: {last}")


if __name__ == "__main__":
    main()
