"""Text that is safe to show at a terminal, whatever a record, a content file or the network
put in it.

A seat name, a faction name or an action in a game record may hold terminal escape
sequences (clear the screen, set the window title, a disguised OSC 8 link, an OSC 52 write
to the clipboard), raw control characters, or Unicode format characters that reorder or
hide text (bidi overrides, invisible tags). :func:`printable` removes all of them and keeps
ordinary text, non-Latin scripts and emoji; :func:`markup_safe` also escapes rich markup for
text that goes through ``Console.print``. :class:`SafeConsole` is the console the terminal
table and the CLI print through: it cleans every piece of text it renders (keeping rich's
own styles and cursor controls), so a renderer that forgets still prints nothing harmful.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.segment import Segment

ELLIPSIS = "…"

_SEQUENCE = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?     # CSI: colours, cursor, erase
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)
                                    # OSC (titles, OSC 8 links, OSC 52 clipboard), DCS, SOS,
                                    # PM, APC: a string up to BEL or ST, or to the end
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                             # any other ESC sequence
    """,
    re.VERBOSE | re.DOTALL,
)
"""ANSI / VT escape sequences, in their 7-bit (ESC) and 8-bit (C1) forms."""

_PLAIN = re.compile(r"[\x20-\x7e\n]*")
"""Text made only of printable ASCII (and newlines) needs no further look."""

KEEP_FORMAT = frozenset({"\u200c", "\u200d"})
"""Format characters kept: zero-width non-joiner and joiner, which scripts such as Persian
and Devanagari and emoji sequences (family, profession) need; neither moves or hides
text."""

_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Controls, format characters (bidi embeddings, overrides and isolates, invisible tags,
soft hyphen ...), lone surrogates and the line and paragraph separators."""


def _keep(ch: str, newlines: bool) -> str:
    if ch == "\n":
        return ch if newlines else " "
    if ch == "\t":
        return " "
    if ch in KEEP_FORMAT:
        return ch
    return "" if unicodedata.category(ch) in _DROP_CATEGORIES else ch


def printable(text: str, limit: int | None = None, *, newlines: bool = False) -> str:
    """``text`` without terminal escape sequences, control characters or format
    characters that could reorder or hide text.

    Removed: CSI sequences, OSC sequences (window titles, OSC 8 hyperlinks with their
    target, OSC 52 clipboard writes), DCS/SOS/PM/APC strings, other ESC sequences, in their
    ESC and C1 forms (an unterminated string sequence is removed to the end, as a terminal
    would swallow it); then every C0 and C1 control character, every Unicode format
    character (category Cf: bidi overrides and isolates U+202A-202E and U+2066-2069, tags,
    zero-width spaces ...) except the zero-width joiner and non-joiner, lone surrogates and
    the line and paragraph separators. A tab becomes a space; a newline stays with
    ``newlines`` and becomes a space otherwise (a carriage return is dropped). Letters of
    every script, symbols and emoji are kept.

    With ``limit``, the result is at most ``limit`` characters: a longer text is cut and
    ends with an ellipsis.
    """
    if not _PLAIN.fullmatch(text):
        text = _SEQUENCE.sub("", text)
        text = "".join(_keep(ch, newlines) for ch in text)
    elif not newlines and "\n" in text:
        text = text.replace("\n", " ")
    if limit is not None and len(text) > limit:
        if limit <= 0:
            return ""
        text = text[:limit - 1].rstrip("\u200d") + ELLIPSIS
    return text


def markup_safe(text: str, limit: int | None = None) -> str:
    """:func:`printable` text with rich markup escaped, ready to go into a string that
    ``Console.print`` reads as markup (``[red]`` in a name is shown, not applied)."""
    return escape(printable(text, limit))


class SafeConsole(Console):
    """A rich console that passes every rendered piece of text through :func:`printable`
    (newlines kept). Rich's own styles, links and cursor controls are not text and are not
    touched; writing to ``console.file`` directly bypasses the cleaning on purpose."""

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        """Render as rich does, then clean the text of every segment that is not a
        control segment."""
        for segment in super().render(renderable, options):
            text = segment.text
            if segment.control or _PLAIN.fullmatch(text):
                yield segment
            else:
                yield Segment(printable(text, newlines=True), segment.style, segment.control)
