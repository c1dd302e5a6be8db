"""Descriptions of the Interstellar Ambitions decisions of conflict: Shadow cards and
checks, combat orders and fire, raid takings, victory spoils and repairs (Shadow
Activities; FLEET - RAID / INVADE; VICTORY SPOILS!). Used by :mod:`.explain`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starlanes.engine.explain import ActionDescription

from .actions import Act, parse_token
from .combat import order_legal
from .common import fleet_value
from .texts import (
    planet_text,
    shadow_target_words,
    shadow_text,
    ship_text,
    tech_text,
    token_words,
)

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Decision

    from .state import IAState

D = ActionDescription


def _shadow(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "pass":
        return D(str(a), "shadow", "Play no Shadow card this turn.", rules=("IA-SHD-01",))
    c = s.content
    k = c.shadow_index[a.a]
    kind = c.shadow_kind[k]
    rules = ("IA-SHD-01", "IA-SHD-02", {"standard": "IA-SHD-03", "sabotage": "IA-SHD-04",
                                        "infiltrate": "IA-SHD-05"}[kind])
    if kind == "standard":
        how = "It works at once."
    else:
        from .shadow import check_modifier

        o = int(a.b.split(".")[0][1:])
        mod = check_modifier(s, d.seat, o, k, a.b)
        how = (f"{'An' if kind[0] in 'aeiou' else 'A'} {kind} check follows: you may discard up to 3 cards for +1 each, then "
               f"{a.b.split('.')[0]} may discard up to 3 for -1 each; a die of 4 or more "
               f"(modifier now {mod:+d}) makes it work and earns a Shadow Medal.")
        rules = (*rules, "IA-SHD-07", "IA-SHD-08", "IA-SHD-09", "IA-SHD-10")
    return D(str(a), "shadow",
             f"Play on {shadow_target_words(s.content, k, a.b)}: {shadow_text(c, k)} {how}",
             changes="the card goes face up to the Shadow discard", rules=rules)


def _boost(s: IAState, d: Decision, a: Act) -> D:
    card, _arg, _t, mod, boosts, _o = d.data
    if a.verb == "done":
        return D(str(a), "shadow", f"Add no more cards to the check (modifier "
                 f"{mod + boosts:+d} so far).", rules=("IA-SHD-08",))
    k = s.content.shadow_index[a.a]
    return D(str(a), "shadow",
             f"Discard this card for +1 to your check (boost {boosts + 1} of 3). "
             f"{shadow_text(s.content, k)}", cost="1 Shadow card from your hand",
             changes=f"check modifier {mod + boosts:+d} -> {mod + boosts + 1:+d}",
             rules=("IA-SHD-08",))


def _oppose(s: IAState, d: Decision, a: Act) -> D:
    card, arg, _t, mod, boosts, opposes, player = d.data
    total = mod + boosts - opposes
    what = shadow_text(s.content, card)
    if a.verb == "pass":
        return D(str(a), "shadow",
                 f"Let P{player}'s check be rolled as it stands (a die {total:+d}, 4 or more "
                 f"works). The card: {what}", rules=("IA-SHD-09", "IA-SHD-10"))
    k = s.content.shadow_index[a.a]
    return D(str(a), "shadow",
             f"Discard this card for -1 to P{player}'s check against you (oppose "
             f"{opposes + 1} of 3). {shadow_text(s.content, k)}",
             cost="1 Shadow card from your hand",
             changes=f"check modifier {total:+d} -> {total - 1:+d}", rules=("IA-SHD-09",))


def _spoil(s: IAState, d: Decision, a: Act) -> D:
    assert s.combat is not None
    att, dfn = s.combat.seats
    c = s.content
    if a.verb == "pass":
        return D(str(a), "spoil", "Claim no victory spoil.", rules=("IA-SPOIL-01",))
    if a.a == "disrupt":
        n = s.options["disrupt_limit"]
        return D(str(a), "spoil",
                 f"Disrupt Plans: move up to {n} of P{dfn}'s action tokens back to BASIC.",
                 rules=("IA-SPOIL-01", "IA-SPOIL-02", "IA-OPEN-03"))
    if a.a == "tech":
        t = c.tech_index[a.b]
        return D(str(a), "spoil",
                 f"Acquire Technology: get P{dfn}'s tech as a non-owner (its effect, not its "
                 f"VP). {tech_text(c, t)}",
                 rules=("IA-SPOIL-01", "IA-SPOIL-03", "IA-TECH-03"))
    from .spoils import bombard_points

    pts = bombard_points(s, att, dfn, a.b)
    p = c.planet_index[a.b]
    lvl = next(lv for q, lv, _m in s.planets[dfn] if q == p)
    new = max(1, lvl - pts // 3)
    capture = " At level 1 you may then capture it for its colonise cost." if new == 1 else ""
    return D(str(a), "spoil",
             f"Planetary Bombardment of {planet_text(c, p)} Your {pts} bombard points lower "
             f"it one level per 3.{capture}", changes=f"level {lvl} -> {new}",
             rules=("IA-SPOIL-01", "IA-SPOIL-04", "IA-SPOIL-05", "IA-SPOIL-06",
                    "IA-OPEN-24"))


def _capture(s: IAState, d: Decision, a: Act) -> D:
    from .common import can_pay
    from .texts import cost_text

    p = d.data[0]
    if a.verb == "pass":
        cost = s.content.planet_cost[p]
        short = "" if can_pay(s.res[d.seat], cost) else (
            f" You cannot pay its colonise cost ({cost_text(cost)}) yet; 3:1 exchanges, "
            "listed with this choice, can make it affordable before you decide.")
        return D(str(a), "spoil", f"Leave the bombarded planet with its owner.{short}",
                 rules=("IA-SPOIL-06", "IA-RES-02") if short else ("IA-SPOIL-06",))
    return D(str(a), "spoil",
             f"Capture {planet_text(s.content, p)} It keeps level 1 and its markers; no "
             f"colony event is drawn.", cost=cost_text(s.content.planet_cost[p]),
             rules=("IA-SPOIL-06", "IA-SPOIL-07", "IA-COL-06", "IA-PLN-07"))


def _rescue(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "pass":
        return D(str(a), "spoil", "No face-up planet is left to take.",
                 rules=("IA-SPOIL-08",))
    p = s.content.planet_index[a.a]
    return D(str(a), "spoil",
             f"Your last planet was captured: take this face-up planet at level 4 (or its "
             f"maximum). {planet_text(s.content, p)}",
             rules=("IA-SPOIL-08", "IA-OPEN-12"))


def _disrupt(s: IAState, d: Decision, a: Act) -> D:
    if a.verb == "done":
        return D(str(a), "spoil", "Reset no more tokens.", rules=("IA-SPOIL-02",))
    assert s.combat is not None
    dfn = s.combat.seats[1]
    code = parse_token(a.a)
    return D(str(a), "spoil",
             f"Move P{dfn}'s {token_words(code)} token back to BASIC ({d.data[0]} reset(s) "
             f"left).", rules=("IA-SPOIL-02",))


def _order(s: IAState, d: Decision, a: Act) -> D:
    assert s.combat is not None
    cb = s.combat
    side = d.data[0]
    pos = len(cb.partial[side]) + 1
    k = s.content.ship_index[a.a.split("/", 1)[0]]
    hidden = " Orders stay secret until both are set." if not cb.open else \
        " Damaged ships show face up; the attacker arranges first."
    if len(order_legal(s, d)) == 1:  # ruling "Secret choices": forced places are asked too
        hidden += (" The ships left are all alike, so this place is forced; it is still "
                   "asked, so nobody can tell a forced place from a chosen one.")
    return D(str(a), "combat",
             f"Put this ship at position {pos} of your combat order: it fights the enemy "
             f"ship at the same position.{hidden} {ship_text(s.content, k)}",
             rules=("IA-RAID-05", "IA-RAID-06", "IA-RAID-07", "IA-INV-04"))


def _fire(s: IAState, d: Decision, a: Act) -> D:
    k = s.content.ship_index[a.a.split("/", 1)[0]]
    return D(str(a), "combat",
             f"Your unmatched ship fires at this enemy ship, which does not fire back. "
             f"{ship_text(s.content, k)}", rules=("IA-RAID-09", "IA-RAID-08", "IA-INV-05"))


def _steal(s: IAState, d: Decision, a: Act) -> D:
    assert s.combat is not None
    dfn = s.combat.seats[1]
    if a.verb == "done":
        return D(str(a), "combat", "Take nothing more from the raided player.",
                 rules=("IA-RAID-12", "IA-OPEN-06"))
    return D(str(a), "combat",
             f"Take 1 {a.a.upper()} from P{dfn} ({d.data[0]} still to take, up to the "
             f"margin of victory).", changes=f"+1 {a.a} for you, -1 for P{dfn}",
             rules=("IA-RAID-12", "IA-RAID-13"))


def _def_repair(s: IAState, d: Decision, a: Act) -> D:
    from .fleetworks import repair_cost

    if a.verb == "done":
        return D(str(a), "combat", "Repair no more ships after the combat.",
                 rules=("IA-RAID-16", "IA-INV-10"))
    dmg = int(a.a.partition("/")[2] or 0)
    return D(str(a), "combat",
             f"As the defender, repair {s.content.ships[a.a.split('/')[0]].name} after the combat (1 ore per 2 "
             f"markers, rounded up).", cost=f"{repair_cost(d.data[0], dmg)} ore",
             changes=f"fleet value {fleet_value(s, d.seat)} rises by {dmg}",
             rules=("IA-RAID-16", "IA-INV-10", "IA-OPEN-28"))


FIGHT_DESCRIBERS: dict[str, Callable[[IAState, Decision, Act], ActionDescription]] = {
    "shadow": _shadow, "boost": _boost, "oppose": _oppose, "spoil": _spoil,
    "capture": _capture, "rescue": _rescue, "disrupt": _disrupt, "order": _order,
    "fire": _fire, "steal": _steal, "def_repair": _def_repair,
}
