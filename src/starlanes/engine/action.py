"""Actions: small frozen dataclasses with a stable text notation.

Every game defines its actions as subclasses of :class:`Action`. ``str(action)`` is the
action's notation: records, logs, the terminal table and the server all speak it, and
``Game.parse_action(state, text)`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of all actions. Subclasses override :meth:`notation`."""

    def notation(self) -> str:  # pragma: no cover - every concrete action overrides it
        raise TypeError(f"{type(self).__name__} has no notation")

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class HiddenAction(Action):
    """Stands, in a determinised state's history, for an action the determinising seat did
    not see (another seat's secret choice). ``shown`` is the part that seat did see, e.g.
    ``"buy ?"``: that a card was bought, not which. It is never a legal action."""

    shown: str = "?"

    def notation(self) -> str:
        return self.shown
