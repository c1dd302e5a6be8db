""":class:`~starlanes.engine.GameRng` over arrays: the chance of many games at once.

A batched rules implementation keeps each game's ``GameRng`` as one uint64 of a state
array (``state[game]``) and draws from the games of ``rows`` at once, number for number as
the reference state draws from its own ``GameRng``: seeding (:func:`seed`), ``random()``
(:func:`random`), ``d6()`` (:func:`d6`; :func:`d6_run` for several of one game,
:func:`d6_runs` for several of each of many),
``randrange(m)`` (:func:`below`) and ``sample(population, k)`` (:func:`sample`). So the
same seed and the same actions give the same game in the batch and in the reference.
``tests/engine/test_rng_arrays.py`` checks each against ``GameRng``.

Every function takes ``state`` (uint64 [n], changed in place for the games drawn from)
and ``rows`` (int [k], distinct game indices) and returns one value per row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from .rng import _INC, _MASK, _MUL, _TO_FLOAT

MUL = np.uint64(_MUL)
INC = np.uint64(_INC)


def scramble(seeds: np.ndarray) -> np.ndarray:
    """``GameRng``'s seeding (a splitmix64 scramble) of uint64 ``seeds`` [n] -> uint64 [n]."""
    x = seeds.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def seed(state: np.ndarray, rows: np.ndarray, seeds: Iterable[int]) -> None:
    """Set the games of ``rows`` to ``GameRng(s)`` for integer seeds ``s`` (any size: the
    low 64 bits count, as in ``GameRng``)."""
    raw = np.array([int(s) & _MASK for s in seeds], np.uint64)
    state[rows] = scramble(raw)


def draw(state: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """One step of each game's generator: its new uint64 states [k] (the bits every other
    draw is made of)."""
    x = state[rows] * MUL + INC
    state[rows] = x
    return x


def unit(x: np.ndarray) -> np.ndarray:
    """The float64 in [0, 1) ``GameRng.random()`` makes of new states ``x``: their top 53
    bits over 2**53."""
    return (x >> np.uint64(11)).astype(np.float64) * _TO_FLOAT


def random(state: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``GameRng.random()`` of each game: float64 [k] in [0, 1)."""
    return unit(draw(state, rows))


def d6(state: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``GameRng.d6()`` of each game: int64 [k], 1..6."""
    x = draw(state, rows) >> np.uint64(11)
    return ((x * np.uint64(6)) >> np.uint64(53)).astype(np.int64) + 1


def d6_run(state: np.ndarray, row: int, k: int) -> list[int]:
    """``k`` successive ``GameRng.d6()`` of the one game ``row`` (1..6 each, in the order
    drawn): the same numbers as ``k`` calls of :func:`d6` on ``[row]``, made with Python
    integers (a game's dice one by one, as a fight rolls them, without an array call per
    die). Raises ValueError for a negative ``k``."""
    if k < 0:
        raise ValueError(f"d6_run() needs k >= 0, got {k}")
    x = int(state[row])
    out = []
    for _ in range(k):
        x = (x * _MUL + _INC) & _MASK
        out.append(((x >> 11) * 6 >> 53) + 1)
    state[row] = x
    return out


_STRIDES: list[tuple[int, int]] = [(1, 0)]
"""``(a_j, c_j)`` with state_j = a_j * state_0 + c_j (mod 2**64) after ``j`` steps, for j
= 0, 1, ... as far as any call has needed (each step is state * MUL + INC)."""


def _strides(upto: int) -> tuple[np.ndarray, np.ndarray]:
    """uint64 [upto + 1] each: the ``a_j`` and ``c_j`` of :data:`_STRIDES` for j = 0..upto."""
    while len(_STRIDES) <= upto:
        a, c = _STRIDES[-1]
        _STRIDES.append(((a * _MUL) & _MASK, (c * _MUL + _INC) & _MASK))
    a, c = zip(*_STRIDES[:upto + 1], strict=True)
    return np.array(a, np.uint64), np.array(c, np.uint64)


def d6_runs(state: np.ndarray, rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``counts[i]`` successive ``GameRng.d6()`` of each game ``rows[i]``, all at once:
    int64 [counts.sum()], the games' runs one after another in the order of ``rows`` (the
    same numbers as :func:`d6_run` of each). Each game's state jumps ahead by its count.
    Raises ValueError for a negative count."""
    counts = np.asarray(counts, np.int64)
    if counts.size and counts.min() < 0:
        raise ValueError("d6_runs() needs counts >= 0")
    top = int(counts.max()) if counts.size else 0
    a, c = _strides(top)
    x0 = state[rows]
    start = np.cumsum(counts) - counts
    j = np.arange(int(counts.sum())) - np.repeat(start, counts) + 1  # 1..count per game
    x = np.repeat(x0, counts) * a[j] + c[j]
    state[rows] = x0 * a[counts] + c[counts]
    return (((x >> np.uint64(11)) * np.uint64(6)) >> np.uint64(53)).astype(np.int64) + 1


def below(state: np.ndarray, rows: np.ndarray, m: int) -> np.ndarray:
    """``GameRng.randrange(m)`` of each game (Python's ``getrandbits(m.bit_length())``,
    drawn again while not below ``m``), for 1 <= ``m`` < 2**32: int64 [k] in 0..m-1.
    A game that draws again takes its next numbers; the others do not move."""
    if not 1 <= m < 1 << 32:
        raise ValueError(f"below() needs 1 <= m < 2**32, got {m}")
    shift = np.uint64(64 - m.bit_length())
    out = np.zeros(len(rows), np.int64)
    todo = np.arange(len(rows))
    while todo.size:
        r = (draw(state, rows[todo]) >> shift).astype(np.int64)
        ok = r < m
        out[todo[ok]] = r[ok]
        todo = todo[~ok]
    return out


def sample(state: np.ndarray, rows: np.ndarray, population: Sequence[int],
           k: int) -> np.ndarray:
    """``GameRng.sample(population, k)`` of each game, for a population that Python's
    ``sample`` draws from by its pool method (at most 21 items and ``k`` at most 5, or a
    population larger than its set-size threshold for ``k`` is drawn another way and is
    refused here): int64 [k_rows, k]."""
    m = len(population)
    setsize = 21 + (4 ** math.ceil(math.log(k * 3, 4)) if k > 5 else 0)
    if not 0 <= k <= m or m > setsize:
        raise ValueError(f"sample() covers Python's pool method only: population {m}, k {k}")
    pool = np.tile(np.asarray(population, np.int64), (len(rows), 1))
    out = np.zeros((len(rows), k), np.int64)
    at = np.arange(len(rows))
    for i in range(k):
        j = below(state, rows, m - i)
        out[:, i] = pool[at, j]
        pool[at, j] = pool[:, m - i - 1]
    return out
