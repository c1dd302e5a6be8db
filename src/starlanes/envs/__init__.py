"""Research environments: ``starlanes.envs.pettingzoo.env(game, ...)`` (PettingZoo AEC)
and ``starlanes.envs.gymnasium`` (Gymnasium single-learner env, registered ids
``starlanes/<Game>-v0``). Both need the ``rl`` extra; see docs/research.md.
:class:`BatchedEnv` (``starlanes.envs.batched``, numpy only) steps many games at once
over arrays; :class:`JaxBatchedEnv` (``starlanes.envs.jax_batched``, the ``jax`` extra) is
its JAX build for Galactic Domination, on an accelerator when JAX has one."""

from __future__ import annotations

from typing import Any

__all__ = ["BatchedEnv", "JaxBatchedEnv"]


def __getattr__(name: str) -> Any:
    if name in ("BatchedEnv", "BATCHED_GAMES"):
        from . import batched

        return getattr(batched, name)
    if name in ("JaxBatchedEnv", "JaxGD"):
        from . import jax_batched

        return getattr(jax_batched, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
