"""Turn Progression: recharge shields, gather resources, explorer return warping, spend
action points, end of turn (GD-TURN-*, GD-SPC-02/03, GD-DS-02..08, GD-WIN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, Decision, shared

from . import actions as A
from .content import COMMAND, EXPLORER, MINER
from .state import AIM, AP, ATT, CHG, DEEP, HULL, KIND, OWNER, SEC, SH

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState


def start_turn(s: GDState, seat: int) -> None:
    """Begin ``seat``'s turn: recharge shields (+1 up to the maximum, GD-TURN-03), refresh
    AP (ruling GD-OPEN-14), gather from attached miners (GD-TURN-04), note each charged
    command ship's jump group (GD-SPC-09), then return explorers (GD-TURN-05)."""
    s.seat = seat
    s.active = -1
    s.stack.clear()
    if seat == s.first:
        s.round += 1
        if s.round > s.turn_limit:
            end_game(s, "turn_limit")
            return
    ships = s.ships
    max_sh, max_ap = s.max_sh, s.max_ap
    attached = [0] * 15
    for uid, x in ships.items():
        if x[ATT] and x[SEC] >= 0:
            attached[x[SEC]] += 1
        if x[OWNER] != seat:
            continue
        k = x[KIND]
        sh = x[SH] + 1 if x[SH] < max_sh[k] else x[SH]
        chg = 2 if x[CHG] == 1 else x[CHG]
        ships[uid] = (seat, k, x[SEC], sh, x[HULL], max_ap[k], x[ATT], chg, x[AIM])
    gain = 0
    for x in ships.values():
        if x[OWNER] == seat and x[ATT] and x[SEC] >= 0:
            gain += s.content.per_miner(attached[x[SEC]])
    if gain:
        s.minerals[seat] += gain
        s.log(f"{s.seat_name(seat)} gathers {gain} minerals")
    s.jump_group = {}
    for uid, x in ships.items():
        if x[OWNER] == seat and x[KIND] == COMMAND and x[CHG] == 2 and x[SEC] >= 0:
            s.jump_group[uid] = tuple([u for u, y in ships.items()
                                       if u != uid and y[OWNER] == seat and y[SEC] == x[SEC]])
    s.pending = sorted([u for u, x in ships.items()
                        if x[OWNER] == seat and x[KIND] == EXPLORER and x[SEC] == DEEP])
    s.phase = "returns"
    process_returns(s)


def end_turn(s: GDState) -> None:
    """End of the spending step: unused AP are lost (GD-OPEN-14), an unused charge lapses
    (GD-OPEN-06/08), and the other player's turn begins (GD-TURN-01)."""
    seat = s.seat
    ships = s.ships
    for uid, x in list(ships.items()):
        if x[OWNER] == seat and (x[CHG] == 2 or x[AP]):
            ships[uid] = (x[0], x[1], x[2], x[3], x[4], 0, x[ATT],
                          0 if x[CHG] == 2 else x[CHG], -1 if x[CHG] == 2 else x[AIM])
    s.jump_group = {}
    start_turn(s, 1 - seat)


def roll_zone(s: GDState) -> int:
    """Arrival zone 0..4: a D10 (1..10) halved and rounded up (GD-DS-03, GD-OPEN-04)."""
    return (int(s.rng.random() * 10) + 2) // 2 - 1


def roll_row(s: GDState) -> int:
    """Arrival row 0..2: a D6 halved and rounded up (GD-DS-04, GD-OPEN-04)."""
    return (s.rng.d6() + 1) // 2 - 1


def spin(s: GDState, seat: int) -> None:
    """Spin the Deep Space Exploration Spinner and give its treasure (GD-DS-07/08)."""
    table = s.content.spin_table
    seg = s.content.spinner[table[int(s.rng.random() * len(table))]]
    s.minerals[seat] += seg.minerals
    s.dark[seat] += seg.dark_matter
    what = seg.text.rstrip(".") or "nothing"
    s.log(f"{s.seat_name(seat)} spins the spinner: {what} (+{seg.minerals} minerals, "
          f"+{seg.dark_matter} dark matter)")


def process_returns(s: GDState) -> None:
    """Bring the active player's explorers back one at a time; stop at a decision."""
    seat = s.seat
    b = s.board
    while s.pending and not s.stack and s.phase == "returns":
        uid = s.pending.pop(0)
        zone = roll_zone(s)
        spin(s, seat)
        has_command = any(
            x[OWNER] == seat and x[KIND] == COMMAND and x[SEC] >= 0
            and b.zone_of[x[SEC]] == zone for x in s.ships.values()
        )
        choices = arrival_sectors(s, zone)
        if has_command and choices:
            s.push(Decision(seat, "arrive", (uid, zone)))
            return
        land(s, uid, b.zone_sectors[zone][roll_row(s)])
    if s.phase == "returns" and not s.stack:
        s.phase = "act"


