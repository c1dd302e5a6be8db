"""The terminal table's compact redraw and hot-seat hand-over (issue 28): at a decision a
seat sees only what changed on the board since its last decision (the whole board the
first time, on ``board`` and when much changed), so on a 40-row terminal the news, the
actions and the prompt fit; a hot-seat game opens with a hand-over screen, which clears
even when the output is piped and then says that it cannot hide what the pipe keeps."""

from __future__ import annotations

import io
import statistics

import pytest
from rich.console import Console

import starlanes.terminal.common as common
import starlanes.terminal.session as session_module
from starlanes.engine import load
from starlanes.terminal.redraw import BoardMemory
from starlanes.terminal.session import PlaySession

PROMPT = "to decide"


def _session(game: str, seats: list[str], seed: int, script: str, monkeypatch,
             terminal: bool = True) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, height=40, highlight=False,
                      force_terminal=terminal, color_system=None)
    monkeypatch.setattr(session_module, "out", console)
    monkeypatch.setattr(common, "out", console)
    state = load(game, players=len(seats), seed=seed).new_initial_state()
    PlaySession(state, seats, seed, None, io.StringIO(script)).run()
    return buffer.getvalue()


@pytest.mark.parametrize("game, seed", [("rift-domination", 5), ("galactic-empires", 31)])
def test_decisions_show_what_changed_and_fit_40_rows(game: str, seed: int,
                                                     monkeypatch) -> None:
    text = _session(game, ["human", "random"], seed, "1\n" * 30 + "quit\n", monkeypatch)
    screens = text.split(PROMPT)[1:]
    assert len(screens) >= 25
    sizes = [screen.count("\n") for screen in screens]
    assert "Legend:" in screens[0]  # the first decision draws the board whole
    whole = sum("Legend:" in s for s in screens)
    assert whole <= len(screens) // 3, sizes
    assert sum("changed on the board since your last decision" in s for s in screens) >= (
        len(screens) // 2)
    assert statistics.median(sizes) <= 40, sizes


def test_board_command_draws_the_board_whole(monkeypatch) -> None:
    text = _session("rift-domination", ["human", "random"], 5,
                    "1\n" * 8 + "board\nquit\n", monkeypatch)
    screens = text.split(PROMPT)[1:]
    assert "Legend:" not in screens[-2] and "Legend:" in screens[-1]
    assert "Recent log" in screens[-1]


def test_memory_reports_changed_stretches_and_asks_for_whole_boards() -> None:
    memory = BoardMemory()
    board = [f"status {0}"] + [f"row {i}" for i in range(20)]
    assert memory.changes(0, board) is None  # never seen: whole
    moved = board[:]
    moved[0], moved[7] = "status 1", "row 7 changed"
    found = memory.changes(0, moved)
    assert found is not None and found.stretches == [(0, ["status 1"]), (7, ["row 7 changed"])]
    assert memory.changes(0, moved).stretches == []  # nothing new
    assert memory.changes(0, [f"other {i}" for i in range(21)]) is None  # much changed
    memory.forget(0)
    assert memory.changes(0, moved) is None


@pytest.mark.parametrize("terminal", [True, False])
def test_hot_seat_opens_with_a_hand_over_even_when_piped(terminal: bool, monkeypatch) -> None:
    """``--seats human,human,heuristic --seed 31``: before P0's first decision (its hand on
    the screen) the terminal is handed over; piped output still gets the clearing codes
    and a warning that earlier lines may be readable."""
    text = _session("galactic-empires", ["human", "human", "heuristic"], 31,
                    "\n1\n" * 6 + "quit\n", monkeypatch, terminal=terminal)
    first_hand = text.index("hand:")
    first_handover = text.index("hand the terminal to")
    assert first_handover < first_hand
    assert text[:first_handover].count("\x1b[2J") == 1 and "\x1b[3J" in text
    assert text.count("hand the terminal to") >= 2
    warned = "the output is not a terminal" in text
    assert warned is (not terminal)


def test_rift_domination_tile_set_up_shows_the_drawn_tile(monkeypatch) -> None:
    """Set-up (condition tiles): every tile decision shows the tile drawn, compact redraw
    or not (the board's status line comes first whenever anything changed)."""
    text = _session("rift-domination", ["human", "random"], 5, "1\n" * 12 + "quit\n",
                    monkeypatch)
    tile_screens = [s for s in text.split(PROMPT)[1:] if "1. tile " in s]
    assert len(tile_screens) >= 5
    assert all("tile to place: " in s for s in tile_screens)
