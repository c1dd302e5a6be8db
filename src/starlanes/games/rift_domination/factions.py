"""Faction abilities: the vocabulary of faction sheets, compiled into fast lookups.

Every faction in ``content/factions.toml`` lists abilities by kind (see
docs/content/rift-domination.md). :func:`faction_rules` turns them into a frozen
:class:`FactionRules` the rules consult; :func:`unit_stats` applies ``unit_stat`` changes.
The Vespian sheet is printed in the rulebook (BEFORE YOU START, RD-FAC-03..10); the
Timewarper (RD-MOV-14..16) and The Void (RD-FAC-12) are described there; the rest are
designed from this vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlanes.engine import ContentError

from .content import RiftContent

STATS = ("lp", "shields", "mp", "close", "mid", "long", "capacity")


@dataclass(frozen=True)
class UnitStats:
    """A unit type's numbers for one faction: cost in resources, LP and shields in damage
    points, movement points per round, weapon dice per range, capacity in slots."""

    kind: str
    cost: int
    lp: int
    shields: int
    mp: int
    close: int
    mid: int
    long: int
    capacity: int
    used_capacity: int
    ground: bool
    skills: frozenset[str]

    @property
    def self_propelled(self) -> bool:
        return self.mp > 0 and self.used_capacity == 0


@dataclass(frozen=True)
class FactionRules:
    """The compiled abilities of one faction (all defaults mean "no ability")."""

    faction: str
    trading_outpost_draw: int = 1
    diplomat_recruits: frozenset[str] = frozenset()
    diplomat_shield: bool = False
    wormhole_mastery: bool = False
    consume: tuple[int, int] | None = None  # (resources, vp)
    income_bonus: int = 0
    extra_draw: int = 0
    extra_free_fighters: int = 0
    unit_discount: dict[str, int] = field(default_factory=dict)
    upgrade_discount: dict[str, int] = field(default_factory=dict)
    battle_win_vp: int = 0
    battle_win_resources: int = 0
    dangerous_roll_bonus: int = 0
    condition_bonus: dict[str, tuple[int, int]] = field(default_factory=dict)
    civilized_free: bool = False
    first_strike: bool = False
    hit_bonus: dict[str, int] = field(default_factory=dict)
    system_control_vp: int = 0
    system_control_resources: int = 0
    income_growth: int = 0
    salvage: int = 0
    outpost_lp: int = 0
    outpost_close: int = 0
    start_vp: int = 0
    unit_stat: tuple[tuple[str, str, int], ...] = ()

    def unit_cost(self, stats: UnitStats) -> int:
        d = self.unit_discount.get(stats.kind, 0) + self.unit_discount.get("*", 0)
        return max(1, stats.cost - d) if d else stats.cost

    def upgrade_cost(self, upgrade: str, cost: int) -> int:
        d = self.upgrade_discount.get(upgrade, 0) + self.upgrade_discount.get("*", 0)
        return max(1, cost - d) if d else cost


def _params(ability: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(ability, dict):
        data = dict(ability)
    else:
        data = ability.model_dump() if hasattr(ability, "model_dump") else dict(vars(ability))
    kind = data.pop("kind")
    return kind, data


_CACHE: dict[tuple[int, str], tuple[FactionRules, dict[str, UnitStats]]] = {}


def compile_faction(content: RiftContent, faction: str) -> tuple[FactionRules, dict[str, UnitStats]]:
    """FactionRules and per-unit stats of ``faction``; cached per content object.

    Raises ContentError for an ability kind outside the vocabulary.
    """
    key = (id(content), faction)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    f = content.factions[faction]
    kw: dict[str, Any] = {"faction": faction}
    unit_discount: dict[str, int] = {}
    upgrade_discount: dict[str, int] = {}
    condition_bonus: dict[str, tuple[int, int]] = {}
    hit_bonus: dict[str, int] = {}
    stat_changes: list[tuple[str, str, int]] = []
    for ability in f.abilities:
        kind, p = _params(ability)
        if kind == "trading_outpost_draw":
            kw["trading_outpost_draw"] = p["cards"]
        elif kind == "diplomat_recruits":
            kw["diplomat_recruits"] = frozenset(p["units"])
        elif kind in ("diplomat_shield", "wormhole_mastery", "civilized_free", "first_strike"):
            kw[kind] = True
        elif kind == "consume":
            kw["consume"] = (p["resources"], p["vp"])
        elif kind in ("income_bonus", "income_growth"):
            kw[kind] = kw.get(kind, 0) + p["amount"]
        elif kind == "extra_draw":
            kw["extra_draw"] = kw.get("extra_draw", 0) + p["cards"]
        elif kind == "extra_free_fighters":
            kw["extra_free_fighters"] = kw.get("extra_free_fighters", 0) + p["count"]
        elif kind == "unit_stat":
            stat_changes.append((p["unit"], p["stat"], p["delta"]))
        elif kind == "unit_discount":
            unit_discount[p["unit"]] = unit_discount.get(p["unit"], 0) + p["amount"]
        elif kind == "upgrade_discount":
            upgrade_discount[p["upgrade"]] = upgrade_discount.get(p["upgrade"], 0) + p["amount"]
        elif kind == "battle_win_reward":
            kw["battle_win_vp"] = p["vp"]
            kw["battle_win_resources"] = p["resources"]
        elif kind == "dangerous_roll_bonus":
            kw["dangerous_roll_bonus"] = p["amount"]
        elif kind == "condition_bonus":
            condition_bonus[p["condition"]] = (p["resources"], p["vp"])
        elif kind == "hit_bonus":
            hit_bonus[p["weapon"]] = hit_bonus.get(p["weapon"], 0) + p["amount"]
        elif kind == "system_control_bonus":
            kw["system_control_vp"] = p["vp"]
            kw["system_control_resources"] = p["resources"]
        elif kind == "salvage":
            kw["salvage"] = p["resources"]
        elif kind == "outpost_bonus":
            kw["outpost_lp"] = p["lp"]
            kw["outpost_close"] = p["close"]
        elif kind == "start_vp":
            kw["start_vp"] = p["vp"]
        else:
            raise ContentError(f"faction {faction!r}: unknown ability kind {kind!r}")
    rules = FactionRules(
        unit_discount=unit_discount, upgrade_discount=upgrade_discount,
        condition_bonus=condition_bonus, hit_bonus=hit_bonus,
        unit_stat=tuple(stat_changes), **kw,
    )
    stats: dict[str, UnitStats] = {}
    for uid, u in content.units.items():
        vals = {s: getattr(u, s) for s in STATS}
        for unit, stat, delta in stat_changes:
            if unit in (uid, "*"):
                vals[stat] = max(0, vals[stat] + delta)
        vals["lp"] = max(1, vals["lp"])
        stats[uid] = UnitStats(
            kind=uid, cost=u.cost, used_capacity=u.used_capacity, ground=u.ground,
            skills=frozenset(u.skills), **vals,
        )
    _CACHE[key] = (rules, stats)
    return rules, stats
