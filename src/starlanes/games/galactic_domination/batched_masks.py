"""Legal action masks of a :class:`~.batched.GDBatch`: bool [n, A] in the index numbering
of the game's fixed action space (``action_space``), exactly the indices of the reference
state's legal actions (``rules.legal_actions``).

Sector sets are 15-bit integers (bit ``t`` is sector ``t``), combined with ``&`` and turned
into the mask's per-sector rows by one look-up (``Tables.bit_rows``); attacks are the
``&`` of each attacker's reach with each target's sector bit.
"""

from __future__ import annotations

import weakref

import numpy as np

from starlanes.engine.batch_changes import changed_rows

from .batched import (
    ACTING,
    AIM,
    AP,
    ARRIVE,
    ATT,
    CAPACITY,
    CHG,
    COLLIDE,
    DESTROYER,
    FIRST,
    KIND_OF_SLOT,
    MINER,
    NONMINER70,
    SEC,
    SETUP,
    SLOTS,
    TEAM_MAX,
    GDBatch,
    P,
    Tables,
)

_POW2 = (1 << np.arange(16)).astype(np.int16)
_POW2_15 = _POW2[:15].copy()
_NONMINER = KIND_OF_SLOT != MINER
_NONMINER16 = np.where(_NONMINER, -1, 0).astype(np.int16)
"""All bits for a slot whose type counts towards capacity (not the miner, GD-MAP-06)."""
_SLOT16 = (16 * np.arange(SLOTS)).astype(np.int16)
_POPCOUNT15 = np.array([bin(x).count("1") for x in range(1 << 15)], np.int8)
"""The number of sectors in each 15-bit sector set."""


def _to_bits(flags: np.ndarray) -> np.ndarray:
    """bool [..., 15] -> int16 [...] sector sets (an integer product with the powers of
    two: a quarter of ``packbits``' time on a [4096, 15] array)."""
    return flags.view(np.uint8) @ _POW2_15


def _rows15(t: Tables, bits: np.ndarray) -> np.ndarray:
    """int16 sector sets [...] -> bool [..., 15]."""
    return np.take(t.bit_rows, bits, axis=0)


_FLEET = np.dtype((np.void, SLOTS))
"""One seat's 35 int8 values of one field, as one item: a gather of whole fleets copies
one item each (half the time of a gather of [35] sub-arrays)."""


def fleets(b: GDBatch, seat: np.ndarray, fields: tuple[int, ...]) -> np.ndarray:
    """The ``fields`` of ``seat``'s 35 ship slots in every game, in that order: int8
    [len(fields), n, 35] (one gather, not every field's)."""
    s = b.ships.view(_FLEET).reshape(-1, b.n, 2)
    got = s[np.array(fields)[:, None], np.arange(b.n), seat]
    return got.view(np.int8).reshape(len(fields), b.n, SLOTS)


def legal_mask(b: GDBatch, out: np.ndarray | None = None) -> np.ndarray:
    """bool [n, A]: the legal actions of every game (all False for a finished one): set-up
    placement (GD-SET-04), a pending arrival (GD-DS-05) or collision (GD-DS-06) decision,
    else the spending step (GD-AP-*, GD-BLD-*, GD-SPC-*). Written into ``out`` when given
    (bool, C-contiguous, that shape): every column of the families written for every game
    is overwritten, the others (:data:`SPARSE`) are cleared first, so ``out`` need not be
    cleared whole (a [B, 3651] array is 15 MB at B=4096); they are cleared only in the
    games where the last call into the same ``out`` wrote them (``b.mask_record``), so
    ``out`` must be written by this batch's calls alone. The build block is made again
    only in the games whose build inputs changed since the last call into the same
    ``out``."""
    t = b.t
    n = b.n
    last: MaskRecord | None = None
    record: MaskRecord | None = None
    if out is None:
        mask = np.zeros((n, t.size), np.bool_)
    else:
        mask = out
        rec = b.mask_record
        last = rec if rec is not None and rec.array() is mask else None
        _clear_sparse(b, mask, last)
        b.mask_record = record = MaskRecord(mask)
    written = {} if record is None else record.sparse
    items = {} if record is None else record.items
    seat = b.seat
    acting = b.phase == ACTING
    # the acting seat's fleet and the opponent's, [n, 35]
    sec, ap, chg, attached, aim, present = fleets(b, seat, (SEC, AP, CHG, ATT, AIM, P))
    sec16 = sec & 15
    (opp_sec,) = fleets(b, 1 - seat, (SEC,))
    # capacity (GD-MAP-04/06) and black holes, as sector sets
    load = b.load()
    full_bits = _to_bits(load >= CAPACITY)
    hole_bits = _to_bits(b.holes)
    can = (ap > 0) & (sec >= 0) & acting[:, None]
    free = can & (chg != 2)
    # end (GD-AP-07)
    mask[:, t.off["end"]] = acting
    # moves: adjacent, not a black hole, room unless a miner (GD-AP-04, GD-MAP-05/06); a
    # ship that may not act has no moves, so only the rows of the ships that may are made
    free_r, free_c = np.divmod(np.flatnonzero(free), SLOTS)
    blocked = hole_bits[free_r] | (full_bits[free_r] & _NONMINER16[free_c])
    bits = np.take(t.adj_bits, sec16[free_r, free_c]) & ~blocked
    _write_sectors(mask, t, "move", free_r, free_c, bits, items)
    # attacks: an armed ship's reach holds the target's sector (GD-AP-05, GD-RNG-*); the
    # miner reaches nothing (GD-RNG-02); made for the rows of the armed ships that may act
    # and reach a sector holding a target
    target = np.take(_POW2, opp_sec & 15) & 0x7FFF  # bit 15: not on the board
    held = np.bitwise_or.reduce(target, axis=1)
    armed = np.flatnonzero(_NONMINER[free_c])
    r, c = free_r[armed], free_c[armed]
    reach = np.take(t.reach35, _SLOT16[c] + sec16[r, c]) & held[r]
    keep = np.flatnonzero(reach)
    r, c, reach = r[keep], c[keep], reach[keep]
    hits = np.bitwise_and(reach[:, None], target[r]) != 0
    _write_rows(mask, t, "attack", r, c, hits.view(_ROW["attack"]).reshape(-1), items)
    # attach (GD-SPC-01) and warp (GD-DS-01)
    m0 = FIRST[MINER]
    o = t.off["attach"]
    mask[:, o + m0:o + m0 + 15] = free[:, m0:m0 + 15] & (attached[:, m0:m0 + 15] == 0)
    o = t.off["warp"]
    mask[:, o + 5:o + 10] = free[:, 5:10]
    _specials(b, mask, can, free, sec16, chg, aim, load, hole_bits, written, items)
    _builds(b, mask, acting, full_bits, hole_bits, present, last, record)
    if (b.phase == SETUP).any():
        _places(b, mask, load, written)
    if (b.dec != 0).any():
        _decisions(b, mask, written)
    return mask


