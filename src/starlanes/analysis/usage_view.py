"""The mechanism report (:func:`starlanes.analysis.usage.usage_report`) as terminal tables,
HTML sections and Markdown (``docs/balance/<game>-usage.md``)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table

Report = Mapping[str, Any]


def _agents(report: Report) -> list[str]:
    for entries in report["uses"].values():
        for e in entries.values():
            return list(e["by_agent"])
    for options in report["decisions"].values():
        for o in options.values():
            return list(o["by_agent"])
    return []


def _ci(lo_hi: Sequence[float]) -> str:
    return f"{lo_hi[0]:.0%}-{lo_hi[1]:.0%}"


def use_rows(report: Report, category: str) -> list[list[str]]:
    """One row per entry of ``category``, most used first: entry, uses, uses per game,
    share of games where any seat used it (95% Wilson interval), then per agent the share of
    its seat-games where it used the entry and its uses per seat-game."""
    agents = _agents(report)
    entries = report["uses"][category]
    rows = []
    for name, e in sorted(entries.items(), key=lambda kv: (-kv[1]["total"], kv[0])):
        cells = [name, str(e["total"]), f"{e['per_game']:.2f}",
                 f"{e['game_share']:.0%} ({_ci(e['ci95'])})"]
        for a in agents:
            b = e["by_agent"][a]
            cells.append(f"{b['seat_share']:.0%} ({_ci(b['ci95'])}), {b['per_seat_game']:.2f}")
        rows.append(cells)
    return rows


def use_head(report: Report, category: str) -> list[str]:
    return [category, "uses", "per game", "games used (95% CI)",
            *(f"{a}: seat-games used (95% CI), per seat-game" for a in _agents(report))]


def decision_rows(report: Report) -> list[list[str]]:
    """One row per decision kind and option: kind, option, times taken, share of that
    kind's decisions, per agent times taken per seat-game."""
    agents = _agents(report)
    rows = []
    for kind, options in sorted(report["decisions"].items()):
        for option, o in sorted(options.items(), key=lambda kv: -kv[1]["total"]):
            rows.append([kind, option, str(o["total"]), f"{o['share']:.1%}",
                         *(f"{o['by_agent'][a]['per_seat_game']:.2f}" for a in agents)])
    return rows


def source_rows(report: Report) -> list[list[str]]:
    """One row per score source: source, points, share of all points (95% bootstrap
    interval over games), then each agent's share of its own points."""
    agents = list(report["sources"]["by_agent"])
    rows = []
    for source, s in sorted(report["sources"]["all"].items(), key=lambda kv: -kv[1]["points"]):
        cells = [source, f"{s['points']:g}", f"{s['share']:.1%} ({s['ci95'][0]:.1%}-"
                 f"{s['ci95'][1]:.1%})"]
        for a in agents:
            b = report["sources"]["by_agent"][a].get(source)
            cells.append("-" if b is None else f"{b['share']:.1%} ({b['ci95'][0]:.1%}-"
                                                f"{b['ci95'][1]:.1%})")
        rows.append(cells)
    return rows


def usage_tables(report: Report) -> list[Table]:
    """Terminal tables: one per use category, the score sources, the decisions."""
    tables = []
    for category in sorted(report["uses"]):
        t = Table(title=f"{category} ({report['games']} games)")
        for i, col in enumerate(use_head(report, category)):
            t.add_column(escape(col), justify="left" if i == 0 else "right")
        for row in use_rows(report, category):
            t.add_row(*(escape(c) for c in row))
        tables.append(t)
    src = Table(title=f"{report['score_label']} by source: share of all points "
                      "(95% bootstrap interval over games)")
    for i, col in enumerate(["source", "points", "share",
                             *report["sources"]["by_agent"]]):
        src.add_column(escape(col), justify="left" if i == 0 else "right")
    for row in source_rows(report):
        src.add_row(*(escape(c) for c in row))
    tables.append(src)
    dec = Table(title="options taken per decision kind")
    for i, col in enumerate(["decision", "option", "taken", "share of kind",
                             *(f"{a} per seat-game" for a in _agents(report))]):
        dec.add_column(escape(col), justify="left" if i < 2 else "right")
    for row in decision_rows(report):
        dec.add_row(*(escape(c) for c in row))
    tables.append(dec)
    return tables


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def usage_html(report: Report) -> str:
    """The report's HTML sections (for the balance page)."""
    parts = [f"<h2>mechanisms used ({report['games']} games)</h2>"]
    for category in sorted(report["uses"]):
        parts.append(f"<h3>{html.escape(category)}</h3>"
                     + _html_table(use_head(report, category), use_rows(report, category)))
    parts.append(f"<h3>{html.escape(report['score_label'])} by source</h3>"
                 + _html_table(["source", "points", "share (95% CI)",
                                *report["sources"]["by_agent"]], source_rows(report)))
    parts.append("<h3>options taken per decision kind</h3>"
                 + _html_table(["decision", "option", "taken", "share of kind",
                                *(f"{a} per seat-game" for a in _agents(report))],
                               decision_rows(report)))
    return "".join(parts)


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def clean(c: str) -> str:
        return c.replace("|", "/")

    lines = ["| " + " | ".join(clean(h) for h in head) + " |",
             "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(clean(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def usage_markdown(report: Report, title: str, intro: str = "", level: int = 1) -> str:
    """The report as Markdown (``docs/balance/<game>-usage.md``): ``title`` as a heading of
    ``level``, its sections one level below."""
    h = "#" * level
    out = [f"{h} {title}", ""]
    if intro:
        out += [intro, ""]
    unused = {c: e for c, e in report["unused"].items() if e}
    if unused:
        out += [f"{h}# Never used in these games", ""]
        out += [f"- **{c}**: {', '.join(e)}" for c, e in sorted(unused.items())]
        out.append("")
    out += [f"{h}# {report['score_label']} by source", "",
            _md_table(["source", "points", "share (95% CI)", *report["sources"]["by_agent"]],
                      source_rows(report)), ""]
    for category in sorted(report["uses"]):
        out += [f"{h}# {category}", "",
                _md_table(use_head(report, category), use_rows(report, category)), ""]
    out += [f"{h}# Options taken per decision kind", "",
            _md_table(["decision", "option", "taken", "share of kind",
                       *(f"{a} per seat-game" for a in _agents(report))],
                      decision_rows(report)), ""]
    return "\n".join(out)
