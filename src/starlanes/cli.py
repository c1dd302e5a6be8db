"""The ``starlanes`` command: list games, play in the terminal, simulate, rate bots, replay.

``starlanes games`` lists the games; ``starlanes play GAME`` seats you (and bots) at a
terminal table; ``starlanes simulate GAME`` runs many bot games and summarises them (``--json``
for programs); ``starlanes tournament GAME`` rates agents against each other over
seat-balanced games; ``starlanes replay FILE`` verifies or steps through a saved record.

User errors (unknown game, bad option, bad agent spec, bad record, bad content) print one
line ``error: ...`` on stderr and exit with status 2.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from starlanes.agents import make_agent, parse_spec
from starlanes.analysis import DEFAULT_ACTION_CAP, timed_tournament
from starlanes.analysis import play_game as run_game
from starlanes.engine import (
    AgentSpecError,
    BadOptionError,
    GameRecord,
    RecordError,
    StarlanesError,
    derive_seed,
    game_class,
    game_ids,
    game_module,
    load,
)
from starlanes.engine import replay as replay_record
from starlanes.terminal import (
    HUMAN,
    PlaySession,
    err,
    out,
    renderer_for,
    results_table,
    seat_label,
    write_record,
)

app = typer.Typer(
    help="Play, simulate and replay space-strategy tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# ---------------------------------------------------------------------- helpers
def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` in red on stderr and exit with ``code``."""
    err.print(f"[red]error: {escape(message)}[/red]", soft_wrap=True)
    raise typer.Exit(code)


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


GameOptions = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="Game option key=value; repeat for several.")]
ContentDir = Annotated[Path | None, typer.Option(
    help="Directory of content TOML files overriding the packaged ones.")]
MasterSeed = Annotated[int, typer.Option(
    help="Master seed; game g uses a seed derived from it and g.")]
ActionCap = Annotated[int, typer.Option(
    min=1, help="Stop a game after this many actions (end reason action_cap).")]


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


# ---------------------------------------------------------------------- games
@app.command("games")
def games_cmd() -> None:
    """List the games starlanes plays."""
    table = Table(title="starlanes games")
    table.add_column("id", style="bold")
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("summary")
    for gid in game_ids():
        cls = game_class(gid)
        table.add_row(gid, escape(cls.title), f"{cls.min_players}-{cls.max_players}",
                      escape(cls.summary))
    out.print(table)


@app.command("cards")
def cards_cmd(
    game: Annotated[str, typer.Argument(help="game id, e.g. galactic-empires")],
    empire: Annotated[str, typer.Option(help="only cards of this empire")] = "",
    card_type: Annotated[str, typer.Option("--type", help="only cards of this type letter")] = "",
    content: Annotated[Path | None, typer.Option(help="directory overriding the content")] = None,
) -> None:
    """List a game's card pool (Galactic Empires), with filters."""
    try:
        cls = game_class(game)
    except StarlanesError as e:
        fail(str(e))
    module = game_module(game, "content")
    listing = getattr(module, "card_listing", None)
    if listing is None:
        fail(f"{game} has no card pool to list")
    try:
        pool = module.load_content(content)
        cards = listing(pool, empire=empire, type_letter=card_type.upper())
    except StarlanesError as e:
        fail(str(e))
    if not cards:
        fail(f"no card matches empire={empire or 'any'} type={card_type or 'any'}")
    table = Table(title=f"{cls.title}: {len(cards)} cards")
    for col in ("id", "type", "empire", "name", "str", "requires", "generates", "weapons",
                "text"):
        table.add_column(col)
    for c in cards:
        need = ", ".join(f"{k} {v}" for k, v in c.requires.model_dump().items() if v)
        gen = ", ".join(f"{k} {v}" for k, v in c.generates.model_dump().items() if v)
        table.add_row(c.id, c.type, c.empire, escape(c.name), str(c.strength), need, gen,
                      c.weapons, escape(c.text))
    out.print(table)


# ---------------------------------------------------------------------- play
def _default_bot(game_id: str) -> str:
    try:
        make_agent("heuristic", game_id, 0)
        return "heuristic"
    except AgentSpecError:
        err.print("[dim]no heuristic bot for this game yet: bots play at random[/dim]")
        return "random"


