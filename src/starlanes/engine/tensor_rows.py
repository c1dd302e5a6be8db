"""Float32 rows of short value tuples, each distinct tuple converted once.

Observation encoders whose head sections (phase flags, counters, resources) take the same
few values step after step read their rows from here instead of converting them again.
"""

from __future__ import annotations

from typing import Any

ROWS_CAP = 1 << 15
"""Distinct tuples kept; past this the memo starts again."""

_ROWS: dict[tuple, Any] = {}


def float32_row(values: tuple) -> Any:
    """``numpy.array(values, dtype=float32)`` for a tuple of numbers and bools (True is
    1.0), the same array object for equal tuples (1 == 1.0 == True converts alike). The
    row is shared: callers copy it into their own array and never write to it."""
    row = _ROWS.get(values)
    if row is None:
        import numpy as np

        if len(_ROWS) >= ROWS_CAP:
            _ROWS.clear()
        row = _ROWS[values] = np.array(values, dtype=np.float32)
    return row
