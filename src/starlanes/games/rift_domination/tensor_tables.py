"""Position tables, memos and canvases behind ``tensor.encode``.

The observation tensor is a sum of (position, amount) writes. :class:`Tables` holds, for
one tensor layout on one board, where each point's, planet's and card's features sit, and
splits a state into parts that change slowly: the seats, the discard pile, the planets'
owners, upgrades and tiles, and each seat's units. Each part's writes are a
:class:`Writes`, remembered until the part of the state it was built from changes (checked
by equality: list equality for the seats and planets, the seat's unit view in the unit
table for its units; a unit tuple gets one row of positions and amounts, so a changed fleet
costs a dict lookup per unit). For each observer seat a canvas keeps the sum of the writes
it last painted, and ``paint`` takes off and puts on only the parts that changed, so an
encode is a copy of the canvas plus the few features read fresh (``tensor.encode``).
Memos and canvases belong to a stream (``Tables.stream``): the state object last served, so
several environments stepped in turn in one process keep theirs (up to ``STREAMS``). A state
unlike the last one its stream served (a shuffled replay, say) redraws most parts and costs
about as much as writing every feature.

Every amount is an integer (counts, flags, resources, LP...), exact in float32, so taking
writes off and putting them back on leaves exactly the sum of the writes in place: the
vector is the same as writing every feature anew.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .tensor import PHASES

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .state import RiftState
    from .tensor import _Layout

STREAMS = 8
"""Lines of states served at once with their own memos and canvases (e.g. the
environments of a vector stepped in turn in one process)."""

MAX_ROWS = 1 << 16
"""Unit tuples remembered per table; past this the rows start anew (a long run of new
unit states, e.g. many games through one process)."""


class Writes:
    """Writes of one part of the vector: for the observer whose slot of seat ``s`` is
    ``slots[s]``, positions ``pos0 + step * slots[who]`` (``who`` a seat or an array of
    seats; no ``step``: ``pos0`` for every observer) and float32 ``amount``. Positions per
    observer are kept once asked for."""

    __slots__ = ("pos0", "step", "who", "amount", "_at")

    def __init__(self, pos0: Any, amount: Any, step: Any = None, who: Any = 0) -> None:
        self.pos0 = pos0
        self.amount = amount
        self.step = step
        self.who = who
        self._at: dict[int, Any] = {}

    def positions(self, seat: int, slots: list[int]) -> Any:
        if self.step is None:
            return self.pos0
        pos = self._at.get(seat)
        if pos is None:
            pos = self._at[seat] = self.pos0 + self.step * np.array(slots, np.intp)[self.who]
        return pos


def _writes(pos: list[int], amount: list[Any], step: list[int] | None = None,
            who: list[int] | None = None) -> Writes:
    return Writes(np.array(pos, np.intp), np.array(amount, np.float32),
                  None if step is None else np.array(step, np.intp),
                  0 if who is None else np.array(who, np.intp))


class _Stream:
    """The memos and canvases serving one line of states (usually one state object that
    an environment steps): ``state`` the last one served; ``slow`` the slow parts as last
    seen (see ``Tables.slow_parts``); ``seen`` each slow part's inputs and writes;
    ``groups`` per seat, its unit view as last seen and its fleet's writes; ``canvases``
    per observer seat, the painted vector and the writes painted on it, per part."""

    __slots__ = ("state", "slow", "seen", "groups", "canvases")

    def __init__(self) -> None:
        self.state: Any = None
        self.slow: tuple[Any, ...] = ((),) * 10
        self.seen: dict[str, tuple[list[list[Any]], Writes]] = {}
        self.groups: dict[int, tuple[dict[int, Any], Writes]] = {}
        self.canvases: dict[int, tuple[Any, list[Writes | None]]] = {}

    def recall(self, name: str, parts: tuple[list[Any], ...],
               build: Callable[..., Writes]) -> Writes:
        """``build(*parts)``, remembered under ``name`` until one of ``parts`` (lists of
        the state) differs from what it was built from."""
        seen = self.seen.get(name)
        if seen is not None:
            for old, new in zip(seen[0], parts, strict=True):
                if old != new:
                    break
            else:
                return seen[1]
        made = build(*parts)
        self.seen[name] = ([p[:] for p in parts], made)
        return made


class _Fleet(Writes):
    """The writes of one seat's units, by their rows in the tables."""

    __slots__ = ("at_slot", "rows")

    def __init__(self, tables: Tables, rows: Any, owner: int) -> None:
        self.amount = tables.amount.take(rows, axis=0).ravel()
        self.who = owner
        self._at = {}
        self.at_slot = tables.at_slot  # rows are only ever added to it (or it is replaced)
        self.rows = rows

    def positions(self, seat: int, slots: list[int]) -> Any:
        pos = self._at.get(seat)
        if pos is None:
            pos = self._at[seat] = self.at_slot[slots[self.who]].take(
                self.rows, axis=0).ravel()
        return pos


