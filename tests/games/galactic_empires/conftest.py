"""Shared helpers for the Galactic Empires tests, exposed through the ``ge`` fixture.

``blank`` deals a real game and then empties the table: no cards in play, empty hands,
an empty point pool, both players past their restricted first turns, seat 0 to act in a
chosen phase. ``put``/``give`` add new card instances (of any card id) to play or to a
hand so a test builds exactly the position a rule talks about.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import starlanes
from starlanes.games.galactic_empires.state import Unit


def fresh(players: int = 2, seed: int = 1, **options):
    return starlanes.load("galactic-empires", players=players, seed=seed, **options) \
        .new_initial_state()


def touch(s) -> None:
    s._legal = None


def blank(players: int = 2, seed: int = 1, phase: str = "playA", seat: int = 0,
          turn: int = 5, **options):
    s = fresh(players, seed, **options)
    s.units.clear()
    s.hands = [[] for _ in range(s.n)]
    s.reserve = [[] for _ in range(s.n)]
    s.stack.clear()
    s.pending = ()
    s.pool = [0] * 7
    s.turns = [turn] * s.n
    s.seat = seat
    s.first = 0
    s.phase = phase
    s.plays = 0
    s.ship_plays = 0
    s.fired_at = []
    s.round = turn
    touch(s)
    return s


def new_inst(s, card_id: str) -> int:
    assert card_id in s.cards, card_id
    s.defs = s.defs + (card_id,)
    s.deck_of = s.deck_of + (0,)
    return len(s.defs) - 1


def put(s, card_id: str, owner: int = 0, **fields) -> int:
    """Put a new instance of ``card_id`` in play (Unit fields as keywords)."""
    inst = new_inst(s, card_id)
    fields.setdefault("turn_in", 0)
    s.units[inst] = Unit(card_id, owner, **fields)
    touch(s)
    return inst


def give(s, seat: int, *card_ids: str) -> list[int]:
    out = []
    for cid in card_ids:
        inst = new_inst(s, cid)
        s.hands[seat].append(inst)
        out.append(inst)
    touch(s)
    return out


def set_unit(s, inst: int, **fields) -> None:
    s.units[inst] = s.units[inst]._replace(**fields)
    touch(s)


def legal(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def kinds(s) -> set[str]:
    return {a.kind for a in s.legal_actions()}


def do(s, *notations: str) -> None:
    for text in notations:
        s.apply_notation(text)


def first(s, prefix: str):
    """Apply the first legal action whose notation starts with ``prefix``."""
    for a in s.legal_actions():
        if str(a).startswith(prefix):
            s.apply(a)
            return a
    raise AssertionError(f"no legal action starts with {prefix!r}: {legal(s)}")


def dice(s, *values: int) -> None:
    it = iter(values)
    s.rng.d6 = lambda: next(it)


HELPERS = SimpleNamespace(
    fresh=fresh, blank=blank, put=put, give=give, set_unit=set_unit, legal=legal,
    kinds=kinds, do=do, first=first, touch=touch, dice=dice, new_inst=new_inst,
)


@pytest.fixture
def ge():
    """The Galactic Empires test helpers (see the module docstring)."""
    return HELPERS
