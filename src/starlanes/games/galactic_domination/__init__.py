"""Galactic Domination (rulebook: shared/rulebooks/galactic-domination.txt)."""

from .game import GalacticDomination
from .state import GDState

__all__ = ["GalacticDomination", "GDState"]
