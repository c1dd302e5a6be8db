"""Galactic Empires (rulebook galactic-empires.txt): the 1994 science-fiction trading card
game. Importing this package registers the game under ``"galactic-empires"``."""

from .game import GalacticEmpires

__all__ = ["GalacticEmpires"]
