"""Observation tensors of a :class:`~.batched.GDBatch`: float32 [n, N], each row exactly
``tensor.encode(state, seat)`` of the reference state, clipped as the research adapters
clip it (``starlanes.interop.tensor_encoder``: every value into [low, high] of
``research.toml``, 0 and 1000 for this game). The layout is ``tensor``'s: a head (phase
flags, turn, player 1, to act, round / turn limit, minerals and dark matter, black holes,
ships to place) and 41 values per ship slot, the observing seat's fleet first. Galactic
Domination hides nothing (ruling GD-OPEN-05).

Each ship slot's block is one table row by type, location, shields, hull, AP and
attached (the fractions computed once as the reference computes them: float64 division
rounded to float32), its last 20 values written over for the few ships that charge, aim or
act.
"""

from __future__ import annotations

import numpy as np

from starlanes.engine.batch_changes import ChangeTracker

from .batched import (
    AIM,
    AP,
    ATT,
    CHG,
    HULL,
    KIND70,
    SEC,
    SH,
    SLOTS,
    GDBatch,
    Tables,
)

HEAD = 37
PER_SHIP = 41
LOW, HIGH = 0.0, 1000.0
"""The adapters' clip bounds of this game's tensor (``research.toml``)."""


_BLOCK = np.dtype((np.void, PER_SHIP * 4))
"""A ship slot's 41 float32 values as one item: gathers and scatters of whole blocks
copy one item each."""

CHUNK = 64
"""Games whose ship blocks :func:`observation` makes at once (their blocks stay in the
core's cache)."""


class ObsTables:
    """The block tables of one :class:`~.batched.Tables`. ``ship`` [..., 41]: a ship's
    whole block by type, location (sector, 15: deep space), shields, hull, AP and attached,
    with no charge, no aim and not acting; its rows of hull 0 are all zeros, the block of
    an empty slot (an empty slot has hull 0, a ship in play never). The ships that charge
    (only they aim, rulings GD-OPEN-06/07) and the acting ship are then written over."""

    def __init__(self, t: Tables) -> None:
        rows = []
        base, size = [], 0
        for k in range(5):
            base.append(size)
            ms, mh, ma = int(t.max_sh[k]), int(t.max_hull[k]), int(t.max_ap[k])
            block = np.zeros((16, ms + 1, mh + 1, ma + 1, 2, PER_SHIP), np.float32)
            block[..., 0] = 1.0
            for loc in range(16):
                block[loc, ..., 1 + loc] = 1.0
            for sh in range(ms + 1):
                block[:, sh, ..., 17] = sh / ms if ms else 0.0
            for hull in range(mh + 1):
                block[:, :, hull, ..., 18] = hull / mh
            for ap in range(ma + 1):
                block[:, :, :, ap, :, 19] = ap / ma
            block[..., 1, 20] = 1.0
            block[..., 21] = 1.0  # no charge
            block[..., 24 + 15] = 1.0  # no aim
            block[:, :, 0] = 0.0  # hull 0: an empty slot
            rows.append(block.reshape(-1, PER_SHIP))
            size += rows[-1].shape[0]
        self.ship = np.concatenate(rows)
        self.ship_items = self.ship.view(_BLOCK).reshape(-1)
        """``ship``'s rows as single items: a gather of rows copies one item each."""
        dtype = np.int16 if size < 1 << 15 else np.int64
        self.base70 = np.array(base, dtype)[KIND70]
        self.sh1 = (t.max_sh.astype(dtype) + 1)[KIND70]
        self.hull1 = (t.max_hull.astype(dtype) + 1)[KIND70]
        self.ap1 = (t.max_ap.astype(dtype) + 1)[KIND70]


