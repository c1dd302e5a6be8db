"""Battle decisions and their notation (BATTLE, UNIT-SKILLS; see :mod:`.battle`)."""

from __future__ import annotations

from dataclasses import dataclass

from starlanes.engine import Action

__all__ = ["AmbushTarget", "Hit", "KamikazeTarget", "Overload", "RepairRush", "Retreat",
           "Stay"]


@dataclass(frozen=True, slots=True)
class Hit(Action):
    """Assign one hit to a target group (RD-HIT-13): ``hit carrier``, ``hit carrier[1/0]``."""

    target: str

    def notation(self) -> str:
        return f"hit {self.target}"


@dataclass(frozen=True, slots=True)
class KamikazeTarget(Action):
    """Choose the enemy ship a destroyed kamikaze unit strikes (RD-SKL-03)."""

    target: str

    def notation(self) -> str:
        return f"kamikaze {self.target}"


@dataclass(frozen=True, slots=True)
class AmbushTarget(Action):
    """Choose the enemy unit an ambush card damages."""

    target: str

    def notation(self) -> str:
        return f"ambush {self.target}"


@dataclass(frozen=True, slots=True)
class Overload(Action):
    """Overload (RD-SKL-09/10): put one of the skill's 4 shields on a combatant of the own
    group ``target`` (``overload carrier``). The first one uses the skill; the rest follow
    one at a time until all 4 are placed, so any split is possible. ``pass`` in the
    overload window keeps the skill for a later phase."""

    target: str

    def notation(self) -> str:
        return f"overload {self.target}"


@dataclass(frozen=True, slots=True)
class RepairRush(Action):
    """Repair Rush (RD-SKL-01): negate ``amount`` damage the own side has taken since the
    last casualties were removed (``rush 3``); ``pass`` keeps the skill for later."""

    amount: int

    def notation(self) -> str:
        return f"rush {self.amount}"


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat after close combat (RD-BAT-08/12)."""

    def notation(self) -> str:
        return "retreat"


@dataclass(frozen=True, slots=True)
class Stay(Action):
    """Stay in close combat: another close round follows (RD-BAT-07)."""

    def notation(self) -> str:
        return "stay"
