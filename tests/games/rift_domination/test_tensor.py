"""Rift Domination's observation tensor against its first, plain-Python encoder.

``tensor.encode`` is built from index tables fixed per content and board; the reference
below is the first encoder (one Python write per feature), kept verbatim as the oracle:
over random states at every player count 2-6 (battles, landings, revealed tiles, hands,
determinisations, the Timewarper's wormholes) and every seat, both give the same vector,
value for value, with the same shape and dtype.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import starlanes
from starlanes.games.rift_domination import tensor
from starlanes.games.rift_domination.board import WORMHOLE, board_for

PHASES = ("setup_faction", "setup_home", "setup_tiles", "turn_start", "build", "move",
          "recruit", "turn_end", "between_turns", "over")


class _RefLayout:
    """Named offsets of one content's tensor."""

    def __init__(self, game) -> None:
        c = game.content
        self.board = board_for(game, wormholes=True)
        self.slots = type(game).max_players
        self.units = tuple(sorted(c.units))
        self.upgrades = tuple(sorted(c.upgrades))
        self.cards = tuple(sorted(c.cards))
        self.factions = tuple(sorted(c.factions))
        self.tiles = tuple(sorted({t.kind for t in c.tiles.values()}))
        self.kinds = tuple(sorted({*self.units, *self.upgrades, "outpost"}))
        self.points = self.board.names
        self.planets = self.board.planet_ids
        nu, nup, nt = len(self.units), len(self.upgrades), len(self.tiles)
        self.seat_size = 1 + len(self.factions) + 5 + nu + len(self.planets)
        self.planet_size = 1 + (1 + self.slots) + nup + nt + 3
        sizes = [
            ("head", len(PHASES) + 5 + nt),
            ("seats", self.slots * self.seat_size),
            ("hand", len(self.cards)),
            ("discard", len(self.cards)),
            ("planets", len(self.planets) * self.planet_size),
            ("space", len(self.points) * self.slots * (nu + 2)),
            ("landed", len(self.planets) * self.slots * nu),
            ("battle", 2 + len(self.points) + 2 * self.slots + 2 * len(self.kinds) * 3),
        ]
        self.at: dict[str, int] = {}
        pos = 0
        for name, size in sizes:
            self.at[name] = pos
            pos += size
        self.size = pos
        self.point_index = {n: i for i, n in enumerate(self.points)}
        self.unit_index = {u: i for i, u in enumerate(self.units)}
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.card_index = {k: i for i, k in enumerate(self.cards)}
        self.upgrade_index = {k: i for i, k in enumerate(self.upgrades)}
        self.tile_index = {k: i for i, k in enumerate(self.tiles)}
        self.faction_index = {k: i for i, k in enumerate(self.factions)}


def reference_encode(state, seat):
    """The first encoder, verbatim but for its name and this layout."""
    lay = _RefLayout(state.game)
    out = np.zeros(lay.size, dtype=np.float32)
    n = state.n
    slot = [(s - seat) % n for s in range(n)]
    b = state.board
    # 1. head
    p = lay.at["head"]
    if state.phase in PHASES:
        out[p + PHASES.index(state.phase)] = 1
    p += len(PHASES)
    out[p] = float(state.current_player() == seat)
    out[p + 1] = float(state.seat == seat)
    out[p + 2] = state.round
    out[p + 3] = state.target_vp
    out[p + 4] = len(state.deck)
    if state.tile_in_hand:
        out[p + 5 + lay.tile_index[state.tile_in_hand[0]]] = 1
    # 2. seats
    planet_index = {name: i for i, name in enumerate(lay.planets)}
    for s in range(n):
        q = lay.at["seats"] + slot[s] * lay.seat_size
        out[q] = 1
        q += 1
        if state.faction[s]:
            out[q + lay.faction_index[state.faction[s]]] = 1
        q += len(lay.factions)
        out[q:q + 4] = (state.resources[s], state.income[s], state.vp[s], len(state.hands[s]))
        q += 5
        for u in state.roster[s]:
            out[q + lay.unit_index[u]] = 1
        q += len(lay.units)
        if state.home[s] >= 0:
            out[q + planet_index[b.planet_ids[state.home[s]]]] = 1
    # 3. own hand, discard pile
    for cid in state.hands[seat]:
        out[lay.at["hand"] + lay.card_index[cid]] += 1
    for cid in state.discard:
        out[lay.at["discard"] + lay.card_index[cid]] += 1
    # 4. planets
    in_play = set(b.in_play_planets)
    nup = len(lay.upgrades)
    for pi, pid in enumerate(b.planet_ids):
        q = lay.at["planets"] + planet_index[pid] * lay.planet_size
        if pi not in in_play:
            continue
        out[q] = 1
        owner = state.planet_owner[pi]
        out[q + 1 + (0 if owner < 0 else 1 + slot[owner])] = 1
        q += 2 + lay.slots
        for u in state.planet_upgrades[pi]:
            out[q + lay.upgrade_index[u]] += 1
        q += nup
        if state.tile_kind[pi]:
            out[q + lay.tile_index[state.tile_kind[pi]]] = 1
        q += len(lay.tiles)
        if state.tile_revealed[pi]:
            out[q] = state.tile_value[pi]
            out[q + 1] = 1
        out[q + 2] = float(b.planet_huge[pi])
    # 5-6. units
    nu = len(lay.units)
    for u in state.units.values():
        k = lay.unit_index[u.kind]
        if u.landed and b.planet_of[u.loc] >= 0:
            pl = planet_index[b.planet_ids[b.planet_of[u.loc]]]
            out[lay.at["landed"] + (pl * lay.slots + slot[u.owner]) * nu + k] += 1
            continue
        q = lay.at["space"] + (lay.point_index[b.names[u.loc]] * lay.slots
                               + slot[u.owner]) * (nu + 2)
        out[q + k] += 1
        out[q + nu] += u.wounds
        out[q + nu + 1] += u.mp
    # 7. battle
    bt = state.battle
    if bt is not None:
        q = lay.at["battle"]
        out[q] = 1
        out[q + 1] = float(bool(bt.ground))
        out[q + 2 + lay.point_index[b.names[bt.point]]] = 1
        q += 2 + len(lay.points)
        out[q + slot[bt.seats[0]]] = 1
        out[q + lay.slots + slot[bt.seats[1]]] = 1
        q += 2 * lay.slots
        for f in bt.fighters.values():
            if not f.alive or f.kind not in lay.kind_index:
                continue
            r = q + (f.side * len(lay.kinds) + lay.kind_index[f.kind]) * 3
            out[r] += 1
            out[r + 1] += f.lp
            out[r + 2] += f.sh
    return out


