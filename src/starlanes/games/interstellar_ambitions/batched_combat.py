"""The FLEET ACTION over arrays: RAID and INVADE of an :class:`~.batched.IABatch`, as the
reference's ``combat`` (IA-RAID-*, IA-INV-*, IA-SHIP-05..13); the spoils of a won invasion
are in ``batched_spoils``.

A fight is held per game in ``cb_*`` arrays (made by :func:`alloc`): ``cb_stage`` int64
[n] (the reference's ``tensor.STAGES`` index, -1: no fight), ``cb_kind`` (0 raid, 1
invade), ``cb_att``/``cb_dfn`` seats, ``cb_level``, ``cb_cursor`` (unmatched shots
fired), ``cb_open`` (a damaged ship fights: its place shows), ``cb_tot`` [n, 2]; the ships
in the fight per side as ``cb_card``, ``cb_dmg``, ``cb_pos`` (place in the owner's
fleet) and ``cb_st`` (0 in the fight, 1 destroyed before the battle, 2 left it, 3
destroyed by damage), int64 [n, 2, 8] with ``cb_len`` [n, 2]; the secret combat orders
``cb_ord`` [n, 2, 8] (entries, the placed ones while a side is still choosing) with
``cb_olen`` [n, 2] and ``cb_comm`` bool [n, 2] (committed; both: revealed).

Stages (one per call of :func:`run`): EMERGENCY (an outnumbered DEFENDER at 8 ships
scraps one first, then draws one EMERGENCY ship, a raid redrawing HEAVY ones: IA-RAID-03,
IA-INV-02), pre-battle ship effects (IA-SHIP-11/12), secret orders (attacker first;
every place but the last asked, IA-RAID-05/06, IA-INV-04), matched pairs fire together
(IA-RAID-07/08), the larger side's unmatched ships fire at a chosen enemy (IA-RAID-09),
the result (IA-SHIP-09, IA-RAID-10..20, IA-INV-07/08/12..14) and the DEFENDER's repair
(IA-RAID-16, IA-INV-10). The result is made for every game at it at once; the other
stages step each game in a fight one by one (a Python loop over those games only: a fight
is sequential, die by die, its dice drawn with Python integers by ``rng_arrays.d6_run``);
the decisions' masks and the FLEET, order and steal answers are over arrays. Chance is
drawn through ``rng_arrays`` as the reference draws it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from starlanes.engine import rng_arrays as ra

from . import batched_economy as eco
from .batched import (
    DEF_REPAIR,
    EM_SCRAP,
    FIRE,
    FLEET,
    MAX_SHIPS,
    NONE,
    ORDER,
    PLAYERS,
    SPOIL,
    STEAL,
    IABatch,
)
from .batched_shadow import remove_ship, tables
from .fleetworks import repair_cost
from .tensor import SLOTS, STAGES

EMERG, EMERG_DRAW, PRE, ORDERS, FIGHT, UNMATCHED, RESULT, REPAIR, DONE = range(9)
"""``cb_stage`` values, the reference's stage names in ``tensor.STAGES`` order."""
assert len(STAGES) == 9


class CombatTables:
    """Content figures per ship card: combat value, HEAVY, BOMBARD, its hooks."""

    def __init__(self, b: IABatch) -> None:
        c = b.content
        self.combat = [int(x) for x in c.ship_combat]
        self.heavy = [bool(x) for x in c.ship_heavy]
        self.bombard = [int(x) for x in c.ship_bombard]
        self.fx = [tuple(fx) for fx in c.ship_fx]
        self.ids = list(c.ship_ids)
        self.defence_only = [any(k == "defence_only" for k, _n, _a in fx) for fx in self.fx]
        self.n_emerg = len(c.emergency_cards)
        self.combat_arr = np.array(self.combat, np.int64)
        self.heavy_arr = np.array(self.heavy, np.bool_)
        self.defence_only_arr = np.array(self.defence_only, np.bool_)
        self.total_bonus = np.array(
            [next((k for kind, k, _a in fx if kind == "total_bonus"), 0) for fx in self.fx],
            np.int64)
        """Per card: the first ``total_bonus`` hook's figure (0: none)."""


