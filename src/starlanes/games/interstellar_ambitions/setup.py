"""Set-up and game start (Central Play Area Set-up, Player Area Set-up, Game Start).

:func:`begin` lays out the central area and each player area (IA-SET-02..13). The game
start then runs as decisions, stage by stage (``s.step`` during ``phase == "setup"``):
0 keep 2 of 4 Shadow cards (IA-SET-14), 1 starting techs in reverse seat order
(IA-SET-15/16), 2 action tokens one at a time in seat order onto BASIC slots (IA-SET-17),
3 two of each resource and the seat compensation (IA-SET-18..23), then the first turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, decision

from .actions import ACTIONS, RES, Act, act
from .common import (
    can_advance,
    discard_card,
    gain,
    refill_mercs,
    refill_planets,
    refill_techs,
    set_token,
)

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

COMPENSATION = {1: (0, 1), 2: (1, 1), 3: (1, 2), 4: (2, 2), 5: (2, 3)}
"""Seat position (0 = start player) -> (tokens to advance, resources to take) (IA-SET-19..23)."""


def order(s: IAState) -> list[int]:
    """Seats in turn order from the start player, clockwise (IA-SET-13)."""
    return [(s.start + i) % s.n for i in range(s.n)]


def begin(s: IAState) -> None:
    c = s.content
    rng = s.rng
    # Ambitions (IA-SET-02/03, ruling IA-OPEN-01)
    passive = [i for i, p in enumerate(c.ambition_passive) if p]
    active = [i for i, p in enumerate(c.ambition_passive) if not p]
    if s.game.fixed_ambitions:  # the designer's ambition_set option
        chosen = list(s.game.fixed_ambitions)
    elif s.options["ambitions"] == "core":
        core = [i for i in range(len(c.ambition_ids)) if c.ambition_core[i]]
        rest_p = [i for i in passive if i not in core]
        rest_a = [i for i in active if i not in core]
        chosen = core + rng.sample(rest_p, 1) + rng.sample(rest_a, 1)
    else:
        chosen = rng.sample(passive, 3) + rng.sample(active, 3)
    s.ambitions = tuple(chosen)
    s.claims = [()] * len(chosen)
    # Face-down decks (IA-SET-04, 06, 09): unordered piles drawn at random
    s.shadow_deck = list(c.shadow_cards)
    s.emerg_deck = list(c.emergency_cards)
    s.colony_deck = list(c.event_cards)
    s.merc_deck = list(c.merc_cards)
    s.tech_deck = [i for i in range(len(c.tech_ids)) if i not in c.start_techs]
    # Planet stacks by type, face up (IA-SET-05, ruling IA-OPEN-10)
    per = c.rules["planet_slots_per_type"]
    for t in range(4):
        s.planet_decks[t] = [i for i, pt in enumerate(c.planet_type) if pt == t]
        s.planet_slots[t] = [-1] * per
        refill_planets(s, t)
    s.tech_slots = [-1] * c.rules["tech_slots"]
    refill_techs(s)
    s.merc_slots = [-1] * c.rules["merc_slots"]
    refill_mercs(s)
    # Player areas (IA-SET-10..12)
    sc, de = c.ship_index["strike_craft"], c.ship_index["destroyer"]
    for seat in range(s.n):
        s.planets[seat] = ((c.homes[seat], 4, ()),)
        s.colonised[c.homes[seat]] = True
        s.ships[seat] = ((sc, 0), (de, 0))
        s.tokens[seat] = (-1,) * 6
    s.start = rng.randrange(s.n)  # IA-SET-13
    for seat in order(s):
        s.hands[seat] = tuple(s.draw(s.shadow_deck, s.shadow_discard) for _ in range(4))
    s.phase = "setup"
    s.step = 0
    s.seat = s.start
    s.log(f"start player P{s.start}")


def run(s: IAState) -> None:
    """Push the next stage's decisions (called when no decision is pending)."""
    seats = order(s)
    if s.step == 0:
        s.step = 1
        for seat in reversed(seats):
            s.push(decision(seat, "keep", (2,)))
    elif s.step == 1:
        s.step = 2
        for seat in seats:  # last player decides first: pushed last, on top
            s.push(decision(seat, "start_tech"))
    elif s.step == 2:
        s.step = 3
        unclaimed = [t for t in s.content.start_techs if s.tech_owner[t] < 0]
        s.tech_deck.extend(unclaimed)  # IA-SET-16
        pushes = [seat for _ in range(6) for seat in seats]
        for seat in reversed(pushes):
            s.push(decision(seat, "place_start"))
    elif s.step == 3:
        s.step = 4
        for seat in range(s.n):
            s.res[seat] = (2, 2, 2, 2)  # IA-SET-18
        for pos in range(s.n - 1, 0, -1):
            adv, take = COMPENSATION[pos]
            s.push(decision(seats[pos], "comp", (adv, take, ())))
    else:
        s.phase = "turn"
        s.round = 1
        s.seat = s.start
        s.step = 0
        s.log("round 1 begins")


def keep_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.shadow_ids
    return [act("discard", ids[c]) for c in sorted(set(s.hands[d.seat]))]


def keep_apply(s: IAState, d: Decision, a: Act) -> None:
    discard_card(s, d.seat, s.content.shadow_index[a.a])
    if d.data[0] > 1:
        s.push(decision(d.seat, "keep", (d.data[0] - 1,)))


def tech_legal(s: IAState, d: Decision) -> list[Action]:
    ids = s.content.tech_ids
    return [act("start-tech", ids[t]) for t in s.content.start_techs if s.tech_owner[t] < 0]


def tech_apply(s: IAState, d: Decision, a: Act) -> None:
    t = s.content.tech_index[a.a]
    s.tech_owner[t] = d.seat
    s.known[d.seat] = s.known[d.seat] + (t,)
    s.log(f"P{d.seat} owns the starting tech {s.content.techs[a.a].name}")


_PLACE = tuple(act("place", name) for name in ACTIONS)


def place_legal(s: IAState, d: Decision) -> list[Action]:
    return list(_PLACE)


def place_apply(s: IAState, d: Decision, a: Act) -> None:
    act = ACTIONS.index(a.a)
    i = s.tokens[d.seat].index(-1)
    set_token(s, d.seat, i, act * 4)


def comp_legal(s: IAState, d: Decision) -> list[Action]:
    adv, take, done = d.data
    if adv:
        codes = sorted({c for i, c in enumerate(s.tokens[d.seat])
                        if c >= 0 and i not in done and can_advance(s, c)})
        from .actions import token_name

        out: list[Action] = [act("advance", token_name(c)) for c in codes]
        if out:
            return out
    return [act("take", r) for r in RES]


def comp_apply(s: IAState, d: Decision, a: Act) -> None:
    adv, take, done = d.data
    if a.verb == "advance":
        from .actions import parse_token

        code = parse_token(a.a)
        toks = s.tokens[d.seat]
        i = next(i for i, c in enumerate(toks) if c == code and i not in done)
        set_token(s, d.seat, i, code + 1)
        adv -= 1
        done = done + (i,)
    else:
        gain(s, d.seat, RES.index(a.a), 1)
        take -= 1
        if not any(
            c >= 0 and i not in done and can_advance(s, c)
            for i, c in enumerate(s.tokens[d.seat])
        ):
            adv = 0
    if adv or take:
        s.push(decision(d.seat, "comp", (adv, take, done)))


DECISIONS = {
    "keep": (keep_legal, keep_apply),
    "start_tech": (tech_legal, tech_apply),
    "place_start": (place_legal, place_apply),
    "comp": (comp_legal, comp_apply),
}
