"""BUILD and RESEARCH over an :class:`~.batched.IABatch` (the reference's
``fleetworks``): repairs before building (IA-BLD-01), builds by planning level
(IA-BLD-02..06), the 8-ship scrap (IA-SHIP-07), research by planning level with the
ULTIMATE replacement of face-up techs (IA-RSCH-01..05).
"""

from __future__ import annotations

import numpy as np

from . import batched_economy as eco
from .batched import BUILD, MAX_SHIPS, NONE, REPLACE_TECH, RESEARCH, SCRAP, IABatch
from .batched_hire import add_ship, scrap_first
from .batched_shadow import remove_ship, tables

BUILDS = (1, 2, 3, 4)
"""Ships built by planning level (IA-BLD-02..05)."""
RESEARCH_VP_CAP = (2, 4, 99, 99)
RESEARCH_COUNT = (1, 1, 1, 2)
"""Highest tech VP and techs researched by planning level (IA-RSCH-*)."""


class WorksTables:
    """Content figures: the standard ships (``std``), which are HEAVY, ship and tech
    costs, tech VP."""

    def __init__(self, b: IABatch) -> None:
        c = b.content
        self.std = np.array(c.standard_ships, np.int64)
        self.heavy = np.array(c.ship_heavy, np.bool_)
        self.ship_cost = np.array(c.ship_cost, np.int64)
        self.tech_cost = np.array(c.tech_cost, np.int64)
        self.tech_vp = np.array(c.tech_vp, np.int64)


def works(b: IABatch) -> WorksTables:
    """The :class:`WorksTables` of ``b`` (made once, kept on it)."""
    got = getattr(b, "works_tables", None)
    if got is None:
        got = b.works_tables = WorksTables(b)  # type: ignore[attr-defined]
    return got


def repair_cost(before: np.ndarray, removed: np.ndarray) -> np.ndarray:
    """ORE for removing ``removed`` more markers after ``before`` this ACTION: 1 per 2,
    rounded up over the ACTION (IA-BLD-01, ruling IA-OPEN-28)."""
    return (before + removed + 1) // 2 - (before + 1) // 2


def start(b: IABatch, rows: np.ndarray, act: np.ndarray, level: np.ndarray) -> None:
    """BUILD (act 2: ULTIMATE or a free-repair hook mends every ship first) or RESEARCH
    (act 3: ULTIMATE may first replace face-up techs)."""
    seat = b.seat[rows]
    b.act_level[rows] = level
    bld = act == 2
    r, s, lv = rows[bld], seat[bld], level[bld]
    free = (lv == 3) | (eco.bonus(b, r, s, "repair_free") > 0)
    b.ship_dmg[r[free], s[free]] = 0
    b.kind[r] = BUILD
    b.count[r] = np.array(BUILDS)[lv]
    b.dev_left[r] = 0  # markers repaired this ACTION
    r, lv = rows[~bld], level[~bld]
    b.kind[r] = np.where(lv == 3, REPLACE_TECH, RESEARCH)
    b.dev_left[r] = np.array(RESEARCH_COUNT)[lv]


