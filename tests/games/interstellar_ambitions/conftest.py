"""Shared helpers for the Interstellar Ambitions tests (fixture ``ia``).

``fresh`` plays the game start with the first legal choice everywhere and returns the state
at the start player's first decision of round 1. ``turn`` puts a given seat in a given
step of its turn with an empty board (home world, no ships, no cards, no resources unless
given), so a test can build the exact position a rule talks about. ``dice`` scripts the
die rolls of the state's RNG.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import starlanes
from starlanes.engine import Decision
from starlanes.games.interstellar_ambitions import rules
from starlanes.games.interstellar_ambitions.actions import parse_token
from starlanes.games.interstellar_ambitions.rng import FastRng

GAME = "interstellar-ambitions"


class ScriptedRng(FastRng):
    """A FastRng whose ``d6`` returns scripted rolls first (then random ones)."""

    def __init__(self, seed: int, rolls: list[int]) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def d6(self) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return super().d6()

    def copy(self) -> ScriptedRng:
        o = ScriptedRng(0, self.rolls)
        o._x = self._x
        return o


def load(players: int = 3, seed: int = 1, **options):
    return starlanes.load(GAME, players=players, seed=seed, **options).new_initial_state()


def fresh(players: int = 3, seed: int = 1, **options):
    s = load(players, seed, **options)
    while s.phase == "setup":
        s.apply(s.legal_actions()[0])
    return s


def touch(s) -> None:
    s._legal = None


def act(s, text: str):
    """Apply the legal action whose notation is ``text``."""
    return s.apply_notation(text)


def notes(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def turn(players: int = 3, seat: int = 0, step: int = 0, round_: int = 2, seed: int = 1,
         **options):
    """A played set-up reduced to bare player areas; ``seat`` is about to run ``step``."""
    s = fresh(players, seed, **options)
    c = s.content
    s.stack.clear()
    s.combat = None
    for i in range(s.n):
        s.res[i] = (0, 0, 0, 0)
        s.ships[i] = ()
        s.shadow_deck.extend(s.hands[i])
        s.hands[i] = ()
        s.tokens[i] = (-1,) * 6
        s.planets[i] = ((c.homes[i], 4, ()),)
        s.medals[i] = (0, 0)
        s.known[i] = ()
    s.tech_owner = [-1] * len(c.tech_ids)
    s.seat, s.step, s.round, s.phase = seat, step, round_, "turn"
    s.start = 0
    touch(s)
    return s


def decide(s, seat: int, kind: str, data: tuple = ()) -> None:
    """Put a decision on top of the stack (the rest of the turn continues after it)."""
    s.stack.append(Decision(seat, kind, data))
    touch(s)


def run(s) -> None:
    """Run automatic steps until someone must decide."""
    rules.advance(s)
    touch(s)


def dice(s, rolls: list[int]) -> None:
    r = ScriptedRng(0, rolls)
    r._x = s.rng._x
    s.rng = r


def ship(s, seat: int, sid: str, damage: int = 0) -> None:
    s.ships[seat] = s.ships[seat] + ((s.content.ship_index[sid], damage),)
    touch(s)


def planet(s, seat: int, pid: str, level: int, markers: tuple = ()) -> None:
    c = s.content
    p = c.planet_index[pid]
    for t in range(4):
        s.planet_slots[t] = [-1 if x == p else x for x in s.planet_slots[t]]
        if p in s.planet_decks[t]:
            s.planet_decks[t].remove(p)
    s.planets[seat] = s.planets[seat] + ((p, level, markers),)
    s.colonised[p] = True
    touch(s)


def slot_planet(s, pid: str) -> None:
    """Put planet ``pid`` face up in the first slot of its type stack."""
    c = s.content
    p = c.planet_index[pid]
    t = c.planet_type[p]
    if p in s.planet_decks[t]:
        s.planet_decks[t].remove(p)
    old = s.planet_slots[t][0]
    if old >= 0 and old != p:
        s.planet_decks[t].append(old)
    s.planet_slots[t][0] = p
    touch(s)


def tokens(s, seat: int, *names: str) -> None:
    codes = [parse_token(n) for n in names]
    s.tokens[seat] = tuple(codes + [-1] * (6 - len(codes)))
    touch(s)


def hand(s, seat: int, *cards: str) -> None:
    c = s.content
    idx = [c.shadow_index[x] for x in cards]
    for x in idx:
        if x in s.shadow_deck:
            s.shadow_deck.remove(x)
    s.hands[seat] = tuple(idx)
    touch(s)


def tech(s, seat: int, tid: str, owner: bool = True) -> None:
    t = s.content.tech_index[tid]
    s.known[seat] = s.known[seat] + (t,)
    if owner:
        s.tech_owner[t] = seat
    if t in s.tech_slots:
        s.tech_slots[s.tech_slots.index(t)] = -1
    if t in s.tech_deck:
        s.tech_deck.remove(t)
    touch(s)


@pytest.fixture
def ia():
    return SimpleNamespace(
        load=load, fresh=fresh, turn=turn, touch=touch, act=act, notes=notes, decide=decide,
        run=run, dice=dice, ship=ship, planet=planet, slot_planet=slot_planet,
        tokens=tokens, hand=hand, tech=tech,
    )
