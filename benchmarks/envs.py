"""Throughput of the research environments against the engine, per game and player count.

Run: ``python benchmarks/envs.py [--seconds 2] [--repeat 2] [--games rift-domination,...]
[--players 2,4] [--clock wall|cpu]`` (needs the ``rl`` extra; the OpenSpiel column needs ``open_spiel``).

For every game with a fixed action space and an observation tensor, at every legal player
count (or those given), it measures in the same run, for the same wall time each:

- ``engine/s``: the engine's random actions/s (``legal_actions`` + ``apply``, a new game
  when one ends);
- ``aec/s``: PettingZoo AEC steps/s, masked random play that reads the acting agent's full
  observation (``last()``: observation tensor and action mask, then ``step``);
- ``mask/s``: the same without the observation tensor (``last(observe=False)`` and the
  mask in ``infos``), what masked random play itself costs;
- ``gym/s``: Gymnasium actions/s of one learner (masked random) in seat 0 against random
  opponents, every seat's action counted (the learner reads its full observation);
- ``spiel/s``: OpenSpiel steps/s (``legal_actions`` + ``apply_action`` on the pyspiel
  state), or ``-`` without ``pyspiel``.

Each rate is the best of ``--repeat`` interleaved measures (a shared machine's load
varies); ``--clock cpu`` times this process's CPU time instead of wall time, for a machine
whose other work takes the cores away. Each ``%`` column is that rate over ``engine/s``: 100% means the adapter costs nothing.
Every random choice is ``random.Random`` indexing (no numpy sampling), as the engine's;
legal indices are read with ``np.flatnonzero(mask.view(bool))`` (on the int8 mask itself
numpy takes ten times longer: ~100 us for Rift Domination's 35k actions).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import numpy as np

from starlanes.engine import game_ids, game_module, load

CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""``--clock``: wall time, or this process's CPU time (steadier on a shared, loaded machine:
the time other processes take the cores from it is not counted)."""
_CLOCK = [time.perf_counter]


def _timed(seconds: float, body: Callable[[], int]) -> float:
    """Calls ``body`` (returning how many steps it made) until ``seconds`` have passed on
    the chosen clock; steps per second of that clock."""
    clock = _CLOCK[0]
    n, start = 0, clock()
    end = start + seconds
    while clock() < end:
        n += body()
    return n / (clock() - start)


def engine_rate(game_id: str, players: int, seconds: float) -> float:
    rng = random.Random(0)
    box = {"seed": 0, "state": load(game_id, players=players, seed=0).new_initial_state()}

    def body() -> int:
        state = box["state"]
        for _ in range(100):
            if state.is_terminal():
                box["seed"] += 1
                state = box["state"] = load(game_id, players=players,
                                            seed=box["seed"]).new_initial_state()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        return 100

    return _timed(seconds, body)


def aec_rate(game_id: str, players: int, seconds: float, observe: bool) -> float:
    from starlanes.envs.pettingzoo import env as make_env

    env = make_env(game_id, players=players, seed=0)
    rng = random.Random(0)
    env.reset(seed=0)
    box = {"games": 0}

    def body() -> int:
        for _ in range(100):
            obs, _, term, trunc, info = env.last(observe)
            if term or trunc:
                box["games"] += 1
                env.reset(seed=box["games"])
                continue
            mask = obs["action_mask"] if observe else info["action_mask"]
            legal = np.flatnonzero(mask.view(np.bool_))
            env.step(int(legal[rng.randrange(len(legal))]))
        return 100

    return _timed(seconds, body)


def gym_rate(game_id: str, players: int, seconds: float) -> float:
    from starlanes.envs.gymnasium import StarlanesEnv

    env = StarlanesEnv(game_id, players=players, opponents="random")
    rng = random.Random(0)
    box = {"games": 0, "obs": env.reset(seed=0)[0]}

    def body() -> int:
        before = len(env.state.history)
        applied = 0
        for _ in range(20):
            legal = np.flatnonzero(box["obs"]["action_mask"].view(np.bool_))
            obs, _, term, trunc, _ = env.step(int(legal[rng.randrange(len(legal))]))
            if term or trunc:
                applied += len(env.state.history) - before
                box["games"] += 1
                obs, _ = env.reset(seed=box["games"])
                before = 0
            box["obs"] = obs
        return applied + len(env.state.history) - before

    return _timed(seconds, body)


def spiel_rate(game_id: str, players: int, seconds: float) -> float | None:
    try:
        import pyspiel

        from starlanes.interop import openspiel_game as og
    except ImportError:
        return None
    rng = random.Random(0)
    box = {"games": 0}

    def new_state():
        game = pyspiel.load_game(og.short_name(game_id), {
            "players": players, "seed": box["games"], "options": json.dumps({})})
        return game.new_initial_state()

    box["state"] = new_state()

    def body() -> int:
        state = box["state"]
        for _ in range(100):
            if state.is_terminal():
                box["games"] += 1
                state = box["state"] = new_state()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        return 100

    return _timed(seconds, body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="wall time of each measure (default 2)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="measure each rate this many times, interleaved, and keep the "
                        "best (default 2)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default all)")
    parser.add_argument("--players", default="", help="comma-separated player counts "
                        "(default every legal count)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time measured: wall (default) or this process's CPU time")
    args = parser.parse_args()
    _CLOCK[0] = CLOCKS[args.clock]
    wanted = [g for g in args.games.split(",") if g]
    counts = [int(p) for p in args.players.split(",") if p]
    print(f"{'game':24} {'pl':>2} {'actions':>7} {'engine/s':>9} {'aec/s':>8} {'%':>4} "
          f"{'mask/s':>8} {'%':>4} {'gym/s':>8} {'%':>4} {'spiel/s':>8} {'%':>4}")
    for gid in game_ids():
        if wanted and gid not in wanted:
            continue
        if not (game_module(gid, "action_space") and game_module(gid, "tensor")):
            continue
        game = load(gid)
        for players in range(game.min_players, game.max_players + 1):
            if counts and players not in counts:
                continue
            e = a = m = g = 0.0
            s: float | None = 0.0
            for _ in range(args.repeat):  # interleaved, best of each: load varies
                e = max(e, engine_rate(gid, players, args.seconds))
                a = max(a, aec_rate(gid, players, args.seconds, observe=True))
                m = max(m, aec_rate(gid, players, args.seconds, observe=False))
                g = max(g, gym_rate(gid, players, args.seconds))
                r = spiel_rate(gid, players, args.seconds)
                s = None if r is None else max(s or 0.0, r)
            n = load(gid, players=players).num_distinct_actions()
            spiel = f"{s:>8.0f} {100 * s / e:>3.0f}%" if s is not None else f"{'-':>8} {'-':>4}"
            print(f"{gid:24} {players:>2} {n:>7} {e:>9.0f} {a:>8.0f} {100 * a / e:>3.0f}% "
                  f"{m:>8.0f} {100 * m / e:>3.0f}% {g:>8.0f} {100 * g / e:>3.0f}% {spiel}",
                  flush=True)


if __name__ == "__main__":
    main()
