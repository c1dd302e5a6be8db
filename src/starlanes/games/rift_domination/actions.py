"""Rift Domination actions and their notation.

Points and planets are written by their board names ("C3" system point, "C3a" planet orbit,
"C3|C4" border, "W1a" wormhole end); units and upgrades by their content ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlanes.engine import Action


@dataclass(frozen=True, slots=True)
class ChooseHome(Action):
    """Set-up: take a planet of a free starting system as home planet (RD-SET-01)."""

    planet: str

    def notation(self) -> str:
        return f"home {self.planet}"


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Set-up: place the drawn condition tile on a planet (RD-SET-03..06)."""

    planet: str

    def notation(self) -> str:
        return f"tile {self.planet}"


@dataclass(frozen=True, slots=True)
class KeepFaction(Action):
    """Set-up: keep the faction drawn at random (RD-SET-09)."""

    def notation(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class RepickFaction(Action):
    """Set-up: draw another faction, once (RD-SET-10)."""

    def notation(self) -> str:
        return "repick"


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Step 4: build an upgrade on an own planet with a free slot (RD-UPG-03/04)."""

    upgrade: str
    planet: str

    def notation(self) -> str:
        return f"build {self.upgrade} {self.planet}"


@dataclass(frozen=True, slots=True)
class Demolish(Action):
    """Destroy one of your own upgrades, no refund (RD-UPG-05)."""

    upgrade: str
    planet: str

    def notation(self) -> str:
        return f"demolish {self.upgrade} {self.planet}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """End the current step: build -> move -> recruit (RD-TURN-01)."""

    def notation(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Step 7: end the turn after recruiting (RD-TURN-10)."""

    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Step 5: move the stack at ``src`` one edge to ``dst`` (1 movement point).

    With ``unit`` empty every ship with movement points left moves with as much cargo as it
    carries; with ``unit`` set, one ship of that type moves with a full load.
    """

    src: str
    dst: str
    unit: str = ""

    def notation(self) -> str:
        return f"move {self.src} {self.dst}" + (f" {self.unit}" if self.unit else "")


@dataclass(frozen=True, slots=True)
class Land(Action):
    """Land the ground units in a planet's orbit on it (RD-MOV-13, RD-PLC-*)."""

    planet: str

    def notation(self) -> str:
        return f"land {self.planet}"


@dataclass(frozen=True, slots=True)
class Lift(Action):
    """Take your landed ground units off a planet into its orbit, ready to be carried."""

    planet: str

    def notation(self) -> str:
        return f"lift {self.planet}"


@dataclass(frozen=True, slots=True)
class Negotiate(Action):
    """A diplomat takes a civilized planet (RD-SKL-07/08, RD-PLC-05)."""

    planet: str

    def notation(self) -> str:
        return f"negotiate {self.planet}"


@dataclass(frozen=True, slots=True)
class Consume(Action):
    """The Void consumes an uncontrolled planet (RD-FAC-12)."""

    planet: str

    def notation(self) -> str:
        return f"consume {self.planet}"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Step 7: recruit one unit at a planet with a military base (RD-REC-01..04)."""

    unit: str
    planet: str

    def notation(self) -> str:
        return f"recruit {self.unit} {self.planet}"


@dataclass(frozen=True, slots=True)
class PlaceFighters(Action):
    """Step 2: put the free fighters in a fleet or at a military base (RD-TURN-05)."""

    point: str

    def notation(self) -> str:
        return f"fighters {self.point}"


@dataclass(frozen=True, slots=True)
class Unlock(Action):
    """Choose a unit card to unlock after gaining a system (RD-SYS-03)."""

    unit: str

    def notation(self) -> str:
        return f"unlock {self.unit}"


@dataclass(frozen=True, slots=True)
class FreeUpgrade(Action):
    """Choose the free upgrade a planet condition or negotiation grants ("none" skips)."""

    upgrade: str

    def notation(self) -> str:
        return f"free {self.upgrade}"


@dataclass(frozen=True, slots=True)
class JoinAttack(Action):
    """Bring another stack into an attack on the same target (RD-MOV-11)."""

    src: str

    def notation(self) -> str:
        return f"join {self.src}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Start the battle with the stacks gathered so far."""

    def notation(self) -> str:
        return "attack"


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play an OCC-card from hand; ``target`` is a seat ("@2"), a planet, or
    "planet:upgrade" / "point" depending on the card (RD-OCC-01)."""

    card: str
    target: str = ""

    def notation(self) -> str:
        return f"play {self.card}" + (f" {self.target}" if self.target else "")


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline a reaction window."""

    def notation(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Sacrifice(Action):
    """Vespians: sacrifice a diplomat instead of resolving an OCC-card (RD-FAC-05)."""

    def notation(self) -> str:
        return "sacrifice diplomat"


@dataclass(frozen=True, slots=True)
class Resolve(Action):
    """Let an instant or hostile OCC-card resolve."""

    def notation(self) -> str:
        return "resolve"


_SHARED: dict[tuple[object, ...], Action] = {}
_SHARED_MAX = 100_000


def action(cls: type[Action], *args: str) -> Action:
    """The shared instance of ``cls(*args)``: actions are immutable values, so legal-action
    lists reuse one object per distinct action instead of building it anew each time (the
    table is emptied if it ever holds ``_SHARED_MAX`` entries, e.g. with many boards)."""
    key = (cls, *args)
    got = _SHARED.get(key)
    if got is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        got = _SHARED[key] = cls(*args)
    return got
