"""Rift Domination's observation tensor: a flat float32 vector of ``observation(seat)``.

Seats are written relative to the observer (slot 0 is the observer, slot 1 the next seat
in turn order ...), padded to the game's largest player count so the length depends only
on the content and board. Hidden things are left out as the observation leaves them out:
other seats' hands (only their sizes), the deck order, unrevealed tile values, the value
of the tile being placed. Layout, in order (docs/research.md lists the same):

1. 10 phase flags (``PHASES``); observer to act; observer's turn; round; target VP; deck
   size; the drawn tile's condition kind (one flag per condition kind of the tiles).
2. per seat slot (6): present; faction (one flag per faction, none when not chosen);
   resources; income; VP; hand size; one flag per unit type unlocked in its roster;
   home planet (one flag per planet).
3. the observer's hand: copies of each card; the discard pile: copies of each card.
4. per planet (board order): in play; owner (7 flags: none, then seat slots); upgrades
   (copies of each upgrade); tile kind (one flag per kind); tile value when revealed;
   revealed; huge.
5. per point (board order, wormhole ends included) and seat slot: units in space of each
   type; wounds and movement points left of those units (sums).
6. per planet and seat slot: landed units of each type.
7. battle: in battle; ground battle; battle point (one flag per point); attacker and
   defender seat slots (flags); per side (attacker, defender) and combatant kind (unit
   types, upgrades, outpost): living count, LP left, shields left.

``encode`` works from positions fixed per content and board (``tensor_tables``): a canvas
per observer seat holds the vector as last painted and a copy of each part of the state it
was painted from, and only the parts that differ from their copies are redrawn (for units,
planets and seats, only the ones that changed), so stepping a state costs a fraction of
writing every feature. The vector is the same as the first, feature-by-feature encoder's
(tests/games/rift_domination/test_tensor.py keeps it as the reference).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlanes.engine.game import per_content

from .board import Board, board_for

if TYPE_CHECKING:  # pragma: no cover
    from .game import RiftDomination
    from .state import RiftState
    from .tensor_tables import Tables

PHASES = ("setup_faction", "setup_home", "setup_tiles", "turn_start", "build", "move",
          "recruit", "turn_end", "between_turns", "over")


class _Layout:
    """Named offsets of one content's tensor."""

    def __init__(self, game: RiftDomination) -> None:
        c = game.content
        self.board = board_for(game, wormholes=True)
        self.slots = type(game).max_players
        self.units = tuple(sorted(c.units))
        self.upgrades = tuple(sorted(c.upgrades))
        self.cards = tuple(sorted(c.cards))
        self.factions = tuple(sorted(c.factions))
        self.tiles = tuple(sorted({t.kind for t in c.tiles.values()}))
        self.kinds = tuple(sorted({*self.units, *self.upgrades, "outpost"}))
        self.points = self.board.names
        self.planets = self.board.planet_ids
        nu, nup, nt = len(self.units), len(self.upgrades), len(self.tiles)
        self.seat_size = 1 + len(self.factions) + 5 + nu + len(self.planets)
        self.planet_size = 1 + (1 + self.slots) + nup + nt + 3
        sizes = [
            ("head", len(PHASES) + 5 + nt),
            ("seats", self.slots * self.seat_size),
            ("hand", len(self.cards)),
            ("discard", len(self.cards)),
            ("planets", len(self.planets) * self.planet_size),
            ("space", len(self.points) * self.slots * (nu + 2)),
            ("landed", len(self.planets) * self.slots * nu),
            ("battle", 2 + len(self.points) + 2 * self.slots + 2 * len(self.kinds) * 3),
        ]
        self.at: dict[str, int] = {}
        pos = 0
        for name, size in sizes:
            self.at[name] = pos
            pos += size
        self.size = pos
        self.point_index = {n: i for i, n in enumerate(self.points)}
        self.unit_index = {u: i for i, u in enumerate(self.units)}
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.card_index = {k: i for i, k in enumerate(self.cards)}
        self.upgrade_index = {k: i for i, k in enumerate(self.upgrades)}
        self.tile_index = {k: i for i, k in enumerate(self.tiles)}
        self.faction_index = {k: i for i, k in enumerate(self.factions)}
        self.tables: dict[Board, Tables] = {}


def layout(game: RiftDomination) -> _Layout:
    """The layout of ``game``'s content, board and player count (built once, then shared)."""
    return per_content(game, _Layout)


def shape(game: RiftDomination) -> tuple[int]:
    """``(n,)``: the vector's length for this content and board."""
    return (layout(game).size,)


_LAST: list[Any] = [None, None, None]  # game, board, tables of the last encode


def _tables(state: RiftState) -> Tables:
    game, board, t = _LAST
    if state.game is game and state.board is board:
        return t
    lay = layout(state.game)
    t = lay.tables.get(state.board)
    if t is None:
        from .tensor_tables import Tables  # numpy: the ``rl`` extra

        t = lay.tables[state.board] = Tables(lay, state.board)
    _LAST[:] = (state.game, state.board, t)
    return t


def encode(state: RiftState, seat: int) -> Any:
    """The tensor of ``observation(seat)`` (see the module docstring): a new float32 array
    of shape ``shape(state.game)``. Needs numpy.

    Written from the observer's canvas, brought up to date with ``state`` part by part
    (``tensor_tables``): any state of the game may be given, in any order."""
    return _tables(state).encode(state, seat)


def encode_clipped(state: RiftState, seat: int, clip: Any, low: float, high: float) -> Any:
    """:func:`encode` with every value clipped to ``[low, high]``, in one pass: ``clip(x,
    low, high)`` (numpy's ``clip`` ufunc or ``np.clip``) makes the new array from the
    observer's canvas instead of a copy of it (the research adapters call this)."""
    return _tables(state).encode(state, seat, clip, low, high)
