"""The terminal table: draw a game with rich, read a human's choices, let bots act.

:class:`PlaySession` (``session``) runs one game; ``menu`` numbers the legal actions by
kind with their costs and answers ``? N``, ``why`` and ``info``; ``common`` holds the
consoles, the board renderer (the game's own ``render(state, seat)``), records and the
autosave location; ``safe_text`` makes text from records, content files and the network
safe to print (:func:`printable`, :func:`markup_safe`, the consoles' :class:`SafeConsole`).
"""

from .common import (
    HUMAN,
    autosave_path,
    data_dir,
    end_reason_of,
    err,
    out,
    renderer_for,
    results_table,
    seat_label,
    seat_name,
    winners_of,
    write_record,
    write_safe_record,
)
from .menu import ActionMenu, describe_lines, info_lines, refusal_lines
from .safe_text import SafeConsole, markup_safe, printable
from .session import HELP_TEXT, Interrupted, PlaySession

__all__ = [
    "HELP_TEXT", "HUMAN", "ActionMenu", "Interrupted", "PlaySession", "SafeConsole",
    "autosave_path", "data_dir", "describe_lines", "end_reason_of", "err", "info_lines",
    "markup_safe", "out", "printable", "refusal_lines", "renderer_for", "results_table",
    "seat_label", "seat_name", "winners_of", "write_record", "write_safe_record",
]
