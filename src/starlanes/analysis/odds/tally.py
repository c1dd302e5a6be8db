"""Collects battle endings (weighted exactly, or counted by Monte Carlo) into an
:class:`~.report.OddsReport`."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from .report import OUTCOMES, OddsReport


class Tally:
    """Weighted battle endings. ``add`` one ending: its outcome (one of OUTCOMES), the
    phase label it ended in, each side's survivors as text and count, and per side the
    units lost, their cost, and the VP and resources won."""

    def __init__(self) -> None:
        self.outcomes: dict[str, float] = dict.fromkeys(OUTCOMES, 0.0)
        self.by_phase: dict[str, dict[str, float]] = {}
        self.survivors: list[dict[str, float]] = [defaultdict(float), defaultdict(float)]
        self.counts: list[dict[int, float]] = [defaultdict(float), defaultdict(float)]
        self.expected: dict[str, list[float]] = {
            k: [0.0, 0.0] for k in ("vp", "resources", "units_lost", "cost_lost")}
        self.weight = 0.0

    def add(self, p: float, outcome: str, phase: str, surv: tuple[str, str],
            count: tuple[int, int], lost: tuple[int, int], cost_lost: tuple[float, float],
            vp: tuple[float, float], res: tuple[float, float]) -> None:
        self.weight += p
        self.outcomes[outcome] += p
        row = self.by_phase.setdefault(phase, dict.fromkeys(OUTCOMES, 0.0))
        row[outcome] += p
        for side in (0, 1):
            self.survivors[side][surv[side]] += p
            self.counts[side][count[side]] += p
            for key, vals in (("units_lost", lost), ("cost_lost", cost_lost), ("vp", vp),
                              ("resources", res)):
                self.expected[key][side] += p * vals[side]

    def add_outcome(self, p: float, outcome: str, phase: str) -> None:
        """Only the outcome of weight ``p`` (with :meth:`add_side` for what each side keeps,
        when the sides' survivors are independent of each other)."""
        self.weight += p
        self.outcomes[outcome] += p
        row = self.by_phase.setdefault(phase, dict.fromkeys(OUTCOMES, 0.0))
        row[outcome] += p

    def add_side(self, side: int, p: float, surv: str, count: int, lost: int,
                 cost_lost: float) -> None:
        """What ``side`` keeps and loses, with weight ``p`` (see :meth:`add_outcome`)."""
        self.survivors[side][surv] += p
        self.counts[side][count] += p
        self.expected["units_lost"][side] += p * lost
        self.expected["cost_lost"][side] += p * cost_lost

    def add_rewards(self, side: int, vp: float, res: float) -> None:
        """VP and resources ``side`` won, already weighted (see :meth:`add_outcome`)."""
        self.expected["vp"][side] += vp
        self.expected["resources"][side] += res

    def report(self, *, game: str, kind: str, attacker: str, defender: str, method: str,
               policies: dict[str, str], trials: int = 0, states: int = 0, note: str = "",
               extra: dict[str, Any] | None = None) -> OddsReport:
        """The report; with ``trials`` (Monte Carlo) counts are turned into frequencies
        and each outcome gets its standard error sqrt(p (1 - p) / trials)."""
        w = self.weight or 1.0
        outcomes = {k: v / w for k, v in self.outcomes.items()}
        stderr = {k: (math.sqrt(p * (1 - p) / trials) if trials else 0.0)
                  for k, p in outcomes.items()}
        return OddsReport(
            game=game, kind=kind, attacker=attacker, defender=defender, method=method,
            outcomes=outcomes, stderr=stderr,
            by_phase={ph: {k: v / w for k, v in row.items()}
                      for ph, row in self.by_phase.items()},
            survivors=[{k: v / w for k, v in d.items()} for d in self.survivors],
            survivor_counts=[{k: v / w for k, v in sorted(d.items())} for d in self.counts],
            expected={k: [v[0] / w, v[1] / w] for k, v in self.expected.items()},
            policies=policies, trials=trials, states=states, note=note, extra=extra or {})
