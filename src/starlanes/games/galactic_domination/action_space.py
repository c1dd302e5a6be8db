"""Galactic Domination's fixed action space (see :mod:`starlanes.engine.action_space`).

Ship numbers grow over a game, so the space never names them: a ship is written by its
**slot**, its unit type and its rank among its owner's ships of that type in increasing
ship number (``raider0`` is the owner's oldest raider still in play). Ranks run up to the
team limits of Team Size and Limits (5 of each type, 15 miners). An attack's target is a
slot of the opponent's fleet; every other ship argument is a slot of the acting seat's
fleet. Sectors are the board's sector names; unit types the content's unit ids.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

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


class SlotLayout:
    """Where every ship of one state version sits in the slot numbering (read only).

    ``tokens`` maps each ship number in play to its slot token; ``order`` lists the ship
    numbers whose rank is within the team limits, by increasing number, with ``owner`` and
    ``slot`` (the slot's position in its owner's fleet: unit types in content order, then
    rank) aligned with it. A ship of rank past its type's cap (never met in play: the
    team limits forbid it) has a token but no slot; the action space refuses its actions.
    ``positions`` is filled by the tensor module (per observing seat, the order's slot
    positions). ``state``, ``legal`` (its legal list, or a fresh object when it had none)
    and ``length`` (of its history) name the state version it is for.
    """

    __slots__ = ("state", "legal", "length", "uids", "tokens", "order", "owner", "slot",
                 "positions")

    def __init__(self, state: GDState | None, legal: object, length: int, uids: set[int],
                 tokens: dict[int, str], order: list[int], owner: list[int],
                 slot: list[int], positions: dict[int, Any]) -> None:
        self.state, self.legal, self.length, self.uids = state, legal, length, uids
        self.tokens, self.order, self.owner, self.slot = tokens, order, owner, slot
        self.positions = positions


_LAYOUT = SlotLayout(None, None, -1, set(), {}, [], [], [], {})
"""The last state version's layout. A layout is never changed once made, so a reader that
took it sees one version throughout."""
_TOKENS: dict[tuple[str, ...], tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]] = {}
"""Per unit id tuple: each type's slot tokens by rank, and each type's first slot."""


def _tokens(units: tuple) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]:
    ids = tuple(u.id for u in units)
    got = _TOKENS.get(ids)
    if got is None:
        first, n = [], 0
        for uid in ids:
            first.append(n)
            n += slot_cap(uid)
        toks = tuple(tuple(f"{uid}{r}" for r in range(slot_cap(uid))) for uid in ids)
        got = _TOKENS[ids] = (toks, tuple(first))
    return got


def slot_layout(state: GDState) -> SlotLayout:
    """The :class:`SlotLayout` of ``state`` as it is now.

    The last one is kept: it serves every call until the state changes (another state,
    an apply, a new legal list). When the same state object comes back with the same ship
    numbers in play, the ranks are kept without re-sorting: a ship's owner and type never
    change and ship numbers are never reused within a game."""
    global _LAYOUT
    c = _LAYOUT
    legal = state._legal
    if c.state is state and c.legal is legal and c.length == len(state.history):
        return c
    ships = state.ships
    if legal is None:  # no legal list to tell this version by: never matched again
        legal = object()
    if c.state is state and ships.keys() == c.uids:
        c = SlotLayout(state, legal, len(state.history), c.uids, c.tokens, c.order,
                       c.owner, c.slot, c.positions)
    else:
        toks, first = _tokens(state.content.units)
        tokens: dict[int, str] = {}
        order: list[int] = []
        owners: list[int] = []
        slot: list[int] = []
        count = [0] * (2 * len(toks))
        units = state.content.units
        for uid in sorted(ships):
            x = ships[uid]
            owner, kind = x[OWNER], x[KIND]
            i = 2 * kind + owner
            rank = count[i]
            count[i] = rank + 1
            names = toks[kind]
            if rank < len(names):
                tokens[uid] = names[rank]
                order.append(uid)
                owners.append(owner)
                slot.append(first[kind] + rank)
            else:
                tokens[uid] = f"{units[kind].id}{rank}"
        c = SlotLayout(state, legal, len(state.history), set(ships), tokens, order, owners,
                       slot, {})
    _LAYOUT = c
    return c


def slot_map(state: GDState) -> dict[int, str]:
    """Ship number -> slot token for every ship in play (see :func:`slot_layout`)."""
    return slot_layout(state).tokens


def slot_of(state: GDState, uid: int) -> str:
    """The slot token of ship ``uid`` in ``state``. Raises ActionIndexError for a ship
    not in play."""
    token = slot_layout(state).tokens.get(uid)
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


_STATIC = (A.EndTurn, A.Place, A.Build)
_ATTACK = A.Attack
_SHIP_ACTIONS = (A.Move, A.Attach, A.Warp, A.ChargeShot, A.Fire, A.ChargeJump, A.Jump,
                 A.Arrive, A.Sacrifice)
_PARSED: dict[int, list] = {}
"""id(action) -> its entry ``[action, static key or None, ship, attack target or -1, verb
and other tokens, keys by slot token(s), (tokens map, key) of the last answer]``.
The entry holds the action, so that id is not reused while the entry lives."""
_PARSED_CAP = 200_000
_NO_LAST = (None, None)


def _parse(action: Action) -> list:
    """The parsed entry of ``action`` (see ``_PARSED``); ActionIndexError for an action
    that is not one of Galactic Domination's."""
    if isinstance(action, _STATIC):
        entry = [action, tuple(str(action).split()), -1, -1, (), {}, _NO_LAST]
    elif isinstance(action, _ATTACK):
        entry = [action, None, action.ship, action.target, ("attack",), {}, _NO_LAST]
    elif isinstance(action, _SHIP_ACTIONS):
        verb, *args = str(action).split()
        entry = [action, None, action.ship, -1, (verb, *args[1:]), {}, _NO_LAST]
    else:
        raise ActionIndexError(f"{action!r} is not a Galactic Domination action")
    if len(_PARSED) < _PARSED_CAP:
        _PARSED[id(action)] = entry
    return entry