_EARLIER = np.tril(np.ones((MAX_SHIPS, MAX_SHIPS), np.bool_), -1)
"""[p, q]: place q comes before place p of an order."""


def ctab(b: IABatch) -> CombatTables:
    """The :class:`CombatTables` of ``b`` (made once, kept on it)."""
    got = getattr(b, "combat_tables", None)
    if got is None:
        got = b.combat_tables = CombatTables(b)  # type: ignore[attr-defined]
    return got


def alloc(b: IABatch) -> None:
    """Make the ``cb_*`` arrays of ``b`` (see the module docstring), no fight anywhere."""
    n = b.n
    b.cb_stage = np.full(n, -1, np.int64)
    for name in ("cb_kind", "cb_att", "cb_dfn", "cb_level", "cb_cursor", "dec_side",
                 "cap_planet"):
        setattr(b, name, np.zeros(n, np.int64))
    b.cb_open = np.zeros(n, np.bool_)
    b.cb_tot = np.zeros((n, 2), np.int64)
    for name in ("cb_card", "cb_dmg", "cb_pos", "cb_st", "cb_ord"):
        setattr(b, name, np.zeros((n, 2, MAX_SHIPS), np.int64))
    b.cb_len = np.zeros((n, 2), np.int64)
    b.cb_olen = np.zeros((n, 2), np.int64)
    b.cb_comm = np.zeros((n, 2), np.bool_)


def clear(b: IABatch, rows: np.ndarray) -> None:
    """No fight in ``rows`` (a new game)."""
    b.cb_stage[rows] = -1


def begin(b: IABatch, rows: np.ndarray, att: np.ndarray, dfn: np.ndarray, invade: np.ndarray,
          level: np.ndarray) -> None:
    """Start a RAID (IA-RAID-02) or an INVADE (IA-INV-01) at the planning ``level``."""
    b.cb_stage[rows] = EMERG
    b.cb_kind[rows] = invade.astype(np.int64)
    b.cb_att[rows], b.cb_dfn[rows], b.cb_level[rows] = att, dfn, level
    b.cb_cursor[rows] = 0
    b.cb_open[rows] = False
    b.cb_tot[rows] = 0
    b.cb_len[rows] = 0
    b.cb_olen[rows] = 0
    b.cb_comm[rows] = False
    b.cb_ord[rows] = -1
    b.kind[rows] = NONE


def _ask(b: IABatch, i: Any, kind: int, seat: Any) -> None:
    """Game ``i`` (or games: an int array, with ``seat`` one per game) waits on ``kind``."""
    b.kind[i] = kind
    b.dec_seat[i] = seat


def _fleet(b: IABatch, i: int, seat: int) -> list[int]:
    return [x for x in b.ship_card[i, seat].tolist() if x >= 0]


def eligible(b: IABatch, i: int, seat: int, raid: bool, attacking: bool) -> list[int]:
    """Fleet places of ``seat``'s ships that may fight: no HEAVY in a raid (IA-RAID-04,
    IA-INV-03), no ``defence_only`` ship attacking."""
    t = ctab(b)
    return [k for k, card in enumerate(_fleet(b, i, seat))
            if not (raid and t.heavy[card]) and not (attacking and t.defence_only[card])]


def _d6(b: IABatch, i: int) -> int:
    return ra.d6_run(b.rng, i, 1)[0]


def _label(b: IABatch, i: int, side: int, e: int) -> tuple[int, int]:
    return int(b.cb_card[i, side, e]), int(b.cb_dmg[i, side, e])


