"""Steps/s of the vector environment against the same number of separate environments.

Run: ``python benchmarks/vector_env.py [--envs 8] [--seconds 3] [--game galactic-domination]
[--players 2]`` (needs the ``rl`` extra).

Both sides play the same masked random learner against ``random`` opponents in one
process: ``vector`` steps one ``StarlanesVectorEnv(N)`` (batched tensors and masks,
same-step autoreset) with an array of N actions; ``separate`` steps N ``StarlanesEnv``
one after the other and stacks their observations and masks into the same arrays, as a
hand-written loop would. Printed: learner steps/s of each (every environment's step
counted) and their ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from starlanes.envs.gymnasium import StarlanesEnv, StarlanesVectorEnv


def _pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def vector_rate(game: str, players: int, n: int, seconds: float) -> float:
    env = StarlanesVectorEnv(n, game, players=players, opponents="random",
                             observation="array")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.step(_pick(env.action_masks(), rng))
        steps += n
    return steps / (time.perf_counter() - start)


def separate_rate(game: str, players: int, n: int, seconds: float) -> float:
    envs = [StarlanesEnv(game, players=players, opponents="random", observation="array")
            for _ in range(n)]
    first = envs[0].game
    obs = np.zeros((n, *first.observation_tensor_shape()), np.float32)
    masks = np.zeros((n, first.num_distinct_actions()), bool)
    for i, e in enumerate(envs):
        obs[i], _ = e.reset(seed=i)
        masks[i] = e.action_masks()
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = _pick(masks, rng)
        for i, e in enumerate(envs):
            o, _, term, trunc, _ = e.step(int(actions[i]))
            if term or trunc:
                o, _ = e.reset()
            obs[i], masks[i] = o, e.action_masks()
        steps += n
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", default="galactic-domination")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    v = vector_rate(args.game, args.players, args.envs, args.seconds)
    s = separate_rate(args.game, args.players, args.envs, args.seconds)
    print(f"{args.game}, {args.players} players, {args.envs} environments: vector "
          f"{v:.0f} steps/s, separate {s:.0f} steps/s, ratio {v / s:.2f}")


if __name__ == "__main__":
    main()
