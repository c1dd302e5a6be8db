"""Interstellar Ambitions' observation tensor: a flat float32 vector of ``observation(seat)``.

Seats are written relative to the observer (slot 0 is the observer, slot 1 the next seat
clockwise ...), padded to six, so the length depends only on the content. Counts are raw
numbers. Left out, as the observation leaves them out: other seats' Shadow hands (only
their sizes and the cards the observer saw go into them), the order and contents of every
face-down pile (only sizes), another seat's Buy offer (only its size) and combat orders
not yet revealed (only which places are filled, damaged ships' places excepted once the
fight is open). Layout, in order (docs/research.md lists the same):

1. head: phase flags (setup, turn, over); step flags (0..5 of the set-up stages or of
   the turn); round; round / round limit; observer to act; seat slot flags of the seat
   whose turn it is, of the start player and of the seat to act; game end triggered;
   trigger seat slot flags; final turns left; pile sizes (Shadow, Tech, Merc, Emergency,
   Colony Event, the four planet stacks); Buy offer size; the observer's own Buy offer
   (copies per Shadow card).
2. pending decision: kind flags (``DECISIONS``); Action level flags (for colonise,
   develop, build, research, shadow and fleet decisions); two counts of what is left
   (``COUNTS``); a Shadow Check's card flags, target seat slot, checking seat slot,
   modifier, boosts and opposes.
3. per seat slot (6): present; food, ore, science, coin; hand size; tokens per track
   code (24 counts) and in the pool; fleet and shadow medals; raids won, captures, techs
   taken; techs known (flag per tech); techs owned (flag per tech); ships per label
   (count per card and damage, as ``action_space.ship_labels``); the Shadow cards the
   observer saw go into that hand (copies per card; zero for the observer's own slot);
   Ambitions claimed (claim position, 1st = 1, per ambition in content order).
4. the observer's hand (copies per Shadow card).
5. per planet (content order): owner seat slot flags; level; face up in a stack
   slot; in the discard; colonised before; kept Colony Event markers (flag per event).
6. per tech: face up in a tech slot; in the discard.
7. ship piles: face-up Merc slots, Merc discard, Emergency discard (copies per ship card).
8. Shadow discard (copies per card); Colony Event discard (copies per event).
9. Ambitions: in play (flag per ambition in content order).
10. combat: active; raid; invade; Action level flags; stage flags (``STAGES``);
    attacker and defender seat slot flags; orders committed (attacker, defender);
    unmatched shots fired; totals (attacker, defender); per side (attacker, defender) and
    ship card: ships in the fight, destroyed before the battle, left the battle,
    destroyed by damage, damage on ships in the fight; per side and order place (8):
    filled, face down, ship card flags, damage.
"""

from __future__ import annotations

from itertools import compress
from operator import is_
from typing import TYPE_CHECKING, Any

from starlanes.engine.game import per_content

from .action_space import POSITIONS, ship_labels
from .combat import Combat
from .rules import DECISIONS as _RULES

if TYPE_CHECKING:  # pragma: no cover
    from .game import InterstellarAmbitions
    from .state import IAState

SLOTS = 6
"""Seat slots: the game's largest player count (IA-SET-01)."""
PHASES = ("setup", "turn", "over")
DECISIONS = tuple(sorted(_RULES))
"""Decision kinds, in the order of their flags."""
LEVELLED = frozenset({"colonise", "develop", "build", "research", "shadow_mode", "fleet"})
"""Decisions whose data starts with the Action's planning level."""
COUNTS: dict[str, tuple[int, ...]] = {
    "keep": (0,), "place": (0,), "home_pick": (0,), "dev_pay": (0,), "steal": (0,),
    "disrupt": (0,), "hire": (0,), "def_repair": (0,), "comp": (0, 1), "develop": (1,),
    "research": (1,), "build": (1, 2),
}
"""Decision kind -> positions in its data of the counts encoded (cards still to discard,
tokens to place, resources to pick, pay or steal, tokens to disrupt, mercs to hire, damage
repaired, compensation tokens and resources, planets to develop, techs to research, ships
to build and damage repaired)."""
STAGES = ("emergency", "emergency_draw", "prebattle", "order", "fight", "unmatched",
          "result", "repair", "done")