def alive(b: IABatch, i: int, side: int) -> list[int]:
    """The side's entries still in the fight."""
    return [e for e, st in enumerate(b.cb_st[i, side, :b.cb_len[i, side]].tolist()) if not st]


def _commit(b: IABatch, i: int, side: int, seq: list[int]) -> None:
    b.cb_ord[i, side] = -1
    b.cb_ord[i, side, :len(seq)] = seq
    b.cb_olen[i, side] = len(seq)
    b.cb_comm[i, side] = True


def order_of(b: IABatch, i: int, side: int) -> list[int]:
    return b.cb_ord[i, side, :b.cb_olen[i, side]].tolist()


def run(b: IABatch, rows: np.ndarray) -> None:
    """Advance the fight of each game of ``rows`` by one stage (or ask its decision): the
    games at the result all at once (:func:`_results`), the others one by one."""
    at_result = b.cb_stage[rows] == RESULT
    if at_result.any():
        r = rows[at_result]
        _results(b, r)
        b.cb_stage[r] = REPAIR
        rows = rows[~at_result]
    for i in rows.tolist():
        _stage(b, i)


def _stage(b: IABatch, i: int) -> None:
    t = ctab(b)
    att, dfn = int(b.cb_att[i]), int(b.cb_dfn[i])
    raid = b.cb_kind[i] == 0
    st = b.cb_stage[i]
    if st == EMERG:
        a, d = eligible(b, i, att, raid, True), eligible(b, i, dfn, raid, False)
        b.cb_stage[i] = EMERG_DRAW
        if len(d) < len(a) and len(_fleet(b, i, dfn)) >= MAX_SHIPS:
            _ask(b, i, EM_SCRAP, dfn)
    elif st == EMERG_DRAW:
        a, d = eligible(b, i, att, raid, True), eligible(b, i, dfn, raid, False)
        if len(d) < len(a) and len(_fleet(b, i, dfn)) < MAX_SHIPS:
            r = np.array([i])
            for _ in range(t.n_emerg + 1):
                card = int(b._draw(r, b.emerg_deck, b.emerg_discard)[0])
                if card < 0:
                    break
                if raid and t.heavy[card]:  # a raid redraws HEAVY ones (IA-RAID-03)
                    b.emerg_discard.push(r, np.array([card]))
                    continue
                k = len(_fleet(b, i, dfn))
                b.ship_card[i, dfn, k], b.ship_dmg[i, dfn, k] = card, 0
                break
            d = eligible(b, i, dfn, raid, False)
        for side, places, seat in ((0, a, att), (1, d, dfn)):
            b.cb_len[i, side] = len(places)
            for e, k in enumerate(places):
                b.cb_card[i, side, e] = b.ship_card[i, seat, k]
                b.cb_dmg[i, side, e] = b.ship_dmg[i, seat, k]
                b.cb_pos[i, side, e] = k
                b.cb_st[i, side, e] = 0
        b.cb_stage[i] = PRE
    elif st == PRE:
        _prebattle(b, i)
        b.cb_open[i] = any(b.cb_dmg[i, s, e] for s in (0, 1) for e in alive(b, i, s))
        b.cb_stage[i] = ORDERS
    elif st == ORDERS:
        for side, seat in ((0, att), (1, dfn)):  # the attacker arranges first
            if b.cb_comm[i, side]:
                continue
            ents = alive(b, i, side)
            if len({_label(b, i, side, e) for e in ents}) <= 1:  # nothing to choose
                _commit(b, i, side, ents)
                continue
            b.dec_side[i] = side
            _ask(b, i, ORDER, seat)
            return
        b.cb_stage[i] = FIGHT
    elif st == FIGHT:
        ao, do = order_of(b, i, 0), order_of(b, i, 1)
        for k in range(min(len(ao), len(do))):  # IA-RAID-07: both roll, then damage
            ha = _hits(b, i, 0, ao[k], do[k])
            hd = _hits(b, i, 1, do[k], ao[k])
            b.cb_dmg[i, 1, do[k]] += ha
            b.cb_dmg[i, 0, ao[k]] += hd
        b.cb_cursor[i] = min(len(ao), len(do))
        b.cb_stage[i] = UNMATCHED
    elif st == UNMATCHED:
        la, ld = int(b.cb_olen[i, 0]), int(b.cb_olen[i, 1])
        side = 0 if la > ld else 1 if ld > la else -1
        if side >= 0:
            seq = order_of(b, i, side)
            while b.cb_cursor[i] < len(seq):
                targets = fire_targets(b, i, 1 - side)
                if not targets:
                    break
                if len(targets) > 1:  # the owner chooses the target (IA-RAID-09)
                    b.dec_side[i] = side
                    _ask(b, i, FIRE, int(b.cb_att[i] if side == 0 else b.cb_dfn[i]))
                    return
                _fire(b, i, side, seq[int(b.cb_cursor[i])], next(iter(targets.values())))
                b.cb_cursor[i] += 1
        b.cb_stage[i] = RESULT
    elif st == REPAIR:
        b.cb_stage[i] = DONE
        if (b.ship_dmg[i, dfn] > 0).any() and b.res[i, dfn, 1] > 0:  # IA-RAID-16, IA-INV-10
            b.count[i] = 0
            _ask(b, i, DEF_REPAIR, dfn)
    else:
        b.cb_stage[i] = -1