class _Rows(dict):  # type: ignore[type-arg]
    """Unit tuple -> its row in the tables' ``at_slot`` (per slot of the owner: positions)
    and ``amount`` arrays, made on first sight: three writes, the unit's count, then (in
    space) the wounds and movement points sums of its point and kind, or (landed on a
    planet) two writes to nowhere."""

    def __init__(self, tables: Tables) -> None:
        super().__init__()
        self.tables = tables

    def __missing__(self, u: tuple[Any, ...]) -> int:
        t = self.tables
        i = len(self)
        if i == len(t.amount):
            t.at_slot = np.concatenate((t.at_slot, np.zeros_like(t.at_slot)), axis=1)
            t.amount = np.concatenate((t.amount, np.zeros_like(t.amount)))
        _, kind, loc, landed, mp, wounds = u
        k = t.lay.unit_index[kind]
        nu = t.nu
        if landed and t.landed_at[loc] >= 0:
            q = t.landed_at[loc] + k
            for slot in range(len(t.at_slot)):
                t.at_slot[slot, i] = (q + slot * nu, t.nowhere, t.nowhere)
            t.amount[i] = (1, 0, 0)
        else:
            q = t.space_at[loc]
            for slot in range(len(t.at_slot)):
                r = q + slot * (nu + 2)
                t.at_slot[slot, i] = (r + k, r + nu, r + nu + 1)
            t.amount[i] = (1, wounds, mp)
        self[u] = i
        return i


