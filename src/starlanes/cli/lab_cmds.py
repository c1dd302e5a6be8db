"""``starlanes balance`` and ``starlanes compare``: the designer's lab.

``balance`` plays many seeded bot games of one variant and reports win rates by seat, by
what set-up assigned (faction, empire, turn position) and by opening, with 95% intervals
corrected for multiple comparisons, game length, end reasons, score margins and the content
entries winners used more than losers; ``--sweep key=v1,v2`` runs one variant per value.
``compare`` plays the same games under two variants and tests the differences pairwise.
Both print a terminal summary, or ``--json``, and write a self-contained HTML report (its
plots need matplotlib, the ``plot`` extra; without it the report has its tables only and
the command says so in one line).
Games run in this process, a local process pool (``--workers``) or on Ray
(``--backend ray``); the results are the same for the same seeds whatever the backend.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from starlanes.cli.app import (
    DEFAULT_ACTION_CAP,
    MAX_GAMES,
    PLOT_INSTALL,
    ActionCap,
    ContentDir,
    GameOptions,
    MasterSeed,
    app,
    checked_setup,
    games_help,
    have_matplotlib,
    writable_file,
)
from starlanes.engine import BadOptionError, load

if TYPE_CHECKING:
    from rich.table import Table

Backend = Annotated[str, typer.Option(
    help="Where games run: local (this machine's processes) or ray (a Ray cluster; "
         "needs starlanes[ray]).")]
RayAddress = Annotated[str | None, typer.Option(
    "--ray-address", help="Ray cluster address (auto, ray://host:10001); none starts a "
                          "local Ray.")]
Workers = Annotated[int, typer.Option(
    min=1, help="Worker processes (local) or CPUs of a local Ray; 1 plays in this "
                "process.")]
Players = Annotated[int | None, typer.Option(
    help="Players per game (default: the game's minimum).")]
Agents = Annotated[str, typer.Option(
    help="Comma-separated agent specs; seats are balanced over the list.")]
JsonOut = Annotated[bool, typer.Option("--json", help="Print the report as JSON on stdout.")]
HtmlOut = Annotated[Path | None, typer.Option(
    "--html", help="Write the HTML report here [default: GAME-balance.html or "
                   "GAME-compare.html].")]
NoHtml = Annotated[bool, typer.Option("--no-html", help="Write no HTML report.")]
GameArg = Annotated[str, typer.Argument(help=games_help())]


def _html_path(html: Path | None, no_html: bool, default: str) -> Path | None:
    if no_html and html is not None:
        raise BadOptionError("--html and --no-html contradict each other")
    if no_html:
        return None
    path = html if html is not None else Path(default)
    writable_file(path, "--html file")
    return path


def _check_agents(game: str, specs: list[str]) -> None:
    from starlanes.agents import make_agent

    for spec in dict.fromkeys(specs):
        make_agent(spec, game, 0)


def _emit(report: dict[str, Any], json_output: bool, html: Path | None, page: str,
          tables: list[Table], printed: str | None = None) -> None:
    """Write the HTML page, print the tables or the JSON (stdout holds nothing else) and
    the report's warnings on stderr (``printed``: one already shown)."""
    from rich.markup import escape

    from starlanes.terminal import err, out

    for warning in report.get("warnings", []):
        if warning != printed:
            err.print(f"[yellow]warning: {escape(warning)}[/yellow]")
    if html is not None:
        try:
            html.write_text(page, encoding="utf-8")
        except OSError as e:
            raise BadOptionError(f"cannot write {html}: {e.strerror or e}") from None
        report["html"] = str(html)
    if json_output:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        for table in tables:
            out.print(table)
    if html is not None:
        (err if json_output else out).print(f"report written to {escape(str(html))}")
        if not have_matplotlib():
            (err if json_output else out).print(
                f"note: the report has its tables only; its plots need matplotlib: "
                f"{escape(PLOT_INSTALL)}", soft_wrap=True)


