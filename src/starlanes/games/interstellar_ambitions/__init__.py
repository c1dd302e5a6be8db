"""Interstellar Ambitions (rulebook: shared/rulebooks/interstellar-ambitions.txt)."""

from .game import InterstellarAmbitions
from .state import IAState

__all__ = ["IAState", "InterstellarAmbitions"]
