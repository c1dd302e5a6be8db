"""Position tables and memos behind ``tensor.encode``.

The observation tensor is written as (position, amount) pairs summed by one
``numpy.bincount``. :class:`Tables` holds, for one tensor layout on one board, where each
point's, planet's and card's features sit, and memos of the parts of a state that change
slowly: the planets, the seats and the discard pile (compared with the last state met by
list equality), and each seat's units (compared by its unit view in the unit table; a unit
tuple gets one row of positions and amounts, so a changed fleet costs a dict lookup per
unit). A memo is only a shortcut: it is used when what it was built from equals the state,
so the vector is the same as writing every feature anew.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .state import RiftState
    from .tensor import _Layout

MAX_ROWS = 1 << 16
"""Unit tuples remembered per table; past this the rows start anew (a long run of new
unit states, e.g. many games through one process)."""


class _Group:
    """The unit writes of one seat's units: ``units`` a copy of the seat's unit view they
    come from; ``pos0`` the positions for an observer in slot 0 of that seat, ``step`` how
    far one slot further moves each; ``amount`` what each adds; ``at_slot`` the positions
    per slot, filled as asked."""

    __slots__ = ("units", "pos0", "step", "amount", "at_slot")

    def __init__(self, units: dict[int, Any], pos0: Any, step: Any, amount: Any) -> None:
        self.units = units
        self.pos0 = pos0
        self.step = step
        self.amount = amount
        self.at_slot: dict[int, Any] = {}

    def positions(self, slot: int) -> Any:
        pos = self.at_slot.get(slot)
        if pos is None:
            pos = self.at_slot[slot] = self.pos0 + slot * self.step
        return pos


class _Rows(dict):  # type: ignore[type-arg]
    """Unit tuple -> its row in the tables' ``pos0``/``step``/``amount`` arrays, made on
    first sight: three writes, the unit's count, then (in space) the wounds and movement
    points sums of its point and kind, or (landed on a planet) two writes to nowhere."""

    def __init__(self, tables: Tables) -> None:
        super().__init__()
        self.tables = tables

    def __missing__(self, u: tuple[Any, ...]) -> int:
        t = self.tables
        i = len(self)
        if i == len(t.amount):
            t.pos0 = np.concatenate((t.pos0, np.zeros_like(t.pos0)))
            t.step = np.concatenate((t.step, np.zeros_like(t.step)))
            t.amount = np.concatenate((t.amount, np.zeros_like(t.amount)))
        _, kind, loc, landed, mp, wounds = u
        k = t.lay.unit_index[kind]
        nu = t.nu
        if landed and t.landed_at[loc] >= 0:
            t.pos0[i] = (t.landed_at[loc] + k, t.nowhere, t.nowhere)
            t.step[i] = (nu, 0, 0)
            t.amount[i] = (1, 0, 0)
        else:
            q = t.space_at[loc]
            t.pos0[i] = (q + k, q + nu, q + nu + 1)
            t.step[i] = (nu + 2, nu + 2, nu + 2)
            t.amount[i] = (1, wounds, mp)
        self[u] = i
        return i


class Tables:
    """Positions of one tensor layout on one board (the state's board may lack the wormhole
    ends of the layout's board) and the memos of the states met (see the module
    docstring). ``nowhere`` is the position one past the vector, cut off at the end."""

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
        self.seat_at = [lay.at["seats"] + k * lay.seat_size for k in range(lay.slots)]
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
        self.rows = _Rows(self)
        self.pos0 = np.zeros((256, 3), np.intp)
        self.step = np.zeros((256, 3), np.intp)
        self.amount = np.zeros((256, 3), np.float64)
        self.groups: dict[int, _Group] = {}
        self.owner_pos = np.array([self.owner_at[pi] for pi in self.in_play], np.intp)
        self.owner_amount = np.ones(len(self.in_play))
        self.seen: dict[str, tuple[list[list[Any]], tuple[Any, ...]]] = {}

    # ------------------------------------------------------------------ units
    def _group(self, units: dict[int, Any]) -> _Group:
        if len(self.rows) > MAX_ROWS:
            self.rows.clear()
            self.groups.clear()
        rows = np.array(list(map(self.rows.__getitem__, units.values())), np.intp)
        return _Group(units.copy(), self.pos0[rows].ravel(), self.step[rows].ravel(),
                      self.amount[rows].ravel())

    def unit_writes(self, state: RiftState, seat: int) -> list[Any]:
        """Positions and amounts of every seat's units for observer ``seat``: a list of
        (positions, amounts), one per seat."""
        n = state.n
        groups = self.groups
        out = []
        for s, units in enumerate(state.units.of):
            g = groups.get(s)
            if g is None or g.units != units:
                g = groups[s] = self._group(units)
            out.append((g.positions((s - seat) % n), g.amount))
        return out

    # ------------------------------------------------------------------ planets, seats
    def _recall(self, name: str, parts: tuple[list[Any], ...],
                build: Callable[..., tuple[Any, ...]]) -> tuple[Any, ...]:
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

    def planet_writes(self, state: RiftState, shift: Any) -> list[Any]:
        """Positions and amounts of every planet feature (in play, owner, upgrades, tile,
        huge) for the observer whose ``shift`` (per seat, then one for no owner) is
        ``1 + slot`` of each seat and 0 for no owner: a list of (positions, amounts)."""
        (owners,) = self._recall("owners", (state.planet_owner,), self._owners)
        return [
            (self.owner_pos + shift[owners], self.owner_amount),
            self._recall("upgrades", (state.planet_upgrades,), self._upgrades),
            self._recall("tiles", (state.tile_kind, state.tile_revealed, state.tile_value),
                         self._tiles),
        ]

    def _owners(self, owner: list[int]) -> tuple[Any]:
        return (np.array([owner[pi] for pi in self.in_play], np.intp),)

    def _upgrades(self, ups: list[tuple[str, ...]]) -> tuple[Any, Any]:
        index, at = self.lay.upgrade_index, self.upgrade_at
        pos = [at[pi] + index[u] for pi in self.in_play for u in ups[pi]]
        return np.array(pos, np.intp), np.ones(len(pos))

    def _tiles(self, kind: list[str], shown: list[bool], value: list[int]) -> tuple[Any, Any]:
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
        return np.array(pos, np.intp), np.array(amount, np.float64)

    def seat_writes(self, state: RiftState, shift: Any) -> list[Any]:
        """Positions and amounts of every seat's features and of the discard pile, for the
        observer whose ``shift`` is the slot of each seat: a list of (positions, amounts)."""
        rel, who, amount = self._recall(
            "seats", (state.faction, state.resources, state.income, state.vp,
                      [len(h) for h in state.hands], state.roster, state.home), self._seats)
        return [(rel + self.lay.seat_size * shift[who], amount),
                self._recall("discard", (state.discard,), self._discard)]

    def _seats(self, faction: list[str], resources: list[int], income: list[int],
               vp: list[int], hand_sizes: list[int], roster: list[tuple[str, ...]],
               home: list[int]) -> tuple[Any, Any, Any]:
        """The seats' writes as positions in slot 0's block, the seat of each, amounts."""
        rel: list[int] = []
        who: list[int] = []
        amount: list[int] = []
        q = self.seat_at[0]
        f0 = q + 1 + len(self.lay.factions)
        for s in range(len(faction)):
            start = len(rel)
            rel.append(q)
            if faction[s]:
                rel.append(q + self.faction_at[faction[s]])
            amount += [1] * (len(rel) - start)
            rel += (f0, f0 + 1, f0 + 2, f0 + 3)
            amount += (resources[s], income[s], vp[s], hand_sizes[s])
            rel += [q + self.roster_at[u] for u in dict.fromkeys(roster[s])]
            if home[s] >= 0:
                rel.append(q + self.home_at[home[s]])
            amount += [1] * (len(rel) - len(amount))
            who += [s] * (len(rel) - start)
        return np.array(rel, np.intp), np.array(who, np.intp), np.array(amount, np.float64)

    def _discard(self, discard: list[str]) -> tuple[Any, Any]:
        return np.array(list(map(self.discard_at.__getitem__, discard)), np.intp), \
            np.ones(len(discard))
