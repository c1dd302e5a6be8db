"""Actions: small frozen dataclasses with a stable text notation.

Every game defines its actions as subclasses of :class:`Action`. ``str(action)`` is the
action's notation: records, logs, the terminal table and the server all speak it, and
``Game.parse_action(state, text)`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

SHARED_CAP = 4096
"""Values kept by :func:`shared` before its table starts again."""

_SHARED: dict[tuple, Any] = {}


def shared(cls: type[T], *args: Any) -> T:
    """``cls(*args)``, one shared object per distinct value, for immutable values (actions,
    decisions): listing legal actions or pushing a decision at every step would otherwise
    build the same frozen dataclass again and again (about a microsecond each). The table
    holds at most :data:`SHARED_CAP` values. Arguments that cannot be hashed (a list, a
    mutable dataclass) get a new object each time, so nothing mutable is ever shared."""
    key = (cls, *args)
    try:
        got = _SHARED.get(key)
    except TypeError:
        return cls(*args)
    if got is None:
        if len(_SHARED) >= SHARED_CAP:
            _SHARED.clear()
        got = _SHARED[key] = cls(*args)
    return got


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
