"""Galactic Domination facts for the designer's lab (``starlanes balance`` / ``compare``).

``setup_facts`` gives each seat its turn position (the first player moves first each round)
and start zone; ``entry_used`` names the ship kind an action builds or places;
``opening_move`` labels a seat's first ship built after set-up.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState


def setup_facts(state: GameState) -> dict[str, list[str]]:
    """``{"turn_position": ["first"|"second" per seat], "start_zone": [...]}``
    (rulebook: set-up and who goes first)."""
    s: Any = state
    return {
        "turn_position": ["first" if seat == s.first else "second" for seat in range(2)],
        "start_zone": [str(z) for z in s.start],
    }


def entry_used(state: GameState, seat: int, action: object) -> str | None:
    """``"ship:raider"`` for a build (``build KIND SECTOR``) or set-up placement, else None."""
    words = str(action).split()
    if len(words) >= 2 and words[0] in ("build", "place"):
        return f"ship:{words[1]}"
    return None


def opening_move(state: GameState, seat: int, action: object) -> str | None:
    """The first ship kind the seat builds in play (``"build miner"``)."""
    words = str(action).split()
    if len(words) >= 2 and words[0] == "build":
        return f"build {words[1]}"
    return None
