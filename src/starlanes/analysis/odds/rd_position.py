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


_ITEM = re.compile(r"^\s*(?:(\d+)\s*x?\s+)?([a-z_][a-z0-9_]*)\s*(?:/\s*(\d+))?\s*$")

MAX_UNITS = 1_000
"""Most units one side may type in (all methods): the position is built on a real game
state and a battle's decisions are answered one by one, so size must be bounded before
any work. A real game's fleets stay far below it."""

SPACE_POINT = "C1"
"""Where space battles are set up: a point of a system with two planets in play (on both
boards), owned by nobody unless a side is given a planet there (``home``, Defensive Ring)."""
CAME_FROM = "B1"


_NEGATIVE = re.compile(r"^\s*-\s*\d")
_BAD_DAMAGE = re.compile(r"/\s*(?!\d+\s*$)")


def entry_problem(part: str, side: str = "") -> str:
    """Why fleet entry ``part`` (one comma-separated piece of a fleet) cannot be read, in
    words naming the field (``the attacker's fleet entry '-5 fighter' has a negative
    count ...``), or ``""`` when no count or damage in it is wrong: a negative or zero
    count, or a damage that is not a whole number."""
    where = f"the {side}'s fleet entry" if side else "fleet entry"
    shown = repr(part.strip())
    if _NEGATIVE.match(part):
        return (f"{where} {shown} has a negative count: a count is a whole number of at "
                "least 1")
    head = part.split()
    if len(head) > 1 and head[0].rstrip("x").isdigit() and int(head[0].rstrip("x")) == 0:
        return f"{where} {shown} has no units: a count is a whole number of at least 1"
    if _BAD_DAMAGE.search(part):
        return (f"cannot read {where} {shown}: its damage is not a whole number of 0 or "
                "more (use e.g. '2 carrier/1' for two carriers with 1 damage)")
    return ""


def parse_fleet(text: str, side: str = "") -> dict[str, int]:
    """``"3 fighter, 2 carrier/1, infantry"`` -> ``{"fighter": 3, "carrier/1": 2,
    "infantry": 1}`` (order kept; ``2x fighter`` is read too). ``KIND/N`` is a unit with N
    damage (LP lost, the game's damage tiles); ground units in a space fleet are carried.
    ``side`` (``attacker``, ``defender``) names the field in the errors. Raises OddsError
    on a malformed entry, a negative or zero count (:func:`entry_problem`) or more than
    :data:`MAX_UNITS` units."""
    out: dict[str, int] = {}
    if not text.strip():
        return out
    total = 0
    where = f"the {side}'s fleet entry" if side else "fleet entry"
    for part in text.split(","):
        problem = entry_problem(part, side)
        if problem:
            raise OddsError(problem)
        m = _ITEM.match(part.lower())
        if not m:
            raise OddsError(f"cannot read {where} {part.strip()!r} (use e.g. '3 fighter' "
                            "or '2 carrier/1' for two carriers with 1 damage)")
        n = int(m.group(1) or 1)
        total += n
        if total > MAX_UNITS:
            raise OddsError(f"more than {MAX_UNITS:,} units on one side; the odds are "
                            "computed for fleets up to that size")
        wounds = int(m.group(3) or 0)
        key = f"{m.group(2)}/{wounds}" if wounds else m.group(2)
        out[key] = out.get(key, 0) + n
    return out


def split_label(label: str) -> tuple[str, int]:
    """``"carrier/1"`` -> ``("carrier", 1)``; ``"carrier"`` -> ``("carrier", 0)``."""
    kind, _, wounds = label.partition("/")
    return kind, int(wounds or 0)


def fleet_text(fleet: dict[str, int]) -> str:
    """The inverse of :func:`parse_fleet`."""
    return ", ".join(f"{n} {k}" if n > 1 else k for k, n in fleet.items()) or "(none)"


@dataclass
class RiftBattleSpec:
    """A Rift Domination battle: ``attacker``/``defender`` fleets (kind -> count); for a
    ground battle (``ground``) the attacker's fleet lands and the defender's are its landed
    units, with the planet outpost and the combatant ``upgrades`` of the planet defending
    too. Fleet keys are unit kinds, ``KIND/N`` for a unit with N damage; in a space battle
    ground units are carried (they fight with their own weapons and take hits, ruling
    RD-OPEN-12). ``factions`` per side (None: printed unit stats, no faction abilities);
    ``options`` are game options (``battle_fire``, ``weapon_industry``...); ``cards`` the
    battle OCC-cards each side holds (played at the first chance, Monte Carlo); ``home``
    per side whether it holds a planet in the space battle's system (Defensive Ring)."""

    attacker: dict[str, int]
    defender: dict[str, int]
    ground: bool = False
    factions: tuple[str | None, str | None] = (None, None)
    upgrades: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    cards: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    home: tuple[bool, bool] = (False, False)
    """Per side: it holds a planet in the system of a space battle, so its Defensive Ring
    units gain LP and shields (RD-SKL-11, ruling RD-OPEN-17)."""


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
        raise OddsError(f"unknown faction {faction!r}; known: {', '.join(content.factions)} "
                        "(see 'starlanes cards rift-domination')")
    return compile_faction(content, faction)


