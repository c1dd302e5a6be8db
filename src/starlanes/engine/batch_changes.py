"""Which games of a batch changed: batched rules and tensors remake a part only in the games
whose inputs changed since they last looked.

Every array here holds one row per game on its first axis (any shape after it). A flat
``nonzero`` of the comparison finds the changed games: when few values change, it is
several times cheaper than an ``any()`` along each row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def changed_rows(new: Sequence[np.ndarray], old: Sequence[np.ndarray]) -> np.ndarray:
    """int64 [k], ascending: the games where any array of ``new`` differs from the array
    at the same place in ``old`` (the same shapes, pair by pair). Raises ValueError when
    the two sequences differ in length."""
    n = new[0].shape[0]
    dirty = np.zeros(n, np.bool_)
    for a, was in zip(new, old, strict=True):
        dirty[np.flatnonzero(a != was) // (a.size // n)] = True
    return np.flatnonzero(dirty)


class ChangeTracker:
    """Copies of some per-game arrays, kept up to date, to tell which games changed since
    the last look (:meth:`changed`)."""

    def __init__(self) -> None:
        self._copies: list[np.ndarray] | None = None

    def changed(self, arrays: Sequence[np.ndarray]) -> np.ndarray | None:
        """The games (int64 [k], ascending) where any of ``arrays`` changed since the last
        call, whose copies are then brought up to date; None at the first call, which
        only takes the copies (every game counts as changed)."""
        if self._copies is None:
            self._copies = [a.copy() for a in arrays]
            return None
        rows = changed_rows(arrays, self._copies)
        if rows.size:
            for a, copy in zip(arrays, self._copies, strict=True):
                copy[rows] = a[rows]
        return rows
