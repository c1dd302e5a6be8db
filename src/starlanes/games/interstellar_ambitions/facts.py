"""Interstellar Ambitions facts for the designer's lab (``starlanes balance`` / ``compare``).

``setup_facts`` gives each seat its place in turn order counted from the start player;
``entry_used`` names the content entry an action takes (a technology researched, a ship
built, a mercenary hired, a planet colonised, a card played); ``opening_move`` is the
starting technology each seat picks at set-up.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState

_ENTRY_WORDS = {"research": "tech", "start-tech": "tech", "build": "ship", "hire": "merc",
                "colonise": "planet", "play": "card"}


def setup_facts(state: GameState) -> dict[str, list[str]]:
    """``{"turn_position": ["1st", "2nd", ... per seat]}``: the seat's place in turn order
    from the start player (rulebook: set-up, first player)."""
    s: Any = state
    names = ("1st", "2nd", "3rd", "4th", "5th", "6th")
    return {"turn_position": [names[(seat - s.start) % s.n] for seat in range(s.n)]}


def entry_used(state: GameState, seat: int, action: object) -> str | None:
    """``"tech:hydroponics"``, ``"ship:battleship"``, ``"merc:..."``, ``"planet:..."``,
    ``"card:..."`` for an action that takes a content entry, else None."""
    words = str(action).split()
    if len(words) >= 2 and words[0] in _ENTRY_WORDS:
        return f"{_ENTRY_WORDS[words[0]]}:{words[1]}"
    return None


def opening_move(state: GameState, seat: int, action: object) -> str | None:
    """The starting technology picked at set-up (``"start-tech hydroponics"``)."""
    words = str(action).split()
    if len(words) >= 2 and words[0] == "start-tech":
        return f"start-tech {words[1]}"
    return None