def _resolve_seats(game_id: str, seats_text: str | None, players: int | None,
                   min_players: int) -> list[str]:
    given = split_list(seats_text) if seats_text else []
    n = players if players is not None else max(len(given), min_players)
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


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id (see 'starlanes games').")],
    seats: Annotated[str | None, typer.Option(
        help="Comma-separated seat list: human or an agent spec per seat "
             "(default: human, then heuristic bots).")] = None,
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
) -> None:
    """Play a game at the terminal, against bots or with friends at one keyboard."""
    if load_file is not None:
        if players is not None or seed is not None or option or content is not None:
            raise BadOptionError(
                "--load takes players, seed and options from the record; do not give them")
        record = GameRecord.load(load_file)
        if record.game != game:
            raise RecordError(f"{load_file} is a record of {record.game}, not {game}")
        state = replay_record(record)
        if seats is None and len(record.seats) == record.players:
            seats = ",".join(record.seats)
        seat_list = _resolve_seats(game, seats, record.players, record.players)
        seed = record.seed
        out.print(f"resumed {game} after {len(record.actions)} actions")
    else:
        cls = game_class(game)
        opts = parse_options(option, content)
        seat_list = _resolve_seats(game, seats, players, cls.min_players)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = load(game, players=len(seat_list), seed=seed, **opts).new_initial_state()
    out.print(f"[bold]{escape(state.game.title)}[/bold], seed {seed}, seats: "
              + ", ".join(f"P{i} {s}" for i, s in enumerate(seat_list)))
    session = PlaySession(state, seat_list, seed, save)
    session.run()


# ---------------------------------------------------------------------- simulate
def summary_tables(report: dict[str, Any]) -> list[Table]:
    """Per-agent win rates and scores, and the game-level figures of a simulation report."""
    seats_played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    shares: dict[str, float] = {}
    scores: dict[str, list[int]] = {}
    for r in report["results"]:
        for seat, spec in enumerate(r["agents"]):
            seats_played[spec] += 1
            scores.setdefault(spec, []).append(r["scores"][seat])
            if seat in r["winners"]:
                wins[spec] += 1
                shares[spec] = shares.get(spec, 0.0) + 1 / len(r["winners"])
    agents = Table(title=f"{report['game']}: {report['games']} games, "
                         f"{report['players']} players, seed {report['seed']}")
    for col in ("agent", "seats played", "wins", "win rate", "mean score"):
        agents.add_column(col, justify="left" if col == "agent" else "right")
    for spec in sorted(seats_played):
        played = seats_played[spec]
        agents.add_row(spec, str(played), str(wins[spec]),
                       f"{shares.get(spec, 0.0) / played:.1%}",
                       f"{sum(scores[spec]) / played:.2f}")
    results = report["results"]
    rounds = [r["rounds"] for r in results if r["rounds"] is not None]
    reasons = Counter(r["end_reason"] for r in results)
    figures = Table(show_header=False, title="games")
    figures.add_column("what")
    figures.add_column("value", justify="right")
    if rounds:
        figures.add_row("mean rounds", f"{sum(rounds) / len(rounds):.1f}")
    figures.add_row("mean actions", f"{sum(r['actions'] for r in results) / len(results):.0f}")
    figures.add_row("end reasons", ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    figures.add_row("wall time", f"{report['wall_s']:.2f} s")
    figures.add_row("actions/s", f"{report['actions_per_s']:.0f}")
    return [agents, figures]


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game id (see 'starlanes games').")],
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: the game's minimum).")] = None,
    games: Annotated[int, typer.Option(min=1, help="Number of games to play.")] = 10,
    seed: MasterSeed = 0,
    agents: Annotated[str, typer.Option(
        help="Comma-separated agent specs, one per seat (one name fills every seat; "
             "seats rotate game by game), e.g. random,heuristic or "
             "mcts:iterations=400,c=1.4.")] = "random",
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object with every result on stdout.")] = False,
    save_records: Annotated[Path | None, typer.Option(
        help="Directory to write one record JSON per game into.")] = None,
    option: GameOptions = None,
    content: ContentDir = None,
    action_cap: ActionCap = DEFAULT_ACTION_CAP,
) -> None:
    """Play many bot games and summarise them (progress on stderr)."""
    n, opts, specs = checked_setup(game, players, seed, option, content, agents)
    for spec in dict.fromkeys(specs):
        parse_spec(spec)
        make_agent(spec, game, 0)
    seat_agents(specs, n, 0)
    results: list[dict[str, Any]] = []
    total_actions = 0
    start = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err, transient=False) as progress:
        task = progress.add_task(f"{game} x{games}", total=games)
        for g in range(games):
            game_seed = derive_seed(seed, g)
            seat_specs = seat_agents(specs, n, g)
            agent_seeds = [derive_seed(seed, g, "agent", i) for i in range(n)]
            state, row = run_game(game, n, game_seed, opts, seat_specs, agent_seeds,
                                  action_cap)
            results.append(row)
            total_actions += row["actions"]
            if save_records is not None:
                write_record(state, seat_specs, save_records / f"game-{g:05d}.json")
            progress.advance(task)
    wall = time.perf_counter() - start
    report = {
        "game": game,
        "players": n,
        "games": games,
        "seed": seed,
        "agents": specs,
        "results": results,
        "wall_s": round(wall, 4),
        "actions_per_s": round(total_actions / wall, 1) if wall > 0 else 0.0,
    }
    if json_output:
        sys.stdout.write(json.dumps(report) + "\n")
        return
    for table in summary_tables(report):
        out.print(table)


