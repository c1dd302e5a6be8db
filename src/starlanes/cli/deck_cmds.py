"""``starlanes deck``: build Galactic Empires decks of one's own in the terminal, check them
by the construction rules (ruling GE-OPEN-01), share them as deck codes; and the helper
``seat_setups`` that turns ``play --deck SEAT=CODE_OR_FILE`` into the game's per-seat
``seat_setup`` option.

A deck is a TOML file (``name``, ``major``, ``[cards]``; see docs/decks.md) or a deck code
(``GE1-...``); every command that reads a deck takes either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from starlanes.cli.app import ContentDir, app, fail
from starlanes.engine import (
    SEAT_SETUP,
    BadOptionError,
    StarlanesError,
    game_class,
    game_module,
    load,
)

GAME = "galactic-empires"

deck_app = typer.Typer(
    name="deck", no_args_is_help=True,
    help="Galactic Empires decks of your own: make, show, check, share as a code, import.")
app.add_typer(deck_app)

DeckArg = Annotated[str, typer.Argument(
    help="A deck file (TOML: name, major, [cards]) or a deck code (GE1-...).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")]


def _game(content: Path | None) -> Any:
    opts: dict[str, Any] = {"structure": "standard"}
    if content is not None:
        opts["content"] = str(content)
    try:
        return load(GAME, players=2, **opts)
    except StarlanesError as e:
        fail(str(e))


def _modules() -> tuple[Any, Any]:
    return game_module(GAME, "decks"), game_module(GAME, "deck_code")


def _read(game: Any, given: str) -> Any:
    """The deck list of a file or a code; fails with the reason."""
    decks, codes = _modules()
    path = Path(given).expanduser()
    try:
        if path.is_file():
            return decks.load_file(path)
        if given.strip().upper().startswith(codes.PREFIX):
            return codes.decode(game.content, given)
        raise BadOptionError(f"{given!r} is neither a deck file nor a deck code (GE1-...)")
    except StarlanesError as e:
        fail(str(e))


def _card_counts(items: list[str] | None) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items or ():
        cid, eq, n = item.partition("=")
        cid = cid.strip()
        if not cid:
            fail(f"--card {item!r} is not of the form CARD or CARD=COPIES")
        try:
            counts[cid] = int(n) if eq else 1
        except ValueError:
            fail(f"--card {item!r}: the copies must be a whole number")
        if not 0 <= counts[cid] <= 255:
            fail(f"--card {item!r}: copies lie in 0..255")
    return counts


def _write(path: Path, deck: Any, force: bool) -> None:
    decks, _ = _modules()
    if path.exists() and not force:
        fail(f"{str(path)!r} exists; give --force to replace it")
    if not path.parent.is_dir():
        fail(f"folder {str(path.parent)!r} does not exist")
    path.write_text(decks.to_toml(deck), encoding="utf-8")


def _print_problems(game: Any, deck: Any) -> bool:
    from rich.markup import escape

    from starlanes.terminal import out, printable

    decks, _ = _modules()
    problems = decks.check(game.content, deck)
    if not problems:
        out.print(f"[green]legal[/green]: {deck.size} cards, a Standard deck by every "
                  "construction rule (ruling GE-OPEN-01)")
        return True
    for p in problems:
        out.print(f"[red]{escape(p.rule)}[/red]: {escape(printable(p.message))}",
                  soft_wrap=True)
    return False


@deck_app.command("new")
def new_cmd(
    path: Annotated[Path, typer.Argument(help="The deck file to write (TOML).")],
    name: Annotated[str, typer.Option(help="The deck's name.")],
    major: Annotated[str, typer.Option(
        help="The declared major empire (argonian, krebiz, corporate, mechad, or a minor "
             "empire: bolaar, vektrean, indirigan, dragon, pirate).")],
    start: Annotated[str, typer.Option(
        "--from", help="Start from a ready-made deck (e.g. argonian), a deck file or a "
                       "code.")] = "",
    card: Annotated[list[str] | None, typer.Option(
        "--card", "-c", help="CARD=COPIES to set (0 removes; CARD alone is 1); repeat.")] = None,
    force: Annotated[bool, typer.Option(help="Replace an existing file.")] = False,
    content: ContentDir = None,
) -> None:
    """Write a new deck file, empty or from a ready-made deck, with cards set by --card;
    then check it."""
    from rich.markup import escape

    from starlanes.terminal import out

    game = _game(content)
    decks, _ = _modules()
    cards: dict[str, int] = {}
    if start:
        if start in game.content.decks:
            cards = dict(decks.from_content(game.content, start).cards)
        else:
            cards = dict(_read(game, start).cards)
    for cid, k in _card_counts(card).items():
        if k:
            cards[cid] = k
        else:
            cards.pop(cid, None)
    deck = decks.DeckList(name=name, major=major.strip().lower(), cards=cards)
    _write(path, deck, force)
    out.print(f"wrote {escape(str(path))}")
    _print_problems(game, deck)


@deck_app.command("set")
def set_cmd(
    path: Annotated[Path, typer.Argument(help="The deck file to change.")],
    card: Annotated[list[str], typer.Argument(help="CARD=COPIES (0 removes; CARD is 1).")],
    content: ContentDir = None,
) -> None:
    """Set the copies of cards in a deck file; then check it."""
    game = _game(content)
    deck = _read(game, str(path))
    cards = dict(deck.cards)
    for cid, k in _card_counts(card).items():
        if k:
            cards[cid] = k
        else:
            cards.pop(cid, None)
    deck = deck.model_copy(update={"cards": cards})
    _write(path, deck, force=True)
    _print_problems(game, deck)


@deck_app.command("show")
def show_cmd(
    deck_given: DeckArg,
    pool: Annotated[bool, typer.Option(
        "--pool", help="Browse the whole card pool with this deck's copies beside each "
                       "card (filters as 'starlanes cards').")] = False,
    empire: Annotated[str, typer.Option(help="Only cards of this empire.")] = "",
    card_type: Annotated[str, typer.Option(
        "--type", help="Only this type letter (T, S, B, C, E, O, H, M, D, Q).")] = "",
    grep: Annotated[str, typer.Option(
        "--grep", "-g", help="Only cards whose id, name or text contains this.")] = "",
    content: ContentDir = None,
    json_output: JsonFlag = False,
) -> None:
    """Show a deck: its cards by type with copies, its cost curve and point types, and
    whether it is legal; with --pool, browse the pool beside it."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from starlanes.terminal import out, printable

    game = _game(content)
    decks, _ = _modules()
    deck = _read(game, deck_given)
    c = game.content
    shown = [card for card in sorted(c.cards.values(), key=lambda k: (k.type, k.empire,
                                                                       k.name))
             if (pool or card.id in deck.cards)
             and (not empire or card.empire == empire.lower())
             and (not card_type or card.type == card_type.upper())
             and (not grep or grep.lower() in f"{card.id} {card.name} {card.text}".lower())]
    summary = decks.summary(c, deck)
    if json_output:
        typer.echo(json.dumps({"deck": deck.model_dump(), "summary": summary,
                               "problems": [p.to_json() for p in decks.check(c, deck)],
                               "cards": [k.id for k in shown]}, indent=1))
        return
    out.print(f"[bold]{escape(printable(deck.name))}[/bold], {escape(deck.major)}, "
              f"{deck.size} cards")
    table = Table(show_lines=False)
    table.add_column("copies", justify="right")
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("card", ratio=1, overflow="fold")
    for card in shown:
        body = Text(card.name, style="bold")
        body.append(f"  {card.type} {card.empire}"
                    + (f" strength {card.strength}" if card.strength else ""), style="dim")
        need = ", ".join(f"{v} {k}" for k, v in card.requires.model_dump().items() if v)
        give = ", ".join(f"{v} {k}" for k, v in card.generates.model_dump().items() if v)
        if need or give:
            body.append(f"  needs {need or '-'}; gives {give or '-'}", style="dim")
        table.add_row(str(deck.cards.get(card.id, "")), escape(card.id), body)
    out.print(table)
    out.print("by type: " + ", ".join(f"{t} {n}" for t, n in summary["by_type"].items()))
    out.print("cost curve (points to Engage: cards): "
              + ", ".join(f"{s}: {n}" for s, n in summary["curve"].items()))
    for label in ("requires", "generates"):
        pts = summary[label]
        out.print(f"{label}: " + (", ".join(f"{v} {k}" for k, v in pts.items()) or "none"))
    _print_problems(game, deck)


