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


CHUNK = 64
"""Games whose ship blocks are gathered at once (their scratch stays in the core's cache)."""


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
        dtype = np.int16 if size < 1 << 15 else np.int64
        self.base70 = np.array(base, dtype)[KIND70]
        self.sh1 = (t.max_sh.astype(dtype) + 1)[KIND70]
        self.hull1 = (t.max_hull.astype(dtype) + 1)[KIND70]
        self.ap1 = (t.max_ap.astype(dtype) + 1)[KIND70]
        self.scratch = np.empty((CHUNK, 2 * SLOTS, PER_SHIP), np.float32)


def observation(b: GDBatch, seats: np.ndarray, ot: ObsTables,
                out: np.ndarray | None = None,
                current: np.ndarray | None = None) -> np.ndarray:
    """float32 [n, N]: each game's tensor seen from ``seats`` (int [n], 0 or 1), clipped to
    the adapters' bounds; written into ``out`` when given (that shape and dtype).
    ``current``: ``b.current_player()`` when the caller has it already."""
    t = b.t
    n = b.n
    rows = np.arange(n)
    v = np.asarray(seats, np.int64)
    w = 1 - v
    if out is None:
        out = np.empty((n, HEAD + 2 * SLOTS * PER_SHIP), np.float32)
    head = np.empty((n, HEAD), np.float32)
    head[:, 0:4] = np.arange(4) == b.phase[:, None]
    head[:, 4] = b.seat == v
    head[:, 5] = b.first == v
    head[:, 6] = (b.current_player() if current is None else current) == v
    head[:, 7] = b.round / t.turn_limit
    head[:, 8:12] = np.minimum(np.stack([b.minerals[rows, v], b.minerals[rows, w],
                                         b.dark[rows, v], b.dark[rows, w]], 1), HIGH)
    head[:, 12:27] = b.holes
    head[:, 27:32] = b.to_place[rows, v]
    head[:, 32:37] = b.to_place[rows, w]
    out[:, :HEAD] = head
    s = b.ships
    code = ((s[SEC] & 15) * ot.sh1 + s[SH]) * ot.hull1 + s[HULL]
    code = (code * ot.ap1 + s[AP]) * 2 + s[ATT] + ot.base70
    side = np.stack([v, w], 1)
    code = code.reshape(n, 2, SLOTS)[rows[:, None], side].reshape(n, -1)
    scratch = ot.scratch
    for i in range(0, n, CHUNK):
        j = min(n, i + CHUNK)
        part = scratch[:j - i]
        np.take(ot.ship, code[i:j], axis=0, out=part, mode="clip")
        out[i:j, HEAD:] = part.reshape(j - i, -1)
    flat = out.reshape(-1)
    size = out.shape[1]
    chg = s[CHG]
    r, g = np.nonzero(chg)
    if r.size:  # charge flag 0 -> chg, aim flag "none" -> the aim
        at = r * size + HEAD + (g % SLOTS + SLOTS * (g // SLOTS != v[r])) * PER_SHIP
        flat[at + 21] = 0.0
        flat[at + 39] = 0.0
        flat[at + 21 + np.clip(chg[r, g], 0, 2)] = 1.0
        flat[at + 24 + (s[AIM, r, g] & 15)] = 1.0
    r = np.flatnonzero(b.act >= 0)
    if r.size:
        g = b.act[r]
        at = r * size + HEAD + (g % SLOTS + SLOTS * (g // SLOTS != v[r])) * PER_SHIP
        flat[at + PER_SHIP - 1] = 1.0
    return out
