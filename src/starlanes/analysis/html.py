"""Self-contained HTML reports of the lab (``balance``, ``compare``, sweeps) with their
plots embedded as base64 PNG images, so the file can be mailed or archived as it is.

Plots need matplotlib (the ``plot`` extra); without it a report is written with its tables
only and says at the top how to get the plots, and :func:`require_matplotlib` raises
BadOptionError saying how to install it.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from starlanes.engine import BadOptionError

#: Most groups a bar plot shows (the rest are in the tables and the JSON).
MAX_BARS = 40


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` with the Agg backend; BadOptionError when it is missing."""
    try:
        import matplotlib
    except ImportError:
        raise BadOptionError(
            "plots need matplotlib: pip install \"starlanes[plot]\""
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plots_available() -> bool:
    """Whether matplotlib can be imported (the report then has its plots)."""
    try:
        require_matplotlib()
    except BadOptionError:
        return False
    return True


def _png(draw: Callable[[Any], None], height: float = 3.2) -> str:
    """The plot ``draw`` makes, as base64 PNG; empty without matplotlib."""
    if not plots_available():
        return ""
    plt = require_matplotlib()
    fig, ax = plt.subplots(figsize=(8, height))
    try:
        draw(ax)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90)
    finally:
        plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _rate_bars(family: Mapping[str, Mapping[str, Any]], fair: float, title: str,
               by_rate: bool = True) -> str:
    """Horizontal win-rate bars, best on top (``by_rate``) or in the family's own order
    from the top (seats)."""
    if by_rate:
        keys = sorted(family, key=lambda k: family[k]["rate"])[-MAX_BARS:]
    else:
        keys = list(family)[:MAX_BARS][::-1]

    def draw(ax: Any) -> None:
        rates = [family[k]["rate"] for k in keys]
        lo = [family[k]["rate"] - family[k]["ci95_adj"][0] for k in keys]
        hi = [family[k]["ci95_adj"][1] - family[k]["rate"] for k in keys]
        colours = ["tab:red" if family[k]["significant"] else "tab:blue" for k in keys]
        ax.barh(range(len(keys)), rates, xerr=[lo, hi], color=colours, capsize=3)
        ax.set_yticks(range(len(keys)), labels=[f"seat {k}" if not by_rate else k
                                                for k in keys])
        ax.axvline(fair, color="grey", linestyle="--", label=f"fair {fair:.1%}")
        ax.set_xlabel("win rate (bars: 95% family-wise intervals; red: significant)")
        ax.set_title(title)
        ax.legend(loc="lower right")

    return _png(draw, 1.4 + 0.28 * len(keys))


def _histogram(samples: Mapping[str, Sequence[float]], title: str, xlabel: str) -> str:
    def draw(ax: Any) -> None:
        for label, xs in samples.items():
            if xs:
                ax.hist(xs, bins=min(30, max(5, len(set(xs)))), alpha=0.6, label=label)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        if len(samples) > 1:
            ax.legend()

    return _png(draw)


def _diff_bars(family: Mapping[str, Mapping[str, Any]], title: str) -> str:
    """Differences of win rates B - A with their 95% intervals, on an axis from -100 to
    +100 percentage points (a difference of rates cannot leave it); grey: too few games."""
    keys = list(family)[:MAX_BARS]

    def draw(ax: Any) -> None:
        d = [family[k]["diff"] for k in keys]
        lo = [max(0.0, family[k]["diff"] - family[k]["ci95"][0]) for k in keys]
        hi = [max(0.0, family[k]["ci95"][1] - family[k]["diff"]) for k in keys]
        colours = ["tab:red" if family[k].get("significant") else
                   "lightgrey" if family[k].get("few") else "tab:blue" for k in keys]
        ax.barh(range(len(keys)), d, xerr=[lo, hi], color=colours, capsize=3)
        ax.set_yticks(range(len(keys)), labels=keys)
        ax.axvline(0, color="grey", linestyle="--")
        ax.set_xlim(-1.05, 1.05)
        ax.xaxis.set_major_formatter(lambda x, _pos: f"{x:+.0%}")
        ax.set_xlabel("B - A, win rate (bars: 95% intervals; red: significant after Holm; "
                      "grey: too few games to judge)")
        ax.set_title(title)

    return _png(draw, 1.4 + 0.28 * len(keys))


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _img(data: str, alt: str) -> str:
    if not data:  # no matplotlib: the tables say it all
        return ""
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _page(title: str, sections: Sequence[str], meta: Mapping[str, Any]) -> str:
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto}"
             "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
             "padding:2px 8px;text-align:right}img{max-width:100%}")
    settings = {k: meta[k] for k in ("game", "players", "agents", "seed", "games",
                                     "options", "content_fingerprint",
                                     "starlanes_version") if k in meta}
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{style}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<pre>{html.escape(json.dumps(settings, indent=1))}</pre>"
            + ("" if plots_available() else NO_PLOTS)
            + "".join(sections) + "</body></html>")


