"""Small helpers every rule module shares: resources, effects, tokens, fleets, planets.

Effects of TECHs a seat knows and of the planets it owns (special planets, kept colony
event markers) are looked up here through one hook vocabulary (docs/content), so a rule
asks ``bonus(s, seat, "raid_bonus")`` and never names a card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import LEVELS

if TYPE_CHECKING:  # pragma: no cover
    from .state import IAState

MAX_PLANETS = 8
"""Planet limit (IA-PLN-03)."""
MAX_SHIPS = 8
"""Fleet limit (IA-SHIP-07)."""
HAND_LIMIT = 7
"""Shadow hand limit (IA-SHA-04)."""
HOME = 4
"""Planet type index of a Home World."""


def gain(s: IAState, seat: int, r: int, n: int) -> None:
    """Add ``n`` of resource ``r`` (negative removes, never below 0: IA-RES-*)."""
    if n:
        res = list(s.res[seat])
        res[r] = max(0, res[r] + n)
        s.res[seat] = (res[0], res[1], res[2], res[3])


def can_pay(res: tuple[int, int, int, int], cost: tuple[int, ...]) -> bool:
    return res[0] >= cost[0] and res[1] >= cost[1] and res[2] >= cost[2] and res[3] >= cost[3]


def can_pay_exchanging(res: tuple[int, int, int, int], cost: tuple[int, ...]) -> bool:
    """Whether ``res`` can pay ``cost`` after 3:1 exchanges (IA-RES-02, ruling IA-OPEN-18:
    each exchange gives 3 of one type for 1 of any other): the whole-threes of each
    surplus must cover the total shortfall."""
    short = spare = 0
    for have, need in zip(res, cost, strict=False):
        if have < need:
            short += need - have
        else:
            spare += (have - need) // 3
    return spare >= short


def discard_card(s: IAState, seat: int, card: int) -> None:
    """Move one ``card`` from ``seat``'s Shadow hand face up to the Shadow discard: every
    seat sees which card left, so one thing others knew ``seat`` held is spent."""
    hand = list(s.hands[seat])
    hand.remove(card)
    s.hands[seat] = tuple(hand)
    s.shadow_discard.append(card)
    if s.seen_cards:
        forget_seen(s, seat, card)


def forget_seen(s: IAState, holder: int, card: int, knows: frozenset[int] | None = None) -> None:
    """Update ``seen_cards`` after ``holder`` lost one ``card``: each viewer in ``knows``
    (None: every seat, the card went face up) drops one matching entry; any other viewer
    cannot tell which card went (a random pilfer), so its entries on ``holder`` lapse."""
    out: list[tuple[int, int, int]] = []
    spent: set[int] = set()
    for v, h, x in s.seen_cards:
        if h == holder:
            if knows is not None and v not in knows:
                continue
            if x == card and v not in spent:
                spent.add(v)
                continue
        out.append((v, h, x))
    s.seen_cards = tuple(out)


def pay(s: IAState, seat: int, cost: tuple[int, ...]) -> None:
    r = s.res[seat]
    s.res[seat] = (r[0] - cost[0], r[1] - cost[1], r[2] - cost[2], r[3] - cost[3])


def bonus(s: IAState, seat: int, kind: str, arg: str | None = None) -> int:
    """Sum of ``kind`` hooks on the TECHs ``seat`` knows and the planets it owns
    (IA-TECH-03/04: an acquirer gets the same effect as the owner; IA-PLN-02/06)."""
    c = s.content
    total = 0
    for t in s.known[seat]:
        for k, n, a in c.tech_fx[t]:
            if k == kind and (arg is None or a == arg):
                total += n
    for p, _lvl, markers in s.planets[seat]:
        for k, n, a in c.planet_fx[p]:
            if k == kind and (arg is None or a == arg):
                total += n
        for e in markers:
            k, n, a = c.event_effect[e]
            if k == kind:
                total += n
    return total


def has_hook(fx: tuple[tuple[str, int, str], ...], kind: str) -> tuple[str, int, str] | None:
    for h in fx:
        if h[0] == kind:
            return h
    return None


# ---------------------------------------------------------------------- tokens
def ult_count(s: IAState, act: int) -> int:
    """Tokens of every seat in ``act``'s ULTIMATE slot (IA-TRK-07)."""
    code = act * 4 + 3
    return sum(t.count(code) for t in s.tokens)


def can_advance(s: IAState, code: int) -> bool:
    """A track token can move one slot right: not from ULTIMATE (IA-TRK-05) and not into
    a full ULTIMATE slot (IA-TRK-06..08)."""
    lvl = code & 3
    if lvl == 3:
        return False
    if lvl == 2:
        return ult_count(s, code >> 2) < s.ult_cap
    return True


