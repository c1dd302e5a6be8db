"""What a table needs to draw the Rift Domination board, and names for what it shows.

:func:`layout` returns static, public data (the same for every seat): the systems on their
grid with their planets, the border points between systems, the wormholes in play, and the
names and statistics of units, upgrades, factions and OCC-cards from the loaded content.
Nothing here depends on the state beyond the board variant, so it reveals nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import BORDER, SYSTEM, WORMHOLE
from .explain import TIMING_WORDS

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


def layout(state: RiftState) -> dict[str, Any]:
    """JSON-ready drawing data: ``grid`` (columns x rows), ``systems`` (id, x, y, central,
    planets: id, name, huge), ``borders`` (point id, the two systems), ``wormholes`` (point
    id, system), and ``units``/``upgrades``/``factions``/``cards`` (id -> name, stats and
    text) so a table can label what the observation names by id."""
    b, c = state.board, state.content
    systems = []
    for si, sid in enumerate(b.system_ids):
        if b.system_point[si] < 0:
            continue
        s = c.systems[sid]
        systems.append({
            "id": sid, "x": s.x, "y": s.y, "central": s.central,
            "planets": [{"id": b.planet_ids[p], "name": c.planets[b.planet_ids[p]].name,
                         "huge": b.planet_huge[p]} for p in b.system_planets[si]],
        })
    borders, wormholes = [], []
    for p, name in enumerate(b.names):
        if b.kind[p] == BORDER:
            borders.append({"id": name, "systems": name.split("|")})
        elif b.kind[p] == WORMHOLE:
            wormholes.append({"id": name, "system": b.system_ids[b.system_of[p]]})
    xs = [s["x"] for s in systems]
    ys = [s["y"] for s in systems]
    return {
        "game": "rift-domination",
        "grid": {"x0": min(xs), "x1": max(xs), "y0": min(ys), "y1": max(ys)},
        "systems": systems,
        "points": {name: ("system" if b.kind[p] == SYSTEM else "border"
                          if b.kind[p] == BORDER else "wormhole"
                          if b.kind[p] == WORMHOLE else "orbit")
                   for p, name in enumerate(b.names)},
        "borders": borders,
        "wormholes": wormholes,
        "units": {u.id: {"name": u.name, "cost": u.cost, "lp": u.lp, "shields": u.shields,
                         "mp": u.mp, "close": u.close, "mid": u.mid, "long": u.long,
                         "capacity": u.capacity, "ground": u.ground,
                         "skills": [str(sk) for sk in u.skills]}
                  for u in c.units.values()},
        "upgrades": {u.id: {"name": u.name, "cost": u.cost} for u in c.upgrades.values()},
        "factions": {f.id: {"name": f.name, "text": f.text} for f in c.factions.values()},
        "cards": {k.id: {"name": k.name, "timing": k.timing,
                         "when": TIMING_WORDS.get(k.timing, k.timing), "text": k.text}
                  for k in c.cards.values()},
    }
