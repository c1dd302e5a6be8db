"""Rift Domination content as players read it: every faction, unit, upgrade, condition
tile, OCC-card, system, planet, wormhole and rule constant of the content a game was loaded
with (its packaged files merged with any overrides), with text and statistics.

``entries(game) -> list[EntryText]`` is the catalogue contract of
:mod:`starlanes.engine.explain`; ``starlanes cards rift-domination`` and the tables list it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.content import entry_text, stat_value
from starlanes.engine.explain import EntryText

from .explain import content_text

if TYPE_CHECKING:  # pragma: no cover
    from .game import RiftDomination

UNIT_FIELDS = ("cost", "lp", "shields", "mp", "close", "mid", "long", "capacity",
               "used_capacity", "ground", "skills")
UPGRADE_FIELDS = ("cost", "lp", "shields", "close", "mid", "long", "skills", "transfers",
                  "combatant")


def _params(tagged: dict) -> str:
    """``{"kind": "extra_draw", "cards": 1}`` as ``extra_draw cards 1``."""
    kind = tagged.pop("kind")
    return f"{kind} {stat_value(tagged)}".strip()


def entries(game: RiftDomination) -> list[EntryText]:
    """Every content entry of ``game.content``, in file order: factions, units, upgrades
    (and the planet outpost), condition tiles, OCC-cards, systems, planets, wormholes and
    rule constants (RD-CMP, RD-FAC, RD-UNIT, RD-UPG, RD-PLC, RD-OCC)."""
    c = game.content
    out: list[EntryText] = []
    for f in c.factions.values():
        out.append(entry_text("faction", f, (
            "start_resources", "start_units", "start_upgrades", "roster", "unlock_limit"),
            extra={"abilities": "; ".join(_params(a.model_dump()) for a in f.abilities)}))
    for u in c.units.values():
        out.append(entry_text("unit", u, UNIT_FIELDS))
    for up in c.upgrades.values():
        out.append(entry_text("upgrade", up, UPGRADE_FIELDS, text=content_text(c, up.text)))
    out.append(entry_text("upgrade", c.outpost, ("lp", "shields", "close", "mid", "long"),
                          ident="outpost", name="Outpost"))
    for t in c.tiles.values():
        out.append(entry_text("tile", t, ("kind", "value", "count"),
                              name=f"{t.kind.title()} {t.value or ''}".strip()))
    for card in c.cards.values():
        out.append(entry_text("card", card, ("count", "timing", "targets_opponent"),
                              extra={"effect": _params(card.effect.model_dump())}))
    wormhole_at = {end: w.id for w in c.wormholes.values() for end in (w.a, w.b)}
    for s in c.systems.values():
        planets = [c.planets[p] for p in c.planets_of(s.id)]
        where = "the small area" if s.small_area else "the outer ring"
        text = f"A system in {where} of the board with the planet(s) " + ", ".join(
            f"{p.id} {p.name}" for p in planets) + "."
        if s.central:
            text += " The central system: its planets are huge."
        if s.start:
            text += f" A {s.start} starting system."
        extra = {"planets": ", ".join(p.id for p in planets),
                 "neighbours": ", ".join(c.neighbours(s.id))}
        if s.id in wormhole_at:
            extra["wormhole"] = wormhole_at[s.id]
        out.append(entry_text("system", s, ("small_area", "start", "central"), text=text,
                              name=f"System {s.id}", extra=extra))
    rules = c.rules
    for p in c.planets.values():
        slots = rules.huge_upgrade_slots if p.huge else rules.upgrade_slots
        text = f"A planet of system {p.system} with {slots} upgrade slots."
        if p.huge:
            text += (f" A huge planet: controlling it is worth {rules.huge_planet_vp} VP.")
        out.append(entry_text("planet", p, ("system", "huge"), text=text,
                              extra={"upgrade_slots": slots}))
    for w in c.wormholes.values():
        out.append(entry_text("wormhole", w, ("a", "b"), name=f"Wormhole {w.id}", text=(
            f"Links systems {w.a} and {w.b}; only a faction with wormhole mastery uses it.")))
    for r in c.rule_entries.values():
        out.append(entry_text("rule", r, ("value",), name=r.id.replace("_", " ")))
    return out