def set_token(s: IAState, seat: int, index: int, code: int) -> None:
    t = list(s.tokens[seat])
    t[index] = code
    s.tokens[seat] = tuple(t)


def level_name(level: int) -> str:
    return LEVELS[level]


# ---------------------------------------------------------------------- fleets
def ship_label(s: IAState, ship: tuple[int, int]) -> str:
    """``destroyer`` or ``destroyer/1`` (one damage marker)."""
    sid = s.content.ship_ids[ship[0]]
    return f"{sid}/{ship[1]}" if ship[1] else sid


def find_ship(s: IAState, seat: int, label: str) -> int:
    for i, sh in enumerate(s.ships[seat]):
        if ship_label(s, sh) == label:
            return i
    raise ValueError(label)  # pragma: no cover - guarded by legality


def add_ship(s: IAState, seat: int, card: int) -> None:
    s.ships[seat] = s.ships[seat] + ((card, 0),)


def remove_ship(s: IAState, seat: int, index: int, to_discard: bool = True) -> None:
    """Remove a ship from a fleet; a MERC or EMERGENCY card goes to its discard pile."""
    ships = s.ships[seat]
    card = ships[index][0]
    s.ships[seat] = ships[:index] + ships[index + 1:]
    if to_discard:
        deck = s.content.ship_deck[card]
        if deck == "merc":
            s.merc_discard.append(card)
        elif deck == "emergency":
            s.emerg_discard.append(card)


def fleet_value(s: IAState, seat: int) -> int:
    """Total combat value, each ship reduced by its damage (ruling IA-OPEN-23)."""
    cv = s.content.ship_combat
    return sum(max(0, cv[c] - d) for c, d in s.ships[seat])


# ---------------------------------------------------------------------- planets
def planet_index(s: IAState, seat: int, pid: str) -> int:
    p = s.content.planet_index[pid]
    for i, rec in enumerate(s.planets[seat]):
        if rec[0] == p:
            return i
    raise ValueError(pid)  # pragma: no cover - guarded by legality


def set_level(s: IAState, seat: int, index: int, level: int) -> None:
    p, _old, markers = s.planets[seat][index]
    level = max(1, min(level, s.content.planet_max[p]))  # IA-PLN-05
    pl = list(s.planets[seat])
    pl[index] = (p, level, markers)
    s.planets[seat] = tuple(pl)


def remove_planet(s: IAState, seat: int, index: int) -> tuple[int, int, tuple[int, ...]]:
    pl = s.planets[seat]
    rec = pl[index]
    s.planets[seat] = pl[:index] + pl[index + 1:]
    return rec


def discard_planet(s: IAState, rec: tuple[int, int, tuple[int, ...]]) -> None:
    """A discarded planet goes to the planet discard; its kept events are discarded too
    and their markers return to the pool (IA-COL-05)."""
    s.planet_discard.append(rec[0])
    s.colony_discard.extend(rec[2])


def refill_planets(s: IAState, ptype: int) -> None:
    """Fill empty face-up slots of a type stack from that stack; an exhausted stack takes
    back the discarded planets of its type (IA-COLN-08/09, ruling IA-OPEN-10)."""
    slots = s.planet_slots[ptype]
    deck = s.planet_decks[ptype]
    for i, v in enumerate(slots):
        if v < 0:
            if not deck:
                types = s.content.planet_type
                back = [p for p in s.planet_discard if types[p] == ptype]
                if back:
                    s.planet_discard = [p for p in s.planet_discard if types[p] != ptype]
                    deck.extend(back)
            if deck:
                j = int(s.rng.random() * len(deck))
                slots[i] = deck[j]
                deck[j] = deck[-1]
                deck.pop()


def refill_techs(s: IAState) -> None:
    for i, v in enumerate(s.tech_slots):
        if v < 0:
            s.tech_slots[i] = s.draw(s.tech_deck, s.tech_discard)


def refill_mercs(s: IAState) -> None:
    for i, v in enumerate(s.merc_slots):
        if v < 0:
            s.merc_slots[i] = s.draw(s.merc_deck, s.merc_discard)


def add_medal(s: IAState, seat: int, fleet: int = 0, shadow: int = 0) -> None:
    f, sh = s.medals[seat]
    s.medals[seat] = (f + fleet, sh + shadow)


def add_stat(s: IAState, seat: int, index: int) -> None:
    st = list(s.stats[seat])
    st[index] += 1
    s.stats[seat] = (st[0], st[1], st[2])


def opponents(s: IAState, seat: int) -> list[int]:
    return [o for o in range(s.n) if o != seat]
