"""Rift Domination content: the TOML data files, their schema and the loader.

The packaged files live in ``content/`` next to this module. :func:`load_content` reads
them, merged with an override directory and dotted overrides (entry by entry, see
:class:`starlanes.engine.content.ContentFiles`), validates every entry with the pydantic
models below and cross-checks the tables against each other. Any problem raises
:class:`~starlanes.engine.errors.ContentError` naming the file, the entry and the field.

Files: ``board.toml`` ([[system]], [[planet]], [[wormhole]]; read by
:mod:`.board_content`), ``units.toml`` ([[unit]]),
``upgrades.toml`` ([[upgrade]] and one [outpost]), ``condition_tiles.toml`` ([[tile]]),
``factions.toml`` ([[faction]]), ``occ_cards.toml`` ([[card]]) and ``rules.toml`` ([[rule]],
one numeric constant each, gathered into :class:`Rules`). Reference:
docs/content/rift-domination.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from starlanes.engine.content import ContentEntry, ContentFiles
from starlanes.engine.errors import ContentError

from .board_content import (  # noqa: F401  (the board names are part of this module's API)
    BOARDS,
    CENTRAL_SYSTEM,
    GRID_H,
    GRID_W,
    PLANET_COUNT,
    SYSTEM_COUNT,
    Planet,
    System,
    Wormhole,
    check_board,
    load_board,
)

CONTENT_DIR = Path(__file__).with_name("content")

UNIT_IDS = (
    "fighter", "carrier", "flagship", "infantry", "diplomat", "goliath", "support",
    "destroyer", "cruiser", "corvette", "bomber", "repair_ship", "missile_frigate",
    "kamikaze_drone", "sentinel", "engineer",
)
UPGRADE_IDS = (
    "warp", "mine", "trading_outpost", "artillery", "military_base", "shield_generator",
)
FACTION_COUNT = 30
DECK_SIZE = 100
MIN_CARD_VARIANTS = 26

Skill = Literal[
    "repair_rush", "repair_bldg", "rocket_barrage", "kamikaze", "bombardment",
    "bombardment_2", "negotiate", "overload", "defensive_ring", "taunt",
]
Stat = Literal["lp", "shields", "mp", "close", "mid", "long", "capacity"]
Weapon = Literal["close", "mid", "long"]
Condition = Literal["civilized", "dangerous", "anomaly", "harvester"]
Timing = Literal["instant", "own_turn", "any_time", "battle", "counter"]
SKILLS: tuple[str, ...] = get_args(Skill)
CONDITIONS: tuple[str, ...] = get_args(Condition)
NonNeg = Annotated[int, Field(ge=0)]
Pos = Annotated[int, Field(ge=1)]
Die = Annotated[int, Field(ge=1, le=6)]
"""A face of the six-sided die (rulebook: Space Battle, Dangerous Planets)."""


class _Param(BaseModel):
    """Base of ability and effect parameter tables: strict, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- units, upgrades


class Unit(ContentEntry):
    id: str
    name: str = Field(min_length=1)
    text: str = ""
    cost: Pos
    lp: Pos
    shields: NonNeg
    mp: NonNeg
    close: NonNeg
    mid: NonNeg
    long: NonNeg
    capacity: NonNeg
    used_capacity: NonNeg
    ground: bool = False
    skills: tuple[Skill, ...] = ()

    @model_validator(mode="after")
    def _movement_kind(self) -> Unit:
        if self.used_capacity > 0 and self.mp != 0:
            raise ValueError("a carried unit (used_capacity > 0) must have mp 0")
        if self.used_capacity == 0 and self.mp < 1:
            raise ValueError("a ship (used_capacity 0) needs mp >= 1")
        if self.ground and self.used_capacity == 0:
            raise ValueError("a ground unit must be carried (used_capacity >= 1)")
        return self


class Upgrade(ContentEntry):
    id: str
    name: str = Field(min_length=1)
    text: str = ""
    cost: Pos
    lp: NonNeg = 0
    shields: NonNeg = 0
    close: NonNeg = 0
    mid: NonNeg = 0
    long: NonNeg = 0
    skills: tuple[Skill, ...] = ()
    transfers: bool
    combatant: bool

    @model_validator(mode="after")
    def _combat_stats(self) -> Upgrade:
        if self.combatant and self.lp < 1:
            raise ValueError("a combatant upgrade needs lp >= 1")
        if self.combatant and self.transfers:
            raise ValueError("combat buildings never pass to the captor (RD-BAT-18)")
        return self


class Outpost(ContentEntry):
    lp: Pos
    text: str = ""
    shields: NonNeg = 0
    close: NonNeg = 0
    mid: NonNeg = 0
    long: NonNeg = 0


