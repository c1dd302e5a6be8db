"""PRODUCE, COLONISE and DEVELOP (ACTIONS; IA-PROD-*, IA-COLN-*, IA-COL-*, IA-DEV-*).

PRODUCE: every planet yields its type times its level (ruling IA-OPEN-05: all planets),
Home Worlds any mix chosen one resource at a time, then TECH / planet / marker bonuses,
then each MERC's upkeep is paid or the MERC discarded. COLONISE: VP caps by level, pay,
the 8-planet give-away, the colony event (first colonisation only), the start level and
the slot refill. DEVELOP: 2 resources of the planet's type per level (Home World: any 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from .actions import DONE, PASS, RES, Act, act
from .common import (
    HOME,
    MAX_PLANETS,
    MAX_SHIPS,
    add_medal,
    add_ship,
    bonus,
    can_pay,
    discard_planet,
    gain,
    pay,
    planet_index,
    refill_planets,
    remove_planet,
    remove_ship,
    set_level,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

COLONISE_VP_CAP = (3, 5, 99, 99)
"""Max VP of a planet colonisable at BASIC, MODERATE, STRONG, ULTIMATE (IA-COLN-10..13)."""
COLONISE_START = (2, 2, 2, 4)
DEVELOP_CAP = (3, 4, 5, 5)
DEVELOP_COUNT = (1, 1, 1, 3)
_HOME_PICK = tuple(act("home", r) for r in RES)
_PAY = tuple(act("pay", r) for r in RES)


# ---------------------------------------------------------------------- PRODUCE
def produce(s: IAState, seat: int) -> None:
    """PRODUCE (IA-PROD-01..07)."""
    c = s.content
    home = 0
    r = list(s.res[seat])
    for p, lvl, markers in s.planets[seat]:
        t = c.planet_type[p]
        if t == HOME:
            home += lvl
            continue
        extra = sum(c.event_effect[e][1] for e in markers if c.event_effect[e][0] == "produce_marker")
        r[t] += lvl + extra
    for i in range(4):
        r[i] += bonus(s, seat, "produce_extra", RES[i])
    s.res[seat] = (r[0], r[1], r[2], r[3])
    mercs = tuple(i for i, (card, _d) in enumerate(s.ships[seat]) if c.ship_upkeep[card] > 0)
    if mercs:
        s.push(decision(seat, "upkeep", mercs[::-1]))
    if home:
        s.push(decision(seat, "home_pick", (home,)))
    s.log(f"P{seat} produces")


def home_legal(s: IAState, d: Decision) -> list[Action]:
    return list(_HOME_PICK)


def home_apply(s: IAState, d: Decision, a: Act) -> None:
    gain(s, d.seat, RES.index(a.a), 1)
    if d.data[0] > 1:
        s.push(decision(d.seat, "home_pick", (d.data[0] - 1,)))


def upkeep_legal(s: IAState, d: Decision) -> list[Action]:
    i = d.data[0]
    card = s.ships[d.seat][i][0]
    sid = s.content.ship_ids[card]
    out: list[Action] = []
    if s.res[d.seat][3] >= s.content.ship_upkeep[card]:
        out.append(act("upkeep", sid, "pay"))
    out.append(act("upkeep", sid, "discard"))
    return out


def upkeep_apply(s: IAState, d: Decision, a: Act) -> None:
    i = d.data[0]
    card = s.ships[d.seat][i][0]
    if a.b == "pay":
        gain(s, d.seat, 3, -s.content.ship_upkeep[card])
    else:
        remove_ship(s, d.seat, i)  # IA-PROD-07
        s.log(f"P{d.seat} discards the unpaid merc {s.content.ships[a.a].name}")
    if len(d.data) > 1:
        s.push(decision(d.seat, "upkeep", d.data[1:]))


# ---------------------------------------------------------------------- COLONISE
def colonise_cost(s: IAState, seat: int, p: int) -> tuple[int, int, int, int]:
    f, o, sc, co = s.content.planet_cost[p]
    f = max(0, f - bonus(s, seat, "colonise_discount", "food"))
    o = max(0, o - bonus(s, seat, "colonise_discount", "ore"))
    return (f, o, sc, co)


def start_colonise(s: IAState, seat: int, level: int) -> None:
    s.push(decision(seat, "colonise", (level,)))
    if level == 3:  # ULTIMATE: first discard any face-up planets (IA-COLN-13)
        s.push(decision(seat, "clear_planets"))


def face_up_planets(s: IAState) -> list[int]:
    return [p for slots in s.planet_slots for p in slots if p >= 0]


def clear_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.planet_ids
    return [*(act("clear", ids[p]) for p in face_up_planets(s)), DONE]


def clear_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    p = s.content.planet_index[a.a]
    t = s.content.planet_type[p]
    slots = s.planet_slots[t]
    slots[slots.index(p)] = -1
    s.planet_discard.append(p)
    refill_planets(s, t)
    s.push(decision(d.seat, "clear_planets"))


def colonise_legal(s: IAState, d: Decision) -> list[Action]:
    level = d.data[0]
    c = s.content
    cap = COLONISE_VP_CAP[level]
    r = s.res[d.seat]
    out: list[Action] = [
        act("colonise", c.planet_ids[p]) for p in face_up_planets(s)
        if c.planet_vp[p] <= cap and can_pay(r, colonise_cost(s, d.seat, p))
    ]
    out.append(PASS)
    return out


def colonise_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "colonise":
        return
    seat, level = d.seat, d.data[0]
    p = s.content.planet_index[a.a]
    pay(s, seat, colonise_cost(s, seat, p))  # IA-COLN-02
    t = s.content.planet_type[p]
    slots = s.planet_slots[t]
    slots[slots.index(p)] = -1
    s.log(f"P{seat} colonises {s.content.planets[a.a].name}")
    if len(s.planets[seat]) >= MAX_PLANETS:  # give away first (IA-COLN-04..06)
        s.push(decision(seat, "give_away", ("colonise", p, COLONISE_START[level])))
    else:
        colonise_finish(s, seat, p, COLONISE_START[level])


def colonise_finish(s: IAState, seat: int, p: int, start: int) -> None:
    """Colony event (first colonisation only, IA-COL-01/02), then the level marker."""
    c = s.content
    t = c.planet_type[p]
    markers: tuple[int, ...] = ()
    if not s.colonised[p]:
        s.colonised[p] = True
        e = s.draw(s.colony_deck, s.colony_discard)
        if e >= 0:
            kind, n, arg = c.event_effect[e]
            s.log(f"colony event: {c.events[c.event_ids[e]].name}")
            if c.event_keep[e]:
                markers = (e,)  # IA-COL-04
            else:
                s.colony_discard.append(e)  # IA-COL-03
            if kind == "fail":  # ruling IA-OPEN-13: planet discarded, cost lost
                s.colonised[p] = False  # not colonised: its first colonisation is to come
                s.planet_discard.append(p)
                refill_planets(s, t)
                return
            if kind == "gain":
                gain(s, seat, RES.index(arg), n)
            elif kind == "lose":
                gain(s, seat, RES.index(arg), -n)
            elif kind == "level":
                start += n
            elif kind == "free_ship" and len(s.ships[seat]) < MAX_SHIPS:
                add_ship(s, seat, c.ship_index[arg])
            elif kind == "draw_shadow":
                from .common import HAND_LIMIT

                for _ in range(n):
                    if len(s.hands[seat]) < HAND_LIMIT:
                        card = s.draw(s.shadow_deck, s.shadow_discard)
                        if card >= 0:
                            s.hands[seat] = s.hands[seat] + (card,)
            elif kind == "medal":
                add_medal(s, seat, shadow=n)
    level = max(1, min(start, c.planet_max[p]))  # ruling IA-OPEN-12
    s.planets[seat] = s.planets[seat] + ((p, level, markers),)
    refill_planets(s, t)  # IA-COLN-08


def give_targets(s: IAState, seat: int) -> list[int]:
    """Other players with the fewest planets, ignoring those at 8 (IA-COLN-04/05)."""
    others = [o for o in range(s.n) if o != seat and len(s.planets[o]) < MAX_PLANETS]
    if not others:
        return []
    low = min(len(s.planets[o]) for o in others)
    return [o for o in others if len(s.planets[o]) == low]


def give_legal(s: IAState, d: Decision) -> list[Action]:
    c = s.content
    targets = give_targets(s, d.seat)
    out: list[Action] = []
    for p, _lvl, _m in s.planets[d.seat]:
        if c.planet_type[p] == HOME:
            continue  # ruling IA-OPEN-29
        if targets:
            out.extend(act("give", c.planet_ids[p], f"P{o}") for o in targets)
        else:
            out.append(act("discard-planet", c.planet_ids[p]))
    return out


def give_apply(s: IAState, d: Decision, a: Act) -> None:
    seat = d.seat
    i = planet_index(s, seat, a.a)
    rec = remove_planet(s, seat, i)
    if a.verb == "give":
        o = int(a.b[1:])
        s.planets[o] = s.planets[o] + (rec,)  # keeps its level (IA-COLN-07)
        s.log(f"P{seat} gives {s.content.planets[a.a].name} to {a.b}")
    else:
        discard_planet(s, rec)
        s.log(f"P{seat} discards the planet {s.content.planets[a.a].name}")
    kind, p, start = d.data[:3]
    if kind == "colonise":
        colonise_finish(s, seat, p, start)
    else:
        from .spoils import capture_finish

        capture_finish(s, seat, d.data)


# ---------------------------------------------------------------------- DEVELOP
def start_develop(s: IAState, seat: int, level: int) -> None:
    s.push(decision(seat, "develop", (level, DEVELOP_COUNT[level], ())))


def develop_legal(s: IAState, d: Decision) -> list[Action]:
    level, _left, done = d.data
    c = s.content
    cap = DEVELOP_CAP[level]
    r = s.res[d.seat]
    total = r[0] + r[1] + r[2] + r[3]
    out: list[Action] = []
    for p, lvl, _m in s.planets[d.seat]:
        if p in done:
            continue
        t = c.planet_type[p]
        have = total if t == HOME else r[t]
        top = min(cap, c.planet_max[p])  # IA-PLN-05, IA-DEV-05..08
        for to in range(lvl + 1, top + 1):
            if have >= 2 * (to - lvl):
                out.append(act("develop", c.planet_ids[p], str(to)))
    out.append(DONE)
    return out


def develop_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "develop":
        return
    level, left, done = d.data
    seat = d.seat
    i = planet_index(s, seat, a.a)
    p, lvl, _m = s.planets[seat][i]
    to = int(a.b)
    units = 2 * (to - lvl)  # IA-DEV-01
    set_level(s, seat, i, to)
    s.log(f"P{seat} develops {s.content.planets[a.a].name} to level {to}")
    if left > 1:
        s.push(decision(seat, "develop", (level, left - 1, done + (p,))))
    t = s.content.planet_type[p]
    if t == HOME:
        s.push(decision(seat, "dev_pay", (units,)))  # any 2 per level (IA-DEV-03)
    else:
        gain(s, seat, t, -units)


def pay_legal(s: IAState, d: Decision) -> list[Action]:
    r = s.res[d.seat]
    return [_PAY[i] for i in range(4) if r[i] > 0]


def pay_apply(s: IAState, d: Decision, a: Act) -> None:
    gain(s, d.seat, RES.index(a.a), -1)
    if d.data[0] > 1:
        s.push(decision(d.seat, "dev_pay", (d.data[0] - 1,)))


DECISIONS = {
    "home_pick": (home_legal, home_apply),
    "upkeep": (upkeep_legal, upkeep_apply),
    "clear_planets": (clear_legal, clear_apply),
    "colonise": (colonise_legal, colonise_apply),
    "give_away": (give_legal, give_apply),
    "develop": (develop_legal, develop_apply),
    "dev_pay": (pay_legal, pay_apply),
}
