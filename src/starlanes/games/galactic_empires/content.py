"""Galactic Empires content: the card pool, the starter decks, their schema and loader.

The rulebook's card layout diagram is missing ("Place card layout diagram here", ruling
GE-OPEN-03), so a card is modelled as the printed game is known to lay it out: a **type
letter** and a **strength**, the **points it requires** to be Engaged, the **points it
generates**, **modifier points** for other cards (its effects) and **weapon symbols**.

Type letters: ``T`` terrain, ``S`` ship, ``B`` base, ``C`` crew, ``E`` equipment,
``O`` occurrence, ``H`` hazard, ``M`` monster, ``D`` Space Dragon (Dragon Empire), ``Q``
Sector HQ card (a card that may be played on a Sector HQ, GE-PLAY-13). A card marked
``reaction = true`` is an 'R' card (GE-PLAY-03).

Weapon symbols (one character per weapon, GE-FIRE-10): ``P`` phaser, ``W`` subspace whip
(a phaser, GE-EMP-MCH-08), ``F`` dragon physical attack (a phaser, GE-EMP-DRG-08), ``T``
trans-warp missile (heavy), ``B`` dragon breath (heavy, GE-EMP-DRG-07), ``V`` variplaz
(heavy, damage = energy allocated, GE-EMP-CORP-01/02), ``X`` distortion cannon (heavy,
fleet-wide, GE-EMP-MCH-09). Heavy weapons need 1 ammunition point each (GE-FIRE-11).

Card text is expressed as :class:`Effect` entries; the vocabulary is listed in
:data:`EFFECT_KINDS` and documented in docs/content/galactic-empires.md. Card text
overrides the rulebook where it says so (GE-PLAY-14).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from starlanes.engine.content import ContentEntry, ContentFiles
from starlanes.engine.errors import ContentError
from starlanes.engine.plain import plain_class, plain_copy

CONTENT_DIR = Path(__file__).with_name("content")

CardType = Literal["T", "S", "B", "C", "E", "O", "H", "M", "D", "Q"]
Empire = Literal[
    "argonian", "krebiz", "corporate", "mechad", "bolaar", "vektrean", "indirigan",
    "dragon", "pirate", "generic",
]
MAJOR_EMPIRES = ("argonian", "krebiz", "corporate", "mechad")
MINOR_EMPIRES = ("bolaar", "vektrean", "indirigan", "dragon", "pirate")
POINT_TYPES = ("energy", "supply", "ammo", "research", "repair", "economy")
HEAVY = frozenset("TBVX")
PHASER = frozenset("PWF")
WEAPON_SYMBOLS = "PWFTBVX"
NonNeg = Annotated[int, Field(ge=0)]

#: The effect vocabulary: kind -> (when it works, what it does). See the content docs.
EFFECT_KINDS: dict[str, str] = {
    # static modifiers of the card a crew/equipment card is on (its host)
    "shields": "static: host +n shield points",
    "shield_refit": "static: host +n shield points; not on Mechad ships (GE-EMP-MCH-05)",
    "weapon": "static: adds n weapons of symbol `symbol` to the card (refits, pods)",
    "strength": "static: host +n strength",
    "command": "static: owner +n command points (GE-FLEET-06)",
    "foreign_tech": "static: host may carry foreign technology (GE-EMP-MIN-02/03)",
    "transporter": "static: host's crew and equipment go back to hand when it is destroyed",
    "terrain_bonus": "static, on terrain: that terrain generates n more `point` points",
    "free_flying": "static: the card flies free: it may be fired at and is hit by a "
                   "distortion cannon",
    "indirigan": "static: the Indirigan targeting restriction (GE-EMP-MIN-05/06)",
    "no_repair": "static: this monster cannot be repaired, even by healing points",
    # functions operated in Play Cards Phase A or B, once per turn (GE-TURN-04/05)
    "op_repair": "function: repair n damage on one of the owner's units",
    "op_damage": "function: n damage to one unit of the fleet it is against / an enemy",
    "op_board": "function (needs a transporter): n structural damage to an enemy ship or "
                "base whose shields are intact-free; an EMF does not block it",
    # instant occurrences (discarded after use, GE-REM-04)
    "damage": "instant: n damage to one unit (terrain only with heavy = true)",
    "damage_fleet": "instant: n damage to every ship in one fleet",
    "repair": "instant: repair n damage on one unit",
    "permanent": "instant: n permanent structural damage to one unit (GE-OPEN-17)",
    "hq_damage": "instant: n damage to a Sector HQ (overrides GE-DMG-05)",
    "hq_repair": "instant: repair n Sector HQ damage (GE-DMG-09)",
    "draw": "instant: draw n cards",
    "salvage": "instant: take the most recently discarded ship or base into hand",
    "disengage": "instant: one ship or base becomes Disengaged",
    "discard_random": "instant: the target player discards n random hand cards",
    # lasting effects on a player (duration cards)
    "time_warp": "lasting: the target fleet's units cannot be Engaged",
    "economic_crisis": "lasting: the target player's supply and economy output is halved",
    # reaction functions ('R' cards)
    "deflect": "reaction 4b: the fire allocated on your card does n less damage",
    "evade": "reaction 4b: the fire allocated on your Engaged ship misses",
    "hq_screen": "reaction 4b: the fire allocated on your Sector HQ does n less damage",
    "return_fire": "reaction 4b: n damage to one unit that fired",
    "emergency_repair": "reaction 4b or own turn: repair n damage on one of your units",
    "cancel_card": "reaction: cancel a card an opponent plays on your fleet",
    "override": "counter-reaction 4c: cancel the target's reaction card",
    "dampen": "counter-reaction 4c: the target's reaction card works at half value",
}
#: Effect kinds that take an amount ``n`` (at least 1); the others take none.
AMOUNT_KINDS = frozenset({
    "shields", "shield_refit", "weapon", "strength", "command", "terrain_bonus", "op_repair",
    "op_damage", "op_board", "damage", "damage_fleet", "repair", "permanent", "hq_damage",
    "hq_repair", "draw", "discard_random", "deflect", "hq_screen", "return_fire",
    "emergency_repair",
})
REACTION_KINDS = frozenset({
    "deflect", "evade", "hq_screen", "return_fire", "emergency_repair", "cancel_card",
})
COUNTER_KINDS = frozenset({"override", "dampen"})
INSTANT_KINDS = frozenset({
    "damage", "damage_fleet", "repair", "permanent", "hq_damage", "hq_repair", "draw",
    "salvage", "disengage", "discard_random",
})
LASTING_KINDS = frozenset({"time_warp", "economic_crisis"})
OP_KINDS = frozenset({"op_repair", "op_damage", "op_board"})


class Effect(BaseModel):
    """One effect of a card: ``kind`` from :data:`EFFECT_KINDS` and its parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    n: NonNeg = 0
    symbol: str = ""
    point: str = ""
    heavy: bool = False

    @model_validator(mode="after")
    def _known(self) -> Effect:
        if self.kind not in EFFECT_KINDS:
            raise ValueError(f"key 'kind': unknown effect kind {self.kind!r}")
        if self.kind in AMOUNT_KINDS and self.n < 1:
            raise ValueError(f"key 'n': a {self.kind} effect needs n >= 1, got {self.n}")
        if self.kind == "weapon" and (len(self.symbol) != 1 or self.symbol not in WEAPON_SYMBOLS):
            raise ValueError("a weapon effect needs one weapon symbol")
        if self.kind == "terrain_bonus" and self.point not in POINT_TYPES:
            raise ValueError("terrain_bonus needs a point type")
        return self


