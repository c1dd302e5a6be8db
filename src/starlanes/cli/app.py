"""The ``starlanes`` app and what its commands share: option parsing, errors, agent lists.

The commands themselves live in the sibling modules and register on :data:`app`.

User errors (unknown game, bad option, bad agent spec, bad record, bad content) print one
line ``error: ...`` on stderr and exit with status 2; what a message quotes from a record or
a content file is shown without escape sequences or control characters (``printable``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from starlanes.engine import (
    AgentSpecError,
    BadOptionError,
    StarlanesError,
    game_class,
    load,
)

# The command modules import only what their options need; what a command runs (analysis,
# agents, the terminal table, rich renderables, pydantic content) is imported inside it,
# so that 'starlanes --help' and the light commands start fast.

app = typer.Typer(
    help="Play, simulate and replay space-strategy tabletop games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from starlanes import __version__
        from starlanes.build_kind import describe

        typer.echo(f"starlanes {__version__}, {describe()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the starlanes version and build (compiled or pure Python) and exit.")] = False,
) -> None:
    """Play, simulate and replay space-strategy tabletop games."""


# ---------------------------------------------------------------------- helpers
def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` in red on stderr and exit with ``code``."""
    _print_error(message)
    raise typer.Exit(code)


def _print_error(message: str) -> None:
    """``error: message`` in red on stderr, without escape sequences or control characters."""
    from rich.markup import escape

    from starlanes.terminal import err, printable

    err.print(f"[red]error: {escape(printable(message, newlines=True))}[/red]", soft_wrap=True)


def parse_options(items: Sequence[str] | None, content: Path | None = None) -> dict[str, str]:
    """``["round_limit=3", ...]`` as a dict; ``content`` adds the ``content`` option.

    Raises BadOptionError for an item without ``=`` or with an empty key.
    """
    opts: dict[str, str] = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise BadOptionError(f"option {item!r} is not of the form key=value")
        opts[key] = value.strip()
    if content is not None:
        if not content.is_dir():
            raise BadOptionError(f"content directory {str(content)!r} does not exist")
        opts["content"] = str(content)
    return opts


def split_list(text: str) -> list[str]:
    """Split a comma-separated list; agent parameters (``mcts:iterations=400,c=1.4``) stay
    with their agent: a part containing ``=`` but no ``:`` continues the previous spec."""
    items: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if items and "=" in part and ":" not in part and ":" in items[-1]:
            items[-1] += "," + part
        elif part:
            items.append(part)
        else:
            raise AgentSpecError(f"empty entry in the list {text!r}")
    return items


def checked_setup(game: str, players: int | None, seed: int, option: list[str] | None,
                  content: Path | None, agents: str) -> tuple[int, dict[str, str], list[str]]:
    """Players (default: the game's minimum), options and agent specs of a bot run,
    checked by loading the game once: bad players or options raise before any game."""
    n = players if players is not None else game_class(game).min_players
    opts = parse_options(option, content)
    load(game, players=n, seed=seed, **opts)
    return n, opts, split_list(agents)


GAME_IDS = ("rift-domination", "galactic-domination", "interstellar-ambitions",
            "galactic-empires")
"""The games' ids, written here (like the defaults below) so that '--help' lists them
without importing the games; a test holds them equal to ``starlanes.engine.game_ids()``."""
ODDS_GAMES = ("rift-domination", "interstellar-ambitions")
"""The games ``starlanes odds`` computes battles for."""


def games_help(ids: Sequence[str] = GAME_IDS, what: str = "Game id") -> str:
    """``Game id: rift-domination, ... or galactic-empires.``: an argument's help that
    lists the games it takes."""
    listed = ", ".join(ids[:-1]) + f" or {ids[-1]}" if len(ids) > 1 else ids[0]
    return f"{what}: {listed}."


PLOT_INSTALL = 'pip install "starlanes[plot]"'
"""How to get the charts: matplotlib is an extra, out of the core install."""


def have_matplotlib() -> bool:
    """Whether matplotlib (the ``plot`` extra) can be imported, without importing it."""
    import importlib.util

    try:
        return importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules
        return False


def chart_needs_matplotlib(option: str, leave_out: str) -> None:
    """Refuse an explicitly asked chart before any work when matplotlib is missing:
    BadOptionError naming the extra and what to do instead (``leave_out``)."""
    if not have_matplotlib():
        raise BadOptionError(f"{option} draws a chart, which needs matplotlib: {PLOT_INSTALL}"
                             f" (or {leave_out})")


