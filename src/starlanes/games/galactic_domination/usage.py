"""Galactic Domination's mechanisms for the lab's usage report (``starlanes balance --usage``).

Categories: ``ship built`` (``build KIND SECTOR``), ``ship placed`` at set-up
(``place KIND SECTOR``) and ``special used``: a miner attaching to a planet (GD-SPC-01), an
explorer warping into deep space (GD-DS-01) and arriving from it, a destroyer's black hole
shot charged and fired (GD-SPC-04..06), a command ship's fleet jump charged and made
(GD-SPC-07..09), and a ship sacrificed to a colliding explorer (GD-DS-06). The score is fleet
value (the mineral cost of the ships still in play), so its sources are the ship kinds.
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState

#: What :func:`score_sources` counts.
SCORE_LABEL = "fleet value (minerals of ships in play)"

#: The sources sum to the seat's score (``state.scores()``).
SOURCES_SUM_TO_SCORE = True

SPECIALS = ("attach", "warp", "arrive", "black hole charge", "black hole fire",
            "fleet jump charge", "fleet jump", "sacrifice")

_SPECIAL_WORDS = {"attach": "attach", "warp": "warp", "arrive": "arrive", "fire": "black hole fire",
                  "jump": "fleet jump", "sacrifice": "sacrifice"}


def action_uses(state: GameState, seat: int, action: object) -> list[tuple[str, str]]:
    """The ``(category, entry)`` pairs ``action`` uses (``("ship built", "miner")``,
    ``("special used", "warp")``); [] for none. ``charge SHIP SECTOR`` aims a black hole
    shot, ``charge SHIP`` readies a fleet jump."""
    words = str(action).split()
    if not words:
        return []
    head = words[0]
    if head in ("build", "place") and len(words) >= 2:
        return [("ship built" if head == "build" else "ship placed", words[1])]
    if head == "charge":
        return [("special used", "black hole charge" if len(words) >= 3 else "fleet jump charge")]
    if head in _SPECIAL_WORDS:
        return [("special used", _SPECIAL_WORDS[head])]
    return []


def catalogue(state: GameState) -> dict[str, list[str]]:
    """Every ship kind and special, so that unused ones are reported with zero uses."""
    kinds = [u.id for u in state.content.units]  # type: ignore[attr-defined]
    return {"ship built": kinds, "ship placed": kinds, "special used": list(SPECIALS)}


def score_sources(state: GameState) -> list[dict[str, float]]:
    """Per seat, fleet value by ship kind still in play (``{"command": 14, "miner": 12}``);
    the values sum to the seat's score."""
    s: Any = state
    from .state import KIND, OWNER

    kinds = [u.id for u in s.content.units]
    out: list[dict[str, float]] = [{}, {}]
    for x in s.ships.values():
        name = kinds[x[KIND]]
        out[x[OWNER]][name] = out[x[OWNER]].get(name, 0) + s.cost[x[KIND]]
    return out
