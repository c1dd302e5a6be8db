"""``starlanes games``, ``starlanes cards`` and ``starlanes rules``: the games, their options,
their content entries and their rules reference."""


from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Annotated

import typer

from starlanes.cli.app import ContentDir, GameOptions, app, fail, games_help, parse_options
from starlanes.engine import EntryText, StarlanesError, game_class, game_ids, load

JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of a table.")]


# ---------------------------------------------------------------------- games
@app.command("games")
def games_cmd(
    game: Annotated[str | None, typer.Argument(
        help=games_help(what="A game whose options to show (name, type, default, allowed "
                              "values, what each settles)"))] = None,
    json_output: JsonFlag = False,
) -> None:
    """List the games starlanes plays, or one game's options.

    Options are given to play, simulate and tournament as -o NAME=VALUE; content overrides
    as -o content.FILE.ID.KEY=VALUE (see 'starlanes cards GAME' for the ids)."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from starlanes.terminal import out

    if game is None:
        rows = [{"id": gid, "title": (cls := game_class(gid)).title,
                 "players": f"{cls.min_players}-{cls.max_players}", "summary": cls.summary}
                for gid in game_ids()]
        if json_output:
            typer.echo(json.dumps(rows, indent=1))
            return
        table = Table(title="starlanes games")
        table.add_column("id", style="bold", no_wrap=True)
        table.add_column("title")
        table.add_column("players", justify="center", no_wrap=True)
        table.add_column("summary")
        for r in rows:
            table.add_row(r["id"], escape(r["title"]), r["players"], escape(r["summary"]))
        out.print(table)
        out.print("'starlanes games GAME' shows a game's options; 'starlanes rules GAME' "
                  "its rules; 'starlanes cards GAME' its content.")
        return
    try:
        cls = game_class(game)
    except StarlanesError as e:
        fail(str(e))
    options = cls.option_set.describe()
    if json_output:
        typer.echo(json.dumps({"id": cls.game_id, "title": cls.title,
                               "players": [cls.min_players, cls.max_players],
                               "summary": cls.summary, "options": options}, indent=1))
        return
    players = (f"{cls.min_players} players" if cls.min_players == cls.max_players
               else f"{cls.min_players} to {cls.max_players} players")
    out.print(f"[bold]{escape(cls.title)}[/bold] ({cls.game_id}), {players}: "
              f"{escape(cls.summary)}")
    table = Table(title="options (-o NAME=VALUE)", title_justify="left")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("type, default, allowed values; what it settles", ratio=1,
                     overflow="fold")
    for o in options:
        body = Text(f"{o['type']}, default {o['default']}; allowed: {o['allowed']}",
                    style="dim")
        body.append("\n" + o["settles"] + (f" (ruling {o['ruling']})" if o["ruling"] else ""),
                    style="")
        table.add_row(o["name"], body)
    out.print(table)


# ---------------------------------------------------------------------- cards
def _matches(e: EntryText, kind: str, grep: str, stats: list[tuple[str, str]]) -> bool:
    if kind and e.kind != kind:
        return False
    if grep and grep.lower() not in f"{e.id} {e.name} {e.text}".lower():
        return False
    for key, want in stats:
        have = e.stats.get(key)
        if have is None:
            return False
        if str(have).lower() != want.lower() and want.lower() not in [
                p.strip().lower() for p in str(have).split(",")]:
            return False
    return True


def _stat_line(stats: dict) -> str:
    return " | ".join(f"{k} {v}" if v is not True else k for k, v in stats.items()
                      if v not in (0, False, ""))


@app.command("cards")
def cards_cmd(
    game: Annotated[str, typer.Argument(help=games_help())],
    kind: Annotated[str, typer.Option(
        "--kind", "-k", help="Only entries of this kind (faction, unit, card, tech, planet, "
                             "merc, ship, empire ...; the listing names them).")] = "",
    grep: Annotated[str, typer.Option(
        "--grep", "-g", help="Only entries whose id, name or text contains this.")] = "",
    stat: Annotated[list[str] | None, typer.Option(
        "--stat", "-s", help="Only entries with this statistic, KEY=VALUE (e.g. cost=4, "
                             "empire=krebiz); repeat for several.")] = None,
    empire: Annotated[str, typer.Option(help="Galactic Empires: only this empire.")] = "",
    card_type: Annotated[str, typer.Option(
        "--type", help="Galactic Empires: only this type letter (T, S, B, C, E, O, H, M, D, "
                       "Q).")] = "",
    option: GameOptions = None,
    content: ContentDir = None,
    json_output: JsonFlag = False,
) -> None:
    """List a game's content entries (factions, units, cards, techs, planets, ships,
    empires ...) with their text and statistics, as loaded with the given content and
    options; the id column is what you type at the table and in -o content.FILE.ID.KEY."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from starlanes.terminal import out

    try:
        g = load(game, **parse_options(option, content))
    except StarlanesError as e:
        fail(str(e))
    filters: list[tuple[str, str]] = []
    for item in stat or ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            fail(f"--stat {item!r} is not of the form KEY=VALUE")
        filters.append((key.strip(), value.strip()))
    if empire:
        filters.append(("empire", empire))
    if card_type:
        filters.append(("type", card_type.upper()))
    everything = g.entries()
    kinds = list(dict.fromkeys(e.kind for e in everything))
    k = kind.lower().strip()
    if k and k not in kinds and k.endswith("s") and k[:-1] in kinds:
        k = k[:-1]
    if k and k not in kinds:
        fail(f"{game} has no entries of kind {kind!r}; kinds: {', '.join(kinds)}")
    chosen = [e for e in everything if _matches(e, k, grep, filters)]
    if json_output:
        typer.echo(json.dumps([asdict(e) for e in chosen], indent=1))
        return
    if not chosen:
        fail(f"no {k or 'entry'} of {game} matches the filters")
    for kd in dict.fromkeys(e.kind for e in chosen):
        group = [e for e in chosen if e.kind == kd]
        table = Table(title=f"{g.title}: {kd} ({len(group)})", show_lines=False,
                      title_justify="left")
        table.add_column("id", style="bold", no_wrap=True,
                         min_width=max(len(e.id) for e in group))
        table.add_column("name, text and statistics", ratio=1, overflow="fold")
        for e in group:
            body = Text(e.name, style="bold")
            body.append(": " + e.text if e.text else "", style="")
            line = _stat_line(e.stats)
            if line:
                body.append("\n" + line, style="dim")
            if e.source == "designed":
                body.append(" (designed)", style="dim italic")
            table.add_row(escape(e.id), body)  # an id from a content file
        out.print(table)


