"""Shared helpers for the Galactic Domination tests, exposed through the ``gd`` fixture.

``blank()`` gives a state past set-up with an empty board, seat 0 (player 1, red) in the
spending step of round 1, and no minerals; ``put`` places ships; ``do`` applies notations;
``rolls`` replaces the state's RNG with a scripted one for dice and spinner outcomes.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import starlanes
from starlanes.games.galactic_domination.content import UNIT_IDS
from starlanes.games.galactic_domination.state import GDState


def fresh(seed: int = 1, **options) -> GDState:
    return starlanes.load("galactic-domination", seed=seed, **options).new_initial_state()


def blank(seed: int = 1, seat: int = 0, **options) -> GDState:
    s = fresh(seed, **options)
    s.to_place = [[0] * 5, [0] * 5]
    s.ships.clear()
    s.phase = "act"
    s.round = 1
    s.seat = seat
    s.active = -1
    s._legal = None
    return s


def put(s: GDState, owner: int, kind: str, sector: str, **fields) -> int:
    """Place a ship; ``fields`` override sh, hull, ap, att, chg, aim (aim by sector name)."""
    uid = s.add_ship(owner, UNIT_IDS.index(kind), s.board.index[sector])
    x = list(s.ships[uid])
    idx = {"sh": 3, "hull": 4, "ap": 5, "att": 6, "chg": 7, "aim": 8}
    for k, v in fields.items():
        x[idx[k]] = s.board.index[v] if k == "aim" else v
    s.ships[uid] = tuple(x)
    s._legal = None
    return uid


def legal(s: GDState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def do(s: GDState, *notations: str) -> None:
    for n in notations:
        s.apply_notation(n)


def sec(s: GDState, uid: int) -> str:
    x = s.ships[uid][2]
    return s.board.names[x] if x >= 0 else "deep"


class ScriptedRng:
    """Returns the scripted ``random()`` values in order, then falls back to 0.5."""

    def __init__(self, values):
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0) if self.values else 0.5

    def d6(self) -> int:
        return int(self.random() * 6) + 1

    def copy(self):
        return ScriptedRng(self.values)

    def getstate(self):
        return tuple(self.values)


def d10(v: int) -> float:
    """The random() value that makes a D10 read ``v`` (1..10)."""
    return (v - 1) / 10 + 0.05


def d6(v: int) -> float:
    return (v - 1) / 6 + 0.01


def segment(s: GDState, seg_id: str) -> float:
    """The random() value that makes the spinner stop on ``seg_id``."""
    table = s.content.spin_table
    ids = [seg.id for seg in s.content.spinner]
    i = table.index(ids.index(seg_id))
    return (i + 0.5) / len(table)


def rolls(s: GDState, *values: float) -> None:
    s.rng = ScriptedRng(values)


@pytest.fixture
def gd():
    return SimpleNamespace(fresh=fresh, blank=blank, put=put, legal=legal, do=do, sec=sec,
                           rolls=rolls, d10=d10, d6=d6, segment=segment)