NO_PLOTS = ("<p class='note'>This report has its tables only: the plots need matplotlib "
            "(<code>pip install \"starlanes[plot]\"</code>).</p>")
"""The note at the top of a report written without matplotlib."""


def _pct(e: Mapping[str, Any], key: str = "ci95_adj") -> str:
    return f"{e[key][0]:.1%} - {e[key][1]:.1%}"


def _family_section(name: str, family: Mapping[str, Mapping[str, Any]], fair: float) -> str:
    rows = [(k, e["games"], f"{e['wins']:g}", f"{e['rate']:.1%}", _pct(e, "ci95"), _pct(e),
             f"{e['p_holm']:.3g}", "yes" if e["significant"] else "")
            for k, e in sorted(family.items(), key=lambda kv: -kv[1]["rate"])]
    return (f"<h2>win rate by {html.escape(name)}</h2>"
            + _img(_rate_bars(family, fair, f"win rate by {name}", name != "seat"), name)
            + _table([name, "seat-games", "wins", "rate", "95% CI", "95% family-wise",
                      "p (Holm)", "significant"], rows))


def balance_html(report: Mapping[str, Any]) -> str:
    """The balance report as one HTML page with embedded plots."""
    fair = report["fair"]
    warnings = "".join(f"<li>{html.escape(w)}</li>" for w in report.get("warnings", []))
    sections = [f"<ul class='warnings'>{warnings}</ul>" if warnings else "",
                _family_section("seat", report["seats"], fair)]
    if report.get("agent_rates"):
        sections.append(_family_section("agent", report["agent_rates"], fair))
    for name, family in report["facts"].items():
        sections.append(_family_section(name, family, fair))
    if report["openings"]:
        sections.append(_family_section("opening", report["openings"], fair))
    results = report["results"]
    sections.append("<h2>game length</h2>")
    rounds = [r["rounds"] for r in results if r["rounds"] is not None]
    if rounds:
        sections.append(_img(_histogram({"rounds": rounds}, "rounds per game", "rounds"),
                             "rounds"))
    sections.append(_img(_histogram({"actions": [r["actions"] for r in results]},
                                    "actions per game", "actions"), "actions"))
    margins = [r["margin"] for r in results if r["margin"] is not None]
    if margins:
        sections.append("<h2>score margin (winner - runner-up)</h2>"
                        + _img(_histogram({"margin": margins}, "score margin", "points"),
                               "margin"))
    sections.append("<h2>how games end</h2>" + _table(
        ["end reason", "games"], list(report["end_reasons"].items())))
    sections.append("<h2>entries used by winners and losers (mean uses per seat-game)</h2>"
                    + _table(["entry", "winners", "losers", "difference"],
                             [(e["entry"], e["winners"], e["losers"], f"{e['diff']:+g}")
                              for e in report["entries"]]))
    if report.get("usage"):
        from .usage_view import usage_html

        sections.append(usage_html(report["usage"]))
    return _page(f"{report['game']}: balance over {report['games']} games", sections, report)


