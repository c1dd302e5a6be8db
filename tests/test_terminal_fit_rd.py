"""Rift Domination's terminal table at 120 x 40: the board's columns keep their width as
units come and go (each system a fifth of the screen), so a decision shows the few board
lines that changed instead of redrawing the whole board (a column that grew by a letter
used to shift every line of the table), and the decision screens fit 40 rows.

Measured on seeded heuristic games at 2, 3 and 4 players: 3-4 screens of about 60-110
still run a few rows over 40 (the first, set-up screen at 3 and 4 players, where the
legend is drawn; a battle or a round start that changed half the board); before the fixed
widths 22 of 108 did at 2 players, up to 75 rows."""

from __future__ import annotations

import pytest

from starlanes.engine import load
from starlanes.terminal.session import PlaySession

from .test_terminal_fit import RULE, BotAtTheKeyboard, _console


@pytest.mark.parametrize("players, seed", [(2, 7), (4, 3)])
def test_rift_domination_redraws_changes_and_fits_120x40(monkeypatch, players: int,
                                                         seed: int) -> None:
    buffer = _console(monkeypatch, 120, 40, terminal=True)
    keyboard = BotAtTheKeyboard("rift-domination", 400)
    state = load("rift-domination", players=players, seed=seed).new_initial_state()
    session = PlaySession(state, ["human"] + ["heuristic"] * (players - 1), seed, None,
                          keyboard)
    keyboard.session = session
    session.run()
    screens = buffer.getvalue().split(RULE)[1:]
    assert len(screens) >= 60
    heights = [len(s[:s.index("P0> ")].splitlines()) + 1 for s in screens]
    assert max(len(line) for s in screens for line in s.splitlines()) <= 120
    whole = [n for n, s in enumerate(screens) if "Legend:" in s]
    assert whole[0] == 0 and len(whole) <= 3, whole  # the board is drawn whole rarely
    over = [h for h in heights if h > 40]
    assert len(over) <= len(screens) // 20 and max(heights) <= 64, (over, len(screens))
