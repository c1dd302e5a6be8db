"""The counted and numbered positions of a batch's Interstellar Ambitions tensors, kept up
to date from step to step (the batched environment's ``batched_view.ObsStream``).

A tensor (``tensor.encode``, its layout ``tensor.layout``) is counts at positions (a token
on a track, a known tech, a card in a pile: one each, repeats adding up) and numbers at
positions (resources, medals, pile sizes). The positions are made part by part, one column
per game (``[k, n]``: each part written whole, not strided over the games), compared with
the last call's, and only the changed ones are taken off and added (counts) or cleared and
written (numbers). The parts:

- :func:`_head`: the head and the pending decision (they name seats by their place from
  the observer); made for every game at every call;
- :func:`_seats`: each seat's tokens and numbers; every game, every call;
- :func:`_fleets` and :func:`_claims`: each seat's ships, and its claims on the Ambitions
  (they change in a few games a step);
- :func:`_techs`: each seat's known and owned techs (216 counted positions a game);
- :func:`_piles`: the face-up planets, techs and Mercs, the discard piles, the colonised
  planets and the Ambitions in play (about 200 counted positions a game);
- :func:`_seen`: the cards the observer saw go into each other seat's hand (60 numbers);
- :func:`_planets`: the owned planets (owner's place from the observer, level, kept event).

The last six are made again only in the games whose state arrays they read changed since
the last call (compared with copies kept of them), or whose observer did (``_seen``,
``_planets``).

The seats' own parts (``_seats``, ``_fleets``, ``_claims`` and ``_techs``) are kept in
seat order, not observer order, in a canvas of three seat blocks per game (:func:`_canvas`):
a seat's block changes only when that seat's state does. The tensor shows the blocks from the observer's own on; where the observer is the
last call's, the canvas's changes are made in the tensor too, at their block's place, and
where it changed (a game whose turn passed to another seat, about one in six a step in
random play) the three blocks are copied in, in the new order, and the seen cards written
again. So a change of the observer costs a copy of three blocks, not the moving of every
seat-relative position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from starlanes.engine.batch_changes import ChangeTracker

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
    MODE,
    MORE,
    NONE,
    OPPOSE,
    PLAN,
    PLAYERS,
    RESEARCH,
    STEAL,
    IABatch,
    kind_table,
)

if TYPE_CHECKING:  # pragma: no cover
    from .batched_view import Offsets

LOW, HIGH = -1.0, 1000.0
"""The adapters' clip bounds of this game's tensor (``research.toml``)."""
SLOTS = tensor.SLOTS
ONE = np.float32(1)
"""A count's step, in the canvas's own type (``ufunc.at`` takes its fast loop only then)."""

Made = tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]
"""A part's positions for ``d`` games: counted int16 [k, d], numbers' positions int16
[m, d] and their values float32 [m, d] (None where the part has none)."""


_LEVELLED = kind_table(COLONISE, DEVELOP, BUILD, RESEARCH, MODE, FLEET)
"""The decisions that show the planning level."""
_COUNTED = kind_table(KEEP, HOME_PICK, PLAN, DEV_PAY, BUILD, HIRE, STEAL, DISRUPT, DEF_REPAIR)
"""The decisions that show their count."""


def _rows(x: Any, n: int) -> np.ndarray:
    """``x`` (a number, [n], [..., n] or [..., 1], the same for every game) as rows of n:
    [k, n]."""
    x = np.asarray(x)
    if x.ndim >= 2:
        return np.broadcast_to(x, (*x.shape[:-1], n)).reshape(-1, n)
    return np.broadcast_to(x, (n,))[None, :]


def _join(counted: list[Any], nums: list[tuple[Any, Any]], n: int) -> Made:
    """The pieces of a part joined into :data:`Made` (values clipped to the bounds)."""
    c = (np.concatenate([_rows(x, n) for x in counted], 0, dtype=np.int16, casting="unsafe")
         if counted else None)
    if not nums:
        return c, None, None
    at = np.concatenate([_rows(x, n) for x, _ in nums], 0, dtype=np.int16, casting="unsafe")
    values = np.concatenate([_rows(x, n) for _, x in nums], 0, dtype=np.float32,
                            casting="unsafe")
    np.clip(values, LOW, HIGH, out=values)
    return c, at, values


def _head(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """1. the head and 2. the pending decision, seen from ``v``, in tensor positions; every
    game (``r`` is all)."""
    lay = o.lay
    n = b.n
    rows = np.arange(n)
    trash = np.int16(lay.trash)
    slot_of = (np.arange(PLAYERS)[None, :] - v[:, None]) % PLAYERS  # [n, seat]
    f: list[Any] = []  # counted positions, [n] or [k, n] each
    nums: list[tuple[Any, Any]] = []  # (positions, values), [n] or [m, n] each
    cur = b.current_player()
    p = lay.at["head"]
    f.append(p + np.minimum(b.phase, 2))
    f.append(p + 3 + np.minimum(b.step, 5))
    p += 9
    nums.append((p, b.round))
    nums.append((p + 1, b.round / b.round_limit))
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
    f.append(np.where(own, o.pos16["offer"][b.offer.cards.T], trash))
    sizes = [b.final_left, b.shadow_deck.size, b.tech_deck.size, b.merc_deck.size,
             b.emerg_deck.size, b.colony_deck.size,
             *(d.size for d in b.planet_decks), b.offer.size]
    for k, val in enumerate(sizes):
        nums.append((q + k, val))
    p = lay.at["decision"]
    f.append(np.where(b.kind != NONE, p + o.decision_index[b.kind], lay.trash))
    p += len(tensor.DECISIONS) + 4
    levelled = _LEVELLED[b.kind]
    f.append(np.where(levelled, p - 4 + b.act_level, lay.trash))
    counted = _COUNTED[b.kind]
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
    advanced = np.einsum("gt->g", b.done.view(np.int8))  # tokens advanced (no bool sum)
    nums.append((np.where(b.kind == MORE, p, lay.trash), advanced))
    comp = b.kind == COMP
    nums.append((np.where(comp, p, lay.trash), b.adv))
    nums.append((np.where(comp, p + 1, lay.trash), b.take))
    return _join(f, nums, n)


def _places(vr: np.ndarray) -> np.ndarray:
    """int16 [seat, d]: each seat's place counted from the observers ``vr`` (int [d])."""
    return ((np.arange(PLAYERS)[:, None] - vr[None, :]) % PLAYERS).astype(np.int16)


