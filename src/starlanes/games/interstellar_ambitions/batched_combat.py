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
(IA-RAID-16, IA-INV-10). Each stage is made for every game at it at once (:func:`run`);
the matched pairs' volleys are all known before a die is rolled, so each game's dice are
drawn at once (``rng_arrays.d6_runs``). Only three cases step their game alone, in a
Python loop over those games: an EMERGENCY draw, a ship with a pre-battle effect, and an
unmatched fire (its dice drawn with Python integers by ``rng_arrays.d6_run``). The decisions' masks and answers are
``batched_combat_decisions``'. Chance is drawn through ``rng_arrays`` as the reference
draws it.
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
    MAX_SHIPS,
    NONE,
    ORDER,
    PLAYERS,
    SPOIL,
    STEAL,
    IABatch,
)
from .batched_shadow import remove_ship
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

        def first(hook: str, default: int) -> np.ndarray:
            return np.array([next((k for kind, k, _a in fx if kind == hook), default)
                             for fx in self.fx], np.int64)

        # a volley's figures per card (``volley``), for the matched pairs' fire at once
        self.hit_on, self.six, self.armour = first("hit_on", 4), \
            first("natural6_extra_hit", 0), first("armour", 0)
        self.vs = np.array([[sum(k for kind, k, arg in fx
                                 if kind == "extra_die_vs" and (arg == "heavy") == heavy)
                             for heavy in (False, True)] for fx in self.fx], np.int64)
        """[card, target is HEAVY]: the extra dice of ``extra_die_vs`` hooks."""
        self.pre_battle = np.array([any(kind in ("pre_battle_destroy", "pre_battle_leave")
                                        for kind, _k, _a in fx) for fx in self.fx], np.bool_)
        """Per card: it has an effect "before any battle" (IA-SHIP-11/12)."""
        self.ally = np.array([[sum(k for kind, k, arg in fx
                                   if kind == "ally_extra_die" and arg == sid)
                               for sid in self.ids] for fx in self.fx], np.int64)
        """[ally card, shooter card]: the extra dice an ally in the fight gives the
        shooter (``ally_extra_die`` hooks naming the shooter's id)."""


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


def _d6(b: IABatch, i: int) -> int:
    return ra.d6_run(b.rng, i, 1)[0]


def entry_label(b: IABatch, i: int, side: int, e: int) -> tuple[int, int]:
    return int(b.cb_card[i, side, e]), int(b.cb_dmg[i, side, e])


def alive(b: IABatch, i: int, side: int) -> list[int]:
    """The side's entries still in the fight."""
    return [e for e, st in enumerate(b.cb_st[i, side, :b.cb_len[i, side]].tolist()) if not st]


def order_of(b: IABatch, i: int, side: int) -> list[int]:
    return b.cb_ord[i, side, :b.cb_olen[i, side]].tolist()


def run(b: IABatch, rows: np.ndarray) -> None:
    """Advance the fight of each game of ``rows`` by one stage (or ask its decision), the
    games at each stage all at once; only an EMERGENCY draw, a pre-battle effect and an
    unmatched fire with a target to choose among step their game alone."""
    stage = b.cb_stage[rows]
    for at, step in ((EMERG, _emerg), (EMERG_DRAW, _emerg_draw), (PRE, _pre),
                     (ORDERS, _orders_stage), (FIGHT, _fight), (UNMATCHED, _unmatched),
                     (RESULT, _result_stage), (REPAIR, _repair), (DONE, _done)):
        r = rows[stage == at]
        if r.size:
            step(b, r)


def _eligible(b: IABatch, rows: np.ndarray, seats: np.ndarray, attacking: bool) -> np.ndarray:
    """bool [k, 8]: the fleet places of ``seats`` whose ships may fight, fleets being filled
    from their first place: no HEAVY ship in a raid (IA-RAID-04, IA-INV-03), no
    ``defence_only`` ship attacking."""
    t = ctab(b)
    raid = (b.cb_kind[rows] == 0)[:, None]
    card = b.ship_card[rows, seats]
    known = np.maximum(card, 0)
    ok = (card >= 0) & ~(raid & t.heavy_arr[known])
    return ok & ~t.defence_only_arr[known] if attacking else ok


def in_fight(b: IABatch, rows: np.ndarray, side: Any = None) -> np.ndarray:
    """bool: the entries still in the fight (within ``cb_len``, status 0) of the games
    ``rows``: [k, side, entry], or [k, entry] of ``side`` (an int or one per game)."""
    if side is None:
        return (np.arange(MAX_SHIPS) < b.cb_len[rows][..., None]) & (b.cb_st[rows] == 0)
    return (np.arange(MAX_SHIPS) < b.cb_len[rows, side][:, None]) & (b.cb_st[rows, side] == 0)


