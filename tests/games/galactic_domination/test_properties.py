"""Property tests: random legal play never raises, capacity and fleet limits hold, replay
reproduces the digest, clones are independent, determinize keeps the seat's view."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.games.galactic_domination.fleet import MINER_MAX, TEAM_MAX, TYPE_MAX

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _check_invariants(s):
    load = [0] * 15
    for x in s.ships.values():
        if x[2] >= 0 and x[1] != 2:
            load[x[2]] += 1
        if x[2] >= 0:
            assert not s.holes[x[2]]
        assert 0 <= x[3] <= s.max_sh[x[1]] and 0 < x[4] <= s.max_hull[x[1]]
        assert x[5] >= 0
    assert max(load) <= 3  # GD-MAP-04
    for p in (0, 1):
        n = s.fleet_counts(p)
        assert sum(n) <= TEAM_MAX and n[2] <= MINER_MAX
        assert all(n[k] <= TYPE_MAX for k in (0, 1, 3, 4))
        assert s.minerals[p] >= 0 and s.dark[p] >= 0
    assert sum(s.holes) <= 5


@SETTINGS
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_random_play(seed, pick):
    rng = random.Random(pick)
    s = starlanes.load("galactic-domination", seed=seed, turn_limit=40).new_initial_state()
    steps = 0
    while not s.is_terminal() and steps < 1500:
        legal = s.legal_actions()
        assert legal
        s.apply(rng.choice(legal))
        _check_invariants(s)
        steps += 1
    assert starlanes.replay(s.record(), verify=True).digest() == s.digest()


@SETTINGS
@given(seed=st.integers(0, 10_000), n=st.integers(20, 300))
def test_clone_independent(seed, n):
    rng = random.Random(seed)
    s = starlanes.load("galactic-domination", seed=seed).new_initial_state()
    for _ in range(n):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    before = s.digest()
    c = s.clone()
    assert c.digest() == before
    for _ in range(50):
        if c.is_terminal():
            break
        c.apply(rng.choice(c.legal_actions()))
    assert s.digest() == before
    d = s.determinize(s.current_player() if not s.is_terminal() else 0, random.Random(1))
    seat = max(0, s.current_player())
    assert d.observation(seat) == s.observation(seat)
