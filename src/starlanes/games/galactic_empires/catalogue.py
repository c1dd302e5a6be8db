"""Galactic Empires content as players read it: every card of the pool (terrain, ships,
bases, crew, equipment, occurrences, hazards, monsters, dragons, Sector HQ cards), the
empires and the ready-made decks of the content a game was loaded with, with text and
statistics.

``entries(game) -> list[EntryText]`` is the catalogue contract of
:mod:`starlanes.engine.explain`; ``starlanes cards galactic-empires`` lists it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.content import entry_text
from starlanes.engine.explain import EntryText

if TYPE_CHECKING:  # pragma: no cover
    from .game import GalacticEmpires

#: The entry kind of each card type letter (see the content module docstring).
TYPE_KINDS = {
    "T": "terrain", "S": "ship", "B": "base", "C": "crew", "E": "equipment",
    "O": "occurrence", "H": "hazard", "M": "monster", "D": "dragon", "Q": "hq-card",
}
CARD_FIELDS = ("type", "empire", "strength", "requires", "generates", "shields", "nodes",
               "weapons", "vmax", "krebiz", "attack", "duration", "tech", "healing",
               "exclusive", "located", "reaction")


def entries(game: GalacticEmpires) -> list[EntryText]:
    """Every content entry of ``game.content``: the cards (kind by type letter, GE-DECK,
    GE-PTS, GE-FIRE), the empires (GE-EMP) and the ready-made decks (GE-DECK)."""
    c = game.content
    out: list[EntryText] = []
    for card in c.cards.values():
        extra = {"effects": ", ".join(
            " ".join(str(x) for x in (e.kind, e.n or "", e.symbol, e.point) if x != "")
            for e in card.effects)} if card.effects else {}
        out.append(entry_text(TYPE_KINDS[card.type], card, CARD_FIELDS, extra=extra,
                              keep_zero=False))
    for emp in c.empires.values():
        count = sum(1 for card in c.cards.values() if card.empire == emp.id)
        out.append(entry_text("empire", emp, ("major", "rules"), extra={"cards": count}))
    for d in c.decks.values():
        total = sum(d.cards.values())
        text = f"A ready-made {d.structure} deck of {total} cards"
        if d.major in c.empires and c.empires[d.major].major:
            text += f" led by the {c.empires[d.major].name}"
        text += "."
        out.append(entry_text("deck", d, ("structure", "major", "cards"), text=text,
                              extra={"size": total}))
    return out
