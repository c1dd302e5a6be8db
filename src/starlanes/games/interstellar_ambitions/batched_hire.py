"""The SHADOW ACTION and MERC upkeep over an :class:`~.batched.IABatch` (the
reference's ``fleetworks`` and ``economy``): Buy Cards from a private offer (IA-SHA-01..04,
ruling IA-OPEN-15), Hire Mercs with the ULTIMATE replacement of face-up Mercs
(IA-SHA-05/06), and each MERC's upkeep after PRODUCE (IA-PROD-06/07).
"""

from __future__ import annotations

import numpy as np

from . import batched_economy as eco
from .batched import (
    BUY,
    HIRE,
    MAX_SHIPS,
    MODE,
    NONE,
    REPLACE_MERC,
    SCRAP,
    UPKEEP,
    IABatch,
)
from .batched_shadow import remove_ship

BUY_LIMIT = (2, 3, 4, 5)
HIRE_LIMIT = (0, 1, 2, 3)
"""Cards offered and MERCs hired by planning level (IA-SHA-*)."""


class HireTables:
    """The action space's MERC and upkeep numbering and the content's MERC figures."""

    def __init__(self, b: IABatch) -> None:
        c = b.content
        ns = len(c.ship_ids)
        mercs = sorted(set(c.merc_cards))
        self.merc_arg = np.full(ns + 1, -1, np.int64)
        self.merc_arg[mercs] = np.arange(len(mercs))
        self.merc_of = np.array(mercs, np.int64)
        up = [i for i in range(ns) if c.ship_upkeep[i] > 0]
        self.upkeep_arg = np.full(ns + 1, -1, np.int64)
        self.upkeep_arg[up] = np.arange(len(up))
        self.upkeep = np.append(np.array(c.ship_upkeep, np.int64), 0)
        self.cost = np.array(c.ship_cost, np.int64)
        self.replace_base = b.n_techs
        """``replace`` numbers techs first, then MERCs (the same family)."""


def hire_tables(b: IABatch) -> HireTables:
    """The :class:`HireTables` of ``b`` (made once, kept on it)."""
    got = getattr(b, "hire_tables", None)
    if got is None:
        got = b.hire_tables = HireTables(b)  # type: ignore[attr-defined]
    return got