class Tile(ContentEntry):
    id: str
    text: str = ""
    kind: Condition
    value: NonNeg
    count: Pos

    @model_validator(mode="after")
    def _value_fits_kind(self) -> Tile:
        if self.kind == "civilized" and self.value != 0:
            raise ValueError("a civilized tile has value 0")
        if self.kind != "civilized" and self.value < 1:
            raise ValueError(f"a {self.kind} tile needs value >= 1")
        return self


# --------------------------------------------------------------------------- faction abilities

#: Ability vocabulary: kind -> {param: type}. Each kind becomes a pydantic model whose
#: ``kind`` field is the tag of the :data:`Ability` union (see docs/content/rift-domination.md).
ABILITY_PARAMS: dict[str, dict[str, Any]] = {
    "trading_outpost_draw": {"cards": Pos},
    "diplomat_recruits": {"units": Annotated[tuple[str, ...], Field(min_length=1)]},
    "diplomat_shield": {},
    "wormhole_mastery": {},
    "consume": {"resources": NonNeg, "vp": NonNeg},
    "income_bonus": {"amount": Pos},
    "extra_draw": {"cards": Pos},
    "extra_free_fighters": {"count": Pos},
    "unit_stat": {"unit": str, "stat": Stat, "delta": int},
    "unit_discount": {"unit": str, "amount": Pos},
    "upgrade_discount": {"upgrade": str, "amount": Pos},
    "battle_win_reward": {"vp": NonNeg, "resources": NonNeg},
    "dangerous_roll_bonus": {"amount": Pos},
    "condition_bonus": {"condition": Condition, "resources": NonNeg, "vp": NonNeg},
    "civilized_free": {},
    "first_strike": {},
    "hit_bonus": {"weapon": Weapon, "amount": Pos},
    "system_control_bonus": {"vp": NonNeg, "resources": NonNeg},
    "income_growth": {"amount": Pos},
    "salvage": {"resources": Pos},
    "outpost_bonus": {"lp": NonNeg, "close": NonNeg},
    "start_vp": {"vp": Pos},
}


def _tagged_models(spec: dict[str, dict[str, Any]]) -> dict[str, type[_Param]]:
    out: dict[str, type[_Param]] = {}
    for kind, params in spec.items():
        fields: dict[str, Any] = {"kind": (Literal[kind], ...)}
        fields.update({name: (tp, ...) for name, tp in params.items()})
        model_name = "".join(w.title() for w in kind.split("_"))
        out[kind] = create_model(model_name, __base__=_Param, **fields)
    return out


#: One model per ability kind, by kind.
ABILITY_MODELS = _tagged_models(ABILITY_PARAMS)
Ability = Annotated[Union[tuple(ABILITY_MODELS.values())], Field(discriminator="kind")]  # noqa: UP007


class Faction(ContentEntry):
    id: str
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    start_units: dict[str, Pos]
    start_resources: NonNeg
    start_upgrades: tuple[str, ...] = Field(default=(), max_length=1)
    roster: tuple[str, ...] = Field(min_length=1)
    unlock_limit: NonNeg = 2
    abilities: tuple[Ability, ...] = ()

    def ability(self, kind: str) -> tuple[Any, ...]:
        """This faction's abilities of one kind (usually zero or one)."""
        return tuple(a for a in self.abilities if a.kind == kind)


# --------------------------------------------------------------------------- OCC-card effects

#: Effect vocabulary: kind -> {param: type}.
EFFECT_PARAMS: dict[str, dict[str, Any]] = {
    "gain_resources": {"amount": Pos},
    "lose_resources": {"amount": Pos},
    "gain_vp": {"amount": Pos},
    "lose_vp": {"amount": Pos},
    "recruit": {"unit": str, "count": Pos},
    "weapon_industry": {},
    "counter": {},
    "cancel_attack": {},
    "skill_block": {},
    "repair": {"amount": Pos},
    "shield_boost": {"amount": Pos},
    "ambush": {"damage": Pos},
    "hit_boost": {"amount": Pos},
    "skill": {"skill": Literal["rocket_barrage", "repair_rush", "overload"]},
    "extra_mp": {"amount": Pos},
    "draw": {"amount": Pos},
    "steal_resources": {"amount": Pos},
    "sabotage": {},
    "discard_cards": {"amount": Pos},
    "drain_income": {"amount": Pos},
    "income_up": {"amount": Pos},
    "income_down": {"amount": Pos, "else_lose": NonNeg},
    "free_upgrade": {},
    "free_units": {"unit": str, "count": Pos},
    "lose_units": {"unit": str, "count": Pos},
    "teleport": {},
}
#: One model per effect kind, by kind.
EFFECT_MODELS = _tagged_models(EFFECT_PARAMS)
Effect = Annotated[Union[tuple(EFFECT_MODELS.values())], Field(discriminator="kind")]  # noqa: UP007

