"""Galactic Domination's action numbering and observation tensor against their plain
reference definitions: the fast paths (cached slot layout, memoised keys, precomputed
ship rows) must give the same indices and the same tensors, on many random states."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

from starlanes.engine import ActionIndexError, HiddenAction, load  # noqa: E402
from starlanes.games.galactic_domination import action_space as gd_space  # noqa: E402
from starlanes.games.galactic_domination import actions as A  # noqa: E402
from starlanes.games.galactic_domination import tensor as gd_tensor  # noqa: E402
from starlanes.games.galactic_domination.action_space import slot_cap  # noqa: E402
from starlanes.games.galactic_domination.state import (  # noqa: E402
    AIM,
    AP,
    ATT,
    CHG,
    HULL,
    KIND,
    OWNER,
    SEC,
    SH,
)

# Keys and the indices they had when the numbering was introduced: a family's first and
# last key and two keys drawn inside it, for every family (standard content, 2 players).
RECORDED = [
    ("end", 0), ("place command R1", 1), ("place miner G1", 37), ("place raider R2", 62),
    ("place raider P3", 75), ("build command R1", 76), ("build explorer P3", 105),
    ("build destroyer G3", 129), ("build raider P3", 150), ("move command0 R1", 151),
    ("move command0 O3", 156), ("move raider0 G2", 608), ("move raider4 P3", 675),
    ("attack command0 command0", 676), ("attack miner5 explorer0", 1206),
    ("attack miner13 raider3", 1514), ("attack raider4 raider4", 1900),
    ("attach command0", 1901), ("attach miner4", 1915), ("attach miner5", 1916),
    ("attach raider4", 1935), ("warp command0", 1936), ("warp miner8", 1954),
    ("warp raider4", 1970), ("charge command0 R1", 1971), ("charge miner10 B1", 2280),
    ("charge miner12 P2", 2314), ("charge raider4 P3", 2495), ("fire command0", 2496),
    ("fire explorer4", 2505), ("fire miner9", 2515), ("fire raider4", 2530),
    ("charge command0", 2531), ("charge command1", 2532), ("charge miner4", 2545),
    ("charge raider4", 2565), ("jump command0 R1", 2566), ("jump command1 O3", 2586),
    ("jump miner7 O2", 2825), ("jump raider4 P3", 3090), ("arrive command0 R1", 3091),
    ("arrive command1 P2", 3119), ("arrive miner0 G2", 3248), ("arrive raider4 P3", 3615),
    ("sacrifice command0", 3616), ("sacrifice destroyer4", 3645),
    ("sacrifice raider4", 3650),
]


def reference_key(state, action):
    """The key by definition (module docstring of ``action_space``): a ship is its unit
    type and its rank among its owner's ships of that type by increasing ship number."""
    if isinstance(action, (A.EndTurn, A.Place, A.Build)):
        return tuple(str(action).split())
    rank: dict[int, str] = {}
    count: dict[tuple[int, int], int] = {}
    for uid in sorted(state.ships):
        x = state.ships[uid]
        n = count.get((x[OWNER], x[KIND]), 0)
        count[(x[OWNER], x[KIND])] = n + 1
        rank[uid] = f"{state.content.units[x[KIND]].id}{n}"
    if isinstance(action, A.Attack):
        return ("attack", rank[action.ship], rank[action.target])
    verb, ship, *rest = str(action).split()
    return (verb, rank[int(ship)], *rest)


def reference_tensor(state, seat):
    """The tensor by definition (module docstring of ``tensor``), one value at a time."""
    game = state.game
    sectors = len(game.content.board.names)
    kinds = len(game.content.units)
    out = np.zeros(game.observation_tensor_shape(), dtype=np.float32)
    other = 1 - seat
    v = [float(state.phase == p) for p in ("setup", "returns", "act", "over")]
    v += [float(state.seat == seat), float(state.first == seat),
          float(state.current_player() == seat), state.round / state.turn_limit]
    v += [state.minerals[seat], state.minerals[other], state.dark[seat], state.dark[other]]
    v += [float(h) for h in state.holes[:sectors]]
    v += list(state.to_place[seat][:kinds]) + list(state.to_place[other][:kinds])
    out[:len(v)] = v
    pos = len(v)
    per_ship = 2 * sectors + 11
    for owner in (seat, other):
        for kind, unit in enumerate(game.content.units):
            mine = sorted(u for u, x in state.ships.items()
                          if x[OWNER] == owner and x[KIND] == kind)
            for rank in range(slot_cap(unit.id)):
                if rank < len(mine):
                    uid = mine[rank]
                    x = state.ships[uid]
                    block = [0.0] * per_ship
                    block[0] = 1.0
                    block[1 + (x[SEC] if x[SEC] >= 0 else sectors)] = 1.0
                    b = 2 + sectors
                    block[b] = x[SH] / state.max_sh[kind] if state.max_sh[kind] else 0.0
                    block[b + 1] = x[HULL] / state.max_hull[kind]
                    block[b + 2] = x[AP] / state.max_ap[kind]
                    block[b + 3] = float(x[ATT])
                    block[b + 4 + min(max(x[CHG], 0), 2)] = 1.0
                    b += 7
                    block[b + (x[AIM] if x[AIM] >= 0 else sectors)] = 1.0
                    block[b + sectors + 1] = float(state.active == uid)
                    out[pos:pos + per_ship] = block
                pos += per_ship
    return out


