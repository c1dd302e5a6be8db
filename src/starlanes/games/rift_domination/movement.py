"""Steps 5 and 6: moving units and starting battles (MOVEMENT, RD-MOV-01..16).

A *stack* is a seat's units at one point that are not landed. Ships (movement points > 0,
used capacity 0) move themselves; everything with used capacity > 0 (fighters, infantry,
diplomats, drones) moves only when carried, within the capacity of the ships that move
with it (RD-UNIT-02, ruling RD-OPEN-12). Every edge costs 1 movement point (RD-MOV-06).

``move A B`` moves every ship of the stack that has movement points left, loaded with as
much cargo as fits (ground units first, then drones, then fighters); ``move A B kind``
detaches one ship of that kind with a full load. Entering a point that holds another
seat's units that are not landed starts a space battle (RD-MOV-10, ruling RD-OPEN-24);
before it starts, the attacker may bring in further stacks (RD-MOV-11).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision

try:
    import cython
    if not cython.compiled:  # Cython installed, this module not compiled
        raise ModuleNotFoundError
except ModuleNotFoundError:  # the pure build
    from starlanes.engine import _cython as cython

from . import battle, occ, planets
from .actions import Attack, Consume, Done, JoinAttack, Land, Lift, Move, Negotiate, action
from .survey import kind_sets, survey_units
from .units import Unit, new_unit

if TYPE_CHECKING:  # pragma: no cover
    from .factions import UnitStats
    from .state import RiftState

_DONE = action(Done)  # listed at every step of the movement: made once

CARGO_ORDER = {"infantry": 0, "engineer": 1, "diplomat": 2, "kamikaze_drone": 3, "fighter": 4}


def _stacks(s: RiftState, seat: int) -> dict[int, tuple[list[int], list[int]]]:
    """point -> (ships with movement points left, passengers) of ``seat``'s stacks."""
    out: dict[int, tuple[list[int], list[int]]] = {}
    carried = kind_sets(s.stats[seat]).carried
    for uid, unit in s.units.of[seat].items():
        # indices: 1 kind, 2 loc, 3 landed, 4 mp (hot loop: no attribute access)
        u = cython.cast(tuple, unit)  # a Unit: read by index, as a tuple
        if u[3]:
            continue
        entry = out.get(u[2])
        if entry is None:
            entry = out[u[2]] = ([], [])
        if u[1] in carried:
            entry[1].append(uid)
        elif u[4] > 0:
            entry[0].append(uid)
    return out


def _neighbors(s: RiftState, seat: int, p: int) -> tuple[int, ...]:
    fx = s.fx[seat]
    b = s.board
    return b.warp_neighbors[p] if fx is not None and fx.wormhole_mastery else b.neighbors[p]


def move_actions(s: RiftState) -> list[Action]:
    """Step 5-6 actions of the seat in turn: moves of each stack (whole, or one ship of a
    kind when the stack has several ships), then planet actions, card plays and done."""
    seat = s.seat
    survey = survey_units(s, seat)
    memo = s.board.memo
    fx = s.fx[seat]
    warp = fx is not None and fx.wormhole_mastery
    out: list[Action] = []
    for p, kinds in survey.ships.items():
        if not kinds:
            continue
        key = ("moves", p, warp, tuple(sorted(set(kinds))) if len(kinds) > 1 else ())
        moves = memo.get(key)
        if moves is None:
            moves = memo[key] = _stack_moves(s, seat, p, key[3])
        out.extend(moves)
    out.extend(planets.planet_actions(s, seat, survey))
    out.extend(occ.own_turn_actions(s, seat))
    out.append(_DONE)
    return out


def _stack_moves(s: RiftState, seat: int, p: int, detach: tuple[str, ...]) -> tuple[Action, ...]:
    """The moves of a stack at ``p``: to each neighbour the whole stack, then one ship of
    each kind in ``detach`` (sorted; empty for a stack of one ship)."""
    names = s.board.names
    src = names[p]
    out: list[Action] = []
    for q in _neighbors(s, seat, p):
        dst = names[q]
        out.append(action(Move, src, dst))
        for k in detach:
            out.append(action(Move, src, dst, k))
    return tuple(out)


def _load(s: RiftState, seat: int, ships: list[int], cargo: list[int]) -> list[int]:
    """The passengers (unit ids from ``cargo``) that ``ships`` take along: ground units
    first, then drones, then fighters, each while room is left (ruling RD-OPEN-12)."""
    units = s.units
    return [uid for uid, _u in _loaded(s.stats[seat], [(u, units[u]) for u in ships],
                                       [(u, units[u]) for u in cargo])]


def _loaded(stats: dict[str, UnitStats], ships: list[tuple[int, Unit]],
            cargo: list[tuple[int, Unit]]) -> list[tuple[int, Unit]]:
    """:func:`_load` on (uid, unit) pairs."""
    if not cargo:
        return []
    room = 0
    for _uid, u in ships:
        room += stats[u[1]].capacity
    if room <= 0:
        return []
    taken = []
    for _rank, uid, u in sorted([(CARGO_ORDER.get(u[1], 9), uid, u) for uid, u in cargo]):
        need = stats[u[1]].used_capacity
        if need <= room:
            taken.append((uid, u))
            room -= need
    return taken