def _planets(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """5. the owned planets (owner's place, level, kept event) of games ``r``, seen from
    ``v``, in tensor positions."""
    trash = np.int16(o.lay.trash)
    planet = o.pos16["planet"]
    vr = v[r]
    slot16 = _places(vr)
    cards, levels, markers = b.pl_card[r], b.pl_level[r], b.pl_marker[r]
    f: list[Any] = []
    nums: list[tuple[Any, Any]] = []
    for i in range(PLAYERS):
        card = cards[:, i].T
        q0 = planet[np.maximum(card, 0)]
        has = card >= 0
        f.append(np.where(has, q0 + slot16[i], trash))
        nums.append((np.where(has, q0 + SLOTS, trash), levels[:, i].T))
        mk = markers[:, i].T
        f.append(np.where(has & (mk >= 0), q0 + (SLOTS + 4) + mk, trash))
    return _join(f, nums, vr.size)


def _canvas(o: Offsets) -> tuple[np.ndarray, np.int16]:
    """Where each seat's block starts in a game's canvas (int16 [seat]), and the canvas's
    trash position, just past its three blocks."""
    size = o.lay.seat_size
    return np.arange(PLAYERS, dtype=np.int16) * np.int16(size), np.int16(PLAYERS * size)


def _seats(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """3. each seat's presence, tokens and numbers, in canvas positions (seat ``i``'s block
    at ``i * seat_size``); every game (``r`` is all). All three seats at once: each piece
    is made [n, seat, ...] and turned into rows of n."""
    n = b.n
    base, _ = _canvas(o)  # [seat]
    tok = b.tokens  # [n, seat, token]
    f = [base[:, None],  # presence, the same in every game
         (base[:, None] + np.where(tok >= 0, tok + 6, 30)).astype(np.int16).reshape(n, -1).T]
    number = o.numbers[:, 0]  # [10]: resources, hand, medals, stats
    nums = [((base[:, None] + number[:4]).reshape(-1, 1), b.res.reshape(n, -1).T),
            ((base + number[4])[:, None], np.einsum("gsc->sg", b.hands)),  # cards in hand
            ((base[:, None] + number[5:7]).reshape(-1, 1), b.medals.reshape(n, -1).T),
            ((base[:, None] + number[7:10]).reshape(-1, 1), b.stats.reshape(n, -1).T)]
    return _join(f, nums, n)


def _fleets(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """3. each seat's ships (card and damage) in games ``r``, in canvas positions."""
    card = b.ship_card[r]  # [d, seat, place]
    d = card.shape[0]
    base, trash = _canvas(o)
    rel = o.ship_rel[np.maximum(card, 0), np.minimum(b.ship_dmg[r], o.ship_rel.shape[1] - 1)]
    return _join([np.where(card >= 0, base[:, None] + rel, trash).reshape(d, -1).T], [], d)


def _claims(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """3. each seat's claims on the Ambitions in play in games ``r``, in canvas
    positions."""
    claims = b.claims[r]  # [d, ambition, seat]
    d = claims.shape[0]
    base, trash = _canvas(o)
    claims_at = (o.claims0 + b.ambitions[r])[:, :, None] + base  # [d, ambition, seat]
    return _join([], [(np.where(claims > 0, claims_at, trash).reshape(d, -1).T,
                       claims.reshape(d, -1).T)], d)


def _techs(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """3. each seat's known and owned techs in games ``r``, in canvas positions."""
    known = b.known[r]  # [d, seat, T]
    owner = b.tech_owner[r].T  # [T, d]
    base, trash = _canvas(o)
    f = []
    for i in range(PLAYERS):
        k = known[:, i].T
        f.append(np.where(np.stack((k, k & (owner == i))), base[i] + o.tech_at, trash))
    return _join(f, [], known.shape[0])


def _piles(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """5.-9. the face-up planets, techs and Mercs, the discard piles, the colonised planets
    and the Ambitions in play, in games ``r`` (the same from every seat)."""
    p16 = o.pos16
    slots = b.planet_slots[r]
    d = slots.shape[0]
    f = [p16["planet_up"][slots.reshape(d, -1).T],
         p16["planet_gone"][b.planet_discard.cards[r].T],
         np.where(b.colonised[r].T, p16["planet_done"][:-1, None], np.int16(o.lay.trash)),
         p16["event_gone"][b.colony_discard.cards[r].T],
         p16["tech_up"][b.tech_slots[r].T],
         p16["tech_gone"][b.tech_discard.cards[r].T],
         p16["merc_up"][b.merc_slots[r].T],
         p16["merc_gone"][b.merc_discard.cards[r].T],
         p16["emerg_gone"][b.emerg_discard.cards[r].T],
         p16["ambition"][b.ambitions[r].T]]
    return _join(f, [], d)


def _seen(b: IABatch, v: np.ndarray, o: Offsets, r: Any) -> Made:
    """3. the cards the observer saw go into each other seat's hand, in games ``r``, in
    tensor positions."""
    vr = v[r]
    rows = np.arange(b.n)[r]
    seen_all = b.seen[rows, vr].transpose(1, 2, 0) * (vr != np.arange(PLAYERS)[:, None, None])
    slot = _places(vr)
    bases = np.int16(o.lay.at["seats"]) + slot * np.int16(o.lay.seat_size)
    trash = np.int16(o.lay.trash)
    nums = []
    for i in range(PLAYERS):
        seen = seen_all[i]  # [cards, d]
        nums.append((np.where(seen > 0, bases[i] + o.seen_at, trash), seen))
    return _join([], nums, vr.size)


class _Part:
    """A part: ``make(b, v, o, rows)``; in canvas positions or the tensor's; made for every
    game (``inputs`` None) or only where ``inputs(b)`` (or, when ``observed``, the observer)
    changed. ``redrawn``: its positions lie in the seats' blocks, which a change of
    observer copies in anew, so its kept columns are forgotten there (else its old
    positions are taken off as any change's)."""

    def __init__(self, make: Callable[[IABatch, np.ndarray, Offsets, Any], Made],
                 canvas: bool,
                 inputs: Callable[[IABatch], tuple[np.ndarray, ...]] | None = None,
                 observed: bool = False, redrawn: bool = False) -> None:
        self.make = make
        self.canvas = canvas
        self.inputs = inputs
        self.observed = observed
        self.redrawn = redrawn


PARTS = (
    _Part(_head, canvas=False),
    _Part(_seats, canvas=True),
    _Part(_fleets, canvas=True, inputs=lambda b: (b.ship_card, b.ship_dmg)),
    _Part(_claims, canvas=True, inputs=lambda b: (b.claims, b.ambitions)),
    _Part(_techs, canvas=True, inputs=lambda b: (b.known, b.tech_owner)),
    _Part(_piles, canvas=False, inputs=lambda b: (
        b.planet_slots, b.planet_discard.cards, b.colonised, b.colony_discard.cards,
        b.tech_slots, b.tech_discard.cards, b.merc_slots, b.merc_discard.cards,
        b.emerg_discard.cards, b.ambitions)),
    _Part(_seen, canvas=False, inputs=lambda b: (b.seen,), observed=True, redrawn=True),
    _Part(_planets, canvas=False, inputs=lambda b: (b.pl_card, b.pl_level, b.pl_marker),
          observed=True),
)
"""The parts (see the module docstring)."""


class _Changes:
    """What changed in one target (the tensors or the canvas): counted positions taken
    off and added, numbers' positions cleared and written; (positions, games[, values])."""

    def __init__(self) -> None:
        self.taken: list[tuple[np.ndarray, np.ndarray]] = []
        self.added: list[tuple[np.ndarray, np.ndarray]] = []
        self.cleared: list[tuple[np.ndarray, np.ndarray]] = []
        self.written: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []


class _Kept:
    """One part's last positions, one column per game."""

    def __init__(self) -> None:
        self.counted: np.ndarray | None = None
        self.at: np.ndarray | None = None
        self.values: np.ndarray | None = None

    def forget(self, rows: np.ndarray, trash: int) -> None:
        """The part is no longer shown in games ``rows`` (their tensors were redrawn): the
        next :meth:`diff` writes all of it there."""
        if self.counted is not None:
            self.counted[:, rows] = trash
        if self.at is not None and self.values is not None:
            self.at[:, rows] = trash
            self.values[:, rows] = 0

    def diff(self, made: Made, r: np.ndarray | None, n: int, trash: int,
             out: _Changes) -> None:
        """Compare ``made`` (games ``r``; None: every game) with the kept columns, add what
        changed to ``out`` and keep ``made``."""
        counted, at, values = made
        if counted is not None:
            if self.counted is None:
                self.counted = np.full((counted.shape[0], n), trash, np.int16)
            prev = self.counted if r is None else self.counted[:, r]
            ch = np.flatnonzero(prev != counted)
            if ch.size:
                rows = _games(ch, counted.shape[1], r)
                out.taken.append((prev.reshape(-1)[ch], rows))
                out.added.append((counted.reshape(-1)[ch], rows))
            if r is None:
                self.counted = counted
            else:
                self.counted[:, r] = counted
        if at is not None and values is not None:
            if self.at is None or self.values is None:
                self.at = np.full((at.shape[0], n), trash, np.int16)
                self.values = np.zeros((at.shape[0], n), np.float32)
            prev_at = self.at if r is None else self.at[:, r]
            prev_values = self.values if r is None else self.values[:, r]
            ch = np.flatnonzero((prev_at != at) | (prev_values != values))
            if ch.size:
                rows = _games(ch, at.shape[1], r)
                out.cleared.append((prev_at.reshape(-1)[ch], rows))
                out.written.append((at.reshape(-1)[ch], rows, values.reshape(-1)[ch]))
            if r is None:
                self.at, self.values = at, values
            else:
                self.at[:, r] = at
                self.values[:, r] = values


def _games(ch: np.ndarray, d: int, r: np.ndarray | None) -> np.ndarray:
    """The games of flat indices ``ch`` into a [k, d] array of games ``r``."""
    col = ch % d
    return col if r is None else r[col]


def _cat(parts: list[tuple[np.ndarray, ...]], i: int) -> np.ndarray:
    return np.concatenate([p[i] for p in parts])


def _apply(flat: np.ndarray, ch: _Changes, place: Callable[[np.ndarray, np.ndarray],
                                                           np.ndarray]) -> None:
    """Make the changes ``ch`` in ``flat`` (games' arrays end to end, a dump last), each
    (positions, games) placed by ``place``."""
    if ch.taken:
        np.subtract.at(flat, place(_cat(ch.taken, 0), _cat(ch.taken, 1)), ONE)
        np.add.at(flat, place(_cat(ch.added, 0), _cat(ch.added, 1)), ONE)
    if ch.cleared:
        flat[place(_cat(ch.cleared, 0), _cat(ch.cleared, 1))] = 0
        flat[place(_cat(ch.written, 0), _cat(ch.written, 1))] = _cat(ch.written, 2)


class PositionStream:
    """The counted and numbered positions of a batch's tensors (see the module docstring),
    written into ``flat``: float32 [n * N + 1], the tensors end to end and a dump."""

    def __init__(self, b: IABatch, o: Offsets, flat: np.ndarray) -> None:
        lay = o.lay
        self._flat = flat
        self._size = lay.size
        self._block = lay.seat_size
        self._seats_at = lay.at["seats"]
        width = PLAYERS * lay.seat_size
        self._canvas_flat = np.zeros(b.n * width + 1, np.float32)
        self._canvas = self._canvas_flat[:-1].reshape(b.n, PLAYERS, lay.seat_size)
        self._kept = [_Kept() for _ in PARTS]
        self._changes = [ChangeTracker() if p.inputs else None for p in PARTS]
        self._v = np.full(b.n, -1, np.int64)

    def update(self, b: IABatch, v: np.ndarray, o: Offsets) -> None:
        """The positions brought to ``b`` seen from ``v`` (int64 [n], 0..2)."""
        n = b.n
        size, block = self._size, self._block
        width = PLAYERS * block
        moved = np.flatnonzero(v != self._v)  # games whose observer changed
        to_tensor, to_canvas = _Changes(), _Changes()
        for part, kept, changes in zip(PARTS, self._kept, self._changes, strict=True):
            if part.redrawn and moved.size:
                kept.forget(moved, size)
            r: np.ndarray | None = None
            if changes is not None and part.inputs is not None:
                r = changes.changed(part.inputs(b))  # None at the first call: every game
                if r is not None:
                    if part.observed and moved.size:  # the union, ascending (no sort)
                        either = np.zeros(n, np.bool_)
                        either[r] = True
                        either[moved] = True
                        r = np.flatnonzero(either)
                    if not r.size:
                        continue
            made = part.make(b, v, o, slice(None) if r is None else r)
            kept.diff(made, r, n, width if part.canvas else size,
                      to_canvas if part.canvas else to_tensor)
        canvas_dump = self._canvas_flat.size - 1
        _apply(self._canvas_flat, to_canvas,
               lambda pos, row: np.where(pos == width, canvas_dump, row * width + pos))
        # the canvas's changes in the tensors whose observer stayed, at their block's place
        stay = np.ones(n, np.bool_)
        stay[moved] = False
        dump = self._flat.size - 1
        seats_at = self._seats_at

        def in_tensor(pos: np.ndarray, row: np.ndarray) -> np.ndarray:
            pos = pos.astype(np.int64)
            seat, rel = np.divmod(pos, block)
            slot = (seat - v[row]) % PLAYERS
            return np.where((pos == width) | ~stay[row], dump,
                            row * size + seats_at + slot * block + rel)

        _apply(self._flat, to_canvas, in_tensor)
        if moved.size:  # the blocks in the new observer's order
            order = (v[moved, None] + np.arange(PLAYERS)) % PLAYERS
            tensors = self._flat[:-1].reshape(n, size)
            tensors[moved, seats_at:seats_at + width] = \
                self._canvas[moved[:, None], order].reshape(moved.size, width)
        _apply(self._flat, to_tensor,
               lambda pos, row: np.where(pos == size, dump, row * size + pos.astype(np.int64)))
        self._flat[-1] = 0
        self._canvas_flat[-1] = 0
        self._v = v.copy()
