"""The battle calculator's knowledge of Interstellar Ambitions (see
:mod:`starlanes.analysis.odds.calculator`): every ship with its damage markers (up to its
combat value), RAID or INVADE at a planning level, the TECH and planet bonuses of each
side, the combat orders, the defender's emergency ship and the resources a raid can take.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from starlanes.analysis.odds.calculator import Limits, Setting, Unit, count_units, read_settings
from starlanes.analysis.odds.rd_position import OddsError
from starlanes.engine import Game

from .actions import LEVELS

ORDER_HELP = (("listed", "listed: the order typed"),
              ("strongest", "strongest: highest combat value first (the heuristic bot)"),
              ("best", "best: the order most likely to win (one side at a time)"))
BONUS_MAX = 12
"""Largest TECH and planet bonus the form takes (the content's bonuses add up far below)."""


def _settings(game: Game) -> list[Setting]:
    c = game.new_initial_state().content
    emergency = (("draw", "drawn from the emergency deck (the rule)"),
                 ("none", "none"),
                 *((c.ship_ids[i], c.ship_ids[i].replace("_", " "))
                   for i in dict.fromkeys(c.emergency_cards)))
    return [
        Setting("kind", "Combat", "choice", "raid",
                choices=(("raid", "raid (HEAVY ships stay home)"), ("invade", "invade"))),
        Setting("level", "Planning level", "choice", 1,
                choices=tuple((i, f"{i} {name}") for i, name in enumerate(LEVELS, 1))),
        Setting("attacker_bonus", "Attacker's raid/invade bonus (TECHs, planets)", "int", 0,
                group="tech", side="attacker", maximum=BONUS_MAX),
        Setting("defender_bonus", "Defender's defence bonus (TECHs, planets)", "int", 0,
                group="tech", side="defender", maximum=BONUS_MAX),
        Setting("attacker_order", "Attacker's combat order", "choice", "listed",
                group="policy", side="attacker", choices=ORDER_HELP),
        Setting("defender_order", "Defender's combat order", "choice", "listed",
                group="policy", side="defender", choices=ORDER_HELP),
        Setting("emergency", "Defender's emergency ship (when outnumbered)", "choice", "draw",
                group="cards", side="defender", choices=emergency),
        Setting("defender_resources", "Defender's resources (what a raid can take)", "int",
                99, side="defender", maximum=99),
    ]


def form(game: Game) -> dict[str, Any]:
    """The calculator's form: ships (damage markers up to the combat value) and settings."""
    c = game.new_initial_state().content
    units = []
    for i, sid in enumerate(c.ship_ids):
        heavy = c.ship_heavy[i]
        units.append(Unit(sid, sid.replace("_", " "), "heavy ship" if heavy else "ship",
                          c.ship_combat[i], f"combat {c.ship_combat[i]}, cost "
                          f"{c.ship_cost[i]}" + (", HEAVY" if heavy else "")).__dict__)
    return {"units": units, "settings": [s.json() for s in _settings(game)],
            "help": "Click ships into each fleet, in combat order when the order is "
                    "'listed'. Damage is damage markers."}


def compute(game: Game, attacker: str, defender: str, settings: dict[str, Any],
            limits: Limits) -> Any:
    """The OddsReport of the combat; raises OddsError on bad input."""
    from starlanes.analysis.odds import IACombatSpec, ia_odds, parse_ships

    s = read_settings(_settings(game), settings)
    count_units(attacker, limits.units, "attacker")
    count_units(defender, limits.units, "defender")
    fleets = (parse_ships(attacker, "attacker"), parse_ships(defender, "defender"))
    for side, order, fleet in zip(("attacker", "defender"),
                                  (s["attacker_order"], s["defender_order"]), fleets,
                                  strict=True):
        if order == "best" and _orders(fleet) > limits.best_orders:
            raise OddsError(f"the {side}'s best order would search {_orders(fleet):,} "
                            f"orders, over the limit of {limits.best_orders:,}; choose "
                            "'listed' or 'strongest'")
    spec = IACombatSpec(fleets[0], fleets[1], kind=s["kind"],
                        level=s["level"], attacker_bonus=s["attacker_bonus"],
                        defender_bonus=s["defender_bonus"],
                        orders=(s["attacker_order"], s["defender_order"]),
                        emergency=s["emergency"], defender_resources=s["defender_resources"])
    return ia_odds(spec)


def _orders(fleet: list[str]) -> int:
    """Distinct orders of ``fleet`` (equal ships are interchangeable)."""
    out = math.factorial(len(fleet))
    for n in Counter(fleet).values():
        out //= math.factorial(n)
    return out


def position(state: Any, seat: int, action: str = "") -> dict[str, Any] | None:
    """The combat ``seat`` is in while orders are still to be given, as a filled-in form
    (give a state determinised for the seat), or None. ``action`` is not read: a combat
    is started by several decisions, so only a running one is shown."""
    from starlanes.analysis.odds import spec_from_state

    cb = getattr(state, "combat", None)
    if cb is None or seat not in cb.seats:
        return None
    spec = spec_from_state(state)
    if spec is None:
        return None
    return {"attacker": ", ".join(spec.attacker), "defender": ", ".join(spec.defender),
            "settings": {"kind": spec.kind, "level": spec.level,
                         "attacker_bonus": min(BONUS_MAX, spec.attacker_bonus),
                         "defender_bonus": min(BONUS_MAX, spec.defender_bonus),
                         "emergency": spec.emergency,
                         "defender_resources": min(99, spec.defender_resources)}}
