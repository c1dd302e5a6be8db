"""Research environments: ``starlanes.envs.pettingzoo.env(game, ...)`` (PettingZoo AEC)
and ``starlanes.envs.gymnasium`` (Gymnasium single-learner env, registered ids
``starlanes/<Game>-v0``). Both need the ``rl`` extra; see docs/research.md.
:class:`BatchedEnv` (``starlanes.envs.batched``, numpy only) steps many games at once
over arrays."""

from __future__ import annotations

from typing import Any

__all__ = ["BatchedEnv"]


def __getattr__(name: str) -> Any:
    if name in ("BatchedEnv", "BATCHED_GAMES"):
        from . import batched

        return getattr(batched, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