# ---------------------------------------------------------------------- rules
@app.command("rules")
def rules_cmd(
    game: Annotated[str, typer.Argument(help=games_help())],
    topic: Annotated[str | None, typer.Argument(
        help="A section: its rule group (RD-BAT or BAT), a rule ID (RD-BAT-08) or a word of "
             "its title (battle). Without it, the whole reference.")] = None,
    list_sections: Annotated[bool, typer.Option(
        "--list", help="List the sections (rule group and title).")] = False,
    plain: Annotated[bool, typer.Option(
        "--plain", help="Print the Markdown source instead of rendering it.")] = False,
) -> None:
    """Show a game's rules reference: how to play, one section per rule group, with the
    rule IDs each paragraph rests on and the project's rulings."""
    from rich.markdown import Markdown
    from rich.markup import escape

    from starlanes.reference import find_sections, reference_sections
    from starlanes.terminal import out

    try:
        game_class(game)
        sections = reference_sections(game)
        chosen = sections if topic is None else find_sections(game, topic)
    except StarlanesError as e:
        fail(str(e))
    if list_sections:
        for s in chosen:
            if s.group:
                out.print(f"{s.group:<12} {escape(s.title)}", soft_wrap=True)
        return
    text = "\n\n".join(s.markdown for s in chosen)
    if plain:
        typer.echo(text)
    elif out.is_terminal and sys.stdin.isatty():
        with out.pager(styles=True):  # $PAGER (or less); never when piped
            out.print(Markdown(text))
    else:
        out.print(Markdown(text))