def playouts(seed: int, games: int, cap: int):
    """States of random playouts, each game's state object mutated in place (as the
    environments do), with a clone of some of them (a new object in the same position)."""
    for k in range(games):
        state = load("galactic-domination", players=2, seed=seed + k).new_initial_state()
        rng = random.Random(seed + k)
        for step in range(cap):
            if state.is_terminal():
                break
            yield state
            if step % 5 == 0:
                yield state.clone()
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_recorded_keys_keep_their_indices():
    space = load("galactic-domination", players=2, seed=5).action_space()
    assert space.size == 3651
    for text, index in RECORDED:
        assert space.index(tuple(text.split())) == index, text
        assert space.key_at(index) == tuple(text.split())


@pytest.mark.parametrize("seed", [0, 40])
def test_keys_and_mask_match_the_reference_numbering(seed):
    game = load("galactic-domination", players=2)
    space = game.action_space()
    ships_lost = 0
    previous = None
    for state in playouts(seed, games=3, cap=700):
        legal = state.legal_actions()
        expected = {space.index(reference_key(state, a)): a for a in legal}
        assert {space.index(gd_space.key(state, a)): a for a in legal} == expected
        assert sorted(np.flatnonzero(state.legal_action_mask()).tolist()) == sorted(expected)
        assert gd_space.slot_map(state) == {
            u: "".join(reference_key(state, A.Warp(u))[1:]) for u in state.ships}
        if previous is not None and len(state.ships) < previous:
            ships_lost += 1
        previous = len(state.ships)
    assert ships_lost > 10  # ranks shifted by losses were met and checked


def test_keys_follow_in_place_changes_and_interleaved_states(gd):
    """The layout cache answers for the state as it is, whichever state asks."""
    s = gd.blank()
    old = gd.put(s, 0, "raider", "R1")
    young = gd.put(s, 0, "raider", "R2")
    t = s.clone()
    move = A.Move(young, "R3")
    assert gd_space.key(s, move) == ("move", "raider1", "R3")
    del t.ships[old]
    t._legal = None
    assert gd_space.key(t, move) == ("move", "raider0", "R3")
    assert gd_space.key(s, move) == ("move", "raider1", "R3")
    step = next(a for a in s.legal_actions() if isinstance(a, A.Move) and a.ship == old)
    s.apply(step)  # the old raider moves: no rank changes
    assert gd_space.key(s, move) == ("move", "raider1", "R3")
    del s.ships[old]
    s._legal = None
    assert gd_space.key(s, move) == ("move", "raider0", "R3")
    with pytest.raises(ActionIndexError, match=f"ship {old} is not in play"):
        gd_space.key(s, A.Attack(old, young))
    with pytest.raises(ActionIndexError, match="not a Galactic Domination action"):
        gd_space.key(s, HiddenAction("move ?"))
    with pytest.raises(ActionIndexError, match="needs the state"):
        gd_space.key(None, move)


@pytest.mark.parametrize("seed", [0, 60])
def test_tensor_matches_the_reference_encoding(seed):
    game = load("galactic-domination", players=2)
    shape = game.observation_tensor_shape()
    met = 0
    for k, state in enumerate(playouts(seed, games=3, cap=600)):
        if k % 3:
            continue
        for seat in (0, 1):
            t = state.observation_tensor(seat)
            assert t.shape == shape and t.dtype == np.float32
            assert np.array_equal(t, reference_tensor(state, seat))
            met += 1
    assert met > 500


def test_tensor_of_a_crafted_position_and_fresh_arrays(gd, monkeypatch):
    monkeypatch.setattr(gd_tensor, "_BLOCKS", {})  # an empty store of ship rows
    monkeypatch.setattr(gd_tensor, "_LAST", [None])
    s = gd.blank()
    gd.put(s, 0, "destroyer", "R1", sh=1, hull=2, ap=1, chg=2, aim="G2")
    gd.put(s, 1, "miner", "G3", att=1, ap=0)
    gd.put(s, 0, "explorer", "R2")
    s.ships[3] = (*s.ships[3][:SEC], -1, *s.ships[3][SEC + 1:])  # in deep space
    gd.put(s, 1, "raider", "B1")  # two ships alike, met first in the same encode,
    gd.put(s, 1, "raider", "B1")  # then a new one after them
    gd.put(s, 1, "command", "B2", hull=1)
    s.active = 1
    s.dark = [2, 5]
    s.holes[4] = True
    for seat in (0, 1):
        t = gd_tensor.encode(s, seat)
        assert np.array_equal(t, reference_tensor(s, seat))
        assert t is not gd_tensor.encode(s, seat)
        t[:] = 7.0  # the caller owns the array: the next one is unaffected
        assert np.array_equal(gd_tensor.encode(s, seat), reference_tensor(s, seat))


def test_tensor_store_starting_again_when_full(monkeypatch):
    monkeypatch.setattr(gd_tensor._Blocks, "CAP", 40)
    for k, state in enumerate(playouts(7, games=1, cap=300)):
        if k % 2 == 0:
            assert np.array_equal(state.observation_tensor(k % 4 // 2),
                                  reference_tensor(state, k % 4 // 2))
