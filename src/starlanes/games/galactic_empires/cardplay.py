"""Phases 3 and 5: Play Cards A and B (3 - PLAY CARDS PHASE A, 5 - PLAY CARDS PHASE B,
RESTRICTIONS ON CARD PLAY TURNS 1 AND 2, CREATING THE ACTIVE FLEET, PLAYING ON
YOURSELF/OPPONENT, the reserve fleet (ruling GE-OPEN-04) and the Krebiz card plays).

At most three card plays a turn across phases A, weapons fire and B (GE-PLAY-01); a
Krebiz separation or combination and a reserve swap each cost one play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    DONE,
    NONE,
    GEAction,
    code_seat,
    fleet_code,
    hq_code,
    is_fleet,
    is_hq,
    made,
    one_card,
)
from .effects import operate, resolve_card
from .empires import (
    CommandTally,
    can_join,
    empire_allowed,
    join,
    restricted_present,
    separate,
    split_options,
    tech_allowed,
)
from .fire import fire_possible
from .state import Unit
from .units import attachment_active, damage, lead, repairable, shield_cap, vessels_of
from .windows import open_card_window

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card
    from .state import GEState

HARMFUL = frozenset({"damage", "damage_fleet", "permanent", "disengage", "discard_random",
                     "time_warp", "economic_crisis", "hq_damage"})


def turn_no(s: GEState) -> int:
    """Turn number for GE-PLAY-08/10: the player's own turn count, or the complete turn
    with ``first_turns = "complete"`` (ruling GE-OPEN-06)."""
    return s.round if s.options["first_turns"] == "complete" else s.turns[s.seat]


def tlabel(s: GEState, code: int) -> str:
    if code == NONE:
        return ""
    if is_hq(code):
        return f" on HQ{code_seat(code)}"
    if is_fleet(code):
        return f" on P{code_seat(code)}"
    return f" on {s.name(code)}"


def _units_of(s: GEState, seat: int) -> list[int]:
    return [i for i, u in s.units.items() if u.owner == seat and u.against < 0 and u.host < 0]


def _fleet_targets(s: GEState) -> list[int]:
    return [fleet_code(t) for t in range(s.n) if s.alive[t]]


class Fleet:
    """What listing ``seat``'s card plays asks of his fleet again and again (his vessels and
    units, the turn number, command room and the one-empire rule per kind of card), each
    read once: the state must not change while one is in use."""

    __slots__ = ("s", "seat", "turn", "_vessels", "_units", "_tally", "_present")

    def __init__(self, s: GEState, seat: int) -> None:
        self.s = s
        self.seat = seat
        self.turn = turn_no(s)
        self._vessels: list[int] | None = None
        self._units: list[int] | None = None
        self._tally: CommandTally | None = None
        self._present: frozenset[str] | None = None

    def vessels(self) -> list[int]:
        """``vessels_of(s, seat)``."""
        if self._vessels is None:
            self._vessels = vessels_of(self.s, self.seat)
        return self._vessels

    def units(self) -> list[int]:
        """The seat's own units in play that sit on no other card."""
        if self._units is None:
            self._units = _units_of(self.s, self.seat)
        return self._units

    def room(self, c: Card | None) -> bool:
        """``command_room(s, seat, c)``, from the seat's
        :class:`~.empires.CommandTally`, read once from :meth:`vessels`."""
        if self._tally is None:
            self._tally = CommandTally(self.s, self.seat, self.vessels())
        return self._tally.room(c)

    def allowed(self, c: Card) -> bool:
        """``empire_allowed(s, seat, c)``, the restricted empires of the seat's ships
        read once from :meth:`vessels`."""
        if self._present is None:
            self._present = restricted_present(self.s, self.seat, self.vessels())
        return empire_allowed(self.s, self.seat, c, self._present)


