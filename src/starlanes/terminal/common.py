"""What the terminal table's parts share: the consoles, seat labels, the board renderer,
results, and writing records (including the autosave in the user's data directory).

The consoles are :class:`~starlanes.terminal.safe_text.SafeConsole`: whatever text a record
or a content file brings, no escape sequence or control character reaches the terminal."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import RenderableType
from rich.markup import escape
from rich.pretty import Pretty
from rich.table import Table

from starlanes.engine import BadOptionError, GameRecord, GameState, game_module
from starlanes.engine import replay as replay_record
from starlanes.engine.files import data_dir, write_file  # data_dir: re-exported

from .safe_text import SafeConsole, printable

out = SafeConsole(highlight=False)
err = SafeConsole(stderr=True, highlight=False)

HUMAN = "human"


def renderer_for(game_id: str, spectator: bool = False
                 ) -> Callable[[GameState, int], RenderableType]:
    """The game's ``render(state, seat)``, or a plain view of the observation.

    With ``spectator`` the board is drawn for an onlooker (a replay, or bots playing each
    other): the seat is not labelled "you". A game's ``render`` that takes a ``spectator``
    keyword gets it; one that does not is called as ``render(state, seat)``.
    """
    render = getattr(game_module(game_id, "render"), "render", None)
    if render is None:
        return lambda state, seat: Pretty(state.observation(seat))
    if spectator and "spectator" in inspect.signature(render).parameters:
        return lambda state, seat: render(state, seat, spectator=True)
    return render


def seat_label(state: GameState, seat: int) -> str:
    """The seat's name in the game's words (``P1 (Vespians)``), else ``P1``; plain text
    (:func:`printable`: a faction name from a content file brings no escape sequence), to be
    escaped where it goes into markup."""
    namer = getattr(state, "seat_name", None)
    return printable(namer(seat), SEAT_LABEL_LIMIT) if callable(namer) else f"P{seat}"


SEAT_LABEL_LIMIT = 80
"""The longest seat label shown, in characters."""
SEAT_NAME_LIMIT = 40
"""The longest name of a seat's player or agent (from a record or the command line)
shown."""


def seat_name(seats: Sequence[str], seat: int) -> str:
    """The player or agent of ``seat`` as a record or the command line names it, as plain
    text (:func:`printable`, at most :data:`SEAT_NAME_LIMIT` characters), to be escaped
    where it goes into markup; ``?`` when the list has no entry for the seat."""
    return printable(seats[seat], SEAT_NAME_LIMIT) if 0 <= seat < len(seats) else "?"


def winners_of(state: GameState) -> list[int]:
    if not state.is_terminal():
        return []
    return [i for i, r in enumerate(state.returns()) if r > 0]


def end_reason_of(state: GameState) -> str:
    reason = getattr(state, "end_reason", "")
    return str(reason) if reason else "finished"


def write_record(state: GameState, seats: Sequence[str], path: Path,
                 make_folder: bool = False) -> None:
    """Write ``state``'s game record to ``path``, whole or not at all
    (:func:`~starlanes.engine.files.write_file`). The folder must exist unless
    ``make_folder`` (the autosave folder in the user's data directory is made).

    Raises BadOptionError naming the path and the reason when it cannot be written.
    """
    _save(state.record(seats), path, make_folder)


def _save(record: GameRecord, path: Path, make_folder: bool) -> None:
    if make_folder:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise BadOptionError(f"cannot write record {path}: {e.strerror}") from None
    write_file(path, record.to_json(), "record")


def write_safe_record(state: GameState, seats: Sequence[str], path: Path,
                      make_folder: bool = False) -> None:
    """Like :func:`write_record`, but the digest is recomputed by replaying the actions,
    so a record written after an interruption in the middle of an action still loads."""
    record = state.record(seats)
    try:
        replayed = replay_record(record, verify=False)
        record = GameRecord(**{**record.model_dump(), "digest": replayed.digest(),
                               "finished": replayed.is_terminal(),
                               "scores": replayed.scores()})
    except Exception:  # noqa: BLE001 - keep the record as it is; better than none
        pass
    _save(record, path, make_folder)


def autosave_path(game_id: str, seed: int) -> Path:
    """Where a game at the table is saved after every decision:
    ``<data dir>/autosave/<game>-seed<seed>.json``."""
    return data_dir() / "autosave" / f"{game_id}-seed{seed}.json"


def results_table(state: GameState, seats: Sequence[str]) -> Table:
    """The scores and winners of a finished game, one row per seat with its label and the
    player or agent of ``seats`` (a record's names are shown as plain text)."""
    winners = winners_of(state)
    table = Table(title=f"Game over: {escape(printable(end_reason_of(state)))}")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("result")
    for i, score in enumerate(state.scores()):
        table.add_row(f"P{i}", escape(f"{seat_label(state, i)} [{seat_name(seats, i)}]"),
                      str(score), "winner" if i in winners else "")
    return table
