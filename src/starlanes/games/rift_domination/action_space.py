"""Rift Domination's fixed action space (see :mod:`starlanes.engine.action_space`).

Everything is derived from the loaded content and the board at this player count, with
the wormhole points included (they join the board when a rift opens), so a content pack
or a board option gets its own numbering:

- points are the board's point names (systems, orbits, borders, wormhole ends), planets
  the board's planet ids, units / upgrades / cards the content ids, seats ``@0``..;
- a move is one directed board edge (``src>dst``, wormhole shortcuts included), with or
  without a unit type;
- a card play's target follows the card's effect kind, as the OCC rules list targets:
  a seat for resource, discard and income attacks; ``planet:upgrade`` for sabotage and
  free upgrades; a planet for recruit and free-unit cards; ``point>planet`` for
  teleports. Each target form is its own family (``play@``, ``play:``, ``play``,
  ``play>``) holding only the cards of those effect kinds;
- a battle target group is a combatant type (unit, upgrade or the outpost) undamaged, or
  ``kind[LP/shields]``; LP runs 1..the largest LP any combatant can reach and shields
  0..the largest shield total (base, faction bonus, defensive ring, overload, diplomat
  shield and every shield card of the deck played at once), both read from the content;
- a Repair Rush amount is 1..``RUSH_UNITS`` times the skill's budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine.action_space import Family

from .board import board_for

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Action

    from .game import RiftDomination
    from .state import RiftState

SEAT_EFFECTS = ("steal_resources", "discard_cards", "drain_income")
UPGRADE_EFFECTS = ("sabotage", "free_upgrade")
PLANET_EFFECTS = ("recruit", "free_units")
TELEPORT_EFFECTS = ("teleport",)
STATELESS_KEYS = True
"""Keys depend on the action alone (the engine remembers each action's index)."""
RUSH_UNITS = 10
"""Repair Rush amounts run 1..this many units' worth of the skill's budget (the rulebook
sets no cap on how many repair ships pool their budgets; ten is far past any game seen)."""


def _rule(content: object, rule_id: str, default: int = 0) -> int:
    entry = content.rule_entries.get(rule_id)  # type: ignore[attr-defined]
    return int(entry.value) if entry is not None else default


def stat_caps(game: RiftDomination) -> tuple[int, int]:
    """(largest LP, largest shields) a combatant can show in a target group label."""
    c = game.content
    bodies = [*c.units.values(), *c.upgrades.values(), c.outpost]
    lp = max(b.lp for b in bodies)
    sh = max(b.shields for b in bodies)
    lp_bonus = sh_bonus = 0
    for f in c.factions.values():
        for ab in f.abilities:
            d = ab if isinstance(ab, dict) else ab.model_dump()
            if d.get("kind") == "unit_stat" and d.get("stat") == "lp":
                lp_bonus = max(lp_bonus, int(d.get("delta", 0)))
            elif d.get("kind") == "unit_stat" and d.get("stat") == "shields":
                sh_bonus = max(sh_bonus, int(d.get("delta", 0)))
            elif d.get("kind") == "outpost_bonus":
                lp_bonus = max(lp_bonus, int(d.get("lp", 0)))
            elif d.get("kind") == "diplomat_shield":
                sh_bonus = max(sh_bonus, 1)
    cards = sum(int(card.effect.model_dump().get("amount", 0)) * card.count
                for card in c.cards.values() if card.effect.kind == "shield_boost")
    lp += lp_bonus + _rule(c, "defensive_ring_lp")
    sh += sh_bonus + _rule(c, "defensive_ring_shields") + _rule(c, "overload_shields") + cards
    return lp, sh


def families(game: RiftDomination) -> list[Family]:
    """The notation families in index order."""
    c = game.content
    board = board_for(game, wormholes=True)
    points = board.names
    planets = board.planet_ids
    units = tuple(sorted(c.units))
    upgrades = tuple(sorted(c.upgrades))
    edges = tuple(f"{points[a]}>{points[b]}" for a in range(len(points))
                  for b in sorted(set(board.warp_neighbors[a])))
    seats = tuple(f"@{i}" for i in range(game.players))

    def cards(kinds: tuple[str, ...] | None) -> tuple[str, ...]:
        return tuple(sorted(k for k, card in c.cards.items()
                            if kinds is None or card.effect.kind in kinds))

    lp_cap, sh_cap = stat_caps(game)
    kinds = tuple(sorted({*units, *upgrades, "outpost"}))
    groups = kinds + tuple(f"{k}[{lp}/{sh}]" for k in kinds
                           for lp in range(1, lp_cap + 1) for sh in range(sh_cap + 1))
    rush = tuple(str(i) for i in range(1, RUSH_UNITS * _rule(c, "repair_rush_amount", 4) + 1))
    return [
        Family("keep"), Family("repick"), Family("done"), Family("end"), Family("attack"),
        Family("pass"), Family("resolve"), Family("retreat"), Family("stay"),
        Family("sacrifice", (("diplomat",),)),
        Family("home", (planets,)),
        Family("tile", (planets,)),
        Family("build", (upgrades, planets)),
        Family("demolish", (upgrades, planets)),
        Family("move", (edges,)),
        Family("move", (edges, units)),
        Family("land", (planets,)),
        Family("lift", (planets,)),
        Family("negotiate", (planets,)),
        Family("consume", (planets,)),
        Family("recruit", (units, planets)),
        Family("fighters", (points,)),
        Family("unlock", (units,)),
        Family("free", (("none", *upgrades),)),
        Family("join", (points,)),
        Family("play", (cards(None),)),
        Family("play@", (cards(SEAT_EFFECTS), seats)),
        Family("play:", (cards(UPGRADE_EFFECTS), planets, upgrades)),
        Family("play", (cards(PLANET_EFFECTS), planets)),
        Family("play>", (cards(TELEPORT_EFFECTS), points, planets)),
        Family("hit", (groups,)),
        Family("kamikaze", (groups,)),
        Family("ambush", (groups,)),
        Family("overload", (groups,)),
        Family("rush", (rush,)),
    ]


def key(state: RiftState | None, action: Action) -> tuple[str, ...]:
    """The canonical key: the notation's tokens, a move's two points joined as one edge
    and a card target split by its form."""
    t = str(action).split()
    verb = t[0]
    if verb == "move":
        return ("move", f"{t[1]}>{t[2]}", *t[3:])
    if verb == "play" and len(t) == 3:
        target = t[2]
        if target.startswith("@"):
            return ("play@", t[1], target)
        if ":" in target:
            planet, _, upgrade = target.partition(":")
            return ("play:", t[1], planet, upgrade)
        if ">" in target:
            point, _, planet = target.partition(">")
            return ("play>", t[1], point, planet)
    return tuple(t)