def targets(s: GEState, inst: int, fleet: Fleet | None = None) -> list[tuple[int, int]]:
    """(target, Krebiz partner) pairs card ``inst`` may be played on now by ``s.seat``;
    ``fleet``: a :class:`Fleet` of ``s.seat`` shared by the calls of one listing."""
    seat = s.seat
    if fleet is None:
        fleet = Fleet(s, seat)
    cards, defs = s.cards, s.defs
    c = cards[defs[inst]]
    t = c.type
    turn = fleet.turn
    if t == "T":
        return [(NONE, NONE)]
    if t in "SBD":
        if turn == 1 or (turn == 2 and s.ship_plays >= 1) or not fleet.allowed(c):
            return []
        out = []
        room = fleet.room(c)
        if room:
            out.append((NONE, NONE))
        if c.krebiz:
            other = "capsule" if c.krebiz == "cruiser" else "cruiser"
            if room:
                out += [(NONE, h) for h in s.hands[seat]
                        if h != inst and cards[defs[h]].krebiz == other]
            out += [(i, NONE) for i in fleet.vessels()
                    if cards[defs[i]].krebiz == other and s.units[i].partner < 0]
        return out
    if t in "CE":
        if turn == 1:
            return []
        if c.located:
            return [(i, NONE) for i in fleet.units() if cards[defs[i]].type == "T"]
        out = []
        for i in fleet.vessels():
            for h in (i, s.units[i].partner):
                if h < 0:
                    continue
                hc = cards[defs[h]]
                if hc.type == "D" or not tech_allowed(s, h, c):
                    continue
                if (c.has("shield_refit") or c.has("shields")) and (
                        hc.nodes or hc.empire == "mechad"):
                    continue  # GE-EMP-MCH-05: no shields to add to an EMF (ruling)
                if c.has("free_flying") and hc.type != "S":
                    continue
                out.append((h, NONE))
        return out
    kinds = c.kinds
    if c.reaction:
        if "emergency_repair" in kinds:
            return [(i, NONE) for i in fleet.units()
                    if cards[defs[i]].type not in "DM" and repairable(s, i) and lead(s, i) == i]
        return []
    if t in "HM" or kinds & {"time_warp", "economic_crisis", "damage_fleet",
                             "discard_random"}:
        return [(f, NONE) for f in _fleet_targets(s)]
    if kinds & {"hq_damage"}:
        return [(hq_code(o), NONE) for o in range(s.n) if o != seat and s.alive[o]]
    if kinds & {"hq_repair"}:
        return [(hq_code(seat), NONE)] if s.hq[seat] else []
    if kinds & {"draw", "salvage"}:
        return [(NONE, NONE)]
    if kinds & {"damage", "permanent", "disengage"}:
        heavy = any(e.heavy for e in c.effects)
        out = []
        for i, u in s.units.items():
            tc = s.cards[u.card]
            if u.owner == seat and tc.type != "M":
                continue
            if lead(s, i) != i or tc.type == "D":
                continue
            if tc.type in "SB" or (tc.type == "T" and heavy and "disengage" not in kinds) or (
                    tc.type == "M" and "disengage" not in kinds):
                out.append((i, NONE))
        return out
    if "repair" in kinds:
        return [(i, NONE) for i in s.units
                if cards[defs[i]].type in "SBT" and lead(s, i) == i and repairable(s, i)]
    return []  # pragma: no cover - every kind is listed above


def _play_label(s: GEState, _kind: str, inst: int, tgt: int, partner: int) -> str:
    lab = f"play {s.name(inst)}"
    if partner >= 0:
        lab += f"+{s.name(partner)}"
    return lab + tlabel(s, tgt)


def _swap_label(s: GEState, _kind: str, h: int, r: int, _seat: int) -> str:
    return f"swap {s.name(h)} {s.name(r)}"


def _combine_label(s: GEState, _kind: str, i: int, j: int, _c: int) -> str:
    return f"combine {s.name(i)} {s.name(j)}"


def _operate_label(s: GEState, _kind: str, i: int, tgt: int, _c: int) -> str:
    return f"operate {s.name(i)} on {s.name(tgt)}"


def play_actions(s: GEState) -> list[GEAction]:
    """Legal actions of Play Cards Phase A or B."""
    seat = s.seat
    cards, defs = s.cards, s.defs
    out: list[GEAction] = []
    if s.plays < 3:
        fleet = Fleet(s, seat)
        hand = s.hands[seat]
        for inst in hand:
            for tgt, partner in targets(s, inst, fleet):
                out.append(made(s, "play", inst, tgt, partner, _play_label))
        reserve = s.reserve[seat]
        if reserve:
            strengths = [cards[defs[r]].strength for r in reserve]
            for h in hand:
                hs = cards[defs[h]].strength
                for r, rs in zip(reserve, strengths, strict=True):
                    if hs >= rs:
                        out.append(made(s, "swap", h, r, seat, _swap_label))
        turn = s.turns[seat]
        vessels = fleet.vessels()
        for i in vessels:
            u = s.units[i]
            if u.partner >= 0 and fleet.room(None) and split_options(s, i):
                out.append(one_card(s, "separate", i))
            elif u.partner < 0 and cards[defs[i]].krebiz == "cruiser" and u.split != turn:
                for j in vessels:
                    if can_join(s, i, j) and s.units[j].split != turn:
                        out.append(made(s, "combine", i, j, NONE, _combine_label))
    out += operate_actions(s)
    research = s.pool[3] + s.pool[6]
    if research:
        for i, u in s.units.items():
            if cards[u.card].type == "M":
                out.append(one_card(s, "study", i))
    out.append(DONE)
    return out


