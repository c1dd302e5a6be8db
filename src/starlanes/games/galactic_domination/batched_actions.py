"""The effects of actions on a :class:`~.batched.GDBatch` (the reference's ``setup``,
``fleet`` and ``specials`` apply functions, and ``turn``'s decisions), over arrays.

Every ship action (move, attack, attach, warp, charge, fire, jump) is applied to all the
games that took one in a single pass driven by per-index tables (:class:`ShipEffects`):
the acting ship is activated (GD-AP-08), pays 1 AP (GD-AP-03..06) and takes its new
field values; then the few effects beyond the acting ship (damage, black holes, the jump
group, a player left with no ship on the board) run on the games concerned.
"""

from __future__ import annotations

import numpy as np

from .batched import (
    AIM,
    AP,
    ATT,
    CHG,
    HULL,
    NF,
    NO_DECISION,
    OVER,
    RETURNS,
    SEC,
    SH,
    SLOTS,
    GDBatch,
    P,
    Tables,
)

KEEP = -100
"""A field an action leaves as it is."""


class ShipEffects:
    """Per action index of the fixed action space: ``slot`` of the acting ship in its
    owner's fleet (-1: not a ship action), ``values`` [A, NF] the fields it sets (``KEEP``:
    unchanged), ``ap_zero`` its AP go to 0 instead of 1 being paid, ``minerals`` and
    ``dark`` what its owner pays."""

    def __init__(self, t: Tables) -> None:
        size = t.size
        self.slot = np.full(size, -1, np.int64)
        values = np.full((size, NF), KEEP, np.int64)
        self.ap_zero = np.zeros(size, np.bool_)
        self.minerals = np.zeros(size, np.int64)
        self.dark = np.zeros(size, np.int64)
        slots = np.arange(SLOTS)
        for name in ("move", "charge_shot", "jump"):  # (ship, sector)
            o = t.off[name]
            idx = o + np.arange(SLOTS * 15)
            self.slot[idx] = (idx - o) // 15
            sector = (idx - o) % 15
            if name == "move":  # GD-AP-04; moving detaches a miner (ruling GD-OPEN-13)
                values[idx, SEC] = sector
                values[idx, ATT] = 0
            elif name == "charge_shot":  # GD-SPC-04/05, rulings GD-OPEN-06/07
                values[idx, SH] = 0
                values[idx, CHG] = 1
                values[idx, AIM] = sector
                self.ap_zero[idx] = t.charge_ends_turn
                self.minerals[idx] = t.bh_minerals
                self.dark[idx] = t.bh_dark
            else:  # GD-SPC-08, ruling GD-OPEN-08
                values[idx, SEC] = sector
                values[idx, ATT] = 0
                values[idx, CHG] = 0
        o = t.off["attack"]  # GD-AP-05: the damage is dealt below
        self.slot[o:o + SLOTS * SLOTS] = np.arange(SLOTS * SLOTS) // SLOTS
        for name in ("attach", "warp", "fire", "charge_jump"):  # (ship)
            idx = t.off[name] + slots
            self.slot[idx] = slots
            if name == "attach":  # GD-SPC-01
                values[idx, ATT] = 1
            elif name == "warp":  # GD-DS-01: off the board
                values[idx, SEC] = -1
                values[idx, ATT] = 0
                self.ap_zero[idx] = True
            elif name == "fire":  # GD-SPC-06: the charge is spent
                values[idx, CHG] = 0
                values[idx, AIM] = -1
            else:  # GD-SPC-07, rulings GD-OPEN-07/08
                values[idx, SH] = 0
                values[idx, CHG] = 1
                self.ap_zero[idx] = t.charge_ends_turn
                self.minerals[idx] = t.jump_minerals
        self.keep = values == KEEP
        self.values = np.where(self.keep, 0, values).astype(np.int8)


def effects(t: Tables) -> ShipEffects:
    """The :class:`ShipEffects` of ``t`` (made once, kept on it)."""
    got = getattr(t, "ship_effects", None)
    if got is None:
        got = t.ship_effects = ShipEffects(t)  # type: ignore[attr-defined]
    return got


def step(b: GDBatch, actions: np.ndarray) -> None:
    """Apply one legal action index per game (int [n]); finished games are skipped."""
    t = b.t
    eff = effects(t)
    a = np.asarray(actions, np.int64)
    live = b.phase != OVER
    a = np.where(live, a, 0)
    fam = np.where(live, t.family_of[a], -1)
    names = t.family_names
    ship = live & (eff.slot[a] >= 0)
    if ship.any():
        _ship_actions(b, np.flatnonzero(ship), a, fam, eff)
    counts = np.bincount(fam[~ship] + 1, minlength=len(names) + 1)[1:]
    for f in np.flatnonzero(counts):
        handler = _OTHER.get(names[f])
        if handler is not None:
            rows = np.flatnonzero(fam == f)
            handler(b, rows, a[rows] - t.family_start[f])
    returning = np.flatnonzero((b.phase == RETURNS) & (b.dec == NO_DECISION))
    if returning.size:  # a turn began or a decision was answered (GD-TURN-05)
        b._returns(returning)


