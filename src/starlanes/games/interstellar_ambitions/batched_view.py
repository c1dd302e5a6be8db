"""Legal masks, actions and observation tensors of an :class:`~.batched.IABatch` (the
whole game): masks and indices in the numbering of the game's fixed action space
(``action_space``), tensors exactly ``tensor.encode(state, seat)`` of the reference state
clipped to the research adapters' bounds (-1 and 1000, ``research.toml``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import tensor
from .batched import (
    BOOST,
    BUILD,
    COLONISE,
    COMP,
    DEF_REPAIR,
    DEV_PAY,
    DEVELOP,
    DISRUPT,
    FLEET,
    HIRE,
    HOME_PICK,
    KEEP,
    KIND_NAMES,
    MODE,
    MORE,
    NONE,
    OPPOSE,
    PLACE,
    PLAN,
    PLAYERS,
    RESEARCH,
    SETUP,
    START_TECH,
    STEAL,
    TURN,
    IABatch,
)
from .batched_combat import encode as combat_section
from .batched_turn import apply_turn, turn_mask

LOW, HIGH = -1.0, 1000.0
"""The adapters' clip bounds of this game's tensor (``research.toml``)."""
SLOTS = tensor.SLOTS


class Offsets:
    """The action space's family offsets and the tensor's layout for one batch."""

    def __init__(self, b: IABatch) -> None:
        space = b.game.action_space()
        self.size = space.size
        self.off: dict[str, int] = {}
        for verb, arity in (("discard", 1), ("start-tech", 1), ("place", 1), ("take", 1),
                            ("advance", 1), ("produce", 0), ("pass", 0), ("done", 0),
                            ("plan", 0), ("exchange", 2), ("home", 1), ("claim", 1),
                            ("clear", 1), ("colonise", 1), ("develop", 2), ("pay", 1),
                            ("boost", 1), ("oppose", 1), ("repair", 1), ("build", 1),
                            ("scrap", 1), ("replace", 1), ("research", 1),
                            ("buy-cards", 0), ("hire-mercs", 0), ("buy", 1), ("hire", 1),
                            ("upkeep", 2), ("give", 2), ("discard-planet", 1), ("raid", 1),
                            ("invade", 1), ("order", 1), ("fire", 1), ("steal", 1),
                            ("spoil", 1), ("spoil-tech", 1), ("spoil-bombard", 1),
                            ("capture", 1), ("rescue", 1), ("disrupt", 1)):
            found = space.family(verb, arity)
            if found is None:  # pragma: no cover - the families are fixed
                raise ValueError(f"no {verb!r} family in the action space")
            self.off[verb] = found[0]
        c = b.content
        stacked = [p for p in range(b.n_planets) if c.planet_type[p] != 4]
        self.off["stacked"] = len(stacked)
        self.off["stacked_ids"] = np.array(stacked, np.int64)  # type: ignore[assignment]
        arg = np.zeros(b.n_planets, np.int64)
        arg[stacked] = np.arange(len(stacked))
        self.off["stacked_arg"] = arg  # type: ignore[assignment]
        self.off["develop_levels"] = max(c.planet_max) - 1
        rel = np.zeros((len(c.ship_ids), max(c.ship_combat) + 1), np.int16)
        for (card, dmg), at in self_ships(b).items():
            rel[card, dmg] = at
        self.ship_rel = rel
        """Position of a ship label (card, damage) in a seat slot's part, relative
        (int16, as the tensor's positions)."""
        movable = [c for c in range(24) if c & 3 != 3]
        self.movable_code = np.array(movable, np.int64)
        """``advance`` argument -> track code."""
        self.movable_arg = np.full(24, -1, np.int64)
        self.movable_arg[movable] = np.arange(len(movable))
        self.lay = tensor.layout(b.game)
        lay = self.lay
        self.pos16 = {name: np.array(getattr(lay, name), np.int16)
                      for name in ("planet", "planet_up", "planet_gone", "planet_done",
                                   "event_gone", "tech_up", "tech_gone", "merc_up",
                                   "merc_gone", "emerg_gone", "ambition")}
        """The layout's position tables as int16 (the tensor's positions are under 2**15)."""


def self_ships(b: IABatch) -> dict[tuple[int, int], int]:
    """Ship label (card, damage) -> its count's position relative to a seat slot's part."""
    lay = tensor.layout(b.game)
    return {k: v - lay.at["seats"] for k, v in lay.seat[0]["ships"].items()}


def offsets(b: IABatch) -> Offsets:
    """The :class:`Offsets` of ``b`` (made once, kept on it)."""
    got = getattr(b, "offsets", None)
    if got is None:
        got = b.offsets = Offsets(b)  # type: ignore[attr-defined]
    return got


def legal_mask(b: IABatch, out: np.ndarray | None = None) -> np.ndarray:
    """bool [n, A]: the legal actions of every game (all False once it is over): a card of
    the hand to discard (IA-SET-14), an unclaimed starting tech (IA-SET-15), any of the
    six tracks (IA-SET-17), a token to advance else a resource to take (IA-SET-19/20).
    No exchange is offered during the set-up (IA-RES-02); the turn's decisions are
    ``batched_turn.turn_mask``'s. Written into ``out`` when given (bool, C-contiguous,
    that shape)."""
    o = offsets(b)
    n = b.n
    if out is None:
        mask = np.zeros((n, o.size), np.bool_)
    else:
        mask = out
        mask.fill(False)
    seat = b.dec_seat
    r = np.flatnonzero(b.kind == KEEP)
    at = o.off["discard"]
    mask[r, at:at + b.n_cards] = b.hands[r, seat[r]] > 0
    r = np.flatnonzero(b.kind == START_TECH)
    at = o.off["start-tech"]
    mask[r, at:at + b.start_techs.size] = b.tech_owner[r][:, b.start_techs] < 0
    at = o.off["place"]
    mask[b.kind == PLACE, at:at + 6] = True
    r = np.flatnonzero(b.kind == COMP)
    if r.size:
        mov = b.movable(r) & (b.adv[r] > 0)[:, None]
        tok = b.tokens[r, seat[r]]
        cols = o.off["advance"] + o.movable_arg[np.maximum(tok, 0)]
        rr = np.repeat(r[:, None], 6, 1)
        mask[rr[mov], cols[mov]] = True
        takes = ~mov.any(1)
        at = o.off["take"] + 24
        mask[r[takes], at:at + 4] = True
    turn_mask(b, mask, o)
    return mask


def apply(b: IABatch, a: np.ndarray) -> None:
    """Apply one legal action index per game (int64 [n]); games over are skipped."""
    o = offsets(b)
    kinds = np.where((b.phase == SETUP) | (b.phase == TURN), b.kind, NONE)  # before any handler moves a game on
    for kind, verb in ((KEEP, "discard"), (START_TECH, "start-tech"), (PLACE, "place")):
        r = np.flatnonzero(kinds == kind)
        if r.size:
            arg = a[r] - o.off[verb]
            (b.discard if kind == KEEP else b.start_tech if kind == START_TECH
             else b.place)(r, arg)
    r = np.flatnonzero(kinds == COMP)
    if r.size:
        adv = (a[r] >= o.off["advance"]) & (a[r] < o.off["advance"] + 18)
        if adv.any():
            b.advance(r[adv], o.movable_code[a[r[adv]] - o.off["advance"]])
        take = ~adv
        if take.any():
            b.take_res(r[take], a[r[take]] - o.off["take"] - 24)
    apply_turn(b, a, kinds, o)


def observation(b: IABatch, seats: Any) -> np.ndarray:
    """float32 [n, N]: each game's tensor seen from ``seats`` (int [n], 0..2), clipped to
    the adapters' bounds, made from nothing (a new :class:`ObsStream`'s first update). The
    layout is ``tensor``'s (its module docstring); section 10, the fight under way, is
    ``batched_combat.encode``'s."""
    return ObsStream(b).update(b, seats)  # the stream's own array, not kept


class ObsStream:
    """The tensors of one batch kept up to date from step to step (the batched
    environment's): equal to :func:`observation` at every :meth:`update`, at a fraction of
    its cost, because only what changed since the last update is written.

    :attr:`tensors` (float32 [n, N]) holds the last update's tensors; the layout's
    ``trash`` position of every game is one value after them. The counted positions
    (about 530 a game) are compared with the last update's and only the changed ones are
    taken off and added; the numbers are zeroed where the last update wrote them and
    written anew (clipped to the bounds); the hand, the Shadow discard pile and the fight
    under way (section 10, only in rows that are or were in a fight, clipped) are drawn
    again. The parts' positions are disjoint (the layout gives each feature its own) and
    the counts and piles stay inside the bounds (no place counts 1,000 things), which
    ``tests/interop/test_batched_ia.py`` checks against fresh tensors along random
    games."""

    def __init__(self, b: IABatch) -> None:
        lay = offsets(b).lay
        self.size = lay.size
        self._flat = np.zeros(b.n * lay.size + 1, np.float32)
        self.tensors = self._flat[:-1].reshape(b.n, lay.size)
        """float32 [n, N]: the last update's tensors (overwritten by the next)."""
        self._counted: np.ndarray | None = None  # int16 [n, k]: the last counted positions
        self._numbered: tuple[np.ndarray, np.ndarray] = (np.empty(0, np.int16),
                                                         np.empty(0, np.float32))
        self._fighting = np.zeros(b.n, np.bool_)  # rows whose section 10 is drawn

    def update(self, b: IABatch, seats: Any) -> np.ndarray:
        """:attr:`tensors` brought to ``b`` seen from ``seats`` (int [n], 0..2)."""
        o = offsets(b)
        lay = o.lay
        v = np.asarray(seats, np.int64)
        counted, num_at, values = _positions(b, v, o)
        flat = self._flat
        size = self.size
        dump = flat.size - 1
        old_at, old_values = self._numbered
        if self._counted is None:  # the first update: everything counted and written
            every = _place(counted, np.arange(b.n)[:, None], size, dump)
            flat[:] = np.bincount(every.ravel(), minlength=flat.size)
            changed = np.arange(num_at.size)
        else:
            old = self._counted
            moved = np.flatnonzero(old != counted)
            if moved.size:
                row = moved // counted.shape[1]
                np.subtract.at(flat, _place(old.reshape(-1)[moved], row, size, dump), ONE)
                np.add.at(flat, _place(counted.reshape(-1)[moved], row, size, dump), ONE)
            changed = np.flatnonzero((old_at != num_at) | (old_values != values))
        if changed.size:
            row = changed // num_at.shape[1]
            if old_at.size:
                flat[_place(old_at.reshape(-1)[changed], row, size, dump)] = 0
            flat[_place(num_at.reshape(-1)[changed], row, size, dump)] = values.reshape(-1)[changed]
        self._counted = counted
        self._numbered = (num_at, values)
        tensors = self.tensors
        n = b.n
        rows = np.arange(n)
        nc = b.n_cards
        # 4. own hand and 8. the Shadow discard: copies per card
        at = lay.at["hand"]
        tensors[:, at:at + nc] = b.hands[rows, v]
        cards = b.shadow_discard.cards
        at = lay.at["discards"]
        tensors[:, at:at + nc] = np.bincount(
            (rows[:, None] * (nc + 1) + cards % (nc + 1)).ravel(),  # -1 (empty) lands last
            minlength=n * (nc + 1)).reshape(n, nc + 1)[:, :nc]
        # 10. the fight under way
        fighting = b.cb_stage >= 0
        at = lay.at["combat"]
        redraw = np.flatnonzero(fighting | self._fighting)
        if redraw.size:
            tensors[redraw, at:] = 0
        self._fighting = fighting
        combat_section(b, tensors, v, lay)
        drawn = np.flatnonzero(fighting)
        if drawn.size:
            tensors[drawn, at:] = np.clip(tensors[drawn, at:], LOW, HIGH)
        flat[-1] = 0
        return tensors


ONE = np.float32(1)
"""A count's step, in the canvas's own type (``ufunc.at`` takes its fast loop only then)."""


def _place(pos: np.ndarray, row: np.ndarray, size: int, dump: int) -> np.ndarray:
    """Positions ``pos`` (layout's, int [j], or [n, k] with ``row`` [n, 1]) of games
    ``row`` in the games' tensors end to end, ``trash`` (``size``) sent to ``dump``:
    int64, ``pos``'s shape."""
    pos = pos.astype(np.int64)
    return np.where(pos == size, dump, row * size + pos)


def _positions(b: IABatch, v: np.ndarray, o: Offsets) -> tuple[np.ndarray, np.ndarray,
                                                                 np.ndarray]:
    """What the tensor of each game seen from ``v`` counts and numbers, as positions in
    its tensor (the layout's, ``trash`` included): the counted positions int16 [n, k] (one
    each, repeats adding up), the numbers' positions int16 [n, m] and their values
    float32 [n, m], clipped to the bounds."""
    lay = o.lay
    n = b.n
    rows = np.arange(n)
    slot_of = (np.arange(PLAYERS)[None, :] - v[:, None]) % PLAYERS  # [n, seat]
    f: list[np.ndarray] = []  # counted positions, [n] or [n, k] each
    nums: list[tuple[np.ndarray, np.ndarray]] = []  # (positions, values)
    cur = b.current_player()
    # 1. head
    p = lay.at["head"]
    f.append(p + np.minimum(b.phase, 2))
    f.append(p + 3 + np.minimum(b.step, 5))
    p += 9
    nums.append((np.full(n, p), b.round))
    nums.append((np.full(n, p + 1), b.round / b.round_limit))
    f.append(np.where(cur == v, p + 2, lay.trash))
    f.append(p + 3 + slot_of[rows, b.seat])
    f.append(p + 3 + SLOTS + slot_of[rows, b.start])
    f.append(np.where(cur >= 0, p + 3 + 2 * SLOTS + slot_of[rows, np.maximum(cur, 0)],
                      lay.trash))
    p += 3 + 3 * SLOTS
    trig = b.end_trigger >= 0
    f.append(np.where(trig, p, lay.trash))
    f.append(np.where(trig, p + 1 + slot_of[rows, np.maximum(b.end_trigger, 0)], lay.trash))
    q = p + 1 + SLOTS
    own = (b.offer.size > 0) & (b.kind != NONE) & (b.dec_seat == v)  # the buyer's offer
    f.append(np.where(own[:, None], np.array(lay.offer)[b.offer.cards], lay.trash))
    sizes = [b.final_left, b.shadow_deck.size, b.tech_deck.size, b.merc_deck.size,
             b.emerg_deck.size, b.colony_deck.size,
             *(d.size for d in b.planet_decks), b.offer.size]
    for k, val in enumerate(sizes):
        nums.append((np.full(n, q + k), val))
    # 2. pending decision
    p = lay.at["decision"]
    index = np.array([lay.decision_index.get(k, 0) for k in KIND_NAMES], np.int64)
    f.append(np.where(b.kind != NONE, p + index[b.kind], lay.trash))
    p += len(tensor.DECISIONS) + 4
    levelled = np.isin(b.kind, (COLONISE, DEVELOP, BUILD, RESEARCH, MODE, FLEET))
    f.append(np.where(levelled, p - 4 + b.act_level, lay.trash))
    counted = np.isin(b.kind, (KEEP, HOME_PICK, PLAN, DEV_PAY, BUILD, HIRE, STEAL, DISRUPT,
                               DEF_REPAIR))
    nums.append((np.where(counted, p, lay.trash), b.count))
    nums.append((np.where((b.kind == DEVELOP) | (b.kind == RESEARCH), p, lay.trash),
                 b.dev_left))
    nums.append((np.where(b.kind == BUILD, p + 1, lay.trash), b.dev_left))
    check = (b.kind == BOOST) | (b.kind == OPPOSE)  # the Shadow Check under way
    q = p + 2
    f.append(np.where(check, q + b.sh_card, lay.trash))
    q += b.n_cards
    f.append(np.where(check, q + slot_of[rows, b.sh_target], lay.trash))
    f.append(np.where(check, q + SLOTS + slot_of[rows, b.sh_player], lay.trash))
    q += 2 * SLOTS
    for k, val in enumerate((b.sh_mod, b.sh_boosts, b.sh_opposes)):
        nums.append((np.where(check, q + k, lay.trash), val))
    nums.append((np.where(b.kind == MORE, p, lay.trash), b.done.sum(1)))
    comp = b.kind == COMP
    nums.append((np.where(comp, p, lay.trash), b.adv))
    nums.append((np.where(comp, p + 1, lay.trash), b.take))
    # 3. seats
    seen_by = b.seen[rows, v] * (v[:, None] != np.arange(PLAYERS))[:, :, None]  # [n, seat, card]
    p16 = o.pos16
    slot16 = slot_of.astype(np.int16)
    t = np.arange(b.n_techs, dtype=np.int16)
    numbers = np.array(lay.seat[0]["numbers"]) - lay.at["seats"]  # relative to a seat part
    seen_at = (lay.seat[0]["seen"][0] - lay.at["seats"]) + np.arange(b.n_cards)
    claims_at = (lay.seat[0]["claims"] - lay.at["seats"]) + b.ambitions
    for i in range(PLAYERS):
        base = lay.at["seats"] + slot16[:, i] * lay.seat_size  # int16 [n]
        f.append(base)
        tok = b.tokens[:, i]
        f.append(base[:, None] + 6 + np.where(tok >= 0, tok, 24))
        known = b.known[:, i]
        f.append(np.where(known, base[:, None] + 36 + t, lay.trash))
        owned = known & (b.tech_owner == i)
        f.append(np.where(owned, base[:, None] + 36 + b.n_techs + t, lay.trash))
        card = b.ship_card[:, i]
        rel = o.ship_rel[np.maximum(card, 0),
                         np.minimum(b.ship_dmg[:, i], o.ship_rel.shape[1] - 1)]
        f.append(np.where(card >= 0, base[:, None] + rel, lay.trash))
        vals = [*(b.res[:, i, r] for r in range(4)), b.hands[:, i].sum(1),
                b.medals[:, i, 0], b.medals[:, i, 1], *(b.stats[:, i, j] for j in range(3))]
        for k, val in enumerate(vals):
            nums.append((base + numbers[k], val))
        seen = base[:, None] + seen_at
        known = seen_by[:, i]  # the cards the observer saw go in
        nums.append((np.where(known > 0, seen, lay.trash), known))
        claims = base[:, None] + claims_at
        pos = b.claims[:, :, i]
        nums.append((np.where(pos > 0, claims, lay.trash), pos))
    # 5. planets: owner slot, level and kept event of the owned ones; face up,
    # discarded, colonised
    planet = p16["planet"]
    for i in range(PLAYERS):
        card = b.pl_card[:, i]
        q0 = planet[np.maximum(card, 0)]
        has = card >= 0
        f.append(np.where(has, q0 + slot16[:, i, None], lay.trash))
        nums.append((np.where(has, q0 + SLOTS, lay.trash), b.pl_level[:, i]))
        mk = b.pl_marker[:, i]
        f.append(np.where(has & (mk >= 0), q0 + SLOTS + 4 + mk, lay.trash))
    f.append(p16["planet_up"][b.planet_slots.reshape(n, -1)])
    f.append(p16["planet_gone"][b.planet_discard.cards])
    f.append(np.where(b.colonised, p16["planet_done"][:-1], lay.trash))
    f.append(p16["event_gone"][b.colony_discard.cards])
    # 6. techs, 7. Merc slots, 9. Ambitions
    f.append(p16["tech_up"][b.tech_slots])
    f.append(p16["tech_gone"][b.tech_discard.cards])
    f.append(p16["merc_up"][b.merc_slots])
    f.append(p16["merc_gone"][b.merc_discard.cards])
    f.append(p16["emerg_gone"][b.emerg_discard.cards])
    f.append(p16["ambition"][b.ambitions])
    counted = np.concatenate([x.reshape(n, -1) for x in f], 1, dtype=np.int16,
                             casting="unsafe")
    at = np.concatenate([p_.reshape(n, -1) for p_, _ in nums], 1, dtype=np.int16,
                        casting="unsafe")
    values = np.concatenate([np.asarray(val).reshape(n, -1) for _, val in nums], 1,
                            dtype=np.float32, casting="unsafe")
    np.clip(values, LOW, HIGH, out=values)
    return counted, at, values
