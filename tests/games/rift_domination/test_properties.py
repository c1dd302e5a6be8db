"""Property tests: random legal play over seeds and 2-6 players keeps every invariant.

Checked after every action: resources never negative, at most the slot count of upgrades
on every planet (RD-UPG-01/02), at most one warp per system (RD-UPG-10), carried units only
move with ships that have room for them (RD-UNIT-02), observations hide other hands and
unflipped tile values and are JSON. At the end of each run: the record replays to the same
digest, clones are independent, determinisation keeps what the seat can see.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import starlanes
from starlanes.games.rift_domination.actions import JoinAttack, Move
from starlanes.games.rift_domination.movement import _warp_toll
from starlanes.games.rift_domination.turn import slots

GAME = "rift-domination"
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
PLAYERS = st.integers(min_value=2, max_value=6)


def _new(players, seed, **options):
    return starlanes.load(GAME, players=players, seed=seed, **options).new_initial_state()


def _check_invariants(s):
    assert all(r >= 0 for r in s.resources), s.resources
    assert all(v >= 0 for v in s.vp)
    b = s.board
    warps: dict[int, int] = {}
    for p in b.in_play_planets:
        ups = s.planet_upgrades[p]
        assert len(ups) <= slots(s, p), (b.planet_ids[p], ups)
        if ups:
            assert s.planet_owner[p] >= 0, "upgrades only on controlled planets"
        if "warp" in ups:
            sys = b.planet_system[p]
            warps[sys] = warps.get(sys, 0) + ups.count("warp")
    if s.options["warp_limit"] == "system":
        assert all(n <= 1 for n in warps.values()), warps
    for u in s.units.values():
        assert 0 <= u.loc < len(b.names)
        if u.landed:
            assert b.planet_of[u.loc] >= 0, "landed units are on a planet"


def _check_carrying(s, before, action):
    """Units that need carrying moved only together with ships that have room for them."""
    if not isinstance(action, (Move, JoinAttack)):
        return
    moved_ships, moved_cargo = [], []
    for uid, u in before.items():
        after = s.units.get(uid)
        if after is None or after.loc == u.loc:
            continue
        st_ = s.stats[u.owner][u.kind]
        (moved_cargo if st_.used_capacity > 0 else moved_ships).append((u, after))
    if not moved_cargo:
        return
    assert moved_ships, "cargo moved without a ship"
    room = sum(s.stats[u.owner][u.kind].capacity for u, _ in moved_ships)
    need = sum(s.stats[u.owner][u.kind].used_capacity for u, _ in moved_cargo)
    assert need <= room
    ship_moves = {(u.loc, a.loc) for u, a in moved_ships}
    for u, a in moved_cargo:
        assert (u.loc, a.loc) in ship_moves, "cargo goes where its ships go"
    for u, a in moved_ships:
        # each move costs 1 movement point, plus an enemy warp's toll on entering its
        # system (RD-UPG-07)
        toll = _warp_toll(s, u.owner, u.loc, a.loc)
        assert u.mp - 1 - toll <= a.mp <= u.mp - 1, "each move costs 1 movement point"


def _check_observation(s, seat):
    obs = s.observation(seat)
    json.dumps(obs)
    for p in obs["players"]:
        if p["seat"] != seat:
            assert p["hand"] is None
        else:
            assert p["hand"] == sorted(s.hands[seat])
        assert p["hand_size"] == len(s.hands[p["seat"]])
    ids = s.board.planet_ids
    for entry in obs["planets"]:
        p = ids.index(entry["id"])
        if not s.tile_revealed[p]:
            assert entry["value"] is None
    text = json.dumps({k: v for k, v in obs.items() if k != "discard"})
    others = {c for o in range(s.n) if o != seat for c in s.hands[o]}
    own = set(s.hands[seat]) | set(s.discard)
    for card in others - own:
        assert f'"{card}"' not in text, f"{card} of another hand leaks"


def _random_play(s, rng, steps, every=1):
    for i in range(steps):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        assert acts, "a live state always has a legal action"
        a = acts[rng.randrange(len(acts))]
        before = dict(s.units)
        s.apply(a)
        _check_invariants(s)
        _check_carrying(s, before, a)
        if i % every == 0:
            _check_observation(s, rng.randrange(s.n))


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, agent_seed=st.integers(0, 10**6))
def test_random_play_keeps_the_invariants(seed, players, agent_seed):
    """RD-UPG-01 / RD-UPG-02 / RD-UPG-10 / RD-UNIT-02: random legal play never raises and
    keeps every invariant."""
    s = _new(players, seed, round_limit=15)
    _random_play(s, random.Random(agent_seed), 2000, every=3)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_random_play_with_options(seed, players):
    """RD-OCC-08 / RD-UPG-10: the options keep the invariants too."""
    s = _new(players, seed, round_limit=10, warp_limit="player", first_round_no_instants=True)
    _random_play(s, random.Random(seed), 1200, every=5)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS, steps=st.integers(0, 1200))
def test_record_replays_to_the_same_digest(seed, players, steps):
    s = _new(players, seed, round_limit=10)
    _random_play(s, random.Random(seed ^ 0x5A5A), steps, every=50)
    again = starlanes.replay(s.record())
    assert again.digest() == s.digest()
    assert [str(a) for a in again.history] == [str(a) for a in s.history]


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS, steps=st.integers(0, 800))
def test_clone_is_independent(seed, players, steps):
    s = _new(players, seed, round_limit=10)
    rng = random.Random(seed)
    _random_play(s, rng, steps, every=50)
    d, obs = s.digest(), s.observation(0)
    c = s.clone()
    assert c.digest() == d
    _random_play(c, rng, 40, every=50)
    assert s.digest() == d and s.observation(0) == obs


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS, steps=st.integers(0, 800), det_seed=st.integers(0, 999))
def test_determinize_keeps_what_the_seat_sees(seed, players, steps, det_seed):
    s = _new(players, seed, round_limit=10)
    _random_play(s, random.Random(seed), steps, every=50)
    seat = (seed + steps) % players
    d = s.digest()
    t = s.determinize(seat, random.Random(det_seed))
    assert s.digest() == d
    assert t.hands[seat] == s.hands[seat]
    assert [len(h) for h in t.hands] == [len(h) for h in s.hands]
    assert len(t.deck) == len(s.deck)
    assert sorted(t.deck + [c for o in range(players) if o != seat for c in t.hands[o]]) == \
        sorted(s.deck + [c for o in range(players) if o != seat for c in s.hands[o]])
    assert t.observation(seat) == s.observation(seat)
    assert t.legal_actions() == s.legal_actions() or t.current_player() != seat
    _random_play(t, random.Random(det_seed), 30, every=50)


def test_a_determinised_deck_is_drawn_at_random():
    """A determinisation keeps the unseen OCC-cards as an unordered deck and each draw takes
    one at random from the reseeded stream: every card comes from that deck, none twice, and
    the first draw varies between determinisations (the real deck order never shows)."""
    s = _new(2, 4, round_limit=10)
    _random_play(s, random.Random(4), 200, every=50)
    rng = random.Random(1)
    firsts = set()
    for _ in range(30):
        t = s.determinize(0, rng)
        assert t.deck_unordered and not s.deck_unordered
        pool = sorted(t.deck)
        drawn = [t.draw_card(0) for _ in range(len(t.deck))]
        assert sorted(drawn) == pool and not t.deck
        firsts.add(drawn[0])
    assert len(firsts) > 3
