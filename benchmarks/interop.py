"""Throughput of the research adapters against the engine, per game.

Run: ``python benchmarks/interop.py [--seconds 3]`` (needs the ``rl`` extra).

For every game with a fixed action space and an observation tensor it measures, in the
same run and for the same wall time each: the engine's random actions/s
(``legal_actions`` + ``apply``), masked random PettingZoo AEC steps/s (``last()`` with the
observation tensor and action mask, then ``step``), and Gymnasium steps/s of one learner
against random opponents (opponents' actions are not counted as steps).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from starlanes.engine import game_ids, game_module, load


def engine_rate(game_id: str, players: int, seconds: float) -> float:
    rng = random.Random(0)
    n, seed, end = 0, 0, time.perf_counter() + seconds
    state = load(game_id, players=players, seed=seed).new_initial_state()
    start = time.perf_counter()
    while time.perf_counter() < end:
        if state.is_terminal():
            seed += 1
            state = load(game_id, players=players, seed=seed).new_initial_state()
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return n / (time.perf_counter() - start)


def aec_rate(game_id: str, players: int, seconds: float) -> float:
    from starlanes.envs.pettingzoo import env as make_env

    env = make_env(game_id, players=players, seed=0)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    n, end, start = 0, time.perf_counter() + seconds, time.perf_counter()
    while time.perf_counter() < end:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset(seed=n)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return n / (time.perf_counter() - start)


def gym_rate(game_id: str, players: int, seconds: float) -> float:
    from starlanes.envs.gymnasium import StarlanesEnv

    env = StarlanesEnv(game_id, players=players, opponents="random")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    n, end, start = 0, time.perf_counter() + seconds, time.perf_counter()
    while time.perf_counter() < end:
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
        if term or trunc:
            obs, _ = env.reset(seed=n)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'game':24} {'players':>7} {'actions':>8} {'engine/s':>9} {'aec/s':>8} "
          f"{'aec %':>6} {'gym/s':>8}")
    for gid in game_ids():
        if not (game_module(gid, "action_space") and game_module(gid, "tensor")):
            continue
        game = load(gid)
        players = min(max(game.min_players, 4), game.max_players)
        e = engine_rate(gid, players, args.seconds)
        a = aec_rate(gid, players, args.seconds)
        g = gym_rate(gid, players, args.seconds)
        n = load(gid, players=players).num_distinct_actions()
        print(f"{gid:24} {players:>7} {n:>8} {e:>9.0f} {a:>8.0f} {100 * a / e:>5.0f}% "
              f"{g:>8.0f}")


if __name__ == "__main__":
    main()