class Points(BaseModel):
    """Points required or generated (GE-PTS-01)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    energy: NonNeg = 0
    supply: NonNeg = 0
    ammo: NonNeg = 0
    research: NonNeg = 0
    repair: NonNeg = 0
    economy: NonNeg = 0


class Card(ContentEntry):
    """One card design (see the module docstring for the layout)."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1)
    type: CardType
    empire: Empire = "generic"
    strength: NonNeg = 0
    requires: Points = Points()
    generates: Points = Points()
    healing: bool = False
    shields: NonNeg = 0
    nodes: NonNeg = 0
    weapons: str = ""
    vmax: NonNeg = 0
    krebiz: Literal["", "cruiser", "capsule"] = ""
    attack: NonNeg = 0
    duration: NonNeg = 0
    tech: str = ""
    exclusive: bool = False
    located: bool = False
    reaction: bool = False
    effects: tuple[Effect, ...] = ()
    text: str = ""

    @model_validator(mode="after")
    def _layout(self) -> Card:
        bad = set(self.weapons) - set(WEAPON_SYMBOLS)
        if bad:
            raise ValueError(f"unknown weapon symbols {''.join(sorted(bad))}")
        if self.weapons.count("V") > 1:
            raise ValueError("at most one variplaz per card (ruling GE-OPEN-03)")
        if "V" in self.weapons and self.vmax < 1:
            raise ValueError("a variplaz card needs vmax >= 1")
        if self.nodes and "V" in self.weapons:
            raise ValueError("a card cannot have both an EMF and a variplaz")
        if self.krebiz and (self.empire != "krebiz" or self.type != "S"):
            raise ValueError("cruiser/capsule is for Krebiz ships")
        if self.type in "SBDTM" and self.strength < 1:
            raise ValueError("terrain, ships, bases and monsters need strength >= 1")
        if self.type == "D" and (self.shields or self.empire != "dragon"):
            raise ValueError("D dragons belong to the dragon empire and have no shields")
        if self.type in "OHQ" and not self.effects:
            raise ValueError("an occurrence, hazard or HQ card needs an effect")
        if self.reaction and not any(
            e.kind in REACTION_KINDS | COUNTER_KINDS for e in self.effects
        ):
            raise ValueError("an R card needs a reaction or counter function")
        return self

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The kinds of the card's effects (read once: the card never changes)."""
        return frozenset(e.kind for e in self.effects)

    @cached_property
    def operates(self) -> bool:
        """Has the card a function operated from play (an ``op_*`` effect, GE-TURN-04/05)?"""
        return any(k.startswith("op_") for k in self.kinds)

    def has(self, kind: str) -> bool:
        """Has the card an effect of ``kind``?"""
        return kind in self.kinds

    def amount(self, kind: str) -> int:
        return sum(e.n for e in self.effects if e.kind == kind)


