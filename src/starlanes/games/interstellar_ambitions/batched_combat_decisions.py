"""The answers to a fight's decisions over arrays (:mod:`.batched_combat` holds the
fight): the FLEET ACTION's raid or invasion, the secret combat orders place by place, the
unmatched fire's target, the steal, the DEFENDER's repair and its scrap before an
EMERGENCY draw (IA-RAID-*, IA-INV-*): their legal masks (:func:`mask`) and their effects
(:func:`apply`)."""

from __future__ import annotations

import numpy as np

from .batched import (
    DEF_REPAIR,
    EM_SCRAP,
    FIRE,
    FLEET,
    MAX_SHIPS,
    NONE,
    ORDER,
    PLAYERS,
    STEAL,
    IABatch,
    kind_table,
)
from .batched_combat import begin, ctab, entry_label, fire, fire_targets, in_fight, order_of
from .batched_shadow import remove_ship, tables
from .fleetworks import repair_cost

_ONE_BY_ONE = kind_table(FIRE, DEF_REPAIR, EM_SCRAP)
"""The answers applied game by game."""
_EARLIER = np.tril(np.ones((MAX_SHIPS, MAX_SHIPS), np.bool_), -1)
"""[p, q]: place q comes before place p of an order."""


def mask(b: IABatch, out: np.ndarray, rows: np.ndarray, k: np.ndarray, seat: np.ndarray,
         off: dict[str, int]) -> None:
    """The legal answers to the FLEET decision (IA-RAID-17..20; INVADE not at BASIC,
    IA-INV-11), combat orders, unmatched fire (``fire pos<k>``: the lowest place of the
    enemy order holding each label), the steal (ruling IA-OPEN-06: "up to"), the
    DEFENDER's repair and its scrap before an EMERGENCY draw."""
    st = tables(b)
    fleet = k == FLEET
    if fleet.any():  # every FLEET decision at once
        r, s = rows[fleet], seat[fleet]
        t = ctab(b)
        cards = b.ship_card[r, s]
        ships = cards >= 0
        known = np.maximum(cards, 0)
        attacker = ships & ~t.defence_only_arr[known]
        may = {"raid": (attacker & ~t.heavy_arr[known]).any(1),
               "invade": attacker.any(1) & (b.act_level[r] >= 1)}
        for verb, ok in may.items():
            for o in range(PLAYERS):
                hit = ok & (s != o)
                out[r[hit], off[verb] + o] = True
        out[r, off["pass"]] = True
    places = np.arange(MAX_SHIPS)
    for kind in (ORDER, FIRE):
        sel = k == kind
        if not sel.any():
            continue
        r = rows[sel]
        side = b.dec_side[r] if kind == ORDER else 1 - b.dec_side[r]
        card, dmg = b.cb_card[r, side], b.cb_dmg[r, side]  # [g, entry]
        alive_e = in_fight(b, r, side)
        order = b.cb_ord[r, side]  # [g, place]: entries
        placed = places < b.cb_olen[r, side][:, None]
        g = np.arange(r.size)[:, None]
        if kind == ORDER:  # an alive ship not placed yet, by its label
            taken = np.zeros(alive_e.shape, np.bool_)
            gg, pp = np.nonzero(placed)
            taken[gg, order[gg, pp]] = True
            ok = alive_e & ~taken
            label = st.label_base[np.maximum(card, 0)] + dmg
            out[np.broadcast_to(r[:, None], ok.shape)[ok], off["order"] + label[ok]] = True
        else:  # unmatched fire: the first place of the enemy order with each label
            e = np.maximum(order, 0)
            # (card, damage) as one number: damage may be past a card's labels here
            label = np.where(placed & alive_e[g, e], card[g, e] * 1024 + dmg[g, e], -1)
            dup = ((label[:, :, None] == label[:, None, :]) & _EARLIER).any(2)
            ok = (label >= 0) & ~dup
            gg, pp = np.nonzero(ok)
            out[r[gg], off["fire"] + pp] = True
    sel = k == STEAL
    if sel.any():
        r = rows[sel]
        out[r, off["steal"]:off["steal"] + 4] = b.res[r, b.cb_dfn[r]] > 0
        out[r, off["done"]] = True
    for kind, verb in ((DEF_REPAIR, "repair"), (EM_SCRAP, "scrap")):
        sel = k == kind
        if not sel.any():
            continue
        r, s = rows[sel], seat[sel]
        card, dmg = b.ship_card[r, s], b.ship_dmg[r, s]
        ok = card >= 0
        if kind == DEF_REPAIR:
            before = b.count[r][:, None]
            cost = repair_cost(before, dmg)
            ok &= (dmg > 0) & (b.res[r, s, 1][:, None] >= cost)
            out[r, off["done"]] = True
        label = st.label_base[np.maximum(card, 0)] + dmg
        out[np.broadcast_to(r[:, None], ok.shape)[ok], off[verb] + label[ok]] = True


