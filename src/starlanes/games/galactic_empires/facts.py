"""Galactic Empires facts for the designer's lab (``starlanes balance`` / ``compare``).

``setup_facts`` gives each seat its major empire and turn position; ``entry_used`` names
the card an action plays (the card's name without its copy number); ``opening_move`` is
the first card a seat plays.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState


def _card(word: str) -> str:
    return word.split("#", 1)[0]


def setup_facts(state: GameState) -> dict[str, list[str]]:
    """``{"empire": [major empire per seat], "turn_position": ["first"|"later"]}``
    (rulebook: set-up, choosing empires and the first player)."""
    s: Any = state
    return {
        "empire": [m or "none" for m in s.major],
        "turn_position": ["first" if seat == s.first else "later" for seat in range(s.n)],
    }


def entry_used(state: GameState, seat: int, action: object) -> str | None:
    """``"card:red_dwarf"`` for a card played (``play NAME#COPY``), else None."""
    words = str(action).split()
    if len(words) >= 2 and words[0] == "play":
        return f"card:{_card(words[1])}"
    return None


def opening_move(state: GameState, seat: int, action: object) -> str | None:
    """The first card the seat plays (``"play red_dwarf"``)."""
    words = str(action).split()
    if len(words) >= 2 and words[0] == "play":
        return f"play {_card(words[1])}"
    return None
