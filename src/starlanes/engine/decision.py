"""Pending decisions: choices that arise inside a rule.

A rule that needs a player's choice (which unit takes a hit, whether to retreat, whether to
answer a card with a counter) pushes a :class:`Decision` on the state's stack. While it is
on top, ``current_player()`` is its ``seat`` and ``legal_actions()`` are its options; the
answer pops it and the rule goes on. Decisions are immutable, so clones share them.

:class:`SecretChoices` collects simultaneous secret choices one seat at a time; an
observation shows only whether each seat has chosen until all have, then reveals them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .action import shared


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending choice for ``seat``. ``kind`` names it in logs and observations;
    ``data`` carries what the game needs to list the options and resolve the answer."""

    seat: int
    kind: str
    data: tuple = ()

    def describe(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind}


def decision(seat: int, kind: str, data: tuple = ()) -> Decision:
    """``Decision(seat, kind, data)``, one shared object per distinct value
    (:func:`~starlanes.engine.action.shared`): decisions are immutable. ``data`` that cannot
    be hashed (it holds a list or a :class:`SecretChoices`) gets a new object each time."""
    return shared(Decision, seat, kind, data)


@dataclass(slots=True)
class SecretChoices:
    """Simultaneous secret choices: seats commit in turn, revealed when all have committed.

    ``seats`` are the seats that must choose, in collection order. ``commit(seat, choice)``
    raises ValueError if the seat is not due or has already chosen.
    """

    seats: tuple[int, ...]
    choices: dict[int, Any] = field(default_factory=dict)

    def due(self) -> int | None:
        """The next seat to commit, or None when everyone has."""
        for s in self.seats:
            if s not in self.choices:
                return s
        return None

    def commit(self, seat: int, choice: Any) -> None:
        if self.due() != seat:
            raise ValueError(f"seat {seat} is not due to choose")
        self.choices[seat] = choice

    @property
    def revealed(self) -> bool:
        return self.due() is None

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own choice, and others' only once all are revealed."""
        out: dict[str, Any] = {}
        for s in self.seats:
            if s not in self.choices:
                out[str(s)] = None
            elif self.revealed or s == seat:
                out[str(s)] = self.choices[s]
            else:
                out[str(s)] = "hidden"
        return out

    def copy(self) -> SecretChoices:
        return SecretChoices(self.seats, dict(self.choices))
