"""What a table needs to draw an Interstellar Ambitions game: names and printed values.

:func:`layout` returns static, public data (the same for every seat) from the loaded
content: planets, techs, ships (standard, mercenary, emergency), shadow cards, ambitions and
colony events, each with its name, costs, victory points and text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState


def layout(state: IAState) -> dict[str, Any]:
    """JSON-ready drawing data: ``planets`` (id -> name, type, cost, vp, max_level, text),
    ``techs`` (id -> name, cost, vp, text), ``ships`` (id -> name, deck, class, cost,
    combat, bombard, vp, text), ``shadow``, ``ambitions`` (id -> name, kind, condition, n,
    text) and ``events`` (id -> name, text)."""
    c = state.content
    return {
        "game": "interstellar-ambitions",
        "planets": {p.id: {"name": p.name, "type": str(p.type), "vp": p.vp,
                           "max_level": p.max_level,
                           "cost": {k: v for k, v in p.cost.model_dump().items()
                                    if isinstance(v, int) and v},
                           "text": p.text} for p in c.planets.values()},
        "techs": {t.id: {"name": t.name, "cost": t.cost, "vp": t.vp, "text": t.text}
                  for t in c.techs.values()},
        "ships": {s.id: {"name": s.name, "deck": s.deck, "class": s.cls, "cost": s.cost,
                         "combat": s.combat, "bombard": s.bombard, "vp": s.vp,
                         "text": s.text} for s in c.ships.values()},
        "shadow": {s.id: {"name": s.name, "kind": str(s.kind), "text": s.text}
                   for s in c.shadow.values()},
        "ambitions": {a.id: {"name": a.name, "kind": a.kind, "condition": a.condition,
                             "n": a.n, "text": a.text}
                      for a in c.ambitions.values()},
        "events": {e.id: {"name": e.name, "text": e.text} for e in c.events.values()},
    }