def _first_ship(b: IABatch, i: int, seat: int, card: int, dmg: int) -> int:
    return int(((b.ship_card[i, seat] == card) & (b.ship_dmg[i, seat] == dmg)).argmax())


def apply(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray, seat: np.ndarray,
          off: dict[str, int]) -> None:
    """The answers to the decisions of :func:`mask` (``pass``/``done`` ending one is the
    turn machine's generic handler)."""
    st = tables(b)
    attack = (k == FLEET) & (x != off["pass"])
    if attack.any():  # every raid and invasion begun at once
        r, a = rows[attack], x[attack]
        invade = (off["invade"] <= a) & (a < off["invade"] + PLAYERS)
        o = a - np.where(invade, off["invade"], off["raid"])
        begin(b, r, seat[attack], o, invade, b.act_level[r].copy())
    sel = k == ORDER
    if sel.any():
        lb = x[sel] - off["order"]
        _orders(b, rows[sel], st.label_card[lb], st.label_dmg[lb])
    sel = (k == STEAL) & (x != off["done"])
    if sel.any():  # the attacker chooses (IA-RAID-13)
        r, res, dfn = rows[sel], x[sel] - off["steal"], b.cb_dfn[rows[sel]]
        b.res[r, dfn, res] = np.maximum(0, b.res[r, dfn, res] - 1)
        b.res[r, seat[sel], res] += 1
        b.count[r] -= 1
        b.kind[r] = np.where((b.count[r] > 0) & (b.res[r, dfn].sum(1) > 0), STEAL, NONE)
    for j in np.flatnonzero(_ONE_BY_ONE[k]):
        i, kind, s, a = int(rows[j]), int(k[j]), int(seat[j]), int(x[j])
        r = np.array([i])
        if kind == FIRE:
            side = int(b.dec_side[i])
            enemy = 1 - side
            target = fire_targets(b, i, enemy)[entry_label(b, i, enemy,
                                                      order_of(b, i, enemy)[a - off["fire"]])]
            fire(b, i, side, order_of(b, i, side)[int(b.cb_cursor[i])], target)
            b.cb_cursor[i] += 1
            b.kind[i] = NONE
        elif kind == DEF_REPAIR and a != off["done"]:  # ruling IA-OPEN-28
            lb = a - off["repair"]
            card, dmg = int(st.label_card[lb]), int(st.label_dmg[lb])
            p = _first_ship(b, i, s, card, dmg)
            b.res[i, s, 1] = max(0, b.res[i, s, 1] - repair_cost(int(b.count[i]), dmg))
            b.ship_dmg[i, s, p] = 0
            b.count[i] += dmg
        elif kind == EM_SCRAP:
            lb = a - off["scrap"]
            p = _first_ship(b, i, s, int(st.label_card[lb]), int(st.label_dmg[lb]))
            remove_ship(b, r, np.array([s]), np.array([p]))
            b.kind[i] = NONE


def _orders(b: IABatch, rows: np.ndarray, card: np.ndarray, dmg: np.ndarray) -> None:
    """The next place of each order of ``rows``: the first ship of the label (``card``,
    ``dmg``) not placed yet; when at most one ship is left, it takes the last place by
    itself and the order is committed."""
    side = b.dec_side[rows]
    places = np.arange(MAX_SHIPS)
    g = np.arange(rows.size)
    order = b.cb_ord[rows, side]
    olen = b.cb_olen[rows, side]
    rest = in_fight(b, rows, side)
    gg, pp = np.nonzero(places < olen[:, None])
    rest[gg, order[gg, pp]] = False
    e = (rest & (b.cb_card[rows, side] == card[:, None])
         & (b.cb_dmg[rows, side] == dmg[:, None])).argmax(1)
    rest[g, e] = False
    order[g, olen] = e
    olen = olen + 1
    left = rest.sum(1)
    done = left <= 1
    last = done & (left == 1)
    order[g[last], olen[last]] = rest[last].argmax(1)
    olen = olen + last
    order = np.where(done[:, None] & (places >= olen[:, None]), -1, order)
    b.cb_ord[rows, side] = order
    b.cb_olen[rows, side] = olen
    b.cb_comm[rows[done], side[done]] = True
    b.kind[rows[done]] = NONE