class _Layout:
    """Named offsets of one content's tensor, and position tables that turn a state's
    lists of card, planet or token numbers straight into tensor positions (a table made
    by ``_table`` sends -1, an empty slot, to ``trash``, one past the end)."""

    def __init__(self, game: InterstellarAmbitions) -> None:
        c = game.content
        self.nt, self.nc = len(c.tech_ids), len(c.shadow_ids)
        self.np, self.ne = len(c.planet_ids), len(c.event_ids)
        self.ns, self.na = len(c.ship_ids), len(c.ambition_ids)
        self.labels = ship_labels(c)
        self.decision_index = {k: i for i, k in enumerate(DECISIONS)}
        self.stage_index = {k: i for i, k in enumerate(STAGES)}
        nt, nc, npl, ne, ns, na = self.nt, self.nc, self.np, self.ne, self.ns, self.na
        self.seat_size = (1 + 4 + 1 + 24 + 1 + 2 + 3 + 2 * nt + len(self.labels) + nc + na)
        self.planet_size = SLOTS + 4 + ne
        self.side_size = ns * 5 + len(POSITIONS) * (2 + ns + 1)
        sizes = [
            ("head", len(PHASES) + 6 + 2 + 1 + 3 * SLOTS + 1 + SLOTS + 1 + 9 + 1 + nc),
            ("decision", len(DECISIONS) + 4 + 2 + nc + 2 * SLOTS + 3),
            ("seats", SLOTS * self.seat_size),
            ("hand", nc),
            ("planets", npl * self.planet_size),
            ("techs", 2 * nt),
            ("piles", 3 * ns),
            ("discards", nc + ne),
            ("ambitions", na),
            ("combat", 3 + 4 + len(STAGES) + 2 * SLOTS + 2 + 1 + 2 + 2 * self.side_size),
        ]
        self.at: dict[str, int] = {}
        pos = 0
        for name, size in sizes:
            self.at[name] = pos
            pos += size
        self.size = pos
        self.trash = pos
        at, ps = self.at, self.planet_size
        self.offer = self._table(at["head"] + 48, nc)
        self.hand = self._table(at["hand"], nc)
        self.planet = tuple(at["planets"] + pl * ps for pl in range(npl))
        self.planet_up = self._table(at["planets"] + SLOTS + 1, npl, ps)
        self.planet_gone = self._table(at["planets"] + SLOTS + 2, npl, ps)
        self.planet_done = self._table(at["planets"] + SLOTS + 3, npl, ps)
        self.tech_up = self._table(at["techs"], nt, 2)
        self.tech_gone = self._table(at["techs"] + 1, nt, 2)
        self.merc_up = self._table(at["piles"], ns)
        self.merc_gone = self._table(at["piles"] + ns, ns)
        self.emerg_gone = self._table(at["piles"] + 2 * ns, ns)
        self.shadow_gone = self._table(at["discards"], nc)
        self.event_gone = self._table(at["discards"] + nc, ne)
        self.ambition = self._table(at["ambitions"], na)
        self.seat: list[dict[str, Any]] = []
        for k in range(SLOTS):
            q = at["seats"] + k * self.seat_size
            ships = {}
            for i, lb in enumerate(self.labels):
                sid, _, dmg = lb.partition("/")
                ships[(c.ship_index[sid], int(dmg or 0))] = q + 36 + 2 * nt + i
            self.seat.append({
                "at": q,
                "tokens": tuple(range(q + 6, q + 31)),  # code -1 (the pool) is the last
                "known": self._table(q + 36, nt),
                "owned": self._table(q + 36 + nt, nt),
                "ships": ships,
                "seen": self._table(q + 36 + 2 * nt + len(self.labels), nc),
                "claims": q + 36 + 2 * nt + len(self.labels) + nc,
                "numbers": (q + 1, q + 2, q + 3, q + 4, q + 5, q + 31, q + 32, q + 33,
                            q + 34, q + 35),
            })
        #: per seat slot and seat (``slot * SLOTS + seat``), the last seat part encoded
        #: there (see ``_seat_all``)
        self.seat_cache: list[Any] = [None] * (SLOTS * SLOTS)
        #: copies of the tech owners, claims and ambitions in play and the seen cards
        #: (a tuple the state replaces) last met, and a number that grows when they differ
        self.shared_cache: tuple = (None, None, None, None, 0)
        #: the last piles encoded (copies) and their counted positions (see ``encode``)
        self.piles_cache: tuple | None = None

    def _table(self, start: int, count: int, step: int = 1) -> tuple[int, ...]:
        return (*range(start, start + count * step, step), self.trash)


