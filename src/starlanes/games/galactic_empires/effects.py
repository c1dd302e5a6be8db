"""The effect vocabulary at work: instant occurrences, lasting cards, hazards, monsters,
operated functions and Sector HQ cards (CARDS HAVE RULES, HOW LONG CARDS REMAIN IN PLAY,
REMOVAL OF CARDS FROM PLAY). Kinds are listed in ``content.EFFECT_KINDS``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import code_seat, is_fleet, is_hq
from .state import HQ_LIMIT, Unit
from .units import damage, destroy, lead, repair, ships_of

if TYPE_CHECKING:  # pragma: no cover
    from .state import GEState


def hq_damage(s: GEState, seat: int, n: int, by: int) -> None:
    """Score ``n`` on ``seat``'s Sector HQ; the 25th point eliminates him (GE-DMG-08)."""
    from .endturn import eliminate

    if not s.alive[seat] or n <= 0:
        return
    s.hq[seat] += n
    s.note_hq(seat, "deck exhausted" if by < 0 else "own damage" if by == seat
              else f"damage from P{by}", n)
    s.log(f"Sector HQ of P{seat} takes {n} ({s.hq[seat]}/{HQ_LIMIT})")
    if s.hq[seat] >= HQ_LIMIT:
        eliminate(s, seat, by)


def resolve_card(s: GEState, seat: int, inst: int, target: int) -> None:
    """Apply the card ``inst`` that ``seat`` played on ``target`` (a unit, a fleet code or
    an HQ code). Instants are discarded after use (GE-REM-04); hazards, monsters and
    lasting occurrences stay in play against the target fleet."""
    c = s.card(inst)
    if c.type in "HM" or any(e.kind in ("time_warp", "economic_crisis") for e in c.effects):
        tseat = code_seat(target) if is_fleet(target) else s.units[target].owner
        s.units[inst] = Unit(c.id, seat, against=tseat, left=c.duration or -1,
                             turn_in=s.turns[seat])
        s.log(f"P{seat} plays {s.title(inst)} against the fleet of P{tseat}")
        return
    s.log(f"P{seat} plays {s.title(inst)}")
    for e in c.effects:
        k = e.kind
        if k in ("damage", "permanent"):
            if target in s.units:
                damage(s, target, e.n, seat, permanent=k == "permanent")
        elif k == "damage_fleet":  # its ships, never D dragons (GE-EMP-DRG-02)
            for i in ships_of(s, code_seat(target)):
                if s.card(i).type == "S":
                    damage(s, i, e.n, seat)
        elif k in ("repair", "emergency_repair"):
            if target in s.units:
                repair(s, target, e.n)
        elif k == "hq_damage" and is_hq(target):
            hq_damage(s, code_seat(target), e.n, seat)
        elif k == "hq_repair" and is_hq(target):
            t = code_seat(target)
            before = s.hq[t]
            s.hq[t] = max(0, s.hq[t] - e.n)
            s.note_hq(t, "repairs", s.hq[t] - before)
        elif k == "draw":
            for _ in range(e.n):
                s.draw(seat)
        elif k == "salvage":
            pile = s.pile(inst)
            for j in range(len(pile) - 1, -1, -1):
                if s.card(pile[j]).type in "SBD":
                    s.hands[seat].append(pile[j])
                    s.known.append(pile.pop(j))  # everyone saw it taken
                    break
        elif k == "disengage" and target in s.units:
            lo = lead(s, target)
            for i in (lo, s.units[lo].partner):
                if i >= 0:
                    s.units[i] = s.units[i]._replace(engaged=False)
        elif k == "discard_random":
            t = code_seat(target)
            for _ in range(e.n):
                if s.hands[t]:
                    j = s.rng.randrange(len(s.hands[t]))
                    s.to_discard(s.hands[t].pop(j))
    s.to_discard(inst)


def operate(s: GEState, inst: int, target: int) -> None:
    """Operate a function of a card in play, once per turn (GE-TURN-04/05)."""
    u = s.units[inst]
    s.units[inst] = u._replace(used=True)
    c = s.card(inst)
    s.log(f"P{u.owner} operates {s.title(inst)} on {s.title(target)}")
    for e in c.effects:
        if e.kind == "op_repair":
            repair(s, target, e.n)
        elif e.kind == "op_damage":
            damage(s, target, e.n, u.owner)
        elif e.kind == "op_board":
            damage(s, target, e.n, u.owner, ignore_shields=True)
        if target not in s.units:
            break


def discard_unit(s: GEState, inst: int) -> None:
    """Self-destruct (GE-TURN-07) or other removal of a card in play with what it holds:
    every card it holds goes to the discard pile too, each with a log line naming both."""
    if s.units[inst].host >= 0 or s.card(inst).type not in "SBDT":
        del s.units[inst]
        s.to_discard(inst)
        for i, u in list(s.units.items()):
            if u.host == inst:
                _leaves_with(s, i, inst)
        return
    att = [i for i, u in s.units.items() if u.host == inst or (
        s.units[inst].partner >= 0 and u.host == s.units[inst].partner)]
    for i in sorted(att):
        _leaves_with(s, i, s.units[i].host)
    destroy(s, inst)


def _leaves_with(s: GEState, inst: int, holder: int) -> None:
    """Card ``inst`` leaves play to the discard pile with the card ``holder`` it sat on."""
    del s.units[inst]
    s.to_discard(inst)
    s.log(f"{s.card(inst).name} goes to the discard pile with the {s.card(holder).name}")
