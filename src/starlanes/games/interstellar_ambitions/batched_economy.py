"""PRODUCE, COLONISE and DEVELOP over an :class:`~.batched.IABatch` (the reference's
``economy``): effects of techs, planets and kept Colony Events as tables, face-up planet
refills, Colony Events, the 8-planet give-away (IA-COLN-04..07).
"""

from __future__ import annotations

import numpy as np

from .batched import (
    CLEAR,
    COLONISE,
    DEV_PAY,
    DEVELOP,
    GIVE,
    HOME_PICK,
    MAX_PLANETS,
    MAX_SHIPS,
    NONE,
    UPKEEP,
    IABatch,
)

RES = ("food", "ore", "science", "coin")
HOME = 4
"""Planet type of a Home World."""
COLONISE_VP_CAP = (3, 5, 99, 99)
"""Highest VP colonisable at BASIC .. ULTIMATE (IA-COLN-10..13)."""
COLONISE_START = (2, 2, 2, 4)
"""Start level by planning level (IA-COLN-10..13)."""
DEVELOP_CAP = (3, 4, 5, 5)
DEVELOP_COUNT = (1, 1, 1, 3)
"""Highest level reached and planets developed by planning level (IA-DEV-05..08)."""
HAND_LIMIT = 7
"""Shadow hand limit (IA-SHA-04)."""


class Effects:
    """Hook tables (``common.bonus``): ``tech[kind, arg]`` [techs], ``planet[kind, arg]``
    [planets + 1] and ``event[kind]`` [events + 1] (a kept event counts whatever its
    argument; index -1, the last, is "none" and 0), and the content's planet figures."""

    def __init__(self, b: IABatch) -> None:
        c = b.content
        self.tech: dict[tuple[str, str], np.ndarray] = {}
        self.planet: dict[tuple[str, str], np.ndarray] = {}
        self.event: dict[str, np.ndarray] = {}
        for t, fx in enumerate(c.tech_fx):
            for kind, n, arg in fx:
                self.tech.setdefault((kind, arg), np.zeros(b.n_techs, np.int64))[t] += n
        for p, fx in enumerate(c.planet_fx):
            for kind, n, arg in fx:
                self.planet.setdefault((kind, arg), np.zeros(b.n_planets + 1, np.int64))[p] += n
        for e, (kind, n, _arg) in enumerate(c.event_effect):
            self.event.setdefault(kind, np.zeros(len(c.event_ids) + 1, np.int64))[e] += n
        self.ptype = np.append(np.array(c.planet_type, np.int64), -1)
        """Planet type by planet (index -1: none)."""
        self.pmax = np.append(np.array(c.planet_max, np.int64), 0)
        self.vp = np.array(c.planet_vp, np.int64)
        self.cost = np.array(c.planet_cost, np.int64)
        self.ekind = [k for k, _n, _a in c.event_effect]
        self.en = np.array([n for _k, n, _a in c.event_effect], np.int64)
        self.earg = [a for _k, _n, a in c.event_effect]
        self.ekeep = np.array(c.event_keep, np.bool_)
        self.militia = c.ship_index.get("strike_craft", 0)
        self.combat = np.append(np.array(c.ship_combat, np.int64), 0)
        self.upkeep = np.append(np.array(c.ship_upkeep, np.int64), 0)


def effects(b: IABatch) -> Effects:
    """The :class:`Effects` of ``b`` (made once, kept on it)."""
    got = getattr(b, "effects", None)
    if got is None:
        got = b.effects = Effects(b)  # type: ignore[attr-defined]
    return got


def bonus(b: IABatch, rows: np.ndarray, seat: np.ndarray, kind: str,
          arg: str | None = None) -> np.ndarray:
    """``common.bonus``: the ``kind`` hooks (of argument ``arg``, any when None) on the
    techs ``seat`` knows and the planets it owns with their kept events (IA-TECH-03/04,
    IA-PLN-02/06, IA-COL-04): int64 [len(rows)]."""
    fx = effects(b)
    total = np.zeros(rows.size, np.int64)
    known = b.known[rows, seat]
    cards = b.pl_card[rows, seat]
    for (k, a), table in fx.tech.items():
        if k == kind and (arg is None or a == arg):
            total += known.astype(np.int64) @ table
    for (k, a), table in fx.planet.items():
        if k == kind and (arg is None or a == arg):
            total += table[cards].sum(1)
    if kind in fx.event:
        total += fx.event[kind][b.pl_marker[rows, seat]].sum(1)
    return total


