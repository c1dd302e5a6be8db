"""``starlanes serve`` (the game server and browser tables), ``starlanes db upgrade`` and
``starlanes export GAME_ID`` (a stored game as the usual game record)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from starlanes.cli.app import app
from starlanes.engine import BadOptionError
from starlanes.terminal import err, out

DbUrl = Annotated[str | None, typer.Option(
    "--db", help="Database URL, e.g. postgresql+psycopg://user@host/db "
                 "[default: SQLite file starlanes.db in your data directory].")]

SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for the requests in flight."""

db_app = typer.Typer(help="The game server's database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        help="Address to listen on; 127.0.0.1 keeps the server to this machine.")]
        = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: DbUrl = None,
    bot_workers: Annotated[int, typer.Option(
        min=0, max=64, help="Processes that think for bot seats (0: in the server).")] = 2,
) -> None:
    """Start the game server: lobby, seats, bots and the browser tables."""
    import uvicorn

    from starlanes.server.app import create_app
    from starlanes.server.store import database_url

    url = database_url(db)
    application = create_app(url, bot_workers=bot_workers)
    shown = "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0") else host
    out.print(f"starlanes server on http://{shown}:{port}/  (database {escape(_safe(url))})")
    out.print("open that address in a browser; Ctrl-C stops the server")
    # Everything loaded so far (modules, game content) lives as long as the server: keep it
    # out of the cycle collector's full passes, which would otherwise scan it again and
    # again and pause every game while they do.
    gc.collect()
    gc.freeze()
    # SIGINT / SIGTERM: stop accepting, close the sockets, give requests in flight a few
    # seconds, then stop bots and finish the queued writes (a second signal stops at once).
    uvicorn.run(application, host=host, port=port, log_level="warning",
                timeout_graceful_shutdown=SHUTDOWN_SECONDS)


@db_app.command("upgrade")
def db_upgrade(db: DbUrl = None) -> None:
    """Create the database or bring it to the newest schema (Alembic migrations)."""
    from starlanes.server.store import database_url, upgrade

    url = database_url(db)
    upgrade(url)
    out.print(f"database {escape(_safe(url))} is at the newest schema")


@app.command()
def export(
    game_id: Annotated[str, typer.Argument(help="The server's game id (from its link).")],
    db: DbUrl = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="File to write [default: stdout].")] = None,
) -> None:
    """Write a stored game as a game record that 'starlanes replay' reads."""
    from starlanes.server.service import export_record
    from starlanes.server.store import Store, database_url, upgrade

    url = database_url(db)
    upgrade(url)
    record = export_record(Store(url), game_id)
    if output is None:
        sys.stdout.write(record.to_json() + "\n")
        return
    try:
        record.save(output)
    except OSError as e:
        raise BadOptionError(f"cannot write {output}: {e.strerror}") from None
    err.print(f"record of game {escape(game_id)} written to {escape(str(output))}")


def _safe(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return f"{scheme}://{user}@{tail}"
