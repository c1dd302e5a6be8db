"""Reaction and counter-reaction windows (PLAYING REACTION CARDS; 4b and 4c of the
WEAPONS FIRE PHASE).

After fire is allocated (4a) the target's owner may play 'R' cards ("Target player may
play cards in reaction", GE-FIRE-03), one after another, each only if one of its functions
is used at once (GE-PLAY-07): a second Evasive Action on fire that already misses, or a
second cancel of a card already cancelled, uses nothing and is not offered. When he
passes (or has nothing left to play) the firing player may answer each reaction with one
card that modifies it, while he has card plays left (GE-FIRE-04); then the fire resolves
(4d). Only the target's owner reacts (ruling GE-OPEN-12). An 'R' card played in another
player's turn is not one of the reacting player's three plays (GE-PLAY-04); the firer's
counter is (GE-PLAY-05). A card an opponent plays on your fleet opens the same window for
``cancel_card`` reactions (ruling GE-OPEN-12).

``s.pending`` is ``("fire", target, damage, firers, reactions, counters)`` or ``("card",
card, target, player, reactions, counters)``: ``reactions`` a tuple of (card, argument),
``counters`` a tuple of (card, index of the reaction it modifies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Decision

from .actions import GEAction, code_seat, is_hq, one_card
from .units import damage, lead, repair, repairable

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState

PASS = GEAction("pass", label="pass")


def _fire_owner(s: GEState, target: int) -> int:
    return code_seat(target) if is_hq(target) else s.units[target].owner


def _reacts(p: tuple) -> tuple:
    return p[4] if len(p) > 4 else ()


def _counters(p: tuple) -> tuple:
    return p[5] if len(p) > 5 else ()


def reaction_actions(s: GEState, seat: int) -> list[GEAction]:
    """The reactions ``seat`` may play in the open window (functions usable now only)."""
    p = s.pending
    played = {e.kind for r, _ in _reacts(p) for e in s.card(r).effects}
    out = []
    for inst in s.hands[seat]:
        c = s.card(inst)
        if not c.reaction:
            continue
        for e in c.effects:
            k = e.kind
            if p[0] == "card":
                if k == "cancel_card" and "cancel_card" not in played:
                    out.append(one_card(s, "react", inst))
                continue
            target = p[1]
            if k == "deflect" and not is_hq(target) or k == "hq_screen" and is_hq(target) or \
                    k == "evade" and "evade" not in played and not is_hq(target) \
                    and s.card(target).type in "SD" and s.units[target].engaged:
                out.append(one_card(s, "react", inst))
            elif k == "return_fire":
                for f in p[3]:
                    if f in s.units:
                        out.append(GEAction("react", inst, f,
                                            label=f"react {s.name(inst)} on {s.name(f)}"))
            elif k == "emergency_repair":
                for i, u in s.units.items():
                    if u.owner == seat and u.host < 0 and u.against < 0 and lead(s, i) == i \
                            and s.card(i).type in "SBT" and repairable(s, i):
                        out.append(GEAction("react", inst, i,
                                            label=f"react {s.name(inst)} on {s.name(i)}"))
    return out


def counter_actions(s: GEState) -> list[GEAction]:
    """The firing player's counters: one card on each reaction not yet countered."""
    if s.plays >= 3:
        return []
    p = s.pending
    reacts = _reacts(p)
    done = {k for _, k in _counters(p)}
    open_ = [k for k in range(len(reacts)) if k not in done]
    out = []
    for inst in s.hands[s.seat]:
        c = s.card(inst)
        if c.reaction and (c.has("override") or c.has("dampen")):
            if c.has("dampen") and p[0] == "card":
                continue
            for k in open_:
                lab = f"counter {s.name(inst)}"
                if len(reacts) > 1:
                    lab += f" on {s.name(reacts[k][0])}"
                out.append(GEAction("counter", inst, k, label=lab))
    return out


def open_fire_window(s: GEState) -> None:
    owner = _fire_owner(s, s.pending[1])
    if owner != s.seat and s.alive[owner] and reaction_actions(s, owner):
        s.push(Decision(owner, "react"))
    else:
        resolve(s)


def open_card_window(s: GEState, owner: int, inst: int, target: int) -> bool:
    s.pending = ("card", inst, target, s.seat)
    if reaction_actions(s, owner):
        s.push(Decision(owner, "react"))
        return True
    s.pending = ()
    return False


def window_actions(s: GEState, d: Decision) -> list[GEAction]:
    if d.kind == "react":
        return reaction_actions(s, d.seat) + [PASS]
    return counter_actions(s) + [PASS]


def _next(s: GEState, d: Decision) -> None:
    """After a reaction, a counter or a pass: more reactions, then counters, then 4d."""
    if d.kind == "react" and reaction_actions(s, d.seat):
        s.push(Decision(d.seat, "react"))
    elif _reacts(s.pending) and counter_actions(s):
        s.push(Decision(s.seat, "counter"))
    else:
        resolve(s)


def apply_window(s: GEState, d: Decision, a: GEAction) -> None:
    p = s.pending
    if a.kind == "react":
        s.hands[d.seat].remove(a.a)
        s.pending = p[:4] + (_reacts(p) + ((a.a, a.b),), _counters(p))
        s.log(f"P{d.seat} reacts with {s.title(a.a)}")
        _next(s, d)
        return
    if a.kind == "counter":
        s.hands[s.seat].remove(a.a)
        s.plays += 1
        s.to_discard(a.a)
        s.pending = p[:4] + (_reacts(p), _counters(p) + ((a.a, a.b),))
        s.log(f"P{s.seat} counters with {s.title(a.a)}")
        _next(s, d)
        return
    if d.kind == "react":  # the target's owner passes: on to the counters (4c)
        _next(s, Decision(d.seat, "done"))
        return
    resolve(s)


def resolve(s: GEState) -> None:
    """4d: resolve the reactions (as modified by counters), in the order played, and then
    the fire or card."""
    from .effects import hq_damage, resolve_card

    p = s.pending
    s.pending = ()
    reacts = _reacts(p)
    mods = {k: s.card(c) for c, k in _counters(p)}
    for r, _ in reacts:
        s.to_discard(r)
    live = [(k, r, arg) for k, (r, arg) in enumerate(reacts)
            if not (k in mods and mods[k].has("override"))]
    if p[0] == "card":
        inst, target, seat = p[1], p[2], p[3]
        if live:
            s.log(f"{s.title(inst)} is cancelled")
            s.to_discard(inst)
            return
        resolve_card(s, seat, inst, target)
        return
    _, target, dmg, firers = p[:4]
    for k, r, arg in live:
        half = k in mods and mods[k].has("dampen")
        for e in s.card(r).effects:
            n = e.n // 2 if half else e.n  # GE-MISC-01: fractions dropped
            if e.kind in ("deflect", "hq_screen"):
                dmg = max(0, dmg - n)
            elif e.kind == "evade":
                dmg = 0 if not half else dmg // 2
            elif e.kind == "return_fire" and arg in s.units:
                damage(s, arg, n, _fire_owner(s, target))
            elif e.kind == "emergency_repair" and arg in s.units:
                repair(s, arg, n)
    if is_hq(target):
        hq_damage(s, code_seat(target), dmg, s.seat)
    elif target in s.units:
        damage(s, target, dmg, s.seat)
    del firers