def land(s: GDState, uid: int, sector: int) -> None:
    """Put a returning explorer in ``sector``: destroyed by a black hole (GD-BH-03), a
    collision when the sector is full (GD-DS-06), else it simply arrives."""
    name = s.board.names[sector]
    x = s.ships[uid]
    if s.holes[sector]:
        del s.ships[uid]
        s.log(f"{s.seat_name(x[OWNER])}: {s.ship_word(uid, x[KIND])} returns into the black hole at sector {name} and is lost")
        check_end(s)
        return
    if s.load_at(sector) >= 3:
        owner = x[OWNER]
        enemy = [u for u, y in s.ships.items()
                 if y[SEC] == sector and y[OWNER] != owner and y[KIND] != MINER]
        defender = 1 - owner if enemy else owner
        s.push(Decision(defender, "collide", (uid, sector)))
        return
    s.ships[uid] = (x[OWNER], x[KIND], sector, x[SH], x[HULL], x[AP], 0, 0, -1)
    s.log(f"{s.seat_name(x[OWNER])}: {s.ship_word(uid)} returns to sector {name}")


def arrival_sectors(s: GDState, zone: int) -> list[int]:
    """Sectors of ``zone`` an explorer's player may pick (GD-DS-05): never a black hole
    (ruling GD-OPEN-11); a full sector (a deliberate collision, GD-DS-06) only under the
    ``arrive_full`` option (ruling on GD-DS-05 and GD-MAP-05). With none, the D6 decides."""
    full_ok = s.options["arrive_full"]
    return [t for t in s.board.zone_sectors[zone]
            if not s.holes[t] and (full_ok or s.load_at(t) < 3)]


def arrive_actions(s: GDState, d: Decision) -> list[Action]:
    uid, zone = d.data
    return [shared(A.Arrive, uid, s.board.names[t]) for t in arrival_sectors(s, zone)]


def apply_arrive(s: GDState, d: Decision, a: Action) -> None:
    assert isinstance(a, A.Arrive)
    land(s, a.ship, s.board.index[a.sector])


def collide_actions(s: GDState, d: Decision) -> list[Action]:
    """The defender's non-miner ships in the full sector (GD-DS-06, GD-OPEN-10)."""
    uid, sector = d.data
    return [shared(A.Sacrifice, u) for u, y in s.ships.items()
            if y[SEC] == sector and y[OWNER] == d.seat and y[KIND] != MINER]


def apply_collide(s: GDState, d: Decision, a: Action) -> None:
    assert isinstance(a, A.Sacrifice)
    uid, sector = d.data
    s.log(f"{s.ship_name(uid)} collides in sector {s.board.names[sector]}: it and "
          f"{s.ship_name(a.ship)} are destroyed")
    destroy(s, uid)
    destroy(s, a.ship)
    check_end(s)


def destroy(s: GDState, uid: int) -> None:
    """Remove a ship from the board and its fleet (GD-UNIT-08); a charge dies with it
    (ruling GD-OPEN-06/08)."""
    s.ships.pop(uid, None)
    s.jump_group.pop(uid, None)
    if s.active == uid:
        s.active = -1


def check_end(s: GDState) -> None:
    """A player with no ships on the board loses, deep space does not count (GD-WIN-02/03);
    both at once is a draw (ruling GD-OPEN-12)."""
    if s.phase in ("setup", "over"):
        return
    on = [0, 0]
    for x in s.ships.values():
        if x[SEC] >= 0:
            on[x[OWNER]] += 1
    if on[0] and on[1]:
        return
    end_game(s, "fleet_destroyed" if on[0] or on[1] else "mutual_destruction")


def end_game(s: GDState, reason: str) -> None:
    """Finish: winners are the seats with ships on the board; at the turn limit it is a draw
    (ruling on the ``turn_limit`` option)."""
    s.phase = "over"
    s.end_reason = reason
    s.stack.clear()
    s.pending = []
    if reason == "fleet_destroyed":
        s.winners = [p for p in (0, 1) if s.on_board(p)]
    else:
        s.winners = [0, 1]
    s.log(f"game over ({reason}); winners: {', '.join(s.seat_name(w) for w in s.winners) or 'none'}")


DECISIONS = {
    "arrive": (arrive_actions, apply_arrive),
    "collide": (collide_actions, apply_collide),
}
