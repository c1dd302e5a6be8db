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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import board_for

if TYPE_CHECKING:  # pragma: no cover
    from .game import RiftDomination
    from .state import RiftState

PHASES = ("setup_faction", "setup_home", "setup_tiles", "turn_start", "build", "move",
          "recruit", "turn_end", "between_turns", "over")


class _Layout:
    """Named offsets of one content's tensor."""

    def __init__(self, game: RiftDomination) -> None:
        c = game.content
        self.board = board_for(c, game.players, wormholes=True)
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


_LAYOUTS: dict[tuple[str, int], _Layout] = {}


def layout(game: RiftDomination) -> _Layout:
    k = (game.content.fingerprint or str(id(game.content)), game.players)
    lay = _LAYOUTS.get(k)
    if lay is None:
        lay = _LAYOUTS[k] = _Layout(game)
    return lay


def shape(game: RiftDomination) -> tuple[int]:
    """``(n,)``: the vector's length for this content and board."""
    return (layout(game).size,)


def encode(state: RiftState, seat: int) -> Any:
    """The tensor of ``observation(seat)`` (see the module docstring)."""
    import numpy as np

    lay = layout(state.game)
    out = np.zeros(lay.size, dtype=np.float32)
    n = state.n
    slot = [(s - seat) % n for s in range(n)]
    b = state.board
    # 1. head
    p = lay.at["head"]
    if state.phase in PHASES:
        out[p + PHASES.index(state.phase)] = 1
    p += len(PHASES)
    out[p] = float(state.current_player() == seat)
    out[p + 1] = float(state.seat == seat)
    out[p + 2] = state.round
    out[p + 3] = state.target_vp
    out[p + 4] = len(state.deck)
    if state.tile_in_hand:
        out[p + 5 + lay.tile_index[state.tile_in_hand[0]]] = 1
    # 2. seats
    planet_index = {name: i for i, name in enumerate(lay.planets)}
    for s in range(n):
        q = lay.at["seats"] + slot[s] * lay.seat_size
        out[q] = 1
        q += 1
        if state.faction[s]:
            out[q + lay.faction_index[state.faction[s]]] = 1
        q += len(lay.factions)
        out[q:q + 4] = (state.resources[s], state.income[s], state.vp[s], len(state.hands[s]))
        q += 5
        for u in state.roster[s]:
            out[q + lay.unit_index[u]] = 1
        q += len(lay.units)
        if state.home[s] >= 0:
            out[q + planet_index[b.planet_ids[state.home[s]]]] = 1
    # 3. own hand, discard pile
    for cid in state.hands[seat]:
        out[lay.at["hand"] + lay.card_index[cid]] += 1
    for cid in state.discard:
        out[lay.at["discard"] + lay.card_index[cid]] += 1
    # 4. planets
    in_play = set(b.in_play_planets)
    nup = len(lay.upgrades)
    for pi, pid in enumerate(b.planet_ids):
        q = lay.at["planets"] + planet_index[pid] * lay.planet_size
        if pi not in in_play:
            continue
        out[q] = 1
        owner = state.planet_owner[pi]
        out[q + 1 + (0 if owner < 0 else 1 + slot[owner])] = 1
        q += 2 + lay.slots
        for u in state.planet_upgrades[pi]:
            out[q + lay.upgrade_index[u]] += 1
        q += nup
        if state.tile_kind[pi]:
            out[q + lay.tile_index[state.tile_kind[pi]]] = 1
        q += len(lay.tiles)
        if state.tile_revealed[pi]:
            out[q] = state.tile_value[pi]
            out[q + 1] = 1
        out[q + 2] = float(b.planet_huge[pi])
    # 5-6. units
    nu = len(lay.units)
    for u in state.units.values():
        k = lay.unit_index[u.kind]
        if u.landed and b.planet_of[u.loc] >= 0:
            pl = planet_index[b.planet_ids[b.planet_of[u.loc]]]
            out[lay.at["landed"] + (pl * lay.slots + slot[u.owner]) * nu + k] += 1
            continue
        q = lay.at["space"] + (lay.point_index[b.names[u.loc]] * lay.slots
                               + slot[u.owner]) * (nu + 2)
        out[q + k] += 1
        out[q + nu] += u.wounds
        out[q + nu + 1] += u.mp
    # 7. battle
    bt = state.battle
    if bt is not None:
        q = lay.at["battle"]
        out[q] = 1
        out[q + 1] = float(bool(bt.ground))
        out[q + 2 + lay.point_index[b.names[bt.point]]] = 1
        q += 2 + len(lay.points)
        out[q + slot[bt.seats[0]]] = 1
        out[q + lay.slots + slot[bt.seats[1]]] = 1
        q += 2 * lay.slots
        for f in bt.fighters.values():
            if not f.alive or f.kind not in lay.kind_index:
                continue
            r = q + (f.side * len(lay.kinds) + lay.kind_index[f.kind]) * 3
            out[r] += 1
            out[r + 1] += f.lp
            out[r + 2] += f.sh
    return out
