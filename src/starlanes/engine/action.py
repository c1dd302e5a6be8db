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
