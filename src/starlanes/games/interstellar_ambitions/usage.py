"""Interstellar Ambitions' mechanisms for the lab's usage report (``starlanes balance --usage``).

Categories: ``action taken`` (an Action Track token taken or advanced, ``build:strong``),
``tech researched`` and ``starting tech``, ``ship built``, ``mercenary hired``,
``emergency ship drawn`` and ``colony event drawn`` (cards drawn, not chosen: read from the
log by :func:`log_uses`),
``planet colonised``, ``planet developed``, ``shadow card played`` (``play CARD ...``),
``shadow card boosted``, ``shadow card bought``, ``ambition claimed`` and ``special used``
(raids, invasions, captures, rescues, disruption, stealing, opposing a shadow check,
scrapping, repairs, 3:1 exchanges, producing). Victory points by source come from the
scoring breakdown (Victory Points; IA-END-05..10).
"""

from __future__ import annotations

from typing import Any

from starlanes.engine import GameState

from .actions import ACTIONS, LEVELS

#: What :func:`score_sources` counts.
SCORE_LABEL = "victory points"

#: The sources sum to the seat's score (``state.scores()``).
SOURCES_SUM_TO_SCORE = True

_ENTRY = {"research": "tech researched", "start-tech": "starting tech", "build": "ship built",
          "hire": "mercenary hired", "colonise": "planet colonised",
          "develop": "planet developed", "play": "shadow card played",
          "boost": "shadow card boosted", "buy": "shadow card bought",
          "claim": "ambition claimed"}

SPECIALS = ("raid", "invade", "capture", "rescue", "disrupt", "steal", "oppose", "scrap",
            "repair", "exchange", "produce")


def action_uses(state: GameState, seat: int, action: object) -> list[tuple[str, str]]:
    """The ``(category, entry)`` pairs ``action`` uses (``("tech researched",
    "hydroponics")``, ``("action taken", "build:strong")``); [] for none."""
    words = str(action).split()
    if not words:
        return []
    head = words[0]
    if head in ("take", "advance") and len(words) >= 2 and ":" in words[1]:
        return [("action taken", words[1])]
    if head in _ENTRY and len(words) >= 2:
        return [(_ENTRY[head], words[1])]
    if head in SPECIALS:
        return [("special used", head)]
    return []


def catalogue(state: GameState) -> dict[str, list[str]]:
    """Every content entry per category, so that unused ones are reported with zero uses."""
    c: Any = state.content  # type: ignore[attr-defined]
    ships = list(c.ship_ids)
    mercs = sorted({ships[m] for m in c.merc_cards}) if c.merc_cards else []
    return {
        "action taken": [f"{a}:{lv}" for a in ACTIONS for lv in LEVELS],
        "tech researched": [t for i, t in enumerate(c.tech_ids) if i not in c.start_techs],
        "starting tech": [c.tech_ids[i] for i in c.start_techs],
        "ship built": [ships[i] for i in sorted(set(c.standard_ships))]
        if getattr(c, "standard_ships", None) else ships,
        "mercenary hired": mercs,
        "emergency ship drawn": sorted({ships[e] for e in c.emergency_cards}),
        "colony event drawn": list(c.event_ids),
        "planet colonised": [p for i, p in enumerate(c.planet_ids) if i not in set(c.homes)],
        "shadow card played": list(c.shadow_ids),
        "ambition claimed": list(c.ambition_ids),
        "special used": list(SPECIALS),
    }


_EMERGENCY = " draws the emergency ship "
_REDRAW = " (HEAVY: redraw)"
_EVENT = "colony event: "


def log_uses(state: GameState) -> list[list[tuple[str, str]]]:
    """Per seat, the cards it drew rather than chose, read from the game log: each
    EMERGENCY ship an outnumbered defender drew into its fleet (IA-RAID-03, IA-INV-02; a
    HEAVY card drawn in a raid and put back is not counted) and each colony event drawn on
    a planet's first colonisation (IA-COL-01/02), counted for the colonising seat (the
    last ``P<n> colonises`` line before it)."""
    s: Any = state
    c = s.content
    emergency = {c.ships[c.ship_ids[e]].name: c.ship_ids[e] for e in set(c.emergency_cards)}
    events = {c.events[e].name: e for e in c.event_ids}
    out: list[list[tuple[str, str]]] = [[] for _ in range(s.n)]
    colonist = -1
    for line in s.log_lines:
        if line.startswith(_EVENT):
            if colonist >= 0:
                out[colonist].append(("colony event drawn", events[line[len(_EVENT):]]))
        elif line.startswith("P") and " colonises " in line:
            colonist = int(line[1:line.index(" ")])
        elif _EMERGENCY in line and not line.endswith(_REDRAW):
            seat, name = line.split(_EMERGENCY, 1)
            out[int(seat[1:])].append(("emergency ship drawn", emergency[name]))
    return out


def score_sources(state: GameState) -> list[dict[str, float]]:
    """Per seat, VP by category of the scoring breakdown: planets, set bonus, techs, ships,
    medals, ambitions; the values sum to the seat's score."""
    from .scoring import breakdown

    s: Any = state
    return [{k: v for k, v in breakdown(s, seat).items()} for seat in range(s.n)]


def rounds_played(state: GameState) -> int:
    """Rounds played: the round counter, less the round the round limit opened but never
    played (the counter has moved past the limit when the game ends on it)."""
    s: Any = state
    return s.round - 1 if s.end_reason == "round_limit" else s.round