def layout(game: InterstellarAmbitions) -> _Layout:
    """The layout of ``game``'s content (the same at every player count; built once)."""
    return per_content(game, _Layout, by_players=False)


def shape(game: InterstellarAmbitions) -> tuple[int]:
    """``(n,)``: the vector's length for this content (the same at every player count)."""
    return (layout(game).size,)


def encode(state: IAState, seat: int) -> Any:
    """The tensor of ``observation(seat)``: float32, shape :func:`shape`, laid out as the
    module docstring says. ``seat`` is an integer seat (numpy integers too); anything else
    raises BadSeatError."""
    import numpy as np

    s = state
    n = s.n
    if type(seat) is not int or not 0 <= seat < n:
        if not isinstance(seat, (int, bool)) and hasattr(seat, "__index__"):
            seat = seat.__index__()
        s._check_seat(seat)
    lay = layout(s.game)
    f: list[int] = []  # positions of counts: each entry adds 1 there
    nx: list[int] = []  # positions of other numbers (each written once) ...
    nv: list[float] = []  # ... and their values
    flag = f.append

    slot = [(x - seat) % n for x in range(n)]

    # 1. head
    p = lay.at["head"]
    flag(p + PHASES.index(s.phase))
    flag(p + 3 + min(s.step, 5))
    p += 9
    cur = s.current_player()
    nx.extend((p, p + 1))
    nv.extend((s.round, s.round / s.options["round_limit"]))
    if cur == seat:
        flag(p + 2)
    flag(p + 3 + slot[s.seat])
    flag(p + 3 + SLOTS + slot[s.start])
    if cur >= 0:
        flag(p + 3 + 2 * SLOTS + slot[cur])
    p += 3 + 3 * SLOTS
    if s.end_trigger >= 0:
        flag(p)
        flag(p + 1 + slot[s.end_trigger])
    q = p + 1 + SLOTS
    nx.extend(range(q, q + 11))
    decks = s.planet_decks
    nv.extend((s.final_left, len(s.shadow_deck), len(s.tech_deck), len(s.merc_deck),
               len(s.emerg_deck), len(s.colony_deck), len(decks[0]), len(decks[1]),
               len(decks[2]), len(decks[3]), len(s.offer)))
    top = s.stack[-1] if s.stack else None
    if s.offer and top is not None and top.seat == seat:
        f.extend(map(lay.offer.__getitem__, s.offer))
    # 2. pending decision
    if top is not None:
        _decision(lay, top, slot, f, nx, nv)
    # 3. seats
    cache = lay.seat_cache
    shared = lay.shared_cache  # the inputs every seat's part reads beside its own
    if (shared[1] is not s.seen_cards or shared[0] != s.tech_owner or shared[2] != s.claims
            or shared[3] != s.ambitions):
        shared = lay.shared_cache = (s.tech_owner[:], s.seen_cards, s.claims[:],
                                     s.ambitions[:], shared[4] + 1)
    gen = shared[4]
    for i, parts in enumerate(zip(s.res, s.hands, s.medals, s.stats, s.tokens, s.known,
                                  s.ships, strict=True)):
        o = slot[i]
        got = cache[o * SLOTS + i]
        if got is None or got[3] != gen or got[4] != seat or not all(map(is_, got[0], parts)):
            got = cache[o * SLOTS + i] = _seat_all(s, lay.seat[o], parts, i, seat, gen)
        f.extend(got[1])
        nx.extend(got[5])
        nv.extend(got[2])
    # 4. own hand
    f.extend(map(lay.hand.__getitem__, s.hands[seat]))
    # 5. planets
    base = lay.planet
    for i in range(n):
        o = slot[i]
        for pl, lvl, markers in s.planets[i]:
            q = base[pl]
            flag(q + o)
            nx.append(q + SLOTS)
            nv.append(lvl)
            for e in markers:
                flag(q + SLOTS + 4 + e)
    # the rest of 5, then 6. techs, 7. ship piles, 8. discards, 9. ambitions: the same
    # for every observer, kept while the piles hold the same cards
    piles = (s.planet_slots, s.planet_discard, s.colonised, s.tech_slots, s.tech_discard,
             s.merc_slots, s.merc_discard, s.emerg_discard, s.shadow_discard,
             s.colony_discard, s.ambitions)
    kept = lay.piles_cache
    if kept is None or kept[0] != piles:
        kept = lay.piles_cache = (_copy_piles(piles), _piles_part(lay, piles))
    f.extend(kept[1])
    # 10. combat
    if s.combat is not None:
        _combat(lay, s.combat, seat, slot, f, nx, nv)
    out = np.bincount(np.array(f, dtype=np.intp), minlength=lay.size + 1)[:lay.size].astype(
        np.float32)
    out[np.array(nx, dtype=np.intp)] = np.array(nv, dtype=np.float32)
    return out


