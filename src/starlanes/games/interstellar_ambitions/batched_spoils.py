"""VICTORY SPOILS of a won invasion over arrays, as the reference's ``spoils`` (IA-SPOIL-*):
``spoil disrupt`` resets up to 3 of the DEFENDER's raised tokens to BASIC, one at a time
(ruling IA-OPEN-03); ``spoil-tech`` acquires a TECH the DEFENDER knows and the ATTACKER
does not (a marker, not the owner: IA-SPOIL-03, ruling IA-OPEN-25); ``spoil-bombard``
lowers a DEFENDER's planet one level per 3 whole BOMBARD points of the attacker's ships
still fighting, less shields (never below 1: IA-SPOIL-04/05, ruling IA-OPEN-24), and at
level 1 offers its capture for its colonise cost when 3:1 exchanges can make it up
(IA-SPOIL-06, IA-RES-02), with the 8-planet rule (IA-SPOIL-07: ``give_away`` first) and
the last-planet rescue (IA-SPOIL-08: a face-up planet at level 4 at most, ruling
IA-OPEN-12). The games with such a decision are handled one by one (they are few).
"""

from __future__ import annotations

import numpy as np

from . import batched_economy as eco
from .batched import (
    CAP_GIVE,
    CAPTURE,
    DISRUPT,
    MAX_PLANETS,
    NONE,
    RESCUE,
    SPOIL,
    IABatch,
    kind_table,
)
from .batched_combat import alive, ctab
from .batched_shadow import tables
from .common import can_pay_exchanging

KINDS = (SPOIL, CAPTURE, RESCUE, DISRUPT, CAP_GIVE)
_KINDS = kind_table(*KINDS)
DISRUPT_LIMIT = 3
"""The default ``disrupt_limit`` option (ruling IA-OPEN-03)."""


def _planets(b: IABatch, i: int, seat: int) -> list[int]:
    return [int(p) for p in b.pl_card[i, seat] if p >= 0]


def mask(b: IABatch, out: np.ndarray, rows: np.ndarray, k: np.ndarray, seat: np.ndarray,
         off: dict[str, int]) -> None:
    """The legal answers to the spoil, capture, give-away (of a capture), rescue and
    disrupt decisions."""
    fx = eco.effects(b)
    st = tables(b)
    arg = off["stacked_arg"]
    for j in np.flatnonzero(_KINDS[k]):
        i, kind, s = int(rows[j]), int(k[j]), int(seat[j])
        att, dfn = int(b.cb_att[i]), int(b.cb_dfn[i])
        if kind == SPOIL:
            tok = b.tokens[i, dfn]
            if ((tok >= 0) & ((tok & 3) > 0)).any():
                out[i, off["spoil"]] = True
            new = b.known[i, dfn] & ~b.known[i, att]
            out[i, off["spoil-tech"]:off["spoil-tech"] + b.n_techs] = new
            for p in _planets(b, i, dfn):
                out[i, off["spoil-bombard"] + p] = True
            out[i, off["pass"]] = True
        elif kind == CAPTURE:
            p = int(b.cap_planet[i])
            if (b.res[i, s] >= fx.cost[p]).all():
                out[i, off["capture"] + p] = True
            out[i, off["pass"]] = True
        elif kind == RESCUE:
            up = b.planet_slots[i].ravel()
            up = up[up >= 0]
            out[i, off["rescue"] + arg[up]] = True
            if not up.size:
                out[i, off["pass"]] = True
        elif kind == DISRUPT:
            tok = b.tokens[i, dfn]
            raised = tok[(tok >= 0) & ((tok & 3) > 0)]
            out[i, off["disrupt"] + st.raised_arg[raised]] = True
            out[i, off["done"]] = True
        else:  # give a planet away first (ruling IA-OPEN-29: never a Home World)
            cards = np.array(_planets(b, i, s), np.int64)
            count = (b.pl_card[i] >= 0).sum(1)
            to = [o for o in range(3) if o != s and count[o] < MAX_PLANETS]
            low = min((count[o] for o in to), default=0)
            to = [o for o in to if count[o] == low]
            for p in cards[fx.ptype[cards] != eco.HOME].tolist():
                if to:
                    for o in to:
                        out[i, off["give"] + arg[p] * 3 + o] = True
                else:
                    out[i, off["discard-planet"] + arg[p]] = True


