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

from typing import TYPE_CHECKING, Any

from .action_space import slot_cap
from .state import AIM, AP, ATT, CHG, HULL, KIND, OWNER, SEC, SH

if TYPE_CHECKING:  # pragma: no cover
    from .game import GalacticDomination
    from .state import GDState

PHASES = ("setup", "returns", "act", "over")
SHIP_FEATURES = 1 + 16 + 3 + 1 + 3 + 16 + 1


def _sizes(game: GalacticDomination) -> tuple[int, int, int]:
    sectors = len(game.content.board.names)
    kinds = len(game.content.units)
    slots = sum(slot_cap(u.id) for u in game.content.units)
    return sectors, kinds, slots


def shape(game: GalacticDomination) -> tuple[int]:
    """``(n,)``: the length of the flat vector for this content."""
    sectors, kinds, slots = _sizes(game)
    per_ship = 1 + (sectors + 1) + 3 + 1 + 3 + (sectors + 1) + 1
    return (len(PHASES) + 4 + 4 + sectors + 2 * kinds + 2 * slots * per_ship,)


def encode(state: GDState, seat: int) -> Any:
    """The tensor of ``observation(seat)`` (see the module docstring)."""
    import numpy as np

    game = state.game
    sectors, kinds, _ = _sizes(game)
    out = np.zeros(shape(game), dtype=np.float32)
    other = 1 - seat
    v: list[float] = [float(state.phase == p) for p in PHASES]
    v += [float(state.seat == seat), float(state.first == seat),
          float(state.current_player() == seat), state.round / state.turn_limit]
    v += [state.minerals[seat], state.minerals[other], state.dark[seat], state.dark[other]]
    v += [float(h) for h in state.holes[:sectors]]
    v += list(state.to_place[seat][:kinds]) + list(state.to_place[other][:kinds])
    out[:len(v)] = v
    pos = len(v)
    per_ship = 1 + (sectors + 1) + 3 + 1 + 3 + (sectors + 1) + 1
    by_slot: dict[tuple[int, int], list[int]] = {}
    for uid in sorted(state.ships):
        x = state.ships[uid]
        by_slot.setdefault((x[OWNER], x[KIND]), []).append(uid)
    for owner in (seat, other):
        for kind, unit in enumerate(game.content.units):
            mine = by_slot.get((owner, kind), [])
            for rank in range(slot_cap(unit.id)):
                if rank < len(mine):
                    uid = mine[rank]
                    x = state.ships[uid]
                    b = pos
                    out[b] = 1.0
                    out[b + 1 + (x[SEC] if x[SEC] >= 0 else sectors)] = 1.0
                    b += 2 + sectors
                    out[b] = x[SH] / state.max_sh[kind] if state.max_sh[kind] else 0.0
                    out[b + 1] = x[HULL] / state.max_hull[kind]
                    out[b + 2] = x[AP] / state.max_ap[kind]
                    out[b + 3] = float(x[ATT])
                    out[b + 4 + min(max(x[CHG], 0), 2)] = 1.0
                    b += 7
                    out[b + (x[AIM] if x[AIM] >= 0 else sectors)] = 1.0
                    out[b + sectors + 1] = float(state.active == uid)
                pos += per_ship
    return out
