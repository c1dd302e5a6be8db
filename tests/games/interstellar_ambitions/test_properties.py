"""Property tests: random legal play, limits, hidden information, replay, clones,
determinisation."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.engine import replay
from starlanes.games.interstellar_ambitions.common import HAND_LIMIT, MAX_PLANETS, MAX_SHIPS

FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def play(players: int, seed: int, steps: int, check=None):
    s = starlanes.load("interstellar-ambitions", players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        assert acts
        s.apply(rng.choice(acts))
        if check:
            check(s)
    return s


def limits(s) -> None:
    for i in range(s.n):
        assert all(x >= 0 for x in s.res[i])
        assert len(s.planets[i]) <= MAX_PLANETS
        assert len(s.ships[i]) <= MAX_SHIPS
        assert len(s.hands[i]) <= HAND_LIMIT or s.phase == "setup"


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000))
def test_random_play_never_raises_and_keeps_limits(players: int, seed: int) -> None:
    """Random legal play never raises; no negative resources; 8 planets / 8 ships / 7 cards."""
    play(players, seed, 1500, limits)


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 600))
def test_observation_hides_others(players: int, seed: int, steps: int) -> None:
    """Other hands and face-down decks never appear in another seat's observation."""
    s = play(players, seed, steps)
    c = s.content
    for seat in range(players):
        obs = s.observation(seat)
        for p in obs["players"]:
            if p["seat"] != seat:
                assert p["hand"] is None
            else:
                assert sorted(p["hand"]) == sorted(c.shadow_ids[x] for x in s.hands[seat])
        assert set(obs["deck_sizes"]) >= {"shadow", "tech", "merc", "emergency", "colony"}
        text = repr(obs)
        assert "shadow_deck" not in text and "tech_deck" not in text
        if s.offer and s.stack and s.stack[-1].seat != seat:
            assert obs["offer"] is None


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 800))
def test_replay_reproduces_digest(players: int, seed: int, steps: int) -> None:
    """replay(record()) reproduces the digest."""
    s = play(players, seed, steps)
    again = replay(s.record())
    assert again.digest() == s.digest()


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 500))
def test_clone_independent(players: int, seed: int, steps: int) -> None:
    """A clone is independent: playing on it leaves the original's digest unchanged."""
    s = play(players, seed, steps)
    if s.is_terminal():
        return
    d = s.digest()
    c = s.clone()
    assert c.digest() == d
    rng = random.Random(seed)
    for _ in range(50):
        if c.is_terminal():
            break
        c.apply(rng.choice(c.legal_actions()))
    assert s.digest() == d


@FAST
@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(50, 700))
def test_determinize_consistent(players: int, seed: int, steps: int) -> None:
    """determinize keeps what the seat knows and resamples only hidden cards."""
    s = play(players, seed, steps)
    if s.is_terminal():
        return
    seat = s.current_player()
    d = s.determinize(seat, random.Random(seed))
    assert d.observation(seat)["players"] == s.observation(seat)["players"]
    assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
    assert d.hands[seat] == s.hands[seat]
    pool = sorted(s.shadow_deck + [x for i, h in enumerate(s.hands) if i != seat for x in h]
                  + ([] if not s.offer or s.stack[-1].seat == seat else list(s.offer)))
    pool2 = sorted(d.shadow_deck + [x for i, h in enumerate(d.hands) if i != seat for x in h]
                   + ([] if not d.offer or d.stack[-1].seat == seat else list(d.offer)))
    assert pool == pool2
    rng = random.Random(1)
    for _ in range(100):  # the determinised state plays on
        if d.is_terminal():
            break
        d.apply(rng.choice(d.legal_actions()))


def test_secret_order_hidden_and_resampled() -> None:
    """The secret combat order is hidden from the opponent until both have committed."""
    found = 0
    for seed in range(60):
        s = starlanes.load("interstellar-ambitions", players=3, seed=seed).new_initial_state()
        rng = random.Random(seed)
        for _ in range(4000):
            if s.is_terminal():
                break
            cb = s.combat
            if cb is not None and cb.secret.choices and not cb.secret.revealed:
                att, dfn = cb.seats
                view = s.observation(dfn)["combat"]["orders"][str(att)]
                assert all(v == "face-down" or cb.open for v in view)
                assert s.observation(att)["combat"]["orders"][str(att)] != []
                d = s.determinize(dfn, random.Random(seed))
                assert sorted(d.combat.secret.choices[att]) == sorted(cb.secret.choices[att])
                found += 1
                break
            s.apply(rng.choice(s.legal_actions()))
    assert found