#: Timings each effect kind may be printed with.
EFFECT_TIMINGS: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for k, v in {
        "gain_resources": "own_turn any_time instant", "lose_resources": "instant",
        "gain_vp": "own_turn any_time instant", "lose_vp": "instant",
        "recruit": "battle own_turn", "weapon_industry": "battle", "counter": "counter",
        "cancel_attack": "counter", "skill_block": "battle", "repair": "battle",
        "shield_boost": "battle", "ambush": "battle", "hit_boost": "battle", "skill": "battle",
        "extra_mp": "own_turn", "draw": "own_turn any_time instant",
        "steal_resources": "own_turn any_time", "sabotage": "own_turn any_time",
        "discard_cards": "own_turn any_time", "drain_income": "own_turn any_time",
        "income_up": "own_turn any_time instant", "income_down": "instant",
        "free_upgrade": "own_turn any_time", "free_units": "own_turn any_time instant",
        "lose_units": "instant", "teleport": "own_turn",
    }.items()
}
#: Effect kinds played against another player (and so open to a ``counter`` card).
OPPONENT_EFFECTS = frozenset({
    "steal_resources", "sabotage", "discard_cards", "drain_income", "ambush", "skill_block",
    "cancel_attack",
})


class Card(ContentEntry):
    id: str
    name: str = Field(min_length=1)
    count: Pos
    timing: Timing
    effect: Effect
    targets_opponent: bool = False
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _timing_fits_effect(self) -> Card:
        kind = self.effect.kind
        if self.timing not in EFFECT_TIMINGS[kind]:
            allowed = " or ".join(sorted(EFFECT_TIMINGS[kind]))
            raise ValueError(f"effect {kind} needs timing {allowed}, not {self.timing}")
        if self.targets_opponent != (kind in OPPONENT_EFFECTS):
            raise ValueError(
                f"effect {kind} needs targets_opponent = {str(kind in OPPONENT_EFFECTS).lower()}"
            )
        return self


# --------------------------------------------------------------------------- rule constants


class RuleValue(ContentEntry):
    id: str
    value: int
    text: str = Field(min_length=1)


