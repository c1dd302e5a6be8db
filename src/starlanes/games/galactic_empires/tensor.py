"""Galactic Empires' observation tensor: a flat float32 vector of ``observation(seat)``.

Seats are written relative to the observer (slot 0 is the observer, slot 1 the next seat
in seat order ...), one slot per seat at this player count. Cards are the card ids of the
content's decks, in the content's order (``action_space.copy_caps``); a card in play sits
in the **unit slot** of its owner, card id and copy rank, as the action space names it
(``blue_giant:1@0`` is unit slot "second blue giant" of seat slot 0). Hidden things are
left out as the observation leaves them out: the other seats' hands and reserve fleets
(only their sizes) and the order of every deck. Layout, in order (docs/research.md lists
the same):

1. head: 10 phase flags (``PHASES``); observer to act; observer's turn; the seat to act,
   the player turn's seat and the first player (seat slot flags each); round; card plays
   made this turn; ship plays made; draw allowance; the 7 points of the pool (energy,
   supply, ammo, research, repair, healing, economy); decisions on the stack, counted per
   kind (``DECISIONS``).
2. per seat slot: alive; Sector HQ damage; major empire (one flag per empire of the
   content); player turns taken; hand size; reserve fleet size; cards left to draw from
   (his deck, or the shared deck); discard pile size (his, or the shared one); his Sector
   HQ aimed at now, fired at this phase, the target of the pending fire or card; his
   fleet the target of the pending card.
3. the observer's hand (copies of each card); his reserve fleet slot by slot, in the
   order the action space's reserve slots ``Rj`` follow (one flag per card each); every
   discard pile together (copies of each card); the ship or base the observer's Salvage
   would take (one flag per card).
4. the pending fire or card (reaction windows): fire; card; damage allocated; the card
   played (one flag per card) and the seat slot that played it; the reactions and the
   counters played on it (copies of each card).
5. per seat slot and unit slot (``UNIT_FEATURES`` values each, all 0 for an empty slot):
   present; Engaged; one Krebiz component Engaged (GE-EMP-KRB-15); shield, structural and
   permanent damage; research points; ammunition and energy allocated; joined this turn
   and may not fire; came into play this turn; separated this turn; turns left of a
   duration card; function operated this turn; the unit slot number + 1 of the card it
   sits on (0: none) and of its Krebiz partner (0: none); cards sitting on it; the seat
   slot it is played against (one flag per seat, hazards, monsters, lasting occurrences);
   fired and picked for the attack being built, per weapon slot (``WEAPON_SLOTS`` each);
   aimed at now; fired at this phase; target of the pending fire or card; among the
   pending fire's firers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlanes.engine.game import per_content
from starlanes.engine.tensor_rows import float32_row

from .action_space import copy_caps, reserve_order, weapon_slots
from .actions import fleet_code, hq_code

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card
    from .game import GalacticEmpires
    from .state import GEState

PHASES = ("alloc", "engage", "playA", "fire", "aim", "playB", "discard", "draw", "end",
          "over")
DECISIONS = ("react", "counter", "split", "place", "celebrate")
LASTING = frozenset({"time_warp", "economic_crisis"})
UNIT_BASE = 17
"""Unit features before the against-seat flags (see the module docstring)."""


def stays_in_play(c: Card) -> bool:
    """Cards that remain in play once played (instant occurrences, Sector HQ cards and
    reaction cards are discarded at once, GE-REM-04)."""
    return c.type in "TSBDCEHM" or any(e.kind in LASTING for e in c.effects)


class _Layout:
    """Named offsets of one content's tensor at one player count."""

    def __init__(self, game: GalacticEmpires) -> None:
        c = game.content
        n = self.n = game.players
        caps = copy_caps(c)
        self.cards = tuple(caps)
        self.card_index = {k: i for i, k in enumerate(self.cards)}
        self.empires = tuple(c.empires)
        self.empire_index = {k: i for i, k in enumerate(self.empires)}
        self.weapons = max((len(weapon_slots(c.cards[k])) for k in self.cards), default=0)
        #: card id -> unit slot number of its copy 0 (copies follow)
        self.slot0: dict[str, int] = {}
        slots = 0
        for k in self.cards:
            if stays_in_play(c.cards[k]):
                self.slot0[k] = slots
                slots += caps[k]
        self.caps = caps
        self.slots = slots
        self.unit_size = UNIT_BASE + n + 2 * self.weapons + 4
        self.seat_size = 11 + len(self.empires)
        nc = len(self.cards)
        sizes = [
            ("head", len(PHASES) + 2 + 3 * n + 4 + 7 + len(DECISIONS)),
            ("seats", n * self.seat_size),
            ("cards", 3 * nc + n * nc),
            ("pending", 3 + nc + n + 2 * nc),
            ("units", n * slots * self.unit_size),
        ]
        self.at: dict[str, int] = {}
        pos = 0
        for name, size in sizes:
            self.at[name] = pos
            pos += size
        self.size = pos
        self._numbers_at: dict[int, Any] = {}

    def numbers_at(self, seat: int) -> Any:
        """Positions, for observer ``seat``, of every seat's numbers in seat order: alive,
        Sector HQ damage, then turns taken .. his fleet the target of the pending card
        (section 2, the empire flags aside)."""
        got = self._numbers_at.get(seat)
        if got is None:
            import numpy as np

            at: list[int] = []
            for o in range(self.n):
                q = self.at["seats"] + ((o - seat) % self.n) * self.seat_size
                at += (q, q + 1)
                q += 2 + len(self.empires)
                at += range(q, q + 9)
            got = self._numbers_at[seat] = np.array(at, dtype=np.intp)
        return got