def key(state: GDState | None, action: Action) -> tuple[str, ...]:
    """The canonical key of ``action``: ship numbers replaced by slots. Raises
    ActionIndexError when a ship action is given without its state, names a ship not in
    play, or is not a Galactic Domination action.

    The mask calls it once per legal action, so it is kept short: each action is parsed
    once, the slot layout is computed once per state version (and its tokens map kept
    while the same ships are in play), and an action's key at given slots is built once
    and then returned as the same tuple object."""
    entry = _PARSED.get(id(action))
    if entry is None:
        entry = _parse(action)
    if entry[1] is not None:
        return entry[1]
    if state is None:
        raise ActionIndexError(f"{action}: numbering a ship action needs the state")
    c = _LAYOUT
    if c.state is not state or c.legal is not state._legal or c.length != len(state.history):
        c = slot_layout(state)
    tokens = c.tokens
    last = entry[6]
    if last[0] is tokens:
        return last[1]
    ship = tokens.get(entry[2])
    if ship is None:
        raise ActionIndexError(f"ship {entry[2]} is not in play")
    if entry[3] < 0:
        slots: tuple[str, ...] = (ship,)
    else:
        target = tokens.get(entry[3])
        if target is None:
            raise ActionIndexError(f"ship {entry[3]} is not in play")
        slots = (ship, target)
    keys = entry[5]
    k = keys.get(slots)
    if k is None:
        rest = entry[4]
        k = keys[slots] = (rest[0], *slots, *rest[1:])
    entry[6] = (tokens, k)
    return k


class _IndexTable:
    """Action index by ``id(action)`` for one space and one slot tokens map (a tokens map
    is never changed once made, so an index found under it holds while it lives).
    ``alive`` holds every action numbered, so no id is reused while the table lives."""

    __slots__ = ("space", "tokens", "index", "alive", "slot")

    def __init__(self, space: Any, layout: SlotLayout | None) -> None:
        self.space = space
        self.tokens = layout.tokens if layout is not None else None
        self.index: dict[int, int] = {}
        self.alive: list[Action] = []
        #: ship number -> its slot's number in the ``ship`` domains (see ``slots``)
        self.slot = (dict(zip(layout.order, layout.slot, strict=True))
                     if layout is not None else {})


