"""Galactic Domination's fixed action space (see :mod:`starlanes.engine.action_space`).

Ship numbers grow over a game, so the space never names them: a ship is written by its
**slot**, its unit type and its rank among its owner's ships of that type in increasing
ship number (``raider0`` is the owner's oldest raider still in play). Ranks run up to the
team limits of Team Size and Limits (5 of each type, 15 miners). An attack's target is a
slot of the opponent's fleet; every other ship argument is a slot of the acting seat's
fleet. Sectors are the board's sector names; unit types the content's unit ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import ActionIndexError
from starlanes.engine.action_space import Family

from . import actions as A
from .fleet import MINER_MAX, TYPE_MAX
from .state import KIND, OWNER

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Action

    from .game import GalacticDomination
    from .state import GDState

_MINER_ID = "miner"


def slot_cap(unit_id: str) -> int:
    """How many ships of one type a seat may have at once (GD-LIM-01..03)."""
    return MINER_MAX if unit_id == _MINER_ID else TYPE_MAX


def slots(game: GalacticDomination) -> tuple[str, ...]:
    """Every ship slot token, by unit type in content order then rank."""
    return tuple(f"{u.id}{r}" for u in game.content.units for r in range(slot_cap(u.id)))


def families(game: GalacticDomination) -> list[Family]:
    """The notation families in index order (Actions; Special Abilities; Deep Space)."""
    units = tuple(u.id for u in game.content.units)
    sectors = game.content.board.names
    ship = slots(game)
    return [
        Family("end"),
        Family("place", (units, sectors)),
        Family("build", (units, sectors)),
        Family("move", (ship, sectors)),
        Family("attack", (ship, ship)),
        Family("attach", (ship,)),
        Family("warp", (ship,)),
        Family("charge", (ship, sectors)),
        Family("fire", (ship,)),
        Family("charge", (ship,)),
        Family("jump", (ship, sectors)),
        Family("arrive", (ship, sectors)),
        Family("sacrifice", (ship,)),
    ]


_SLOTS: list = [None, -1, None, {}]


def slot_map(state: GDState) -> dict[int, str]:
    """Ship number -> slot token for every ship in play (the last state's map is kept
    until the state changes)."""
    if (_SLOTS[0] is state and _SLOTS[1] == len(state.history)
            and _SLOTS[2] is state.ships):
        return _SLOTS[3]
    out: dict[int, str] = {}
    count: dict[tuple[int, int], int] = {}
    units = state.content.units
    for uid in sorted(state.ships):
        x = state.ships[uid]
        k = (x[OWNER], x[KIND])
        rank = count.get(k, 0)
        count[k] = rank + 1
        out[uid] = f"{units[x[KIND]].id}{rank}"
    _SLOTS[:] = [state, len(state.history), state.ships, out]
    return out


def slot_of(state: GDState, uid: int) -> str:
    """The slot token of ship ``uid`` in ``state``. Raises ActionIndexError for a ship
    not in play."""
    token = slot_map(state).get(uid)
    if token is None:
        raise ActionIndexError(f"ship {uid} is not in play")
    return token


def ship_at(state: GDState, owner: int, token: str) -> int:
    """The ship number of ``owner``'s slot ``token``, or -1 when the slot is empty."""
    for kind, u in enumerate(state.content.units):
        if token.startswith(u.id) and token[len(u.id):].isdigit():
            rank = int(token[len(u.id):])
            mine = sorted(uid for uid, x in state.ships.items()
                          if x[OWNER] == owner and x[KIND] == kind)
            return mine[rank] if rank < len(mine) else -1
    return -1


def key(state: GDState | None, action: Action) -> tuple[str, ...]:
    """The canonical key of ``action``: ship numbers replaced by slots. Raises
    ActionIndexError when a ship action is given without its state."""
    if isinstance(action, (A.EndTurn, A.Place, A.Build)):
        return tuple(str(action).split())
    if state is None:
        raise ActionIndexError(f"{action}: numbering a ship action needs the state")
    if isinstance(action, A.Attack):
        return ("attack", slot_of(state, action.ship), slot_of(state, action.target))
    verb, _, rest = str(action).partition(" ")
    args = rest.split()
    return (verb, slot_of(state, int(args[0])), *args[1:])
