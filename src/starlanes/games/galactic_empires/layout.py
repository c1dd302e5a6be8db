"""What a table needs to draw a Galactic Empires game: every card's printed face.

:func:`layout` returns static, public data (the same for every seat) from the loaded
content: for each card its name, empire, type (in words), strength, shields, weapons (in
words), points required and generated, and full text; the empires' names and texts; the
Sector HQ's damage limit (rulebook "Sector HQ").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import HQ_LIMIT
from .texts import TYPE_NAMES, WEAPON_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from .content import Content
    from .state import GEState


def _points(p: Any) -> dict[str, int]:
    return {k: v for k, v in p.model_dump().items() if v}


def layout(state: GEState) -> dict[str, Any]:
    """JSON-ready drawing data: ``cards`` (card id -> name, empire, type, type_name,
    strength, shields, weapons (symbols), requires/generates (point -> n), reaction, text),
    ``weapons`` (symbol -> name), ``empires`` (id -> name, text) and ``hq_limit``."""
    c = state.content
    return {
        "game": "galactic-empires",
        "hq_limit": HQ_LIMIT,
        "weapons": dict(WEAPON_NAMES),
        "empires": {e.id: {"name": e.name, "text": e.text} for e in c.empires.values()},
        "cards": card_faces(c),
    }


def card_faces(c: Content) -> dict[str, dict[str, Any]]:
    """Every card's printed face: card id -> name, empire, type, type_name, strength,
    shields, weapons (symbols), requires/generates (point -> n), reaction, text."""
    return {k.id: {"name": k.name, "empire": k.empire, "type": k.type,
                   "type_name": TYPE_NAMES.get(k.type, k.type),
                   "strength": k.strength, "shields": k.shields, "weapons": k.weapons,
                   "requires": _points(k.requires), "generates": _points(k.generates),
                   "reaction": k.reaction, "text": k.text}
            for k in c.cards.values()}
