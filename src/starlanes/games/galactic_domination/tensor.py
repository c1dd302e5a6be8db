"""Galactic Domination's observation tensor: a flat float32 vector, seen from one seat.

Galactic Domination hides nothing (ruling GD-OPEN-05), so the tensor encodes the whole
public position; it is written from the observing seat's side ("own" then "opponent").
Layout, in order (docs/research.md lists the same):

1. 4 phase flags (setup, returns, act, over); own turn; own seat is player 1; observing
   seat must choose now; round / turn limit.
2. own and opponent minerals and dark matter (raw counts), 4 values.
3. 15 black hole flags, one per sector in board order.
4. own then opponent starting ships still to place, one count per unit type.
5. for each fleet (own, opponent) and each ship slot (see ``action_space``: unit type,
   then rank by ship number): present; 16 location flags (15 sectors, deep space);
   shields, hull and AP as fractions of the type's maximum; attached; 3 charge flags
   (none, charging, charged); 16 aim flags (15 sectors, none); is the ship acting now.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import TYPE_CHECKING, Any

from starlanes.engine.tensor_rows import float32_row

from .action_space import SlotLayout, slot_cap, slot_layout
from .state import AIM, AP, ATT, CHG, HULL, KIND, SEC, SH

if TYPE_CHECKING:  # pragma: no cover
    from .content import GDContent
    from .game import GalacticDomination
    from .state import GDState, Ship

PHASES = ("setup", "returns", "act", "over")
SHIP_FEATURES = 1 + 16 + 3 + 1 + 3 + 16 + 1
_PHASE_FLAGS = {p: tuple(float(p == q) for q in PHASES) for p in PHASES}
_NO_PHASE = (0.0,) * len(PHASES)


def _sizes(game: GalacticDomination) -> tuple[int, int, int]:
    sectors = len(game.content.board.names)
    kinds = len(game.content.units)
    slots = sum(slot_cap(u.id) for u in game.content.units)
    return sectors, kinds, slots


def shape(game: GalacticDomination) -> tuple[int]:
    """``(n,)``: the length of the flat vector for this content."""
    sectors, kinds, slots = _sizes(game)
    return (len(PHASES) + 4 + 4 + sectors + 2 * kinds + 2 * slots * (2 * sectors + 11),)


class _Blocks:
    """The sizes of one content's tensor and the ship blocks met so far: a ship's block
    (all its features but "acting now") depends only on its tuple, so each distinct tuple
    is encoded once into a row of ``rows`` and copied from there afterwards. Row 0 stays
    all zeros: the block of an empty slot."""

    __slots__ = ("content", "sectors", "kinds", "slots", "per_ship", "head", "size",
                 "max_sh", "max_hull", "max_ap", "index", "rows", "by_uid", "epoch")

    CAP = 1 << 16
    """Rows kept; past it the store starts again empty (at the start of an encode)."""

    def __init__(self, state: GDState) -> None:
        import numpy as np

        content = state.content
        self.content: GDContent = content
        self.sectors = len(content.board.names)
        self.kinds = len(content.units)
        self.slots = sum(slot_cap(u.id) for u in content.units)
        self.per_ship = 2 * self.sectors + 11
        self.head = len(PHASES) + 4 + 4 + self.sectors + 2 * self.kinds
        self.size = self.head + 2 * self.slots * self.per_ship
        self.max_sh, self.max_hull, self.max_ap = state.max_sh, state.max_hull, state.max_ap
        self.index: dict[Ship, int] = {}
        self.rows = np.zeros((256, self.per_ship), dtype=np.float32)
        #: ship number -> (the ship tuple last met with that number, its row)
        self.by_uid: dict[int, tuple[Ship, int]] = {}
        #: how many times the store started again (a kept row number is of one epoch)
        self.epoch = 0

    def add(self, x: Ship) -> int:
        """The row of ship tuple ``x``, encoding it now."""
        import numpy as np

        got = self.index.get(x)  # met earlier in the same encode
        if got is not None:
            return got
        i = len(self.index) + 1
        if i == len(self.rows):
            grown = np.zeros((2 * i, self.per_ship), dtype=np.float32)
            grown[:i] = self.rows
            self.rows = grown
        sectors, kind = self.sectors, x[KIND]
        row = [0.0] * self.per_ship
        row[0] = 1.0
        row[1 + (x[SEC] if x[SEC] >= 0 else sectors)] = 1.0
        b = 2 + sectors
        row[b] = x[SH] / self.max_sh[kind] if self.max_sh[kind] else 0.0
        row[b + 1] = x[HULL] / self.max_hull[kind]
        row[b + 2] = x[AP] / self.max_ap[kind]
        row[b + 3] = float(x[ATT])
        row[b + 4 + min(max(x[CHG], 0), 2)] = 1.0
        row[b + 7 + (x[AIM] if x[AIM] >= 0 else sectors)] = 1.0
        self.rows[i] = row
        self.index[x] = i
        return i


_BLOCKS: dict[tuple, _Blocks] = {}
_LAST: list[_Blocks | None] = [None]


def _blocks(state: GDState) -> _Blocks:
    """The block store of ``state``'s content (one per board and unit statistics)."""
    last = _LAST[0]
    if last is not None and last.content is state.content:
        return last
    content = state.content
    ident = (content.board.names, tuple(u.id for u in content.units), state.max_sh,
             state.max_hull, state.max_ap)
    got = _BLOCKS.get(ident)
    if got is None:
        if len(_BLOCKS) >= 16:
            _BLOCKS.pop(next(iter(_BLOCKS)))
        got = _BLOCKS[ident] = _Blocks(state)
    got.content = content
    _LAST[0] = got
    return got


