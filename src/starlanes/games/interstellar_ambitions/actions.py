"""Interstellar Ambitions actions and their notation.

Every choice is one :class:`Act`: a verb and up to two arguments, written ``verb a b``
(e.g. ``take build:strong``, ``advance colonise:basic``, ``play planetary_plague P2
mossfall``, ``order destroyer``, ``claim warlord``). Tokens on the Action Track are written
``<action>:<level>``; seats ``P<n>``; cards, planets and ships by their content ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlanes.engine import Action, shared

ACTIONS = ("colonise", "develop", "build", "research", "shadow", "fleet")
"""The six Action Tracks (IA-TRK-01); PRODUCE has none."""
LEVELS = ("basic", "moderate", "strong", "ultimate")
"""Planning levels in increasing strength (Action Track)."""
RES = ("food", "ore", "science", "coin")


@dataclass(frozen=True, slots=True)
class Act(Action):
    """One choice: ``verb`` with up to two arguments (empty strings are left out)."""

    verb: str
    a: str = ""
    b: str = ""

    def notation(self) -> str:
        if self.b:
            return f"{self.verb} {self.a} {self.b}"
        if self.a:
            return f"{self.verb} {self.a}"
        return self.verb


def act(verb: str, a: str = "", b: str = "") -> Act:
    """``Act(verb, a, b)``, one shared object per distinct action
    (``starlanes.engine.action.shared``)."""
    return shared(Act, verb, a, b)


TOKEN_NAMES = tuple(f"{ACTIONS[code >> 2]}:{LEVELS[code & 3]}" for code in range(24))
"""Notation of every track code ``action * 4 + level``, in code order."""


def token_name(code: int) -> str:
    """``colonise:basic`` for a track code ``action * 4 + level`` (0..23)."""
    return TOKEN_NAMES[code]


def parse_token(text: str) -> int:
    act, _, lvl = text.partition(":")
    return ACTIONS.index(act) * 4 + LEVELS.index(lvl)


DONE = Act("done")
PASS = Act("pass")
PRODUCE = Act("produce")
PLAN = Act("plan")
EXCHANGES_OF = tuple(
    tuple(Act("exchange", RES[g], RES[t]) for t in range(4) if t != g) for g in range(4)
)
"""3:1 exchanges (give 3 of one type for 1 of another, IA-RES-02), per resource given."""
ADVANCE = tuple(Act("advance", name) for name in TOKEN_NAMES)
"""``advance <token>`` per track code: one shared action each (actions are immutable)."""
TAKE = tuple(Act("take", name) for name in TOKEN_NAMES)
"""``take <token>`` per track code."""