@deck_app.command("check")
def check_cmd(deck_given: DeckArg, content: ContentDir = None,
              json_output: JsonFlag = False) -> None:
    """Check a deck by the Standard Game's construction rules; exit status 1 when it
    breaks one (each problem names the rule and the card)."""
    game = _game(content)
    decks, _ = _modules()
    deck = _read(game, deck_given)
    if json_output:
        problems = decks.check(game.content, deck)
        typer.echo(json.dumps({"legal": not problems,
                               "problems": [p.to_json() for p in problems]}, indent=1))
        raise typer.Exit(1 if problems else 0)
    if not _print_problems(game, deck):
        raise typer.Exit(1)


@deck_app.command("code")
def code_cmd(deck_given: DeckArg, content: ContentDir = None) -> None:
    """Print a deck's code (one line to paste into a chat; 'starlanes deck import' and the
    browser's deck builder read it back)."""
    game = _game(content)
    _, codes = _modules()
    try:
        typer.echo(codes.encode(game.content, _read(game, deck_given)))
    except StarlanesError as e:
        fail(str(e))


@deck_app.command("import")
def import_cmd(
    code: Annotated[str, typer.Argument(help="A deck code (GE1-...).")],
    path: Annotated[Path, typer.Argument(help="The deck file to write (TOML).")],
    force: Annotated[bool, typer.Option(help="Replace an existing file.")] = False,
    content: ContentDir = None,
) -> None:
    """Write the deck of a code into a deck file; then check it."""
    from rich.markup import escape

    from starlanes.terminal import out, printable

    game = _game(content)
    _, codes = _modules()
    try:
        deck = codes.decode(game.content, code)
    except StarlanesError as e:
        fail(str(e))
    _write(path, deck, force)
    out.print(f"wrote {escape(str(path))}: {escape(printable(deck.name))}")
    _print_problems(game, deck)


