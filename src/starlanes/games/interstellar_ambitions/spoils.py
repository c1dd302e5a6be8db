"""Victory spoils of a won invasion (VICTORY SPOILS!; IA-SPOIL-*).

``spoil disrupt`` resets up to 3 (option ``disrupt_limit``, ruling IA-OPEN-03) of the
DEFENDER's tokens to BASIC; ``spoil tech <id>`` acquires a TECH the DEFENDER knows and the
ATTACKER does not (ruling IA-OPEN-25); ``spoil bombard <planet>`` lowers the planet one
level per 3 whole BOMBARD points (never below 1, ruling IA-OPEN-24) and, at level 1, lets
the ATTACKER capture it for its colonise cost, with no colony event, under the 8-planet
rule (the capture is offered whenever 3:1 exchanges can make up the cost, and the ATTACKER
may exchange before capturing, IA-RES-02); a DEFENDER left with no planet takes a face-up planet at level 4 if possible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from .actions import DONE, PASS, Act, act, parse_token, token_name
from .common import (
    MAX_PLANETS,
    add_stat,
    bonus,
    can_pay,
    can_pay_exchanging,
    pay,
    planet_index,
    refill_planets,
    remove_planet,
    set_level,
    set_token,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState


def _sides(s: IAState) -> tuple[int, int]:
    assert s.combat is not None
    return s.combat.seats


def spoil_legal(s: IAState, d: Decision) -> list[Action]:
    att, dfn = _sides(s)
    c = s.content
    out: list[Action] = []
    if any(t >= 0 and t & 3 for t in s.tokens[dfn]):
        out.append(act("spoil", "disrupt"))
    out.extend(act("spoil", "tech", c.tech_ids[t]) for t in sorted(set(s.known[dfn]))
               if t not in s.known[att])
    out.extend(act("spoil", "bombard", c.planet_ids[p]) for p, _l, _m in s.planets[dfn])
    out.append(PASS)
    return out


def spoil_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "pass":
        return
    att, dfn = _sides(s)
    c = s.content
    if a.a == "disrupt":
        s.push(decision(att, "disrupt", (s.options["disrupt_limit"],)))
    elif a.a == "tech":
        t = c.tech_index[a.b]
        s.known[att] = s.known[att] + (t,)  # a marker, not the owner (IA-SPOIL-03)
        add_stat(s, att, 2)
        s.log(f"P{att} acquires the tech {c.techs[a.b].name}")
    else:
        bombard(s, att, dfn, a.b)


def bombard_points(s: IAState, att: int, dfn: int, pid: str) -> int:
    """BOMBARD of the attacker's remaining fighting ships, each less its damage
    (IA-SPOIL-04), plus TECH, less the planet's and the defender's shields."""
    assert s.combat is not None
    c = s.content
    pts = sum(max(0, c.ship_bombard[e[0]] - e[1]) for e in s.combat.entries[0] if e[3] == 0)
    pts += bonus(s, att, "bombard_bonus")
    p = c.planet_index[pid]
    shield = sum(n for t in s.known[dfn] for k, n, _a in c.tech_fx[t] if k == "bombard_shield")
    for q, _l, markers in s.planets[dfn]:
        if q == p:
            shield += sum(n for k, n, _a in c.planet_fx[q] if k == "bombard_shield")
            shield += sum(c.event_effect[e][1] for e in markers
                          if c.event_effect[e][0] == "bombard_shield")
    return max(0, pts - shield)


def bombard(s: IAState, att: int, dfn: int, pid: str) -> None:
    pts = bombard_points(s, att, dfn, pid)
    i = planet_index(s, dfn, pid)
    p, lvl, _m = s.planets[dfn][i]
    new = max(1, lvl - pts // 3)  # IA-SPOIL-05
    set_level(s, dfn, i, new)
    s.log(f"P{att} bombards {s.content.planets[pid].name} with {pts} points: level {lvl} -> "
          f"{new}")
    if new == 1 and can_pay_exchanging(s.res[att], s.content.planet_cost[p]):  # IA-SPOIL-06
        s.push(decision(att, "capture", (p,)))


def capture_legal(s: IAState, d: Decision) -> list[Action]:
    """Capture when the colonise cost can be paid now; until then the ATTACKER may make
    3:1 exchanges (offered with every decision of its turn, IA-RES-02) or pass."""
    p = d.data[0]
    if can_pay(s.res[d.seat], s.content.planet_cost[p]):
        return [act("capture", s.content.planet_ids[p]), PASS]
    return [PASS]


def capture_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "capture":
        return
    att, dfn = _sides(s)
    p = d.data[0]
    pay(s, att, s.content.planet_cost[p])
    data = ("capture", p, 1, dfn)
    if len(s.planets[att]) >= MAX_PLANETS:  # IA-SPOIL-07
        s.push(decision(att, "give_away", data))
    else:
        capture_finish(s, att, data)


def capture_finish(s: IAState, att: int, data: tuple) -> None:
    """Move the planet with its level and markers; no colony event (IA-COL-06)."""
    _kind, p, _start, dfn = data
    i = planet_index(s, dfn, s.content.planet_ids[p])
    rec = remove_planet(s, dfn, i)
    s.planets[att] = s.planets[att] + (rec,)
    add_stat(s, att, 1)
    s.log(f"P{att} captures {s.content.planets[s.content.planet_ids[p]].name} from P{dfn}")
    if not s.planets[dfn]:  # last-planet rescue (IA-SPOIL-08)
        s.push(decision(dfn, "rescue"))


def rescue_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.planet_ids
    out: list[Action] = [act("rescue", ids[p]) for slots in s.planet_slots for p in slots if p >= 0]
    return out or [PASS]


def rescue_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "rescue":
        return
    c = s.content
    p = c.planet_index[a.a]
    t = c.planet_type[p]
    slots = s.planet_slots[t]
    slots[slots.index(p)] = -1
    s.colonised[p] = True
    s.planets[d.seat] = ((p, min(4, c.planet_max[p]), ()),)  # ruling IA-OPEN-12
    refill_planets(s, t)


def disrupt_legal(s: IAState, d: Decision) -> list[Action]:
    _att, dfn = _sides(s)
    codes = sorted({t for t in s.tokens[dfn] if t >= 0 and t & 3})
    return [*(act("disrupt", token_name(t)) for t in codes), DONE]


def disrupt_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    _att, dfn = _sides(s)
    code = parse_token(a.a)
    set_token(s, dfn, s.tokens[dfn].index(code), code & ~3)  # back to BASIC
    if d.data[0] > 1 and any(t >= 0 and t & 3 for t in s.tokens[dfn]):
        s.push(decision(d.seat, "disrupt", (d.data[0] - 1,)))


DECISIONS = {
    "spoil": (spoil_legal, spoil_apply),
    "capture": (capture_legal, capture_apply),
    "rescue": (rescue_legal, rescue_apply),
    "disrupt": (disrupt_legal, disrupt_apply),
}
