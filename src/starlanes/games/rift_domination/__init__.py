"""Rift Domination (rulebook: shared/rulebooks/rift-domination.txt)."""

from .game import RiftDomination
from .state import RiftState, Unit

__all__ = ["RiftDomination", "RiftState", "Unit"]
