"""The seeded random number generator every state owns.

Chance comes only from a state's own :class:`GameRng`: the same seed and the same actions
give the same game on any machine (CPython's Mersenne Twister is platform independent).
Bots draw from their own ``random.Random`` so a search never changes the game's rolls.
"""

from __future__ import annotations

import random


class GameRng(random.Random):
    """A ``random.Random`` with a cheap copy and a six-sided die.

    ``d6()`` returns an int 1..6. ``copy()`` returns an independent generator in the same
    state (about 5 microseconds).
    """

    def d6(self) -> int:
        return int(self.random() * 6) + 1

    def copy(self) -> GameRng:
        other = GameRng.__new__(GameRng)
        other.setstate(self.getstate())
        return other


def derive_seed(seed: int, *salt: int | str) -> int:
    """A stable 63-bit seed derived from ``seed`` and a salt (e.g. game number, seat)."""
    r = random.Random(repr((seed, *salt)))
    return r.getrandbits(63)
