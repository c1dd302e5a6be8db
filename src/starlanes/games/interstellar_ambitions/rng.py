"""The generator of this game's states: the engine's one-integer :class:`GameRng`.

Kept as a name so content and tests that speak of ``FastRng`` read naturally.
"""

from __future__ import annotations

from starlanes.engine import GameRng as FastRng

__all__ = ["FastRng"]
