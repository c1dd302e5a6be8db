"""Which games of a batch changed (``starlanes.engine.batch_changes``): the rows whose
values differ, in any array, in any column."""

from __future__ import annotations

import numpy as np
import pytest

from starlanes.engine.batch_changes import ChangeTracker, changed_rows


def test_changed_rows_are_the_games_with_any_value_changed():
    a, b = np.zeros((6, 3, 4), np.int8), np.zeros((6,), np.int64)
    a2, b2 = a.copy(), b.copy()
    a2[4, 2, 3] = 1
    a2[1, 0, 0] = -1
    b2[4] = 7
    b2[5] = 2
    assert changed_rows((a2, b2), (a, b)).tolist() == [1, 4, 5]
    assert changed_rows((a, b), (a, b)).tolist() == []
    with pytest.raises(ValueError):
        changed_rows((a, b), (a,))


def test_a_tracker_reports_each_change_once_and_everything_at_first():
    x = np.zeros((5, 2), np.int16)
    t = ChangeTracker()
    assert t.changed((x,)) is None  # first look: every game
    assert t.changed((x,)).tolist() == []
    x[3, 1] = 9
    x[0, 0] = 1
    assert t.changed((x,)).tolist() == [0, 3]
    assert t.changed((x,)).tolist() == []  # its copies follow
    x[3, 1] = 0
    assert t.changed((x,)).tolist() == [3]
