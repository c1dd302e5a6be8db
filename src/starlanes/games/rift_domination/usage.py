"""Rift Domination's mechanisms for the lab's usage report (``starlanes balance --usage``).

The analysis layer knows no game: it asks this module what an action uses
(:func:`action_uses`), which entries exist (:func:`catalogue`) and where each seat's victory
points came from (:func:`score_sources`, read from the game log). Categories:

- ``unit recruited`` (``recruit KIND PLANET``), ``unit unlocked`` (``unlock KIND``),
- ``upgrade built`` (``build UPGRADE PLANET``, and ``free UPGRADE`` from a card or faction),
  ``upgrade demolished``,
- ``card played`` (``play CARD``; OCC cards),
- ``special used``: the battle skills (kamikaze, ambush, overload, repair rush), retreat,
  negotiation with a planet, consuming a planet, joining an attack.
"""

from __future__ import annotations

import re
from typing import Any

from starlanes.engine import GameState

#: First word of a notation -> (category, index of the word naming the entry or None).
_WORDS: dict[str, tuple[str, int | None]] = {
    "recruit": ("unit recruited", 1),
    "unlock": ("unit unlocked", 1),
    "build": ("upgrade built", 1),
    "free": ("upgrade built", 1),
    "demolish": ("upgrade demolished", 1),
    "play": ("card played", 1),
    "kamikaze": ("special used", None),
    "ambush": ("special used", None),
    "overload": ("special used", None),
    "rush": ("special used", None),
    "retreat": ("special used", None),
    "negotiate": ("special used", None),
    "consume": ("special used", None),
    "join": ("special used", None),
}

#: The specials of :data:`_WORDS`, listed so that unused ones show as zero.
SPECIALS = ("kamikaze", "ambush", "overload", "rush", "retreat", "negotiate", "consume", "join")

#: What :func:`score_sources` counts.
SCORE_LABEL = "victory points"

#: The sources sum to the seat's score (``state.scores()``).
SOURCES_SUM_TO_SCORE = True

_VP_LINE = re.compile(r"^(?P<who>.+?) (?:(?P<sign>[+-])(?P<n>\d+)|loses (?P<lost>\d+)) VP "
                      r"\((?P<reason>[^):]+)")


def action_uses(state: GameState, seat: int, action: object) -> list[tuple[str, str]]:
    """The ``(category, entry)`` pairs ``action`` uses, seen before it is applied
    (``("unit recruited", "flagship")``, ``("special used", "kamikaze")``); [] for none."""
    words = str(action).split()
    if not words or words[0] not in _WORDS:
        return []
    category, at = _WORDS[words[0]]
    if at is None:
        return [(category, words[0])]
    return [(category, words[at])] if len(words) > at else []


def catalogue(state: GameState) -> dict[str, list[str]]:
    """Every entry of the loaded content per category (units, upgrades, OCC cards, specials),
    so that an entry nobody used is reported with zero uses."""
    c: Any = state.content  # type: ignore[attr-defined]
    units = sorted(c.units)
    upgrades = sorted(c.upgrades)
    return {"unit recruited": units, "unit unlocked": units, "upgrade built": upgrades,
            "card played": sorted(c.cards), "special used": list(SPECIALS)}


def _source(reason: str) -> str:
    """``controls system A1`` -> ``system control``; ``anomaly B2b`` -> ``anomaly``;
    ``huge planet C3a`` -> ``huge planet``; other reasons as the log writes them."""
    for prefix, name in (("controls system", "system control"), ("anomaly", "anomaly"),
                         ("huge planet", "huge planet")):
        if reason.startswith(prefix):
            return name
    return reason.strip()


def score_sources(state: GameState) -> list[dict[str, float]]:
    """Per seat, victory points by source, from the log's ``+N VP (reason)`` and
    ``-N VP``/``loses N VP`` lines plus the faction's starting VP (set-up writes no line):
    ``{"battle won": 5, "system control": 4, ...}``. The values sum to the seat's VP."""
    s: Any = state
    names = {s.seat_name(seat): seat for seat in range(s.n)}
    out: list[dict[str, float]] = [{} for _ in range(s.n)]
    for seat, fx in enumerate(s.fx):
        if fx is not None and fx.start_vp:
            out[seat]["faction start"] = fx.start_vp
    for line in s.log_lines:
        m = _VP_LINE.match(line)
        if m is None or m["who"] not in names:
            continue
        seat = names[m["who"]]
        n = int(m["n"]) if m["n"] is not None else -int(m["lost"])
        if m["sign"] == "-":
            n = -n
        key = _source(m["reason"])
        out[seat][key] = out[seat].get(key, 0) + n
    return out
