"""Position tables and canvases behind ``tensor.encode``.

The observation tensor is a sum of (position, amount) writes. :class:`Tables` holds, for
one tensor layout on one board, where each point's, planet's, seat's and card's features
sit. For each observer seat a :class:`Canvas` keeps the vector as last painted together
with a copy of every part of the state it was painted from: the head and the seats'
numbers, the phase, the tile being placed, the observer's hand, the discard pile, each
planet's upgrades, owner and tile, each seat's faction, roster and home, each seat's units
(the list of its unit tuples) and the battle's writes. An encode compares each part with
its copy (list equality, in C) and, where one differs, takes the old part's writes off and
puts the new part's on, element by element where they differ (the planets, seats and units
that changed); then it copies the canvas out. Nothing is trusted but these comparisons, so
a canvas serves any state of its board: one stepped in place, a clone, a determinisation,
a state of another game; a state unlike the last one costs more (most parts redrawn), never
a wrong value.

Canvases belong to a stream (``Tables.stream``): the state object last served, so several
environments stepped in turn in one process keep theirs (up to ``STREAMS``).

Every amount is an integer (counts, flags, resources, LP...), exact in float32, so taking
writes off and putting them back on leaves exactly the sum of the writes in place: the
vector is the same as writing every feature anew.
"""

from __future__ import annotations

import threading
from array import array
from itertools import compress, count
from operator import is_not
from typing import TYPE_CHECKING, Any

import numpy as np

from .tensor import PHASES

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .state import RiftState
    from .tensor import _Layout

STREAMS = 8
"""Lines of states served at once with their own canvases (e.g. the environments of a
vector stepped in turn in one process)."""


def _changed(old: list[Any], new: list[Any]) -> Any:
    """Indices (up to the shorter list's length) where two lists hold different objects,
    found in C."""
    return compress(count(), map(is_not, old, new))


class Canvas:
    """The vector painted for observer ``seat`` of an ``n``-seat game and the copies of
    the parts it was painted from (see the module docstring). ``a`` is the float32 vector,
    ``out`` a numpy view of it; ``head`` the phase, the tile being placed and the numbers
    (see ``Tables.paint``); ``slow`` copies of the observer's hand, the discard pile, the
    planets' upgrades, owners, tile kinds, revealed flags and values, the seats' factions,
    rosters and homes; ``every`` all unit tuples in table order; ``units`` per seat, its
    unit tuples and their ids; ``battle`` position -> amount of the battle's writes."""

    __slots__ = ("seat", "n", "slots", "a", "out", "head", "slow", "every", "units",
                 "battle")

    def __init__(self, tables: Tables, seat: int, n: int) -> None:
        self.seat = seat
        self.n = n
        self.slots = [(s - seat) % n for s in range(n)]
        size = tables.size
        self.a = a = array("f", bytes(4 * size))
        self.out = np.frombuffer(a, np.float32)
        nplanets = len(tables.owner_at)
        for p in tables.fixed:  # in play, huge
            a[p] = 1
        for pi in tables.in_play:  # no owner
            a[tables.owner_at[pi]] = 1
        for s in range(n):  # present
            a[tables.seat_at + self.slots[s] * tables.seat_size] = 1
        self.head: list[Any] = [None, None] + [0] * (5 + 4 * n)
        self.slow: list[list[Any]] = [
            [], [], [()] * nplanets, [-1] * nplanets, [""] * nplanets, [False] * nplanets,
            [0] * nplanets, [""] * n, [()] * n, [-1] * n]
        self.every: list[Any] = []
        self.units: list[tuple[list[Any], list[int]]] = [([], []) for _ in range(n)]
        self.battle: dict[int, Any] = {}


class _Stream:
    """The canvases serving one line of states (usually one state object that an
    environment steps): ``state`` the last one served, ``canvases`` per observer seat."""

    __slots__ = ("state", "canvases")

    def __init__(self) -> None:
        self.state: Any = None
        self.canvases: dict[int, Canvas] = {}