def _prebattle(b: IABatch, i: int) -> None:
    """Ship effects "before any battle": ``pre_battle_destroy`` (IA-SHIP-11) and
    ``pre_battle_leave`` (a d6 at or under n, IA-SHIP-12), side by side in entry order."""
    t = ctab(b)
    for side in (0, 1):
        for e in range(int(b.cb_len[i, side])):
            if b.cb_st[i, side, e]:
                continue
            card = int(b.cb_card[i, side, e])
            for kind, n, arg in t.fx[card]:
                if kind == "pre_battle_destroy":
                    for f in range(int(b.cb_len[i, 1 - side])):
                        if b.cb_st[i, 1 - side, f] == 0 and t.ids[b.cb_card[i, 1 - side, f]] == arg:
                            b.cb_st[i, 1 - side, f] = 1
                            break
                elif kind == "pre_battle_leave" and _d6(b, i) <= n:
                    b.cb_st[i, side, e] = 2


def volley(b: IABatch, i: int, side: int, e: int, target: int) -> tuple[int, int, int, int]:
    """``combat.volley``: dice (combat value less damage, plus ``ally_extra_die`` of
    allies in the fight and ``extra_die_vs`` the target's class), the roll that hits,
    extra hits of a natural 6, hits the target's ``armour`` ignores (IA-RAID-08,
    IA-SHIP-05..13)."""
    t = ctab(b)
    card, dmg = _label(b, i, side, e)
    n = max(0, t.combat[card] - dmg)
    sid = t.ids[card]
    for f in alive(b, i, side):
        for kind, k, arg in t.fx[int(b.cb_card[i, side, f])]:
            if kind == "ally_extra_die" and arg == sid:
                n += k
    heavy = t.heavy[int(b.cb_card[i, 1 - side, target])]
    need, six, armour = 4, 0, 0
    for kind, k, arg in t.fx[card]:
        if kind == "extra_die_vs" and (arg == "heavy") == heavy:
            n += k
    for kind, k, _arg in t.fx[card]:
        if kind == "hit_on":
            need = k
            break
    for kind, k, _arg in t.fx[card]:
        if kind == "natural6_extra_hit":
            six = k
            break
    for kind, k, _arg in t.fx[int(b.cb_card[i, 1 - side, target])]:
        if kind == "armour":
            armour = k
            break
    return n, need, six, armour