class Deck(ContentEntry):
    """A ready-made deck: ``cards`` maps card id -> copies; ``major`` is its major empire."""

    id: str
    name: str
    major: Empire
    structure: Literal["basic", "standard"]
    cards: dict[str, Annotated[int, Field(ge=1, le=4)]]


class EmpireEntry(ContentEntry):
    """An empire a card can belong to: its name, whether it is major, the rule group of its
    special rules and what sets it apart (Galactic Empires; GE-EMP-*)."""

    id: Empire
    name: str = Field(min_length=1)
    major: bool
    rules: str
    text: str = Field(min_length=1)


PlainPoints = plain_class(Points, "PlainPoints")
PlainEffect = plain_class(Effect, "PlainEffect")
PlainCard = plain_class(Card, "PlainCard")
"""The cards as the rules read them during play (``Content.rule_cards``): plain, read-only
copies, about six times faster to read a field of than the pydantic models
(``starlanes.engine.plain``)."""


@dataclass(frozen=True)
class Content:
    """The loaded pool (``cards``), ready-made decks (``decks``) and the empires, with the
    fingerprint of the merged content. ``rule_cards``: ``cards`` as :data:`PlainCard`
    copies, made with the content, for the rules to read in play (``GEState.cards``)."""

    cards: dict[str, Card]
    decks: dict[str, Deck]
    empires: dict[str, EmpireEntry] = field(default_factory=dict)
    fingerprint: str = ""
    rule_cards: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule_cards",
                           {k: plain_copy(c) for k, c in self.cards.items()})


#: The decks the game itself names: the Basic Sets of option ``deck`` (GE-DECK-01) and the
#: default Standard Game decks of option ``decks``, each with the structure it must have.
BASIC_SETS = ("krebiz-argonian", "corporate-mechad")
STANDARD_DEFAULT = ("krebiz", "argonian", "corporate", "mechad")
REQUIRED_DECKS: dict[str, str] = {
    **dict.fromkeys(BASIC_SETS, "basic"), **dict.fromkeys(STANDARD_DEFAULT, "standard")}

#: Standard Game deck-construction rules (ruling GE-OPEN-01).
STANDARD_MIN_CARDS = 40
STANDARD_MAX_COPIES = 3
STANDARD_MIN_TERRAIN = 12


