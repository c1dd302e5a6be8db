"""Legal masks, actions and observation tensors of an :class:`~.batched.IABatch` (the
whole game): masks and indices in the numbering of the game's fixed action space
(``action_space``), tensors exactly ``tensor.encode(state, seat)`` of the reference state
clipped to the research adapters' bounds (-1 and 1000, ``research.toml``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from starlanes.engine.batch_changes import ChangeTracker

from . import tensor
from .batched import (
    COMP,
    KEEP,
    KIND_NAMES,
    NONE,
    PLACE,
    SETUP,
    START_TECH,
    TURN,
    IABatch,
)
from .batched_combat import encode as combat_section
from .batched_positions import HIGH, LOW, PositionStream
from .batched_turn import apply_turn, turn_mask


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
                                   "merc_gone", "emerg_gone", "ambition", "offer")}
        """The layout's position tables as int16 (the tensor's positions are under 2**15)."""
        self.decision_index = np.array([lay.decision_index.get(k, 0) for k in KIND_NAMES],
                                       np.int16)
        """Decision kind -> its place in the tensor's decision part."""
        seat0, seats_at = lay.seat[0], lay.at["seats"]
        t = np.arange(b.n_techs)
        self.tech_at = np.array([seat0["known"][0] - seats_at + t,
                                 seat0["owned"][0] - seats_at + t], np.int16)[:, :, None]
        """int16 [2, T, 1]: a seat's known and owned techs, relative to its part."""
        self.numbers = np.array(seat0["numbers"], np.int16)[:, None] - np.int16(seats_at)
        """int16 [10, 1]: a seat's numbers (resources, hand, medals, stats), relative."""
        self.seen_at = (np.int16(seat0["seen"][0] - seats_at)
                        + np.arange(b.n_cards, dtype=np.int16)[:, None])
        """int16 [cards, 1]: the cards the observer saw go into a seat's hand, relative."""
        self.claims0 = np.int16(seat0["claims"] - seats_at)
        """A seat's first claim, relative (plus the Ambition's card)."""


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
    (about 530 a game) and the numbers are kept up to date by a
    :class:`~.batched_positions.PositionStream` (only the changed ones taken off and added,
    or zeroed and written anew, clipped to the bounds; the seats' parts kept in seat order
    and copied in where the observer changed); the fight under way (section 10, only in
    rows that are or were in a fight, clipped) is drawn again, the observer's hand and the
    Shadow discard pile's counts only in the games where they changed. The parts'
    positions are disjoint (the layout gives each feature its own) and the counts and piles stay inside the bounds (no place counts 1,000 things), which
    ``tests/interop/test_batched_ia.py`` checks against fresh tensors along random
    games."""

    def __init__(self, b: IABatch) -> None:
        lay = offsets(b).lay
        self._flat = np.zeros(b.n * lay.size + 1, np.float32)
        self.tensors = self._flat[:-1].reshape(b.n, lay.size)
        """float32 [n, N]: the last update's tensors (overwritten by the next)."""
        self._positions = PositionStream(b, offsets(b), self._flat)
        self._fighting = np.zeros(b.n, np.bool_)  # rows whose section 10 is drawn
        self._discards = ChangeTracker()  # the Shadow discard piles last drawn
        self._hand = ChangeTracker()  # the observers' hands last drawn

    def update(self, b: IABatch, seats: Any) -> np.ndarray:
        """:attr:`tensors` brought to ``b`` seen from ``seats`` (int [n], 0..2)."""
        o = offsets(b)
        lay = o.lay
        v = np.asarray(seats, np.int64)
        self._positions.update(b, v, o)
        flat = self._flat
        n = b.n
        tensors = self.tensors
        rows = np.arange(n)
        nc = b.n_cards
        # 4. own hand and 8. the Shadow discard: copies per card
        at = lay.at["hand"]
        hand = b.hands[rows, v]
        redo = self._hand.changed((hand,))  # written again where the shown hand changed
        if redo is None:
            tensors[:, at:at + nc] = hand
        else:
            tensors[redo, at:at + nc] = hand[redo]
        cards = b.shadow_discard.cards
        at = lay.at["discards"]
        redo = self._discards.changed((cards,))  # where the pile changed (a few a step)
        if redo is None:
            redo = rows
        if redo.size:
            k = redo.size
            tensors[redo, at:at + nc] = np.bincount(
                (np.arange(k)[:, None] * (nc + 1) + cards[redo] % (nc + 1)).ravel(),
                minlength=k * (nc + 1)).reshape(k, nc + 1)[:, :nc]  # -1 (empty) lands last
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


