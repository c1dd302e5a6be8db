"""How a battle ends: retreat (RD-BAT-08/12, ruling RD-OPEN-09) and the result
(RD-BAT-17/18, RD-WIN-05, rulings RD-OPEN-08 and RD-OPEN-18)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import battle_skills as sk
from .battle_model import ATTACKER, CLOSE, DEFENDER, MAX_CLOSE_ROUNDS, Battle, Fighter

if TYPE_CHECKING:  # pragma: no cover
    from .state import RiftState


def has_weapons(b: Battle, side: int) -> bool:
    return any(f.dice for f in b.living(side))


def can_retreat(b: Battle, side: int) -> bool:
    """Whether ``side`` has units that can leave: any living unit (buildings never move;
    a planet whose landed defenders are gone has nobody to retreat)."""
    return any(not f.building for f in b.living(side))


def retreat_step(state: RiftState, b: Battle) -> None:
    """RD-BAT-08/12: after close combat the attacker, then the defender may retreat (in a
    ground battle the defender's landed units too, giving the planet up). A side without
    weapons must retreat; after 10 close rounds the attacker must (ruling RD-OPEN-07)."""
    if b.idx >= 2:
        b.phase = CLOSE
        b.stage = "phase_start"
        return
    side = b.idx
    if not can_retreat(b, side):
        b.idx += 1
        return
    if not has_weapons(b, side) or (side == ATTACKER and b.close_rounds >= MAX_CLOSE_ROUNDS):
        retreat(state, b, side)
        return
    b.pending = ("retreat", b.seats[side], 0)


def retreat(state: RiftState, b: Battle, side: int) -> None:
    state.log(f"{state.seat_name(b.seats[side])} retreats")
    b.retreated = side
    send_back(state, b, side)
    b.stage = "end"


def _free_neighbor(state: RiftState, point: int, seat: int) -> int:
    return next((p for p in state.board.neighbors[point]
                 if not any(u.loc == p and u.owner != seat for u in state.units.values())), -1)


def send_back(state: RiftState, b: Battle, side: int) -> None:
    """Move ``side``'s surviving units out of the battle (ruling RD-OPEN-09, no movement
    points used). Attackers go back to the point they came from (units without one, e.g.
    recruited in battle, go where most of the fleet came from); a ground attacker's
    landing lifts back into orbit and may not land again before it arrives anew (ruling
    RD-OPEN-10). A space defender goes to the first adjacent point with no enemy units; a
    planet's landed defenders lift into the orbit if no enemy ship is there, else go to
    such a point too; with none they are destroyed."""
    seat = b.seats[side]
    dest = -1
    if side == ATTACKER and not b.ground and b.came_from:
        dest = Counter(b.came_from.values()).most_common(1)[0][0]
    if b.ground and side == DEFENDER:
        enemy_in_orbit = any(u.loc == b.point and u.owner != seat and not u.landed
                             for u in state.units.values())
        dest = _free_neighbor(state, b.point, seat) if enemy_in_orbit else b.point
    elif side == DEFENDER or dest < 0:
        dest = _free_neighbor(state, b.point, seat)
    lifted = []
    for f in b.fighters.values():
        if f.side != side or not f.alive or f.building:
            continue
        f.gone = True
        u = state.units[f.fid]
        if b.ground and side == ATTACKER:
            state.units[f.fid] = u._replace(landed=False)
            lifted.append(f.fid)
        else:
            to = b.came_from.get(f.fid, dest) if side == ATTACKER else dest
            if to < 0:
                state.remove_unit(f.fid)
                b.killed[side] += 1
                continue
            state.units[f.fid] = u._replace(loc=to, landed=False)
        write_wounds(state, f)
    if lifted:
        state.no_landing = state.no_landing | frozenset(lifted)


def write_wounds(state: RiftState, f: Fighter) -> None:
    """Lost LP persist as wounds (Defensive Ring's LP are lost first); shields and extra
    shields come back after the battle (ruling RD-OPEN-01)."""
    u = state.units.get(f.fid)
    if u is None:
        return
    wounds = min(f.base_lp - 1, max(0, f.base_lp - max(0, f.lp - f.ring)))
    if wounds != u.wounds:
        state.units[f.fid] = u._replace(wounds=wounds)


def finish(state: RiftState, b: Battle) -> None:
    """End of battle (ruling RD-OPEN-08, RD-WIN-05): the side that still stands when the
    other is destroyed or retreats wins 1 VP (+ faction battle rewards) and its faction's
    salvage per enemy unit destroyed. A battle decided before any die was rolled (the
    planet's defence fell to bombardment alone) is no battle won: the planet is taken but
    nobody scores (ruling RD-OPEN-18). A won ground battle captures the planet
    (RD-BAT-17/18); destroyed buildings are removed, damaged ones restored."""
    winner = -1
    if b.stage != "cancelled":
        standing = [s for s in (ATTACKER, DEFENDER) if b.has_living(s) and b.retreated != s]
        if len(standing) == 1:
            winner = standing[0]
    for f in b.fighters.values():
        if not f.building and f.alive:
            write_wounds(state, f)
    if b.destroyed_upgrades:
        ups = state.planet_upgrades[b.planet]
        state.planet_upgrades[b.planet] = tuple(
            u for i, u in enumerate(ups) if i not in b.destroyed_upgrades)
    if winner >= 0:
        seat = b.seats[winner]
        fx = state.fx[seat]
        if b.rolled:
            vp = sk.rule(state, "battle_win_vp") + (fx.battle_win_vp if fx else 0)
            state.gain_vp(seat, vp, "battle won")
            res = (fx.battle_win_resources if fx else 0) + (
                fx.salvage if fx else 0) * b.killed[1 - winner]
            if res:
                state.gain_resources(seat, res, "battle rewards")
        else:
            state.log("no die was rolled: no battle was fought and none is won")
        if b.ground and winner == ATTACKER:
            landing = [f.fid for f in b.fighters.values()
                       if f.side == ATTACKER and f.alive and not f.building]
            state.capture_planet(b.planet, seat, landing)
    elif b.stage != "cancelled":
        state.log("the battle has no winner")
    state.after_battle()
    if state.battle is b:
        state.battle = None