class Tables:
    """Positions of one tensor layout on one board (the state's board may lack the wormhole
    ends of the layout's board) and the streams of canvases met (see the module
    docstring). ``size`` is the vector's length."""

    def __init__(self, lay: _Layout, board: Board) -> None:
        self.lay = lay
        self.size = lay.size
        nu, nup, nt, nf = len(lay.units), len(lay.upgrades), len(lay.tiles), len(lay.factions)
        self.nu = nu
        self.unit_index = lay.unit_index
        pos = [lay.point_index[name] for name in board.names]
        planet_pos = {pid: i for i, pid in enumerate(lay.planets)}
        pp = [planet_pos[pid] for pid in board.planet_ids]
        self.space_at = [lay.at["space"] + q * lay.slots * (nu + 2) for q in pos]
        self.landed_at = [-1 if pl < 0 else lay.at["landed"] + pp[pl] * lay.slots * nu
                          for pl in board.planet_of]
        self.battle_at = lay.at["battle"]
        self.battle_point_at = [lay.at["battle"] + 2 + q for q in pos]
        self.battle_seats_at = lay.at["battle"] + 2 + len(lay.points)
        self.fighters_at = self.battle_seats_at + 2 * lay.slots
        self.phase_at = {ph: i for i, ph in enumerate(PHASES)}
        self.tile_flag_at = {k: len(PHASES) + 5 + i for k, i in lay.tile_index.items()}
        # per seat slot: present, faction flags, the four numbers, roster, home planet
        self.seat_at = lay.at["seats"]
        self.seat_size = lay.seat_size
        self.faction_at = {f: 1 + i for f, i in lay.faction_index.items()}
        self.roster_at = {u: 1 + nf + 5 + i for u, i in lay.unit_index.items()}
        self.home_at = [1 + nf + 5 + nu + q for q in pp]
        self.hand_at = {c: lay.at["hand"] + i for c, i in lay.card_index.items()}
        self.discard_at = {c: lay.at["discard"] + i for c, i in lay.card_index.items()}
        planet_at = [lay.at["planets"] + q * lay.planet_size for q in pp]
        self.in_play = board.in_play_planets
        self.playing = [False] * len(pp)
        for pi in self.in_play:
            self.playing[pi] = True
        self.owner_at = [q + 1 for q in planet_at]
        self.upgrade_at = [{u: q + 2 + lay.slots + i for u, i in lay.upgrade_index.items()}
                           for q in planet_at]
        self.tile_at = [q + 2 + lay.slots + nup for q in planet_at]
        self.reveal_at = [q + nt for q in self.tile_at]
        # in play and huge never change on a board
        self.fixed = [planet_at[pi] for pi in self.in_play]
        self.fixed += [self.reveal_at[pi] + 2 for pi in self.in_play if board.planet_huge[pi]]
        self.streams: list[_Stream] = []
        self.numbers: dict[tuple[int, int], list[int]] = {}
        self.lock = threading.Lock()

    # ------------------------------------------------------------------ encode
    def encode(self, state: RiftState, seat: int, clip: Any = None, low: float = 0.0,
               high: float = 0.0) -> Any:
        """The observation tensor of ``state`` for ``seat`` (``tensor.encode``): the
        observer's canvas brought up to date with ``state``, copied out, or with ``clip``
        given, ``clip(canvas, low, high)`` (``tensor.encode_clipped``)."""
        with self.lock:
            st = self.stream(state)
            c = st.canvases.get(seat)
            if c is None or c.n != state.n:
                c = st.canvases[seat] = Canvas(self, seat, state.n)
            self.paint(c, state)
            if clip is None:
                return c.out.copy()
            return clip(c.out, low, high)

    def paint(self, c: Canvas, state: RiftState) -> None:
        """Bring canvas ``c`` up to date with ``state``: every part that differs from the
        canvas's copy of it is redrawn (see the module docstring)."""
        seat = c.seat
        # 1. head and 2. the seats' numbers
        head = [state.phase, state.tile_in_hand, state.current_player() == seat,
                state.seat == seat, state.round, state.target_vp, len(state.deck),
                *state.resources, *state.income, *state.vp, *map(len, state.hands)]
        if head != c.head:
            self._head(c, head)
        # 3. own hand, discard pile, 4. planets, 2. the seats' flags
        slow = [state.hands[seat], state.discard, state.planet_upgrades, state.planet_owner,
                state.tile_kind, state.tile_revealed, state.tile_value, state.faction,
                state.roster, state.home]
        if slow != c.slow:
            self._slow(c, slow)
        # 5-6. units: all of them at once, then each seat's where they differ
        every = list(state.units.values())
        if every != c.every:
            painted = c.units
            for s, units in enumerate(state.units.of):
                now = list(units.values())
                old = painted[s]
                if now != old[0]:
                    self._units(c.a, c.slots[s], old, now, units)
                    painted[s] = (now, list(units))
            c.every = every
        # 7. battle
        if state.battle is not None or c.battle:
            self._battle(c, state)

    # ------------------------------------------------------------------ parts
    def _head(self, c: Canvas, head: list[Any]) -> None:
        """The phase and tile flags, and the numbers that changed."""
        a, old = c.a, c.head
        at = self.numbers_at(c.seat, c.n)
        for i in _changed(old, head):
            if i > 1:
                a[at[i - 2]] = head[i]
            elif i:
                self._flag(a, self.tile_flag_at, old[1] and old[1][0], head[1] and head[1][0])
            else:
                self._flag(a, self.phase_at, old[0], head[0])
        c.head = head

    def _slow(self, c: Canvas, slow: list[list[Any]]) -> None:
        """The parts of ``SLOW`` that changed (see ``Canvas``)."""
        a, old = c.a, c.slow
        if slow[0] != old[0]:
            self._cards(a, self.hand_at, old[0], slow[0])
            old[0] = slow[0][:]
        if slow[1] != old[1]:
            self._cards(a, self.discard_at, old[1], slow[1])
            old[1] = slow[1][:]
        if slow[2] != old[2]:
            self._upgrades(a, old[2], slow[2])
            old[2] = slow[2][:]
        if slow[3] != old[3]:
            self._owners(c, old[3], slow[3])
            old[3] = slow[3][:]
        if slow[4:7] != old[4:7]:
            self._tiles(a, old[4:7], slow[4:7])
            old[4:7] = [x[:] for x in slow[4:7]]
        if slow[7:] != old[7:]:
            self._seats(c, old[7:], slow[7:])
            old[7:] = [x[:] for x in slow[7:]]

    @staticmethod
    def _flag(a: Any, at: dict[Any, int], old: Any, new: Any) -> None:
        """Move a one-hot flag (``at`` position per value; values not in it have none)."""
        p = at.get(old)
        if p is not None:
            a[p] -= 1
        p = at.get(new)
        if p is not None:
            a[p] += 1

    @staticmethod
    def _cards(a: Any, at: dict[str, int], old: list[str], new: list[str]) -> None:
        """Copies of each card: ``old`` taken off (or only the cards added after it)."""
        k = len(old)
        if len(new) > k and new[:k] == old:
            new = new[k:]
        else:
            for card in old:
                a[at[card]] -= 1
        for card in new:
            a[at[card]] += 1

    def _upgrades(self, a: Any, old: list[tuple[str, ...]],
                  new: list[tuple[str, ...]]) -> None:
        playing, upgrade_at = self.playing, self.upgrade_at
        for pi in _changed(old, new):
            if playing[pi]:
                at = upgrade_at[pi]
                for u in old[pi]:
                    a[at[u]] -= 1
                for u in new[pi]:
                    a[at[u]] += 1

    def _owners(self, c: Canvas, old: list[int], new: list[int]) -> None:
        """Owner flags: none, or 1 + the owner's slot."""
        a, slots = c.a, c.slots
        playing, owner_at = self.playing, self.owner_at
        for pi in _changed(old, new):
            if playing[pi]:
                q = owner_at[pi]
                a[q if old[pi] < 0 else q + 1 + slots[old[pi]]] -= 1
                a[q if new[pi] < 0 else q + 1 + slots[new[pi]]] += 1

    def _tiles(self, a: Any, old: list[list[Any]], new: list[list[Any]]) -> None:
        """Tile kinds and revealed values of the planets in play: ``old`` and ``new``
        are (kinds, revealed flags, values)."""
        at, reveal_at, index = self.tile_at, self.reveal_at, self.lay.tile_index
        for sign, (kind, shown, value) in ((-1, old), (1, new)):
            for pi in self.in_play:
                if kind[pi]:
                    a[at[pi] + index[kind[pi]]] += sign
                if shown[pi]:
                    a[reveal_at[pi]] += sign * value[pi]
                    a[reveal_at[pi] + 1] += sign

    def _seats(self, c: Canvas, old: list[list[Any]], new: list[list[Any]]) -> None:
        """Faction, roster and home flags (present is painted with the canvas, the four
        numbers with the head): ``old`` and ``new`` are (factions, rosters, homes)."""
        a = c.a
        for sign, (faction, roster, home) in ((-1, old), (1, new)):
            for s in range(c.n):
                q = self.seat_at + c.slots[s] * self.seat_size
                if faction[s]:
                    a[q + self.faction_at[faction[s]]] += sign
                for u in dict.fromkeys(roster[s]):
                    a[q + self.roster_at[u]] += sign
                if home[s] >= 0:
                    a[q + self.home_at[home[s]]] += sign

    def _units(self, a: Any, slot: int, old: tuple[list[Any], list[int]],
               new: list[Any], by_id: dict[int, Any]) -> None:
        """One seat's units (at seat slot ``slot``): ``old`` as painted (its unit tuples
        and their ids), ``new`` its unit tuples now, ``by_id`` its units by id now. A
        unit counts at its landing planet, or in space at its point with its wounds and
        movement points; a unit that stayed where it was only changes those sums."""
        was, was_ids = old
        nu = self.nu
        index, landed_at, space_at = self.unit_index, self.landed_at, self.space_at
        ground, afloat = slot * nu, slot * (nu + 2)
        gone: list[Any] = []
        came: list[Any] = []
        if len(was) == len(new):  # the same units (or as many): compare place by place
            pairs = [(was[i], new[i]) for i in _changed(was, new)]
        else:  # units came or went: by id, from the first place that differs on
            i = next(_changed(was, new), min(len(was), len(new)))
            before = dict(zip(was_ids[i:], was[i:], strict=True))
            pop = before.pop
            pairs = []
            for uid, u in zip(list(by_id)[i:], new[i:], strict=True):
                o = pop(uid, None)
                if o is None:
                    came.append(u)
                elif o is not u:
                    pairs.append((o, u))
            gone += before.values()
        for o, u in pairs:
            _, kind, loc, landed, mp, wounds = u
            _, was_kind, was_loc, was_landed, was_mp, was_wounds = o
            if (kind != was_kind or (landed and landed_at[loc] >= 0)
                    or (was_landed and landed_at[was_loc] >= 0)):
                gone.append(o)
                came.append(u)
                continue
            # in space before and after: the count moves, the sums change
            r = space_at[loc] + afloat + nu
            if loc != was_loc:
                q = space_at[was_loc] + afloat + nu
                k = index[kind] - nu
                a[q + k] -= 1
                a[r + k] += 1
                if was_wounds:
                    a[q] -= was_wounds
                if wounds:
                    a[r] += wounds
                if was_mp:
                    a[q + 1] -= was_mp
                if mp:
                    a[r + 1] += mp
            else:
                if wounds != was_wounds:
                    a[r] += wounds - was_wounds
                if mp != was_mp:
                    a[r + 1] += mp - was_mp
        for sign, units in ((-1, gone), (1, came)):
            for _, kind, loc, landed, mp, wounds in units:
                k = index[kind]
                q = landed_at[loc]
                if landed and q >= 0:
                    a[q + ground + k] += sign
                    continue
                r = space_at[loc] + afloat
                a[r + k] += sign
                if wounds:
                    a[r + nu] += sign * wounds
                if mp:
                    a[r + nu + 1] += sign * mp

    def _battle(self, c: Canvas, state: RiftState) -> None:
        """In battle, ground, battle point, attacker and defender slots, and per side and
        combatant kind the living count, LP and shields: written where they changed."""
        new: dict[int, Any] = {}
        bt = state.battle
        if bt is not None:
            q = self.battle_at
            new[q] = 1
            if bt.ground:
                new[q + 1] = 1
            new[self.battle_point_at[bt.point]] = 1
            q = self.battle_seats_at
            n, seat = c.n, c.seat
            new[q + (bt.seats[0] - seat) % n] = 1
            new[q + self.lay.slots + (bt.seats[1] - seat) % n] = 1
            q = self.fighters_at
            kinds = self.lay.kind_index
            nk = len(kinds)
            get = new.get
            for f in bt.fighters.values():
                k = kinds.get(f.kind)
                if k is None or f.lp <= 0 or f.gone:
                    continue
                r = q + (f.side * nk + k) * 3
                new[r] = get(r, 0) + 1
                new[r + 1] = get(r + 1, 0) + f.lp
                new[r + 2] = get(r + 2, 0) + f.sh
        old = c.battle
        if new != old:
            a = c.a
            for p, v in old.items():
                a[p] -= v
            for p, v in new.items():
                a[p] += v
            c.battle = new

    # ------------------------------------------------------------------ streams
    def stream(self, state: RiftState) -> _Stream:
        """The stream that last served ``state`` (the same object), else the one that
        last served a state of the same game object (a clone, say), else the one used
        least recently (or a new one, up to ``STREAMS``); it now serves ``state``."""
        streams = self.streams
        if streams and streams[-1].state is state:
            return streams[-1]
        game = state.game
        st = None
        for x in reversed(streams):
            if x.state is state:
                st = x
                break
            if st is None and x.state.game is game:
                st = x
        if st is not None:
            streams.remove(st)
        else:
            st = streams.pop(0) if len(streams) >= STREAMS else _Stream()
        st.state = state
        streams.append(st)
        return st

    def numbers_at(self, seat: int, n: int) -> list[int]:
        """Positions for observer ``seat`` of: observer to act, observer's turn, round,
        target VP, deck size, then the seats' resources, incomes, VP and hand sizes (each
        in seat order)."""
        at = self.numbers.get((seat, n))
        if at is None:
            p = len(PHASES)
            f0 = self.seat_at + 1 + len(self.lay.factions)
            at = self.numbers[seat, n] = (
                [p, p + 1, p + 2, p + 3, p + 4]
                + [f0 + ((s - seat) % n) * self.seat_size + j
                   for j in range(4) for s in range(n)])
        return at
