"""starlanes: four space-strategy tabletop games as software.

>>> import starlanes
>>> game = starlanes.load("rift-domination", players=4, seed=7)
>>> state = game.new_initial_state()
"""

from .engine import GameRecord, game_ids, load, replay

__version__ = "0.1.0"
__all__ = ["GameRecord", "game_ids", "load", "replay", "__version__"]
