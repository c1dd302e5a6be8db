"""``starlanes play`` (the terminal table) and ``starlanes replay`` (verify or step through a record)."""


from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from starlanes.cli.app import (
    ContentDir,
    GameOptions,
    app,
    fail,
    games_help,
    interrupted_code,
    parse_options,
    split_list,
    writable_file,
)
from starlanes.cli.deck_cmds import seat_setups
from starlanes.engine import (
    AgentSpecError,
    BadOptionError,
    RecordError,
    StarlanesError,
    game_class,
    load,
)

if TYPE_CHECKING:
    from starlanes.engine import GameRecord, GameState

DIGEST_LIMIT = 80
"""The most characters of a record's stated digest shown (a real one has 64)."""
ACTION_LIMIT = 200
"""The most characters of a record's action notation shown while stepping through it."""


# ---------------------------------------------------------------------- play
def _default_bot(game_id: str) -> str:
    from starlanes.agents import make_agent
    from starlanes.terminal import err

    try:
        make_agent("heuristic", game_id, 0)
        return "heuristic"
    except AgentSpecError:
        err.print("[dim]no heuristic bot for this game yet: bots play at random[/dim]")
        return "random"


def _resolve_seats(game_id: str, seats_text: str | None, players: int | None,
                   min_players: int) -> list[str]:
    from starlanes.agents import make_agent
    from starlanes.terminal import HUMAN

    given = split_list(seats_text) if seats_text else []
    n = players if players is not None else max(len(given), min_players)
    cls = game_class(game_id)
    if not cls.min_players <= n <= cls.max_players:
        span = (f"exactly {cls.min_players}" if cls.min_players == cls.max_players
                else f"{cls.min_players}-{cls.max_players}")
        raise BadOptionError(f"{game_id} is played by {span} players, not {n}")
    if len(given) > n:
        raise BadOptionError(f"--seats names {len(given)} seats but --players is {n}")
    if not given:
        given = [HUMAN]
    if len(given) < n:
        given += [_default_bot(game_id)] * (n - len(given))
    for spec in given:
        if spec != HUMAN:
            make_agent(spec, game_id, 0)  # a bad spec fails here, before the game starts
    return given


def _delay(text: str | None, watching: bool) -> float:
    """``--delay``: seconds between drawn moves in watch mode, ``key`` (or a negative
    number) to wait for Enter after each; by default 0.6 s on a terminal, 0 (moves only,
    no pacing) when the output is piped."""
    if text is None:
        return 0.6 if watching and sys.stdout.isatty() else 0.0
    if text.strip().lower() == "key":
        return -1.0
    try:
        return float(text)
    except ValueError:
        raise BadOptionError(f"--delay takes seconds or 'key', not {text!r}") from None


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(
        help=games_help() + " Not needed with --load.")] = None,
    seats: Annotated[str | None, typer.Option(
        help="Comma-separated seat list: human or an agent spec per seat "
             "(default: human, then heuristic bots). Bots only: watch mode.")] = None,
    players: Annotated[int | None, typer.Option(
        help="Number of players (default: number of seats, else the game's minimum).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Game seed (default: a fresh random seed, printed).")] = None,
    option: GameOptions = None,
    content: ContentDir = None,
    load_file: Annotated[Path | None, typer.Option(
        "--load", help="Resume the game saved in this record file.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the game record here when the game ends or you quit.")] = None,
    confirm_forced: Annotated[bool, typer.Option(
        "--confirm-forced", help="Ask even when only one action is legal.")] = False,
    delay: Annotated[str | None, typer.Option(
        help="Watch mode: seconds between moves, or 'key' to wait for Enter after each "
             "(default 0.6 on a terminal, 0 when piped).")] = None,
    autosave: Annotated[bool, typer.Option(
        help="Save the game in the user's data directory after every decision.")] = True,
    deck: Annotated[list[str] | None, typer.Option(
        help="SEAT=CODE_OR_FILE: the deck a seat brings (Galactic Empires, -o "
             "structure=standard; see 'starlanes deck'); repeat. Seats without one get "
             "a ready-made deck.")] = None,
) -> None:
    """Play a game at the terminal, against bots or with friends at one keyboard."""
    from starlanes.engine import GameRecord
    from starlanes.engine import replay as replay_record
    from starlanes.terminal import HUMAN, autosave_path, markup_safe, out
    from starlanes.terminal.lock import hold_autosave

    if load_file is not None:
        if (players is not None or seed is not None or option or content is not None
                or deck):
            raise BadOptionError(
                "--load takes players, seed and options from the record; do not give them")
        record = GameRecord.load(load_file)
        if game is not None and record.game != game:
            raise RecordError(f"{load_file} is a record of {record.game}, not {game}")
        game = record.game
        state = replay_record(record)
        if seats is None and len(record.seats) == record.players:
            seats = ",".join(record.seats)
        seat_list = _resolve_seats(game, seats, record.players, record.players)
        seed = record.seed
        out.print(f"resumed {markup_safe(game)} after {len(record.actions)} actions")
    else:
        if game is None:
            raise BadOptionError("play needs a game id (see 'starlanes games') or --load FILE")
        cls = game_class(game)
        opts = parse_options(option, content)
        seat_list = _resolve_seats(game, seats, players, cls.min_players)
        opts = seat_setups(game, deck, len(seat_list), opts)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = load(game, players=len(seat_list), seed=seed, **opts).new_initial_state()
    if save is not None:
        writable_file(save, "--save file")  # before the game, and no folder is made
    watching = HUMAN not in seat_list
    pace = _delay(delay, watching)
    target = autosave_path(game, seed) if autosave else None
    with hold_autosave(target):  # before anything is shown
        _run_session(state, seat_list, seed, save, target, confirm_forced, pace)