def move_stack(s: RiftState, seat: int, src: int, dst: int, kind: str = "") -> list[int]:
    """Move ships (and their cargo) from ``src`` to ``dst``; returns the uids moved: the
    ships of the stack at ``src`` with movement points left (or, with ``kind``, the one of
    that kind with the most), then what they carry (:func:`_load`)."""
    stats = s.stats[seat]
    carried_kinds = kind_sets(stats).carried
    ships: list[tuple[int, Unit]] = []
    cargo: list[tuple[int, Unit]] = []
    for pair in s.units.at[seat].get(src, ()):  # the seat's units at src, in unit-id order
        u = cython.cast(tuple, pair[1])  # a Unit: read by index, as a tuple
        if u[3]:  # landed: not in the stack
            continue
        if u[1] in carried_kinds:
            cargo.append((pair[0], u))
        elif u[4] > 0:
            ships.append((pair[0], u))
    if kind:  # the ship of that kind with the most movement points, the oldest on a tie
        best = None
        for x in ships:
            if x[1][1] == kind and (best is None or x[1][4] > best[1][4]):
                best = x
        if best is None:
            raise ValueError(f"no {kind} with movement points left at point {src}")
        ships = [best]
    carried = _loaded(stats, ships, cargo)
    toll = _warp_toll(s, seat, src, dst)
    moved = []
    for uid, unit in ships:
        x = cython.cast(tuple, unit)
        mp = x[4] - 1
        if toll and mp > 0 and x[1] != "infantry":
            # never below 0 left, and never the unit's allowance for the turn below 1
            mp -= max(0, min(toll, mp, stats[x[1]].mp + s.turn_mp_bonus - 1))
        moved.append((uid, new_unit(Unit, (seat, x[1], dst, False, mp, x[5]))))
    for uid, unit in carried:
        x = cython.cast(tuple, unit)
        moved.append((uid, new_unit(Unit, (seat, x[1], dst, False, x[4], x[5]))))
    s.units.move_fleet(seat, src, dst, moved)  # the stack: the seat's units afloat at src
    if s.no_landing:  # a new arrival: the landing parties aboard may land again
        s.no_landing = s.no_landing.difference([uid for uid, _x in carried])
    return [uid for uid, _x in ships] + [uid for uid, _x in carried]


def _warp_toll(s: RiftState, seat: int, src: int, dst: int) -> int:
    """Movement points a unit of ``seat`` loses on entering ``dst``'s system from outside it
    when another player has a warp there (RD-UPG-07, ruling RD-OPEN-23): the warp's -1 holds
    "in that specific system", so it bites on entering, not only when movement points are
    refreshed. The caller keeps it from taking a unit's allowance to 0."""
    b = s.board
    dsys = b.system_of[dst]
    if dsys < 0 or b.system_of[src] == dsys:
        return 0
    ups, owner = s.planet_upgrades, s.planet_owner
    for p in b.system_planets[dsys]:
        if "warp" in ups[p] and owner[p] not in (-1, seat):
            return s.content.rules.warp_mp
    return 0


def _enemy_fleet_at(s: RiftState, seat: int, p: int) -> bool:
    return s.units.fleet_at(p, seat)


def _joinable(s: RiftState, seat: int, target: int) -> list[int]:
    b = s.board
    out = []
    for p, (ships, _c) in _stacks(s, seat).items():
        if p != target and ships and target in _neighbors(s, seat, p):
            out.append(p)
    return sorted(out, key=lambda p: b.names[p])


def apply_move(s: RiftState, a: Action) -> None:
    seat = s.seat
    if isinstance(a, Move):
        idx = s.board.index
        src, dst = idx[a.src], idx[a.dst]
        moved = move_stack(s, seat, src, dst, a.unit)
        s.log(f"{s.seat_name(seat)} moves {len(moved)} unit(s) {s.point_name(a.src)} -> "
              f"{s.point_name(a.dst)}")
        if _enemy_fleet_at(s, seat, dst):
            came_from = tuple([(u, src) for u in moved])
            engage(s, seat, dst, came_from)
    elif isinstance(a, Done):
        s.phase = "recruit"
        s.log(f"{s.seat_name(seat)} recruits")
    elif isinstance(a, (Land, Lift, Negotiate, Consume)):
        planets.apply_planet_action(s, seat, a)
    else:
        occ.play_own_turn(s, seat, a)


def engage(s: RiftState, seat: int, target: int, came_from: tuple[tuple[int, int], ...]) -> None:
    """An attack on ``target``: offer to join more stacks, else start the battle."""
    if _joinable(s, seat, target):
        s.push(Decision(seat, "join", (target, came_from)))
    else:
        battle.start_space_battle(s, seat, target, dict(came_from))


def _join_legal(s: RiftState, d: Decision) -> list[Action]:
    names = s.board.names
    return [JoinAttack(names[p]) for p in _joinable(s, d.seat, d.data[0])] + [Attack()]


def _join_apply(s: RiftState, d: Decision, a: Action) -> None:
    target, came_from = d.data
    if isinstance(a, JoinAttack):
        src = s.board.index[a.src]
        moved = move_stack(s, d.seat, src, target)
        s.log(f"{s.seat_name(d.seat)} joins the attack from {s.point_name(a.src)} with "
              f"{len(moved)} unit(s)")
        engage(s, d.seat, target, came_from + tuple([(u, src) for u in moved]))
    else:
        battle.start_space_battle(s, d.seat, target, dict(came_from))


DECISIONS = {"join": (_join_legal, _join_apply)}
