"""The batched Interstellar Ambitions set-up against the reference engine, step by step.

Random set-ups (masked uniform random actions from a seeded numpy Generator) are played
in the batch and, side by side, in reference states loaded with the same seeds; at every
step the legal mask must equal the reference's legal indices, and the seat to act and the
observation tensor (exactly, float32, as the PettingZoo environment gives it, from every
seat) must agree. Where the reference's round 1 begins, the batch's whole state (the RNG,
every pile in order, hands, tokens, resources, techs) must equal the reference's.
``STARLANES_BATCHED_GAMES=N`` plays N set-ups instead of the CI's few.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from starlanes.engine import BadOptionError, load
from starlanes.games.interstellar_ambitions.batched import BEYOND, PLAYERS, IABatch
from starlanes.games.interstellar_ambitions.batched_view import legal_mask, observation
from starlanes.interop import tensor_encoder

GAMES_ENV = "STARLANES_BATCHED_GAMES"


def _games(default: int) -> int:
    return int(os.environ.get(GAMES_ENV, default))


def _same_state(b: IABatch, i: int, st) -> None:
    """Every array of game ``i`` equals the reference state's field."""
    seed = st.game.seed
    assert int(b.rng[i]) == st.rng.getstate()[0], seed
    assert st.phase == "turn" and b.phase[i] == BEYOND
    assert b.start[i] == st.start and list(b.ambitions[i]) == list(st.ambitions)
    piles = [(b.shadow_deck, st.shadow_deck), (b.shadow_discard, st.shadow_discard),
             (b.tech_deck, st.tech_deck), (b.merc_deck, st.merc_deck),
             (b.emerg_deck, st.emerg_deck), (b.colony_deck, st.colony_deck)]
    piles += list(zip(b.planet_decks, st.planet_decks, strict=True))
    for pile, ref in piles:
        assert pile.cards[i, :pile.size[i]].tolist() == list(ref), seed
    assert b.planet_slots[i].tolist() == [list(x) for x in st.planet_slots]
    assert b.tech_slots[i].tolist() == list(st.tech_slots)
    assert b.merc_slots[i].tolist() == list(st.merc_slots)
    for seat in range(PLAYERS):
        counts = np.bincount(st.hands[seat], minlength=b.n_cards)
        assert b.hands[i, seat].tolist() == counts.tolist(), seed
        assert b.tokens[i, seat].tolist() == list(st.tokens[seat]), seed
        assert b.res[i, seat].tolist() == list(st.res[seat]), seed
        assert np.flatnonzero(b.known[i, seat]).tolist() == sorted(st.known[seat])
    assert b.tech_owner[i].tolist() == list(st.tech_owner)


def play_side_by_side(games: int, seed: int, counts: Counter, batch: int = 64) -> int:
    """Play ``games`` random set-ups ``batch`` at a time in the batch and the reference,
    checking every step (see the module docstring); the steps played. ``counts`` gains
    the decisions taken by verb."""
    steps = 0
    for start in range(0, games, batch):
        n = min(batch, games - start)
        seeds = [seed + start + i for i in range(n)]
        b = IABatch(n)
        b.reset(np.arange(n), seeds)
        states = [load("interstellar-ambitions", seed=s, players=PLAYERS).new_initial_state()
                  for s in seeds]
        space = states[0].game.action_space()
        encode = tensor_encoder(states[0].game)
        rng = np.random.default_rng(seed + start)
        live = list(range(n))
        while live:
            mask = legal_mask(b)
            cp = b.current_player()
            obs = [observation(b, np.full(n, k)) for k in range(PLAYERS)]
            actions = np.zeros(n, np.int64)
            still = []
            for i in live:
                st = states[i]
                if st.phase != "setup":
                    _same_state(b, i, st)
                    assert cp[i] == -1 and not mask[i].any()
                    continue
                still.append(i)
                assert cp[i] == st.current_player(), seeds[i]
                legal = space.legal_indices(st)
                got = np.flatnonzero(mask[i])
                if sorted(legal) != got.tolist():
                    keys = [" ".join(space.key_at(x)) for x in set(legal) ^ set(got.tolist())]
                    raise AssertionError(f"seed {seeds[i]}: masks differ at {keys}")
                for k in range(PLAYERS):
                    np.testing.assert_array_equal(obs[k][i], encode(st, k),
                                                  err_msg=f"seed {seeds[i]}, seat {k}")
                a = int(got[rng.integers(got.size)])
                actions[i] = a
                counts[space.key_at(a)[0]] += 1
                st.apply(legal[a])
            live = still
            b.step_indices(actions)
            steps += len(live)
    return steps


def test_batched_setups_match_the_reference_step_by_step():
    """IA-SET-02..24, IA-TRK-05..08, IA-RES-02: the same seeds and actions give the same
    masks, seats, tensors and, at the end of the set-up, the same state."""
    counts: Counter = Counter()
    n = _games(500)
    counts["steps"] = play_side_by_side(n, 9000, counts)
    print(f"\n{n} set-ups: {dict(counts)}")
    for verb in ("discard", "start-tech", "place", "advance", "take"):
        assert counts[verb] > 0, verb


def test_only_the_round_limit_option_is_supported():
    with pytest.raises(BadOptionError, match="supported: round_limit"):
        IABatch(2, ambitions="core")
    b = IABatch(1, round_limit=30)
    assert b.round_limit == 30


def test_same_seed_same_deal():
    """IA-SET-13/14: the deal depends on the seed only."""
    b = IABatch(4)
    b.reset(np.arange(4), [7, 7, 8, -3])
    assert (b.hands[0] == b.hands[1]).all() and b.start[0] == b.start[1]
    st = load("interstellar-ambitions", seed=-3, players=PLAYERS).new_initial_state()
    assert b.start[3] == st.start
