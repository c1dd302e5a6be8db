"""Victory points (Victory Points; IA-END-05..10, IA-AMB-06).

Planets score their printed VP only at their maximum level; special planets' VP bonuses
and kept "vp_marker" events score while owned; 12 VP for scoring at least one FOOD, ORE,
SCIENCE and COIN planet (Home Worlds excluded); owned TECHs (not acquired ones); ships'
VP; 1 VP per medal; ambitions 12 / 6 / 3 by claim position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import HOME

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

AMBITION_VP = (12, 6)
AMBITION_VP_LATER = 3
SET_BONUS = 12


def breakdown(s: IAState, seat: int) -> dict[str, int]:
    """VP of ``seat`` by category."""
    c = s.content
    planets = 0
    types: set[int] = set()
    for p, lvl, markers in s.planets[seat]:
        if lvl == c.planet_max[p]:
            planets += c.planet_vp[p]
            if c.planet_type[p] != HOME:
                types.add(c.planet_type[p])
        planets += sum(n for k, n, _a in c.planet_fx[p] if k == "vp_bonus")
        planets += sum(c.event_effect[e][1] for e in markers if c.event_effect[e][0] == "vp_marker")
    set_bonus = SET_BONUS if types >= {0, 1, 2, 3} else 0
    techs = sum(c.tech_vp[t] for t in s.known[seat] if s.tech_owner[t] == seat)
    ships = sum(c.ship_vp[card] for card, _d in s.ships[seat])
    medals = sum(s.medals[seat])
    amb = 0
    for cl in s.claims:
        if seat in cl:
            pos = cl.index(seat)
            amb += AMBITION_VP[pos] if pos < 2 else AMBITION_VP_LATER
    return {"planets": planets, "set_bonus": set_bonus, "techs": techs, "ships": ships,
            "medals": medals, "ambitions": amb}


def score(s: IAState, seat: int) -> int:
    return sum(breakdown(s, seat).values())


def score_all(s: IAState) -> list[int]:
    return [score(s, i) for i in range(s.n)]