GAME = "rift-domination"
_SEEN = ("states", "battle", "landed", "revealed", "discard", "wormholes", "on_wormhole")


def _playout_states(players, seed, cap, **options):
    """Every state of one random playout of at most ``cap`` actions."""
    state = starlanes.load(GAME, players=players, seed=seed, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(cap):
        yield state
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))
    yield state


def _check(state, seat, seen):
    want = reference_encode(state, seat)
    got = tensor.encode(state, seat)
    assert got.dtype == np.float32 and got.shape == want.shape == tensor.shape(state.game)
    bad = np.flatnonzero(got != want)
    assert not bad.size, (state.phase, seat, bad[:10], got[bad[:10]], want[bad[:10]])
    seen["states"] += 1
    seen["battle"] += state.battle is not None
    seen["landed"] += any(u.landed for u in state.units.values())
    seen["revealed"] += any(state.tile_revealed)
    seen["discard"] += bool(state.discard)
    seen["wormholes"] += state.board.wormholes
    seen["on_wormhole"] += any(state.board.kind[u.loc] == WORMHOLE for u in state.units.values())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_encode_matches_the_reference_on_random_states(players):
    seen = dict.fromkeys(_SEEN, 0)
    rng = random.Random(players)
    for seed in range(3):
        for k, state in enumerate(_playout_states(players, 100 * players + seed, cap=700)):
            if k % 3:
                continue
            for seat in range(players):
                _check(state, seat, seen)
            if k % 9 == 0 and not state.is_terminal():
                seat = rng.randrange(players)
                _check(state.determinize(seat, rng), seat, seen)
    # the playouts reached every part of the layout
    assert seen["states"] > 300
    for part in ("battle", "landed", "revealed", "discard"):
        assert seen[part], (part, seen)


def test_encode_matches_the_reference_with_the_timewarpers_wormholes():
    """Units on wormhole ends (RD-MOV-15) sit at points the board without wormholes lacks."""
    seen = dict.fromkeys(_SEEN, 0)
    factions = "timewarper,vespians,the_void,iron_bastion,xith_swarm"
    for players in (2, 5):
        for seed in range(4):
            opts = {"factions": ",".join(factions.split(",")[:players])}
            for k, state in enumerate(_playout_states(players, seed, cap=600, **opts)):
                if k % 4 == 0:
                    _check(state, k % players, seen)
    assert seen["wormholes"] and seen["battle"] and seen["on_wormhole"], seen


def test_encode_writes_into_a_fresh_array_each_call():
    """Callers keep the vector they got: a later encode does not change it."""
    states = list(_playout_states(4, 7, cap=200))
    first = tensor.encode(states[50], 0)
    kept = first.copy()
    tensor.encode(states[-1], 2)
    assert np.array_equal(first, kept)
    assert not np.shares_memory(first, tensor.encode(states[50], 0))


def test_encode_matches_the_reference_in_any_order(monkeypatch):
    """The canvases only shorten the work: states of different games met in shuffled
    order, observers changing every call, with streams taken over every few encodes (a
    low ``STREAMS``), give the reference's vector every time."""
    from starlanes.games.rift_domination import tensor_tables

    monkeypatch.setattr(tensor_tables, "STREAMS", 2)
    states = []
    for seed in (11, 12):
        states += [s.clone() for k, s in enumerate(_playout_states(4, seed, cap=500))
                   if k % 5 == 0]
    rng = random.Random(5)
    rng.shuffle(states)
    seen = dict.fromkeys(_SEEN, 0)
    for state in states:
        _check(state, rng.randrange(4), seen)
    assert seen["battle"] and seen["landed"], seen


def test_encode_matches_the_reference_for_states_stepped_in_turn():
    """Several states stepped in place in turn (as a vector of environments does), with
    clones of them encoded in between, each observed by its seat to act and another."""
    lines = [starlanes.load(GAME, players=p, seed=20 + p).new_initial_state()
             for p in (3, 3, 4)]
    rng = random.Random(9)
    seen = dict.fromkeys(_SEEN, 0)
    for step in range(900):
        state = lines[step % len(lines)]
        if state.is_terminal():
            continue
        seat = max(state.current_player(), 0)
        _check(state, seat, seen)
        if step % 7 == 0:
            _check(state.clone(), rng.randrange(state.n), seen)
        state.apply(rng.choice(state.legal_actions()))
    assert seen["states"] > 900 and seen["battle"], seen
