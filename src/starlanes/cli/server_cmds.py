"""``starlanes serve`` (the game server and browser tables), ``starlanes db upgrade`` and
``starlanes export GAME_ID`` (a stored game as the usual game record)."""

from __future__ import annotations

import gc
import json
import signal
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from starlanes.cli.app import STOP_SIGNALS, Stopped, app, received
from starlanes.engine import BadOptionError

DbUrl = Annotated[str | None, typer.Option(
    "--db", help="Database URL, e.g. postgresql+psycopg://user@host/db "
                 "[default: SQLite file starlanes.db in your data directory].")]

RedisUrl = Annotated[str | None, typer.Option(
    "--redis", help="Redis URL (redis://host:6379/0) shared by several servers and the bot "
                    "service [default: none: one server, bots in it].")]

SHUTDOWN_SECONDS = 3
"""How long a stopping server waits for the requests in flight."""

db_app = typer.Typer(help="The game server's database.", no_args_is_help=True)
app.add_typer(db_app, name="db")


LOOPBACK = ("127.0.0.1", "::1", "localhost")


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        help="Address to listen on; 127.0.0.1 keeps the server to this machine.")]
        = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535,
                                      help="Port to listen on (0: any free port).")] = 8000,
    db: DbUrl = None,
    bot_workers: Annotated[int, typer.Option(
        min=0, max=64, help="Processes that think for bot seats (0: in the server).")] = 2,
    config: Annotated[Path | None, typer.Option(
        "--config", help="TOML file of the server's configuration: public URL, bot "
                         "catalogue, content packs, limits, trusted proxies "
                         "(docs/security.md). STARLANES_* variables and flags win over it.")]
        = None,
    public_url: Annotated[str | None, typer.Option(
        help="The address players reach the server at (https://play.example.org); seat "
             "links and the websocket origin check use it [env STARLANES_PUBLIC_URL].")]
        = None,
    access_log: Annotated[bool | None, typer.Option(
        "--access-log/--no-access-log",
        help="Log every request on stderr, seat tokens redacted [default: on].")] = None,
    redis: RedisUrl = None,
    migrate: Annotated[bool, typer.Option(
        "--migrate/--no-migrate",
        help="Bring the database to the newest schema at start [default: on, off with "
             "--redis: run 'starlanes db upgrade' once instead].")] = True,
) -> None:
    """Start the game server: lobby, seats, bots and the browser tables. With --redis it
    is one of several servers on the same database (docs/deploy.md): any number may run,
    and 'starlanes bots' plays the bot seats."""
    import faulthandler
    import logging

    import uvicorn
    from rich.markup import escape

    from starlanes.server.app import create_app
    from starlanes.server.config import load_config
    from starlanes.server.store import database_url
    from starlanes.terminal import err, out

    if redis and database_url(db).startswith("sqlite"):
        raise BadOptionError("several servers need a database server: give --db "
                             "postgresql+psycopg://... with --redis")
    # a fatal signal (SIGBUS from a database file gone bad, SIGSEGV) is written to stderr
    # with the stack of every thread instead of a silent death
    faulthandler.enable()
    settings = load_config(config, public_url=public_url, access_log=access_log)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("starlanes").setLevel(logging.INFO)
    url = database_url(db)
    # From here until uvicorn takes the signals over, a stop signal is only remembered (an
    # exception raised in that window could be lost in the server's start-up and leave it
    # running): the server then stops as soon as it has started.
    early = _remember_stop_signals()
    sock = _bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    bind_url = f"http://{shown}:{bound_port}"
    link_host = "localhost" if bound_host in ("0.0.0.0", "::") else shown
    application = create_app(url, bot_workers=bot_workers, config=settings,
                             bind_url=f"http://{link_host}:{bound_port}",
                             migrate=migrate, redis_url=redis)
    everywhere = " (every interface of this machine)" if bound_host in ("0.0.0.0", "::") else ""
    out.print(f"starlanes server listening on {bind_url}/{everywhere}  "
              f"(database {escape(_safe(url))})")
    if settings.public_url:
        out.print(f"players reach it at {escape(settings.public_url)}/")
    elif host not in LOOPBACK:
        err.print("[yellow]warning:[/yellow] listening beyond this machine with no public URL: "
                  "seat links will name this machine as 'localhost'. Set --public-url (or "
                  "STARLANES_PUBLIC_URL) to the address players use, and serve it behind "
                  "HTTPS (docs/security.md).")
    out.print("open that address in a browser; Ctrl-C stops the server")
    # Everything loaded so far (modules, game content) lives as long as the server: keep it
    # out of the cycle collector's full passes, which would otherwise scan it again and
    # again and pause every game while they do.
    gc.collect()
    gc.freeze()
    # SIGINT / SIGTERM: stop accepting, close the sockets, give requests in flight a few
    # seconds, then stop bots and finish the queued writes (a second signal stops at once).
    server = _server(early, uvicorn.Config(
        application, log_level="warning", access_log=False,
        # the client address is the server's own business (trusted_proxies); uvicorn's
        # own X-Forwarded-For handling would trust loopback behind our back
        proxy_headers=False, server_header=False,
        # wsproto completes a websocket refused with an HTTP answer (a 429 for a client
        # over its socket quota) cleanly; uvicorn's default websocket protocol logs each
        # such refusal as an error
        ws="wsproto",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS))
    server.run(sockets=[sock])
    if early:  # stopped by a signal: exit as the command line does for it (130, 143, ...)
        if early[0] == signal.SIGINT:
            raise KeyboardInterrupt
        received.append(early[0])
        raise Stopped(early[0])


