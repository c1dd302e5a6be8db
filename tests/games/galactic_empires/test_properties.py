"""Property tests: random legal play, hidden information, replay, clone and
determinisation (engine contract), plus invariants of the rules."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.engine import IllegalActionError, replay

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
GAMES = st.tuples(st.integers(0, 10**6), st.integers(2, 4),
                  st.sampled_from(["basic", "standard"]))


def _state(seed, players, structure):
    return starlanes.load("galactic-empires", players=players, seed=seed,
                          structure=structure).new_initial_state()


def _locations(s) -> list[int]:
    where = [c for d in s.decks for c in d] + [c for d in s.discards for c in d]
    where += [c for h in s.hands for c in h] + [c for r in s.reserve for c in r]
    where += list(s.units)
    # A card being resolved lives in the pending step (4b-4d): the played card and the
    # target's reaction card; a counter card is already in the discard pile.
    p = s.pending
    if p:
        if p[0] == "card":
            where.append(p[1])
        if len(p) > 4 and p[4] >= 0:
            where.append(p[4])
    return where


def _check(s) -> None:
    assert min(s.pool) >= 0
    assert 0 <= s.plays <= 3
    assert all(h >= 0 for h in s.hq)
    for u in s.units.values():
        assert min(u.sdmg, u.dmg, u.rdmg, u.ammo, u.charge, u.perm) >= 0
        assert u.perm <= u.dmg
    where = _locations(s)
    assert sorted(where) == list(range(len(s.defs))), "a card is in two places or lost"


@SETTINGS
@given(GAMES)
def test_random_play_never_raises_and_keeps_invariants(game):
    """Random legal play: legal actions are never empty before the end, every one
    applies, no negative points, at most three card plays, every card in one place."""
    seed, players, structure = game
    s = _state(seed, players, structure)
    rng = random.Random(seed)
    for _ in range(600):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        assert acts
        s.apply(rng.choice(acts))
        _check(s)


@SETTINGS
@given(GAMES)
def test_observation_hides_hands_reserve_and_decks(game):
    """Another seat's hand, reserve and deck order never appear in an observation."""
    seed, players, structure = game
    s = _state(seed, players, structure)
    rng = random.Random(seed)
    for _ in range(rng.randrange(50, 300)):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(players):
        obs = s.observation(seat)
        json.dumps(obs)
        for p in obs["players"]:
            if p["seat"] != seat:
                assert p["hand"] is None and p["reserve"] is None
            else:
                assert p["hand"] == [s.name(c) for c in s.hands[seat]]
        assert "decks" not in obs and obs["deck_sizes"] == [len(d) for d in s.decks]
        text = json.dumps(obs)
        for other in range(players):
            if other != seat:
                public = {s.name(c) for d in s.discards for c in d} | {
                    s.name(i) for i in s.units}
                for c in s.hands[other] + s.reserve[other]:
                    if s.name(c) not in public:
                        assert f'"{s.name(c)}"' not in text


@SETTINGS
@given(GAMES)
def test_replay_clone_and_determinize(game):
    """replay(record()) reproduces the digest; a clone is independent; determinize keeps
    what the seat knows and resamples only hidden cards."""
    seed, players, structure = game
    s = _state(seed, players, structure)
    rng = random.Random(seed)
    for _ in range(rng.randrange(20, 250)):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    rec = s.record()
    assert replay(rec).digest() == s.digest()
    before = s.digest()
    c = s.clone()
    for _ in range(30):
        if c.is_terminal():
            break
        c.apply(rng.choice(c.legal_actions()))
    assert s.digest() == before
    seat = s.current_player() if not s.is_terminal() else 0
    d = s.determinize(seat, random.Random(seed))
    assert d.hands[seat] == s.hands[seat] and d.reserve[seat] == s.reserve[seat]
    assert d.units == s.units and d.discards == s.discards
    assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
    assert sorted(_locations(d)) == sorted(_locations(s))
    if structure == "standard":
        for o in range(players):
            assert sorted(d.decks[o] + d.hands[o] * (o != seat) + d.reserve[o] * (o != seat)) \
                == sorted(s.decks[o] + s.hands[o] * (o != seat) + s.reserve[o] * (o != seat))
    assert s.digest() == before


def test_illegal_action_changes_nothing():
    """An illegal action raises and leaves the state as it was."""
    s = _state(3, 2, "basic")
    before = s.digest()
    from starlanes.games.galactic_empires.actions import GEAction

    try:
        s.apply(GEAction("draw", 5, label="draw 5"))
    except IllegalActionError:
        pass
    else:  # pragma: no cover
        raise AssertionError("illegal action applied")
    assert s.digest() == before


