"""The compact redraw of the terminal table: at each decision a seat sees what changed on
its board since its last decision, not the whole board again.

:class:`BoardMemory` keeps, per seat, the lines of the board that seat last saw (as
rendered, styles included); :class:`News` keeps what happened since (every move once) and
how much of it each seat has read. :meth:`BoardMemory.changes`
compares the new board with the last one line by line (``difflib``) and returns only the
changed stretches, each with its line number; when more than :data:`FULL_REDRAW_SHARE` of
the board changed (a new phase, a battle opening), or the seat has not seen the board yet
(first decision, after a hand-over cleared the screen), it returns None: draw it whole.
The legend and other unchanging parts are never repeated, so on a 40-row terminal the
board's news, the new log lines, the actions and the prompt fit on one screen.
"""

from __future__ import annotations

import difflib
from collections import deque
from dataclasses import dataclass, field

FULL_REDRAW_SHARE = 0.6
"""Above this share of changed board lines the whole board is drawn again."""
CONTEXT_LINES = 0
"""Unchanged lines shown around a change (0: the changed lines alone)."""
NEWS_KEPT = 400
"""The most news lines kept for seats that have not read them (older ones are in the
game's log, which the ``log`` command prints)."""


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
    """The board lines each seat last saw (see the module docstring)."""

    boards: dict[int, list[str]] = field(default_factory=dict)

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


@dataclass
class News:
    """What happened at the table, one line each, for the seats that have not read it yet:
    every move once, as the log lines it wrote, or (a move that wrote none) as who made it
    and its notation. A line may be marked as already seen by one seat (the human whose
    own move it is saw it echoed). Only the newest :data:`NEWS_KEPT` lines are kept."""

    lines: deque[tuple[str, int | None]] = field(
        default_factory=lambda: deque(maxlen=NEWS_KEPT))
    added: int = 0
    read: dict[int, int] = field(default_factory=dict)

    def add(self, lines: list[str], seen_by: int | None = None) -> None:
        """Append ``lines``; ``seen_by``: a seat that has already seen them."""
        for line in lines:
            self.lines.append((line, seen_by))
            self.added += 1

    def mark_read(self, seat: int) -> None:
        """``seat`` has read everything added so far."""
        self.read[seat] = self.added

    def unread(self, seat: int, fallback: int) -> list[str]:
        """The lines ``seat`` has not read, oldest first, leaving them unread (see
        :meth:`mark_read`); a seat that never read anything gets the newest ``fallback``."""
        first = self.added - len(self.lines)
        start = max(self.read.get(seat, self.added - fallback), first)
        return [line for line, seen in list(self.lines)[start - first:] if seen != seat]
