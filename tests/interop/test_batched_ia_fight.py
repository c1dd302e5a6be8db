"""The batched Interstellar Ambitions' matched pairs, fired for every game at once
(``batched_combat._fight``), against the same fights fired game by game, pair by pair,
die by die with the module's own volley (``_hits``, as the unmatched fire still rolls).

Random play rarely matches the ships whose hooks change a volley (armour, a natural 6's
extra hit, a better hit number, extra dice against a class, an ally's extra die), so here
every fleet is drawn from every ship card (IA-RAID-07/08, IA-SHIP-05..13)."""

from __future__ import annotations

import numpy as np

from starlanes.games.interstellar_ambitions import batched_combat as bc
from starlanes.games.interstellar_ambitions.batched import IABatch

FIELDS = ("rng", "cb_dmg", "cb_cursor", "cb_stage")


def _fights(n: int, seed: int) -> IABatch:
    """``n`` games at the FIGHT stage, both orders committed, fleets of random cards."""
    b = IABatch(n)
    b.reset(np.arange(n), list(range(seed, seed + n)))
    t = bc.ctab(b)
    rng = np.random.default_rng(seed)
    cards = len(t.ids)
    b.cb_stage[:] = bc.FIGHT
    for side in (0, 1):
        size = rng.integers(1, bc.MAX_SHIPS + 1, n)
        b.cb_len[:, side] = size
        b.cb_card[:, side] = rng.integers(0, cards, (n, bc.MAX_SHIPS))
        b.cb_dmg[:, side] = rng.integers(0, 3, (n, bc.MAX_SHIPS))
        b.cb_st[:, side] = np.where(rng.random((n, bc.MAX_SHIPS)) < 0.8, 0, 1)
        b.cb_ord[:, side] = -1
        for i in range(n):
            alive = [e for e in range(size[i]) if b.cb_st[i, side, e] == 0]
            order = rng.permutation(alive).tolist() if alive else []
            b.cb_ord[i, side, :len(order)] = order
            b.cb_olen[i, side] = len(order)
    b.cb_comm[:] = True
    return b


def _one_by_one(b: IABatch) -> None:
    for i in range(b.n):
        ao, do = bc.order_of(b, i, 0), bc.order_of(b, i, 1)
        for k in range(min(len(ao), len(do))):
            ha = bc._hits(b, i, 0, ao[k], do[k])
            hd = bc._hits(b, i, 1, do[k], ao[k])
            b.cb_dmg[i, 1, do[k]] += ha
            b.cb_dmg[i, 0, ao[k]] += hd
        b.cb_cursor[i] = min(len(ao), len(do))
        b.cb_stage[i] = bc.UNMATCHED


def test_matched_pairs_fire_as_each_game_would_alone():
    b = _fights(300, 7000)
    t = bc.ctab(b)
    before = {f: getattr(b, f).copy() for f in FIELDS}
    _one_by_one(b)
    want = {f: getattr(b, f).copy() for f in FIELDS}
    for f in FIELDS:
        setattr(b, f, before[f].copy())
    bc._fight(b, np.arange(b.n))
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(b, f), want[f], err_msg=f)
    # the hooks were in play: matched ships of each kind, and damage dealt
    fleets = set(b.cb_card[b.cb_st == 0].tolist())
    for figure in (t.armour, t.six, t.hit_on != 4, t.vs.any(1), t.ally.any(0)):
        assert fleets & set(np.flatnonzero(figure).tolist())
    assert (want["cb_dmg"] != before["cb_dmg"]).any()


def test_games_not_at_the_fight_keep_their_dice():
    b = _fights(40, 8100)
    rows = np.arange(0, 40, 3)
    before = b.rng.copy()
    bc._fight(b, rows)
    others = np.setdiff1d(np.arange(40), rows)
    np.testing.assert_array_equal(b.rng[others], before[others])
    assert (b.cb_stage[rows] == bc.UNMATCHED).all()
    assert (b.cb_stage[others] == bc.FIGHT).all()
