"""Game-steps/s of a batched environment against today's loops, per core.

Run: ``python benchmarks/batched_env.py [--game galactic-domination|interstellar-ambitions]
[--seconds 3] [--repeat 2] [--sizes 256,1024,4096] [--clock cpu|wall] [--profile]
[--all-games]`` (the AEC column needs the ``rl`` extra). ``--game`` (default Galactic
Domination, 2 players; Interstellar Ambitions plays 3) is the game of the main table and
of ``--profile``.

In one run, each rate the best of ``--repeat`` interleaved measures of ``--seconds`` each,
on this process's CPU time by default (``--clock cpu``: a shared machine's other work is
not counted), with numpy's thread pools held to one thread (the rates are per core):

- ``engine``: the reference engine's random steps/s (``legal_actions`` + ``apply``, a new
  game when one ends; :func:`benchmarks.envs.engine_rate`);
- ``aec``: today's PettingZoo AEC loop with tensors: masked random play reading the acting
  agent's full observation (tensor and mask) each step (:func:`benchmarks.envs.aec_rate`);
- ``batched B``: ``BatchedEnv(num_envs=B)`` game-steps/s (B per ``step``): masked uniform
  random actions drawn with numpy from ``info["action_mask"]`` (the draw's cost counted),
  the observation tensors of every row made each step, same-step autoreset; with new
  output arrays every step (the default) and with ``copy=False`` (the same two arrays
  reused).

Printed: each rate and its ratio to ``aec`` and to ``engine``. ``--profile`` adds, per
batch size, the microseconds per game-step of each part of the batched loop with
``copy=False``, timed one by one as ``BatchedEnv.step`` runs them (the mask into the
environment's own array, the tensors kept up to date, the random draw, the rules' step
with the new games that replace the finished ones).

``--all-games`` prints instead one table for the four games (each at its minimum player
count): the engine's random steps/s, the PettingZoo AEC loop with tensors and the batched
environment (the largest ``--sizes`` with ``copy=False``, where the game has one; ``-``
where not), each beside OpenSpiel's C++ backgammon driven by the same Python loop
(``benchmarks/compiled_speed.py``; ``-`` without ``pyspiel``), all in the same run.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import envs as env_bench  # noqa: E402

from starlanes.engine import game_class  # noqa: E402
from starlanes.envs.batched import BATCHED_GAMES, BatchedEnv  # noqa: E402

GAME = "galactic-domination"


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action index per row of ``mask`` (bool [B, A], every
    row with at least one legal action): int64 [B]."""
    n, size = mask.shape
    flat = np.flatnonzero(mask)
    row = flat // size
    count = np.bincount(row, minlength=n)
    first = np.cumsum(count) - count
    pick = first + (rng.random(n) * count).astype(np.int64)
    return flat[pick] - np.arange(n) * size


def batched_rate(size: int, seconds: float, clock: Callable[[], float],
                 parts: dict[str, float] | None = None, copy: bool = True,
                 game: str = GAME, seed: int = 0,
                 ready: Callable[[], object] | None = None) -> float:
    """Game-steps/s of ``BatchedEnv(game, num_envs=size, seed=seed)`` under masked random
    play (see the module docstring), measured after ``ready()`` returns when given (a
    barrier of several processes); with ``parts``, the microseconds per game-step spent in
    each part (mask, tensor, draw, rules) are put in it."""
    env = BatchedEnv(game, num_envs=size, seed=seed, copy=copy)
    rng = np.random.default_rng(seed)
    obs, info = env.reset()
    for _ in range(50):  # past the set-up, into the common path
        obs, _, _, _, info = env.step(masked_random(info["action_mask"], rng))
    if ready is not None:
        ready()
    steps, start = 0, clock()
    end = start + seconds
    if parts is None:
        while clock() < end:
            obs, _, _, _, info = env.step(masked_random(info["action_mask"], rng))
            steps += size
        return steps / (clock() - start)
    mask_of, tensor_of, rules = _parts(env)
    core = env.core
    while clock() < end:  # the parts of one env step, timed one by one, as step() runs them
        t0 = clock()
        cp = core.current_player()
        mask = mask_of(cp)
        t1 = clock()
        tensor_of(cp)
        t2 = clock()
        actions = masked_random(mask, rng)
        t3 = clock()
        rules(actions)
        done = np.flatnonzero(core.terminal())
        if done.size:
            env._new_games(done)
        t4 = clock()
        for key, spent in (("mask", t1 - t0), ("tensor", t2 - t1), ("draw", t3 - t2),
                           ("rules", t4 - t3)):
            parts[key] = parts.get(key, 0.0) + spent
        steps += size
    for key in parts:
        parts[key] *= 1e6 / steps
    return steps / (clock() - start)


def _parts(env: BatchedEnv) -> tuple[Callable[[np.ndarray], np.ndarray],
                                     Callable[[np.ndarray], object],
                                     Callable[[np.ndarray], object]]:
    """The three calls of ``env.step`` that ``--profile`` times, for ``env``'s game: the
    mask into the environment's own array, the tensors kept up to date, the rules."""
    core = env.core
    if env.game_id == "interstellar-ambitions":
        from starlanes.games.interstellar_ambitions import batched_view

        return (lambda cp: batched_view.legal_mask(core, env._buffers),
                lambda cp: env._ia_stream.update(core, np.maximum(cp, 0)),
                core.step_indices)
    from starlanes.games.galactic_domination import batched_masks

    return (lambda cp: batched_masks.legal_mask(core, env._buffers),
            lambda cp: env._stream.update(core, np.maximum(cp, 0), current=cp),
            core.step)