_TABLE = _IndexTable(None, None)
"""The last space and tokens map's table."""
_TABLE_CAP = 100_000


_SHAPES: list[Any] = [None, {}]
"""The space the shapes are of, and ``id(action)`` -> the action's index shape in it
``(ship, base, radix, target, action)``: its index is ``base`` + the ship's slot number *
``radix`` (+ the target's slot number for an attack); ``ship`` -1 for an action whose index
needs no ship (``base`` is the index), -2 for one :func:`key` must number (or refuse). The
shape holds the action, so that id is not reused while it lives."""
_SHAPES_CAP = 200_000


def _shape_of(action: Action, space: Any) -> tuple:
    """The index shape of ``action`` in ``space`` (see ``_SHAPES``), computed and kept."""
    shapes = _SHAPES[1]
    if _SHAPES[0] is not space or len(shapes) >= _SHAPES_CAP:
        shapes = _SHAPES[1] = {}
        _SHAPES[0] = space
    entry = _PARSED.get(id(action))
    if entry is None:
        entry = _parse(action)
    shape: tuple = (-2, 0, 0, -1, action)
    if entry[1] is not None:  # no ship: the key is the same in every state
        with suppress(ActionIndexError):  # outside the space: key() refuses it
            shape = (-1, space.index(entry[1]), 0, -1, action)
    else:
        rest = entry[4]
        nargs = len(rest) + 1 if entry[3] >= 0 else len(rest)
        found = space.family(rest[0], nargs)
        if found is not None and nargs <= 2:
            offset, fam = found
            if nargs == 1:
                shape = (entry[2], offset, 1, -1, action)
            elif entry[3] >= 0:
                shape = (entry[2], offset, len(fam.domains[1]), entry[3], action)
            elif rest[1] in fam.domains[1]:
                shape = (entry[2], offset + fam.domains[1].index(rest[1]),
                         len(fam.domains[1]), -1, action)
    shapes[id(action)] = shape
    return shape


def legal_index_map(state: GDState, space: Any) -> dict[int, Action]:
    """Index -> legal action of ``state`` in ``space`` (this game's fixed action space,
    ``game.action_space()``): the same dict as ``space.indices_by_key(state)``; the space's
    ``legal_indices`` answers with it (the batch map of
    :mod:`starlanes.engine.action_space`). Raises ActionIndexError as that does (a legal
    action outside the space, two sharing an index).

    Built in one loop with no call per action once its index is known: indices are kept
    by action identity in a table for the space and the slot tokens map of this state
    version (a new table when the ships in play change); a ship action not yet in the
    table is numbered from its ships' slot numbers and its family's place in the space,
    any other through :func:`key`."""
    global _TABLE
    legal = state.legal_actions()
    if not legal:
        return {}
    c = _LAYOUT
    if c.state is not state or c.legal is not state._legal or c.length != len(state.history):
        c = slot_layout(state)
    table = _TABLE
    if table.tokens is not c.tokens or table.space is not space:
        table = _TABLE = _IndexTable(space, c)
    index = table.index
    if len(index) > _TABLE_CAP:
        index.clear()
        table.alive.clear()
    get = index.get
    shapes = _SHAPES[1] if _SHAPES[0] is space else {}
    out = {}
    for a in legal:
        i = get(id(a))
        if i is None:  # new under this table (a ship moved, say): numbered once
            shape = shapes.get(id(a))
            if shape is None:
                shape = _shape_of(a, space)
                shapes = _SHAPES[1]
            ship = shape[0]
            if ship == -1:
                i = shape[1]
            elif ship >= 0 and (s := table.slot.get(ship)) is not None:
                i = shape[1] + s * shape[2]
                if shape[3] >= 0:
                    t = table.slot.get(shape[3])
                    i = None if t is None else i + t
            if i is None:  # no slot, no family: the key says which index, or why none
                i = space.index(key(state, a))
            index[id(a)] = i
            table.alive.append(a)
        out[i] = a
    if len(out) != len(legal):
        return space.indices_by_key(state)  # raises, naming two that share an index
    return out