def _head(b: GDBatch, v: np.ndarray, current: np.ndarray | None, out: np.ndarray,
          rows: np.ndarray | None = None) -> None:
    """Write the tensor's head (its first ``HEAD`` values) of every game (or of the games
    ``rows``) seen from seats ``v`` (int64 [n]) into ``out`` (float32 [n, >= HEAD])."""
    t = b.t
    r = np.arange(b.n) if rows is None else rows
    vr = v[r]
    w = 1 - vr
    cur = (b.current_player() if current is None else current)[r]
    head = np.empty((r.size, HEAD), np.float32)
    head[:, 0:4] = np.arange(4) == b.phase[r, None]
    head[:, 4] = b.seat[r] == vr
    head[:, 5] = b.first[r] == vr
    head[:, 6] = cur == vr
    head[:, 7] = b.round[r] / t.turn_limit
    head[:, 8:12] = np.minimum(np.stack([b.minerals[r, vr], b.minerals[r, w],
                                         b.dark[r, vr], b.dark[r, w]], 1), HIGH)
    head[:, 12:27] = b.holes[r]
    head[:, 27:32] = b.to_place[r, vr]
    head[:, 32:37] = b.to_place[r, w]
    if rows is None:
        out[:, :HEAD] = head
    else:
        out[rows, :HEAD] = head


