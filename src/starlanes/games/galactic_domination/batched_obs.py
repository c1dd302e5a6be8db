"""Observation tensors of a :class:`~.batched.GDBatch`: float32 [n, N], each row exactly
``tensor.encode(state, seat)`` of the reference state, clipped as the research adapters
clip it (``starlanes.interop.tensor_encoder``: every value into [low, high] of
``research.toml``, 0 and 1000 for this game). The layout is ``tensor``'s: a head (phase
flags, turn, player 1, to act, round / turn limit, minerals and dark matter, black holes,
ships to place) and 41 values per ship slot, the observing seat's fleet first. Galactic
Domination hides nothing (ruling GD-OPEN-05).

Each ship slot's block is two table rows: one by (location, charge, aim, acting ship), one
by (type, shields, hull, AP, attached), the fractions computed once as the reference
computes them (float64 division rounded to float32).
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
    P,
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


class ObsTables:
    """The block tables of one :class:`~.batched.Tables`: ``loc`` rows [17 * 96, 41] by
    location code (0 empty slot, 1 + sector, 16 deep space), charge (0..2), aim (sector or
    15: none) and acting flag; ``stats`` rows [1 + ..., 4] by type and the ship's shields,
    hull, AP and attached (row 0: empty slot), laid out from ``base`` per slot."""

    def __init__(self, t: Tables) -> None:
        loc = np.zeros((17, 3, 16, 2, PER_SHIP), np.float32)
        for code in range(1, 17):
            loc[code, :, :, :, 0] = 1.0
            loc[code, :, :, :, code] = 1.0
            for c in range(3):
                loc[code, c, :, :, 21 + c] = 1.0
            for a in range(16):
                loc[code, :, a, :, 24 + a] = 1.0
            loc[code, :, :, 1, 40] = 1.0
        self.loc = loc.reshape(-1, PER_SHIP)
        rows = [np.zeros(4, np.float32)]
        base = []
        for k in range(5):
            base.append(len(rows))
            ms, mh, ma = int(t.max_sh[k]), int(t.max_hull[k]), int(t.max_ap[k])
            for sh in range(ms + 1):
                for hull in range(mh + 1):
                    for ap in range(ma + 1):
                        for att in range(2):
                            rows.append(np.array(
                                [sh / ms if ms else 0.0, hull / mh, ap / ma, float(att)],
                                dtype=np.float32))
        self.stats = np.array(rows, np.float32)
        self.base70 = np.array(base, np.int64)[KIND70]
        self.hull1 = (t.max_hull.astype(np.int64) + 1)[KIND70]
        self.ap1 = (t.max_ap.astype(np.int64) + 1)[KIND70]


def observation(b: GDBatch, seats: np.ndarray, ot: ObsTables,
                out: np.ndarray | None = None) -> np.ndarray:
    """float32 [n, N]: each game's tensor seen from ``seats`` (int [n], 0 or 1), clipped to
    the adapters' bounds; written into ``out`` when given (C-contiguous, that shape)."""
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
    sec = s[SEC].astype(np.int64)
    chg = s[CHG].astype(np.int64)
    aim = s[AIM].astype(np.int64)
    loc = np.where(sec >= 0, sec + 1, 16)
    code = ((np.where(present, loc, 0) * 3 + np.clip(chg, 0, 2)) * 16
            + np.where(aim >= 0, aim, 15)) * 2 + s[ACT]
    stats = np.where(present, ot.base70 + ((s[SH] * ot.hull1 + s[HULL]) * ot.ap1 + s[AP]) * 2
                     + s[ATT], 0)
    side = np.stack([v, w], 1)
    code = code.reshape(n, 2, SLOTS)[rows[:, None], side].reshape(n, -1)
    stats = stats.reshape(n, 2, SLOTS)[rows[:, None], side].reshape(n, -1)
    body = out[:, HEAD:].reshape(n, 2 * SLOTS, PER_SHIP)
    np.take(ot.loc, code, axis=0, out=body, mode="clip")
    body[:, :, 17:21] = ot.stats[stats]
    return out

