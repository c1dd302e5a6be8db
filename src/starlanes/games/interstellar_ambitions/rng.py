"""A small, fast seeded generator for this game's states (a :class:`GameRng`).

Interstellar Ambitions clones and determinises states thousands of times a second for
search; copying the Mersenne Twister's 2.5 KB state dominated that. :class:`FastRng` keeps
one 64-bit integer (a linear congruential step whose top 53 bits make each float), so a
copy is one integer. It is deterministic on every machine, like ``GameRng``.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameRng

_MASK = (1 << 64) - 1
_MUL = 6364136223846793005
_INC = 1442695040888963407


class FastRng(GameRng):
    """``random.Random`` API (random, getrandbits, randrange, shuffle, d6...) on one int."""

    def __init__(self, seed: int = 0) -> None:
        self.gauss_next = None
        self.seed(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:  # type: ignore[override]
        x = (hash(a) if not isinstance(a, int) else a) & _MASK
        # splitmix64 scramble so nearby seeds give unrelated streams
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        self._x = x ^ (x >> 31)
        self.gauss_next = None

    def random(self) -> float:
        x = (self._x * _MUL + _INC) & _MASK
        self._x = x
        return (x >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        out = 0
        got = 0
        while got < k:
            x = (self._x * _MUL + _INC) & _MASK
            self._x = x
            out = (out << 32) | (x >> 32)
            got += 32
        return out >> (got - k)

    def d6(self) -> int:
        x = (self._x * _MUL + _INC) & _MASK
        self._x = x
        return ((x >> 11) * 6 >> 53) + 1

    def getstate(self) -> tuple[int]:  # type: ignore[override]
        return (self._x,)

    def setstate(self, state: Any) -> None:
        self._x = state[0]

    def copy(self) -> FastRng:
        other = FastRng.__new__(FastRng)
        other._x = self._x
        other.gauss_next = None
        return other
