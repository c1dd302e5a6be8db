"""The turn machine of an :class:`~.batched.IABatch`, as far as it is written over arrays:
the four steps of a turn (``turn.run``, IA-TURN-01..04), PRODUCE (IA-PROD-01..05),
ADVANCE (IA-TRK-02..08), taking a COLONISE, DEVELOP, BUILD, RESEARCH or SHADOW ACTION
(IA-TRK-09, ``batched_economy``, ``batched_fleetworks``, ``batched_hire``), the Shadow
step (``batched_shadow``), PLAN ACTIONS (IA-TRK-10), claiming an Ambition
(IA-AMB-02..08), the 3:1 exchange (IA-RES-02), the passing of turns and rounds, and the
game's end with its scores (IA-END-01..12), and the FLEET ACTION: a fight under way
(``batched_combat``) runs its stages before the turn's next step, its spoils in
``batched_spoils``.
"""

from __future__ import annotations

import numpy as np

from . import batched_combat as cb
from . import batched_combat_decisions as cbd
from . import batched_economy as eco
from . import batched_fleetworks as fw
from . import batched_hire as hr
from . import batched_spoils as sp
from .batched import (
    BOOST,
    BUILD,
    BUY,
    CAP_GIVE,
    CAPTURE,
    CLAIM,
    CLEAR,
    COLONISE,
    DEF_REPAIR,
    DEV_PAY,
    DEVELOP,
    DISRUPT,
    EM_SCRAP,
    FIRE,
    FLEET,
    GIVE,
    HIRE,
    HOME_PICK,
    MODE,
    MORE,
    NONE,
    OPPOSE,
    ORDER,
    OVER,
    PLAN,
    PLAYERS,
    REPLACE_MERC,
    REPLACE_TECH,
    RESCUE,
    RESEARCH,
    SCRAP,
    SHADOW,
    SPOIL,
    STEAL,
    STEP2,
    STEP3,
    TURN,
    UPKEEP,
    IABatch,
    kind_table,
)
from .batched_shadow import shadow_apply, shadow_mask

TURN_KINDS = (STEP2, MORE, HOME_PICK, STEP3, PLAN, CLAIM, COLONISE, CLEAR, DEVELOP, DEV_PAY,
              SHADOW, BOOST, OPPOSE, BUILD, SCRAP, REPLACE_TECH, RESEARCH, MODE, BUY, HIRE,
              REPLACE_MERC, UPKEEP, GIVE, FLEET, ORDER, FIRE, STEAL, SPOIL, CAPTURE, RESCUE,
              DISRUPT, DEF_REPAIR, CAP_GIVE, EM_SCRAP)
NO_EXCHANGE = (DEV_PAY, ORDER, FIRE)
"""``rules.NO_EXCHANGE``: the turn seat's decisions without the 3:1 exchange."""
_TURN, _NO_EXCHANGE = kind_table(*TURN_KINDS), kind_table(*NO_EXCHANGE)


