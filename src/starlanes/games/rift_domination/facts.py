"""Rift Domination facts for the designer's lab (``starlanes balance`` / ``compare``).

``setup_facts`` reads what set-up gave each seat (faction, home planet) from any state
after set-up; ``entry_used`` names the content entry an action spends (a unit recruited or
unlocked, a planet upgrade built, a card played); ``opening_move`` labels a seat's first
purchase. The analysis layer finds these by module name and knows no game.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState

#: Action words whose second word is a content entry, and the kind of entry it is.
_ENTRY_WORDS = {"recruit": "unit", "unlock": "unit", "build": "upgrade", "play": "card"}


def setup_facts(state: GameState) -> dict[str, list[str]]:
    """``{"faction": [per seat], "home": [planet id per seat]}`` once set-up is over
    (rulebook: set-up, home planets and faction choice); empty strings before that."""
    s: Any = state
    homes = [str(s.board.planet_ids[h]) if h >= 0 else "" for h in s.home]
    return {"faction": list(s.faction), "home": homes}


def entry_used(state: GameState, seat: int, action: object) -> str | None:
    """``"unit:destroyer"``, ``"upgrade:mine"``, ``"card:investment"`` for an action that
    spends a content entry, else None."""
    words = str(action).split()
    if len(words) >= 2 and words[0] in _ENTRY_WORDS:
        return f"{_ENTRY_WORDS[words[0]]}:{words[1]}"
    return None


def opening_move(state: GameState, seat: int, action: object) -> str | None:
    """The seat's first purchase (``"recruit infantry"``, ``"build mine"``): its first
    recruit or build action counts as its opening."""
    words = str(action).split()
    if len(words) >= 2 and words[0] in ("recruit", "build"):
        return f"{words[0]} {words[1]}"
    return None
