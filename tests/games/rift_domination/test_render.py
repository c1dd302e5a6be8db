"""The Rift Domination board at 80 columns: a legend under it, and no name broken across
lines even on the full 6-player board (RD-SET-07)."""

from __future__ import annotations

import random
import re

from rich.console import Console

import starlanes
from starlanes.games.rift_domination.render import TILE_CODES, render


def test_full_board_fits_80_columns_without_broken_names() -> None:
    s = starlanes.load("rift-domination", players=6, seed=2).new_initial_state()
    rng = random.Random(2)
    for _ in range(1500):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    con = Console(width=80, record=True, color_system=None)
    con.print(render(s, 0))
    text = con.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Legend:" in text
    words = set(re.findall(r"[\w=?*|()]+", text))
    for p in s.board.in_play_planets:
        assert any(w.startswith(s.board.planet_ids[p]) for w in words), s.board.planet_ids[p]
        if s.tile_kind[p] and s.tile_revealed[p]:
            assert f"{TILE_CODES[s.tile_kind[p]]}={s.tile_value[p]}" in words


def test_spectator_view_has_no_you() -> None:
    s = starlanes.load("rift-domination", players=2, seed=1).new_initial_state()
    con = Console(width=80, record=True, color_system=None)
    con.print(render(s, 0, spectator=True))
    assert "(you)" not in con.export_text()
    con.print(render(s, 0))
    assert "(you)" in con.export_text()