def _hits(b: IABatch, i: int, side: int, e: int, target: int) -> int:
    n, need, six, armour = volley(b, i, side, e, target)
    hits = 0
    for r in ra.d6_run(b.rng, i, n):
        if r >= need:
            hits += 1 + (six if r == 6 else 0)
    return max(0, hits - armour)


def fire_targets(b: IABatch, i: int, side: int) -> dict[tuple[int, int], int]:
    """Label -> the first entry of ``side`` in the fight with that label."""
    out: dict[tuple[int, int], int] = {}
    for e in alive(b, i, side):
        out.setdefault(_label(b, i, side, e), e)
    return out


def _fire(b: IABatch, i: int, side: int, e: int, target: int) -> None:
    """An unmatched ship fires at an enemy ship, which does not fire back."""
    b.cb_dmg[i, 1 - side, target] += _hits(b, i, side, e, target)


def _results(b: IABatch, rows: np.ndarray) -> None:
    """The result of the fights of ``rows`` (int [k], distinct games), all at once:
    over-damaged ships are destroyed (IA-SHIP-09, ruling IA-OPEN-07); totals with the
    planning level and TECH (IA-RAID-10/17..20, IA-INV-12..14); damage goes back to the
    fleets, destroyed ships leave them (the attacker's first, each fleet from its last
    place down, as the reference removes them); MORE wins a raid (IA-RAID-12/14: the
    steal), EQUAL OR MORE an invasion (IA-INV-07/08: medal and spoil)."""
    t = ctab(b)
    att, dfn = b.cb_att[rows], b.cb_dfn[rows]
    tot = np.zeros((rows.size, 2), np.int64)
    places = np.arange(MAX_SHIPS)
    for side, seat in ((0, att), (1, dfn)):
        valid = places < b.cb_len[rows, side][:, None]
        card = np.where(valid, b.cb_card[rows, side], 0)
        dmg = b.cb_dmg[rows, side]
        st = b.cb_st[rows, side]
        value = t.combat_arr[card]
        over = valid & (st == 0) & (dmg > value)
        st = np.where(over, 3, st)
        b.cb_st[rows, side] = st
        fights = valid & (st == 0)
        tot[:, side] = np.where(fights, value - dmg + t.total_bonus[card], 0).sum(1)
        pos = b.cb_pos[rows, side]
        g, e = np.nonzero(fights)
        b.ship_dmg[rows[g], seat[g], pos[g, e]] = dmg[g, e]
        gone = np.where(valid & (st != 0), pos, -1)
        while True:  # one ship of each fleet at a time, from its last place down
            last = gone.max(1)
            has = last >= 0
            if not has.any():
                break
            remove_ship(b, rows[has], seat[has], last[has])
            gone[gone == last[:, None]] = -1
    raid = b.cb_kind[rows] == 0
    level = b.cb_level[rows]
    tot[:, 0] += np.where(raid, 2 * level + eco.bonus(b, rows, att, "raid_bonus"),
                          2 * (level - 1) + eco.bonus(b, rows, att, "invade_bonus"))
    tot[:, 1] += eco.bonus(b, rows, dfn, "defence_bonus")
    b.cb_tot[rows] = tot
    won = raid & (tot[:, 0] > tot[:, 1])
    r = rows[won]
    b.stats[r, att[won], 0] += 1
    margin = np.minimum(tot[won, 0] - tot[won, 1], b.res[r, dfn[won]].sum(1))
    steal = margin > 0
    b.count[r[steal]] = margin[steal]
    _ask(b, r[steal], STEAL, att[won][steal])
    won = ~raid & (tot[:, 0] >= tot[:, 1])
    b.medals[rows[won], att[won], 0] += 1
    _ask(b, rows[won], SPOIL, att[won])
    lost = ~raid & ~won
    b.medals[rows[lost], dfn[lost], 0] += 1