def test_games_end_and_report_round():
    """Games always end (turn cap at worst) and expose end_reason and round."""
    s = starlanes.load("galactic-empires", players=2, seed=5, turn_cap=20).new_initial_state()
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    assert s.end_reason in ("conquest", "turn_cap") and s.round >= 1
    assert sum(s.returns()) == 1.0


def _salvaged(ge):
    """Seat 0 salvages a battleship from the discard pile (seen by all) into a hand of 5,
    with 3 cards in reserve; seat 1 holds 4 cards and 2 in reserve."""
    s = ge.blank()
    s.hands[0] = list(s.decks[0][-5:])
    s.reserve[0] = list(s.decks[0][-8:-5])
    s.hands[1] = list(s.decks[0][-12:-8])
    s.reserve[1] = list(s.decks[0][-14:-12])
    del s.decks[0][-14:]
    wreck = ge.new_inst(s, "arg_battleship")
    s.discards[0].append(wreck)
    (salv,) = ge.give(s, 0, "occ_salvage")
    ge.do(s, f"play occ_salvage#{salv}")
    assert wreck in s.hands[0]
    return s, wreck


def test_determinize_keeps_known_facts_only(ge):
    """Determinisation (ruling GE-OPEN-04 reserve fleet, GE-REM-08 transporters): a ship
    seat 0 salvaged from the discard pile (seen by all) stays in his hand in every sample
    until he swaps with his reserve; after a swap ``determinize(1)`` keeps it in his hand
    or his reserve, never knows which card moved, and shows neither the swapped cards nor
    their names in the history, while ``determinize(0)`` keeps his hand, reserve and swap
    exactly."""
    s, wreck = _salvaged(ge)
    assert all(wreck in s.determinize(1, random.Random(k)).hands[0] for k in range(20))
    swap = next(a for a in s.legal_actions() if a.kind == "swap" and a.a != wreck)
    s.apply(swap)
    hand0, res0 = list(s.hands[0]), list(s.reserve[0])
    moved = in_reserve = 0
    for k in range(40):
        d = s.determinize(1, random.Random(k))
        assert wreck in d.hands[0] + d.reserve[0]
        in_reserve += wreck in d.reserve[0]
        assert d.hands[1] == s.hands[1] and d.reserve[1] == s.reserve[1]
        assert len(d.hands[0]) == len(hand0) and len(d.reserve[0]) == len(res0)
        assert str(d.history[-1]) == "swap" and str(s.history[-1]) == str(swap)
        moved += d.hands[0] != hand0 or d.reserve[0] != res0
        own = s.determinize(0, random.Random(k))
        assert own.hands[0] == hand0 and own.reserve[0] == res0
        assert str(own.history[-1]) == str(swap)
    assert moved > 30 and 0 < in_reserve < 40


def test_which_card_was_swapped_does_not_change_what_others_know(ge):
    """Ruling GE-OPEN-04: the others see a swap, not which cards. Swapping the salvaged
    ship itself or another card leaves seat 1 the same facts: the ship is somewhere in
    seat 0's hand or reserve (its determinised worlds put it in both)."""
    s, wreck = _salvaged(ge)
    swaps = [a for a in s.legal_actions() if a.kind == "swap"]
    assert any(a.a == wreck for a in swaps) and any(a.a != wreck for a in swaps)
    for a in (next(a for a in swaps if a.a == wreck), next(a for a in swaps if a.a != wreck)):
        b = s.clone()
        b.apply(a)
        assert (b.known, b.held) == ([], [wreck])
        places = {wreck in b.determinize(1, random.Random(k)).reserve[0] for k in range(40)}
        assert places == {True, False}
        assert all(wreck in w.hands[0] + w.reserve[0]
                   for w in (b.determinize(1, random.Random(k)) for k in range(40)))


def test_elimination_discards_hand_and_reserve_in_one_order(ge):
    """Ruling GE-OPEN-11 (an eliminated player's hand and reserve are discarded) with
    GE-OPEN-04: the discard pile shows the cards in one order whichever card a secret swap
    moved, so it does not tell which."""
    from starlanes.games.galactic_empires.endturn import eliminate

    s, _wreck = _salvaged(ge)
    piles = set()
    for a in [a for a in s.legal_actions() if a.kind == "swap"][:6]:
        b = s.clone()
        b.apply(a)
        eliminate(b, 0, 1)
        piles.add(tuple(b.discards[0]))
    assert len(piles) == 1
