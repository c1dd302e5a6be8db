"""Battle odds: exact probabilities of a battle's outcome from the games' own rules code.

Interstellar Ambitions (FLEET RAID, INVADE, Shadow Checks): :func:`ia_odds` for a combat
given as fleets (:class:`IACombatSpec`), :func:`shadow_check_odds` for a Shadow Check;
see :mod:`.ia`.

Rift Domination (rulebook BATTLE, WEAPONS AND RANGE, UNIT-SKILLS): :func:`rift_odds` for a
battle given as fleets (:class:`RiftBattleSpec`), :func:`battle_odds_for_state` for the
battle a seat is in, :func:`action_odds` for the battle an action would start. Exact odds
come from dynamic programming over a grid of hit counts (:mod:`.rd_exact`, :mod:`.rd_grid`);
battles the exact model does not cover (Repair Rush, Overload, Kamikaze, Repair Bldg,
battle cards) are simulated on the real engine (Monte Carlo, :mod:`.rd_sim`), those whose
state space passes ``max_states`` are estimated by a Monte Carlo of the same model, and the
report says so, with standard errors. Fleets may hold damaged units (``KIND/N``) and, in
space, carried ground units. The battle calculator's game-agnostic side is
:mod:`.calculator`.

Policies: ``casualties`` names the targeting policy of both shooters (the shooting player
chooses who takes each hit, RD-HIT-13; see :data:`.policies.TARGETING`, default
``heuristic``) and ``retreat`` the retreat policy of both sides (:data:`.policies.RETREATS`,
default ``never``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .policies import DEFAULT_CASUALTIES, DEFAULT_RETREAT, METHODS, RETREATS, TARGETING

if TYPE_CHECKING:
    from .battle import action_odds, battle_odds_for_state, odds_of_battle, rift_odds
    from .ia import IACombatSpec, ia_odds, parse_ships, shadow_check_odds, spec_from_state
    from .rd_position import OddsError, RiftBattleSpec, parse_fleet
    from .report import OUTCOMES, OddsReport

__all__ = [
    "DEFAULT_CASUALTIES", "DEFAULT_RETREAT", "METHODS",
    "IACombatSpec", "ia_odds", "parse_ships", "shadow_check_odds", "spec_from_state",
    "OUTCOMES", "OddsError", "OddsReport", "RETREATS", "RiftBattleSpec", "TARGETING",
    "action_odds", "battle_odds_for_state", "odds_of_battle", "parse_fleet", "rift_odds",
]

_LAZY = {
    "action_odds": ".battle", "battle_odds_for_state": ".battle", "odds_of_battle": ".battle",
    "rift_odds": ".battle", "IACombatSpec": ".ia", "ia_odds": ".ia", "parse_ships": ".ia",
    "shadow_check_odds": ".ia", "spec_from_state": ".ia", "OddsError": ".rd_position",
    "RiftBattleSpec": ".rd_position", "parse_fleet": ".rd_position", "OUTCOMES": ".report",
    "OddsReport": ".report",
}


def __getattr__(name: str) -> Any:
    """Load the module behind ``name`` when first used, so that naming the policies (a
    command's help) does not load the games and numpy."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name], __name__), name)