def layout(game: GalacticEmpires) -> _Layout:
    """The layout of ``game``'s content and player count (built once, then shared)."""
    return per_content(game, _Layout)


def shape(game: GalacticEmpires) -> tuple[int]:
    """``(n,)``: the vector's length for this content and player count."""
    return (layout(game).size,)


_INDEX: dict[int, tuple[tuple[str, ...], Any, list[int]]] = {}


def _card_index(lay: _Layout, defs: tuple[str, ...]) -> tuple[Any, list[int]]:
    """Card instance -> its card's index in ``lay.cards``, as a numpy array and a list,
    cached per deal list. Raises ValueError for a card of no deck of the content (no game
    deals one)."""
    got = _INDEX.get(id(defs))
    if got is None or got[0] is not defs:
        import numpy as np

        stray = [c for c in defs if c not in lay.card_index]
        if stray:
            raise ValueError(f"{stray[0]!r} is in no deck of the content: the observation "
                             "tensor has no place for it")

        index = [lay.card_index[c] for c in defs]
        got = _INDEX[id(defs)] = (defs, np.array(index, dtype=np.intp), index)
    return got[1], got[2]


def encode(state: GEState, seat: int) -> Any:
    """The tensor of ``observation(seat)`` (see the module docstring)."""
    import numpy as np

    s = state
    lay = layout(s.game)
    out = np.zeros(lay.size, dtype=np.float32)
    n = s.n
    nc = len(lay.cards)
    index, cidx = _card_index(lay, s.defs)
    keys: list[int] = []  # sparse writes, done together at the end
    vals: list[float] = []
    # 1. head
    p = lay.at["head"]
    if s.phase in PHASES:
        keys.append(p + PHASES.index(s.phase))
    p += len(PHASES)
    actor = s.current_player()
    if actor == seat:
        keys.append(p)
    if s.seat == seat:
        keys.append(p + 1)
    if actor >= 0:
        keys.append(p + 2 + (actor - seat) % n)
    keys.append(p + 2 + n + (s.seat - seat) % n)
    keys.append(p + 2 + 2 * n + (s.first - seat) % n)
    vals += [1.0] * len(keys)
    p += 2 + 3 * n
    out[p:p + 11] = (s.round, s.plays, s.ship_plays, s.draw_allow, *s.pool)
    p += 11
    if s.stack:
        waiting: dict[int, int] = {}
        for d in s.stack:
            k = p + DECISIONS.index(d.kind)
            waiting[k] = waiting.get(k, 0) + 1
        keys += waiting
        vals += waiting.values()
    # 2. seats
    pend = s.pending
    target = pend[1] if pend and pend[0] == "fire" else pend[2] if pend else None
    basic = s.structure == "basic"
    aim, fired_at = s.aim, s.fired_at
    numbers: list[Any] = []  # every seat's numbers, in seat order (lay.numbers_at)
    for o in range(n):
        if s.major[o]:
            keys.append(lay.at["seats"] + ((o - seat) % n) * lay.seat_size + 2
                        + lay.empire_index[s.major[o]])
            vals.append(1.0)
        hq = hq_code(o)
        deck = s.decks[0] if basic else s.decks[o]
        pile = s.discards[0] if basic else s.discards[o]
        numbers += (s.alive[o], s.hq[o], s.turns[o], len(s.hands[o]), len(s.reserve[o]),
                    len(deck) + (len(pile) if basic else 0), len(pile),
                    aim == hq, hq in fired_at, target == hq, target == fleet_code(o))
    out[lay.numbers_at(seat)] = float32_row(tuple(numbers))  # each distinct list converted once
    # 3. cards
    q = lay.at["cards"]
    counts: dict[int, int] = {}
    for i in s.hands[seat]:
        k = q + cidx[i]
        counts[k] = counts.get(k, 0) + 1
    keys += counts
    vals += counts.values()
    q += nc
    reserve = s.reserve[seat]
    if reserve:  # kept per observer while his reserve fleet holds the same cards
        got = _RESERVE.get(seat)
        if got is None or got[0] is not lay or got[1] is not s.defs or got[2] != reserve:
            at = [q + j * nc + cidx[i] for j, i in enumerate(reserve_order(s, seat))]
            got = _RESERVE[seat] = (lay, s.defs, reserve[:], at)
        keys += got[3]
        vals += [1.0] * len(got[3])
    q += n * nc
    kept = _DISCARDS
    if kept[0] is not s.defs or kept[1] != s.discards:  # kept while the piles are the same
        piles = s.discards[0] if len(s.discards) == 1 else [i for pl in s.discards for i in pl]
        counts = np.bincount(index[piles], minlength=nc) if piles else None
        kept[:] = (s.defs, [d[:] for d in s.discards], counts, {})
    if kept[2] is not None:
        out[q:q + nc] = kept[2]
    q += nc
    salvage = kept[3].get(seat)
    if salvage is None:
        salvage = kept[3][seat] = -1
        for i in reversed(s.discards[0] if basic else s.discards[seat]):
            if s.card(i).type in "SBD":
                salvage = kept[3][seat] = cidx[i]
                break
    if salvage >= 0:
        keys.append(q + salvage)
        vals.append(1.0)
    # 4. pending
    q = lay.at["pending"]
    firers: tuple = ()
    if pend:
        if pend[0] == "fire":
            out[q] = 1
            out[q + 2] = pend[2]
            firers = pend[3]
        else:
            out[q + 1] = 1
            out[q + 3 + cidx[pend[1]]] = 1
            out[q + 3 + nc + (pend[3] - seat) % n] = 1
        r = q + 3 + nc + n
        for part in (pend[4] if len(pend) > 4 else (), pend[5] if len(pend) > 5 else ()):
            for inst, _ in part:
                out[r + cidx[inst]] += 1
            r += nc
    # 5. units
    if s.units:  # kept per observer while every input of the units' part is the same
        sig = (lay, list(s.units.items()), s.turns[:], s.aim, s.fired_at[:], s.picks[:],
               target, firers)
        kept = _UNITS.get(seat)
        if kept is None or kept[0] != sig:
            k0, v0 = len(keys), len(vals)
            _units(s, seat, lay, keys, vals, target, firers)
            if len(_UNITS) > 64:
                _UNITS.clear()
            _UNITS[seat] = (sig, keys[k0:], vals[v0:])
        else:
            keys += kept[1]
            vals += kept[2]
    out[np.fromiter(keys, np.intp, len(keys))] = np.fromiter(vals, np.float32, len(vals))
    return out