def start_upkeep(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> None:
    """After PRODUCE, each MERC's upkeep, the last MERC in the fleet first (so removals
    never move the ones still to come): ``upkeep`` holds the fleet places, ``count`` how
    many are left (IA-PROD-06)."""
    h = hire_tables(b)
    merc = h.upkeep[b.ship_card[rows, seat]] > 0
    b.count2[rows] = merc.sum(1)
    b.kind[rows[merc.any(1)]] = UPKEEP


def _upkeep_place(b: IABatch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The fleet place of the MERC whose upkeep is asked now (the ``count2``-th MERC)."""
    h = hire_tables(b)
    merc = h.upkeep[b.ship_card[rows, seat]] > 0
    rank = np.cumsum(merc, 1)
    return (merc & (rank == b.count2[rows][:, None])).argmax(1)


def start(b: IABatch, rows: np.ndarray, level: np.ndarray) -> None:
    """The SHADOW ACTION at ``level``: Buy Cards, Hire Mercs (above BASIC) or nothing."""
    b.act_level[rows] = level
    b.kind[rows] = MODE


def mask(b: IABatch, out: np.ndarray, rows: np.ndarray, k: np.ndarray, seat: np.ndarray,
         off: dict[str, int]) -> None:
    """The legal answers to the SHADOW ACTION's decisions and to upkeep."""
    h = hire_tables(b)
    m = k == MODE
    r = rows[m]
    out[r, off["buy-cards"]] = True
    out[r, off["pass"]] = True
    out[r[np.array(HIRE_LIMIT)[b.act_level[r]] > 0], off["hire-mercs"]] = True
    m = k == BUY
    if m.any():
        r, s = rows[m], seat[m]
        can = (b.res[r, s, 3] >= 1) & (b.offer.size[r] > 0)
        full = b.hands[r, s].sum(1) >= eco.HAND_LIMIT
        nc = b.n_cards
        out[r, off["discard"]:off["discard"] + nc] = (can & full)[:, None] & (b.hands[r, s] > 0)
        offered = (b.offer.cards[r][..., None] == np.arange(nc)).any(1)
        out[r, off["buy"]:off["buy"] + nc] = (can & ~full)[:, None] & offered
        out[r, off["done"]] = True
    m = k == REPLACE_MERC
    if m.any():
        r = rows[m]
        slots = b.merc_slots[r]
        g, j = np.nonzero(slots >= 0)
        out[r[g], off["replace"] + h.replace_base + h.merc_arg[slots[g, j]]] = True
        out[r, off["done"]] = True
    m = k == HIRE
    if m.any():
        r, s = rows[m], seat[m]
        slots = b.merc_slots[r]
        ok = (slots >= 0) & (b.res[r, s, 3][:, None] >= h.cost[np.maximum(slots, 0)]) \
            & (b.count[r] > 0)[:, None]
        g, j = np.nonzero(ok)
        out[r[g], off["hire"] + h.merc_arg[slots[g, j]]] = True
        out[r, off["done"]] = True
    m = k == UPKEEP
    if m.any():
        r, s = rows[m], seat[m]
        card = b.ship_card[r, s, _upkeep_place(b, r, s)]
        at = off["upkeep"] + 2 * h.upkeep_arg[card]
        out[r, at] = b.res[r, s, 3] >= h.upkeep[card]
        out[r, at + 1] = True


def apply(b: IABatch, rows: np.ndarray, k: np.ndarray, x: np.ndarray, seat: np.ndarray,
          off: dict[str, int]) -> None:
    """The answers to the SHADOW ACTION's decisions and to upkeep."""
    h = hire_tables(b)
    m = (k == MODE) & (x == off["buy-cards"])
    if m.any():  # a private offer of as many cards as the buy limit (ruling IA-OPEN-15)
        r = rows[m]
        b.offer.fill(r, [])
        for i in range(max(BUY_LIMIT)):
            go = r[np.array(BUY_LIMIT)[b.act_level[r]] > i]
            card = b._draw(go, b.shadow_deck, b.shadow_discard)
            b.offer.push(go[card >= 0], card[card >= 0])
        b.kind[r] = BUY
    m = (k == MODE) & (x == off["hire-mercs"])
    if m.any():
        r = rows[m]
        b.count[r] = np.array(HIRE_LIMIT)[b.act_level[r]]
        b.kind[r] = np.where(b.act_level[r] == 3, REPLACE_MERC, HIRE)
    m = (k == BUY) & (x == off["done"])
    if m.any():  # the cards not bought go face up to the discard (IA-SHA-02)
        r = rows[m]
        for i in range(b.offer.cards.shape[1]):
            c = b.offer.cards[r, i]
            b.shadow_discard.push(r[c >= 0], c[c >= 0])
        b.offer.fill(r, [])
    m = (k == BUY) & (x >= off["discard"]) & (x < off["discard"] + b.n_cards)
    if m.any():  # at 7 cards, one is discarded first (IA-SHA-04)
        r, s, c = rows[m], seat[m], x[m] - off["discard"]
        b.hand_discard(r, s, c)
    m = (k == BUY) & (x >= off["buy"]) & (x < off["buy"] + b.n_cards)
    if m.any():  # IA-SHA-03: 1 COIN each
        r, s, c = rows[m], seat[m], x[m] - off["buy"]
        at = (b.offer.cards[r] == c[:, None]).argmax(1)
        _take_at(b, r, at)
        b.res[r, s, 3] -= 1
        b.hand_add(r, s, c)
        b.kind[r[b.offer.size[r] == 0]] = NONE
    m = (k == REPLACE_MERC) & (x == off["done"])
    b.kind[rows[m]] = HIRE
    m = (k == REPLACE_MERC) & (x != off["done"])
    if m.any():
        r = rows[m]
        merc = h.merc_of[x[m] - off["replace"] - h.replace_base]
        slot = (b.merc_slots[r] == merc[:, None]).argmax(1)
        b.merc_slots[r, slot] = -1
        b.merc_discard.push(r, merc)
        refill_mercs(b, r)
    m = (k == HIRE) & (x == off["done"])
    if m.any():
        refill_mercs(b, rows[m])  # IA-SHA-06
    m = (k == HIRE) & (x != off["done"])
    if m.any():
        r, s = rows[m], seat[m]
        merc = h.merc_of[x[m] - off["hire"]]
        slot = (b.merc_slots[r] == merc[:, None]).argmax(1)
        b.merc_slots[r, slot] = -1
        b.count[r] = np.maximum(0, b.count[r] - 1)
        cost = h.cost[merc]
        full = (b.ship_card[r, s] >= 0).sum(1) >= MAX_SHIPS
        scrap_first(b, r[full], merc[full], cost[full], 3, HIRE)
        add_ship(b, r[~full], s[~full], merc[~full], cost[~full], 3)
    m = k == UPKEEP
    if m.any():
        r, s = rows[m], seat[m]
        place = _upkeep_place(b, r, s)
        card = b.ship_card[r, s, place]
        pay = (x[m] - off["upkeep"]) % 2 == 0
        b.res[r[pay], s[pay], 3] = np.maximum(0, b.res[r[pay], s[pay], 3] - h.upkeep[card[pay]])
        remove_ship(b, r[~pay], s[~pay], place[~pay])  # IA-PROD-07
        b.count2[r] -= 1
        b.kind[r] = np.where(b.count2[r] > 0, UPKEEP, NONE)


def _take_at(b: IABatch, rows: np.ndarray, at: np.ndarray) -> None:
    """Remove the offer's card at ``at``, the later ones moving up (``list.remove``)."""
    cards = b.offer.cards[rows]
    width = cards.shape[1]
    nxt = np.minimum(np.arange(width) + 1, width - 1)
    after = np.arange(width)[None, :] >= at[:, None]
    moved = np.where(after, cards[:, nxt], cards)
    moved[:, -1] = -1
    b.offer.cards[rows] = moved
    b.offer.size[rows] -= 1


def refill_mercs(b: IABatch, rows: np.ndarray) -> None:
    """Every empty Merc slot drawn from the Merc deck (IA-SHA-06)."""
    for i in range(b.merc_slots.shape[1]):
        r = rows[b.merc_slots[rows, i] < 0]
        b.merc_slots[r, i] = b._draw(r, b.merc_deck, b.merc_discard)


def add_ship(b: IABatch, rows: np.ndarray, seat: np.ndarray, card: np.ndarray,
             cost: np.ndarray, res: int) -> None:
    """Pay ``cost`` of resource ``res`` and add ``card`` at the end of the fleet."""
    b.res[rows, seat, res] = np.maximum(0, b.res[rows, seat, res] - cost)
    k = (b.ship_card[rows, seat] >= 0).sum(1)
    b.ship_card[rows, seat, k] = card
    b.ship_dmg[rows, seat, k] = 0


def scrap_first(b: IABatch, rows: np.ndarray, card: np.ndarray, cost: np.ndarray, res: int,
                back: int) -> None:
    """At 8 ships a ship is discarded first (IA-SHIP-07): the scrap decision, then
    ``card`` is paid for and added and decision ``back`` is asked again."""
    b.kind[rows] = SCRAP
    b.scrap_card[rows] = card
    b.scrap_cost[rows] = cost
    b.scrap_res[rows] = res
    b.scrap_back[rows] = back
