"""The action menu of the terminal table and the help commands built on the explanations.

:class:`ActionMenu` numbers the legal actions grouped by kind (from ``game.describe``),
each with its cost, and with its full text when the choice is small (a faction offer, a
card window). :func:`describe_lines` answers ``? N``, :func:`refusal_lines` answers
``why`` and :func:`info_lines` answers ``info THING`` from the game's content entries
(``game.entries()``) and, for things on the table (ships, planets, units), from the
seat's observation. Everything is read through the engine contract, so every game works;
a game without explanations falls back to its notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape

from starlanes.engine import Action, GameState, game_module
from starlanes.engine.explain import ActionDescription, EntryText, Refusal

from .common import seat_label

LAST_KINDS = frozenset({"turn", "end", "done", "pass"})
"""Kinds listed after all others."""

SHOW_TEXT_UP_TO = 6
"""Menus with at most this many actions show each action's full text."""


def battle_odds_line(state: GameState, action: Action) -> str:
    """The odds of the battle ``action`` would start, worked out on a determinisation for
    the seat deciding (so nothing it may not see goes in), as one line; empty when the
    action starts no battle."""
    import random

    from starlanes.analysis.odds import OddsError, action_odds

    world = state.determinize(state.current_player(), random.Random(len(state.history)))
    try:
        report = action_odds(world, action, trials=300)
    except OddsError:
        return ""
    if report is None:
        return ""
    o = report.outcomes
    estimated = "" if report.method == "exact" else " (estimated)"
    return (f"battle odds: win {o.get('attacker_wins', 0):.0%}, lose "
            f"{o.get('defender_wins', 0):.0%}, both destroyed "
            f"{o.get('mutual_destruction', 0):.0%}{estimated}")


def safe_describe(state: GameState, action: Action) -> ActionDescription | None:
    """``game.describe`` or None when the game has no explanations for it."""
    try:
        return state.game.describe(state, action)
    except (NotImplementedError, KeyError):
        return None


def rules_hint(game_id: str, section: str) -> str:
    """Where to read a rule group: the ``starlanes rules`` command and the reference file."""
    topic = f" {section}" if section else ""
    return f"starlanes rules {game_id}{topic}  (docs/rules/{game_id}.md)"