def all_games(seconds: float, repeat: int, size: int, clock: Callable[[], float]) -> None:
    """The ``--all-games`` table (see the module docstring)."""
    from compiled_speed import _backgammon_stepper, _measure

    from starlanes.engine import game_ids

    games = [(g, game_class(g).min_players) for g in game_ids()]
    best: dict[tuple[str, str], float] = {}

    def keep(key: tuple[str, str], rate: float) -> None:
        best[key] = max(best.get(key, 0.0), rate)

    stepper = _backgammon_stepper()
    for _ in range(repeat):
        if stepper is not None:
            keep(("backgammon", "engine"), _measure(stepper, seconds, clock)[0])
        for game, players in games:
            keep((game, "engine"), env_bench.engine_rate(game, players, seconds))
            keep((game, "aec"), env_bench.aec_rate(game, players, seconds, observe=True))
            if game in BATCHED_GAMES:
                keep((game, "batched"), batched_rate(size, seconds, clock, copy=False,
                                                     game=game))
    bg = best.get(("backgammon", "engine"), float("nan"))
    print(f"per core, {'CPU' if clock is env_bench.CLOCKS['cpu'] else 'wall'} clock, best of "
          f"{repeat} x {seconds:g} s; batched: B={size}, copy=False; x bg: over OpenSpiel "
          "C++ backgammon's steps/s in the same Python loop")
    print(f"{'game, players':30} {'engine':>9} {'x bg':>6} {'AEC+tensor':>11} {'x bg':>6} "
          f"{'batched':>9} {'x bg':>6} {'x AEC':>6}")
    for game, players in games:
        engine, aec = best[game, "engine"], best[game, "aec"]
        batched = best.get((game, "batched"))
        tail = (f"{batched:>9.0f} {batched / bg:>6.2f} {batched / aec:>6.2f}"
                if batched else f"{'-':>9} {'-':>6} {'-':>6}")
        print(f"{f'{game}, {players}':30} {engine:>9.0f} {engine / bg:>6.2f} {aec:>11.0f} "
              f"{aec / bg:>6.2f} {tail}")
    print(f"{'backgammon (OpenSpiel C++)':30} {bg:>9.0f} {1.0:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time of each measure (default 3)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="interleaved measures of each rate, best kept (default 2)")
    parser.add_argument("--sizes", default="256,1024,4096",
                        help="comma-separated batch sizes (default 256,1024,4096)")
    parser.add_argument("--clock", choices=sorted(env_bench.CLOCKS), default="cpu",
                        help="time measured: this process's CPU time (default) or wall")
    parser.add_argument("--profile", action="store_true",
                        help="also print the microseconds per game-step of each part")
    parser.add_argument("--all-games", action="store_true",
                        help="one table for the four games beside OpenSpiel backgammon")
    parser.add_argument("--game", choices=BATCHED_GAMES, default=GAME,
                        help=f"the game of the main table and --profile (default {GAME})")
    args = parser.parse_args()
    clock = env_bench.CLOCKS[args.clock]
    env_bench._CLOCK[0] = clock
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.all_games:
        all_games(args.seconds, args.repeat, max(sizes), clock)
        return
    game = args.game
    players = game_class(game).min_players  # the batched rules' player count
    engine = aec = 0.0
    runs = [(size, copy) for size in sizes for copy in (True, False)]
    batched = dict.fromkeys(runs, 0.0)
    for _ in range(args.repeat):
        engine = max(engine, env_bench.engine_rate(game, players, args.seconds))
        try:
            aec = max(aec, env_bench.aec_rate(game, players, args.seconds, observe=True))
        except ImportError:  # no rl extra: no AEC column
            aec = float("nan")
        for size, copy in runs:
            batched[size, copy] = max(batched[size, copy],
                                      batched_rate(size, args.seconds, clock, copy=copy,
                                                   game=game))
    print(f"{game}, {players} players, {args.clock} clock, best of {args.repeat} x "
          f"{args.seconds:g} s")
    print(f"{'loop':28} {'steps/s':>10} {'x aec':>7} {'x engine':>9}")
    rows = [("engine (random)", engine), ("PettingZoo AEC + tensor", aec)]
    rows += [(f"batched B={size}" + ("" if copy else " copy=False"), rate)
             for (size, copy), rate in batched.items()]
    for name, rate in rows:
        print(f"{name:28} {rate:>10.0f} {rate / aec:>7.2f} {rate / engine:>9.2f}")
    if args.profile:
        print(f"\n{'us per game-step':28} {'mask':>7} {'tensor':>7} {'draw':>7} {'rules':>7}")
        for size in sizes:
            parts: dict[str, float] = {}
            batched_rate(size, args.seconds, clock, parts, copy=False, game=game)
            print(f"{f'batched B={size}':28} {parts['mask']:>7.2f} {parts['tensor']:>7.2f} "
                  f"{parts['draw']:>7.2f} {parts['rules']:>7.2f}")


if __name__ == "__main__":
    main()