_DISCARDS: list[Any] = [None, None, None, None]
"""The discard piles last encoded: the deal list they index, a copy of the piles, every
pile's copies per card (None when all are empty), and per observer the card index of the
ship or base his Salvage would take (-1: none)."""

_RESERVE: dict[int, tuple[_Layout, tuple[str, ...], list[int], list[int]]] = {}
"""Per observer seat: the layout, deal list and copy of his reserve fleet last encoded, and
their tensor positions (section 3)."""

_UNITS: dict[int, tuple[tuple, list[int], list[Any]]] = {}
"""Per observer seat: the inputs of the units' part last encoded for him (layout, units in
play, turns taken, aim, fired at, picks, pending target and firers) and its sparse writes."""

_ROWS: dict[tuple[Any, int], tuple[tuple[int, ...], tuple[Any, ...]]] = {}
"""(unit, its owner's turns taken) -> the offsets and values of the nonzero features among
a unit's first 14 (those that depend on nothing else); cleared past ``_ROWS_CAP``."""
_ROWS_CAP = 1 << 16


def _row(u: Any, t: int) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    row = (1, u.engaged, u.half >= 0, u.sdmg, u.dmg, u.perm, u.rdmg, u.ammo, u.charge,
           u.nofire, u.turn_in == t, u.split == t, max(u.left, 0), u.used)
    offs = tuple(k for k, x in enumerate(row) if x)
    return offs, tuple(row[k] for k in offs)


