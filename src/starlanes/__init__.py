"""starlanes: four space-strategy tabletop games as software.

>>> import starlanes
>>> game = starlanes.load("rift-domination", players=4, seed=7)
>>> state = game.new_initial_state()
"""

from typing import Any

from .engine import game_ids, load

__version__ = "0.1.0"
__all__ = ["GameRecord", "game_ids", "load", "replay", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("GameRecord", "replay"):  # pydantic is loaded on first use
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
