"""BUILD, RESEARCH, the SHADOW action and the start of FLEET (ACTIONS; IA-BLD-*,
IA-RSCH-*, IA-SHA-*, IA-RAID-01, IA-INV-11).

BUILD: repairs first, before any ship is built (IA-BLD-01), at 1 ORE per 2 damage markers
over the whole action, rounded up (ULTIMATE: free), then builds by level (BASIC LIGHT only; ULTIMATE -1 ORE, minimum 1).
RESEARCH: VP caps by level, SCIENCE cost less discounts, minimum 1; ULTIMATE may first
replace face-up techs and researches 2 at -1. SHADOW: Buy Cards (an offer of as many cards
as the buy limit, ruling IA-OPEN-15) or Hire Mercs. At 8 ships a ship is discarded first;
at 7 Shadow cards a card is discarded first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from .actions import DONE, PASS, Act, act
from .common import (
    HAND_LIMIT,
    MAX_SHIPS,
    add_ship,
    bonus,
    discard_card,
    find_ship,
    gain,
    has_hook,
    refill_mercs,
    refill_techs,
    remove_ship,
    ship_label,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

BUILDS = (1, 2, 3, 4)
RESEARCH_VP_CAP = (2, 4, 99, 99)
RESEARCH_COUNT = (1, 1, 1, 2)
BUY_LIMIT = (2, 3, 4, 5)
HIRE_LIMIT = (0, 1, 2, 3)


def repair_cost(before: int, removed: int) -> int:
    """ORE for removing ``removed`` more markers after ``before`` this action: 1 per 2,
    rounded up over the action (IA-BLD-01, ruling IA-OPEN-28)."""
    return (before + removed + 1) // 2 - (before + 1) // 2


# ---------------------------------------------------------------------- BUILD
def build_cost(s: IAState, seat: int, card: int, level: int) -> int:
    cost = s.content.ship_cost[card] - bonus(s, seat, "build_discount")
    if level == 3:
        cost -= 1
    return max(1, cost)  # IA-BLD-06


def start_build(s: IAState, seat: int, level: int) -> None:
    if level == 3 or bonus(s, seat, "repair_free"):  # ULTIMATE: free repair
        s.ships[seat] = tuple((c, 0) for c, _d in s.ships[seat])
    s.push(decision(seat, "build", (level, BUILDS[level], 0)))


def build_legal(s: IAState, d: Decision) -> list[Action]:
    level, left, repaired = d.data
    c = s.content
    ore = s.res[d.seat][1]
    out: list[Action] = []
    seen = set()
    first = left == BUILDS[level]  # "may first repair": only before any build (IA-BLD-01)
    for sh in s.ships[d.seat] if first else ():
        if sh[1] and sh not in seen:
            seen.add(sh)
            if ore >= repair_cost(repaired, sh[1]):
                out.append(act("repair", ship_label(s, sh)))
    if left:
        for card in c.standard_ships:
            if level == 0 and c.ship_heavy[card]:
                continue  # IA-BLD-03
            if ore >= build_cost(s, d.seat, card, level):
                out.append(act("build", c.ship_ids[card]))
    out.append(DONE)
    return out


def build_apply(s: IAState, d: Decision, a: Act) -> None:
    level, left, repaired = d.data
    seat = d.seat
    if a.verb == "done":
        return
    if a.verb == "repair":
        i = find_ship(s, seat, a.a)
        card, dmg = s.ships[seat][i]
        gain(s, seat, 1, -repair_cost(repaired, dmg))
        ships = list(s.ships[seat])
        ships[i] = (card, 0)
        s.ships[seat] = tuple(ships)
        s.push(decision(seat, "build", (level, left, repaired + dmg)))
        return
    card = s.content.ship_index[a.a]
    cost = build_cost(s, seat, card, level)
    s.push(decision(seat, "build", (level, left - 1, repaired)))
    if len(s.ships[seat]) >= MAX_SHIPS:  # discard first (IA-SHIP-07)
        s.push(decision(seat, "scrap", ("build", card, cost)))
    else:
        gain(s, seat, 1, -cost)
        add_ship(s, seat, card)
        s.log(f"P{seat} builds {s.content.ships[a.a].name}")


def scrap_legal(s: IAState, d: Decision) -> list[Action]:
    labels = sorted({ship_label(s, sh) for sh in s.ships[d.seat]})
    return [act("scrap", lb) for lb in labels]


def scrap_apply(s: IAState, d: Decision, a: Act) -> None:
    seat = d.seat
    remove_ship(s, seat, find_ship(s, seat, a.a))
    kind = d.data[0]
    if kind == "build":
        gain(s, seat, 1, -d.data[2])
        add_ship(s, seat, d.data[1])
    elif kind == "hire":
        gain(s, seat, 3, -d.data[2])
        add_ship(s, seat, d.data[1])
    elif kind == "take":  # a ship taken from an opponent (Bribed Captain)
        add_ship(s, seat, d.data[1])
    # "emergency": the combat draws once there is room


# ---------------------------------------------------------------------- RESEARCH
def research_cost(s: IAState, seat: int, t: int, level: int) -> int:
    cost = s.content.tech_cost[t] - bonus(s, seat, "research_discount")
    if level == 3:
        cost -= 1
    return max(1, cost)  # IA-RSCH-02


def start_research(s: IAState, seat: int, level: int) -> None:
    s.push(decision(seat, "research", (level, RESEARCH_COUNT[level])))
    if level == 3:
        s.push(decision(seat, "replace_tech"))


def replace_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.tech_ids
    return [*(act("replace", ids[t]) for t in s.tech_slots if t >= 0), DONE]


def replace_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    t = s.content.tech_index[a.a]
    s.tech_slots[s.tech_slots.index(t)] = -1
    s.tech_discard.append(t)
    refill_techs(s)
    s.push(decision(d.seat, "replace_tech"))


def research_legal(s: IAState, d: Decision) -> list[Action]:
    level, _left = d.data
    c = s.content
    sci = s.res[d.seat][2]
    out: list[Action] = [
        act("research", c.tech_ids[t]) for t in s.tech_slots
        if t >= 0 and c.tech_vp[t] <= RESEARCH_VP_CAP[level]
        and sci >= research_cost(s, d.seat, t, level)
    ]
    out.append(DONE)
    return out


def research_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb != "research":
        return
    level, left = d.data
    seat = d.seat
    t = s.content.tech_index[a.a]
    gain(s, seat, 2, -research_cost(s, seat, t, level))
    s.tech_slots[s.tech_slots.index(t)] = -1
    s.tech_owner[t] = seat  # IA-RSCH-03
    s.known[seat] = s.known[seat] + (t,)
    refill_techs(s)  # IA-RSCH-04
    s.log(f"P{seat} researches {s.content.techs[a.a].name}")
    if left > 1:
        s.push(decision(seat, "research", (level, left - 1)))


# ---------------------------------------------------------------------- SHADOW
def start_shadow(s: IAState, seat: int, level: int) -> None:
    s.push(decision(seat, "shadow_mode", (level,)))


def mode_legal(s: IAState, d: Decision) -> list[Action]:
    out: list[Action] = [act("buy-cards")]
    if HIRE_LIMIT[d.data[0]]:
        out.append(act("hire-mercs"))
    out.append(PASS)
    return out


def mode_apply(s: IAState, d: Decision, a: Act) -> None:
    level = d.data[0]
    seat = d.seat
    if a.verb == "buy-cards":
        offer = []
        for _ in range(BUY_LIMIT[level]):
            card = s.draw(s.shadow_deck, s.shadow_discard)
            if card >= 0:
                offer.append(card)
        s.offer = tuple(offer)
        s.push(decision(seat, "buy", (BUY_LIMIT[level],)))
    elif a.verb == "hire-mercs":
        s.push(decision(seat, "hire", (HIRE_LIMIT[level],)))
        if level == 3:
            s.push(decision(seat, "replace_merc"))


def buy_legal(s: IAState, d: Decision) -> list[Action]:
    out: list[Action] = []
    ids = s.content.shadow_ids
    if s.res[d.seat][3] >= 1 and s.offer:
        if len(s.hands[d.seat]) >= HAND_LIMIT:  # at 7, discard one first (IA-SHA-04)
            out.extend(act("discard", ids[c]) for c in sorted(set(s.hands[d.seat])))
        else:
            out.extend(act("buy", ids[c]) for c in sorted(set(s.offer)))
    out.append(DONE)
    return out


def buy_apply(s: IAState, d: Decision, a: Act) -> None:
    seat = d.seat
    if a.verb == "done":
        s.shadow_discard.extend(s.offer)  # not bought: discarded face up (IA-SHA-02)
        s.offer = ()
        return
    card = s.content.shadow_index[a.a]
    if a.verb == "discard":
        hand_apply(s, d, a)
        s.push(decision(seat, "buy", d.data))
        return
    s._keep_secret((seat,), "buy ?")  # the others see a card bought, not which
    offer = list(s.offer)
    offer.remove(card)
    s.offer = tuple(offer)
    gain(s, seat, 3, -1)  # IA-SHA-03
    s.hands[seat] = s.hands[seat] + (card,)
    if s.offer:
        s.push(decision(seat, "buy", d.data))


def hand_apply(s: IAState, d: Decision, a: Act) -> None:
    discard_card(s, d.seat, s.content.shadow_index[a.a])


def rmerc_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.ship_ids
    return [*(act("replace", ids[m]) for m in sorted(set(s.merc_slots)) if m >= 0), DONE]


def rmerc_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "done":
        return
    m = s.content.ship_index[a.a]
    s.merc_slots[s.merc_slots.index(m)] = -1
    s.merc_discard.append(m)
    refill_mercs(s)
    s.push(decision(d.seat, "replace_merc"))


def hire_legal(s: IAState, d: Decision) -> list[Action]:
    c = s.content
    coin = s.res[d.seat][3]
    out: list[Action] = [
        act("hire", c.ship_ids[m]) for m in sorted(set(s.merc_slots))
        if m >= 0 and coin >= c.ship_cost[m]
    ]
    out.append(DONE)
    return out


def hire_apply(s: IAState, d: Decision, a: Act) -> None:
    seat = d.seat
    if a.verb == "done":
        refill_mercs(s)  # IA-SHA-06
        return
    m = s.content.ship_index[a.a]
    s.merc_slots[s.merc_slots.index(m)] = -1
    cost = s.content.ship_cost[m]
    if d.data[0] > 1:
        s.push(decision(seat, "hire", (d.data[0] - 1,)))
    else:
        s.push(decision(seat, "hire", (0,)))
    s.log(f"P{seat} hires {s.content.ships[a.a].name}")
    if len(s.ships[seat]) >= MAX_SHIPS:
        s.push(decision(seat, "scrap", ("hire", m, cost)))
    else:
        gain(s, seat, 3, -cost)
        add_ship(s, seat, m)


def hire_legal_wrapped(s: IAState, d: Decision) -> list[Action]:
    if d.data[0] <= 0:
        return [DONE]
    return hire_legal(s, d)


# ---------------------------------------------------------------------- FLEET
def can_attack_with(s: IAState, seat: int, raid: bool) -> bool:
    c = s.content
    return any(
        not (raid and c.ship_heavy[card]) and not has_hook(c.ship_fx[card], "defence_only")
        for card, _d in s.ships[seat]
    )


def start_fleet(s: IAState, seat: int, level: int) -> None:
    s.push(decision(seat, "fleet", (level,)))


def fleet_legal(s: IAState, d: Decision) -> list[Action]:
    level = d.data[0]
    out: list[Action] = []
    others = [o for o in range(s.n) if o != d.seat]
    if can_attack_with(s, d.seat, True):
        out.extend(act("raid", f"P{o}") for o in others)  # any level (IA-RAID-17..20)
    if level >= 1 and can_attack_with(s, d.seat, False):  # not at BASIC (IA-INV-11)
        out.extend(act("invade", f"P{o}") for o in others)
    out.append(PASS)
    return out


def fleet_apply(s: IAState, d: Decision, a: Act) -> None:
    if a.verb == "pass":
        return
    from .combat import begin

    begin(s, d.seat, int(a.a[1:]), a.verb, d.data[0])


DECISIONS = {
    "build": (build_legal, build_apply),
    "scrap": (scrap_legal, scrap_apply),
    "replace_tech": (replace_legal, replace_apply),
    "research": (research_legal, research_apply),
    "shadow_mode": (mode_legal, mode_apply),
    "buy": (buy_legal, buy_apply),
    "replace_merc": (rmerc_legal, rmerc_apply),
    "hire": (hire_legal_wrapped, hire_apply),
    "fleet": (fleet_legal, fleet_apply),
}