def build_cost(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """int64 [len(rows), standard ships]: ``build_cost`` (IA-BLD-06: at least 1)."""
    w = works(b)
    cost = w.ship_cost[w.std][None, :] - eco.bonus(b, rows, seat, "build_discount")[:, None]
    cost -= (b.act_level[rows] == 3)[:, None]
    return np.maximum(1, cost)


def build_options(b: IABatch, rows: np.ndarray, seat: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(repair [len(rows), labels], build [len(rows), standard ships]) bool: damaged
    ships mendable before the first build, and the affordable ships (BASIC: LIGHT only,
    IA-BLD-03)."""
    st, w = tables(b), works(b)
    ore = b.res[rows, seat, 1]
    first = b.count[rows] == np.array(BUILDS)[b.act_level[rows]]
    cards, dmg = b.ship_card[rows, seat], b.ship_dmg[rows, seat]
    ok = (cards >= 0) & (dmg > 0) & first[:, None] \
        & (ore[:, None] >= repair_cost(b.dev_left[rows][:, None], dmg))
    rep = np.zeros((rows.size, st.n_labels), np.bool_)
    g, k = np.nonzero(ok)
    rep[g, st.label_base[cards[g, k]] + dmg[g, k]] = True
    light = ~((b.act_level[rows] == 0)[:, None] & w.heavy[w.std][None, :])
    bld = (b.count[rows] > 0)[:, None] & light & (ore[:, None] >= build_cost(b, rows, seat))
    return rep, bld


def repair(b: IABatch, rows: np.ndarray, seat: np.ndarray, label: np.ndarray) -> None:
    """Mend the first ship of ``label`` for its ORE (IA-BLD-01)."""
    st = tables(b)
    card, dmg = st.label_card[label], st.label_dmg[label]
    k = ((b.ship_card[rows, seat] == card[:, None])
         & (b.ship_dmg[rows, seat] == dmg[:, None])).argmax(1)
    b.res[rows, seat, 1] = np.maximum(0, b.res[rows, seat, 1] - repair_cost(b.dev_left[rows], dmg))
    b.ship_dmg[rows, seat, k] = 0
    b.dev_left[rows] += dmg


def build(b: IABatch, rows: np.ndarray, seat: np.ndarray, j: np.ndarray) -> None:
    """Build standard ship ``j`` (its place among the standard ships); at 8 ships one is
    scrapped first (IA-SHIP-07)."""
    w = works(b)
    cost = build_cost(b, rows, seat)[np.arange(rows.size), j]
    b.count[rows] -= 1
    full = (b.ship_card[rows, seat] >= 0).sum(1) >= MAX_SHIPS
    scrap_first(b, rows[full], w.std[j[full]], cost[full], 1, BUILD)
    add_ship(b, rows[~full], seat[~full], w.std[j[~full]], cost[~full], 1)


def scrap(b: IABatch, rows: np.ndarray, seat: np.ndarray, label: np.ndarray) -> None:
    """Discard the first ship of ``label``, then pay for and add the ship waiting (built
    or hired), and ask its decision again."""
    st = tables(b)
    card, dmg = st.label_card[label], st.label_dmg[label]
    k = ((b.ship_card[rows, seat] == card[:, None])
         & (b.ship_dmg[rows, seat] == dmg[:, None])).argmax(1)
    remove_ship(b, rows, seat, k)
    for res in (1, 3):
        m = b.scrap_res[rows] == res
        add_ship(b, rows[m], seat[m], b.scrap_card[rows[m]], b.scrap_cost[rows[m]], res)
    b.kind[rows] = b.scrap_back[rows]


def replace(b: IABatch, rows: np.ndarray, t: np.ndarray) -> None:
    """Discard face-up tech ``t`` and refill (IA-RSCH-05); asked again."""
    slot = (b.tech_slots[rows] == t[:, None]).argmax(1)
    b.tech_slots[rows, slot] = -1
    b.tech_discard.push(rows, t)
    refill_techs(b, rows)


def refill_techs(b: IABatch, rows: np.ndarray) -> None:
    """Every empty tech slot drawn from the Tech deck (IA-RSCH-04)."""
    for i in range(b.tech_slots.shape[1]):
        r = rows[b.tech_slots[rows, i] < 0]
        b.tech_slots[r, i] = b._draw(r, b.tech_deck, b.tech_discard)


def research_cost(b: IABatch, rows: np.ndarray, seat: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``research_cost`` of techs ``t`` [len(rows), k] (IA-RSCH-02: at least 1)."""
    w = works(b)
    cost = w.tech_cost[np.maximum(t, 0)] - eco.bonus(b, rows, seat, "research_discount")[:, None]
    cost -= (b.act_level[rows] == 3)[:, None]
    return np.maximum(1, cost)


def research_options(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool [len(rows), tech slots]: the face-up techs RESEARCH may take (VP cap by
    level, SCIENCE for the cost)."""
    w = works(b)
    t = b.tech_slots[rows]
    cap = np.array(RESEARCH_VP_CAP)[b.act_level[rows]]
    return (t >= 0) & (w.tech_vp[np.maximum(t, 0)] <= cap[:, None]) \
        & (b.res[rows, seat, 2][:, None] >= research_cost(b, rows, seat, t))


def research(b: IABatch, rows: np.ndarray, seat: np.ndarray, t: np.ndarray) -> None:
    """Research face-up tech ``t``: pay, own it (IA-RSCH-03), refill (IA-RSCH-04)."""
    cost = research_cost(b, rows, seat, t[:, None])[:, 0]
    b.res[rows, seat, 2] = np.maximum(0, b.res[rows, seat, 2] - cost)
    slot = (b.tech_slots[rows] == t[:, None]).argmax(1)
    b.tech_slots[rows, slot] = -1
    b.tech_owner[rows, t] = seat
    b.known[rows, seat, t] = True
    refill_techs(b, rows)
    b.dev_left[rows] -= 1
    b.kind[rows] = np.where(b.dev_left[rows] > 0, RESEARCH, NONE)


def works_mask(b: IABatch, mask: np.ndarray, rows: np.ndarray, k: np.ndarray,
               seat: np.ndarray, off: dict[str, int]) -> None:
    """The legal answers to BUILD, scrap, tech replacement and RESEARCH decisions."""
    m = k == BUILD
    if m.any():
        r = rows[m]
        rep, bld = build_options(b, r, seat[m])
        mask[r, off["repair"]:off["repair"] + rep.shape[1]] = rep
        mask[r, off["build"]:off["build"] + bld.shape[1]] = bld
        mask[r, off["done"]] = True
    m = k == SCRAP
    if m.any():
        r, s = rows[m], seat[m]
        st = tables(b)
        cards = b.ship_card[r, s]
        g, j = np.nonzero(cards >= 0)
        mask[r[g], off["scrap"] + st.label_base[cards[g, j]] + b.ship_dmg[r, s][g, j]] = True
    m = k == REPLACE_TECH
    if m.any():
        r = rows[m]
        t = b.tech_slots[r]
        g, j = np.nonzero(t >= 0)
        mask[r[g], off["replace"] + t[g, j]] = True
        mask[r, off["done"]] = True
    m = k == RESEARCH
    if m.any():
        r = rows[m]
        ok = research_options(b, r, seat[m])
        g, j = np.nonzero(ok)
        mask[r[g], off["research"] + b.tech_slots[r][g, j]] = True
        mask[r, off["done"]] = True


def works_apply(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray,
                seat: np.ndarray, off: dict[str, int]) -> None:
    """The answers to BUILD, scrap, tech replacement and RESEARCH decisions."""
    st = tables(b)
    m = (k == BUILD) & (x >= off["repair"]) & (x < off["repair"] + st.n_labels)
    if m.any():
        repair(b, rows[m], seat[m], x[m] - off["repair"])
    n_std = works(b).std.size
    m = (k == BUILD) & (x >= off["build"]) & (x < off["build"] + n_std)
    if m.any():
        build(b, rows[m], seat[m], x[m] - off["build"])
    m = k == SCRAP
    if m.any():
        scrap(b, rows[m], seat[m], x[m] - off["scrap"])
    m = (k == REPLACE_TECH) & (x == off["done"])
    b.kind[rows[m]] = RESEARCH
    m = (k == REPLACE_TECH) & (x != off["done"])
    if m.any():
        replace(b, rows[m], x[m] - off["replace"])
    m = (k == RESEARCH) & (x != off["done"])
    if m.any():
        research(b, rows[m], seat[m], x[m] - off["research"])
    # BUILD's and RESEARCH's "done" end the ACTION (the turn machine's generic handler)