def encode(state: GDState, seat: int) -> Any:
    """The tensor of ``observation(seat)`` (see the module docstring): a new float32 array
    of shape :func:`shape`.

    Ship blocks come from the store of precomputed rows (see ``_Blocks``), gathered into
    the output in one ``take``; the slot positions come from the action space's slot
    layout of this state version, kept per observing seat. Which row each slot takes is
    kept per observing seat too (see ``_Slots``): while the same ships are in play (the
    layout's ship order is the same list), only the ships whose tuple is no longer the
    same object are looked up again."""
    import numpy as np

    blocks = _blocks(state)
    if len(blocks.index) >= blocks.CAP:
        blocks.index.clear()
        blocks.by_uid.clear()
        blocks.epoch += 1
    layout = slot_layout(state)
    ships = state.ships
    order = layout.order
    xs = list(map(ships.__getitem__, order))
    kept = _SLOTS.get(seat)
    if (kept is not None and kept.order is order and kept.blocks is blocks
            and kept.epoch == blocks.epoch):
        changed = list(compress(range(len(xs)), map(is_not, xs, kept.xs)))
        if changed:
            pos, slot_rows, add = kept.pos, kept.rows, blocks.add
            for k in changed:
                slot_rows[pos[k]] = add(xs[k])
            kept.xs = xs
    else:
        kept = _SLOTS[seat] = _Slots(blocks, order, xs, _positions(layout, seat, blocks))
    out = np.empty(blocks.size, dtype=np.float32)
    other = 1 - seat
    sectors, kinds = blocks.sectors, blocks.kinds
    minerals, dark, to_place = state.minerals, state.dark, state.to_place
    head = (  # numbers and bools, made float32 by numpy (True is 1.0)
        *_PHASE_FLAGS.get(state.phase, _NO_PHASE), state.seat == seat,
        state.first == seat, state.current_player() == seat, state.round / state.turn_limit,
        minerals[seat], minerals[other], dark[seat], dark[other], *state.holes[:sectors],
        *to_place[seat][:kinds], *to_place[other][:kinds])
    out[:blocks.head] = float32_row(head)  # the same few heads come back: converted once
    body = out[blocks.head:].reshape(2 * blocks.slots, blocks.per_ship)
    blocks.rows.take(kept.rows, axis=0, out=body, mode="clip")  # in range: no buffer
    if xs and state.active >= 0:
        try:
            k = order.index(state.active)
        except ValueError:  # the acting ship is gone or has no slot
            return out
        body[kept.pos[k], blocks.per_ship - 1] = 1.0
    return out


def _positions(layout: SlotLayout, seat: int, blocks: _Blocks) -> Any:
    """Per ship of ``layout.order``, its slot's row in the body seen from ``seat``
    (kept in the layout per seat)."""
    import numpy as np

    pos = layout.positions.get(seat)
    if pos is None:
        n = blocks.slots
        pos = layout.positions[seat] = np.array(
            [s if o == seat else s + n for o, s in zip(layout.owner, layout.slot,
                                                       strict=True)], dtype=np.intp)
    return pos


class _Slots:
    """One observing seat's last encode: the blocks store and its epoch, the layout's ship
    order (a list object the action space keeps while the same ships are in play), the
    ship tuples met then, their slots' rows in the body (``pos``) and the store row of
    every slot (``rows``, row 0 for an empty one)."""

    __slots__ = ("blocks", "epoch", "order", "xs", "pos", "rows")

    def __init__(self, blocks: _Blocks, order: list[int], xs: list[Ship], pos: Any) -> None:
        import numpy as np

        self.blocks, self.epoch, self.order, self.xs, self.pos = (
            blocks, blocks.epoch, order, xs, pos)
        self.rows = np.zeros(2 * blocks.slots, dtype=np.intp)
        if xs:
            by_uid, add = blocks.by_uid, blocks.add
            rows = []
            for uid, x in zip(order, xs, strict=True):  # a ship's row by its number
                got = by_uid.get(uid)  # while its tuple is the same
                if got is None or got[0] is not x:
                    got = by_uid[uid] = (x, add(x))
                rows.append(got[1])
            self.rows[pos] = np.fromiter(rows, dtype=np.intp, count=len(rows))


_SLOTS: dict[int, _Slots] = {}
"""Per observing seat, its last encode's slot rows (see ``_Slots``)."""

