"""``starlanes ladder GAME...`` (the catalogue bots' ratings, measured in tournaments) and
``starlanes ratings recompute`` (the players' ratings rebuilt from the stored games)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from starlanes.cli.app import MAX_GAMES, MasterSeed, app, games_help, writable_file
from starlanes.engine import BadOptionError

ratings_app = typer.Typer(help="Players' ratings on the game server.", no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


@app.command()
def ladder(
    games_ids: Annotated[list[str], typer.Argument(
        metavar="GAME", help=games_help(what="Game ids, one or more of"))],
    games: Annotated[int, typer.Option(
        "--games", min=1, max=MAX_GAMES,
        help="Games per game id (a multiple of the number of bots keeps the seats "
             "balanced).")] = 20,
    out_path: Annotated[Path | None, typer.Option(
        "--out", help="Ladder file to write; entries of other games in it are kept "
                      "[default: the server's packaged ladder.json].")] = None,
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: each game's minimum).")] = None,
    seed: MasterSeed = 0,
    workers: Annotated[int, typer.Option(
        min=1, help="Worker processes (1 plays in this process).")] = 2,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Server TOML configuration whose bot catalogue to rate "
                         "[default: the default catalogue].")] = None,
) -> None:
    """Rate the server's catalogue bots against each other (a seat-balanced tournament per
    game, progress on stderr) and write their ratings into the ladder file the server loads
    at start."""
    from rich.markup import escape
    from rich.table import Table

    from starlanes.engine import game_class
    from starlanes.server.community.ladder import LADDER_FILE, run_ladder, write_ladder
    from starlanes.server.config import load_config
    from starlanes.terminal import err, out

    path = out_path or LADDER_FILE
    writable_file(path, "--out file")
    for game in games_ids:
        game_class(game)  # BadOptionError names the known games
    settings = load_config(config)
    command = shlex.join(["starlanes", "ladder", *sys.argv[2:]]) if sys.argv[1:2] == [
        "ladder"] else f"starlanes ladder {' '.join(games_ids)} --games {games}"
    entries = {}
    for game in games_ids:
        bots = settings.bots_for(game)  # a bot made for other games sits out
        if games % len(bots):
            err.print(f"[yellow]note: {games} games is not a multiple of {len(bots)} bots "
                      f"in {game}; the seats are not exactly balanced[/yellow]")
        entries[game] = run_ladder(game, bots, games, players, seed, workers,
                                   command=command)
        write_ladder(path, {game: entries[game]})  # a long run keeps what it measured
    for game, entry in entries.items():
        table = Table(title=f"{game}: {entry['games']} games, {entry['players']} players, "
                            f"{entry['wall_s']:.0f} s")
        for col in ("bot", "mu", "sigma", "seats"):
            table.add_column(col, justify="left" if col == "bot" else "right")
        ranked = sorted(entry["bots"].items(), key=lambda kv: -(kv[1]["mu"]
                                                                 - 3 * kv[1]["sigma"]))
        for name, bot in ranked:
            table.add_row(name, f"{bot['mu']:.2f}", f"{bot['sigma']:.2f}", str(bot["games"]))
        out.print(table)
    out.print(f"ladder written to {escape(str(path))}")


@ratings_app.command("recompute")
def ratings_recompute(
    db: Annotated[str | None, typer.Option(
        "--db", help="Database URL [default: SQLite file starlanes.db in your data "
                     "directory].")] = None,
    game: Annotated[str | None, typer.Option(
        "--game", help="Only this game's ratings [default: every game].")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The server's TOML configuration (its bot catalogue).")] = None,
) -> None:
    """Rebuild the players' ratings from scratch from the stored rated games, in the order
    they were rated (bots keep their ladder ratings)."""
    from starlanes.server.community.ratings import recompute_database
    from starlanes.server.config import load_config
    from starlanes.server.store import database_url
    from starlanes.terminal import out

    if game is not None:
        from starlanes.engine import game_class

        game_class(game)
    url = database_url(db)
    try:
        count = recompute_database(url, load_config(config), game)
    except ValueError as e:
        raise BadOptionError(str(e)) from None
    out.print(f"ratings recomputed from {count} rated games")
