"""Rift Domination's tensor canvases never serve a stale or leaking part.

``tensor.encode`` keeps, per observer seat, the vector as last painted and redraws only the
parts of the state that changed (``tensor_tables``). Here states are stepped in place, as an
environment steps them, and observed by every seat after each action, each observation
compared with a brand-new encoder's (no canvas yet, so every part written from the state)
on a clone. Hidden information: a seat's observation of a determinisation for that seat
(other hands dealt anew, the deck reordered, unrevealed tile values permuted: RD-OCC-03,
ruling RD-OPEN-05) equals its observation of the real state, through the same canvases.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import starlanes
from starlanes.games.rift_domination import tensor
from starlanes.games.rift_domination.tensor_tables import Tables

GAME = "rift-domination"


def _fresh(state, seat):
    """The observation from a new encoder (no canvases) of a clone of ``state``."""
    clone = state.clone()
    return Tables(tensor.layout(clone.game), clone.board).encode(clone, seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_seat_after_each_apply_matches_a_fresh_encoder(players):
    """Each action changes some parts (units, resources, upgrades, cards, tiles, owners,
    the battle); every seat's canvas is brought up to date, whatever it last painted."""
    changed = dict.fromkeys(("units", "planet_upgrades", "discard", "planet_owner",
                             "tile_revealed", "battle", "hands"), 0)
    for seed in range(2):
        state = starlanes.load(GAME, players=players, seed=40 + seed).new_initial_state()
        rng = random.Random(seed)
        before = None
        for step in range(400):
            if state.is_terminal():
                break
            seats = range(players) if step % 3 == 0 else [state.current_player()]
            for seat in seats:
                got = tensor.encode(state, seat)
                assert np.array_equal(got, _fresh(state, seat)), (seed, step, seat)
            now = {k: getattr(state, k) for k in changed}
            now["units"] = dict(state.units)
            now["battle"] = state.battle is not None
            now = {k: [x[:] for x in v] if k == "hands" else v[:] if isinstance(v, list) else v
                   for k, v in now.items()}
            if before is not None:
                for k in changed:
                    changed[k] += now[k] != before[k]
            before = now
            state.apply(rng.choice(state.legal_actions()))
    # the playouts changed every kind of part between two observations
    assert all(changed.values()), changed


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seats_observation_hides_what_it_cannot_see(players):
    """A determinisation for ``seat`` redraws the other hands, the deck order and the
    unrevealed tile values; ``seat``'s observation of it, through the canvases that just
    painted the real state, is the same vector (and the real state's after it too)."""
    state = starlanes.load(GAME, players=players, seed=7).new_initial_state()
    rng = random.Random(players)
    differs = 0
    for step in range(500):
        if state.is_terminal():
            break
        if step % 5 == 0:
            seat = rng.randrange(players)
            real = tensor.encode(state, seat)
            other = state.determinize(seat, rng)
            differs += any(other.hands[s] != state.hands[s]
                           for s in range(players) if s != seat)
            assert np.array_equal(tensor.encode(other, seat), real), (step, seat)
            assert np.array_equal(tensor.encode(state, seat), real), (step, seat)
        state.apply(rng.choice(state.legal_actions()))
    assert differs, "no determinisation dealt another seat a different hand"


def test_own_hand_is_seen_and_other_hands_only_by_size():
    """Swapping the cards of two other seats' hands (sizes kept) leaves an observation
    unchanged; changing the observer's own cards changes it (RD-OCC-02: the hand is the
    observer's)."""
    state = starlanes.load(GAME, players=3, seed=3).new_initial_state()
    rng = random.Random(3)
    while not (all(state.hands) and len({tuple(h) for h in state.hands}) == 3):
        state.apply(rng.choice(state.legal_actions()))
    seen = tensor.encode(state, 0)
    swapped = state.clone()
    h1, h2 = swapped.hands[1], swapped.hands[2]
    k = min(len(h1), len(h2))
    swapped.hands[1] = h2[:k] + h1[k:]
    swapped.hands[2] = h1[:k] + h2[k:]
    assert np.array_equal(tensor.encode(swapped, 0), seen)
    mine = state.clone()
    other = next(c for c in sorted(state.content.cards) if c != state.hands[0][0])
    mine.hands[0] = [other, *state.hands[0][1:]]
    assert not np.array_equal(tensor.encode(mine, 0), seen)
    assert np.array_equal(tensor.encode(state, 0), seen)
