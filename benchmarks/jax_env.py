"""Game-steps/s of Galactic Domination's JAX build on JAX's default device (an accelerator
when this jaxlib has one), beside the numpy batch and the PettingZoo AEC loop on one core.

Run: ``python benchmarks/jax_env.py [--sizes 1024,4096] [--seconds 3] [--steps 64]
[--no-reference]`` (needs the ``jax`` extra; the AEC column the ``rl`` extra). On a GPU,
larger batches pay: ``--sizes 4096,16384,65536``.

Printed first: JAX's version, backend and device. Then, per batch size B, each rate in
game-steps/s (B per step), measured on the wall clock for ``--seconds`` after a warm-up
(the compile time is printed apart):

- ``env``: ``JaxBatchedEnv.step`` driven from Python, masked uniform random actions drawn
  on the device from ``info["action_mask"]`` (``jax.random.categorical``), the step's
  legality check (one value back to the host) included: the loop a host-side learner runs
  (the draw: the k-th legal index, k uniform, :func:`masked_random`);
- ``scan``: the same loop written as one ``lax.scan`` of ``--steps`` steps, compiled
  whole (draw, rules, autoreset, every row's tensor and mask, the tensors carried from
  step to step so that each is made in memory): the loop of a learner that lives on the
  device;
- ``numpy``: ``BatchedEnv(copy=False)`` at the same B on this process's core
  (``benchmarks/batched_env.py``'s ``batched_rate``, on the wall clock);
- ``aec``: the PettingZoo AEC loop with tensors on one core
  (``benchmarks/envs.py``'s ``aec_rate``), what the batched aims are measured against.

``--no-reference`` leaves out the numpy and AEC columns.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import envs as env_bench  # noqa: E402
from batched_env import batched_rate  # noqa: E402

_timed = env_bench._timed  # the wall clock unless a caller sets another

GAME = "galactic-domination"


def masked_random(key, mask):  # noqa: ANN001, ANN201
    """``(next key, one uniformly random legal index per row of mask)``: the k-th legal
    index by a cumulative count, one random number a row (``jax.random.categorical``
    draws one per action: six times slower on the CPU at A=3651)."""
    import jax
    import jax.numpy as jnp

    key, sub = jax.random.split(key)
    count = jnp.cumsum(mask, 1, dtype=jnp.int32)
    k = (jax.random.uniform(sub, (mask.shape[0],)) * count[:, -1]).astype(jnp.int32)
    return key, jnp.argmax(count > k[:, None], 1).astype(jnp.int32)


def env_rate(size: int, seconds: float) -> tuple[float, float]:
    """(game-steps/s, seconds to compile and run the first step) of JaxBatchedEnv."""
    import jax

    from starlanes.envs.jax_batched import JaxBatchedEnv

    env = JaxBatchedEnv(GAME, num_envs=size, seed=0)

    draw = jax.jit(masked_random)

    start = time.perf_counter()
    obs, info = env.reset(seed=0)
    key, actions = draw(jax.random.key(0), info["action_mask"])
    obs, _, _, _, info = env.step(actions)
    obs.block_until_ready()
    compiled = time.perf_counter() - start
    box = {"key": key, "info": info}

    def body() -> int:
        for _ in range(8):
            box["key"], a = draw(box["key"], box["info"]["action_mask"])
            obs, _, _, _, box["info"] = env.step(a)
        obs.block_until_ready()
        return 8 * size

    return _timed(seconds, body), compiled


def scan_rate(size: int, seconds: float, steps: int) -> tuple[float, float]:
    """(game-steps/s, compile seconds) of the whole loop as one compiled ``lax.scan``."""
    import jax
    import jax.numpy as jnp

    from starlanes.envs.jax_batched import JaxBatchedEnv

    env = JaxBatchedEnv(GAME, num_envs=size, seed=0)
    obs, info = env.reset(seed=0)

    def body(carry, _):  # noqa: ANN001, ANN202
        state, next_seed, seeds, mask, _, key, check = carry
        key, a = masked_random(key, mask)
        state, next_seed, seeds, rewards, term, obs, mask, cp = env._step_body(
            state, a, next_seed, seeds)
        # the tensors are carried, so each step's are made whole in memory (a reduction
        # alone would let XLA fuse them away)
        return (state, next_seed, seeds, mask, obs, key, check + rewards.sum()), None

    run = jax.jit(lambda c: jax.lax.scan(body, c, None, length=steps)[0])
    with jax.enable_x64(True):
        carry = (env._state, env._next_seed, env.game_seeds, info["action_mask"], obs,
                 jax.random.key(1), jnp.float64(0.0))
        start = time.perf_counter()
        carry = run(carry)
        jax.block_until_ready(carry)
        compiled = time.perf_counter() - start
        box = {"carry": carry}

        def timed() -> int:
            box["carry"] = run(box["carry"])
            jax.block_until_ready(box["carry"])
            return steps * size

        return _timed(seconds, timed), compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024,4096", help="batch sizes (default 1024,4096)")
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per measure")
    parser.add_argument("--steps", type=int, default=64, help="steps per compiled scan")
    parser.add_argument("--no-reference", action="store_true",
                        help="leave out the numpy and AEC columns")
    args = parser.parse_args()
    import jax

    device = jax.devices()[0]
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, device "
          f"{getattr(device, 'device_kind', device)} ({jax.device_count()} device(s))")
    aec = None
    if not args.no_reference:
        try:
            aec = env_bench.aec_rate(GAME, 2, args.seconds, observe=True)
        except ImportError:  # the rl extra is missing
            aec = None
    print(f"{'B':>6} {'env/s':>10} {'scan/s':>10} {'numpy/s':>10} {'aec/s':>8} "
          f"{'scan/aec':>8} {'compile env, scan (s)':>22}", flush=True)
    for size in (int(x) for x in args.sizes.split(",") if x):
        env, env_compile = env_rate(size, args.seconds)
        scan, scan_compile = scan_rate(size, args.seconds, args.steps)
        ref = None if args.no_reference else batched_rate(size, args.seconds,
                                                          time.perf_counter, copy=False)
        print(f"{size:>6} {env:>10,.0f} {scan:>10,.0f} "
              f"{'-' if ref is None else f'{ref:,.0f}':>10} "
              f"{'-' if aec is None else f'{aec:,.0f}':>8} "
              f"{'-' if aec is None else f'{scan / aec:.2f}x':>8} "
              f"{env_compile:>10.1f}, {scan_compile:.1f}", flush=True)


if __name__ == "__main__":
    main()
