"""Throughput of the research environments against the engine, per game and player count.

Run: ``python benchmarks/envs.py [--seconds 2] [--repeat 2] [--games rift-domination,...]
[--players 2,4] [--clock wall|cpu] [--pick mask|indices] [--breakdown]`` (needs the ``rl`` extra; the OpenSpiel
column needs ``open_spiel``).

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
``--breakdown`` prints instead, per game and player count, the microseconds one AEC step
spends in each part (see :func:`breakdown`) and what a step may cost for the AEC loop to run
at half the engine's speed.

Every random choice is ``random.Random`` indexing (no numpy sampling), as the engine's;
in the AEC loops, legal indices are read with ``np.flatnonzero(mask.view(bool))`` (on the
int8 mask itself numpy takes ten times longer: ~100 us for Rift Domination's 35k
actions), or with ``--pick indices`` from ``info["legal_indices"]`` (no scan of the
space: what the agent's own choice costs is then next to nothing).
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


def aec_rate(game_id: str, players: int, seconds: float, observe: bool,
             pick: str = "mask") -> float:
    """PettingZoo AEC steps/s of masked random play (``observe``: reading the full
    observation). ``pick="mask"`` draws the index from the mask's 1s
    (``np.flatnonzero``, a scan of the whole action space, as the batched benchmarks'
    agents do); ``pick="indices"`` from ``info["legal_indices"]``, the legal indices the
    environment hands out beside the mask (no scan)."""
    from starlanes.envs.pettingzoo import env as make_env

    env = make_env(game_id, players=players, seed=0)
    rng = random.Random(0)
    env.reset(seed=0)
    box = {"games": 0}
    by_mask = pick == "mask"

    def body() -> int:
        for _ in range(100):
            obs, _, term, trunc, info = env.last(observe)
            if term or trunc:
                box["games"] += 1
                env.reset(seed=box["games"])
                continue
            if by_mask:
                mask = obs["action_mask"] if observe else info["action_mask"]
                legal = np.flatnonzero(mask.view(np.bool_))
            else:
                legal = info["legal_indices"]
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


def breakdown(game_id: str, players: int, seconds: float,
              pick: str = "mask") -> dict[str, float]:
    """Microseconds per step of each part of an AEC step (best of the interleaved
    measures is the caller's): ``engine`` (``legal_actions`` + ``apply``, from
    :func:`engine_rate`), ``map`` (the action space's ``legal_indices``: the index -> action
    map the mask and ``step`` read), ``mask`` (the int8 mask array from it), ``tensor``
    (the adapters' encoder of the acting seat), each timed around its own call in a live
    game (the clock's own cost taken off), and ``aec`` and ``masked`` (whole steps, from
    :func:`aec_rate` with and without the observation); ``plumbing`` is what ``aec`` has
    left: PettingZoo's calls, the environment's bookkeeping and the loop's own choice."""
    from starlanes.interop import tensor_encoder

    clock = _CLOCK[0]
    probe = clock()
    for _ in range(1000):
        probe_end = clock()
    tick = (probe_end - probe) / 1000  # one reading of the clock
    rng = random.Random(0)
    seed = 0
    state = load(game_id, players=players, seed=seed).new_initial_state()
    space, encode = state.game.action_space(), tensor_encoder(state.game)
    spent = {"map": 0.0, "mask": 0.0, "tensor": 0.0}
    steps, start = 0, clock()
    while clock() - start < seconds:
        if state.is_terminal():
            seed += 1
            state = load(game_id, players=players, seed=seed).new_initial_state()
            space = state.game.action_space()
        legal = state.legal_actions()
        t0 = clock()
        got = space.legal_indices(state)
        t1 = clock()
        mask = np.zeros(space.size, dtype=np.int8)
        mask[np.fromiter(got, dtype=np.intp, count=len(got))] = 1
        t2 = clock()
        encode(state, state.current_player())
        t3 = clock()
        spent["map"] += t1 - t0 - tick
        spent["mask"] += t2 - t1 - tick
        spent["tensor"] += t3 - t2 - tick
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    out = {k: 1e6 * v / steps for k, v in spent.items()}
    out["engine"] = 1e6 / engine_rate(game_id, players, seconds)
    out["aec"] = 1e6 / aec_rate(game_id, players, seconds, observe=True, pick=pick)
    out["masked"] = 1e6 / aec_rate(game_id, players, seconds, observe=False, pick=pick)
    return out


def _print_breakdown(gid: str, players: int, parts: dict[str, float]) -> None:
    plumbing = parts["aec"] - parts["engine"] - parts["map"] - parts["mask"] - parts["tensor"]
    print(f"{gid:24} {players:>2} {parts['engine']:>7.1f} {parts['map']:>6.1f} "
          f"{parts['mask']:>6.1f} {parts['tensor']:>7.1f} {plumbing:>6.1f} "
          f"{parts['masked']:>7.1f} {parts['aec']:>6.1f} {2 * parts['engine']:>7.1f} "
          f"{100 * parts['engine'] / parts['aec']:>3.0f}%", flush=True)


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
    parser.add_argument("--pick", choices=("mask", "indices"), default="mask",
                        help="how the AEC loops' random agent finds the legal indices: "
                        "the mask's 1s (default) or info['legal_indices']")
    parser.add_argument("--breakdown", action="store_true",
                        help="print the microseconds each part of an AEC step costs")
    args = parser.parse_args()
    _CLOCK[0] = CLOCKS[args.clock]
    wanted = [g for g in args.games.split(",") if g]
    counts = [int(p) for p in args.players.split(",") if p]
    if args.breakdown:
        print(f"{'game (us per step)':24} {'pl':>2} {'engine':>7} {'map':>6} {'mask':>6} "
              f"{'tensor':>7} {'plumb':>6} {'masked':>7} {'aec':>6} {'aec@50%':>7} {'%':>4}")
    else:
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
            if args.breakdown:
                runs = [breakdown(gid, players, args.seconds, args.pick)
                        for _ in range(args.repeat)]
                _print_breakdown(gid, players, {k: min(r[k] for r in runs) for k in runs[0]})
                continue
            e = a = m = g = 0.0
            s: float | None = 0.0
            for _ in range(args.repeat):  # interleaved, best of each: load varies
                e = max(e, engine_rate(gid, players, args.seconds))
                a = max(a, aec_rate(gid, players, args.seconds, observe=True, pick=args.pick))
                m = max(m, aec_rate(gid, players, args.seconds, observe=False, pick=args.pick))
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
