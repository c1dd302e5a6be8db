"""Galactic Domination actions and their notation.

Ships are named by their number (``#`` omitted), sectors by zone letter and row ("R1",
"G2"), unit types by content id. Actions are interned: :func:`get` returns one shared
object per notation, so generating legal actions allocates almost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlanes.engine import Action


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Set-up: place a starting ship of type ``kind`` in ``sector`` (GD-SET-04)."""

    kind: str
    sector: str

    def notation(self) -> str:
        return f"place {self.kind} {self.sector}"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a unit in a sector of the own starting zone (GD-BLD-01..04)."""

    kind: str
    sector: str

    def notation(self) -> str:
        return f"build {self.kind} {self.sector}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move ship ``ship`` to the adjacent ``sector`` for 1 AP (GD-AP-04)."""

    ship: int
    sector: str

    def notation(self) -> str:
        return f"move {self.ship} {self.sector}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Ship ``ship`` attacks enemy ``target`` in range for 1 AP (GD-AP-05, GD-RNG-*)."""

    ship: int
    target: int

    def notation(self) -> str:
        return f"attack {self.ship} {self.target}"


@dataclass(frozen=True, slots=True)
class Attach(Action):
    """A miner attaches to its sector's planet for 1 AP (GD-SPC-01)."""

    ship: int

    def notation(self) -> str:
        return f"attach {self.ship}"


@dataclass(frozen=True, slots=True)
class Warp(Action):
    """An explorer warps into deep space for 1 AP (GD-DS-01)."""

    ship: int

    def notation(self) -> str:
        return f"warp {self.ship}"


@dataclass(frozen=True, slots=True)
class ChargeShot(Action):
    """A destroyer charges a black hole shot aimed at ``sector`` (GD-SPC-04/05)."""

    ship: int
    sector: str

    def notation(self) -> str:
        return f"charge {self.ship} {self.sector}"


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """A charged destroyer fires its black hole shot, 1 AP (GD-SPC-06)."""

    ship: int

    def notation(self) -> str:
        return f"fire {self.ship}"


@dataclass(frozen=True, slots=True)
class ChargeJump(Action):
    """A command ship charges a fleet jump (GD-SPC-07)."""

    ship: int

    def notation(self) -> str:
        return f"charge {self.ship}"


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """A charged command ship jumps with its group to ``sector`` (GD-SPC-08/09)."""

    ship: int
    sector: str

    def notation(self) -> str:
        return f"jump {self.ship} {self.sector}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the spending step and the turn (GD-AP-07, GD-TURN-01)."""

    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Arrive(Action):
    """Choose the sector a returning explorer arrives in, a friendly command ship being in
    the zone (GD-DS-05)."""

    ship: int
    sector: str

    def notation(self) -> str:
        return f"arrive {self.ship} {self.sector}"


@dataclass(frozen=True, slots=True)
class Sacrifice(Action):
    """The defender picks the ship destroyed with a colliding explorer (GD-DS-06)."""

    ship: int

    def notation(self) -> str:
        return f"sacrifice {self.ship}"


END = EndTurn()