def _head_inputs(b: GDBatch, v: np.ndarray, cur: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every array the head is made of (:func:`_head`), one row per game."""
    return (b.phase, b.seat, b.first, cur, b.round, b.minerals, b.dark, b.holes,
            b.to_place, v)


_SHOWN = np.array([SEC, SH, HULL, AP, ATT, CHG, AIM])
"""The ship fields a slot's block shows; it also shows whether the ship acts
(``GDBatch.act``)."""
_SHOWN_HULL = int(np.flatnonzero(_SHOWN == HULL)[0])


def _in_view(n: int, v: np.ndarray) -> np.ndarray:
    """The ship slot shown at each block place of the tensors of seats ``v`` (int [n]):
    int64 [n, 70], the observing seat's 35 slots first."""
    own = v[:, None] * SLOTS + np.arange(SLOTS)
    return np.concatenate([own, (own + SLOTS) % (2 * SLOTS)], axis=1)


def observation(b: GDBatch, seats: np.ndarray, ot: ObsTables,
                out: np.ndarray | None = None,
                current: np.ndarray | None = None) -> np.ndarray:
    """float32 [n, N]: each game's tensor seen from ``seats`` (int [n], 0 or 1), clipped to
    the adapters' bounds; written into ``out`` when given (that shape and dtype).
    ``current``: ``b.current_player()`` when the caller has it already. Made whole from
    the state, :data:`CHUNK` games at a time; :class:`ObsStream` keeps the same tensors
    up to date instead."""
    n = b.n
    v = np.asarray(seats, np.int64)
    if out is None:
        out = np.empty((n, HEAD + 2 * SLOTS * PER_SHIP), np.float32)
    _head(b, v, current, out)
    shown_all = b.ships[_SHOWN].reshape(_SHOWN.size, -1)  # [7, n * 70]
    slot = _in_view(n, v)
    for i in range(0, n, CHUNK):
        j = min(n, i + CHUNK)
        g = slot[i:j]
        at = (np.arange(i, j)[:, None] * (2 * SLOTS) + g).reshape(-1)
        items = _block_items(ot, g.reshape(-1), shown_all[:, at],
                             (b.act[i:j, None] == g).reshape(-1))
        out[i:j, HEAD:] = items.view(np.float32).reshape(j - i, -1)
    return out


class ObsStream:
    """The tensors of ``n`` games kept up to date between steps (what
    :class:`~starlanes.envs.BatchedEnv` returns): after a step most ship blocks and heads
    are as they were, so :meth:`update` rewrites only the heads whose inputs changed (about
    one game in seven a step in random play) and the blocks of the ship slots whose shown
    fields (:data:`_SHOWN`) or acting flag changed, all blocks of a game whose observer
    changed (its fleets change places), from the same tables as :func:`observation`,
    which gives the same values. ``buf``: float32 [n, N], the tensors."""

    def __init__(self, ot: ObsTables, n: int) -> None:
        self.ot = ot
        self.buf = np.zeros((n, HEAD + 2 * SLOTS * PER_SHIP), np.float32)
        self._blocks = self.buf[:, HEAD:].view(_BLOCK)  # [n, 70], one item a block
        assert np.shares_memory(self._blocks, self.buf)  # a view: written through
        self._heads = ChangeTracker()  # what the heads were made of
        self._kept: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        """What the blocks were last made of: the shown fields (int8 [7, n, 70]), the
        acting slots and the observers."""

    def update(self, b: GDBatch, seats: np.ndarray,
               current: np.ndarray | None = None) -> np.ndarray:
        """``buf``, each row now ``observation(b, seats, ...)``'s (``seats``, ``current``
        as there; ``b`` holds as many games as this stream)."""
        v = np.asarray(seats, np.int64)
        buf = self.buf
        cur = b.current_player() if current is None else current
        r = self._heads.changed(_head_inputs(b, v, cur))  # None at first: every head
        if r is None or r.size:  # the heads made again only where what they show changed
            _head(b, v, cur, buf, r)
        s = b.ships
        if self._kept is None:
            observation(b, v, self.ot, buf, cur)
            self._kept = (s[_SHOWN], b.act.copy(), v.copy())
            return buf
        kept, act, seen_by = self._kept
        diff = s[SEC] != kept[0]
        for i in range(1, _SHOWN.size):
            diff |= s[_SHOWN[i]] != kept[i]
        # an empty slot's block is all zeros whatever its other fields (a new turn sets the
        # AP of every slot of the seat): a slot empty before and now keeps its block
        present = s[HULL] != 0
        was = kept[_SHOWN_HULL] != 0
        diff &= present | was
        moved = np.flatnonzero(b.act != act)
        if moved.size:  # the acting flag: off on the last acting ship, on on the new one
            for slot in (act[moved], b.act[moved]):
                on = slot >= 0
                diff[moved[on], slot[on]] = True
            act[moved] = b.act[moved]
        flip = np.flatnonzero(v != seen_by)
        if flip.size:  # the fleets change places: the place of an empty slot whose
            # partner in the other fleet was empty too keeps its zeros
            diff[flip] |= present[flip] | np.roll(was[flip], SLOTS, axis=1)
            seen_by[flip] = v[flip]
        at = np.flatnonzero(diff)  # (a 2-D nonzero costs twice as much)
        if at.size:
            shown = np.empty((_SHOWN.size, at.size), np.int8)
            for i, field in enumerate(_SHOWN):
                np.take(s[field].reshape(-1), at, out=shown[i])
                kept[i].reshape(-1)[at] = shown[i]
            r, g = np.divmod(at, 2 * SLOTS)
            self._blocks[r, g % SLOTS + SLOTS * (g // SLOTS != v[r])] = \
                _block_items(self.ot, g, shown, b.act[r] == g)
        return buf


def _block_items(ot: ObsTables, g: np.ndarray, shown: np.ndarray,
                 acting: np.ndarray) -> np.ndarray:
    """The blocks of ship slots ``g`` (int [k]) showing ``shown`` (int8 [7, k], the
    :data:`_SHOWN` fields) and ``acting`` (bool [k]), each one item (:data:`_BLOCK`)."""
    sec, sh, hull, ap, att, chg, aim = shown
    code = (((sec & 15) * ot.sh1[g] + sh) * ot.hull1[g] + hull) * ot.ap1[g] + ap
    vals = ot.ship_items[code * 2 + att + ot.base70[g]].view(np.float32) \
        .reshape(-1, PER_SHIP)
    c = np.flatnonzero(chg > 0)
    if c.size:  # charge flag 0 -> the charge, aim flag "none" -> the aim
        vals[c, 21] = 0.0
        vals[c, 39] = 0.0
        vals[c, 21 + np.minimum(chg[c], 2)] = 1.0
        vals[c, 24 + (aim[c] & 15)] = 1.0
    vals[:, PER_SHIP - 1] = acting
    return vals.view(_BLOCK).reshape(-1)
