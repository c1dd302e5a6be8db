"""The chance of many games at once (``starlanes.engine.rng_arrays``) draws, number for
number, what each game's own ``GameRng`` draws."""

from __future__ import annotations

import numpy as np
import pytest

from starlanes.engine import GameRng
from starlanes.engine import rng_arrays as ra

SEEDS = [0, 1, 2, -1, -7, 2**62, 2**64 + 5, 123456789, 987654321012, 42]


def _states() -> np.ndarray:
    state = np.zeros(len(SEEDS) + 2, np.uint64)  # two games that are never drawn from
    ra.seed(state, np.arange(len(SEEDS)), SEEDS)
    return state


def test_every_draw_matches_game_rng():
    state = _states()
    refs = [GameRng(s) for s in SEEDS]
    rows = np.arange(len(SEEDS))
    for step in range(60):
        kind = step % 5
        if kind == 0:
            got = ra.random(state, rows).tolist()
            want = [r.random() for r in refs]
        elif kind == 1:
            got = ra.d6(state, rows).tolist()
            want = [r.d6() for r in refs]
        elif kind == 2:
            m = [1, 2, 3, 6, 7, 10, 21, 100, 1000, 2**31 + 1][step // 5 % 10]
            got = ra.below(state, rows, m).tolist()
            want = [r.randrange(m) for r in refs]
        elif kind == 3:
            pop, k = list(range(10, 10 + 5 + step % 17)), 1 + step % 5
            got = ra.sample(state, rows, pop, k).tolist()
            want = [r.sample(pop, k) for r in refs]
        else:
            pop = list(range(30))
            got = ra.sample(state, rows, pop, 8).tolist()  # k > 5: a larger pool threshold
            want = [r.sample(pop, 8) for r in refs]
        assert got == want, (step, kind)
    assert state[-2:].tolist() == [0, 0]


def test_only_the_rows_drawn_from_move():
    state = _states()
    before = state.copy()
    rows = np.array([1, 4])
    ra.random(state, rows)
    moved = np.flatnonzero(state != before).tolist()
    assert moved == [1, 4]
    ref = GameRng(SEEDS[4])
    ref.random()
    assert ra.random(state, np.array([4]))[0] == ref.random()


def test_refuses_what_it_does_not_cover():
    state = _states()
    with pytest.raises(ValueError):
        ra.below(state, np.arange(2), 0)
    with pytest.raises(ValueError):
        ra.below(state, np.arange(2), 2**32)
    with pytest.raises(ValueError):
        ra.sample(state, np.arange(2), list(range(40)), 3)  # Python draws it by a set


def test_a_run_of_one_games_dice_matches_game_rng_and_moves_only_that_game():
    state = _states()
    refs = [GameRng(s) for s in SEEDS]
    for k in (0, 1, 5, 13):
        for row in (0, 3, 6):
            before = state.copy()
            got = ra.d6_run(state, row, k)
            assert got == [refs[row].d6() for _ in range(k)]
            others = np.flatnonzero(state != before).tolist()
            assert others == ([row] if k else [])
    # the run leaves the game where array draws go on from
    assert ra.d6(state, np.array([3])).tolist() == [refs[3].d6()]
    with pytest.raises(ValueError, match="k >= 0"):
        ra.d6_run(state, 0, -1)


def test_runs_of_many_games_match_each_games_own_dice():
    """``d6_runs``: each game's run is its ``GameRng.d6()`` calls in order, the runs one
    after another in the order of the rows, and each game's stream goes on after its run
    (zero counts and games not asked about do not move)."""
    state = _states()
    refs = [GameRng(s) for s in SEEDS]
    rng = np.random.default_rng(4)
    for _ in range(6):
        rows = rng.permutation(len(SEEDS))[:7]
        counts = rng.integers(0, 40, rows.size)
        counts[0] = 0
        got = ra.d6_runs(state, rows, counts).tolist()
        want = [refs[r].d6() for r, k in zip(rows.tolist(), counts.tolist(), strict=True)
                for _ in range(k)]
        assert got == want
    for r, ref in enumerate(refs):  # every stream where its own GameRng is
        assert ra.d6(state, np.array([r])).tolist() == [ref.d6()]
    assert state[-2:].tolist() == [0, 0]
    assert ra.d6_runs(state, np.array([], np.int64), np.array([], np.int64)).size == 0
    with pytest.raises(ValueError, match="counts >= 0"):
        ra.d6_runs(state, np.array([0]), np.array([-1]))