def _copy_piles(piles: tuple) -> tuple:
    """A copy of the piles ``encode`` reads, of the same types, so that it compares equal
    while they hold the same cards (the state changes its lists in place)."""
    return ([x[:] for x in piles[0]], *(x[:] for x in piles[1:]))


def _piles_part(lay: _Layout, piles: tuple) -> list[int]:
    """The counted positions of the piles (see ``encode``): planet stack slots, planet
    discard, colonised flags, tech slots and discard, Merc slots and discard, Emergency,
    Shadow and Colony Event discards, Ambitions in play."""
    (planet_slots, planet_discard, colonised, tech_slots, tech_discard, merc_slots,
     merc_discard, emerg_discard, shadow_discard, colony_discard, ambitions) = piles
    f: list[int] = []
    up = lay.planet_up.__getitem__
    for slots in planet_slots:
        f.extend(map(up, slots))
    f.extend(map(lay.planet_gone.__getitem__, planet_discard))
    f.extend(compress(lay.planet_done, colonised))
    f.extend(map(lay.tech_up.__getitem__, tech_slots))
    f.extend(map(lay.tech_gone.__getitem__, tech_discard))
    f.extend(map(lay.merc_up.__getitem__, merc_slots))
    f.extend(map(lay.merc_gone.__getitem__, merc_discard))
    f.extend(map(lay.emerg_gone.__getitem__, emerg_discard))
    f.extend(map(lay.shadow_gone.__getitem__, shadow_discard))
    f.extend(map(lay.event_gone.__getitem__, colony_discard))
    f.extend(map(lay.ambition.__getitem__, ambitions))
    return f


def _seat_all(s: IAState, tab: dict[str, Any], parts: tuple, i: int, seat: int,
              gen: int) -> tuple:
    """Section 3 of seat ``i`` in seat slot ``tab`` seen by ``seat``: ``(parts, counted
    positions, number values, gen, seat, number positions)``, kept by ``encode`` while the
    seat's parts are the same objects, ``seat`` the same and the shared inputs unchanged
    (``gen``): its seat part, the techs it owns, the Shadow cards ``seat`` saw go into its
    hand and its Ambition claims."""
    f, numbers = _seat_part(tab, parts)
    known = parts[5]
    if known:
        owned, owner = tab["owned"], s.tech_owner
        f.extend([owned[t] for t in known if owner[t] == i])
    if i != seat and s.seen_cards:
        seen = tab["seen"]
        f.extend([seen[x] for v, h, x in s.seen_cards if v == seat and h == i])
    nx, nv = list(tab["numbers"]), list(numbers)
    for a, claims in enumerate(s.claims):
        if i in claims:
            nx.append(tab["claims"] + s.ambitions[a])
            nv.append(claims.index(i) + 1)
    return parts, f, nv, gen, seat, nx


