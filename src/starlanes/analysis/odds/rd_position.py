"""Rift Domination battle positions for the odds: fleets read from text, and the real game
state that holds them (the same state the games use, so Monte Carlo runs the engine's own
battle code, rulebook BATTLE and WEAPONS AND RANGE)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import starlanes
from starlanes.engine import BadOptionError, StarlanesError
from starlanes.games.rift_domination.factions import FactionRules, UnitStats, compile_faction


class OddsError(StarlanesError):
    """A battle for the odds could not be set up: an unknown unit, faction or upgrade, an
    empty fleet, or a position with no battle."""


_ITEM = re.compile(r"^\s*(?:(\d+)\s*x?\s+)?([a-z_][a-z0-9_]*)\s*$")

SPACE_POINT = "C1"
"""Where Monte Carlo battles are fought: a point outside every home system, so Defensive
Ring does not apply (as in a battle away from home)."""
CAME_FROM = "B1"


def parse_fleet(text: str) -> dict[str, int]:
    """``"3 fighter, 2 carrier, gun_long"`` -> ``{"fighter": 3, "carrier": 2, ...}`` (order
    kept; ``2x fighter`` is read too). Raises OddsError on a malformed entry."""
    out: dict[str, int] = {}
    if not text.strip():
        return out
    for part in text.split(","):
        m = _ITEM.match(part.lower())
        if not m:
            raise OddsError(f"cannot read fleet entry {part.strip()!r} (use e.g. '3 fighter')")
        n = int(m.group(1) or 1)
        if n <= 0:
            raise OddsError(f"fleet entry {part.strip()!r} has no units")
        out[m.group(2)] = out.get(m.group(2), 0) + n
    return out


def fleet_text(fleet: dict[str, int]) -> str:
    """The inverse of :func:`parse_fleet`."""
    return ", ".join(f"{n} {k}" if n > 1 else k for k, n in fleet.items()) or "(none)"


@dataclass
class RiftBattleSpec:
    """A Rift Domination battle: ``attacker``/``defender`` fleets (kind -> count); for a
    ground battle (``ground``) the attacker's fleet lands and the defender's are its landed
    units, with the planet outpost and the combatant ``upgrades`` of the planet defending
    too. ``factions`` per side (None: printed unit stats, no faction abilities);
    ``options`` are game options (``battle_fire``, ``weapon_industry``...)."""

    attacker: dict[str, int]
    defender: dict[str, int]
    ground: bool = False
    factions: tuple[str | None, str | None] = (None, None)
    upgrades: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)


def _printed(content: Any) -> dict[str, UnitStats]:
    return {k: UnitStats(kind=k, cost=u.cost, lp=u.lp, shields=u.shields, mp=u.mp,
                         close=u.close, mid=u.mid, long=u.long, capacity=u.capacity,
                         used_capacity=u.used_capacity, ground=u.ground,
                         skills=frozenset(u.skills))
            for k, u in content.units.items()}


def side_rules(content: Any, faction: str | None) -> tuple[FactionRules, dict[str, UnitStats]]:
    """Faction rules and unit stats of one side. Raises OddsError for an unknown faction."""
    if faction is None:
        return FactionRules("none"), _printed(content)
    if faction not in content.factions:
        raise OddsError(f"unknown faction {faction!r}; see 'starlanes content "
                        "rift-domination'")
    return compile_faction(content, faction)


def check_spec(spec: RiftBattleSpec, content: Any) -> None:
    """Raise OddsError (naming the entry) for unknown units or upgrades, units of the wrong
    kind for the battle (ships in a ground battle and the reverse), or an empty attack."""
    if not spec.attacker:
        raise OddsError("the attacker has no units")
    if not spec.ground and not spec.defender:
        raise OddsError("the defender has no units (a space battle needs ships on both sides)")
    for side, fleet in (("attacker", spec.attacker), ("defender", spec.defender)):
        for k in fleet:
            if k not in content.units:
                raise OddsError(f"unknown {side} unit {k!r}; known: "
                                + ", ".join(content.units))
            if content.units[k].ground != spec.ground:
                where = "ground" if spec.ground else "space"
                raise OddsError(f"{side} unit {k!r} cannot fight in a {where} battle")
    for up in spec.upgrades:
        if up not in content.upgrades:
            raise OddsError(f"unknown planet upgrade {up!r}")
    if spec.upgrades and not spec.ground:
        raise OddsError("planet upgrades only fight in a ground battle (--ground)")


def position(spec: RiftBattleSpec, seed: int = 0) -> tuple[Any, int]:
    """A real game state holding the battle's units, ready for the battle to start, and the
    planet index of a ground battle (-1 for space). Set-up is played through, then the
    board is cleared: no cards in hand, no planets owned but the defended one.

    Raises OddsError for bad fleets, BadOptionError for bad options."""
    opts = {k: v for k, v in spec.options.items()}
    try:
        s = starlanes.load("rift-domination", players=2, seed=seed, **opts).new_initial_state()
    except BadOptionError:
        raise
    check_spec(spec, s.content)
    while s.phase.startswith("setup"):
        s.apply(s.legal_actions()[0])
    s.stack.clear()
    s.units.clear()
    s.hands = [[], []]
    s.phase, s.seat = "move", 0
    s._legal = None
    rules = [side_rules(s.content, f) for f in spec.factions]
    s.fx = [r[0] for r in rules]
    s.stats = [dict(r[1]) for r in rules]
    s.vp = [0, 0]
    s.resources = [0, 0]
    s.planet_owner = [-1] * len(s.planet_owner)
    s.planet_upgrades = [()] * len(s.planet_upgrades)
    s.system_owner = [-1] * len(s.system_owner)
    b = s.board
    planet = -1
    if spec.ground:
        planet = next(i for i, pt in enumerate(b.planet_point) if pt >= 0)
        pt = b.planet_point[planet]
        s.planet_owner[planet] = 1
        s.planet_upgrades[planet] = tuple(spec.upgrades)
        for k, n in spec.defender.items():
            for _ in range(n):
                s.add_unit(1, k, pt, landed=True)
        for k, n in spec.attacker.items():
            for _ in range(n):
                s.add_unit(0, k, pt, landed=True)
    else:
        pt = b.index[SPACE_POINT]
        for k, n in spec.attacker.items():
            for _ in range(n):
                s.add_unit(0, k, pt)
        for k, n in spec.defender.items():
            for _ in range(n):
                s.add_unit(1, k, pt)
    return s, planet