def seat_setups(game_id: str, items: list[str] | None, players: int,
                options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the ``seat_setup`` option built from ``--deck SEAT=CODE_OR_FILE``
    items (a deck file becomes its code for the game's content). Raises BadOptionError for
    an item that is not SEAT=..., a seat out of range, a seat given twice, or a game whose
    seats bring nothing."""
    if not items:
        return options
    if SEAT_SETUP in options:
        raise BadOptionError("give decks with --deck, not -o seat_setup")
    game = load(game_id, players=players, **options)
    kind = game.seat_setup_kind()
    if not kind:
        raise BadOptionError(f"seats of {game_class(game_id).title} bring no deck with "
                             "these options (Galactic Empires: -o structure=standard)")
    module = game_module(game_id, "seat_setup")
    texts = [""] * players
    for item in items:
        seat_text, eq, given = item.partition("=")
        if not eq or not seat_text.strip().isdigit():
            raise BadOptionError(f"--deck {item!r} is not of the form SEAT=CODE_OR_FILE")
        seat = int(seat_text)
        if not 0 <= seat < players:
            raise BadOptionError(f"--deck {item!r}: seats are 0..{players - 1}")
        if texts[seat]:
            raise BadOptionError(f"--deck gives seat {seat} two decks")
        texts[seat] = module.setup_text(game, given.strip())
    return {**options, SEAT_SETUP: tuple(texts)}