@dataclass
class ActionMenu:
    """The legal actions of one decision, numbered in display order (grouped by kind)."""

    state: GameState
    actions: list[Action]
    numbered: list[Action] = field(default_factory=list)
    descriptions: dict[Action, ActionDescription | None] = field(default_factory=dict)
    groups: list[tuple[str, list[Action]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        by_kind: dict[str, list[Action]] = {}
        for a in self.actions:
            d = safe_describe(self.state, a)
            self.descriptions[a] = d
            kind = d.kind if d is not None else str(a).split(" ", 1)[0]
            by_kind.setdefault(kind, []).append(a)
        # ending the turn or a step comes last, after the actions of the turn
        self.groups = sorted(by_kind.items(), key=lambda kv: kv[0] in LAST_KINDS)
        self.numbered = [a for _, group in self.groups for a in group]

    def number_of(self, action: Action) -> int:
        return self.numbered.index(action) + 1

    def pick(self, n: int) -> Action | None:
        return self.numbered[n - 1] if 1 <= n <= len(self.numbered) else None

    def lines(self, width: int = 80) -> list[str]:
        """Rich-markup lines: a header per kind, then ``N. notation (cost)`` and the
        action's label in words (``Build a Warp on Wren (E5a) - 4 resources``); a cost
        every action of a group shares is shown once in its header; groups of more than
        :data:`SAY_WHO_MOVES_UP_TO` are laid out in columns of notations that fit
        ``width`` (``? N`` gives the rest), small menus show each action's text too."""
        full = len(self.numbered) <= SHOW_TEXT_UP_TO
        said = menu_text_kinds(self.state)
        out = ["[bold]Legal actions[/bold]"]
        n = 0
        for kind, group in self.groups:
            costs = {d.cost if d is not None else "" for d in map(self.descriptions.get, group)}
            shared = next(iter(costs)) if len(group) > 1 and len(costs) == 1 else ""
            if len(self.groups) > 1 or shared:
                each = f", each [dim]{escape(shared)}[/dim]" if shared else ""
                out.append(f" [bold cyan]{escape(kind)}[/bold cyan] ({len(group)}){each}")
            cells: list[tuple[str, str]] = []  # (plain, markup)
            described = [self.descriptions[a] for a in group]
            for a, d in zip(group, described, strict=True):
                n += 1
                cost = f" ({d.cost})" if d is not None and d.cost and not shared else ""
                plain = f"{n:>2}. {a}{cost}"
                label = f"  {escape(d.label)}" if full and d is not None and d.label else ""
                cells.append((plain, f"{n:>2}. {escape(str(a))}"
                              + (f"[dim]{escape(cost)}[/dim]" if cost else "") + label))
                if full and d is not None:
                    cells.append(("", f"    [dim]{escape(d.text)}[/dim]"))
            labelled = any(d is not None and d.label for d in described)
            if not full and (kind in said or labelled) and len(group) <= SAY_WHO_MOVES_UP_TO:
                # the notation to type, then what it does: the label, or for a move, whose
                # notation does not name the units, the text saying what goes
                out.extend(_with_text(cells, described, width, text=kind in said))
                continue
            out.extend(_columns(cells, width) if not full else [m for _, m in cells])
        if not full:
            out.append("[dim]? N explains action N; why explains a refusal; help lists "
                       "commands[/dim]")
        return out

    def compact_lines(self, width: int = 80) -> list[str]:
        """The menu in fewer rows, for a screen that cannot hold :meth:`lines`: a header
        per kind, then the numbered notations in as many columns as fit ``width``, without
        costs or texts (``? N`` gives them)."""
        out = ["[bold]Legal actions[/bold] [dim](? N: an action's cost and text)[/dim]"]
        n = 0
        for kind, group in self.groups:
            if len(self.groups) > 1:
                out.append(f" [bold cyan]{escape(kind)}[/bold cyan] ({len(group)})")
            cells = []
            for a in group:
                n += 1
                cells.append((f"{n:>2}. {a}", f"{n:>2}. {escape(str(a))}"))
            out.extend(_columns(cells, width, packed=True))
        return out


def menu_text_kinds(state: GameState) -> frozenset[str]:
    """The kinds of action whose notation does not say which units go, as the game's
    ``explain`` module names them (``MENU_TEXT_KINDS``): the menu adds each one's
    description (``Move 3 carrier from A1a to A1, carrying 4 infantry``)."""
    module = game_module(type(state.game), "explain")
    return frozenset(getattr(module, "MENU_TEXT_KINDS", ()))


SAY_WHO_MOVES_UP_TO = 30
"""Groups up to this many actions get one line each with the action's label (a move
group: with what moves)."""


def _with_text(cells: list[tuple[str, str]], described: list[ActionDescription | None],
               width: int, text: bool = True) -> list[str]:
    """One line per action: its cell, then its description (``text``) or else its label,
    cut to fit ``width``."""
    pad = max(len(p) for p, _ in cells) + 2
    rows = []
    for (plain, markup), d in zip(cells, described, strict=True):
        words = "" if d is None else d.text if text else d.label
        room = width - 2 - pad
        if room < 12 or not words:
            rows.append("  " + markup)
            continue
        if len(words) > room:
            words = words[:room - 3].rstrip() + "..."
        shown = f"[dim]{escape(words)}[/dim]" if text else escape(words)
        rows.append("  " + markup + " " * (pad - len(plain)) + shown)
    return rows


def _columns(cells: list[tuple[str, str]], width: int, packed: bool = False) -> list[str]:
    """Lay cells out row by row in as many columns as fit ``width`` (2 spaces indent);
    up to 4 cells take a row each unless ``packed``."""
    if len(cells) <= 4 and not packed:
        return ["  " + m for _, m in cells]
    cell = max(len(p) for p, _ in cells) + 2
    per_row = max(1, (width - 2) // cell)
    rows = []
    for i in range(0, len(cells), per_row):
        chunk = cells[i:i + per_row]
        rows.append("  " + "".join(m + " " * (cell - len(p)) for p, m in chunk).rstrip())
    return rows


def describe_lines(game_id: str, d: ActionDescription | None, notation: str) -> list[str]:
    """The full explanation of one action (``? N``)."""
    if d is None:
        return [f"{escape(notation)}: this game has no explanation for it yet."]
    out = [f"[bold]{escape(d.notation)}[/bold]  [dim]({escape(d.kind)})[/dim]"]
    if d.label:
        out.append(escape(d.label))
    out.append(escape(d.text))
    if d.cost:
        out.append(f"cost: {escape(d.cost)}")
    if d.changes:
        out.append(f"changes: {escape(d.changes)}")
    if d.rules:
        out.append(f"rules: {escape(', '.join(d.rules))}")
    out.append(f"read more: {escape(rules_hint(game_id, d.section))}")
    return out


def refusal_lines(game_id: str, refusal: Refusal | None, menu: ActionMenu) -> list[str]:
    """The explanation of the last refused notation (``why``)."""
    if refusal is None:
        return ["Nothing was refused since your last decision."]
    out = [f"[bold]{escape(refusal.text)!r}[/bold] was refused ({escape(refusal.kind)}):",
           f"  {escape(refusal.reason)}"]
    if refusal.rules:
        from starlanes.engine.explain import rule_group

        out.append(f"  rules: {escape(', '.join(refusal.rules))}; read more: "
                   f"{escape(rules_hint(game_id, rule_group(refusal.rules[0])))}")
    if refusal.nearest:
        out.append("  nearest legal actions:")
        by_text = {str(a): a for a in menu.numbered}
        for text in refusal.nearest:
            a = by_text.get(text)
            num = f"{menu.number_of(a)}. " if a is not None else ""
            out.append(f"    {num}{escape(text)}")
    return out


# ---------------------------------------------------------------------- info
def _entries(state: GameState) -> list[EntryText]:
    try:
        return state.game.entries()
    except (NotImplementedError, AttributeError):
        return []


def _entry_lines(e: EntryText) -> list[str]:
    out = [f"[bold]{escape(e.name)}[/bold]  [dim]({escape(e.kind)} {escape(e.id)}"
           f"{', designed' if e.source == 'designed' else ''})[/dim]"]
    if e.text:
        out.append(f"  {escape(e.text)}")
    if e.stats:
        shown = [k if v is True else f"{k} {v}" for k, v in e.stats.items()
                 if v is not False and v != ""]
        out.append("  " + escape(", ".join(shown)))
    return out


def _walk(node: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every dict with an ``id`` in an observation, and every card written ``name#n`` in a
    list (a hand, a reserve, a discard pile), with the key it was found under."""
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        if "id" in node and not isinstance(node["id"], (dict, list)):
            found.append((path, node))
        for k, v in node.items():
            found.extend(_walk(v, k))
    elif isinstance(node, list):
        for v in node:
            if isinstance(v, str) and _INSTANCE.fullmatch(v):
                found.append((path, v))
            else:
                found.extend(_walk(v, path))
    return found


_INSTANCE = re.compile(r"([A-Za-z0-9_.+-]*)#(\d+)")
"""A thing as the tables print it: ``gas_giant#26`` (a card and its number), ``r#1`` (a
colour's ship 1), ``#5``."""
_KEEP_ZERO = frozenset({"shields", "hull", "lp", "ap", "strength", "vp", "resources"})
"""Keys whose 0 is news (shields down, no action points left); other zeros (no damage,
no research) are left out of ``info``."""


def _fact(key: str, value: Any, state: GameState) -> str | None:
    """One readable fact of an observed object, or None when it says nothing."""
    words = key.replace("_", " ")
    if key in ("owner", "holder", "controller"):
        if value is None or value == -1:
            return "no owner"
        return f"held by {seat_label(state, value)}" if isinstance(value, int) else (
            f"held by {value}")
    if value is None or value == -1 or value is False or value in ([], (), {}, ""):
        return None
    if value is True:
        return words
    if value == 0 and not isinstance(value, bool) and key not in _KEEP_ZERO:
        return None
    if isinstance(value, list | tuple):
        return f"{words} {', '.join(str(v) for v in value)}"
    return f"{words} {value}"


def _observed_lines(where: str, obj: Any, state: GameState) -> list[str]:
    kind = where.rstrip("s").replace("_", " ") or "object"
    if isinstance(obj, str):  # a card in a list: ``gas_giant#26`` in a hand
        place = {"hand": "in the hand", "reserve": "in the reserve",
                 "discards": "in a discard pile", "discard": "in the discard pile"}.get(
                     where, f"in {where.replace('_', ' ')}" if where else "on the table")
        return [f"[bold]{escape(obj)}[/bold] {escape(place)}"]
    facts = [f for k, v in obj.items() if k != "id" and (f := _fact(k, v, state))]
    return [f"[bold]{escape(kind)} {escape(str(obj['id']))}[/bold] on the table"
            + (f": {escape(', '.join(facts))}" if facts else "")]


def _named(obj: Any) -> str:
    """The content id an observed object is an instance of ('' if none)."""
    if isinstance(obj, str):
        return obj.partition("#")[0].lower()
    for key in ("kind", "card", "unit", "type"):
        if isinstance(obj.get(key), str):
            return obj[key].lower()
    return ""


def info_lines(state: GameState, seat: int, thing: str) -> list[str]:
    """Everything known about ``thing`` in any form the table prints: an id or a name
    (``A1a``, ``destroyer``, ``Gas Giant``), a numbered thing (``5``, ``#5``), a card or a
    ship with its number (``gas_giant#26``, ``r#1``): its content entry and, where it is on
    the table or in the seat's own hand, what the seat can see of it (never more than the
    seat's observation holds)."""
    want = thing.strip().lower()
    if not want.lstrip("#"):
        return ["info needs a name: info THING (a unit, card, planet, ship ...)"]
    form = _INSTANCE.fullmatch(want)
    number = form.group(2) if form else (want if want.isascii() and want.isdigit() else "")
    named = form.group(1) if form else ""
    entries = _entries(state)
    exact = [e for e in entries if want in (e.id.lower(), e.name.lower())]
    out: list[str] = []
    on_table = []
    for where, obj in _walk(state.observation(seat)):
        if isinstance(obj, str):
            hit = bool(number) and obj.lower().endswith(f"#{number}") and (
                not named or obj.lower() == want)
        else:
            ident = str(obj["id"]).lower()
            hit = ident == want or (bool(number) and ident.lstrip("#") == number)
        if hit:
            on_table.append((where, obj))
    for where, obj in on_table[:3]:
        out.extend(_observed_lines(where, obj, state))
        kind = _named(obj)
        exact += [e for e in entries if kind and e.id.lower() == kind and e not in exact]
    if named and not on_table:  # ``gas_giant#99``: the card, though not in sight
        card = [e for e in entries if e.id.lower() == named and e not in exact]
        if card:
            out.append(f"no {escape(want)} is in sight; the card:")
            exact += card
    for e in exact:
        out.extend(_entry_lines(e))
    if out:
        return out
    loose = [e for e in entries if e.id.lower().startswith(want)
             or want in e.name.lower()] if not number else []
    if len(loose) == 1:
        return _entry_lines(loose[0])
    if loose:
        names = ", ".join(e.id for e in loose[:12])
        return [f"{escape(thing)!r} matches several entries: {escape(names)}"]
    if number:
        return [f"nothing numbered {escape(number)} is on the table or in your hand"]
    if not entries:
        return [f"nothing called {escape(thing)!r} is on the table (this game lists no "
                "content entries yet)"]
    return [f"nothing called {escape(thing)!r}; try an id from 'starlanes cards "
            f"{state.game.game_id}'"]