# ---------------------------------------------------------------------- tables
def _rate_table(title: str, family: dict[str, Any], top: int = 12) -> Table:
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=title)
    for col in ("", "seat-games", "win rate", "95% CI", "family-wise 95%", "p (Holm)"):
        t.add_column(col, justify="left" if not col else "right")
    items = sorted(family.items(), key=lambda kv: -kv[1]["rate"])
    if len(items) > top:
        items = items[: top // 2] + items[-(top // 2):]
    for key, e in items:
        mark = " *" if e["significant"] else (" ~" if e.get("few") else "")
        t.add_row(escape(key), str(e["games"]), f"{e['rate']:.1%}{mark}",
                  f"{e['ci95'][0]:.1%} - {e['ci95'][1]:.1%}",
                  f"{e['ci95_adj'][0]:.1%} - {e['ci95_adj'][1]:.1%}", f"{e['p_holm']:.3g}")
    return t


def _dist(d: dict[str, Any]) -> str:
    if not d["n"]:
        return "-"
    return f"mean {d['mean']:.1f}, median {d['median']:g} (IQR {d['q1']:g}-{d['q3']:g}), " \
           f"{d['min']:g}-{d['max']:g}"


def balance_tables(r: dict[str, Any]) -> list[Table]:
    """Terminal tables of a balance report (``*`` marks significant after Holm)."""
    from rich.markup import escape
    from rich.table import Table

    head = (f"{r['game']}: {r['games']} games, {r['players']} players, "
            f"{','.join(r['agents'])}; fair win rate {r['fair']:.1%}")
    tables = [_rate_table(f"{head}\nwin rate by seat (* significant after Holm; ~ too few "
                          "seat-games to judge)", r["seats"])]
    if r["agent_rates"]:
        tables.append(_rate_table("win rate by agent", r["agent_rates"]))
    for name, family in r["facts"].items():
        tables.append(_rate_table(f"win rate by {name} (best and worst)", family))
    if r["openings"]:
        tables.append(_rate_table("win rate by opening (best and worst)", r["openings"]))
    figures = Table(show_header=False, title="games")
    figures.add_column("what")
    figures.add_column("value", justify="right")
    figures.add_row("rounds", _dist(r["rounds"]))
    figures.add_row("actions", _dist(r["actions"]))
    figures.add_row("winner's margin", _dist(r["margin"]))
    figures.add_row("end reasons", ", ".join(f"{k} {v}" for k, v in r["end_reasons"].items()))
    figures.add_row("wall time", f"{r['wall_s']:.1f} s")
    tables.append(figures)
    if r["entries"]:
        used = Table(title="entries: mean uses per seat-game, winners against losers")
        for col in ("entry", "winners", "losers", "difference"):
            used.add_column(col, justify="left" if col == "entry" else "right")
        for e in r["entries"][:10]:
            used.add_row(escape(e["entry"]), f"{e['winners']:.2f}", f"{e['losers']:.2f}",
                         f"{e['diff']:+.2f}")
        tables.append(used)
    return tables


def compare_tables(r: dict[str, Any]) -> list[Table]:
    """Terminal tables of a comparison report."""
    from rich.markup import escape
    from rich.table import Table

    seats = Table(title=f"{r['game']}: {r['games']} paired games, {r['players']} players\n"
                        f"A {json.dumps(r['a']['options'])}  B {json.dumps(r['b']['options'])}"
                        "\nwin share by seat (paired)")
    for col in ("seat", "A", "B", "B - A", "B better / worse", "95% CI", "p (Holm)"):
        seats.add_column(col, justify="right")
    for s, e in r["seats"].items():
        mark = " *" if e["significant"] else ""
        seats.add_row(s, f"{e['mean_a']:.1%}", f"{e['mean_b']:.1%}", f"{e['diff']:+.1%}{mark}",
                      f"{e['up']} / {e['down']}",
                      f"{e['ci95'][0]:+.1%} .. {e['ci95'][1]:+.1%}", f"{e['p_holm']:.3g}")
    tables = [seats]
    for name, family in r["facts"].items():
        t = Table(title=f"win rate by {name}: largest differences (~: too few seat-games "
                        "to judge)")
        for col in (name, "seat-games", "A", "B", "B - A", "95% CI", "p (Holm)"):
            t.add_column(col, justify="left" if col == name else "right")
        for key, e in sorted(family.items(), key=lambda kv: -abs(kv[1]["diff"]))[:8]:
            mark = " *" if e["significant"] else (" ~" if e.get("few") else "")
            t.add_row(escape(key), str(min(e["games_a"], e["games_b"])), f"{e['rate_a']:.1%}",
                      f"{e['rate_b']:.1%}", f"{e['diff']:+.1%}{mark}",
                      f"{e['ci95'][0]:+.1%} .. {e['ci95'][1]:+.1%}", f"{e['p_holm']:.3g}")
        tables.append(t)
    figures = Table(title="paired game measures (B - A)")
    for col in ("measure", "A", "B", "B - A", "95% CI", "p"):
        figures.add_column(col, justify="right")
    for m in ("rounds", "actions", "margin"):
        e = r[m]
        if e["n"]:
            figures.add_row(m, f"{e['mean_a']:.1f}", f"{e['mean_b']:.1f}", f"{e['diff']:+.2f}",
                            f"{e['ci95'][0]:+.2f} .. {e['ci95'][1]:+.2f}", f"{e['p']:.3g}")
    figures.add_row("end reasons", "", "", ", ".join(
        f"{k} {v['a']}->{v['b']}" for k, v in r["end_reasons"].items()), "", "")
    return tables + [figures]


# ---------------------------------------------------------------------- balance
def _parse_sweep(sweep: str) -> tuple[str, list[str]]:
    key, eq, values = sweep.partition("=")
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not eq or not key.strip() or not vals:
        raise BadOptionError(f"--sweep {sweep!r} is not of the form key=v1,v2,...")
    return key.strip(), vals


@app.command()
def balance(
    game: GameArg,
    players: Players = None,
    games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Number of games to play.")] = 200,
    agents: Agents = "heuristic",
    seed: MasterSeed = 0,
    option: GameOptions = None,
    content: ContentDir = None,
    sweep: Annotated[str | None, typer.Option(
        help="key=v1,v2,...: one variant per value of a game option, each measure "
             "plotted against it.")] = None,
    until_ci: Annotated[float | None, typer.Option(
        "--until-ci", min=0.001, max=1.0,
        help="Keep playing batches of --games until every seat, fact and opening win "
             "rate's 95% interval is narrower than this, or --max-games is spent.")] = None,
    max_games: Annotated[int, typer.Option(
        min=1, max=MAX_GAMES, help="Game budget for --until-ci.")] = 10_000,
    backend: Backend = "local",
    workers: Workers = 1,
    ray_address: RayAddress = None,
    json_output: JsonOut = False,
    html: HtmlOut = None,
    no_html: NoHtml = False,
    action_cap: ActionCap = DEFAULT_ACTION_CAP,
    usage: Annotated[bool, typer.Option(
        "--usage", help="Also report how often each unit, card, tech, special and decision "
                        "option was used and the score by source, by agent.")] = False,
    decks: Annotated[list[str] | None, typer.Option(
        "--decks", help="Galactic Empires: play these decks (deck files, codes or ready-made "
                        "ids; comma-separated or repeated) round robin in the Standard Game, "
                        "seats alternating; --games is then per pair.")] = None,
) -> None:
    """Balance report of one variant: win rates by seat, set-up (faction, empire, turn
    position) and opening with corrected 95% intervals, game length, end reasons, margins
    and the entries winners used; with --usage the mechanism report; terminal summary,
    --json and an HTML report (plots with matplotlib, the plot extra)."""
    from rich.markup import escape

    from starlanes.analysis.backends import check_backend, time_budget_warning
    from starlanes.analysis.lab import balance_report, run_lab, run_meta, widest_interval
    from starlanes.terminal import err

    n, opts, specs = checked_setup(game, players, seed, option, content, agents)
    _check_agents(game, specs)
    check_backend(backend, ray_address)
    if decks:  # decks against decks (analysis/decks.py)
        from starlanes.analysis.decks import deck_balance

        report, tables = deck_balance(game, n, decks, games, specs, seed, opts, action_cap,
                                      {"backend": backend, "workers": workers,
                                       "address": ray_address})
        _emit(report, json_output, None, "", tables)
        return
    if sweep is not None and until_ci is not None:
        raise BadOptionError("--sweep and --until-ci cannot be combined")
    if sweep is not None and usage:
        raise BadOptionError("--sweep and --usage cannot be combined")
    timed = time_budget_warning(specs, game)
    run = {"backend": backend, "workers": workers, "address": ray_address,
           "action_cap": action_cap}
    if sweep is not None:
        if timed:
            err.print(f"[yellow]warning: {escape(timed)}[/yellow]")
        key, values = _parse_sweep(sweep)
        for value in values:
            load(game, players=n, seed=seed, **{**opts, key: value})
        path = _html_path(html, no_html, f"{game}-sweep.html")
        _sweep(game, n, specs, games, seed, opts, key, values, run, json_output, path, timed)
        return
    if timed:
        err.print(f"[yellow]warning: {escape(timed)}[/yellow]")
    path = _html_path(html, no_html, f"{game}-balance.html")
    start = time.perf_counter()
    meta = run_meta(game, n, specs, seed, opts)
    if timed:
        meta["warnings"] = [timed]
    rows = run_lab(game, specs, n, games, seed, opts, usage=usage, **run)
    report = balance_report(meta, rows, time.perf_counter() - start)
    if until_ci is not None:
        while widest_interval(report) >= until_ci and len(rows) < max_games:
            more = min(games, max_games - len(rows))
            rows += run_lab(game, specs, n, more, seed, opts, first=len(rows), usage=usage,
                            **run)
            report = balance_report(meta, rows, time.perf_counter() - start)
        report["until_ci"] = {"width": until_ci, "widest": round(widest_interval(report), 6),
                              "reached": widest_interval(report) < until_ci}
        if not report["until_ci"]["reached"]:
            err.print(f"[yellow]note: game budget {max_games} spent; widest interval "
                      f"{widest_interval(report):.3f}[/yellow]")
    tables = balance_tables(report)
    if usage:
        from starlanes.analysis.usage import usage_report
        from starlanes.analysis.usage_view import usage_tables

        report["usage"] = usage_report(game, rows, seed)
        tables += usage_tables(report["usage"])
        for row in rows:  # the report lists the catalogue once, not in every game
            row["usage"].pop("catalogue", None)
    page = ""
    if path is not None:
        from starlanes.analysis.html import balance_html

        page = balance_html(report)
    _emit(report, json_output, path, page, tables, timed)


def _sweep(game: str, n: int, specs: list[str], games: int, seed: int, opts: dict[str, str],
           key: str, values: list[str], run: dict[str, Any], json_output: bool,
           path: Path | None, timed: str | None = None) -> None:
    from rich.markup import escape
    from rich.table import Table

    from starlanes.analysis.lab import balance_report, run_lab, run_meta

    reports = []
    for value in values:
        variant = {**opts, key: value}
        start = time.perf_counter()
        rows = run_lab(game, specs, n, games, seed, variant, label=f"{key}={value}", **run)
        reports.append(balance_report(run_meta(game, n, specs, seed, variant), rows,
                                      time.perf_counter() - start))
    table = Table(title=f"{game}: sweep of {key}, {games} games per value")
    table.add_column(key)
    for s in range(n):
        table.add_column(f"seat {s}", justify="right")
    for col in ("mean rounds", "mean actions", "end reasons"):
        table.add_column(col, justify="right")
    for value, r in zip(values, reports, strict=True):
        rounds = r["rounds"]["mean"]
        table.add_row(escape(value),
                      *(f"{r['seats'][str(s)]['rate']:.1%}" for s in range(n)),
                      "-" if rounds is None else f"{rounds:.1f}", f"{r['actions']['mean']:.0f}",
                      ", ".join(f"{k} {v}" for k, v in r["end_reasons"].items()))
    report = {"game": game, "players": n, "agents": specs, "seed": seed, "sweep": key,
              "values": values, "reports": reports, "warnings": [timed] if timed else []}
    page = ""
    if path is not None:
        from starlanes.analysis.html import sweep_html

        page = sweep_html(key, values, reports)
    _emit(report, json_output, path, page, [table], timed)


# ---------------------------------------------------------------------- compare
def _variant(game: str, n: int, seed: int, base: dict[str, str], text: str,
             name: str) -> dict[str, str]:
    from starlanes.analysis.compare import parse_variant

    extra, content_dir = parse_variant(text)
    opts = {**base, **extra}
    if content_dir is not None:
        if not Path(content_dir).is_dir():
            raise BadOptionError(f"variant {name}: content directory {content_dir!r} "
                                 "does not exist")
        opts["content"] = content_dir
    try:
        load(game, players=n, seed=seed, **opts)
    except BadOptionError as e:
        raise BadOptionError(f"variant {name}: {e}") from None
    return opts


@app.command()
def compare(
    game: GameArg,
    a: Annotated[str, typer.Option(
        "--a", help="Variant A: 'key=value / key=value / content=DIR' (empty: the game as "
                    "it stands).")] = "",
    b: Annotated[str, typer.Option("--b", help="Variant B, same form as --a.")] = "",
    players: Players = None,
    games: Annotated[int, typer.Option(min=2, max=MAX_GAMES, help="Games per variant.")] = 200,
    agents: Agents = "heuristic",
    seed: MasterSeed = 0,
    option: GameOptions = None,
    content: ContentDir = None,
    backend: Backend = "local",
    workers: Workers = 1,
    ray_address: RayAddress = None,
    json_output: JsonOut = False,
    html: HtmlOut = None,
    no_html: NoHtml = False,
    action_cap: ActionCap = DEFAULT_ACTION_CAP,
) -> None:
    """Play the same games (seeds, agents) under variants A and B and test the differences:
    seat win shares, length and margins paired game by game; win rates per faction or
    empire as two proportions; Holm-adjusted p-values."""
    from rich.markup import escape

    from starlanes.analysis.backends import check_backend, time_budget_warning
    from starlanes.analysis.compare import compare_report
    from starlanes.analysis.lab import run_lab, run_meta
    from starlanes.terminal import err

    n, base, specs = checked_setup(game, players, seed, option, content, agents)
    _check_agents(game, specs)
    check_backend(backend, ray_address)
    timed = time_budget_warning(specs, game)
    if timed:
        err.print(f"[yellow]warning: {escape(timed)}[/yellow]")
    opts_a = _variant(game, n, seed, base, a, "A")
    opts_b = _variant(game, n, seed, base, b, "B")
    path = _html_path(html, no_html, f"{game}-compare.html")
    run = {"backend": backend, "workers": workers, "address": ray_address,
           "action_cap": action_cap}
    start = time.perf_counter()
    rows_a = run_lab(game, specs, n, games, seed, opts_a, label="variant A", **run)
    rows_b = run_lab(game, specs, n, games, seed, opts_b, label="variant B", **run)
    meta_a, meta_b = (run_meta(game, n, specs, seed, o) for o in (opts_a, opts_b))
    meta = {k: v for k, v in meta_a.items() if k not in ("options", "content_fingerprint")}
    if timed:
        meta["warnings"] = [timed]
    report = compare_report(meta, {k: meta_a[k] for k in ("options", "content_fingerprint")},
                            {k: meta_b[k] for k in ("options", "content_fingerprint")},
                            rows_a, rows_b, time.perf_counter() - start)
    page = ""
    if path is not None:
        from starlanes.analysis.html import compare_html

        page = compare_html(report)
    _emit(report, json_output, path, page, compare_tables(report), timed)

