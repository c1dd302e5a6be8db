"""The compact redraw of the terminal table: at each decision a seat sees what changed on
its board since its last decision, not the whole board again.

:class:`BoardMemory` keeps, per seat, the lines of the board that seat last saw (as
rendered, styles included) and how much of the log it has read. :meth:`BoardMemory.changes`
compares the new board with the last one line by line (``difflib``) and returns only the
changed stretches, each with its line number; when more than :data:`FULL_REDRAW_SHARE` of
the board changed (a new phase, a battle opening), or the seat has not seen the board yet
(first decision, after a hand-over cleared the screen), it returns None: draw it whole.
The legend and other unchanging parts are never repeated, so on a 40-row terminal the
board's news, the new log lines, the actions and the prompt fit on one screen.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

FULL_REDRAW_SHARE = 0.6
"""Above this share of changed board lines the whole board is drawn again."""
CONTEXT_LINES = 0
"""Unchanged lines shown around a change (0: the changed lines alone)."""


@dataclass
class Changes:
    """The changed stretches of a board: ``(first line number, lines)`` each, and the
    board's total length in lines."""

    stretches: list[tuple[int, list[str]]]
    total: int

    @property
    def count(self) -> int:
        """The number of changed lines shown."""
        return sum(len(lines) for _, lines in self.stretches)


@dataclass
class BoardMemory:
    """What each seat last saw: board lines and log length (see the module docstring)."""

    boards: dict[int, list[str]] = field(default_factory=dict)
    log_read: dict[int, int] = field(default_factory=dict)

    def forget(self, seat: int | None = None) -> None:
        """The screen was cleared: ``seat`` (every seat when None) sees the board whole
        next time."""
        if seat is None:
            self.boards.clear()
        else:
            self.boards.pop(seat, None)

    def changes(self, seat: int, lines: list[str]) -> Changes | None:
        """Remember ``lines`` as ``seat``'s board and return what changed since its last
        look, or None when it should be drawn whole (never seen, or much changed). When
        anything changed, the board's first line (the status line the games draw: round,
        phase, whose turn, a tile drawn) comes first."""
        before = self.boards.get(seat)
        self.boards[seat] = lines
        if before is None:
            return None
        stretches: list[tuple[int, list[str]]] = []
        matcher = difflib.SequenceMatcher(a=before, b=lines, autojunk=False)
        for tag, _, _, j1, j2 in matcher.get_opcodes():
            if tag == "equal" or j1 == j2:
                continue  # a deleted stretch: the lines around it say what is there now
            lo, hi = max(0, j1 - CONTEXT_LINES), min(len(lines), j2 + CONTEXT_LINES)
            stretches.append((lo, lines[lo:hi]))
        if lines and stretches and stretches[0][0] > 0:
            stretches.insert(0, (0, lines[:1]))  # the status line: round, phase, whose turn
        found = Changes(stretches, len(lines))
        if found.count > FULL_REDRAW_SHARE * max(1, len(lines)):
            return None
        return found

    def new_log(self, seat: int, log: list[str], tail: int) -> tuple[list[str], int]:
        """The log lines ``seat`` has not read (at most ``tail``, the newest) and how many
        unread ones were left out; the seat has read them all afterwards."""
        start = self.log_read.get(seat, max(0, len(log) - tail))
        self.log_read[seat] = len(log)
        fresh = log[start:] if start <= len(log) else log[-tail:]
        skipped = max(0, len(fresh) - tail)
        return fresh[-tail:], skipped