def _run_session(state: GameState, seat_list: list[str], seed: int, save: Path | None,
                 target: Path | None, confirm_forced: bool, pace: float) -> None:
    from rich.markup import escape

    from starlanes.terminal import Interrupted, PlaySession, err, out, seat_name

    out.print(f"[bold]{escape(state.game.title)}[/bold], seed {seed}, seats: "
              + ", ".join(f"P{i} {escape(seat_name(seat_list, i))}"
                          for i in range(len(seat_list))))
    if target is not None:
        out.print(f"[dim]autosave: {escape(str(target))}[/dim]", soft_wrap=True)
    session = PlaySession(state, seat_list, seed, save, autosave=target,
                          confirm_forced=confirm_forced, delay=pace)
    try:
        session.run()
    except Interrupted as stop:
        where = stop.path if stop.path is not None else save
        try:
            if where is None:
                err.print("interrupted (autosave is off: nothing was saved)")
            else:
                err.print(f"interrupted: game saved to {escape(str(where))}; resume with: "
                          f"starlanes play --load {escape(str(where))}", soft_wrap=True)
        except OSError:
            pass  # the terminal is gone (SIGHUP); the game was written all the same
        raise typer.Exit(interrupted_code(stop)) from None


# ---------------------------------------------------------------------- replay
# Everything a record says is shown through printable / markup_safe (and the consoles clean
# what the game renders from it): a record may come from anywhere.
@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record JSON file.")],
    verify: Annotated[bool, typer.Option(
        help="Only check that the record replays to its digest (exit 0) or not (exit 1).")]
        = False,
    step: Annotated[bool, typer.Option(
        help="Step through the game: Enter shows the next action, q stops.")] = False,
) -> None:
    """Verify a saved game record, print its log, or step through it."""
    from starlanes.engine import GameRecord
    from starlanes.engine import replay as replay_record
    from starlanes.engine.record import content_mismatch, record_differences
    from starlanes.terminal import err, markup_safe, out, results_table

    if verify:
        try:
            record = GameRecord.load(file)
            state = replay_record(record)
        except RecordError as e:
            fail(str(e), code=1)
        if state.game.content_fingerprint and not record.content_fingerprint:
            fail("the record has no content fingerprint: it cannot be checked against the "
                 "content it was played with (a record starlanes writes always has one)",
                 code=1)
        out.print(f"ok: {len(record.actions)} actions replay to digest {state.digest()}")
        return
    record = GameRecord.load(file)
    if step:
        _step_through(record)
        return
    state = replay_record(record, verify=False)
    for line in state.action_log():
        out.print(markup_safe(line))
    seats = record.seats if len(record.seats) == record.players else ["?"] * record.players
    if state.is_terminal():
        out.print(results_table(state, seats))
    else:
        out.print(f"(unfinished: {len(record.actions)} actions so far)")
    mismatch = content_mismatch(record, state.game)
    if mismatch:
        err.print(f"[yellow]warning: {markup_safe(mismatch, DIGEST_LIMIT * 4)}[/yellow]")
    for difference in record_differences(record, state):
        err.print(f"[yellow]warning: the record differs from its replay: "
                  f"{markup_safe(difference, DIGEST_LIMIT * 3)}[/yellow]")


def _step_through(record: GameRecord) -> None:
    from rich.markup import escape

    from starlanes.engine import replay as replay_record
    from starlanes.terminal import markup_safe, out, renderer_for, results_table, seat_label

    state = replay_record(record, upto=0, verify=False)
    render = renderer_for(record.game, spectator=True)
    shown = 0
    for i, text in enumerate(record.actions):
        seat = state.current_player()
        out.rule(f"action {i + 1}/{len(record.actions)}")
        out.print(render(state, seat))
        out.print(f"next: {escape(seat_label(state, seat))} plays "
                  f"[bold]{markup_safe(text, ACTION_LIMIT)}[/bold]")
        out.print("Enter: next, q: stop> ", end="")
        line = sys.stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            out.print()
            return
        try:
            state.apply(state.game.parse_action(state, text))
        except StarlanesError as e:
            raise RecordError(f"action {i + 1} ({text!r}) does not replay: {e}") from None
        log = state.action_log()
        for entry in log[shown:]:
            out.print("  " + markup_safe(entry))
        shown = len(log)
    out.rule("end of record")
    out.print(render(state, max(0, state.current_player())))
    if state.is_terminal():
        seats = record.seats if len(record.seats) == record.players else ["?"] * record.players
        out.print(results_table(state, seats))


