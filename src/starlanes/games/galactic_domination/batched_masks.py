"""Legal action masks of a :class:`~.batched.GDBatch`: bool [n, A] in the index numbering
of the game's fixed action space (``action_space``), exactly the indices of the reference
state's legal actions (``rules.legal_actions``).

Sector sets are 15-bit integers (bit ``t`` is sector ``t``), combined with ``&`` and turned
into the mask's per-sector rows by one look-up (``Tables.bit_rows``); attacks are the
``&`` of each attacker's reach with each target's sector bit.
"""

from __future__ import annotations

import numpy as np

from .batched import (
    AIM,
    AP,
    ARRIVE,
    ATT,
    CAPACITY,
    CHG,
    COLLIDE,
    FIRST,
    KIND_OF_SLOT,
    MINER,
    NONMINER70,
    ACTING,
    P,
    SEC,
    SETUP,
    SLOTS,
    TEAM_MAX,
    GDBatch,
)

_POW2 = (1 << np.arange(16)).astype(np.int64)
_NONMINER = KIND_OF_SLOT != MINER
_ATTACKERS = np.flatnonzero(_NONMINER)
"""Slots of armed types (the miner is not armed, GD-RNG-02)."""


def _to_bits(flags: np.ndarray) -> np.ndarray:
    """bool [..., 15] -> int64 [...] sector sets."""
    return flags.astype(np.int64) @ _POW2[:flags.shape[-1]]


def legal_mask(b: GDBatch) -> np.ndarray:
    """bool [n, A]: the legal actions of every game (all False for a finished one): set-up
    placement (GD-SET-04), a pending arrival (GD-DS-05) or collision (GD-DS-06) decision,
    else the spending step (GD-AP-*, GD-BLD-*, GD-SPC-*)."""
    t = b.t
    n = b.n
    mask = np.zeros((n, t.size), np.bool_)
    rows = np.arange(n)
    s = b.ships
    seat = b.seat
    acting = (b.phase == ACTING) & (b.dec == 0)
    own_g = seat[:, None] * SLOTS + np.arange(SLOTS)
    opp_g = (1 - seat)[:, None] * SLOTS + np.arange(SLOTS)
    r2 = rows[:, None]
    # ship fields of the acting seat's fleet and the opponent's, [n, 35]
    p = s[P, r2, own_g] != 0
    sec = s[SEC, r2, own_g].astype(np.int64)
    ap = s[AP, r2, own_g]
    chg = s[CHG, r2, own_g]
    on = sec >= 0
    sec16 = np.where(on, sec, 15)
    opp_sec = s[SEC, r2, opp_g].astype(np.int64)
    opp_on = (s[P, r2, opp_g] != 0) & (opp_sec >= 0)
    # capacity (GD-MAP-04/06) and black holes, as sector sets
    allsec = s[SEC].astype(np.int64)
    counted = (s[P] != 0) & NONMINER70 & (allsec >= 0)
    idx = np.where(counted, allsec, 15) + 16 * r2
    load = np.bincount(idx.ravel(), minlength=16 * n).reshape(n, 16)[:, :15]
    full_bits = _to_bits(load >= CAPACITY)
    hole_bits = _to_bits(b.holes)
    can = p & on & (ap > 0) & acting[:, None]
    free = can & (chg != 2)
    # end (GD-AP-07)
    mask[:, t.off["end"]] = acting
    # moves: adjacent, not a black hole, room unless a miner (GD-AP-04, GD-MAP-05/06)
    blocked = hole_bits[:, None] | np.where(_NONMINER, full_bits[:, None], 0)
    move_bits = np.where(free, t.adj_bits[sec16] & ~blocked, 0)
    o = t.off["move"]
    mask[:, o:o + SLOTS * 15] = t.bit_rows[move_bits].reshape(n, -1)
    # attacks: an armed ship's reach holds the target's sector (GD-AP-05, GD-RNG-*)
    reach = np.where(free[:, _ATTACKERS], t.reach_bits[KIND_OF_SLOT[_ATTACKERS], sec16[:, _ATTACKERS]], 0)
    target = np.where(opp_on, 1 << np.where(opp_on, opp_sec, 0), 0)
    hits = (reach[:, :, None] & target[:, None, :]) != 0
    o = t.off["attack"]
    att = mask[:, o:o + SLOTS * SLOTS].reshape(n, SLOTS, SLOTS)
    att[:, _ATTACKERS] = hits
    # attach (GD-SPC-01) and warp (GD-DS-01)
    m0 = FIRST[MINER]
    o = t.off["attach"]
    mask[:, o + m0:o + m0 + 15] = free[:, m0:m0 + 15] & (s[ATT, r2, own_g[:, m0:m0 + 15]] == 0)
    o = t.off["warp"]
    mask[:, o + 5:o + 10] = free[:, 5:10]
    _specials(b, mask, can, free, sec16, chg, load, hole_bits)
    _builds(b, mask, acting, load, full_bits, hole_bits, p)
    if (b.phase == SETUP).any():
        _places(b, mask, load)
    if (b.dec != 0).any():
        _decisions(b, mask, load)
    return mask


