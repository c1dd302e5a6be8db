"""What a table needs to draw the Galactic Domination board, and names for what it shows.

:func:`layout` returns static, public data (the same for every seat): the five zones with
their three sectors (rulebook "The Map"), the links between sectors, the sector capacity,
the ship types with their statistics and the spinner's segments, from the loaded content.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .fleet import CAPACITY

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState


def layout(state: GDState) -> dict[str, Any]:
    """JSON-ready drawing data: ``zones`` (id, colour, sectors in order), ``links`` (pairs
    of adjacent sectors), ``capacity`` (ships per sector, miners not counted), ``units``
    (kind -> name, letter, AP, damage, range, shields, hull, cost, special, text) and
    ``spinner`` (segment id -> minerals, dark matter, text)."""
    c = state.content
    b = c.board
    zones = [{"id": z, "colour": b.zone_colors[i],
              "sectors": [b.names[s] for s in b.zone_sectors[i]]}
             for i, z in enumerate(b.zone_ids)]
    links = sorted({tuple(sorted((b.names[a], b.names[t]))) for a in range(len(b.names))
                    for t in b.adj[a]})
    return {
        "game": "galactic-domination",
        "zones": zones,
        "links": [list(p) for p in links],
        "capacity": CAPACITY,
        "units": {u.id: {"name": u.name, "letter": u.letter, "ap": u.ap, "damage": u.damage,
                         "range": str(u.range), "shields": u.shields, "hull": u.hull,
                         "cost": u.cost, "special": u.special, "text": u.text}
                  for u in c.units},
        "spinner": {g.id: {"minerals": g.minerals, "dark_matter": g.dark_matter,
                           "text": g.text} for g in c.spinner},
    }
