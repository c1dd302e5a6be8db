"""Explanations, part of the engine contract: what an action does, why a notation is refused,
and what a content entry is.

Every game's package has a companion module ``explain`` with three functions:

- ``describe(state, action) -> ActionDescription``: what the legal ``action`` does now, what
  it costs and changes, in the game's own words, with the rule IDs it rests on;
- ``label(state, action) -> str``: the few words a player reads on the legal ``action``'s
  button (``describe``'s ``label``, worked out alone, cheaply enough for every legal action
  of a position);
- ``refusal(state, text) -> Refusal | None``: a game-specific reason why ``text`` (already
  known not to be a legal action now) is refused, or None to let the engine's generic
  analysis answer;

and a companion module ``catalogue`` with ``entries(game) -> list[EntryText]``: every content
entry (faction, unit, card, tech, planet, upgrade, empire ...) of the content ``game`` was
loaded with, with its text and statistics.

The rules reference ``docs/rules/<game>.md`` has one section per rule group, headed
``## <Title> (<GROUP>)`` where GROUP is the prefix of the rule IDs it explains (``RD-BAT``);
``ActionDescription.section`` names that group.

:class:`~starlanes.engine.game.Game` exposes them as ``game.describe(state, action)``,
``game.label(state, action)``, ``game.explain_refusal(state, text)`` and
``game.entries(kind)``; the terminal table, the server and the browser tables use only these.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .action import Action
    from .state import GameState

REFUSAL_KINDS = (
    "empty",              # nothing was typed
    "game_over",          # the game has ended
    "unknown_token",      # a word that no action of this game uses
    "malformed",          # a known action word with the wrong arguments
    "ambiguous",          # a prefix that matches several legal actions
    "not_your_decision",  # legal for another seat, not for the seat deciding now
    "wrong_phase",        # an action of another phase or step of the turn
    "cost",               # not enough resources / points / movement to pay for it
    "range",              # target out of range or not adjacent
    "capacity",           # a capacity or count limit is full
    "forbidden",          # a named rule forbids it here (no base, no diplomat, not on roster ...)
    "not_now",            # known action, not legal now, no more specific reason
)
"""The kinds of :class:`Refusal`, from the most generic to the most specific."""

GENERIC_KINDS = frozenset({"malformed", "not_now"})
"""Kinds the engine's own analysis gives when a game names no specific reason; a game's
``refusal`` should answer every notation its players could plausibly type with another."""


@dataclass(frozen=True, slots=True)
class ActionDescription:
    """What one legal action does.

    ``notation``: the action's notation; ``kind``: its group for menus (``move``, ``recruit``,
    ``build``, ``card``, ``battle``, ``setup``, ``end`` ...; a game's own words are fine);
    ``text``: one or two sentences saying what it does, in the game's words; ``cost``: what
    it costs, with units (``"3 resources"``), empty when free; ``changes``: what it changes
    that the text does not already say; ``rules``: the rule IDs it rests on (``RD-MOV-03``);
    ``section``: the rule group (``RD-BAT``) whose section of ``docs/rules/<game>.md``
    explains it; derived from the first rule ID when left empty; ``label``: a few words a
    player reads on the action's button (``"Draw a card"``, ``"Place your tile on Kessar
    Prime (A1a)"``), naming cards, units and planets as printed, never by their ids;
    checked by :func:`label_fault`.
    """

    notation: str
    kind: str
    text: str
    cost: str = ""
    changes: str = ""
    rules: tuple[str, ...] = ()
    section: str = ""
    label: str = ""

    def __post_init__(self) -> None:
        if not self.section and self.rules:
            object.__setattr__(self, "section", rule_group(self.rules[0]))


def rule_group(rule_id: str) -> str:
    """The group of a rule ID: ``RD-BAT-08`` -> ``RD-BAT``, ``GE-EMP-ARG-02`` -> ``GE-EMP-ARG``."""
    parts = rule_id.split("-")
    while parts and parts[-1].isdigit():
        parts.pop()
    return "-".join(parts)


_ID_LIKE = re.compile(r"_|#\d")


def label_fault(text: str, notation: str = "") -> str:
    """Why ``text`` (an action's label or a log line) does not read as words, or ``""``
    when it does: it is empty, equals the notation ``notation``, holds an underscore (a
    content id such as ``ship_go_boom_boom``) or a ``#`` followed by a digit (an
    instance number such as ``occ_econ_crisis#41``)."""
    if not text.strip():
        return "it is empty"
    if notation and normalise(text).lower() == normalise(notation).lower():
        return f"it is only the notation {notation!r}"
    found = _ID_LIKE.search(text)
    if found:
        what = "an underscore" if found.group() == "_" else "a '#' and a number"
        return f"it holds {what}, as ids do: {text!r}"
    return ""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a typed notation is not a legal action now.

    ``kind`` is one of :data:`REFUSAL_KINDS`; ``reason`` one sentence naming the problem;
    ``nearest`` up to five legal notations close to what was typed; ``rules`` the rule IDs
    behind the reason, when one applies.
    """

    text: str
    kind: str
    reason: str
    nearest: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def __str__(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        tail = f" Nearest legal: {', '.join(self.nearest)}." if self.nearest else ""
        return f"{self.reason}{rules}{tail}"


@dataclass(frozen=True, slots=True)
class EntryText:
    """A content entry as players read it.

    ``kind``: ``faction``, ``unit``, ``card``, ``tech``, ``planet``, ``upgrade``, ``empire``
    ...; ``id``: the id a user types; ``name``: its display name; ``text``: its rules text
    in the project's words; ``stats``: its numbers (cost, attack, shields ...) as
    ``{label: value}``; ``source``: ``rulebook`` or ``designed``.
    """

    kind: str
    id: str
    name: str
    text: str
    stats: dict[str, Any] = field(default_factory=dict)
    source: str = "rulebook"


def article(word: str) -> str:
    """``word`` with its indefinite article: ``an anomaly``, ``a fighter``, ``an
    engineer``, ``a unit`` (by the first letters; a vowel sounded as a consonant, as in
    ``unit``, ``use`` or ``one``, takes ``a``)."""
    low = word.lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(
        ("uni", "use", "usu", "uti", "eu", "one"))
    return f"{'an' if vowel else 'a'} {word}"


def normalise(text: str) -> str:
    """Collapse runs of whitespace and strip; notation matching ignores case on top."""
    return " ".join(str(text).split())


def _prefix_of(typed: list[str], words: list[str]) -> bool:
    """Each typed word starts the notation's word in the same place; numbers (ship ids,
    amounts) must be typed whole, so ``3`` never stands for ``35``."""
    if not typed or len(typed) > len(words):
        return False
    for t, w in zip(typed, words, strict=False):
        if t.isdigit() or t.lstrip("#").isdigit():
            if t.lstrip("#") != w.lstrip("#"):
                return False
        elif not w.startswith(t):
            return False
    return True


def resolve_notation(legal: list[Action], text: str) -> tuple[Action | None, list[Action]]:
    """Match ``text`` against ``legal``: exact first, then ignoring case, then word by word
    as prefixes (ignoring case) of exactly one notation (``home e2`` for ``home E2a``,
    ``rec inf c3a`` for ``recruit infantry C3a``; numbers must be whole).

    Returns ``(action, [])`` on a unique match, ``(None, candidates)`` when the prefix
    matches several, and ``(None, [])`` when nothing matches.
    """
    want = normalise(text)
    for a in legal:
        if str(a) == want:
            return a, []
    low = want.lower()
    folded = [a for a in legal if str(a).lower() == low]
    if len(folded) == 1:
        return folded[0], []
    if not low:
        return None, []
    typed = low.split(" ")
    prefixed = [a for a in legal if _prefix_of(typed, str(a).lower().split(" "))]
    if len(prefixed) == 1:
        return prefixed[0], []
    return None, prefixed


def nearest_notations(legal: list[Action], text: str, n: int = 5) -> tuple[str, ...]:
    """Up to ``n`` legal notations closest to ``text`` (same first word first, then by
    similarity)."""
    want = normalise(text).lower()
    names = [str(a) for a in legal]
    head = want.split(" ", 1)[0]
    same_head = [s for s in names if s.lower().split(" ", 1)[0] == head]
    pool = same_head or names
    close = difflib.get_close_matches(want, [s.lower() for s in pool], n=n, cutoff=0.0)
    by_low = {s.lower(): s for s in pool}
    return tuple(by_low[c] for c in close)


def generic_refusal(state: GameState, text: str, legal: list[Action] | None = None,
                    nearest: bool = True) -> Refusal | None:
    """The engine's own analysis of a refused notation, used when the game gives none.

    ``legal``: the state's legal actions when the caller has them already; ``nearest``:
    False leaves :attr:`Refusal.nearest` empty for the caller to fill only if it needs
    it (the similarity search is the costly part). Returns None when ``text`` resolves to
    a legal action.
    """
    want = normalise(text)
    if not want:
        return Refusal(text, "empty", "Nothing was typed.")
    if state.is_terminal():
        return Refusal(text, "game_over", "The game is over; no action can be taken.")
    if legal is None:
        legal = state.legal_actions()
    action, several = resolve_notation(legal, want)
    if action is not None:
        return None
    if several:
        return Refusal(text, "ambiguous",
                       f"{want!r} matches {len(several)} legal actions; type more of it.",
                       tuple(str(a) for a in several[:5]))
    head = want.lower().split(" ", 1)[0]
    heads = {str(a).lower().split(" ", 1)[0] for a in legal}
    close = nearest_notations(legal, want) if nearest else ()
    if head in heads:
        return Refusal(text, "malformed",
                       f"'{head}' is legal now, but not with these details: {want!r}.", close)
    return Refusal(text, "not_now",
                   f"{want!r} is not a legal action for seat {state.current_player()} now.",
                   close)


def with_nearest(state: GameState, found: Refusal | None) -> Refusal | None:
    """``found`` with up to five legal notations near its text added (those with the same
    action word, longest common start first; else the first legal ones), so the engine's
    similarity search is not needed. Unchanged when None or already given."""
    if found is None or found.nearest:
        return found
    from dataclasses import replace

    want = normalise(found.text).lower()
    head = want.split(" ", 1)[0]
    names = [str(a) for a in state.legal_actions()]
    same = [n for n in names if n.lower().split(" ", 1)[0] == head]

    def common(n: str) -> int:
        k = 0
        for x, y in zip(n.lower(), want, strict=False):
            if x != y:
                break
            k += 1
        return k

    pool = sorted(same, key=common, reverse=True) if same else names
    return replace(found, nearest=tuple(pool[:5]))
