"""Galactic Domination content as players read it: the five ship types, the mining yields,
the deep space spinner, the special costs and the five zones of the content a game was
loaded with, with text and statistics.

``entries(game) -> list[EntryText]`` is the catalogue contract of
:mod:`starlanes.engine.explain`; ``starlanes cards galactic-domination`` lists it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.content import entry_text
from starlanes.engine.explain import EntryText

from .explain import RANGE_WORDS

if TYPE_CHECKING:  # pragma: no cover
    from .game import GalacticDomination

def entries(game: GalacticDomination) -> list[EntryText]:
    """Every content entry of ``game.content``: units (GD-UNIT, GD-RNG, GD-SPC), mining
    yields (GD-SPC-03), spinner segments (GD-DS-08), the special costs (GD-SPC, GD-BH) and
    the zones (GD-MAP)."""
    c = game.content
    out: list[EntryText] = []
    for u in c.units:
        out.append(entry_text("unit", u, (
            "letter", "cost", "ap", "damage", "shields", "hull", "special"),
            extra={"range": RANGE_WORDS.get(u.range, u.range)}))
    for y in c.yield_rows:
        out.append(entry_text("yield", y, ("miners", "per_miner"),
                              name=f"Mining yield, {y.miners} miner(s)"))
    total = sum(s.weight for s in c.spinner)
    for s in c.spinner:
        out.append(entry_text("spinner", s, ("minerals", "dark_matter"),
                              name=s.id.replace("_", " ").title(),
                              extra={"chance": f"{s.weight}/{total}"}))
    sp = c.specials
    out.append(entry_text("special", sp, (
        "black_hole_minerals", "black_hole_dark_matter", "jump_minerals", "jump_range",
        "black_hole_markers"), ident="specials", name="Special costs", text=(
        f"Charging a black hole shot costs {sp.black_hole_dark_matter} dark matter and "
        f"{sp.black_hole_minerals} minerals; charging a fleet jump costs {sp.jump_minerals} "
        f"minerals and reaches up to {sp.jump_range} sectors; the game has "
        f"{sp.black_hole_markers} black hole markers.")))
    b = c.board
    for z, zid in enumerate(b.zone_ids):
        sectors = [b.names[s] for s in b.zone_sectors[z]]
        start = [("first", "second")[i] for i, sz in enumerate(b.start_zone) if sz == z]
        text = (f"The {b.zone_colors[z]} zone, number {z + 1} of five in a row: sectors "
                f"{', '.join(sectors)}.")
        if start:
            text += f" The {start[0]} player's starting zone."
        out.append(EntryText(kind="zone", id=zid, name=f"{b.zone_colors[z].title()} zone",
                             text=text, stats={"number": z + 1, "sectors": ", ".join(sectors)},
                             source="designed"))
    return out
