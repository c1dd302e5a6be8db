"""Galactic Empires' mechanisms for the lab's usage report (``starlanes balance --usage``).

Categories: ``card played`` (by card id: ``play NAME#COPY ...``, and reaction or counter
cards played in a window), ``card type played``
(terrain, ship, base, crew, equipment, occurrence, hazard, monster, dragon, Sector HQ card),
``card discarded`` and ``special used``: operating a card's function, studying, repairs and
heals, scuttling, reacting in a window, volleys, distortion, relocating, reserve swaps,
separating and combining, celebrating, withdrawing. The score is what is left of each
Sector HQ (25 points), so the sources are the Sector HQ damage each seat *took*, by cause:
``fire`` (allocated battle damage), ``card`` (a card played against the HQ), ``attrition``
(the designed empty-deck rule) and ``other``.
"""

from __future__ import annotations

import re
from typing import Any

from starlanes.engine import GameState

#: What :func:`score_sources` counts.
SCORE_LABEL = "Sector HQ damage taken"

#: The sources are damage taken, not the score: they do not sum to ``state.scores()``.
SOURCES_SUM_TO_SCORE = False

TYPE_NAMES = {"T": "terrain", "S": "ship", "B": "base", "C": "crew", "E": "equipment",
              "O": "occurrence", "H": "hazard", "M": "monster", "D": "dragon",
              "Q": "sector hq card"}

SPECIALS = ("operate", "study", "repair", "heal", "scuttle", "react", "counter", "volley",
            "distort", "relocate", "swap", "separate", "combine", "celebrate", "withdraw",
            "charge")

_HQ_LINE = re.compile(r"^Sector HQ of P(?P<seat>\d+) takes (?P<n>\d+) ")


def action_uses(state: GameState, seat: int, action: object) -> list[tuple[str, str]]:
    """The ``(category, entry)`` pairs ``action`` uses: a card play gives both
    ``("card played", "red_dwarf")`` and ``("card type played", "terrain")``; a reaction or
    counter card played in a window also gives ``("special used", "react"/"counter")``."""
    kind = getattr(action, "kind", "")
    if kind in ("play", "react", "counter", "discard"):
        s: Any = state
        card = s.card(action.a)  # type: ignore[attr-defined]
        if kind == "discard":
            return [("card discarded", card.id)]
        uses = [("card played", card.id), ("card type played", TYPE_NAMES[card.type])]
        return uses + ([("special used", kind)] if kind != "play" else [])
    if kind in SPECIALS:
        return [("special used", kind)]
    return []


def catalogue(state: GameState) -> dict[str, list[str]]:
    """The cards dealt into this game's decks, the card types and the specials, so that
    unused ones are reported with zero uses."""
    s: Any = state
    ids = sorted(set(s.defs.values()) if isinstance(s.defs, dict) else set(s.defs))
    return {"card played": ids, "card type played": list(TYPE_NAMES.values()),
            "special used": list(SPECIALS)}


def score_sources(state: GameState) -> list[dict[str, float]]:
    """Per seat, Sector HQ damage taken by cause, read from the log: each ``Sector HQ of
    Pn takes N`` line is put down to the line before it, reactions and counters in between
    skipped (``... allocates`` -> fire, ``... plays`` -> card, ``... deck is exhausted`` ->
    attrition, else other)."""
    s: Any = state
    out: list[dict[str, float]] = [{} for _ in range(s.n)]
    lines = s.log_lines
    for i, line in enumerate(lines):
        m = _HQ_LINE.match(line)
        if m is None:
            continue
        j = i - 1
        while j > 0 and (" reacts with " in lines[j] or " counters with " in lines[j]):
            j -= 1  # a reaction or counter in the damage's window: the cause is before it
        before = lines[j] if j >= 0 else ""
        if "deck is exhausted" in before:
            cause = "attrition"
        elif " allocates " in before:
            cause = "fire"
        elif " plays " in before:
            cause = "card"
        else:
            cause = "other"
        seat = int(m["seat"])
        out[seat][cause] = out[seat].get(cause, 0) + int(m["n"])
    return out