def operate_actions(s: GEState) -> list[GEAction]:
    """Functions of cards in play not yet operated this turn (GE-TURN-04/05); a hazard
    or monster only from its controller's turn after the one it was played in ("cards
    that cause damage (such as hazard cards and monster cards played on previous turns)
    may be operated", 3 - Play Cards Phase A)."""
    seat = s.seat
    out = []
    for i, u in s.units.items():
        if u.owner != seat or u.used:
            continue
        c = s.cards[u.card]
        if not c.operates:
            continue
        if u.host >= 0:
            if not (s.units[u.host].engaged and attachment_active(s, i)):
                continue  # GE-PTS-11: Disengaged units' cards take no action
        elif c.type not in "HM":
            continue
        elif u.turn_in >= s.turns[seat]:
            continue  # GE-TURN-04: only hazards and monsters played on earlier turns act
        for tgt in _op_targets(s, i, c, u):
            out.append(made(s, "operate", i, tgt, NONE, _operate_label))
    return out


def _op_targets(s: GEState, inst: int, c: Card, u: Unit) -> list[int]:
    seat = u.owner
    if c.has("op_repair"):
        return [i for i in _units_of(s, seat)
                if s.card(i).type in "SBT" and lead(s, i) == i and s.units[i].dmg > s.units[i].perm]
    if c.type in "HM":
        return [i for i in _units_of(s, u.against) if s.card(i).type in "SBD" and lead(s, i) == i]
    if c.has("op_board"):
        host = u.host
        if not any(v.host == host and s.cards[v.card].has("transporter")
                   for v in s.units.values()):
            return []
        out = []
        for i in (i for o in range(s.n) if o != seat for i in vessels_of(s, o)):
            tc = s.card(i)
            if tc.type == "D":
                continue
            if tc.nodes or shield_cap(s, i) - s.units[i].sdmg <= 0:
                out.append(i)  # GE-EMP-MCH-06: the EMF does not block transporters
        return out
    return [i for o in range(s.n) if o != seat and s.alive[o] for i in vessels_of(s, o)]


def apply_play(s: GEState, a: GEAction) -> None:
    seat = s.seat
    k = a.kind
    if k == "done":
        s.phase = "fire" if s.phase == "playA" else "discard"
        if s.phase == "fire" and not fire_possible(s):
            s.phase = "playB"
        return
    if k == "operate":
        operate(s, a.a, a.b)
        return
    if k == "study":
        s.pool[3 if s.pool[3] else 6] -= 1
        damage(s, a.a, 1, seat, research=True)
        return
    s.plays += 1
    if k == "swap":
        # the others saw a card go face down, not which: every card they saw go into this
        # hand is now in the hand or the reserve, whichever was swapped (ruling GE-OPEN-04)
        hand = set(s.hands[seat])
        s.held.extend(i for i in s.known if i in hand)
        s.known = [i for i in s.known if i not in hand]
        s.hands[seat].remove(a.a)
        s.reserve[seat].remove(a.b)
        s.hands[seat].append(a.b)
        s.reserve[seat].append(a.a)
        s._keep_secret((seat,), "swap")  # the others see a swap, not which cards
        s.log(f"P{seat} swaps a card with the reserve fleet")
    elif k == "separate":
        separate(s, a.a)
    elif k == "combine":
        join(s, a.a, a.b)
    else:
        play_card(s, a.a, a.b, a.c)


def play_card(s: GEState, inst: int, target: int, partner: int = NONE) -> None:
    """Put card ``inst`` from ``s.seat``'s hand into play (one card play)."""
    seat = s.seat
    c = s.card(inst)
    s.hands[seat].remove(inst)
    turn = s.turns[seat]
    if c.type == "T":
        s.units[inst] = Unit(c.id, seat, turn_in=turn)
        s.log(f"P{seat} plays terrain {s.title(inst)}")
    elif c.type in "SBD":
        s.ship_plays += 1
        s.units[inst] = Unit(c.id, seat, turn_in=turn)  # GE-PTS-07: played Disengaged
        s.log(f"P{seat} plays {s.title(inst)}")
        if partner >= 0:
            s.hands[seat].remove(partner)
            s.units[partner] = Unit(s.defs[partner], seat, turn_in=turn)
            join(s, inst, partner)
        elif target >= 0:
            join(s, inst, target, fresh=inst)
    elif c.type in "CE":
        s.units[inst] = Unit(c.id, seat, host=target, turn_in=turn)
        s.log(f"P{seat} plays {s.title(inst)} on {s.title(target)}")
    else:
        owner = _target_owner(s, target)
        if owner >= 0 and owner != seat and s.alive[owner] and _hostile(c) \
                and open_card_window(s, owner, inst, target):
            return
        resolve_card(s, seat, inst, target)


def _hostile(c: Card) -> bool:
    return any(e.kind in HARMFUL for e in c.effects) or c.type in "HM"


def _target_owner(s: GEState, target: int) -> int:
    if target == NONE:
        return -1
    if is_fleet(target) or is_hq(target):
        return code_seat(target)
    return s.units[target].owner

