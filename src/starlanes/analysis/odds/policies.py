"""Choice policies the odds assume: which enemy takes each hit (targeting, the casualty
policy) and when a side leaves a battle (retreat).

In Rift Domination the *shooting* player picks the enemy unit that takes each hit
(RD-HIT-13), so the casualty policy is the shooter's targeting rule. A policy ranks target
groups by a key; the group with the largest key takes the next hit. Keys see a group as
:class:`TargetView` so the exact model and the real engine's battle use the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from starlanes.engine import BadOptionError


class TargetView(NamedTuple):
    """One target group as a policy sees it: ``kind``, LP and shields left and at full,
    the unit's cost in resources and its number of weapon dice."""

    kind: str
    lp: int
    sh: int
    lp_max: int
    sh_max: int
    cost: float
    dice: int

    @property
    def label(self) -> str:
        """The engine's target-group notation (``carrier`` or ``carrier[1/0]``)."""
        if self.lp == self.lp_max and self.sh == self.sh_max:
            return self.kind
        return f"{self.kind}[{self.lp}/{self.sh}]"

    @property
    def damaged(self) -> int:
        return int(self.lp != self.lp_max or self.sh != self.sh_max)


def _heuristic(t: TargetView) -> tuple:
    # as HeuristicAgent._target_value: finish damaged units, then the most expensive
    return (t.damaged, t.cost, t.label)


def _weakest(t: TargetView) -> tuple:
    # the unit closest to destruction first (most kills per hit), then the best armed
    return (-(t.lp + t.sh), t.dice, t.cost, t.label)


def _strongest(t: TargetView) -> tuple:
    # the most dice first (silence the enemy's guns), finishing damaged ones
    return (t.dice, t.damaged, t.cost, t.label)


def _cheapest(t: TargetView) -> tuple:
    # the cheapest unit first (what a defender would give up first), finishing damaged ones
    return (t.damaged, -t.cost, -t.dice, t.label)


TARGETING: dict[str, Callable[[TargetView], tuple]] = {
    "heuristic": _heuristic,
    "weakest": _weakest,
    "strongest": _strongest,
    "cheapest": _cheapest,
}
"""Targeting (casualty) policies by name. ``heuristic`` (the default) plays as the
heuristic bot: damaged units first, then the most expensive; ``weakest`` kills as many
units as possible; ``strongest`` hits the units with the most dice; ``cheapest`` hits the
cheapest units (the casualty order players usually choose for their own losses)."""

TARGETING_HELP = {
    "heuristic": "as the heuristic bot: finish damaged units, then the most expensive",
    "weakest": "the unit closest to destruction first (most kills)",
    "strongest": "the unit with the most weapon dice first",
    "cheapest": "the cheapest unit first",
}

RETREATS = {
    "never": "never retreat (a side without weapons must; the attacker must after "
             "the last close round)",
    "heuristic": "as the heuristic bot: retreat after a close round when the side's "
                 "strength (LP + shields + 1.5 per die) is under 0.6 of the enemy's",
}
"""Retreat policies by name; ``never`` is the default."""

RETREAT_RATIO = 0.6

DEFAULT_CASUALTIES = "heuristic"
DEFAULT_RETREAT = "never"
METHODS = ("auto", "exact", "monte-carlo")
"""How odds are computed: ``auto`` (exact where feasible, else Monte Carlo), ``exact``,
``monte-carlo``."""


def targeting(name: str) -> Callable[[TargetView], tuple]:
    """The key function of targeting policy ``name``. Raises BadOptionError if unknown."""
    try:
        return TARGETING[name]
    except KeyError:
        raise BadOptionError(
            f"unknown casualty policy {name!r}; choose one of {', '.join(TARGETING)}") from None


def check_retreat(name: str) -> str:
    """``name`` if it is a retreat policy. Raises BadOptionError if unknown."""
    if name not in RETREATS:
        raise BadOptionError(
            f"unknown retreat policy {name!r}; choose one of {', '.join(RETREATS)}")
    return name


def wants_retreat(policy: str, mine: float, theirs: float) -> bool:
    """Whether a side with strength ``mine`` retreats from one with ``theirs``."""
    return policy == "heuristic" and mine < RETREAT_RATIO * theirs