def metrics(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> dict[str, np.ndarray]:
    """Each Ambition condition's value for ``seat`` in ``rows`` (``turn.meets``; a
    condition is met at or above its number)."""
    fx = eco.effects(b)
    known = b.known[rows, seat]
    st = b.stats[rows, seat]
    out = {"raids_won": st[:, 0], "captures": st[:, 1], "techs_taken": st[:, 2]}
    cards = b.pl_card[rows, seat]
    t = fx.ptype[cards]
    lvl = b.pl_level[rows, seat]
    out["planets"] = (cards >= 0).sum(1)
    out["max_planets"] = ((cards >= 0) & (t != eco.HOME) & (lvl == fx.pmax[cards])).sum(1)
    out["all_types"] = np.all([(t == k).any(1) for k in range(4)], axis=0).astype(np.int64)
    out["home_level"] = np.where(t == eco.HOME, lvl, 0).max(1)
    out["techs"] = known.sum(1)
    out["owned_techs"] = (known & (b.tech_owner[rows] == seat[:, None])).sum(1)
    ships = b.ship_card[rows, seat]
    out["ships"] = (ships >= 0).sum(1)
    out["fleet_power"] = np.maximum(0, fx.combat[ships] - b.ship_dmg[rows, seat]).sum(1)
    out["resources"] = b.res[rows, seat].sum(1)
    m = b.medals[rows, seat]
    out["fleet_medals"], out["shadow_medals"], out["medals"] = m[:, 0], m[:, 1], m.sum(1)
    return out


def claimable(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool [len(rows), 6]: the Ambition slots ``seat`` may claim: not claimed by it
    (IA-AMB-08) and whose condition it meets now (IA-AMB-02, ruling IA-OPEN-21)."""
    c = b.content
    m = metrics(b, rows, seat)
    amb = b.ambitions[rows]
    ok = np.zeros(amb.shape, np.bool_)
    for a, (cond, need) in enumerate(c.ambition_cond):
        here = amb == a
        if here.any():
            ok |= here & (m[cond] >= need)[:, None]
    mine = b.claims[rows, :, seat] if rows.size else np.zeros((0, 6), np.int64)
    return ok & (mine == 0)


def run(b: IABatch, rows: np.ndarray) -> None:
    """``turn.run`` until each game of ``rows`` waits on a decision or is over: a fight
    under way runs its stages first (``batched_combat.run``); step 1 Shadow Activities (from round 2, with a card in hand, IA-TURN-02),
    step 2 PRODUCE or ADVANCE, step 3 TAKE ACTION or PLAN, step 4 a claim when one is
    possible (IA-AMB-02), then the turn passes clockwise (IA-TURN-01) and a new round
    begins with the start player; the round limit and the final turns end the game."""
    every = rows
    while True:
        every = every[(b.phase[every] == TURN) & (b.kind[every] == NONE)]
        if not every.size:
            return
        fight = b.cb_stage[every] >= 0  # a fight's stages first (``batched_combat``)
        fighting = every[fight]
        while fighting.size:  # each fight on to its next decision or its end
            cb.run(b, fighting)
            fighting = fighting[(b.kind[fighting] == NONE) & (b.cb_stage[fighting] >= 0)]
        rows = every[~fight]
        if not rows.size:
            continue
        step = b.step[rows].copy()
        seat = b.seat[rows]
        b.step[rows] = np.minimum(step + 1, 5)
        r = rows[step == 1]
        shadow = r[(b.round[r] > 1) & b.hands[r, b.seat[r]].any(1)]  # IA-TURN-02
        b.kind[shadow] = SHADOW
        b.dec_seat[shadow] = b.seat[shadow]
        for at, kind in ((2, STEP2), (3, STEP3)):
            r = rows[step == at]
            b.kind[r] = kind
            b.dec_seat[r] = b.seat[r]
            b.done[r] = False
        r = rows[step == 4]
        if r.size:
            can = claimable(b, r, b.seat[r]).any(1)
            b.kind[r[can]] = CLAIM
            b.dec_seat[r[can]] = b.seat[r[can]]
        r = rows[step >= 5]
        _end_turn(b, r, seat[step >= 5])


def _end_turn(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> None:
    """``turn.end_turn``: the final turns count down after a 3rd claim and the last one
    ends the game (IA-END-02, ruling IA-OPEN-22); else the next seat, a new round at the
    start player, and past the round limit the game ends (IA-END-03)."""
    b.turn_count[rows] += 1
    trig = b.end_trigger[rows] >= 0
    b.final_left[rows[trig]] -= 1
    over = trig & (b.final_left[rows] <= 0)
    finish(b, rows[over])
    rows, seat = rows[~over], seat[~over]
    nxt = (seat + 1) % PLAYERS
    b.seat[rows] = nxt
    b.step[rows] = 0
    new = nxt == b.start[rows]
    b.round[rows[new]] += 1
    finish(b, rows[new & (b.round[rows] > b.round_limit)])


AMBITION_VP = np.array([0, 12, 6, 3, 3])
"""VP by claim position (IA-AMB-06); index 0: no claim."""
SET_BONUS = 12


def scores(b: IABatch, rows: np.ndarray) -> np.ndarray:
    """int64 [len(rows), 3]: ``scoring.score_all`` (IA-END-05..10): planets at their
    maximum level score their VP, special planets' and kept events' VP while owned, 12
    for a FOOD, ORE, SCIENCE and COIN planet at maximum, owned techs, ships, medals,
    Ambitions by claim position."""
    fx = eco.effects(b)
    c = b.content
    cards = b.pl_card[rows]
    lvl = b.pl_level[rows]
    top = (cards >= 0) & (lvl == fx.pmax[cards])
    vp = np.append(fx.vp, 0)
    pts = np.where(top, vp[cards], 0).sum(2)
    if ("vp_bonus", "") in fx.planet:
        pts += fx.planet[("vp_bonus", "")][cards].sum(2)
    if "vp_marker" in fx.event:
        pts += fx.event["vp_marker"][b.pl_marker[rows]].sum(2)
    t = fx.ptype[cards]
    every = np.all([(top & (t == k)).any(2) for k in range(4)], axis=0)
    pts += np.where(every, SET_BONUS, 0)
    tvp = np.array(c.tech_vp, np.int64)
    owned = b.known[rows] & (b.tech_owner[rows][:, None, :] == np.arange(PLAYERS)[None, :, None])
    pts += (owned * tvp).sum(2)
    svp = np.append(np.array(c.ship_vp, np.int64), 0)
    pts += svp[b.ship_card[rows]].sum(2)
    pts += b.medals[rows].sum(2)
    pts += AMBITION_VP[np.minimum(b.claims[rows], 4)].sum(1)
    return pts


def finish(b: IABatch, rows: np.ndarray) -> None:
    """Game over (``turn.finish``): the most VP wins, ties broken by total fleet combat
    value, then shared (IA-END-04/11/12); returns 1 split among the winners."""
    if not rows.size:
        return
    fx = eco.effects(b)
    b.phase[rows] = OVER
    b.kind[rows] = NONE
    vp = scores(b, rows)
    win = vp == vp.max(1, keepdims=True)
    power = np.maximum(0, fx.combat[b.ship_card[rows]] - b.ship_dmg[rows]).sum(2)
    power = np.where(win, power, -1)
    win &= power == power.max(1, keepdims=True)
    b.ret[rows] = win / win.sum(1, keepdims=True)


def advance_options(b: IABatch, rows: np.ndarray) -> np.ndarray:
    """bool [len(rows), 6]: the deciding seat's tokens it may advance now: placed, not
    advanced this turn (IA-TRK-03: different tokens), able to move (IA-TRK-05..08)."""
    return b.movable(rows)


def _advance(b: IABatch, rows: np.ndarray, code: np.ndarray) -> None:
    """Move a token of ``code`` one slot right; up to 3 different tokens a turn, asked
    one at a time (IA-TRK-02/03)."""
    seat = b.dec_seat[rows]
    tok = b.tokens[rows, seat]
    i = ((tok == code[:, None]) & ~b.done[rows]).argmax(1)
    b.tokens[rows, seat, i] = code + 1
    b.done[rows, i] = True
    more = (b.done[rows].sum(1) < 3) & advance_options(b, rows).any(1)
    b.kind[rows] = np.where(more, MORE, NONE)


def apply_turn(b: IABatch, a: np.ndarray, kinds: np.ndarray, o: object) -> None:
    """Apply the action ``a`` [n] of every game whose decision (``kinds``, read before
    any handler ran) is a turn decision; ``o``: the ``batched_view.Offsets``. The turn
    machine then runs on."""
    off = o.off  # type: ignore[attr-defined]
    rows = np.flatnonzero(_TURN[kinds])
    if not rows.size:
        return
    x = a[rows]
    ex = (x >= off["exchange"]) & (x < off["exchange"] + 16)
    if ex.any():  # IA-RES-02: the decision stays pending
        r = rows[ex]
        g, t = (x[ex] - off["exchange"]) // 4, (x[ex] - off["exchange"]) % 4
        seat = b.seat[r]
        b.res[r, seat, g] -= 3
        b.res[r, seat, t] += 1
        rows, x = rows[~ex], x[~ex]
    k = kinds[rows]
    seat = b.dec_seat[rows]
    adv = (x >= off["advance"]) & (x < off["advance"] + 18)
    r = rows[adv]
    b.kind[r] = NONE
    _advance(b, r, o.movable_code[x[adv] - off["advance"]])  # type: ignore[attr-defined]
    simple = ~adv & ((x == off["pass"]) | (x == off["done"]))
    b.kind[rows[simple]] = NONE
    prod = x == off["produce"]
    if prod.any():  # IA-PROD-01..05; a Home World's yield is picked one at a time
        b.kind[rows[prod]] = NONE
        eco.produce(b, rows[prod], seat[prod])
    home = k == HOME_PICK
    if home.any():
        r = rows[home]
        b.res[r, seat[home], x[home] - off["home"]] += 1
        b.count[r] -= 1
        end = r[b.count[r] == 0]  # then the MERCs' upkeep (IA-PROD-06)
        b.kind[end] = np.where(b.count2[end] > 0, UPKEEP, NONE)
    take = (k == STEP3) & (x >= off["take"]) & (x < off["take"] + 24)
    if take.any():  # IA-TRK-09: the token goes back to the pool
        r, s = rows[take], seat[take]
        code = x[take] - off["take"]
        i = (b.tokens[r, s] == code[:, None]).argmax(1)
        b.tokens[r, s, i] = -1
        b.kind[r] = NONE
        act = code >> 2
        econ = act <= 1
        eco.start(b, r[econ], act[econ], code[econ] & 3)
        works = (act == 2) | (act == 3)
        fw.start(b, r[works], act[works], code[works] & 3)
        hr.start(b, r[act == 4], code[act == 4] & 3)
        fl = act == 5  # the FLEET ACTION: raid, invade or pass (IA-RAID-01, IA-INV-01)
        b.kind[r[fl]] = FLEET
        b.dec_seat[r[fl]] = s[fl]
        b.act_level[r[fl]] = code[fl] & 3
    _economy(b, rows, k, x, seat, off)
    shadow_apply(b, rows, k, x, seat, off)
    fw.works_apply(b, rows, k, x, seat, off)
    hr.apply(b, rows, k, x, seat, off)
    cbd.apply(b, rows, k, x, seat, off)
    sp.apply(b, rows, k, x, seat, off)
    plan = x == off["plan"]
    if plan.any():  # IA-TRK-10: every pool token, one at a time
        r = rows[plan]
        left = (b.tokens[r, seat[plan]] < 0).sum(1)
        b.kind[r] = np.where(left > 0, PLAN, NONE)
        b.count[r] = left
    place = k == PLAN
    if place.any():
        r = rows[place]
        s = seat[place]
        i = (b.tokens[r, s] < 0).argmax(1)
        b.tokens[r, s, i] = (x[place] - off["place"]) * 4
        b.count[r] -= 1
        b.kind[r[b.count[r] == 0]] = NONE
    claim = (k == CLAIM) & (x >= off["claim"]) & (x < off["claim"] + len(b.content.ambition_ids))
    if claim.any():  # the next position (IA-AMB-05); a 3rd claim ends the game soon
        r = rows[claim]
        s = seat[claim]
        slot = (b.ambitions[r] == (x[claim] - off["claim"])[:, None]).argmax(1)
        b.claims[r, slot, s] = (b.claims[r, slot] > 0).sum(1) + 1
        b.kind[r] = NONE
        third = (b.claims[r, :, s] > 0).sum(1) >= 3
        trig = third & (b.end_trigger[r] < 0)  # IA-END-01/02, ruling IA-OPEN-22
        b.end_trigger[r[trig]] = s[trig]
        b.final_left[r[trig]] = PLAYERS + 1
    run(b, np.flatnonzero(_TURN[kinds]))


def _economy(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray, seat: np.ndarray,
             off: dict[str, int]) -> None:
    """The COLONISE and DEVELOP decisions' answers (``batched_economy``)."""
    nl = off["develop_levels"]
    m = (k == CLEAR) & (x == off["done"])
    b.kind[rows[m]] = COLONISE
    m = (k == CLEAR) & (x >= off["clear"]) & (x < off["clear"] + off["stacked"])
    if m.any():
        eco.clear(b, rows[m], off["stacked_ids"][x[m] - off["clear"]])
    m = (k == COLONISE) & (x >= off["colonise"]) & (x < off["colonise"] + off["stacked"])
    if m.any():
        eco.colonise(b, rows[m], seat[m], off["stacked_ids"][x[m] - off["colonise"]])
    m = (k == COLONISE) & (x == off["pass"])
    b.kind[rows[m]] = NONE
    ns = off["stacked"]
    m = (k == GIVE) & (x >= off["give"]) & (x < off["give"] + 3 * ns)
    if m.any():
        y = x[m] - off["give"]
        eco.give(b, rows[m], seat[m], off["stacked_ids"][y // 3], y % 3)
    m = (k == GIVE) & (x >= off["discard-planet"]) & (x < off["discard-planet"] + ns)
    if m.any():
        eco.give(b, rows[m], seat[m], off["stacked_ids"][x[m] - off["discard-planet"]],
                 np.full(int(m.sum()), -1))
    m = (k == DEVELOP) & (x >= off["develop"]) & (x < off["develop"] + b.n_planets * nl)
    if m.any():
        y = x[m] - off["develop"]
        eco.develop(b, rows[m], seat[m], y // nl, y % nl + 2)
    m = (k == DEVELOP) & (x == off["done"])
    b.kind[rows[m]] = NONE
    m = k == DEV_PAY
    if m.any():
        eco.dev_pay(b, rows[m], seat[m], x[m] - off["pay"])


def _economy_mask(b: IABatch, mask: np.ndarray, rows: np.ndarray, k: np.ndarray,
                  seat: np.ndarray, off: dict[str, int]) -> None:
    """The legal answers to COLONISE and DEVELOP decisions."""
    arg = off["stacked_arg"]
    for kind, verb, end in ((CLEAR, "clear", "done"), (COLONISE, "colonise", "pass")):
        m = k == kind
        if m.any():
            r = rows[m]
            up = eco.face_up(b, r)
            ok = (up >= 0) if kind == CLEAR else eco.colonise_ok(b, r, seat[m])
            rr = np.repeat(r[:, None], up.shape[1], 1)
            mask[rr[ok], off[verb] + arg[up[ok]]] = True
            mask[r, off[end]] = True
    m = k == DEVELOP
    if m.any():
        r = rows[m]
        ok = eco.develop_options(b, r, seat[m])
        g, i, lv = np.nonzero(ok)
        p = b.pl_card[r[g], seat[m][g], i]
        mask[r[g], off["develop"] + p * off["develop_levels"] + lv] = True
        mask[r, off["done"]] = True
    m = k == DEV_PAY
    if m.any():
        r = rows[m]
        mask[r, off["pay"]:off["pay"] + 4] = b.res[r, seat[m]] > 0
    m = k == GIVE
    if m.any():  # any planet but a Home World (ruling IA-OPEN-29)
        r, s = rows[m], seat[m]
        to = eco.give_targets(b, r, s)
        cards = b.pl_card[r, s]
        ok = (cards >= 0) & (eco.effects(b).ptype[cards] != eco.HOME)
        g, j = np.nonzero(ok)
        a = arg[cards[g, j]]
        some = to.any(1)
        d = ~some[g]
        mask[r[g[d]], off["discard-planet"] + a[d]] = True
        for o in range(3):
            go = some[g] & to[g, o]
            mask[r[g[go]], off["give"] + a[go] * 3 + o] = True


def turn_mask(b: IABatch, mask: np.ndarray, o: object) -> None:
    """Write the legal actions of the games waiting on a turn decision into ``mask``."""
    off = o.off  # type: ignore[attr-defined]
    kind = b.kind
    live = b.phase == TURN
    rows = np.flatnonzero(live & _TURN[kind])
    if not rows.size:
        return
    seat = b.dec_seat[rows]
    k = kind[rows]
    # exchanges at each of the turn seat's own decisions (IA-RES-02)
    res = b.res[rows, b.seat[rows]]
    give = np.repeat(res >= 3, 4, axis=1) & ~np.eye(4, dtype=np.bool_).ravel()
    give &= (~_NO_EXCHANGE[k] & (seat == b.seat[rows]))[:, None]  # own decisions
    shadow_mask(b, mask, rows, k, seat, off)
    fw.works_mask(b, mask, rows, k, seat, off)
    hr.mask(b, mask, rows, k, seat, off)
    cbd.mask(b, mask, rows, k, seat, off)
    sp.mask(b, mask, rows, k, seat, off)
    mask[rows, off["exchange"]:off["exchange"] + 16] = give
    _economy_mask(b, mask, rows, k, seat, off)
    for kk, verb in ((STEP2, "produce"), (STEP2, "pass"), (MORE, "done"), (STEP3, "plan"),
                     (CLAIM, "pass")):
        mask[rows[k == kk], off[verb]] = True
    adv = (k == STEP2) | (k == MORE)
    if adv.any():
        r = rows[adv]
        ok = advance_options(b, r)
        tok = b.tokens[r, seat[adv]]
        cols = off["advance"] + o.movable_arg[np.maximum(tok, 0)]  # type: ignore[attr-defined]
        rr = np.repeat(r[:, None], 6, 1)
        mask[rr[ok], cols[ok]] = True
    r = rows[k == HOME_PICK]
    mask[r, off["home"]:off["home"] + 4] = True
    r = rows[k == PLAN]
    mask[r, off["place"]:off["place"] + 6] = True
    st3 = k == STEP3
    if st3.any():  # take any placed token; no FLEET in round 1 (IA-TURN-02)
        r = rows[st3]
        tok = b.tokens[r, seat[st3]]
        ok = (tok >= 0) & ~((b.round[r] == 1)[:, None] & ((tok >> 2) == 5))
        rr = np.repeat(r[:, None], 6, 1)
        mask[rr[ok], off["take"] + tok[ok]] = True
    cl = k == CLAIM
    if cl.any():
        r = rows[cl]
        ok = claimable(b, r, seat[cl])
        rr = np.repeat(r[:, None], 6, 1)
        mask[rr[ok], off["claim"] + b.ambitions[r][ok]] = True
