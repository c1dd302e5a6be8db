"""Interstellar Ambitions content: TOML data files, their schema and the loader.

Files in ``content/`` (reference: docs/content/interstellar-ambitions.md):
``planets.toml`` ([[planet]], Home Worlds included), ``techs.toml`` ([[tech]]),
``ships.toml`` ([[ship]]: STANDARD, MERC and EMERGENCY cards), ``shadow.toml`` ([[card]]),
``ambitions.toml`` ([[ambition]]), ``colony_events.toml`` ([[event]]) and ``board.toml``
([[rule]]: slot counts and other designed constants).

Every entry says ``source = "rulebook"`` (printed in the rulebook, e.g. the Battleship,
Captain Rogers, Unstable Cruiser or the four example Shadow cards) or ``source =
"designed"`` with a rationale. Cards are turned into plain tuples indexed by int for the
engine (:class:`IAContent`), so states copy ints, never models.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from starlanes.engine.content import CONTENT_NUMBER_LIMIT as CONTENT_LIMIT
from starlanes.engine.content import ContentEntry, ContentFiles
from starlanes.engine.errors import ContentError

CONTENT_DIR = Path(__file__).with_name("content")

RESOURCES = ("food", "ore", "science", "coin")
"""Resource types in index order (Resources; IA-RES-01)."""

NonNeg = Annotated[int, Field(ge=0)]
Level = Annotated[int, Field(ge=1, le=5)]

PlanetType = Literal["food", "ore", "science", "coin", "home"]
Effect = tuple[str, int, str]
"""A hook: (kind, amount, argument) e.g. ("extra_die_vs", 1, "heavy")."""


#: The hook vocabulary (docs/content, "The hook vocabulary"): kind -> what its ``arg`` names
#: ("" none, "resource" one of :data:`RESOURCES`, "colonise" food or ore, "class" light or
#: heavy, "ship" a ship id) and the range of its ``n`` (a die face for ``hit_on`` and
#: ``pre_battle_leave``; a count, bonus or reduction, never negative, otherwise).
HOOK_KINDS: dict[str, tuple[str, int, int]] = {
    "produce_extra": ("resource", 0, CONTENT_LIMIT), "produce_marker": ("", 0, CONTENT_LIMIT),
    "colonise_discount": ("colonise", 0, CONTENT_LIMIT),
    "research_discount": ("", 0, CONTENT_LIMIT), "build_discount": ("", 0, CONTENT_LIMIT),
    "repair_free": ("", 0, CONTENT_LIMIT), "raid_bonus": ("", 0, CONTENT_LIMIT),
    "invade_bonus": ("", 0, CONTENT_LIMIT), "defence_bonus": ("", 0, CONTENT_LIMIT),
    "bombard_bonus": ("", 0, CONTENT_LIMIT), "bombard_shield": ("", 0, CONTENT_LIMIT),
    "sabotage_bonus": ("", 0, CONTENT_LIMIT), "infiltrate_bonus": ("", 0, CONTENT_LIMIT),
    "shadow_bonus": ("", 0, CONTENT_LIMIT), "shadow_shield": ("", 0, CONTENT_LIMIT),
    "vp_bonus": ("", 0, CONTENT_LIMIT), "vp_marker": ("", 0, CONTENT_LIMIT),
    "extra_die_vs": ("class", 0, CONTENT_LIMIT), "ally_extra_die": ("ship", 0, CONTENT_LIMIT),
    "pre_battle_destroy": ("ship", 0, CONTENT_LIMIT), "pre_battle_leave": ("", 1, 6),
    "defence_only": ("", 0, CONTENT_LIMIT), "natural6_extra_hit": ("", 0, CONTENT_LIMIT),
    "hit_on": ("", 1, 6), "armour": ("", 0, CONTENT_LIMIT), "total_bonus": ("", 0, CONTENT_LIMIT),
}
_ARG_VALUES = {"resource": RESOURCES, "colonise": ("food", "ore"), "class": ("light", "heavy")}


class Hook(ContentEntry):
    """One special effect in the shared hook vocabulary (:data:`HOOK_KINDS`): its ``kind``,
    amount ``n`` and argument ``arg`` (a ship id is checked against ships.toml on loading)."""

    source: Literal["rulebook", "designed"] = "designed"
    rationale: str = "effect of its card"
    kind: str
    n: NonNeg = 0
    arg: str = ""

    @model_validator(mode="after")
    def _in_vocabulary(self) -> Hook:
        if self.kind not in HOOK_KINDS:
            raise ValueError(f"key 'kind': unknown hook kind {self.kind!r} (known: "
                             f"{', '.join(HOOK_KINDS)})")
        arg_kind, low, high = HOOK_KINDS[self.kind]
        if not low <= self.n <= high:
            raise ValueError(f"key 'n': {self.kind} takes n from {low} to {high}, "
                             f"got {self.n}")
        allowed = _ARG_VALUES.get(arg_kind)
        if allowed is not None and self.arg not in allowed:
            raise ValueError(f"key 'arg': {self.kind} needs arg one of "
                             f"{', '.join(allowed)}, got {self.arg!r}")
        if arg_kind == "ship" and not self.arg:
            raise ValueError(f"key 'arg': {self.kind} needs a ship id")
        return self


class Cost(ContentEntry):
    source: Literal["rulebook", "designed"] = "designed"
    rationale: str = "cost of its card"
    food: NonNeg = 0
    ore: NonNeg = 0
    science: NonNeg = 0
    coin: NonNeg = 0

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.food, self.ore, self.science, self.coin)


class PlanetCard(ContentEntry):
    id: str
    name: str
    text: str = ""
    type: PlanetType
    cost: Cost
    vp: NonNeg
    max_level: Level
    effects: tuple[Hook, ...] = ()


class TechCard(ContentEntry):
    id: str
    name: str
    text: str = ""
    cost: NonNeg
    vp: NonNeg
    start: bool = False
    effects: tuple[Hook, ...] = ()


class ShipCard(ContentEntry):
    id: str
    name: str
    text: str = ""
    deck: Literal["standard", "merc", "emergency"]
    cls: Literal["light", "heavy"]
    cost: NonNeg
    upkeep: NonNeg = 0
    combat: NonNeg
    bombard: NonNeg
    vp: NonNeg
    count: Annotated[int, Field(ge=1)] = 1
    effects: tuple[Hook, ...] = ()


ShadowKind = Literal["standard", "sabotage", "infiltrate"]
SHADOW_EFFECTS = (
    "exchange_plans", "new_opportunities", "fast_track", "delay", "bump_ultimate",
    "gain", "intel", "plague", "boom", "damage_ship", "lose", "riot", "scuttle",
    "steal_tech", "steal", "pilfer", "defect",
)


#: Shadow effects whose ``arg`` names a resource.
SHADOW_RESOURCE_EFFECTS = ("gain", "lose", "steal")


class ShadowCard(ContentEntry):
    id: str
    name: str
    kind: ShadowKind
    effect: str
    n: NonNeg = 0
    arg: str = ""
    count: Annotated[int, Field(ge=1)] = 1
    text: str = ""


AMBITION_CONDITIONS = (
    "planets", "max_planets", "techs", "owned_techs", "ships", "resources", "all_types",
    "fleet_power", "fleet_medals", "shadow_medals", "medals", "raids_won", "captures",
    "techs_taken", "home_level",
)


class Ambition(ContentEntry):
    id: str
    name: str
    kind: Literal["passive", "active"]
    condition: str
    n: Annotated[int, Field(ge=1)] = 1
    core: bool = False
    text: str = ""


EVENT_EFFECTS = (
    "gain", "lose", "level", "fail", "produce_marker", "bombard_shield", "vp_marker",
    "free_ship", "draw_shadow", "medal",
)


#: Colony-event effects whose ``arg`` names a resource; ``free_ship``'s names a ship id.
EVENT_RESOURCE_EFFECTS = ("gain", "lose")
LEVEL_STEP_LIMIT = 4
"""A ``level`` event moves the start level by at most this much either way (levels run
1..5, IA-PLN-05, ruling IA-OPEN-12); it is the one number of the content that may be
negative."""


class ColonyEvent(ContentEntry):
    id: str
    name: str
    keep: bool = False
    effect: str
    n: int = 0
    arg: str = ""
    count: Annotated[int, Field(ge=1)] = 1
    text: str = ""

    @model_validator(mode="after")
    def _n_fits_effect(self) -> ColonyEvent:
        if self.effect == "level":
            if not -LEVEL_STEP_LIMIT <= self.n <= LEVEL_STEP_LIMIT:
                raise ValueError(f"key 'n': a level event moves the start level by "
                                 f"-{LEVEL_STEP_LIMIT} to {LEVEL_STEP_LIMIT}, got {self.n}")
        elif self.n < 0:
            raise ValueError(f"key 'n': must be >= 0 for effect {self.effect!r} (only a "
                             f"level event may be negative), got {self.n}")
        return self


class BoardRule(ContentEntry):
    id: str
    value: int


@dataclass(frozen=True)
class IAContent:
    """All cards, as tuples indexed by int (shared by every state; never copied).

    Planets: ``planet_ids``, ``planet_type`` (0-3 resource index, 4 home),
    ``planet_cost`` (4-tuple), ``planet_vp``, ``planet_max``, ``planet_fx``. Techs, ships,
    Shadow cards, ambitions and colony events likewise; ``*_index`` maps ids to ints.
    """

    planets: dict[str, PlanetCard]
    techs: dict[str, TechCard]
    ships: dict[str, ShipCard]
    shadow: dict[str, ShadowCard]
    ambitions: dict[str, Ambition]
    events: dict[str, ColonyEvent]
    rules: dict[str, int]
    planet_ids: tuple[str, ...]
    planet_index: dict[str, int]
    planet_type: tuple[int, ...]
    planet_cost: tuple[tuple[int, int, int, int], ...]
    planet_vp: tuple[int, ...]
    planet_max: tuple[int, ...]
    planet_fx: tuple[tuple[Effect, ...], ...]
    homes: tuple[int, ...]
    tech_ids: tuple[str, ...]
    tech_index: dict[str, int]
    tech_cost: tuple[int, ...]
    tech_vp: tuple[int, ...]
    tech_fx: tuple[tuple[Effect, ...], ...]
    start_techs: tuple[int, ...]
    ship_ids: tuple[str, ...]
    ship_index: dict[str, int]
    ship_deck: tuple[str, ...]
    ship_heavy: tuple[bool, ...]
    ship_cost: tuple[int, ...]
    ship_upkeep: tuple[int, ...]
    ship_combat: tuple[int, ...]
    ship_bombard: tuple[int, ...]
    ship_vp: tuple[int, ...]
    ship_fx: tuple[tuple[Effect, ...], ...]
    standard_ships: tuple[int, ...]
    merc_cards: tuple[int, ...]
    emergency_cards: tuple[int, ...]
    shadow_ids: tuple[str, ...]
    shadow_index: dict[str, int]
    shadow_kind: tuple[str, ...]
    shadow_effect: tuple[tuple[str, int, str], ...]
    shadow_cards: tuple[int, ...]
    ambition_ids: tuple[str, ...]
    ambition_index: dict[str, int]
    ambition_passive: tuple[bool, ...]
    ambition_core: tuple[bool, ...]
    ambition_cond: tuple[tuple[str, int], ...]
    event_ids: tuple[str, ...]
    event_index: dict[str, int]
    event_keep: tuple[bool, ...]
    event_effect: tuple[tuple[str, int, str], ...]
    event_cards: tuple[int, ...]
    fingerprint: str = ""


def _fx(hooks: tuple[Hook, ...]) -> tuple[Effect, ...]:
    return tuple((h.kind, h.n, h.arg) for h in hooks)


def _expand(ids: list[str], counts: list[int]) -> tuple[int, ...]:
    out: list[int] = []
    for i, c in enumerate(counts):
        out.extend([i] * c)
    return tuple(out)


FILES = ("planets.toml", "techs.toml", "ships.toml", "shadow.toml", "ambitions.toml",
         "colony_events.toml", "board.toml")
"""The content files, by name (an override directory may hold any of them)."""


def load_content(override_dir: Path | None = None, overrides: tuple[str, ...] = ()
                 ) -> IAContent:
    """Load and cross-check all content: the packaged files merged with ``override_dir``'s
    files and the dotted ``overrides`` (see :class:`~starlanes.engine.content.ContentFiles`).
    The packaged content is loaded once and cached."""
    if override_dir is None and not overrides:
        return _load_default()
    return _load(ContentFiles(CONTENT_DIR, FILES, override_dir, overrides))


@lru_cache(maxsize=1)
def _load_default() -> IAContent:
    return _load(ContentFiles(CONTENT_DIR, FILES))


def _load(files: ContentFiles) -> IAContent:
    planets = files.table("planets.toml", "planet", PlanetCard)
    techs = files.table("techs.toml", "tech", TechCard)
    ships = files.table("ships.toml", "ship", ShipCard)
    shadow = files.table("shadow.toml", "card", ShadowCard)
    ambitions = files.table("ambitions.toml", "ambition", Ambition)
    events = files.table("colony_events.toml", "event", ColonyEvent)
    rules = {k: v.value for k, v in files.table("board.toml", "rule", BoardRule).items()}
    _check(planets, techs, ships, shadow, ambitions, events, rules)
    pl = list(planets.values())
    te = list(techs.values())
    sh = list(ships.values())
    sc = list(shadow.values())
    am = list(ambitions.values())
    ev = list(events.values())
    types = {"food": 0, "ore": 1, "science": 2, "coin": 3, "home": 4}
    return IAContent(
        planets=planets, techs=techs, ships=ships, shadow=shadow, ambitions=ambitions,
        events=events, rules=rules,
        planet_ids=tuple(x.id for x in pl),
        planet_index={x.id: i for i, x in enumerate(pl)},
        planet_type=tuple(types[x.type] for x in pl),
        planet_cost=tuple(x.cost.as_tuple() for x in pl),
        planet_vp=tuple(x.vp for x in pl),
        planet_max=tuple(x.max_level for x in pl),
        planet_fx=tuple(_fx(x.effects) for x in pl),
        homes=tuple(i for i, x in enumerate(pl) if x.type == "home"),
        tech_ids=tuple(x.id for x in te),
        tech_index={x.id: i for i, x in enumerate(te)},
        tech_cost=tuple(x.cost for x in te),
        tech_vp=tuple(x.vp for x in te),
        tech_fx=tuple(_fx(x.effects) for x in te),
        start_techs=tuple(i for i, x in enumerate(te) if x.start),
        ship_ids=tuple(x.id for x in sh),
        ship_index={x.id: i for i, x in enumerate(sh)},
        ship_deck=tuple(x.deck for x in sh),
        ship_heavy=tuple(x.cls == "heavy" for x in sh),
        ship_cost=tuple(x.cost for x in sh),
        ship_upkeep=tuple(x.upkeep for x in sh),
        ship_combat=tuple(x.combat for x in sh),
        ship_bombard=tuple(x.bombard for x in sh),
        ship_vp=tuple(x.vp for x in sh),
        ship_fx=tuple(_fx(x.effects) for x in sh),
        standard_ships=tuple(i for i, x in enumerate(sh) if x.deck == "standard"),
        merc_cards=_expand([x.id for x in sh],
                           [x.count if x.deck == "merc" else 0 for x in sh]),
        emergency_cards=_expand([x.id for x in sh],
                                [x.count if x.deck == "emergency" else 0 for x in sh]),
        shadow_ids=tuple(x.id for x in sc),
        shadow_index={x.id: i for i, x in enumerate(sc)},
        shadow_kind=tuple(x.kind for x in sc),
        shadow_effect=tuple((x.effect, x.n, x.arg) for x in sc),
        shadow_cards=_expand([x.id for x in sc], [x.count for x in sc]),
        ambition_ids=tuple(x.id for x in am),
        ambition_index={x.id: i for i, x in enumerate(am)},
        ambition_passive=tuple(x.kind == "passive" for x in am),
        ambition_core=tuple(x.core for x in am),
        ambition_cond=tuple((x.condition, x.n) for x in am),
        event_ids=tuple(x.id for x in ev),
        event_index={x.id: i for i, x in enumerate(ev)},
        event_keep=tuple(x.keep for x in ev),
        event_effect=tuple((x.effect, x.n, x.arg) for x in ev),
        event_cards=_expand([x.id for x in ev], [x.count for x in ev]),
        fingerprint=files.fingerprint,
    )


REQUIRED_RULES = ("tech_slots", "merc_slots", "planet_slots_per_type", "round_limit_default")
#: The range of each board rule's value: at least one slot of each kind (ruling
#: IA-OPEN-10), and the round cap within the ``round_limit`` option's range.
RULE_BOUNDS: dict[str, tuple[int, int]] = {
    "tech_slots": (1, 30), "merc_slots": (1, 15), "planet_slots_per_type": (1, 10),
    "round_limit_default": (1, 1000),
}


def _check(planets: dict[str, PlanetCard], techs: dict[str, TechCard],
           ships: dict[str, ShipCard], shadow: dict[str, ShadowCard],
           ambitions: dict[str, Ambition], events: dict[str, ColonyEvent],
           rules: dict[str, int]) -> None:
    """Cross-checks: 6 Home Worlds, 6 START techs, the starting ships, known effect kinds."""
    homes = [x for x in planets.values() if x.type == "home"]
    if len(homes) != 6:
        raise ContentError("planets.toml: there must be exactly 6 home worlds (one per seat)")
    for t in ("food", "ore", "science", "coin"):
        if not any(x.type == t for x in planets.values()):
            raise ContentError(f"planets.toml: no planet of type {t!r}")
    if sum(1 for x in techs.values() if x.start) != 6:
        raise ContentError("techs.toml: there must be exactly 6 START techs")
    for sid in ("strike_craft", "destroyer"):
        if sid not in ships or ships[sid].deck != "standard":
            raise ContentError(f"ships.toml: the standard ship {sid!r} is required")
    if not any(x.deck == "emergency" and x.cls == "light" for x in ships.values()):
        raise ContentError("ships.toml: the emergency deck needs at least one LIGHT ship")
    for c in shadow.values():
        if c.effect not in SHADOW_EFFECTS:
            raise ContentError(f"shadow.toml: entry {c.id!r}: unknown effect {c.effect!r}")
    for a in ambitions.values():
        if a.condition not in AMBITION_CONDITIONS:
            raise ContentError(f"ambitions.toml: entry {a.id!r}: unknown condition "
                               f"{a.condition!r}")
    for kind in ("passive", "active"):
        if sum(1 for a in ambitions.values() if a.kind == kind) < 3:
            raise ContentError(f"ambitions.toml: at least 3 {kind} ambitions are needed")
    for e in events.values():
        if e.effect not in EVENT_EFFECTS:
            raise ContentError(f"colony_events.toml: entry {e.id!r}: unknown effect "
                               f"{e.effect!r}")
    for r in REQUIRED_RULES:
        if r not in rules:
            raise ContentError(f"board.toml: rule {r!r} is missing")
    for r, v in rules.items():
        if r not in RULE_BOUNDS:
            raise ContentError(f"board.toml: entry {r!r}: unknown rule (known: "
                               f"{', '.join(RULE_BOUNDS)})")
        low, high = RULE_BOUNDS[r]
        if not low <= v <= high:
            raise ContentError(f"board.toml: entry {r!r}: key 'value': must be from {low} "
                               f"to {high}, got {v}")
    _check_references(planets, techs, ships, shadow, events)


def _check_references(planets: dict[str, PlanetCard], techs: dict[str, TechCard],
                      ships: dict[str, ShipCard], shadow: dict[str, ShadowCard],
                      events: dict[str, ColonyEvent]) -> None:
    """Every id or resource an entry names exists: hook ship ids, the ship of a
    ``free_ship`` event, the resource of ``gain`` / ``lose`` / ``steal`` effects."""
    for fn, table in (("planets.toml", planets), ("techs.toml", techs),
                      ("ships.toml", ships)):
        for e in table.values():
            for i, h in enumerate(e.effects):
                if HOOK_KINDS[h.kind][0] == "ship" and h.arg not in ships:
                    raise ContentError(f"{fn}: entry {e.id!r}: key 'effects[{i}].arg': "
                                       f"unknown ship id {h.arg!r} (ships.toml)")
    for c in shadow.values():
        if c.effect in SHADOW_RESOURCE_EFFECTS and c.arg not in RESOURCES:
            raise ContentError(f"shadow.toml: entry {c.id!r}: key 'arg': {c.effect} needs "
                               f"one of {', '.join(RESOURCES)}, got {c.arg!r}")
    for ev in events.values():
        if ev.effect in EVENT_RESOURCE_EFFECTS and ev.arg not in RESOURCES:
            raise ContentError(f"colony_events.toml: entry {ev.id!r}: key 'arg': "
                               f"{ev.effect} needs one of {', '.join(RESOURCES)}, "
                               f"got {ev.arg!r}")
        if ev.effect == "free_ship" and ev.arg not in ships:
            raise ContentError(f"colony_events.toml: entry {ev.id!r}: key 'arg': unknown "
                               f"ship id {ev.arg!r} (ships.toml)")