SPARSE = ("place", "jump", "arrive", "sacrifice", "move", "attack", "charge_shot")
"""The families :func:`legal_mask` writes for some games only (set-up, a charged jump, a
pending decision) or for some ships only (moves, attacks and black hole charges: a row
of sectors or of targets per ship, written for the ships whose row holds a legal action,
:data:`_ROW`); it writes every other family whole."""

_ROW = {"move": np.dtype((np.void, 15)), "attack": np.dtype((np.void, SLOTS)),
        "charge_shot": np.dtype((np.void, 15))}
"""The families written ship by ship, and a ship's row of each as one item (sectors or
targets): a row is written or cleared as one item."""


_CLEAR = {name: np.zeros((), row) for name, row in _ROW.items()}
"""An empty row of each family written ship by ship."""


def _write_rows(mask: np.ndarray, t: Tables, name: str, r: np.ndarray, c: np.ndarray,
                rows: np.ndarray, items: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Write ``rows`` (items of ``_ROW[name]``) as the rows of ship slots ``c`` of games
    ``r`` in family ``name``; the ships written go in ``items``."""
    lo, hi = t.family_span[name]
    mask[:, lo:hi].view(_ROW[name])[r, c] = rows
    items[name] = (r, c)


def _write_sectors(mask: np.ndarray, t: Tables, name: str, r: np.ndarray, c: np.ndarray,
                   bits: np.ndarray, items: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """:func:`_write_rows` of sector sets ``bits`` (int16 [k]) as rows of 15 flags,
    leaving out the empty ones."""
    keep = np.flatnonzero(bits)
    _write_rows(mask, t, name, r[keep], c[keep], np.take(t.bit_items, bits[keep]), items)


class MaskRecord:
    """What :func:`legal_mask` wrote into an ``out`` array (kept as ``GDBatch.mask_record``):
    the array (a weak reference), the games in which it wrote each :data:`SPARSE` family
    written game by game (``sparse``), the games and ship slots of the rows it wrote of
    each family written ship by ship (``items``) and the inputs its build block was made
    of (``builds``)."""

    __slots__ = ("array", "sparse", "items", "builds")

    def __init__(self, array: np.ndarray) -> None:
        self.array = weakref.ref(array)
        self.sparse: dict[str, np.ndarray] = {}
        self.items: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        """The families written ship by ship (:data:`_ROW`): the games and slots."""
        self.builds: tuple[np.ndarray, ...] | None = None


def _clear_sparse(b: GDBatch, mask: np.ndarray, last: MaskRecord | None) -> None:
    """Clear the :data:`SPARSE` families of ``mask``: in the games the last call into this
    same array wrote them (``last``), else in every game."""
    for name in SPARSE:
        lo, hi = b.t.family_span[name]
        if last is None:
            mask[:, lo:hi] = False
        elif name in last.sparse:
            mask[last.sparse[name], lo:hi] = False
        elif name in last.items:
            mask[:, lo:hi].view(_ROW[name])[last.items[name]] = _CLEAR[name]


def _specials(b: GDBatch, mask: np.ndarray, can: np.ndarray, free: np.ndarray,
              sec16: np.ndarray, chg: np.ndarray, aim: np.ndarray, load: np.ndarray,
              hole_bits: np.ndarray, written: dict[str, np.ndarray],
              items: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Black hole shot (GD-SPC-04..06, ruling GD-OPEN-06) and fleet jump (GD-SPC-07..09,
    ruling GD-OPEN-08): charging needs the costs in hand and a ship not charging already;
    a charged ship may only fire or jump. The games given jumps go in ``written``, the
    rows of black hole charges in ``items``."""
    t = b.t
    n = b.n
    seat = b.seat
    rows = np.arange(n)
    money = b.minerals[rows, seat]
    dark = b.dark[rows, seat]
    left = t.markers - np.take(_POPCOUNT15, hole_bits)
    d0, c0 = 25, 0
    dsl = slice(d0, d0 + 5)
    reach_d = np.take(t.reach_bits[DESTROYER], sec16[:, dsl])
    shot_ok = (dark >= t.bh_dark) & (money >= t.bh_minerals) & (left > 0)
    r, c = np.divmod(np.flatnonzero(free[:, dsl] & (chg[:, dsl] == 0) & shot_ok[:, None]), 5)
    _write_sectors(mask, t, "charge_shot", r, c + d0, reach_d[r, c] & ~hole_bits[r], items)
    aim_bit = np.take(_POW2, aim[:, dsl] & 15) & 0x7FFF
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
        mask[row[:, None], cols] = _rows15(t, bits)
        written["jump"] = row


def _builds(b: GDBatch, mask: np.ndarray, acting: np.ndarray, full_bits: np.ndarray,
            hole_bits: np.ndarray, present: np.ndarray, last: MaskRecord | None,
            record: MaskRecord | None) -> None:
    """Build: affordable (GD-BLD-03), within the team limits (GD-LIM-01..03), in a sector
    of the start zone that is no black hole and has room unless a miner (GD-BLD-04,
    ruling GD-OPEN-15). Made only in the games whose inputs changed since ``last`` (the
    record of the last call into the same array; None: every game)."""
    t = b.t
    rows = np.arange(b.n)
    money = b.minerals[rows, b.seat]
    zone = t.zone_bits[b.start[rows, b.seat]]
    inputs = (acting, money, present, full_bits, hole_bits, zone)
    if record is not None:
        record.builds = inputs
    if last is not None and last.builds is not None:
        rows = changed_rows(inputs, last.builds)
        if not rows.size:
            return
        acting, money, present, full_bits, hole_bits, zone = (a[rows] for a in inputs)
    counts = np.add.reduceat(present, FIRST, axis=1)  # int8 0/1 flags: no cast
    caps = np.array([5, 5, 15, 5, 5])
    ok = (acting & (money >= t.cost.min()) & (counts.sum(1) < TEAM_MAX))[:, None] \
        & (t.cost <= money[:, None]) & (counts < caps)
    room = np.where(np.arange(5) == MINER, 0, full_bits[:, None])
    bits = np.where(ok, (zone & ~hole_bits)[:, None] & ~room, 0).astype(np.int16)
    o = t.off["build"]
    mask[rows, o:o + 75] = _rows15(t, bits).reshape(rows.size, -1)


def _places(b: GDBatch, mask: np.ndarray, load: np.ndarray,
            written: dict[str, np.ndarray]) -> None:
    """Set-up: a ship type still to place, in a sector of the seat's zone with room unless
    a miner (GD-SET-04, GD-MAP-05/06). The games go in ``written``."""
    t = b.t
    r = written["place"] = np.flatnonzero(b.phase == SETUP)
    seat = b.seat[r]
    left = b.to_place[r, seat] > 0
    zone = t.zone_bits[b.start[r, seat]]
    full = _to_bits(load[r] >= CAPACITY)
    room = np.where(np.arange(5) == MINER, 0, full[:, None])
    bits = np.where(left, zone[:, None] & ~room, 0).astype(np.int16)
    o = t.off["place"]
    mask[r, o:o + 75] = _rows15(t, bits).reshape(r.size, -1)


def _decisions(b: GDBatch, mask: np.ndarray, written: dict[str, np.ndarray]) -> None:
    """Arrival sectors (GD-DS-05, option ``arrive_full``) and the defender's non-miner ships
    in a collision's sector (GD-DS-06, ruling GD-OPEN-10). The games go in ``written``."""
    t, s = b.t, b.ships
    r = written["arrive"] = np.flatnonzero(b.dec == ARRIVE)
    if r.size:
        ok = b.arrival_sectors(r, b.dec_zone[r])
        slot = b.dec_ship[r] - b.dec_seat[r] * SLOTS
        cols = t.off["arrive"] + slot[:, None] * 15 + b.dec_zone[r][:, None] * 3 + np.arange(3)
        mask[r[:, None], cols] = ok
    r = written["sacrifice"] = np.flatnonzero(b.dec == COLLIDE)
    if r.size:
        g = b.dec_seat[r][:, None] * SLOTS + np.arange(SLOTS)
        ok = ((s[P, r[:, None], g] != 0) & (s[SEC, r[:, None], g] == b.dec_sector[r][:, None])
              & _NONMINER)
        o = t.off["sacrifice"]
        mask[r, o:o + SLOTS] = ok