def compare_html(report: Mapping[str, Any]) -> str:
    """The comparison report as one HTML page with embedded plots."""
    warnings = "".join(f"<li>{html.escape(w)}</li>" for w in report.get("warnings", []))
    sections = [f"<p>A: <code>{html.escape(json.dumps(report['a']))}</code><br>"
                f"B: <code>{html.escape(json.dumps(report['b']))}</code></p>",
                f"<ul class='warnings'>{warnings}</ul>" if warnings else "",
                "<h2>win share by seat (paired)</h2>",
                _img(_diff_bars(report["seats"], "seat win share, B - A"), "seats"),
                _table(["seat", "A", "B", "B - A", "95% CI", "p (Holm)"],
                       [(s, f"{e['mean_a']:.1%}", f"{e['mean_b']:.1%}", f"{e['diff']:+.1%}",
                         f"{e['ci95'][0]:+.1%} .. {e['ci95'][1]:+.1%}", f"{e['p_holm']:.3g}")
                        for s, e in report["seats"].items()])]
    for name, family in report["facts"].items():
        sections.append(f"<h2>win rate by {html.escape(name)}</h2>"
                        + _img(_diff_bars(family, f"win rate by {name}, B - A"), name))
    for measure in ("rounds", "actions"):
        a = [r[measure] for r in report["results_a"] if r[measure] is not None]
        b = [r[measure] for r in report["results_b"] if r[measure] is not None]
        e = report[measure]
        sections.append(f"<h2>{measure} per game</h2>"
                        + _img(_histogram({"A": a, "B": b}, f"{measure} per game", measure),
                               measure)
                        + f"<p>mean A {e['mean_a']}, B {e['mean_b']}, paired difference "
                        f"{e['diff']:+g} (95% CI {e['ci95'][0]:+g} .. {e['ci95'][1]:+g}, "
                        f"p {e['p']:.3g})</p>")
    sections.append("<h2>how games end</h2>" + _table(
        ["end reason", "A", "B"], [(k, v["a"], v["b"]) for k, v in
                                   report["end_reasons"].items()]))
    return _page(f"{report['game']}: A/B comparison over {report['games']} games",
                 sections, report)


def sweep_html(key: str, values: Sequence[str],
               reports: Sequence[Mapping[str, Any]]) -> str:
    """A sweep of option ``key`` over ``values``: each measure plotted against the value,
    then every variant's balance sections."""
    players = reports[0]["players"]

    def seats(ax: Any) -> None:
        x = list(range(len(values)))
        for s in range(players):
            rates = [r["seats"][str(s)]["rate"] for r in reports]
            lo = [max(0.0, rate - r["seats"][str(s)]["ci95_adj"][0])
                  for rate, r in zip(rates, reports, strict=True)]
            hi = [max(0.0, r["seats"][str(s)]["ci95_adj"][1] - rate)
                  for rate, r in zip(rates, reports, strict=True)]
            shift = (s - (players - 1) / 2) * 0.06  # side by side, bars apart
            ax.errorbar([v + shift for v in x], rates, yerr=[lo, hi], marker="o", capsize=3,
                        label=f"seat {s}")
        ax.set_xticks(x, labels=values)
        ax.axhline(reports[0]["fair"], color="grey", linestyle="--")
        ax.set_ylim(0, 1)
        ax.set_xlabel(key)
        ax.set_ylabel("win rate (bars: 95% family-wise intervals)")
        ax.legend()

    def length(ax: Any) -> None:
        ax.errorbar(values, [r["actions"]["median"] for r in reports],
                    yerr=[[r["actions"]["median"] - r["actions"]["q1"] for r in reports],
                          [r["actions"]["q3"] - r["actions"]["median"] for r in reports]],
                    marker="o", capsize=3, label="median actions (bars: quartiles)")
        ax.set_xlabel(key)
        ax.set_ylabel("actions per game")
        if reports[0]["rounds"]["mean"] is not None:
            twin = ax.twinx()
            twin.plot(values, [r["rounds"]["mean"] for r in reports], marker="s",
                      color="tab:orange", label="mean rounds")
            twin.set_ylabel("mean rounds per game")
        ax.legend(loc="upper left")

    settings = _table(["value", "options", "content fingerprint", "games"],
                      [(v, json.dumps(r["options"], sort_keys=True), r["content_fingerprint"],
                        r["games"]) for v, r in zip(values, reports, strict=True)])
    sections = ["<h2>settings of each value</h2>", settings,
                f"<h2>win rate by seat against {html.escape(key)}</h2>",
                _img(_png(seats), "seats"),
                f"<h2>game length against {html.escape(key)}</h2>", _img(_png(length), "length")]
    for value, r in zip(values, reports, strict=True):
        sections.append(f"<h2>{html.escape(key)} = {html.escape(value)}</h2>"
                        + _family_section("seat", r["seats"], r["fair"]))
    common = {k: v for k, v in reports[0].items() if k not in ("options",
                                                              "content_fingerprint")}
    common["options"] = {k: (v if all(r["options"].get(k) == v for r in reports)
                             else f"swept: {', '.join(values)}")
                         for k, v in reports[0]["options"].items()}
    return _page(f"{reports[0]['game']}: sweep of {key}", sections, common)
