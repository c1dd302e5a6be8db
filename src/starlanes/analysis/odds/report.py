"""The result of an odds calculation: :class:`OddsReport`, its table, JSON and chart."""

from __future__ import annotations

import io
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from starlanes.engine.files import write_file

OUTCOMES = ("attacker_wins", "defender_wins", "mutual_destruction", "attacker_retreats",
            "defender_retreats")
"""Outcome names. A side that retreats loses the battle: ``attacker_retreats`` is a
defender's win by retreat, ``defender_retreats`` an attacker's."""


@dataclass
class OddsReport:
    """Odds of one battle.

    ``outcomes`` maps each name of :data:`OUTCOMES` to its probability (they sum to 1);
    ``stderr`` the standard error of each (all 0 when ``method`` is ``exact``, else
    ``monte-carlo`` with ``trials`` battles). ``by_phase`` maps the phase (or fight) in which
    the battle ended to the outcome probabilities there. ``survivors`` gives per side
    (attacker, defender) the probability of each surviving fleet, ``survivor_counts`` of
    each number of surviving units. ``expected`` holds per side lists ``[attacker,
    defender]``: ``vp`` won, ``resources`` won, ``units_lost`` and ``cost_lost`` (the
    resource value of destroyed units). ``policies`` names the assumptions, ``note`` says
    why Monte Carlo was used or what the model leaves out; ``extra`` holds game-specific
    tables (Interstellar Ambitions: totals, orders, shadow checks)."""

    game: str
    kind: str
    attacker: str
    defender: str
    method: str
    outcomes: dict[str, float]
    stderr: dict[str, float]
    by_phase: dict[str, dict[str, float]]
    survivors: list[dict[str, float]]
    survivor_counts: list[dict[int, float]]
    expected: dict[str, list[float]]
    policies: dict[str, str]
    trials: int = 0
    states: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def attacker_wins(self) -> float:
        """P(the attacker wins): the defender is destroyed or retreats."""
        return self.outcomes["attacker_wins"] + self.outcomes["defender_retreats"]

    @property
    def defender_wins(self) -> float:
        """P(the defender wins): the attacker is destroyed or retreats."""
        return self.outcomes["defender_wins"] + self.outcomes["attacker_retreats"]

    def at_least(self, side: int) -> dict[int, float]:
        """P(at least ``n`` of ``side``'s units survive) for n = 0..the most that can (0
        attacker, 1 defender); from ``survivor_counts``, so 1 for n = 0."""
        counts = self.survivor_counts[side]
        out: dict[int, float] = {}
        acc = 0.0
        for n in range(max(counts, default=0), -1, -1):
            acc += counts.get(n, 0.0)
            out[n] = min(1.0, acc)
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (survivor count keys become strings); ``survivors_at_least``
        per side maps n to P(at least n units survive)."""
        d = asdict(self)
        d["survivor_counts"] = [{str(k): v for k, v in sorted(c.items())}
                                for c in self.survivor_counts]
        d["survivors_at_least"] = [{str(k): v for k, v in self.at_least(s).items()}
                                   for s in (0, 1)]
        d["attacker_win_total"] = self.attacker_wins
        d["defender_win_total"] = self.defender_wins
        return d

    def table(self, top: int = 6) -> str:
        """A readable plain-text table of the odds."""
        lines = [f"{self.game} {self.kind} battle odds ({self.method}"
                 + (f", {self.trials} battles" if self.trials else "")
                 + (f", {self.states} states" if self.states else "") + ")",
                 f"  attacker: {self.attacker}", f"  defender: {self.defender}",
                 "  policies: " + "; ".join(f"{k} = {v}" for k, v in self.policies.items())]
        if self.note:
            lines.append(f"  note: {self.note}")
        lines.append("")
        lines.append(f"  {'outcome':<22}{'probability':>12}"
                     + (f"{'std. error':>12}" if self.method != "exact" else ""))
        for name in OUTCOMES:
            p = self.outcomes.get(name, 0.0)
            row = f"  {name.replace('_', ' '):<22}{100 * p:>11.2f}%"
            if self.method != "exact":
                row += f"{100 * self.stderr.get(name, 0.0):>11.2f}%"
            lines.append(row)
        lines.append(f"  {'attacker wins (total)':<22}{100 * self.attacker_wins:>11.2f}%")
        lines.append(f"  {'defender wins (total)':<22}{100 * self.defender_wins:>11.2f}%")
        if self.by_phase:
            lines.append("")
            lines.append("  ends in        " + "".join(f"{n.split('_')[0][:8]:>10}"
                                                     for n in OUTCOMES[:3]) + "   retreat")
            for ph, row in self.by_phase.items():
                if sum(row.values()) < 5e-5:
                    continue
                ret = row.get("attacker_retreats", 0) + row.get("defender_retreats", 0)
                lines.append(f"  {ph:<15}" + "".join(f"{100 * row.get(n, 0):>9.2f}%"
                                                     for n in OUTCOMES[:3])
                             + f"{100 * ret:>9.2f}%")
        e = self.expected
        lines.append("")
        lines.append(f"  {'expected':<22}{'attacker':>12}{'defender':>12}")
        for key in ("vp", "resources", "units_lost", "cost_lost"):
            if key in e:
                lines.append(f"  {key.replace('_', ' '):<22}{e[key][0]:>12.3f}{e[key][1]:>12.3f}")
        for side, name in ((0, "attacker"), (1, "defender")):
            least = self.at_least(side)
            if len(least) > 1:
                lines.append("")
                lines.append(f"  {name}: at least N units survive")
                lines.append("    " + "".join(f"{'N=' + str(n):>9}" for n in least if n))
                lines.append("    " + "".join(f"{100 * p:>8.2f}%" for n, p in least.items()
                                               if n))
        for side, name in ((0, "attacker"), (1, "defender")):
            dist = sorted(self.survivors[side].items(), key=lambda kv: -kv[1])
            if not dist:
                continue
            lines.append("")
            lines.append(f"  most likely {name} survivors")
            for fleet, p in dist[:top]:
                lines.append(f"    {100 * p:>7.2f}%  {fleet or '(none)'}")
        for title, rows in self.extra.get("tables", {}).items():
            lines.append("")
            lines.append(f"  {title}")
            lines.extend(f"    {r}" for r in rows)
        return "\n".join(lines)

    def chart(self, path: Path) -> Path:
        """Write a PNG bar chart of the survivor-count distributions to ``path``. Raises
        BadOptionError naming the ``plot`` extra when matplotlib is missing."""
        from starlanes.analysis.html import require_matplotlib

        plt = require_matplotlib()

        fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
        for ax, side, name in ((axes[0], 0, "attacker"), (axes[1], 1, "defender")):
            counts = self.survivor_counts[side]
            xs = sorted(counts)
            ax.bar(xs, [100 * counts[x] for x in xs], color="tab:blue" if side == 0
                   else "tab:red")
            ax.set_title(f"{name} survivors")
            ax.set_xlabel("units left")
            if self.method != "exact" and self.trials:
                for x in xs:
                    p = counts[x]
                    se = math.sqrt(p * (1 - p) / self.trials)
                    ax.errorbar(x, 100 * p, yerr=200 * se, color="black", capsize=2)
        axes[0].set_ylabel("probability (%)")
        fig.suptitle(f"{self.game} {self.kind} battle: attacker wins "
                     f"{100 * self.attacker_wins:.1f}% ({self.method})")
        fig.tight_layout()
        buf = io.BytesIO()  # written whole or not at all: a full disk leaves no empty file
        fig.savefig(buf, format="png", dpi=100)
        plt.close(fig)
        write_file(path, buf.getvalue(), "chart")
        return path