def produce(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> None:
    """PRODUCE (IA-PROD-01..05, ruling IA-OPEN-05): every planet yields its type times
    its level (a kept produce marker adds), Home Worlds a total picked one resource at a
    time, then the ``produce_extra`` bonuses; then each MERC's upkeep (IA-PROD-06/07,
    ``batched_hire``)."""
    fx = effects(b)
    cards = b.pl_card[rows, seat]
    t = fx.ptype[cards]
    lvl = b.pl_level[rows, seat]
    extra = fx.event["produce_marker"][b.pl_marker[rows, seat]] \
        if "produce_marker" in fx.event else 0
    home = np.where(t == HOME, lvl, 0).sum(1)
    for r in range(4):
        got = np.where(t == r, lvl + extra, 0).sum(1)
        b.res[rows, seat, r] += got + bonus(b, rows, seat, "produce_extra", RES[r])
    b.count2[rows] = (fx.upkeep[b.ship_card[rows, seat]] > 0).sum(1)  # IA-PROD-06
    b.kind[rows] = np.where(home > 0, HOME_PICK, np.where(b.count2[rows] > 0, UPKEEP, NONE))
    b.count[rows] = home


def refill(b: IABatch, rows: np.ndarray, t: int) -> None:
    """``refill_planets``: empty face-up slots of type ``t`` from its stack; an exhausted
    stack first takes back the discarded planets of its type, in discard order
    (IA-COLN-08/09, ruling IA-OPEN-10)."""
    fx = effects(b)
    deck = b.planet_decks[t]
    disc = b.planet_discard
    for i in range(b.planet_slots.shape[2]):
        r = rows[b.planet_slots[rows, t, i] < 0]
        e = r[deck.size[r] == 0]
        if e.size:
            cards = disc.cards[e]
            mine = (fx.ptype[cards] == t) & (cards >= 0)
            order = np.argsort(~mine, axis=1, kind="stable")
            moved = np.take_along_axis(np.where(mine, cards, -1), order, 1)
            back = mine.sum(1)
            deck.cards[e, :] = -1
            deck.cards[e, :deck.cards.shape[1]] = moved[:, :deck.cards.shape[1]]
            deck.size[e] = back
            rest = (cards >= 0) & ~mine
            order = np.argsort(~rest, axis=1, kind="stable")
            disc.cards[e] = np.take_along_axis(np.where(rest, cards, -1), order, 1)
            disc.size[e] = rest.sum(1)
        r = r[deck.size[r] > 0]
        if r.size:
            b.planet_slots[r, t, i] = b._draw(r, deck)


def start(b: IABatch, rows: np.ndarray, act: np.ndarray, level: np.ndarray) -> None:
    """COLONISE (act 0: after clearing face-up planets at ULTIMATE, IA-COLN-13) or
    DEVELOP (act 1) at ``level``."""
    b.act_level[rows] = level
    col = act == 0
    b.kind[rows[col]] = np.where(level[col] == 3, CLEAR, COLONISE)
    r = rows[~col]
    b.kind[r] = DEVELOP
    b.dev_left[r] = np.array(DEVELOP_COUNT)[level[~col]]
    b.dev_done[r] = False


def face_up(b: IABatch, rows: np.ndarray) -> np.ndarray:
    """int64 [len(rows), 8]: the face-up planets, stack by stack (-1: empty slot)."""
    return b.planet_slots[rows].reshape(rows.size, -1)


def colonise_ok(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool [len(rows), 8]: the face-up planets COLONISE may take: VP within the level's
    cap (IA-COLN-10..12) and the cost, less discounts, payable (IA-COLN-02)."""
    fx = effects(b)
    up = face_up(b, rows)
    cap = np.array(COLONISE_VP_CAP)[b.act_level[rows]]
    cost = cost_of(b, rows, seat, up)
    res = b.res[rows, seat]
    return (up >= 0) & (fx.vp[np.maximum(up, 0)] <= cap[:, None]) \
        & (res[:, None, :] >= cost).all(2)


def cost_of(b: IABatch, rows: np.ndarray, seat: np.ndarray, planets: np.ndarray) -> np.ndarray:
    """int64 [len(rows), k, 4]: ``colonise_cost`` of ``planets`` [len(rows), k]."""
    fx = effects(b)
    cost = fx.cost[np.maximum(planets, 0)].copy()
    for r, name in ((0, "food"), (1, "ore")):
        d = bonus(b, rows, seat, "colonise_discount", name)
        cost[..., r] = np.maximum(0, cost[..., r] - d[:, None])
    return cost


def clear(b: IABatch, rows: np.ndarray, p: np.ndarray) -> None:
    """Discard face-up planet ``p`` and refill its slot; asked again (IA-COLN-13)."""
    fx = effects(b)
    t = fx.ptype[p]
    slot = (b.planet_slots[rows, t] == p[:, None]).argmax(1)
    b.planet_slots[rows, t, slot] = -1
    b.planet_discard.push(rows, p)
    for k in range(4):
        refill(b, rows[t == k], k)


def colonise(b: IABatch, rows: np.ndarray, seat: np.ndarray, p: np.ndarray) -> None:
    """Pay and take face-up planet ``p`` (IA-COLN-02); at 8 planets one is given away
    or discarded first (IA-COLN-04..06); then ``colonise_finish``."""
    fx = effects(b)
    b.res[rows, seat] -= cost_of(b, rows, seat, p[:, None])[:, 0]
    t = fx.ptype[p]
    slot = (b.planet_slots[rows, t] == p[:, None]).argmax(1)
    b.planet_slots[rows, t, slot] = -1
    b.kind[rows] = NONE
    full = (b.pl_card[rows, seat] >= 0).sum(1) >= MAX_PLANETS
    start = np.array(COLONISE_START)[b.act_level[rows]]
    b.kind[rows[full]] = GIVE
    b.give_planet[rows[full]] = p[full]
    b.give_start[rows[full]] = start[full]
    keep = ~full
    finish(b, rows[keep], seat[keep], p[keep], start[keep])


def give_targets(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool [len(rows), 3]: the other players with the fewest planets among those with
    fewer than 8 (IA-COLN-04/05; none: the planet is discarded instead)."""
    count = (b.pl_card[rows] >= 0).sum(2)
    other = (np.arange(3)[None, :] != seat[:, None]) & (count < MAX_PLANETS)
    low = np.where(other, count, MAX_PLANETS + 1).min(1)
    return other & (count == low[:, None])


def give(b: IABatch, rows: np.ndarray, seat: np.ndarray, p: np.ndarray, o: np.ndarray) -> None:
    """Give planet ``p`` to seat ``o`` with its level and kept event (IA-COLN-07), or
    discard it (``o`` = -1) with its kept event (IA-COL-05); then ``colonise_finish``
    of the planet waiting (IA-COLN-06; ruling IA-OPEN-29: never a Home World)."""
    k = (b.pl_card[rows, seat] == p[:, None]).argmax(1)
    lvl, mk = b.pl_level[rows, seat, k], b.pl_marker[rows, seat, k]
    after = np.arange(MAX_PLANETS)[None, :] >= k[:, None]
    nxt = np.minimum(np.arange(MAX_PLANETS) + 1, MAX_PLANETS - 1)
    for arr, empty in ((b.pl_card, -1), (b.pl_level, 0), (b.pl_marker, -1)):
        cur = arr[rows, seat]
        moved = np.where(after, cur[:, nxt], cur)
        moved[:, -1] = empty
        arr[rows, seat] = moved
    to = o >= 0
    r, oo = rows[to], o[to]
    j = (b.pl_card[r, oo] >= 0).sum(1)
    b.pl_card[r, oo, j] = p[to]
    b.pl_level[r, oo, j] = lvl[to]
    b.pl_marker[r, oo, j] = mk[to]
    r = rows[~to]
    b.planet_discard.push(r, p[~to])
    m = mk[~to] >= 0
    b.colony_discard.push(r[m], mk[~to][m])
    b.kind[rows] = NONE
    finish(b, rows, seat, b.give_planet[rows], b.give_start[rows])


def finish(b: IABatch, rows: np.ndarray, seat: np.ndarray, p: np.ndarray,
           level: np.ndarray) -> None:
    """``colonise_finish``: a Colony Event the first time a planet is colonised (IA-COL-01
    ..04; ruling IA-OPEN-13: "fail" discards the planet), then the planet at its start
    level within its printed range (ruling IA-OPEN-12), and the slot refilled."""
    fx = effects(b)
    t = fx.ptype[p]
    marker = np.full(rows.size, -1, np.int64)
    level = level.copy()
    failed = np.zeros(rows.size, np.bool_)
    first = ~b.colonised[rows, p]
    f = np.flatnonzero(first)
    if f.size:
        r, s = rows[f], seat[f]
        b.colonised[r, p[f]] = True
        e = b._draw(r, b.colony_deck, b.colony_discard)
        got = e >= 0
        keep = got & fx.ekeep[np.maximum(e, 0)]
        marker[f[keep]] = e[keep]
        b.colony_discard.push(r[got & ~keep], e[got & ~keep])
        for j in np.flatnonzero(got):  # one event per game: its effect by kind
            _event(b, int(r[j]), int(s[j]), int(e[j]), f[j], level, failed, p)
    ok = ~failed
    r, s = rows[ok], seat[ok]
    k = (b.pl_card[r, s] >= 0).sum(1)
    b.pl_card[r, s, k] = p[ok]
    b.pl_level[r, s, k] = np.clip(level[ok], 1, fx.pmax[p[ok]])
    b.pl_marker[r, s, k] = marker[ok]
    for ty in range(4):
        refill(b, rows[t == ty], ty)


def _event(b: IABatch, row: int, seat: int, e: int, j: int, level: np.ndarray,
           failed: np.ndarray, p: np.ndarray) -> None:
    """One Colony Event's effect (IA-COL-03/04, ``colonise_finish``)."""
    fx = effects(b)
    kind, n, arg = fx.ekind[e], int(fx.en[e]), fx.earg[e]
    if kind == "fail":
        failed[j] = True
        b.colonised[row, p[j]] = False
        b.planet_discard.push(np.array([row]), np.array([p[j]]))
    elif kind in ("gain", "lose"):
        r = RES.index(arg)
        b.res[row, seat, r] = max(0, b.res[row, seat, r] + (n if kind == "gain" else -n))
    elif kind == "level":
        level[j] += n
    elif kind == "free_ship":
        k = int((b.ship_card[row, seat] >= 0).sum())
        if k < MAX_SHIPS:
            b.ship_card[row, seat, k] = b.content.ship_index[arg]
            b.ship_dmg[row, seat, k] = 0
    elif kind == "draw_shadow":
        for _ in range(n):
            if b.hands[row, seat].sum() < HAND_LIMIT:
                card = int(b._draw(np.array([row]), b.shadow_deck, b.shadow_discard)[0])
                if card >= 0:
                    b.hand_add(np.array([row]), np.array([seat]), np.array([card]))
    elif kind == "medal":
        b.medals[row, seat, 1] += n


def develop_options(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool [len(rows), 8 planets, 4 levels 2..5]: the owned planets not developed yet in
    this ACTION and the levels they may reach: within the planning level's cap and the
    printed maximum, 2 resources of the planet's type (any, a Home World) per level
    (IA-DEV-01..08, IA-PLN-05)."""
    fx = effects(b)
    cards = b.pl_card[rows, seat]
    lvl = b.pl_level[rows, seat]
    t = fx.ptype[cards]
    res = b.res[rows, seat]
    have = np.where(t == HOME, res.sum(1)[:, None],
                    np.take_along_axis(res, np.clip(t, 0, 3), 1))
    top = np.minimum(np.array(DEVELOP_CAP)[b.act_level[rows]][:, None], fx.pmax[cards])
    done = np.take_along_axis(b.dev_done[rows], np.maximum(cards, 0), 1)
    to = np.arange(2, 6)
    ok = (to > lvl[..., None]) & (to <= top[..., None]) \
        & (have[..., None] >= 2 * (to - lvl[..., None]))
    return ok & ((cards >= 0) & ~done)[..., None]


def develop(b: IABatch, rows: np.ndarray, seat: np.ndarray, p: np.ndarray,
            to: np.ndarray) -> None:
    """Raise planet ``p`` to level ``to`` for 2 resources a level (IA-DEV-01); a Home
    World's are paid one at a time, any type (IA-DEV-03); the next planet is asked
    after (IA-DEV-05..08)."""
    fx = effects(b)
    k = (b.pl_card[rows, seat] == p[:, None]).argmax(1)
    lvl = b.pl_level[rows, seat, k]
    units = 2 * (to - lvl)
    b.pl_level[rows, seat, k] = np.clip(to, 1, fx.pmax[p])
    b.dev_left[rows] -= 1
    b.dev_done[rows, p] = True
    t = fx.ptype[p]
    home = t == HOME
    r = rows[~home]
    b.res[r, seat[~home], t[~home]] = np.maximum(0, b.res[r, seat[~home], t[~home]]
                                                 - units[~home])
    b.kind[r] = np.where(b.dev_left[r] > 0, DEVELOP, NONE)
    r = rows[home]
    b.kind[r] = DEV_PAY
    b.count[r] = units[home]


def dev_pay(b: IABatch, rows: np.ndarray, seat: np.ndarray, r: np.ndarray) -> None:
    """Pay one resource ``r`` of a Home World's development (IA-DEV-03); then the next
    planet, if any."""
    b.res[rows, seat, r] = np.maximum(0, b.res[rows, seat, r] - 1)
    b.count[rows] -= 1
    end = b.count[rows] == 0
    e = rows[end]
    b.kind[e] = np.where(b.dev_left[e] > 0, DEVELOP, NONE)