def _specials(b: GDBatch, mask: np.ndarray, can: np.ndarray, free: np.ndarray,
              sec16: np.ndarray, chg: np.ndarray, load: np.ndarray,
              hole_bits: np.ndarray) -> None:
    """Black hole shot (GD-SPC-04..06, ruling GD-OPEN-06) and fleet jump (GD-SPC-07..09,
    ruling GD-OPEN-08): charging needs the costs in hand and a ship not charging already;
    a charged ship may only fire or jump."""
    t, s = b.t, b.ships
    n = b.n
    seat = b.seat
    rows = np.arange(n)
    money = b.minerals[rows, seat]
    dark = b.dark[rows, seat]
    left = t.markers - b.holes.sum(1)
    d0, c0 = 25, 0
    dsl = slice(d0, d0 + 5)
    reach_d = t.reach_bits[3][sec16[:, dsl]]
    shot_ok = (dark >= t.bh_dark) & (money >= t.bh_minerals) & (left > 0)
    charge_bits = np.where(free[:, dsl] & (chg[:, dsl] == 0) & shot_ok[:, None],
                           reach_d & ~hole_bits[:, None], 0)
    o = t.off["charge_shot"]
    mask[:, o + d0 * 15:o + (d0 + 5) * 15] = t.bit_rows[charge_bits].reshape(n, -1)
    g = seat[:, None] * SLOTS + np.arange(d0, d0 + 5)
    aim = s[AIM, rows[:, None], g].astype(np.int64)
    aim_bit = np.where(aim >= 0, 1 << np.maximum(aim, 0), 0)
    o = t.off["fire"]
    mask[:, o + d0:o + d0 + 5] = (can[:, dsl] & (chg[:, dsl] == 2) & (left > 0)[:, None]
                                  & ((reach_d & aim_bit & ~hole_bits[:, None]) != 0))
    csl = slice(c0, c0 + 5)
    o = t.off["charge_jump"]
    mask[:, o + c0:o + c0 + 5] = (free[:, csl] & (chg[:, csl] == 0)
                                  & (money >= t.jump_minerals)[:, None])
    charged = can[:, csl] & (chg[:, csl] == 2)
    if charged.any():
        r, c = np.nonzero(charged)
        row = rows[r]
        g = seat[r] * SLOTS + c0 + c
        need = 1 + (b.jump_group(row, g) & NONMINER70).sum(1)
        room = _to_bits(load[r] + need[:, None] <= CAPACITY)
        bits = t.jump_bits[sec16[r, c0 + c]] & ~hole_bits[r] & room
        o = t.off["jump"]
        cols = o + (c0 + c)[:, None] * 15 + np.arange(15)
        mask[row[:, None], cols] = t.bit_rows[bits]


def _builds(b: GDBatch, mask: np.ndarray, acting: np.ndarray, load: np.ndarray,
            full_bits: np.ndarray, hole_bits: np.ndarray, p: np.ndarray) -> None:
    """Build: affordable (GD-BLD-03), within the team limits (GD-LIM-01..03), in a sector
    of the start zone that is no black hole and has room unless a miner (GD-BLD-04,
    ruling GD-OPEN-15)."""
    t = b.t
    n = b.n
    rows = np.arange(n)
    money = b.minerals[rows, b.seat]
    counts = np.add.reduceat(p, FIRST, axis=1)
    caps = np.array([5, 5, 15, 5, 5])
    ok = (acting & (money >= t.cost.min()) & (counts.sum(1) < TEAM_MAX))[:, None] \
        & (t.cost <= money[:, None]) & (counts < caps)
    zone = t.zone_bits[b.start[rows, b.seat]]
    room = np.where(np.arange(5) == MINER, 0, full_bits[:, None])
    bits = np.where(ok, (zone & ~hole_bits)[:, None] & ~room, 0)
    o = t.off["build"]
    mask[:, o:o + 75] = t.bit_rows[bits].reshape(n, -1)


def _places(b: GDBatch, mask: np.ndarray, load: np.ndarray) -> None:
    """Set-up: a ship type still to place, in a sector of the seat's zone with room unless
    a miner (GD-SET-04, GD-MAP-05/06)."""
    t = b.t
    r = np.flatnonzero(b.phase == SETUP)
    seat = b.seat[r]
    left = b.to_place[r, seat] > 0
    zone = t.zone_bits[b.start[r, seat]]
    full = _to_bits(load[r] >= CAPACITY)
    room = np.where(np.arange(5) == MINER, 0, full[:, None])
    bits = np.where(left, zone[:, None] & ~room, 0)
    o = t.off["place"]
    mask[r, o:o + 75] = t.bit_rows[bits].reshape(r.size, -1)


def _decisions(b: GDBatch, mask: np.ndarray, load: np.ndarray) -> None:
    """Arrival sectors (GD-DS-05, option ``arrive_full``) and the defender's non-miner ships
    in a collision's sector (GD-DS-06, ruling GD-OPEN-10)."""
    t, s = b.t, b.ships
    r = np.flatnonzero(b.dec == ARRIVE)
    if r.size:
        ok = b.arrival_sectors(r, b.dec_zone[r])
        slot = b.dec_ship[r] - b.dec_seat[r] * SLOTS
        cols = t.off["arrive"] + slot[:, None] * 15 + b.dec_zone[r][:, None] * 3 + np.arange(3)
        mask[r[:, None], cols] = ok
    r = np.flatnonzero(b.dec == COLLIDE)
    if r.size:
        g = b.dec_seat[r][:, None] * SLOTS + np.arange(SLOTS)
        ok = ((s[P, r[:, None], g] != 0) & (s[SEC, r[:, None], g] == b.dec_sector[r][:, None])
              & _NONMINER)
        o = t.off["sacrifice"]
        mask[r, o:o + SLOTS] = ok