def battle_cards(content: Any) -> list[str]:
    """Ids of the OCC-cards played during a battle (timing ``battle``)."""
    return [k for k, c in content.cards.items() if c.timing == "battle"]


def check_spec(spec: RiftBattleSpec, content: Any) -> None:
    """Raise OddsError (naming the entry) for unknown units or upgrades, ships in a ground
    battle, damage a unit cannot take, unknown or non-battle cards, or an empty attack."""
    if not spec.attacker:
        raise OddsError("the attacker has no units")
    if not spec.ground and not spec.defender:
        raise OddsError("the defender has no units (a space battle needs ships on both sides)")
    for side, fleet in (("attacker", spec.attacker), ("defender", spec.defender)):
        if sum(fleet.values()) > MAX_UNITS:
            raise OddsError(f"more than {MAX_UNITS:,} {side} units; the odds are computed "
                            "for fleets up to that size")
        for label in fleet:
            k, wounds = split_label(label)
            if k not in content.units:
                raise OddsError(f"unknown {side} unit {k!r}; known: "
                                + ", ".join(content.units))
            if spec.ground and not content.units[k].ground:
                raise OddsError(f"{side} unit {k!r} cannot fight in a ground battle")
        if not spec.ground and not any(not content.units[split_label(k)[0]].ground
                                       for k in fleet) and fleet:
            raise OddsError(f"the {side} has only ground units: in a space battle they are "
                            "carried, so add the ships carrying them")
    for up in spec.upgrades:
        if up not in content.upgrades:
            raise OddsError(f"unknown planet upgrade {up!r}")
    if spec.upgrades and not spec.ground:
        raise OddsError("planet upgrades only fight in a ground battle (--ground)")
    if any(spec.home) and spec.ground:
        raise OddsError("a home system (Defensive Ring) is a setting of space battles")
    allowed = battle_cards(content)
    for side, cards in zip(("attacker", "defender"), spec.cards, strict=True):
        for c in cards:
            if c not in allowed:
                raise OddsError(f"{side} card {c!r} is not a battle card; battle cards: "
                                + ", ".join(allowed))
            if cards.count(c) > content.cards[c].count:
                raise OddsError(f"{side} holds {cards.count(c)} {c!r} cards; the deck has "
                                f"{content.cards[c].count}")


def _check_damage(s: Any, seat: int, fleet: dict[str, int], side: str) -> None:
    for label in fleet:
        k, wounds = split_label(label)
        lp = s.unit_stats(seat, k).lp
        if wounds >= lp:
            raise OddsError(f"{side} {label!r}: a {k} has {lp} LP, so it takes at most "
                            f"{lp - 1} damage and lives")


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
    s.hands = [list(spec.cards[0]), list(spec.cards[1])]
    s.phase, s.seat = "move", 0
    s._legal = None
    rules = [side_rules(s.content, f) for f in spec.factions]
    s.fx = [r[0] for r in rules]
    s.stats = [dict(r[1]) for r in rules]
    _check_damage(s, 0, spec.attacker, "attacker")
    _check_damage(s, 1, spec.defender, "defender")
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
        _place(s, 1, spec.defender, pt, True)
        _place(s, 0, spec.attacker, pt, True)
    else:
        pt = b.index[SPACE_POINT]
        if any(spec.home):
            planets = [p for p in b.system_planets[b.system_of[pt]] if b.planet_point[p] >= 0]
            for seat in (0, 1):
                if spec.home[seat]:  # a planet of the battle's system (none is an outpost)
                    s.planet_owner[planets[seat]] = seat
        _place(s, 0, spec.attacker, pt, False)
        _place(s, 1, spec.defender, pt, False)
    return s, planet


def _place(s: Any, seat: int, fleet: dict[str, int], point: int, landed: bool) -> None:
    """Put ``fleet`` at ``point``: landed (ground battle) or in orbit, where ground units
    are aboard their ships; damaged units carry their damage tiles."""
    for label, n in fleet.items():
        k, wounds = split_label(label)
        for _ in range(n):
            uid = s.add_unit(seat, k, point, landed=landed)
            if wounds:
                s.units[uid] = s.units[uid]._replace(wounds=wounds)
