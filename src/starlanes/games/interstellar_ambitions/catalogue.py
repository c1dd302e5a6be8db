"""Interstellar Ambitions content as players read it: every tech, planet, ship (standard,
mercenary and emergency), Shadow card, ambition and colony event of the content a game was
loaded with, with text and statistics.

``entries(game) -> list[EntryText]`` is the catalogue contract of
:mod:`starlanes.engine.explain`; ``starlanes cards interstellar-ambitions`` lists it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.content import entry_text
from starlanes.engine.explain import EntryText

from .texts import (
    ambition_body,
    event_body,
    planet_body,
    shadow_body,
    ship_body,
    tech_body,
)

if TYPE_CHECKING:  # pragma: no cover
    from .game import InterstellarAmbitions


def _hooks(effects: tuple) -> str:
    return ", ".join(" ".join(str(x) for x in (h.kind, h.n or "", h.arg) if x != "")
                     for h in effects)


def entries(game: InterstellarAmbitions) -> list[EntryText]:
    """Every content entry of ``game.content``: techs (IA-TECH), planets (IA-PLN), ships and
    mercs (IA-SHIP), Shadow cards (IA-SHD), ambitions (IA-AMB) and colony events (IA-COL).
    Ships of the merc deck are of kind ``merc``, the others ``ship``. Each text is the one
    the action descriptions use (:mod:`.texts`)."""
    c = game.content
    out: list[EntryText] = []
    for t in c.techs.values():
        extra = {"effects": _hooks(t.effects)} if t.effects else {}
        out.append(entry_text("tech", t, ("cost", "vp", "start"), extra=extra,
                              text=tech_body(c, c.tech_index[t.id])))
    for p in c.planets.values():
        extra = {"cost": ", ".join(f"{k} {v}" for k, v in zip(
            ("food", "ore", "science", "coin"), p.cost.as_tuple(), strict=True) if v)}
        if p.effects:
            extra["effects"] = _hooks(p.effects)
        out.append(entry_text("planet", p, ("type", "vp", "max_level"), extra=extra,
                              text=planet_body(c, c.planet_index[p.id])))
    for s in c.ships.values():
        extra = {"effects": _hooks(s.effects)} if s.effects else {}
        fields = ("deck", "cls", "cost", "upkeep", "combat", "bombard", "vp", "count")
        out.append(entry_text("merc" if s.deck == "merc" else "ship", s, fields, extra=extra,
                              text=ship_body(c, c.ship_index[s.id])))
    for card in c.shadow.values():
        out.append(entry_text("shadow", card, ("kind", "effect", "n", "arg", "count"),
                              text=shadow_body(c, c.shadow_index[card.id])))
    for a in c.ambitions.values():
        out.append(entry_text("ambition", a, ("kind", "condition", "n", "core"),
                              text=ambition_body(c, c.ambition_index[a.id])))
    for e in c.events.values():
        out.append(entry_text("event", e, ("keep", "effect", "n", "arg", "count"),
                              text=event_body(c, c.event_index[e.id])))
    return out