def _ship_actions(b: GDBatch, rows: np.ndarray, a: np.ndarray, fam: np.ndarray,
                  eff: ShipEffects) -> None:
    """Every ship action at once (see the module docstring)."""
    t, s = b.t, b.ships
    names = t.family_names
    act = a[rows]
    kind = fam[rows]
    seat = b.seat[rows]
    g = seat * SLOTS + eff.slot[act]
    fire = kind == names.index("fire")
    aim = s[AIM, rows[fire], g[fire]].astype(np.int64) if fire.any() else None
    jump = kind == names.index("jump")
    group = b.jump_group(rows[jump], g[jump]) if jump.any() else None
    b._activate(rows, g)
    old = s[:, rows, g]
    new = np.where(eff.keep[act].T, old, eff.values[act].T)
    new[AP] = np.where(eff.ap_zero[act], 0, old[AP] - 1)
    s[:, rows, g] = new
    paid = eff.minerals[act]
    if paid.any():
        b.minerals[rows, seat] -= paid
        b.dark[rows, seat] -= eff.dark[act]
    attack = kind == names.index("attack")
    if attack.any():
        r = rows[attack]
        _hit(b, r, (1 - seat[attack]) * SLOTS + (act[attack] - t.off["attack"]) % SLOTS,
             t.damage70[g[attack]].astype(np.int64))
    warp = kind == names.index("warp")
    if warp.any():  # the warping player may be left with no ship on the board (GD-WIN-02)
        b._check_end(rows[warp])
    if aim is not None:
        _black_hole(b, rows[fire], aim)
    if group is not None:  # the group goes along and detaches (GD-SPC-08, GD-OPEN-08)
        r = rows[jump]
        dest = new[SEC, jump]
        s[SEC, r] = np.where(group, dest[:, None], s[SEC, r])
        s[ATT, r] = np.where(group, 0, s[ATT, r])


def _hit(b: GDBatch, rows: np.ndarray, target: np.ndarray, dmg: np.ndarray) -> None:
    """Damage on shields first, the rest on the hull in the same hit (GD-UNIT-04/05,
    ruling GD-OPEN-09); hull 0 destroys the ship (GD-UNIT-08), which may end the game
    (GD-WIN-02/03)."""
    s = b.ships
    sh = s[SH, rows, target].astype(np.int64)
    hull = s[HULL, rows, target].astype(np.int64)
    over = dmg > sh
    hull = np.where(over, hull - (dmg - sh), hull)
    s[SH, rows, target] = np.where(over, 0, sh - dmg)
    s[HULL, rows, target] = np.maximum(hull, 0)
    dead = hull <= 0
    if dead.any():
        r = rows[dead]
        s[P, r, target[dead]] = 0
        b._compact(r)
        b._check_end(r)


def _black_hole(b: GDBatch, rows: np.ndarray, aim: np.ndarray) -> None:
    """A black hole at ``aim`` destroys everything in that sector (GD-BH-01/02)."""
    s = b.ships
    b.holes[rows, aim] = True
    lost = (s[SEC, rows] == aim[:, None]) & (s[P, rows] != 0)
    hit = lost.any(1)
    if hit.any():
        r = rows[hit]
        s[P, r] = np.where(lost[hit], 0, s[P, r])
        b._compact(r)
    b._check_end(rows)


def _end(b: GDBatch, rows: np.ndarray, arg: np.ndarray) -> None:
    """End the spending step (GD-AP-07) and the turn."""
    b._end_turn(rows)


def _place(b: GDBatch, rows: np.ndarray, arg: np.ndarray) -> None:
    """Place a starting ship (GD-SET-04); players alternate while both have ships left;
    the first turn begins when all are placed."""
    seat = b.seat[rows]
    kind, sector = arg // 15, arg % 15
    b.to_place[rows, seat, kind] -= 1
    b._add_ship(rows, seat, kind, sector)
    other_left = b.to_place[rows, 1 - seat].any(1)
    b.seat[rows[other_left]] = 1 - seat[other_left]
    done = ~other_left & ~b.to_place[rows, seat].any(1)
    if done.any():
        r = rows[done]
        b.phase[r] = RETURNS
        b._start_turn(r, b.first[r])


def _build(b: GDBatch, rows: np.ndarray, arg: np.ndarray) -> None:
    """Pay and place a unit in the start zone (GD-BLD-01..05); the acting ship stays
    active (ruling on GD-AP-08)."""
    seat = b.seat[rows]
    kind, sector = arg // 15, arg % 15
    b.minerals[rows, seat] -= b.t.cost[kind]
    b._add_ship(rows, seat, kind, sector)


def _arrive(b: GDBatch, rows: np.ndarray, arg: np.ndarray) -> None:
    """The explorer's player picks its arrival sector (GD-DS-05); the other returns go on
    at the end of the step."""
    b.dec[rows] = NO_DECISION
    b._land(rows, b.dec_ship[rows], arg % 15)


def _sacrifice(b: GDBatch, rows: np.ndarray, arg: np.ndarray) -> None:
    """The collision destroys the explorer and the defender's chosen ship (GD-DS-06); the
    other returns go on at the end of the step."""
    s = b.ships
    b.dec[rows] = NO_DECISION
    s[P, rows, b.dec_ship[rows]] = 0
    s[P, rows, b.dec_seat[rows] * SLOTS + arg] = 0
    b._compact(rows)
    b._check_end(rows)


_OTHER = {"end": _end, "place": _place, "build": _build, "arrive": _arrive,
          "sacrifice": _sacrifice}
"""The actions that are not a ship's, by family."""