def _outnumbered(b: IABatch, rows: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each side's places that may fight (:func:`_eligible`, attacker then DEFENDER),
    whether the DEFENDER has fewer, and whether its fleet is full (IA-RAID-03,
    IA-INV-02)."""
    dfn = b.cb_dfn[rows]
    ea, ed = _eligible(b, rows, b.cb_att[rows], True), _eligible(b, rows, dfn, False)
    full = (b.ship_card[rows, dfn] >= 0).sum(1) >= MAX_SHIPS
    return ea, ed, ed.sum(1) < ea.sum(1), full


def _packed(ok: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The True places of ``ok`` (bool [k, m]) row by row, and where each goes when a row's
    True places are packed to its front: (rows, places, packed places)."""
    gg, kk = np.nonzero(ok)
    return gg, kk, (np.cumsum(ok, 1) - 1)[gg, kk]


def _emerg(b: IABatch, rows: np.ndarray) -> None:
    """An outnumbered DEFENDER at 8 ships scraps one before its EMERGENCY draw (IA-RAID-03,
    IA-INV-02)."""
    _ea, _ed, fewer, full = _outnumbered(b, rows)
    b.cb_stage[rows] = EMERG_DRAW
    ask = fewer & full
    _ask(b, rows[ask], EM_SCRAP, b.cb_dfn[rows][ask])


def _emerg_draw(b: IABatch, rows: np.ndarray) -> None:
    """An outnumbered DEFENDER with room draws one EMERGENCY ship (IA-RAID-03, IA-INV-02;
    game by game, :func:`_emergency_ship`); then each side's ships that may fight enter
    it, in fleet order."""
    att, dfn = b.cb_att[rows], b.cb_dfn[rows]
    ea, ed, fewer, full = _outnumbered(b, rows)
    need = fewer & ~full
    if need.any():
        for i in rows[need].tolist():
            _emergency_ship(b, i)
        ed = _eligible(b, rows, dfn, False)
    for side, seats, ok in ((0, att, ea), (1, dfn, ed)):
        b.cb_len[rows, side] = ok.sum(1)
        gg, kk, e = _packed(ok)
        r, s = rows[gg], seats[gg]
        b.cb_card[r, side, e] = b.ship_card[r, s, kk]
        b.cb_dmg[r, side, e] = b.ship_dmg[r, s, kk]
        b.cb_pos[r, side, e] = kk
        b.cb_st[r, side, e] = 0
    b.cb_stage[rows] = PRE


def _emergency_ship(b: IABatch, i: int) -> None:
    """Game ``i``'s DEFENDER draws an EMERGENCY ship into its fleet, a raid drawing again
    past HEAVY ones (IA-RAID-03), while the deck (and its reshuffled discard) lasts."""
    t = ctab(b)
    dfn = int(b.cb_dfn[i])
    raid = b.cb_kind[i] == 0
    r = np.array([i])
    for _ in range(t.n_emerg + 1):
        card = int(b._draw(r, b.emerg_deck, b.emerg_discard)[0])
        if card < 0:
            break
        if raid and t.heavy[card]:
            b.emerg_discard.push(r, np.array([card]))
            continue
        k = len(_fleet(b, i, dfn))
        b.ship_card[i, dfn, k], b.ship_dmg[i, dfn, k] = card, 0
        break


def _pre(b: IABatch, rows: np.ndarray) -> None:
    """The ships' effects "before any battle" (game by game where a ship in the fight has
    one, :func:`_prebattle`); then whether a damaged ship fights (its place shows)."""
    t = ctab(b)
    hooked = in_fight(b, rows) & t.pre_battle[np.maximum(b.cb_card[rows], 0)]
    for i in rows[hooked.any((1, 2))].tolist():
        _prebattle(b, i)
    b.cb_open[rows] = (in_fight(b, rows) & (b.cb_dmg[rows] != 0)).any((1, 2))
    b.cb_stage[rows] = ORDERS


def _unmatched(b: IABatch, rows: np.ndarray) -> None:
    """The larger side's unmatched ships fire (IA-RAID-09): game by game where the orders'
    lengths differ (:func:`_unmatched_one`); equal orders go to the result."""
    olen = b.cb_olen[rows]
    uneven = olen[:, 0] != olen[:, 1]
    b.cb_stage[rows[~uneven]] = RESULT
    for i in rows[uneven].tolist():
        _unmatched_one(b, i)


def _orders_stage(b: IABatch, rows: np.ndarray) -> None:
    """The secret orders (IA-RAID-05/06, IA-INV-04), the attacker first: a side whose
    ships in the fight show at most one label has nothing to choose and commits them in
    entry order; the first side with a choice is asked; with both committed, the fight."""
    g = np.arange(rows.size)
    stop = np.zeros(rows.size, np.bool_)
    for side, seat in ((0, b.cb_att[rows]), (1, b.cb_dfn[rows])):
        todo = ~stop & ~b.cb_comm[rows, side]
        alive_e = in_fight(b, rows, side)
        card, dmg = b.cb_card[rows, side], b.cb_dmg[rows, side]
        first = alive_e.argmax(1)
        same = (~alive_e | ((card == card[g, first][:, None])
                            & (dmg == dmg[g, first][:, None]))).all(1)
        commit = todo & same
        if commit.any():
            al = alive_e[commit]
            order = np.full(al.shape, -1, np.int64)
            gg, ee, packed = _packed(al)  # in entry order
            order[gg, packed] = ee
            rc = rows[commit]
            b.cb_ord[rc, side] = order
            b.cb_olen[rc, side] = al.sum(1)
            b.cb_comm[rc, side] = True
        ask = todo & ~same
        b.dec_side[rows[ask]] = side
        _ask(b, rows[ask], ORDER, seat[ask])
        stop |= ask
    b.cb_stage[rows[~stop]] = FIGHT


def _fight(b: IABatch, rows: np.ndarray) -> None:
    """The matched pairs fire together (IA-RAID-07/08): pair by pair of the two orders,
    the attacker's ship rolls its volley (:func:`volley`), then the defender's, then both
    take the damage; every pair's dice drawn from each game's stream in that order. A
    ship fires once, no ship leaves the fight here, so each volley is known before any
    die is rolled."""
    t = ctab(b)
    g = np.arange(rows.size)[:, None]
    pairs = np.minimum(b.cb_olen[rows, 0], b.cb_olen[rows, 1])  # [k]
    ent = b.cb_ord[rows]  # [k, side, place]: entries of each order
    card, dmg = b.cb_card[rows], b.cb_dmg[rows]  # [k, side, entry]
    alive_e = in_fight(b, rows)
    # every pair's two volleys: [k, place, side] (the shooter of side s at place p)
    e = np.maximum(ent, 0).transpose(0, 2, 1)  # [k, place, side]
    sides = np.arange(2)
    shooter = card[g[..., None], sides, e]
    target = card[g[..., None], 1 - sides, e[..., ::-1]]
    on_side = np.zeros((rows.size, 2, len(t.ids)), np.int64)  # alive ships per card
    kk, ss, ff = np.nonzero(alive_e)
    np.add.at(on_side, (kk, ss, card[kk, ss, ff]), 1)
    extra = np.einsum("ksa,ac->ksc", on_side, t.ally)  # [k, side, shooter card]
    n = (np.maximum(0, t.combat_arr[shooter] - dmg[g[..., None], sides, e])
         + extra[g[..., None], sides, shooter]
         + t.vs[shooter, t.heavy_arr[target].astype(np.int64)])
    live = np.arange(MAX_SHIPS)[None, :, None] < pairs[:, None, None]
    n = np.where(live, n, 0)  # [k, place, side], the draw order flattened
    dice = ra.d6_runs(b.rng, rows, n.reshape(rows.size, -1).sum(1))
    volley_of = np.repeat(np.arange(n.size), n.ravel())
    need, six = t.hit_on[shooter].ravel()[volley_of], t.six[shooter].ravel()[volley_of]
    hit = (dice >= need) * (1 + np.where(dice == 6, six, 0))
    hits = np.bincount(volley_of, hit, minlength=n.size).astype(np.int64).reshape(n.shape)
    hits = np.where(live, np.maximum(0, hits - t.armour[target]), 0)
    kk, pp = np.nonzero(live[..., 0])
    b.cb_dmg[rows[kk], 1, e[kk, pp, 1]] += hits[kk, pp, 0]  # the attacker's hits
    b.cb_dmg[rows[kk], 0, e[kk, pp, 0]] += hits[kk, pp, 1]
    b.cb_cursor[rows] = pairs
    b.cb_stage[rows] = UNMATCHED


def _result_stage(b: IABatch, rows: np.ndarray) -> None:
    _results(b, rows)
    b.cb_stage[rows] = REPAIR


def _repair(b: IABatch, rows: np.ndarray) -> None:
    """The DEFENDER may repair its damaged ships after the fight (IA-RAID-16, IA-INV-10)."""
    b.cb_stage[rows] = DONE
    dfn = b.cb_dfn[rows]
    ask = (b.ship_dmg[rows, dfn] > 0).any(1) & (b.res[rows, dfn, 1] > 0)
    b.count[rows[ask]] = 0
    _ask(b, rows[ask], DEF_REPAIR, dfn[ask])


def _done(b: IABatch, rows: np.ndarray) -> None:
    b.cb_stage[rows] = -1


def _unmatched_one(b: IABatch, i: int) -> None:
    """Game ``i``'s larger side fires its unmatched ships one by one at the enemy, each at
    the only label left or, with several, at the one its owner chooses (asked)."""
    la, ld = int(b.cb_olen[i, 0]), int(b.cb_olen[i, 1])
    side = 0 if la > ld else 1
    seq = order_of(b, i, side)
    while b.cb_cursor[i] < len(seq):
        targets = fire_targets(b, i, 1 - side)
        if not targets:
            break
        if len(targets) > 1:  # the owner chooses the target (IA-RAID-09)
            b.dec_side[i] = side
            _ask(b, i, FIRE, int(b.cb_att[i] if side == 0 else b.cb_dfn[i]))
            return
        fire(b, i, side, seq[int(b.cb_cursor[i])], next(iter(targets.values())))
        b.cb_cursor[i] += 1
    b.cb_stage[i] = RESULT


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
    card, dmg = entry_label(b, i, side, e)
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
        out.setdefault(entry_label(b, i, side, e), e)
    return out


def fire(b: IABatch, i: int, side: int, e: int, target: int) -> None:
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