def deck_problems(content: Content, deck: Deck) -> list[str]:
    """Why ``deck`` breaks the deck-construction rules (empty when it is legal).

    Basic Game (GE-DECK-03/04): any cards, at least 25 (the recommended minimum for one
    player). Standard Game (ruling GE-OPEN-01): at least 40 cards, at most 3 copies of a
    card, at least 12 terrain, and ships, bases and dragons of no major empire but the
    deck's own (minor empires and generic cards always allowed).
    """
    out = []
    for cid in deck.cards:
        if cid not in content.cards:
            out.append(f"unknown card {cid!r}")
    if out:
        return out
    total = sum(deck.cards.values())
    if deck.structure == "basic":
        if total < 25:
            out.append(f"{total} cards; a deck needs at least 25")
        return out
    if total < STANDARD_MIN_CARDS:
        out.append(f"{total} cards; a Standard deck needs at least {STANDARD_MIN_CARDS}")
    for cid, n in deck.cards.items():
        if n > STANDARD_MAX_COPIES:
            out.append(f"{n} copies of {cid}; at most {STANDARD_MAX_COPIES}")
    terrain = sum(n for cid, n in deck.cards.items() if content.cards[cid].type == "T")
    if terrain < STANDARD_MIN_TERRAIN:
        out.append(f"{terrain} terrain; a Standard deck needs {STANDARD_MIN_TERRAIN}")
    for cid in deck.cards:
        c = content.cards[cid]
        if c.type in "SBD" and c.empire in MAJOR_EMPIRES and c.empire != deck.major:
            out.append(f"{cid} is a {c.empire} card in a {deck.major} deck")
    return out


def stocked_minor(cards: dict[str, Card], card_ids: list[str]) -> str:
    """The minor empire a deck is stocked with as its major empire, or "" (GE-EMP-MIN-01:
    a minor empire "could be used as a major empire by simply stocking a deck" with its
    ships). It is the minor empire with more ship and dragon cards in ``card_ids`` than
    any other empire, major or minor; "" when a major empire has as many or more, or the
    deck has no ships (ruling GE-OPEN-15)."""
    count: dict[str, int] = {}
    for cid in card_ids:
        c = cards[cid]
        if c.type in "SD" and c.empire != "generic":
            count[c.empire] = count.get(c.empire, 0) + 1
    if not count:
        return ""
    top = max(count.values())
    best = [e for e, k in count.items() if k == top]
    return best[0] if len(best) == 1 and best[0] in MINOR_EMPIRES else ""


FILES = ("terrain.toml", "ships.toml", "cards.toml", "decks.toml", "empires.toml")
"""The content files, by name (an override directory may hold any of them)."""


def _load(files: ContentFiles) -> Content:
    cards: dict[str, Card] = {}
    file_of: dict[str, str] = {}
    for fn in ("terrain.toml", "ships.toml", "cards.toml"):
        part = files.table(fn, "card", Card)
        for k in part:
            if k in cards:
                raise ContentError(f"{fn}: card id {k!r} appears twice")
            file_of[k] = fn
        cards.update(part)
    decks = files.table("decks.toml", "deck", Deck)
    empires = files.table("empires.toml", "empire", EmpireEntry)
    content = Content(cards, decks, empires, files.fingerprint)
    for d in decks.values():
        problems = deck_problems(content, d)
        if problems:
            raise ContentError(f"decks.toml: entry {d.id!r}: key 'cards': {problems[0]}")
    for ident, structure in REQUIRED_DECKS.items():
        if ident not in decks:
            raise ContentError(
                f"decks.toml: no entry {ident!r} (key 'id'): the game deals this "
                f"{structure} deck by default (options deck and decks), so it must exist")
        if decks[ident].structure != structure:
            raise ContentError(f"decks.toml: entry {ident!r}: key 'structure': must be "
                               f"{structure!r} (the game deals it as a {structure} deck)")
    for c in cards.values():
        if c.empire not in empires:
            raise ContentError(f"{file_of[c.id]}: entry {c.id!r}: key 'empire': "
                               f"empires.toml has no entry {c.empire!r}")
        if c.tech and c.tech not in empires:
            raise ContentError(f"{file_of[c.id]}: entry {c.id!r}: key 'tech': unknown "
                               f"empire {c.tech!r} (empires.toml)")
    return content


@lru_cache(maxsize=1)
def _load_default() -> Content:
    return _load(ContentFiles(CONTENT_DIR, FILES))


def load_content(override: Path | None = None, overrides: tuple[str, ...] = ()) -> Content:
    """The packaged content merged with ``override``'s files and the dotted ``overrides``
    (see :class:`~starlanes.engine.content.ContentFiles`); the packaged content is cached.

    Raises ContentError naming the file, entry, key and expected type of any problem."""
    if override is None and not overrides:
        return _load_default()
    return _load(ContentFiles(CONTENT_DIR, FILES, override, overrides))


def card_listing(content: Content, empire: str = "", type_letter: str = "") -> list[Card]:
    """The pool filtered by empire and type letter, sorted by type, empire and name (the
    listing ``starlanes cards galactic-empires`` prints)."""
    return sorted(
        (c for c in content.cards.values()
         if (not empire or c.empire == empire) and (not type_letter or c.type == type_letter)),
        key=lambda c: (c.type, c.empire, c.name),
    )