class Rules(BaseModel):
    """Numeric rule constants, built from the ``[[rule]]`` entries of ``rules.toml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    vp_to_win_2p: Pos
    vp_to_win_3p: Pos
    vp_to_win_4p: Pos
    vp_to_win_5p: Pos
    vp_to_win_6p: Pos
    start_occ_cards: NonNeg
    occ_draw_per_turn: NonNeg
    free_fighters_per_turn: NonNeg
    income_start: NonNeg
    income_step: NonNeg
    income_max: Pos
    upgrade_slots: Pos
    huge_upgrade_slots: Pos
    huge_planet_vp: NonNeg
    huge_planet_condition_tile: Annotated[int, Field(ge=0, le=1)]
    system_control_vp: NonNeg
    battle_win_vp: NonNeg
    civilized_cost: NonNeg
    civilized_infantry_cards: NonNeg
    negotiate_cards: NonNeg
    negotiate_fighters: NonNeg
    negotiate_free_upgrade: Annotated[int, Field(ge=0, le=1)]
    dangerous_min_roll: Die
    anomaly_free_infantry: NonNeg
    mine_income: NonNeg
    harvester_two_mines_bonus: NonNeg
    trading_outpost_cards: NonNeg
    warp_mp: NonNeg
    unlock_limit: NonNeg
    repair_rush_amount: NonNeg
    repair_bldg_amount: NonNeg
    rocket_barrage_targets: Pos
    rocket_barrage_min_roll: Die
    kamikaze_min_roll: Die
    kamikaze_damage: Pos
    bombardment_damage: Pos
    bombardment_2_damage: Pos
    overload_shields: Pos
    defensive_ring_lp: NonNeg
    defensive_ring_shields: NonNeg

    @property
    def victory_points(self) -> dict[int, int]:
        """VP needed to win, by player count (RD-WIN-01..03)."""
        return {n: int(getattr(self, f"vp_to_win_{n}p")) for n in range(2, 7)}

    def vp_to_win(self, players: int) -> int:
        return self.victory_points[min(max(players, 2), 6)]


# --------------------------------------------------------------------------- the bundle


@dataclass(frozen=True, eq=False)
class RiftContent:
    """Every validated Rift Domination table, keyed by id (file order kept)."""

    systems: dict[str, System]
    planets: dict[str, Planet]
    wormholes: dict[str, Wormhole]
    units: dict[str, Unit]
    upgrades: dict[str, Upgrade]
    outpost: Outpost
    tiles: dict[str, Tile]
    factions: dict[str, Faction]
    cards: dict[str, Card]
    rules: Rules
    rule_entries: dict[str, RuleValue]
    fingerprint: str = ""

    def neighbours(self, system_id: str) -> tuple[str, ...]:
        """Orthogonally adjacent systems on the full board (RD-MOV-05)."""
        s = self.systems[system_id]
        pos = {(o.x, o.y): o.id for o in self.systems.values()}
        steps = ((0, -1), (1, 0), (0, 1), (-1, 0))
        return tuple(pos[p] for dx, dy in steps if (p := (s.x + dx, s.y + dy)) in pos)

    def planets_of(self, system_id: str) -> tuple[str, ...]:
        return tuple(p.id for p in self.planets.values() if p.system == system_id)

    def start_systems(self, players: int) -> tuple[str, ...]:
        """Starting systems for a player count (RD-SET-08): yellow for <= 4, else white."""
        colour = "yellow" if players <= 4 else "white"
        return tuple(s.id for s in self.systems.values() if s.start == colour)

    def tile_bag(self) -> tuple[str, ...]:
        """Tile ids, one per physical tile, in file order."""
        return tuple(t.id for t in self.tiles.values() for _ in range(t.count))

    def deck(self) -> tuple[str, ...]:
        """Card ids, one per physical card, in file order."""
        return tuple(c.id for c in self.cards.values() for _ in range(c.count))


def _fail(file: str, msg: str) -> ContentError:
    return ContentError(f"{file}: {msg}")


def _load_rules(files: ContentFiles) -> tuple[Rules, dict[str, RuleValue]]:
    entries = files.table("rules.toml", "rule", RuleValue)
    fields = set(Rules.model_fields)
    unknown = sorted(set(entries) - fields)
    if unknown:
        raise _fail("rules.toml", f"unknown rule id(s) {', '.join(unknown)}")
    missing = sorted(fields - set(entries))
    if missing:
        raise _fail("rules.toml", f"missing rule id(s) {', '.join(missing)}")
    try:
        rules = Rules.model_validate({k: e.value for k, e in entries.items()})
    except ValidationError as e:
        err = e.errors()[0]
        raise _fail("rules.toml", f"entry {err['loc'][0]!r}: key 'value': {err['msg']}, "
                                  f"got {err.get('input')!r}") from None
    return rules, entries


def _check_units(c: RiftContent) -> None:
    extra, missing = sorted(set(c.units) - set(UNIT_IDS)), sorted(set(UNIT_IDS) - set(c.units))
    if extra or missing:
        raise _fail("units.toml", f"needs the 16 unit types; unknown {extra}, missing {missing}")
    if set(c.upgrades) != set(UPGRADE_IDS):
        raise _fail("upgrades.toml", f"needs exactly the upgrades {', '.join(UPGRADE_IDS)}")


def _check_tiles(c: RiftContent) -> None:
    kinds = {t.kind for t in c.tiles.values()}
    if kinds != set(CONDITIONS):
        raise _fail("condition_tiles.toml", f"needs tiles of every condition, has {sorted(kinds)}")
    need = PLANET_COUNT - 4
    if len(c.tile_bag()) < need:
        raise _fail("condition_tiles.toml", f"the bag needs at least {need} tiles")


def _unit_ref(file: str, where: str, unit: str, c: RiftContent, star: bool = False) -> None:
    if unit not in c.units and not (star and unit == "*"):
        raise _fail(file, f"{where}: unknown unit id {unit!r}")


def _check_factions(c: RiftContent) -> None:
    f = "factions.toml"
    if len(c.factions) != FACTION_COUNT:
        raise _fail(f, f"needs exactly {FACTION_COUNT} factions, has {len(c.factions)}")
    for fac in c.factions.values():
        w = f"faction {fac.id!r}"
        for u in (*fac.start_units, *fac.roster):
            _unit_ref(f, w, u, c)
        for up in fac.start_upgrades:
            if up not in c.upgrades:
                raise _fail(f, f"{w}: unknown upgrade id {up!r}")
            if up == "military_base":
                raise _fail(f, f"{w}: the military base is given to every player already")
        roster = [c.units[u] for u in fac.roster]
        if not any(u.capacity > 0 and u.mp > 0 for u in roster):
            raise _fail(f, f"{w}: the roster needs a ship with capacity")
        if not any(u.ground for u in roster):
            raise _fail(f, f"{w}: the roster needs a ground unit")
        for a in fac.abilities:
            if a.kind == "diplomat_recruits":
                for u in a.units:
                    _unit_ref(f, f"{w}: diplomat_recruits", u, c)
            elif a.kind in ("unit_stat", "unit_discount"):
                _unit_ref(f, f"{w}: {a.kind}", a.unit, c, star=a.kind == "unit_discount")
                if a.kind == "unit_stat":
                    _check_stat_change(f, w, c.units[a.unit], a.stat, a.delta)
            elif a.kind == "upgrade_discount" and a.upgrade != "*" and a.upgrade not in c.upgrades:
                raise _fail(f, f"{w}: upgrade_discount: unknown upgrade id {a.upgrade!r}")


def _check_stat_change(f: str, where: str, unit: Unit, stat: str, delta: int) -> None:
    """A ``unit_stat`` delta may be negative (a faction may weaken a unit), but the changed
    stat must stay one the unit may have: LP >= 1, a ship's mp >= 1, the rest >= 0."""
    low = 1 if stat == "lp" or (stat == "mp" and unit.used_capacity == 0) else 0
    if getattr(unit, stat) + delta < low:
        raise _fail(f, f"{where}: key 'abilities': unit_stat leaves the {unit.id}'s {stat} at "
                       f"{getattr(unit, stat) + delta} (at least {low})")
    if stat == "mp" and unit.used_capacity > 0 and delta:
        raise _fail(f, f"{where}: key 'abilities': a carried unit ({unit.id}) has no mp to "
                       f"change")


