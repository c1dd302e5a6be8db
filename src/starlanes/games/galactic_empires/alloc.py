"""Phases 1 and 2: Point Allocation and Engagement (1 - POINT ALLOCATION PHASE,
2 - ENGAGEMENT PHASE, EFFECTS OF BEING DISENGAGED, THE MAJOR EMPIRES).

The player spends his pool unit by unit: ``engage`` pays all the energy and supply a unit
needs (or none: a unit short of its needs stays Disengaged, GE-PTS-04); ``arm`` gives one
ammunition point to an Engaged unit's heavy weapons (GE-PTS-05); ``charge`` gives one
energy point to a variplaz or a Mechad EMF; ``repair``/``heal`` spend repair or healing
points. Economy points stand in for any other type (GE-PTS-02). Points not spent are lost
at the end of the turn (ruling GE-OPEN-02).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import DONE, GEAction, one_card
from .state import A, E, H, P, S, X
from .units import heavy_count, lead, needs_points, repair, repairable, vessels_of

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState


def time_warped(s: GEState, seat: int) -> bool:
    """A time warp lies against ``seat``'s fleet: its units cannot be Engaged, except D
    dragons, on which no occurrence card acts (GE-EMP-DRG-02)."""
    return any(u.against == seat and s.cards[u.card].has("time_warp") for u in s.units.values())


def can_pay(pool: list[int], energy: int, supply: int) -> bool:
    short = max(0, energy - pool[E]) + max(0, supply - pool[S])
    return short <= pool[X]


def pay(pool: list[int], idx: int, n: int) -> None:
    """Spend ``n`` points of type ``idx``, economy points making up any shortfall."""
    own = min(n, pool[idx])
    pool[idx] -= own
    pool[X] -= n - own


def cost(s: GEState, inst: int, part: int = -1) -> tuple[int, int]:
    """(energy, supply) needed to Engage ``inst`` (both Krebiz components unless
    ``part`` names one, GE-EMP-KRB-15)."""
    u = s.units[inst]
    parts = [part] if part >= 0 else [inst] + ([u.partner] if u.partner >= 0 else [])
    e = sp = 0
    for i in parts:
        r = s.card(i).requires
        e += r.energy
        sp += r.supply
    return e, sp


def _variplaz_or_emf_room(s: GEState, inst: int) -> bool:
    c = s.card(inst)
    u = s.units[inst]
    if c.nodes:
        return c.nodes * u.charge < 2 * c.strength
    return "V" in c.weapons and u.charge < c.vmax


def alloc_actions(s: GEState) -> list[GEAction]:
    seat = s.seat
    out: list[GEAction] = []
    warped = time_warped(s, seat)
    pool = s.pool
    for v in vessels_of(s, seat):
        u = s.units[v]
        if not u.engaged and u.half < 0:
            e, sp = cost(s, v)
            if can_pay(pool, e, sp):
                out.append(one_card(s, "engage", v))
            if u.partner >= 0:
                for part in (v, u.partner):
                    e, sp = cost(s, v, part)
                    if can_pay(pool, e, sp):
                        out.append(GEAction("engage", v, part,
                                            label=f"engage {s.name(v)} only {s.name(part)}"))
    ammo = pool[A] + pool[X]
    energy = pool[E] + pool[X]
    rep = pool[P] + pool[H] + pool[X]
    for i, u in s.units.items():
        if u.owner != seat or u.against >= 0:
            continue
        c = s.cards[u.card]
        if u.host >= 0:
            host = s.units[u.host]
            if not u.engaged and needs_points(c) and host.engaged and c.type in "CE":
                r = c.requires
                if can_pay(pool, r.energy, r.supply):
                    out.append(one_card(s, "engage", i))
        active = u.engaged or (u.host >= 0 and s.units[u.host].engaged and not needs_points(c))
        if active and ammo and u.ammo < heavy_count(s, i):
            out.append(one_card(s, "arm", i))
        if energy and u.engaged and (c.nodes or c.vmax) and _variplaz_or_emf_room(s, i):
            out.append(one_card(s, "charge", i))
        if c.type == "M":
            if pool[H] and u.dmg and not c.has("no_repair"):
                out.append(one_card(s, "heal", i))
            continue
        if u.partner >= 0 and lead(s, i) != i:
            continue
        if rep and c.type != "D" and repairable(s, i):
            out.append(one_card(s, "repair", i))
        if pool[H] and c.type == "D" and u.dmg > u.perm:
            out.append(one_card(s, "heal", i))
    for i, u in s.units.items():  # healing points on friendly monsters against others
        c = s.cards[u.card]
        if u.owner == seat and u.against >= 0 and c.type == "M" and pool[H] and u.dmg \
                and not c.has("no_repair"):
            out.append(one_card(s, "heal", i))
    if warped:  # only D dragons escape a time warp: no occurrence acts on them (GE-EMP-DRG-02)
        out = [a for a in out if s.card(a.a).type == "D"]
    out.append(DONE)
    return out


def apply_alloc(s: GEState, a: GEAction) -> None:
    pool = s.pool
    k = a.kind
    if k == "engage":
        e, sp = cost(s, a.a, a.b)
        pay(pool, E, e)
        pay(pool, S, sp)
        u = s.units[a.a]
        if a.b >= 0:
            s.units[a.a] = u._replace(half=a.b)
        else:
            s.units[a.a] = u._replace(engaged=True)
            if u.partner >= 0:
                s.units[u.partner] = s.units[u.partner]._replace(engaged=True)
    elif k == "arm":
        pay(pool, A, 1)
        s.units[a.a] = s.units[a.a]._replace(ammo=s.units[a.a].ammo + 1)
    elif k == "charge":
        pay(pool, E, 1)
        s.units[a.a] = s.units[a.a]._replace(charge=s.units[a.a].charge + 1)
    elif k == "repair":
        if pool[P]:
            pool[P] -= 1
        elif pool[H]:
            pool[H] -= 1
        else:
            pool[X] -= 1
        repair(s, a.a, 1)
    elif k == "heal":
        pool[H] -= 1
        u = s.units[a.a]
        if s.card(a.a).type == "M":
            s.units[a.a] = u._replace(dmg=u.dmg - 1)
        else:
            repair(s, a.a, 1)
    else:
        engagement_phase(s)


def engagement_phase(s: GEState) -> None:
    """Phase 2 (GE-PTS-06, GE-TURN-02/03, GE-REM-05): units given all their points are
    Engaged, the rest Disengaged; shields of the player's ships regenerate 1 point (bases
    too with the ``base_shield_regen`` option, ruling GE-OPEN-19); the player's expiring
    duration cards are discarded; freighters and tugs may move."""
    seat = s.seat
    for i, u in list(s.units.items()):
        if u.owner != seat or i not in s.units:
            continue
        c = s.cards[u.card]
        if u.against < 0 and u.host < 0 and u.sdmg and not c.nodes and (
            c.type == "S" or (c.type == "B" and s.options["base_shield_regen"])
        ) and lead(s, i) == i:
            s.units[i] = u._replace(sdmg=u.sdmg - 1)
        if u.left > 0:
            if u.left == 1:
                del s.units[i]
                s.to_discard(i)
                s.log(f"{s.title(i)} expires")
            else:
                s.units[i] = s.units[i]._replace(left=u.left - 1)
    s.phase = "engage" if relocate_actions(s) else "playA"


def relocate_actions(s: GEState) -> list[GEAction]:
    """GE-TURN-03: a freighter or tug may move to another of the player's terrain cards."""
    seat = s.seat
    terrain = [i for i, u in s.units.items()
               if u.owner == seat and u.host < 0 and u.against < 0 and s.cards[u.card].type == "T"]
    out = []
    for i, u in s.units.items():
        if u.owner == seat and u.host >= 0 and s.cards[u.card].located:
            for t in terrain:
                if t != u.host:
                    out.append(GEAction("relocate", i, t, label=f"relocate {s.name(i)} {s.name(t)}"))
    return out


def engage_actions(s: GEState) -> list[GEAction]:
    return relocate_actions(s) + [DONE]


def apply_engage(s: GEState, a: GEAction) -> None:
    if a.kind == "relocate":
        s.units[a.a] = s.units[a.a]._replace(host=a.b)
        s.log(f"{s.title(a.a)} moves to {s.title(a.b)}")
    else:
        s.phase = "playA"