# ---------------------------------------------------------------------- tournament
@app.command()
def tournament(
    game: Annotated[str, typer.Argument(help="Game id (see 'starlanes games').")],
    agents: Annotated[str, typer.Option(
        help="Comma-separated agent specs to compare, e.g. random,heuristic,mcts or "
             "mcts:iterations=50,mcts:iterations=200; each spec is its own label.")],
    games: Annotated[int, typer.Option(
        min=1, help="Number of games (a multiple of the number of agents keeps the seats "
                    "balanced).")] = 60,
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: the game's minimum).")] = None,
    seed: MasterSeed = 0,
    workers: Annotated[int, typer.Option(
        min=1, help="Worker processes (1 plays in this process).")] = 1,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object with the report on stdout.")] = False,
    plot: Annotated[Path | None, typer.Option(
        help="Write a PNG of the ratings with +-2 sigma error bars here "
             "[default: GAME-ratings.png].")] = None,
    no_plot: Annotated[bool, typer.Option(
        "--no-plot", help="Write no plot.")] = False,
    option: GameOptions = None,
    content: ContentDir = None,
    action_cap: ActionCap = DEFAULT_ACTION_CAP,
) -> None:
    """Rate agents against each other: seat-balanced games, ratings, win rates with 95% CIs,
    head-to-head records, and a PNG plot of the ratings."""
    from starlanes.analysis.plot import plot_ratings
    from starlanes.analysis.report import report_tables

    n, opts, specs = checked_setup(game, players, seed, option, content, agents)
    if len(set(specs)) != len(specs):
        raise AgentSpecError(f"an agent is named twice in {agents!r}; labels must differ")
    for spec in specs:
        make_agent(spec, game, 0)
    if games % len(specs):
        err.print(f"[yellow]note: {games} games is not a multiple of {len(specs)} agents; "
                  "the seats are not exactly balanced[/yellow]")
    if no_plot and plot is not None:
        raise BadOptionError("--plot and --no-plot contradict each other")
    if plot is None and not no_plot:
        plot = Path(f"{game}-ratings.png")
    report = timed_tournament(game, specs, n, games, seed, opts, workers, action_cap)
    if plot is not None:
        plot_ratings(report["ratings"], plot, title=f"{game}: {games} games, {n} players")
        report["plot"] = str(plot)
    if json_output:
        sys.stdout.write(json.dumps(report) + "\n")
        if plot is not None:
            err.print(f"plot written to {escape(str(plot))}")
        return
    for table in report_tables(report):
        out.print(table)
    if plot is not None:
        out.print(f"plot written to {escape(str(plot))}")


# ---------------------------------------------------------------------- replay
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
    if verify:
        try:
            record = GameRecord.load(file)
            state = replay_record(record)
        except RecordError as e:
            fail(str(e), code=1)
        out.print(f"ok: {len(record.actions)} actions replay to digest {state.digest()}")
        return
    record = GameRecord.load(file)
    if step:
        _step_through(record)
        return
    state = replay_record(record, verify=False)
    for line in state.action_log():
        out.print(escape(line))
    seats = record.seats if len(record.seats) == record.players else ["?"] * record.players
    if state.is_terminal():
        out.print(results_table(state, seats))
    else:
        out.print(f"(unfinished: {len(record.actions)} actions so far)")
    if state.digest() != record.digest:
        err.print(f"[yellow]warning: the replay digest {state.digest()} differs from the "
                  f"recorded {record.digest}[/yellow]")


def _step_through(record: GameRecord) -> None:
    state = replay_record(record, upto=0, verify=False)
    render = renderer_for(record.game)
    shown = 0
    for i, text in enumerate(record.actions):
        seat = state.current_player()
        out.rule(f"action {i + 1}/{len(record.actions)}")
        out.print(render(state, seat))
        out.print(f"next: {escape(seat_label(state, seat))} plays [bold]{escape(text)}[/bold]")
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
            out.print("  " + escape(entry))
        shown = len(log)
    out.rule("end of record")
    out.print(render(state, max(0, state.current_player())))
    if state.is_terminal():
        seats = record.seats if len(record.seats) == record.players else ["?"] * record.players
        out.print(results_table(state, seats))


# ---------------------------------------------------------------------- entry point
def main() -> None:
    """Console-script entry point: run the app; user errors exit 2 with one red line."""
    try:
        app()
    except StarlanesError as e:
        err.print(f"[red]error: {escape(str(e))}[/red]", soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