GameOptions = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Game option NAME=VALUE; repeat for several. 'starlanes games GAME' "
    "lists a game's options with type, default, allowed values and what each settles. "
    "Content overrides: content.FILE.ID.KEY=VALUE, e.g. content.units.destroyer.cost=2 "
    "(ids from 'starlanes cards GAME').")]
ContentDir = Annotated[Path | None, typer.Option(
    help="Directory of content TOML files merged over the packaged ones; it may hold only "
         "the entries and keys it changes.")]
MasterSeed = Annotated[int, typer.Option(
    help="Master seed; game g uses a seed derived from it and g.")]
MAX_GAMES = 10_000_000
"""The most games one command plays: a bound that refuses absurd counts at once."""
DEFAULT_ACTION_CAP = 200_000
"""The default ``--action-cap``: the same as ``starlanes.analysis.DEFAULT_ACTION_CAP``,
written here so that the commands' options do not import the analysis package."""
ActionCap = Annotated[int, typer.Option(
    min=1, help="Stop a game after this many actions (end reason action_cap).")]


def writable_file(path: Path, what: str) -> None:
    """Check before any game is played that ``path`` can be written: its folder exists and
    it is not a folder itself. Raises BadOptionError naming ``what`` and the path."""
    if path.is_dir():
        raise BadOptionError(f"{what} {str(path)!r} is a directory, not a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise BadOptionError(f"{what} {str(path)!r}: folder {str(parent)!r} does not exist")


def writable_dir(path: Path, what: str) -> None:
    """Create ``path`` (and its parents) now, so a bad output folder fails before any game.
    Raises BadOptionError naming ``what`` when it cannot be made."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadOptionError(f"{what} {str(path)!r} cannot be created: {e.strerror}") from None


def seat_agents(agents: Sequence[str], players: int, game_number: int) -> list[str]:
    """The agent of every seat in game ``game_number``: the list is cycled to ``players``
    entries and rotated by the game number, so over ``players`` consecutive games every agent
    sits in every seat equally often."""
    if not agents:
        raise AgentSpecError("no agents given")
    if len(agents) > players:
        raise AgentSpecError(f"{len(agents)} agents named for {players} seats")
    cycled = [agents[i % len(agents)] for i in range(players)]
    return [cycled[(i + game_number) % players] for i in range(players)]


# ---------------------------------------------------------------------- signals
class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP reached the command: it stops as on Ctrl-C (workers ended, the
    game at the table saved), then exits with 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                     if hasattr(signal, name))
"""The signals that stop a command the way Ctrl-C does (SIGHUP: the terminal closed)."""


received: list[int] = []
"""The stop signals this process has received (in order)."""


def stop_on_signals() -> None:
    """Make SIGTERM and SIGHUP raise :class:`Stopped` in this process, so every Ctrl-C path
    runs: worker pools are terminated, ``play`` writes ``--save`` and the autosave. A
    worker process forked from this one inherits the handler; there it does what the
    signal does by default (the worker ends at once), and the command's own cleanup is
    left to the command's process."""
    owner = os.getpid()

    def handler(signum: int, frame: object) -> None:
        if os.getpid() != owner:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        received.append(signum)
        raise Stopped(signum)

    for signum in STOP_SIGNALS:
        signal.signal(signum, handler)


def interrupted_code(e: BaseException) -> int:
    """The exit status after ``e`` (Ctrl-C or :class:`Stopped`, perhaps re-raised as
    another exception): 128 + the signal number for a signal, else 130."""
    seen: BaseException | None = e
    while seen is not None:
        if isinstance(seen, Stopped):
            return 128 + seen.signum
        seen = seen.__context__
    return 130


# ---------------------------------------------------------------------- entry point
def main() -> None:
    """Console-script entry point: run the app; user errors exit 2 with one red line;
    Ctrl-C exits 130, SIGTERM and SIGHUP 128 + the signal number, after the same cleanup."""
    stop_on_signals()
    try:
        app()
    except StarlanesError as e:
        _print_error(str(e))
        sys.exit(2)
    except KeyboardInterrupt as e:  # typer turns Ctrl-C into exit 130; kept as a guard
        _stopped(interrupted_code(e))
    except SystemExit as e:
        if e.code == 130 and received:  # a Stopped that typer reported as Ctrl-C
            _stopped(128 + received[0])
        if received and e.code == 128 + received[0]:
            _stopped(e.code)
        raise


def _stopped(code: int) -> NoReturn:
    """Say why the command stopped (if the terminal is still there) and exit ``code``."""
    from starlanes.terminal import err

    with contextlib.suppress(OSError, ValueError):  # the terminal may be gone (SIGHUP)
        err.print("interrupted" if code == 130 else
                  f"stopped by {signal.Signals(code - 128).name}")
    sys.exit(code)