class Tables:
    """Positions of one tensor layout on one board (the state's board may lack the wormhole
    ends of the layout's board), the memos of the parts met and a canvas per observer seat
    (see the module docstring). ``nowhere`` is the position one past the vector, cut off
    at the end."""

    def __init__(self, lay: _Layout, board: Board) -> None:
        self.lay = lay
        self.nowhere = lay.size
        nu, nup, nt, nf = len(lay.units), len(lay.upgrades), len(lay.tiles), len(lay.factions)
        self.nu = nu
        pos = [lay.point_index[name] for name in board.names]
        planet_pos = {pid: i for i, pid in enumerate(lay.planets)}
        pp = [planet_pos[pid] for pid in board.planet_ids]
        self.space_at = [lay.at["space"] + q * lay.slots * (nu + 2) for q in pos]
        self.landed_at = [-1 if pl < 0 else lay.at["landed"] + pp[pl] * lay.slots * nu
                          for pl in board.planet_of]
        self.battle_point_at = [lay.at["battle"] + 2 + q for q in pos]
        # per seat slot: present, faction flags, the four numbers, roster, home planet
        self.seat_at = lay.at["seats"]
        self.faction_at = {f: 1 + i for f, i in lay.faction_index.items()}
        self.roster_at = {u: 1 + nf + 5 + i for u, i in lay.unit_index.items()}
        self.home_at = [1 + nf + 5 + nu + q for q in pp]
        self.hand_at = {c: lay.at["hand"] + i for c, i in lay.card_index.items()}
        self.discard_at = {c: lay.at["discard"] + i for c, i in lay.card_index.items()}
        planet_at = [lay.at["planets"] + q * lay.planet_size for q in pp]
        self.in_play = board.in_play_planets
        self.owner_at = [q + 1 for q in planet_at]
        self.upgrade_at = [q + 2 + lay.slots for q in planet_at]
        self.tile_at = [q + 2 + lay.slots + nup for q in planet_at]
        self.reveal_at = [q + nt for q in self.tile_at]
        # in play and huge never change on a board
        self.fixed = [planet_at[pi] for pi in self.in_play]
        self.fixed += [self.reveal_at[pi] + 2 for pi in self.in_play if board.planet_huge[pi]]
        self._new_rows()
        self.streams: list[_Stream] = []
        self.numbers: dict[int, Any] = {}
        self.lock = threading.Lock()

    # ------------------------------------------------------------------ encode
    def encode(self, state: RiftState, seat: int) -> Any:
        """The observation tensor of ``state`` for ``seat`` (``tensor.encode``): the
        observer's canvas, redrawn where the state's parts changed, plus the features read
        fresh (head, the seats' numbers, the observer's hand, the battle)."""
        out = self.paint(state, seat)
        lay = self.lay
        n = state.n
        # 1. head and 2. the seats' numbers, at positions fixed per observer
        amount = [state.current_player() == seat, state.seat == seat, state.round,
                  state.target_vp, len(state.deck)]
        amount += state.resources
        amount += state.income
        amount += state.vp
        amount += map(len, state.hands)
        out[self.numbers_at(seat, n)] = amount
        if state.phase in PHASES:
            out[PHASES.index(state.phase)] = 1
        if state.tile_in_hand:
            out[len(PHASES) + 5 + lay.tile_index[state.tile_in_hand[0]]] = 1
        # 3. own hand
        hand_at = self.hand_at
        for card in state.hands[seat]:
            out[hand_at[card]] += 1
        # 7. battle
        bt = state.battle
        if bt is not None:
            q = lay.at["battle"]
            pos = [q, q + 1, self.battle_point_at[bt.point]]
            amount = [1, bool(bt.ground), 1]
            q += 2 + len(lay.points)
            pos += (q + (bt.seats[0] - seat) % n, q + lay.slots + (bt.seats[1] - seat) % n)
            amount += (1, 1)
            q += 2 * lay.slots
            nk = len(lay.kinds)
            for f in bt.fighters.values():
                if not f.alive or f.kind not in lay.kind_index:
                    continue
                r = q + (f.side * nk + lay.kind_index[f.kind]) * 3
                pos += (r, r + 1, r + 2)
                amount += (1, f.lp, f.sh)
            np.add.at(out, np.array(pos, np.intp), np.array(amount, np.float32))
        return out

    # ------------------------------------------------------------------ canvas
    def paint(self, state: RiftState, seat: int) -> Any:
        """A new float32 vector of the parts' writes for observer ``seat``: seats (but
        their numbers), discard pile, planets, units."""
        n = state.n
        slots = [(s - seat) % n for s in range(n)]
        with self.lock:
            st = self.stream(state)
            parts = self.slow_parts(st, state)
            canvas = st.canvases.get(seat)
            if canvas is None:
                canvas = st.canvases[seat] = (np.zeros(self.nowhere + 1, np.float32),
                                              [None] * (len(parts) + n))
            base, painted = canvas
            k = 0
            for w in parts:
                if painted[k] is not w:
                    self._repaint(base, painted, k, w, seat, slots)
                k += 1
            groups = st.groups
            for s, units in enumerate(state.units.of):
                g = groups.get(s)
                if g is None or g[0] != units:
                    g = groups[s] = (units.copy(), self._group(s, units))
                if painted[k] is not g[1]:
                    self._repaint(base, painted, k, g[1], seat, slots)
                k += 1
            return base[:self.nowhere].copy()

    @staticmethod
    def _repaint(base: Any, painted: list[Writes | None], k: int, w: Writes, seat: int,
                 slots: list[int]) -> None:
        old = painted[k]
        if old is not None:
            np.subtract.at(base, old.positions(seat, slots), old.amount)
        np.add.at(base, w.positions(seat, slots), w.amount)
        painted[k] = w

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

    def slow_parts(self, st: _Stream, state: RiftState) -> tuple[Writes, ...]:
        """The writes of the seats (flags), discard pile, planet owners, upgrades and
        tiles: parts that change now and then, checked at once."""
        seen = st.slow
        if (seen[0] == state.planet_upgrades and seen[1] == state.discard
                and seen[2] == state.planet_owner and seen[3] == state.tile_kind
                and seen[4] == state.tile_revealed and seen[5] == state.tile_value
                and seen[6] == state.faction and seen[7] == state.roster
                and seen[8] == state.home):
            return seen[9]
        recall = st.recall
        parts = (
            recall("seats", (state.faction, state.roster, state.home), self._seats),
            recall("discard", (state.discard,), self._discard),
            recall("owners", (state.planet_owner,), self._owners),
            recall("upgrades", (state.planet_upgrades,), self._upgrades),
            recall("tiles", (state.tile_kind, state.tile_revealed, state.tile_value),
                   self._tiles),
        )
        st.slow = (
            state.planet_upgrades[:], state.discard[:], state.planet_owner[:],
            state.tile_kind[:], state.tile_revealed[:], state.tile_value[:],
            state.faction[:], state.roster[:], state.home[:], parts)
        return parts

    # ------------------------------------------------------------------ units
    def _new_rows(self) -> None:
        """Start the unit rows anew (new arrays: fleets made before keep theirs)."""
        self.rows = _Rows(self)
        self.at_slot = np.zeros((self.lay.slots, 256, 3), np.intp)
        self.amount = np.zeros((256, 3), np.float32)

    def _group(self, owner: int, units: dict[int, Any]) -> Writes:
        if len(self.rows) > MAX_ROWS:
            self._new_rows()
            for st in self.streams:
                st.groups.clear()
        rows = np.array(list(map(self.rows.__getitem__, units.values())), np.intp)
        return _Fleet(self, rows, owner)

    # ------------------------------------------------------------------ planets, seats
    def _owners(self, owner: list[int]) -> Writes:
        """Owner flags: none, or 1 + the owner's slot."""
        pos = [self.owner_at[pi] + (owner[pi] >= 0) for pi in self.in_play]
        step = [int(owner[pi] >= 0) for pi in self.in_play]
        who = [max(owner[pi], 0) for pi in self.in_play]
        return _writes(pos, [1] * len(pos), step, who)

    def _upgrades(self, ups: list[tuple[str, ...]]) -> Writes:
        index, at = self.lay.upgrade_index, self.upgrade_at
        pos = [at[pi] + index[u] for pi in self.in_play for u in ups[pi]]
        return _writes(pos, [1] * len(pos))

    def _tiles(self, kind: list[str], shown: list[bool], value: list[int]) -> Writes:
        """In play, huge, tile kinds, revealed values."""
        index = self.lay.tile_index
        pos = self.fixed[:]
        amount = [1] * len(pos)
        for pi in self.in_play:
            if kind[pi]:
                pos.append(self.tile_at[pi] + index[kind[pi]])
                amount.append(1)
            if shown[pi]:
                pos += (self.reveal_at[pi], self.reveal_at[pi] + 1)
                amount += (value[pi], 1)
        return _writes(pos, amount)

    def _seats(self, faction: list[str], roster: list[tuple[str, ...]],
               home: list[int]) -> Writes:
        """Present, faction, roster and home flags (the four numbers are read fresh)."""
        pos: list[int] = []
        who: list[int] = []
        q = self.seat_at
        for s in range(len(faction)):
            start = len(pos)
            pos.append(q)
            if faction[s]:
                pos.append(q + self.faction_at[faction[s]])
            pos += [q + self.roster_at[u] for u in dict.fromkeys(roster[s])]
            if home[s] >= 0:
                pos.append(q + self.home_at[home[s]])
            who += [s] * (len(pos) - start)
        return _writes(pos, [1] * len(pos), [self.lay.seat_size] * len(pos), who)

    def numbers_at(self, seat: int, n: int) -> Any:
        """Positions for observer ``seat`` of: observer to act, observer's turn, round,
        target VP, deck size, then the seats' resources, incomes, VP and hand sizes (each
        in seat order)."""
        at = self.numbers.get(seat)
        if at is None:
            p = len(PHASES)
            f0 = self.seat_at + 1 + len(self.lay.factions)
            at = self.numbers[seat] = np.array(
                [p, p + 1, p + 2, p + 3, p + 4]
                + [f0 + ((s - seat) % n) * self.lay.seat_size + j
                   for j in range(4) for s in range(n)], np.intp)
        return at

    def _discard(self, discard: list[str]) -> Writes:
        return _writes(list(map(self.discard_at.__getitem__, discard)), [1] * len(discard))