def _units(s: GEState, seat: int, lay: _Layout, keys: list[int], vals: list[float],
           target: Any, firers: tuple) -> None:
    units = s.units
    n = s.n
    slot0 = lay.slot0
    per = lay.slots
    size = lay.unit_size
    base = lay.at["units"]
    turns = s.turns
    seen: dict[tuple[int, str], int] = {}
    where: dict[int, int] = {}
    at: dict[int, int] = {}  # a unit's first feature
    owner_at = [base + ((o - seat) % n) * per * size for o in range(n)]
    for i in sorted(units):
        u = units[i]
        k = (u.owner, u.card)
        rank = seen.get(k, 0)
        seen[k] = rank + 1
        w = where[i] = slot0[u.card] + rank
        at[i] = owner_at[u.owner] + w * size
    wpn = lay.weapons
    aim, fired_at = s.aim, s.fired_at
    attached: dict[int, int] = {}
    flags = (aim, target)
    rows = _ROWS
    if len(rows) > _ROWS_CAP:
        rows.clear()
    for i, u in units.items():
        b = at[i]
        t = turns[u.owner]
        got = rows.get((u, t))
        if got is None:
            got = rows[u, t] = _row(u, t)
        keys += [b + k for k in got[0]]
        vals += got[1]
        if u.host >= 0:
            keys.append(b + 14)
            vals.append(where[u.host] + 1)
        if u.partner >= 0:
            keys.append(b + 15)
            vals.append(where[u.partner] + 1)
        if u.host >= 0:
            k = owner_at[u.owner] + where[u.host] * size + 16
            attached[k] = attached.get(k, 0) + 1
        if u.against >= 0:
            keys.append(b + UNIT_BASE + (u.against - seat) % n)
            vals.append(1)
        w = b + UNIT_BASE + n
        if u.fired:
            for j in range(wpn):
                if u.fired >> j & 1:
                    keys.append(w + j)
                    vals.append(1)
        w += 2 * wpn
        if i in flags or i in fired_at or i in firers:
            for k, x in enumerate((i == aim, i in fired_at, i == target, i in firers), w):
                if x:
                    keys.append(k)
                    vals.append(1)
    for i, j in s.picks:
        keys.append(owner_at[units[i].owner] + where[i] * size + UNIT_BASE + n + wpn + j)
        vals.append(1)
    keys += attached
    vals += attached.values()
