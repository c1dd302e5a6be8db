"""Starting the Game: the optional D10 roll-off and the alternating placement of the 10
starting ships (GD-SET-03..06, GD-MAP-03)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import Action, shared

from . import actions as A
from .content import MINER, UNIT_IDS

if TYPE_CHECKING:  # pragma: no cover
    from .state import GDState

START_PER_TYPE = 2
"""Each fleet starts with 2 ships of each of the 5 types (GD-SET-03, printed)."""


def d10(s: GDState) -> int:
    """A D10 roll read 1..10: the die's 0 counts as 10 (GD-SET-06)."""
    return int(s.rng.random() * 10) + 1


def begin(s: GDState) -> None:
    """Set up: 0 minerals each (GD-SET-05), 2 of each type to place (GD-SET-03), and
    player 1 decided by seat order or by the D10 roll-off option (GD-SET-06, GD-OPEN-04:
    ties are rolled again)."""
    s.minerals = [0, 0]
    s.dark = [0, 0]
    s.to_place = [[START_PER_TYPE] * 5, [START_PER_TYPE] * 5]
    s.first = 0
    if s.options["roll_off"]:
        while True:
            r0, r1 = d10(s), d10(s)
            s.log(f"roll-off: P0 rolls {r0}, P1 rolls {r1}")
            if r0 != r1:
                break
        s.first = 0 if r0 > r1 else 1
    b = s.board
    s.start = [0, 0]
    s.start[s.first] = b.start_zone[0]  # player 1: red
    s.start[1 - s.first] = b.start_zone[1]  # player 2: purple
    s.seat = s.first
    s.phase = "setup"
    s.log(f"{s.seat_name(s.first)} is player 1 and places first")


def place_actions(s: GDState) -> list[Action]:
    seat = s.seat
    left = s.to_place[seat]
    out: list[Action] = []
    for sec in s.board.zone_sectors[s.start[seat]]:
        full = s.load_at(sec) >= 3
        for k in range(5):
            if left[k] and (k == MINER or not full):
                out.append(shared(A.Place, UNIT_IDS[k], s.board.names[sec]))
    return out


def apply_place(s: GDState, a: Action) -> None:
    from .turn import start_turn

    assert isinstance(a, A.Place)
    seat = s.seat
    k = UNIT_IDS.index(a.kind)
    sec = s.board.index[a.sector]
    s.to_place[seat][k] -= 1
    uid = s.add_ship(seat, k, sec)
    s.log(f"{s.seat_name(seat)} places {s.ship_word(uid)} in sector {a.sector}")
    other = 1 - seat
    if any(s.to_place[other]):
        s.seat = other
    elif not any(s.to_place[seat]):
        start_turn(s, s.first)
