"""Spending Action Points: the legal actions of the active player's ships and their
effects: moving (GD-AP-04, GD-MAP-05), attacking (GD-AP-05, GD-RNG-*, GD-UNIT-04..08),
building (GD-BLD-*, GD-LIM-*), and the one-ship-at-a-time rule (GD-AP-08).

A ship the player switches away from has its AP set to 0: it cannot act again this turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, shared

from . import actions as A
from . import specials
from .content import EXPLORER, MINER, RAIDER, UNIT_IDS
from .state import AP, ATT, CHG, HULL, KIND, OWNER, SEC, SH
from .turn import check_end, destroy, end_turn

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState

TEAM_MAX = 25
TYPE_MAX = 5
MINER_MAX = 15
CAPACITY = 3
"""Team size (GD-LIM-01..03) and sector capacity (GD-MAP-04), printed in the rulebook."""

def can_build(s: GDState, seat: int, kind: int) -> bool:
    """Affordable (GD-BLD-03) and within the team limits (GD-LIM-01..03)."""
    if s.minerals[seat] < s.cost[kind]:
        return False
    n = s.fleet_counts(seat)
    if sum(n) >= TEAM_MAX:
        return False
    return n[kind] < (MINER_MAX if kind == MINER else TYPE_MAX)


def turn_actions(s: GDState) -> list[Action]:
    """Every action of the spending step: end, builds, and each ship still able to act."""
    seat = s.seat
    b = s.board
    names = b.names
    holes = s.holes
    ships = s.ships
    load = [0] * 15
    foes: list[list[int] | None] = [None] * 15  # sector -> the other seat's ships there
    mine: list[int] = []
    counts = [0] * 5
    fleet = 0  # the seat's ships, all kinds
    for uid, x in ships.items():
        sec = x[SEC]
        k = x[KIND]
        if x[OWNER] == seat:
            counts[k] += 1
            fleet += 1
            if x[AP] > 0 and sec >= 0:
                mine.append(uid)
        elif sec >= 0:
            near = foes[sec]
            if near is None:
                foes[sec] = [uid]
            else:
                near.append(uid)
        if sec >= 0 and k != MINER:
            load[sec] += 1
    out: list[Action] = [A.END]
    # building (GD-BLD-01..04, GD-LIM-*)
    money = s.minerals[seat]
    game = s.game
    cost = s.cost
    if money >= min(cost) and fleet < TEAM_MAX:
        zone = b.zone_sectors[s.start[seat]]
        build_rows = game.build_rows  # type: ignore[attr-defined]
        for k in range(5):
            if cost[k] <= money and counts[k] < (MINER_MAX if k == MINER else TYPE_MAX):
                row = build_rows[k]
                for t in zone:
                    if not holes[t] and (k == MINER or load[t] < CAPACITY):
                        a = row[t]
                        if a is None:
                            a = row[t] = shared(A.Build, UNIT_IDS[k], names[t])
                        out.append(a)
    adj = b.adj
    move_rows = game.move_rows  # type: ignore[attr-defined]
    attack_rows = game.attack_rows  # type: ignore[attr-defined]
    damage = s.damage
    reach = s.reach
    shot = None  # can the seat pay for a black hole shot? asked at its first destroyer
    special_rows = game.special_rows  # type: ignore[attr-defined]
    for uid in mine:
        x = ships[uid]
        k = x[KIND]
        sec = x[SEC]
        if x[CHG] == 2:
            out.extend(specials.charged_actions(s, uid, x, load))
            continue
        row = move_rows.get(uid)
        if row is None:
            row = move_rows[uid] = [None] * len(names)
        for t in adj[sec]:
            if not holes[t] and (k == MINER or load[t] < CAPACITY):
                a = row[t]
                if a is None:
                    a = row[t] = A.Move(uid, names[t])
                out.append(a)
        if damage[k]:
            hits = attack_rows.get(uid)
            if hits is None:
                hits = attack_rows[uid] = {}
            for t in reach[k][sec]:
                near = foes[t]
                if near is not None:
                    for f in near:
                        a = hits.get(f)
                        if a is None:
                            a = hits[f] = A.Attack(uid, f)
                        out.append(a)
        if k in (MINER, EXPLORER):  # the cheap specials here (GD-SPC-01, GD-DS-01)
            if k == EXPLORER or not x[ATT]:
                a = special_rows.get(uid)
                out.append(a if a is not None else specials.one_special(s, uid, k))
        elif k != RAIDER:  # the Raider Ship has no special (GD-UNIT-09)
            if shot is None:
                shot = specials.can_charge_shot(s, seat)
            out.extend(specials.special_actions(s, uid, x, shot))
    return out


def activate(s: GDState, uid: int) -> None:
    """Make ``uid`` the acting ship; the previous one may not act again (GD-AP-08)."""
    prev = s.active
    if prev != uid:
        if prev >= 0:
            x = s.ships.get(prev)
            if x is not None and x[AP]:
                s.ships[prev] = (x[0], x[1], x[2], x[3], x[4], 0, x[6], x[7], x[8])
        s.active = uid


def apply_turn(s: GDState, a: Action) -> None:
    cls = type(a)
    if cls is A.Move:
        move(s, a.ship, s.board.index[a.sector])
    elif cls is A.Attack:
        attack(s, a.ship, a.target)
    elif cls is A.EndTurn:
        end_turn(s)
    elif cls is A.Build:
        build(s, UNIT_IDS.index(a.kind), s.board.index[a.sector])
    else:
        specials.apply(s, a)


def move(s: GDState, uid: int, sector: int) -> None:
    """1 AP per sector moved (GD-AP-04); moving detaches a miner (ruling GD-OPEN-13)."""
    activate(s, uid)
    x = s.ships[uid]
    s.ships[uid] = (x[0], x[1], sector, x[3], x[4], x[5] - 1, 0, x[7], x[8])


def hit(s: GDState, target: int, dmg: int) -> bool:
    """Apply ``dmg`` to shields first, the rest to the hull in the same hit (GD-UNIT-05,
    ruling GD-OPEN-09); hull 0 destroys the ship (GD-UNIT-08). True if destroyed."""
    y = s.ships[target]
    sh, hull = y[SH], y[HULL]
    if dmg <= sh:
        sh -= dmg
    else:
        hull -= dmg - sh
        sh = 0
    if hull <= 0:
        s.log(f"{s.ship_name(target)} is destroyed")
        destroy(s, target)
        return True
    s.ships[target] = (y[0], y[1], y[2], sh, hull, y[5], y[6], y[7], y[8])
    return False


def attack(s: GDState, uid: int, target: int) -> None:
    """1 AP; deals the attacker's weapon damage to one enemy in range (GD-UNIT-04)."""
    activate(s, uid)
    x = s.ships[uid]
    s.ships[uid] = (x[0], x[1], x[2], x[3], x[4], x[5] - 1, x[6], x[7], x[8])
    if hit(s, target, s.damage[x[KIND]]):
        check_end(s)


def build(s: GDState, kind: int, sector: int) -> None:
    """Pay the cost (GD-BLD-02) and place the unit at full AP (GD-BLD-04/05). Building is
    the player's act, not a ship's: the acting ship stays active (ruling)."""
    seat = s.seat
    s.minerals[seat] -= s.cost[kind]
    uid = s.add_ship(seat, kind, sector)
    s.log(f"{s.seat_name(seat)} builds {s.ship_word(uid)} in sector {s.board.names[sector]}")

