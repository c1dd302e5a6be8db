"""``starlanes simulate`` and ``starlanes tournament``: many bot games, summaries and ratings."""


from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from starlanes import __version__
from starlanes.cli.app import (
    DEFAULT_ACTION_CAP,
    MAX_GAMES,
    PLOT_INSTALL,
    ActionCap,
    ContentDir,
    GameOptions,
    MasterSeed,
    app,
    chart_needs_matplotlib,
    checked_setup,
    games_help,
    have_matplotlib,
    interrupted_code,
    seat_agents,
    writable_dir,
    writable_file,
)
from starlanes.engine import (
    AgentSpecError,
    BadOptionError,
    derive_seed,
)

if TYPE_CHECKING:
    from rich.table import Table

    from starlanes.analysis import RunInterrupted


# ---------------------------------------------------------------------- simulate
def summary_tables(report: dict[str, Any]) -> list[Table]:
    """Per-agent win rates and scores, and the game-level figures of a simulation report."""
    from rich.table import Table

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
    game: Annotated[str, typer.Argument(help=games_help())],
    players: Annotated[int | None, typer.Option(
        help="Players per game (default: the game's minimum).")] = None,
    games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Number of games to play.")] = 10,
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
    workers: Annotated[int, typer.Option(
        min=1, help="Worker processes (1 plays in this process); not with "
                    "--save-records.")] = 1,
    backend: Annotated[str, typer.Option(
        help="local (this machine) or ray (a Ray cluster; needs starlanes[ray]).")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", help="Ray cluster address; none starts a local Ray.")] = None,
) -> None:
    """Play many bot games and summarise them (progress on stderr)."""
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from starlanes.agents import make_agent, parse_spec
    from starlanes.analysis import play_game as run_game
    from starlanes.analysis.backends import check_backend, run_jobs, time_budget_warning
    from starlanes.analysis.lab import content_fingerprint
    from starlanes.analysis.tournament import _play_job
    from starlanes.terminal import err, out, write_record

    n, opts, specs = checked_setup(game, players, seed, option, content, agents)
    for spec in dict.fromkeys(specs):
        parse_spec(spec)
        make_agent(spec, game, 0)
    seat_agents(specs, n, 0)
    check_backend(backend, ray_address)
    if (timed := time_budget_warning(specs, game)) is not None:
        err.print(f"[yellow]warning: {escape(timed)}[/yellow]")
    spread = workers > 1 or backend != "local"
    if save_records is not None:
        if spread:
            raise BadOptionError("--save-records plays in this process: drop --workers "
                                 "and --backend")
        writable_dir(save_records, "--save-records folder")
    results: list[dict[str, Any]] = []
    total_actions = 0
    start = time.perf_counter()
    if spread:
        jobs = [(g, game, n, derive_seed(seed, g), opts, seat_agents(specs, n, g),
                 [derive_seed(seed, g, "agent", i) for i in range(n)], action_cap)
                for g in range(games)]
        results = run_jobs(jobs, _play_job, backend, workers, ray_address,
                           label=f"{game} x{games}")
        total_actions = sum(r["actions"] for r in results)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err, transient=False, disable=spread) as progress:
        task = progress.add_task(f"{game} x{games}", total=games)
        for g in range(0 if spread else games):
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
        "options": opts,
        "content_fingerprint": content_fingerprint(game, opts.get("content")),
        "starlanes_version": __version__,
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
    game: Annotated[str, typer.Argument(help=games_help())],
    agents: Annotated[str, typer.Option(
        help="Comma-separated agent specs to compare, e.g. random,heuristic,mcts or "
             "mcts:iterations=50,mcts:iterations=200; each spec is its own label.")],
    games: Annotated[int, typer.Option(
        min=1, max=MAX_GAMES, help="Number of games (a multiple of the number of agents keeps the seats "
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
             "[default: GAME-ratings.png when matplotlib, the plot extra, is installed]."
    )] = None,
    no_plot: Annotated[bool, typer.Option(
        "--no-plot", help="Write no plot.")] = False,
    option: GameOptions = None,
    content: ContentDir = None,
    action_cap: ActionCap = DEFAULT_ACTION_CAP,
    backend: Annotated[str, typer.Option(
        help="local (this machine) or ray (a Ray cluster; needs starlanes[ray]).")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", help="Ray cluster address; none starts a local Ray.")] = None,
) -> None:
    """Rate agents against each other: seat-balanced games, ratings, win rates with 95% CIs,
    head-to-head records, and a PNG plot of the ratings (with matplotlib, the plot
    extra)."""
    from rich.markup import escape

    from starlanes.agents import make_agent
    from starlanes.analysis import RunInterrupted, timed_tournament
    from starlanes.analysis.backends import check_backend, time_budget_warning
    from starlanes.analysis.lab import content_fingerprint
    from starlanes.analysis.plot import plot_ratings
    from starlanes.analysis.report import report_tables
    from starlanes.terminal import err, out

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
    if plot is not None:
        chart_needs_matplotlib("--plot", "leave --plot out")
    skipped_plot = plot is None and not no_plot and not have_matplotlib()
    if plot is None and not no_plot and not skipped_plot:
        plot = Path(f"{game}-ratings.png")
    if plot is not None:
        writable_file(plot, "--plot file")
    check_backend(backend, ray_address)
    if (timed := time_budget_warning(specs, game)) is not None:
        err.print(f"[yellow]warning: {escape(timed)}[/yellow]")
    try:
        report = timed_tournament(game, specs, n, games, seed, opts, workers, action_cap,
                                  backend=backend, address=ray_address)
    except RunInterrupted as stop:
        _report_interrupted(game, specs, n, seed, stop, json_output)
        raise typer.Exit(interrupted_code(stop)) from None
    report.update(options=opts, content_fingerprint=content_fingerprint(game, opts.get(
        "content")), starlanes_version=__version__)
    if plot is not None:
        plot_ratings(report["ratings"], plot, title=f"{game}: {games} games, {n} players")
        report["plot"] = str(plot)
    if json_output:
        sys.stdout.write(json.dumps(report) + "\n")
        if plot is not None:
            err.print(f"plot written to {escape(str(plot))}")
        if skipped_plot:
            err.print(f"note: no ratings plot: it needs matplotlib: {escape(PLOT_INSTALL)}",
                      soft_wrap=True)
        return
    for table in report_tables(report):
        out.print(table)
    if plot is not None:
        out.print(f"plot written to {escape(str(plot))}")
    if skipped_plot:
        out.print(f"note: no ratings plot: it needs matplotlib: {escape(PLOT_INSTALL)}",
                  soft_wrap=True)




def _report_interrupted(game: str, specs: list[str], players: int, seed: int,
                        stop: RunInterrupted, json_output: bool) -> None:
    """After Ctrl-C: report the games that finished (no plot), and say so on stderr."""
    from starlanes.analysis import tournament_report
    from starlanes.analysis.report import report_tables
    from starlanes.terminal import err, out

    err.print(f"interrupted: {len(stop.rows)} games had finished; reporting those")
    if not stop.rows:
        return
    report = tournament_report(game, specs, players, seed, stop.rows, 0.0)
    report["interrupted"] = True
    if json_output:
        sys.stdout.write(json.dumps(report) + "\n")
        return
    for table in report_tables(report):
        out.print(table)