def _remember_stop_signals() -> list[int]:
    """Make SIGINT and SIGTERM (and SIGHUP) append to the list returned, nothing more."""
    early: list[int] = []
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        signal.signal(signum, lambda got, frame: early.append(got))
    return early


def _server(early: list[int], config: Any) -> Any:
    """uvicorn's server for ``config`` (a ``uvicorn.Config``), stopping right after its
    start-up when a stop signal came before it handled signals itself (``early``, from
    :func:`_remember_stop_signals`)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if early:
                self.should_exit = True

    return Server(config)


@app.command()
def bots(
    db: Annotated[str, typer.Option("--db", help="The servers' database URL "
                                    "(postgresql+psycopg://...).")],
    redis: Annotated[str, typer.Option("--redis", help="The servers' Redis URL.")],
    workers: Annotated[int, typer.Option(min=1, max=256, help="Worker processes that "
                                         "think for bot seats.")] = 2,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The servers' TOML configuration (bot catalogue, content packs, "
                         "bot budgets).")] = None,
    reclaim: Annotated[float, typer.Option(
        min=0.5, help="Seconds after which another worker takes over a job whose worker "
                      "went silent (slow bots: plus their budget).")] = 15.0,
    sweep: Annotated[float, typer.Option(
        min=0.5, help="Seconds between looks for games whose bot waits without a job.")]
        = 10.0,
) -> None:
    """Play the bot seats of every game of several servers (started with --redis), from
    Redis job queues; run as many as wanted, on any machines."""
    from rich.markup import escape

    from starlanes.server.bot_service import serve_bots, settings_for
    from starlanes.server.store import StoreError
    from starlanes.terminal import out

    if db.startswith("sqlite"):
        raise BadOptionError("the bot service needs the servers' database server: give "
                             "--db postgresql+psycopg://...")
    out.print(f"starlanes bot service: {workers} workers on {escape(_safe(db))}, "
              f"Redis {escape(_safe(redis))}; Ctrl-C stops it")
    import redis as redis_client

    try:
        serve_bots(settings_for(db, redis, config, reclaim, sweep), workers)
    except (ConnectionError, redis_client.ConnectionError) as e:
        raise BadOptionError(f"cannot reach Redis at {_safe(redis)}: {e}") from None
    except StoreError as e:
        raise BadOptionError(str(e)) from None


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; BadOptionError naming the address when it
    cannot be had (taken, not an address of this machine)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except OSError as e:
        raise BadOptionError(f"cannot listen on {host}: {e.strerror or e}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        raise BadOptionError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@db_app.command("upgrade")
def db_upgrade(db: DbUrl = None) -> None:
    """Create the database or bring it to the newest schema (Alembic migrations)."""
    from rich.markup import escape

    from starlanes.server.store import database_url, upgrade
    from starlanes.terminal import out

    url = database_url(db)
    upgrade(url)
    out.print(f"database {escape(_safe(url))} is at the newest schema")


@app.command()
def export(
    game_id: Annotated[str, typer.Argument(help="The server's game id (from its link).")],
    db: DbUrl = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="File to write [default: stdout].")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The server's TOML configuration (for its content packs).")] = None,
) -> None:
    """Write a stored game as a game record that 'starlanes replay' reads."""
    from starlanes.server.catalogue import Catalogue
    from starlanes.server.community.chat import with_chat
    from starlanes.server.config import load_config
    from starlanes.server.reading import export_record
    from starlanes.server.store import Store, database_url, upgrade

    url = database_url(db)
    upgrade(url)
    store = Store(url)
    record = export_record(store, game_id, Catalogue(load_config(config)))
    record = with_chat(record, store, game_id, set(),  # the game's chat goes with it
                       finished=record.finished or record.outcome is not None)
    if output is None:
        # ASCII-escaped JSON: a name from the network holding a C1 control or a bidi
        # override reaches the terminal as an escape (the same record when read back)
        sys.stdout.write(json.dumps(json.loads(record.to_json()), indent=1,
                                    ensure_ascii=True) + "\n")
        return
    from rich.markup import escape

    from starlanes.engine.files import write_file
    from starlanes.terminal import err

    write_file(output, record.to_json(), "record")  # whole or not at all
    err.print(f"record of game {escape(game_id)} written to {escape(str(output))}")


def _safe(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return f"{scheme}://{user}@{tail}"