def _seat_part(tab: dict[str, Any], parts: tuple) -> tuple[list[int], tuple]:
    """Section 3's counted positions (all but owned techs) and number values of one seat
    slot ``tab`` from the seat's ``(res, hand, medals, stats, tokens, known, ships)``
    (tuples the state replaces, never changes: ``encode`` keeps the answer while they are
    the same objects)."""
    r, hand, m, st, tokens, known, ships = parts
    f = [tab["at"]]
    f.extend(map(tab["tokens"].__getitem__, tokens))
    f.extend(map(tab["known"].__getitem__, known))
    f.extend(map(tab["ships"].__getitem__, ships))
    return f, (r[0], r[1], r[2], r[3], len(hand), m[0], m[1], st[0], st[1], st[2])


def _decision(lay: _Layout, d: Any, slot: list[int], f: list[int], nx: list[int],
              nv: list[float]) -> None:
    """Section 2 for the decision ``d`` on top of the stack."""
    p = lay.at["decision"]
    kind = d.kind
    f.append(p + lay.decision_index[kind])
    p += len(DECISIONS)
    data = d.data
    if kind in LEVELLED:
        f.append(p + data[0])
    for k, at in enumerate(COUNTS.get(kind, ())):
        nx.append(p + 4 + k)
        nv.append(data[at])
    if kind == "advance_more":
        nx.append(p + 4)
        nv.append(len(data))
    p += 6
    if kind in ("boost", "oppose"):
        card, _arg, target, mod, boosts, opposes = data[:6]
        checker = d.seat if kind == "boost" else data[6]
        f.append(p + card)
        p += lay.nc
        f.append(p + slot[target])
        f.append(p + SLOTS + slot[checker])
        p += 2 * SLOTS
        nx.extend((p, p + 1, p + 2))
        nv.extend((mod, boosts, opposes))


def _combat(lay: _Layout, cb: Combat, seat: int, slot: list[int], f: list[int], nx: list[int],
            nv: list[float]) -> None:
    """Section 10 for the fight ``cb`` as ``seat`` sees it (Combat.view's rules)."""
    p = lay.at["combat"]
    f.append(p)
    f.append(p + (1 if cb.kind == "raid" else 2))
    f.append(p + 3 + cb.level)
    p += 7
    f.append(p + lay.stage_index[cb.stage])
    p += len(STAGES)
    f.append(p + slot[cb.seats[0]])
    f.append(p + SLOTS + slot[cb.seats[1]])
    p += 2 * SLOTS
    choices = cb.secret.choices
    for side in (0, 1):
        if cb.seats[side] in choices:
            f.append(p + side)
    nx.extend((p + 2, p + 3, p + 4))
    nv.extend((cb.cursor, cb.totals[0], cb.totals[1]))
    p += 5
    ns = lay.ns
    place = 2 + ns + 1
    for side in (0, 1):
        q = p + side * lay.side_size
        ents = cb.entries[side]
        for card, dmg, _pos, status in ents:
            f.append(q + card * 5 + status)
            if status == 0 and dmg:
                f.extend((q + card * 5 + 4,) * dmg)  # one count per damage marker
        q += ns * 5
        owner = cb.seats[side]
        seq = choices.get(owner, cb.partial[side])
        shown = cb.secret.revealed or owner == seat
        for k, e in enumerate(seq):
            r = q + k * place
            card, dmg = ents[e][0], ents[e][1]
            f.append(r)
            if shown or (cb.open and dmg):
                f.append(r + 2 + card)
                nx.append(r + 2 + ns)
                nv.append(dmg)
            else:
                f.append(r + 1)