def apply(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray, seat: np.ndarray,
          off: dict[str, int]) -> None:
    """The answers to the decisions of :func:`mask` (``pass``/``done`` ending one is the
    turn machine's generic handler)."""
    st = tables(b)
    ids = off["stacked_ids"]
    for j in np.flatnonzero(_KINDS[k]):
        i, kind, s, a = int(rows[j]), int(k[j]), int(seat[j]), int(x[j])
        att, dfn = int(b.cb_att[i]), int(b.cb_dfn[i])
        if a in (off["pass"], off["done"]):
            continue
        b.kind[i] = NONE
        if kind == SPOIL:
            if a == off["spoil"]:
                b.count[i] = DISRUPT_LIMIT
                b.kind[i] = DISRUPT
            elif off["spoil-tech"] <= a < off["spoil-tech"] + b.n_techs:
                b.known[i, att, a - off["spoil-tech"]] = True
                b.stats[i, att, 2] += 1
            else:
                bombard(b, i, att, dfn, a - off["spoil-bombard"])
        elif kind == CAPTURE:
            p = int(b.cap_planet[i])
            b.res[i, att] -= eco.effects(b).cost[p]
            if (b.pl_card[i, att] >= 0).sum() >= MAX_PLANETS:
                b.kind[i], b.dec_seat[i] = CAP_GIVE, att
            else:
                capture_finish(b, i, att, dfn, p)
        elif kind == RESCUE:
            _rescue(b, i, s, int(ids[a - off["rescue"]]))
        elif kind == DISRUPT:
            code = int(st.raised_code[a - off["disrupt"]])
            at = int((b.tokens[i, dfn] == code).argmax())
            b.tokens[i, dfn, at] = code & ~3
            tok = b.tokens[i, dfn]
            more = ((tok >= 0) & ((tok & 3) > 0)).any()
            b.count[i] -= 1
            if b.count[i] > 0 and more:
                b.kind[i] = DISRUPT
        else:
            if a >= off["discard-planet"] and a < off["discard-planet"] + off["stacked"]:
                p, o = int(ids[a - off["discard-planet"]]), -1
            else:
                y = a - off["give"]
                p, o = int(ids[y // 3]), y % 3
            _move(b, i, s, p, o)
            capture_finish(b, i, att, dfn, int(b.cap_planet[i]))


def bombard(b: IABatch, i: int, att: int, dfn: int, p: int) -> None:
    """BOMBARD points (IA-SPOIL-04: the attacker's ships still fighting, each less its
    damage, plus TECH; less the DEFENDER's TECH, the planet's and its kept event's
    shields), the planet lowered (IA-SPOIL-05), the capture offered (IA-SPOIL-06)."""
    t = ctab(b)
    c = b.content
    fx = eco.effects(b)
    pts = sum(max(0, t.bombard[int(b.cb_card[i, 0, e])] - int(b.cb_dmg[i, 0, e]))
              for e in alive(b, i, 0))
    pts += int(eco.bonus(b, np.array([i]), np.array([att]), "bombard_bonus")[0])
    shield = sum(n for tt in np.flatnonzero(b.known[i, dfn]).tolist()
                 for kd, n, _a in c.tech_fx[tt] if kd == "bombard_shield")
    k = _planets(b, i, dfn).index(p)
    shield += sum(n for kd, n, _a in c.planet_fx[p] if kd == "bombard_shield")
    mk = int(b.pl_marker[i, dfn, k])
    if mk >= 0 and c.event_effect[mk][0] == "bombard_shield":
        shield += c.event_effect[mk][1]
    pts = max(0, pts - shield)
    lvl = int(b.pl_level[i, dfn, k])
    new = min(max(1, lvl - pts // 3), int(fx.pmax[p]))
    b.pl_level[i, dfn, k] = new
    if new == 1 and can_pay_exchanging(b.res[i, att].tolist(), fx.cost[p].tolist()):
        b.cap_planet[i] = p
        b.kind[i], b.dec_seat[i] = CAPTURE, att


def _move(b: IABatch, i: int, seat: int, p: int, o: int) -> None:
    """Planet ``p`` leaves ``seat`` with its level and kept event, to seat ``o`` (at the
    end) or, ``o`` = -1, to the discards (IA-COLN-07, IA-COL-05)."""
    k = _planets(b, i, seat).index(p)
    lvl, mk = int(b.pl_level[i, seat, k]), int(b.pl_marker[i, seat, k])
    for arr, empty in ((b.pl_card, -1), (b.pl_level, 0), (b.pl_marker, -1)):
        arr[i, seat, k:-1] = arr[i, seat, k + 1:].copy()
        arr[i, seat, -1] = empty
    r = np.array([i])
    if o >= 0:
        j = len(_planets(b, i, o))
        b.pl_card[i, o, j], b.pl_level[i, o, j], b.pl_marker[i, o, j] = p, lvl, mk
    else:
        b.planet_discard.push(r, np.array([p]))
        if mk >= 0:
            b.colony_discard.push(r, np.array([mk]))


def capture_finish(b: IABatch, i: int, att: int, dfn: int, p: int) -> None:
    """The planet moves with its level and markers, no Colony Event (IA-COL-06); a
    DEFENDER left with no planet is asked its rescue (IA-SPOIL-08)."""
    _move(b, i, dfn, p, att)
    b.stats[i, att, 1] += 1
    b.kind[i] = NONE
    if not _planets(b, i, dfn):
        b.kind[i], b.dec_seat[i] = RESCUE, dfn


def _rescue(b: IABatch, i: int, seat: int, p: int) -> None:
    fx = eco.effects(b)
    t = int(fx.ptype[p])
    slots = b.planet_slots[i, t]
    slots[int((slots == p).argmax())] = -1
    b.colonised[i, p] = True
    b.pl_card[i, seat, 0], b.pl_level[i, seat, 0] = p, min(4, int(fx.pmax[p]))
    b.pl_marker[i, seat, 0] = -1
    eco.refill(b, np.array([i]), t)