def _check_cards(c: RiftContent) -> None:
    f = "occ_cards.toml"
    total = sum(card.count for card in c.cards.values())
    if total != DECK_SIZE:
        raise _fail(f, f"card counts must sum to {DECK_SIZE}, they sum to {total}")
    if len(c.cards) < MIN_CARD_VARIANTS:
        raise _fail(f, f"needs at least {MIN_CARD_VARIANTS} distinct cards, has {len(c.cards)}")
    for card in c.cards.values():
        unit = getattr(card.effect, "unit", None)
        if unit is not None:
            _unit_ref(f, f"card {card.id!r}", unit, c)


FILES = ("board.toml", "units.toml", "upgrades.toml", "condition_tiles.toml",
         "factions.toml", "occ_cards.toml", "rules.toml")
"""The content files of the standard board, by name (an override directory may hold any of
them); another board replaces ``board.toml`` with its own file (:func:`files_for`)."""


def files_for(board: str) -> tuple[str, ...]:
    """The content file names read with ``board`` (a key of :data:`BOARDS`)."""
    return (BOARDS[board], *FILES[1:])


def load_content(override_dir: Path | None = None, overrides: tuple[str, ...] = (),
                 board: str = "standard") -> RiftContent:
    """Load and cross-check all content: the packaged files merged with ``override_dir``'s
    files and the dotted ``overrides`` (see :class:`~starlanes.engine.content.ContentFiles`);
    ``board`` names the board file (:data:`BOARDS`). The packaged content (no override) is
    loaded once per board and cached. Raises ContentError for invalid files or an unknown
    board."""
    if board not in BOARDS:
        raise ContentError(f"unknown board {board!r} (known: {', '.join(BOARDS)})")
    if override_dir is None and not overrides:
        return _load_default(board)
    return _load(ContentFiles(CONTENT_DIR, files_for(board), override_dir, overrides),
                 BOARDS[board])


@lru_cache(maxsize=4)
def _load_default(board: str) -> RiftContent:
    return _load(ContentFiles(CONTENT_DIR, files_for(board)), BOARDS[board])


def _load(files: ContentFiles, board: str = "board.toml") -> RiftContent:
    rules, rule_entries = _load_rules(files)
    systems, planets, wormholes = load_board(files, board)
    c = RiftContent(
        systems=systems,
        planets=planets,
        wormholes=wormholes,
        units=files.table("units.toml", "unit", Unit),
        upgrades=files.table("upgrades.toml", "upgrade", Upgrade),
        outpost=files.single("upgrades.toml", "outpost", Outpost),
        tiles=files.table("condition_tiles.toml", "tile", Tile),
        factions=files.table("factions.toml", "faction", Faction),
        cards=files.table("occ_cards.toml", "card", Card),
        rules=rules,
        rule_entries=rule_entries,
        fingerprint=files.fingerprint,
    )
    check_board(c.systems, c.planets, c.wormholes, board)
    _check_units(c)
    _check_tiles(c)
    _check_factions(c)
    _check_cards(c)
    return c
