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
    ACT,
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
    P,
    Tables,
)

HEAD = 37
PER_SHIP = 41
LOW, HIGH = 0.0, 1000.0
"""The adapters' clip bounds of this game's tensor (``research.toml``)."""


class ObsTables:
    """The block tables of one :class:`~.batched.Tables`. ``ship`` [1 + ..., 41]: a ship's
    whole block by type, location (sector, 15: deep space), shields, hull, AP and attached,
    with no charge, no aim and not acting (row 0: an empty slot); ``special`` [96, 20]: the
    last 20 values (charge flags, aim flags, acting) by charge (0..2), aim (sector, 15:
    none) and acting, written over the ships that have any."""

    def __init__(self, t: Tables) -> None:
        rows = [np.zeros((1, PER_SHIP), np.float32)]
        base, size = [], 1
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
            rows.append(block.reshape(-1, PER_SHIP))
            size += rows[-1].shape[0]
        self.ship = np.concatenate(rows)
        self.base70 = np.array(base, np.int32)[KIND70]
        self.sh1 = (t.max_sh.astype(np.int32) + 1)[KIND70]
        self.hull1 = (t.max_hull.astype(np.int32) + 1)[KIND70]
        self.ap1 = (t.max_ap.astype(np.int32) + 1)[KIND70]
        special = np.zeros((3, 16, 2, 20), np.float32)
        for c in range(3):
            special[c, :, :, c] = 1.0
        for a in range(16):
            special[:, a, :, 3 + a] = 1.0
        special[:, :, 1, 19] = 1.0
        self.special = special.reshape(-1, 20)
        self.scratch: dict[int, np.ndarray] = {}


def observation(b: GDBatch, seats: np.ndarray, ot: ObsTables,
                out: np.ndarray | None = None) -> np.ndarray:
    """float32 [n, N]: each game's tensor seen from ``seats`` (int [n], 0 or 1), clipped to
    the adapters' bounds; written into ``out`` when given (that shape and dtype)."""
    t = b.t
    n = b.n
    rows = np.arange(n)
    v = np.asarray(seats, np.int64)
    w = 1 - v
    if out is None:
        out = np.empty((n, HEAD + 2 * SLOTS * PER_SHIP), np.float32)
    head = out[:, :HEAD]
    head[:, 0:4] = np.arange(4) == b.phase[:, None]
    head[:, 4] = b.seat == v
    head[:, 5] = b.first == v
    head[:, 6] = b.current_player() == v
    head[:, 7] = b.round / t.turn_limit
    head[:, 8] = b.minerals[rows, v]
    head[:, 9] = b.minerals[rows, w]
    head[:, 10] = b.dark[rows, v]
    head[:, 11] = b.dark[rows, w]
    np.minimum(head[:, 8:12], HIGH, out=head[:, 8:12])
    head[:, 12:27] = b.holes
    head[:, 27:32] = b.to_place[rows, v]
    head[:, 32:37] = b.to_place[rows, w]
    s = b.ships
    present = s[P] != 0
    code = ((s[SEC] & 15) * ot.sh1 + s[SH]) * ot.hull1 + s[HULL]
    code = (code * ot.ap1 + s[AP]) * 2 + s[ATT] + ot.base70
    code = np.where(present, code, 0)
    side = np.stack([v, w], 1)
    code = code.reshape(n, 2, SLOTS)[rows[:, None], side].reshape(n, -1)
    body = ot.scratch.get(n)
    if body is None:
        body = ot.scratch[n] = np.empty((n, 2 * SLOTS, PER_SHIP), np.float32)
    np.take(ot.ship, code, axis=0, out=body, mode="clip")
    chg, aim, act = s[CHG], s[AIM], s[ACT]
    special = present & ((chg != 0) | (aim >= 0) | (act != 0))
    r, g = np.nonzero(special)
    if r.size:
        pos = g % SLOTS + SLOTS * (g // SLOTS != v[r])
        c = ((np.clip(chg[r, g], 0, 2) * 16 + (aim[r, g] & 15)) * 2 + act[r, g])
        body[r, pos, 21:] = ot.special[c]
    out[:, HEAD:] = body.reshape(n, -1)
    return out