# ---------------------------------------------------------------------- decisions
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
        alive_e = (places < b.cb_len[r, side][:, None]) & (b.cb_st[r, side] == 0)
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
    for j in np.flatnonzero(np.isin(k, (FIRE, DEF_REPAIR, EM_SCRAP))):
        i, kind, s, a = int(rows[j]), int(k[j]), int(seat[j]), int(x[j])
        r = np.array([i])
        if kind == FIRE:
            side = int(b.dec_side[i])
            enemy = 1 - side
            target = fire_targets(b, i, enemy)[_label(b, i, enemy,
                                                      order_of(b, i, enemy)[a - off["fire"]])]
            _fire(b, i, side, order_of(b, i, side)[int(b.cb_cursor[i])], target)
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
    rest = (places < b.cb_len[rows, side][:, None]) & (b.cb_st[rows, side] == 0)
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


# ---------------------------------------------------------------------- tensor
def encode(b: IABatch, out: np.ndarray, v: np.ndarray, lay: Any) -> None:
    """Section 10 of the tensor (``tensor._combat``) added into ``out`` float32 [n, size]
    (zero there) for the games in a fight, each seen from ``v[game]``: orders not yet
    revealed show only their filled places, damaged ships' places too once the fight is
    open. All the games in a fight at once: positions [r, j] per part, -1 where a part
    counts nothing."""
    rows = np.flatnonzero(b.cb_stage >= 0)
    if not rows.size:
        return
    ns = lay.ns
    place = 2 + ns + 1
    seat = v[rows]
    p = lay.at["combat"]
    counted = [np.full(rows.size, p), p + 1 + b.cb_kind[rows], p + 3 + b.cb_level[rows]]
    p += 7
    counted.append(p + b.cb_stage[rows])
    p += len(STAGES)
    seats = np.stack((b.cb_att[rows], b.cb_dfn[rows]), 1)  # [r, side]
    counted.append(p + (seats - seat[:, None]) % PLAYERS + np.array([0, SLOTS]))
    p += 2 * SLOTS
    comm = b.cb_comm[rows]
    counted.append(np.where(comm, p + np.arange(2), -1))
    out[rows, p + 2] = b.cb_cursor[rows]
    out[rows, p + 3:p + 5] = b.cb_tot[rows]
    p += 5
    revealed = comm.all(1)
    where = np.broadcast_to(rows[:, None], (rows.size, MAX_SHIPS))
    for side in (0, 1):
        q = p + side * lay.side_size
        card, dmg, status = b.cb_card[rows, side], b.cb_dmg[rows, side], b.cb_st[rows, side]
        inside = np.arange(MAX_SHIPS) < b.cb_len[rows, side][:, None]
        counted.append(np.where(inside, q + card * 5 + status, -1))
        hurt = inside & (status == 0) & (dmg != 0)
        np.add.at(out, (where[hurt], (q + card * 5 + 4)[hurt]), dmg[hurt])
        q += ns * 5
        order = b.cb_ord[rows, side]
        filled = np.arange(MAX_SHIPS) < b.cb_olen[rows, side][:, None]
        e = np.maximum(order, 0)
        ocard = np.take_along_axis(card, e, 1)
        odmg = np.take_along_axis(dmg, e, 1)
        at = q + np.arange(MAX_SHIPS) * place
        shown = (revealed | (seats[:, side] == seat))[:, None] | (b.cb_open[rows][:, None]
                                                                  & (odmg != 0))
        show = filled & shown
        counted.append(np.where(filled, at, -1))
        counted.append(np.where(show, at + 2 + ocard, -1))
        counted.append(np.where(filled & ~show, at + 1, -1))
        out[where[show], np.broadcast_to(at + 2 + ns, show.shape)[show]] = odmg[show]
    pos = np.concatenate([c.reshape(rows.size, -1) for c in counted], 1)
    ok = pos >= 0
    np.add.at(out, (np.broadcast_to(rows[:, None], pos.shape)[ok], pos[ok]),
              np.float32(1))


