"""Galactic Empires deck lists of a player's own: a name, a declared major empire and card
counts, checked by the Standard Game's construction rules (ruling GE-OPEN-01), read from and
written to deck files.

A deck file is TOML::

    name = "Mist and Haze"
    major = "argonian"

    [cards]
    arg_frigate = 3
    blue_giant = 2

Every problem names the rule it breaks (:data:`RULES`) and, where one card is at fault,
that card. ``check`` never raises for a bad deck: it lists what is wrong.
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from starlanes.engine.errors import BadOptionError

from .content import (
    MAJOR_EMPIRES,
    STANDARD_MAX_COPIES,
    STANDARD_MIN_CARDS,
    STANDARD_MIN_TERRAIN,
    Deck,
)

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card, Content

NAME_LIMIT = 40
"""The longest deck name (characters, after runs of spaces are made one)."""
MAX_COPIES_STORED = 255
"""The most copies of one card a deck list (even a draft breaking the rules) may hold."""

#: The construction rules a deck is checked by: rule id -> what it says. Ruling GE-OPEN-01
#: gives the Standard Game's rules; GE-EMP-MIN-01 lets a minor empire lead a deck.
RULES: dict[str, str] = {
    "GE-OPEN-01 name": f"a deck has a name of 1 to {NAME_LIMIT} printable characters",
    "GE-EMP-MIN-01": "a deck declares one major empire: Argonian, Krebiz, Corporate or "
                     "Mechad, or a minor empire stocked as its major empire",
    "GE-OPEN-05": "every card is a card of the pool",
    "GE-OPEN-01 size": f"a Standard deck holds at least {STANDARD_MIN_CARDS} cards",
    "GE-OPEN-01 copies": f"at most {STANDARD_MAX_COPIES} copies of a card",
    "GE-OPEN-01 terrain": f"at least {STANDARD_MIN_TERRAIN} terrain cards",
    "GE-OPEN-01 empire": "no ship, dragon or base of a major empire other than the deck's "
                         "declared major empire (minor empires and generic cards are always "
                         "allowed)",
}


class DeckList(BaseModel):
    """A deck of a player's own: ``name``, declared ``major`` empire (an empire id of the
    content) and ``cards`` (card id -> copies, each at least 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    major: str
    cards: dict[str, Annotated[int, Field(ge=1, le=MAX_COPIES_STORED)]]

    @property
    def size(self) -> int:
        """The number of cards."""
        return sum(self.cards.values())

    def card_ids(self) -> list[str]:
        """Every card of the deck, one entry per copy, sorted by id."""
        return [cid for cid, k in sorted(self.cards.items()) for _ in range(k)]

    def as_content_deck(self, ident: str = "own") -> Deck:
        """The deck as the game deals a Standard deck (:class:`~.content.Deck`)."""
        return Deck(id=ident, name=self.name, major=self.major,  # type: ignore[arg-type]
                    structure="standard", cards=dict(self.cards), source="designed",
                    rationale="a player's own deck, brought to the table")


@dataclass(frozen=True)
class DeckProblem:
    """One broken construction rule: the ``rule`` id (a key of :data:`RULES`), the ``card``
    at fault ("" when the deck as a whole is) and the ``message`` a player reads."""

    rule: str
    card: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "card": self.card, "message": self.message}


def clean_name(name: str) -> str:
    """``name`` with its runs of white space made one space, ends stripped."""
    return " ".join(name.split())


def _label(content: Content, cid: str) -> str:
    card = content.cards.get(cid)
    return f"{card.name} ({cid})" if card else repr(cid)


def check(content: Content, deck: DeckList) -> list[DeckProblem]:
    """Every construction rule ``deck`` breaks (empty: it is a legal Standard deck), in the
    order of :data:`RULES`, one problem per card at fault."""
    out: list[DeckProblem] = []
    name = clean_name(deck.name)
    if not name or len(name) > NAME_LIMIT or any(
            unicodedata.category(ch).startswith("C") for ch in name):
        out.append(DeckProblem("GE-OPEN-01 name", "", f"the deck's name must be 1 to "
                               f"{NAME_LIMIT} printable characters"))
    if deck.major not in content.empires or deck.major == "generic":
        choices = ", ".join(e for e in content.empires if e != "generic")
        out.append(DeckProblem("GE-EMP-MIN-01", "", f"{deck.major!r} is not an empire a "
                               f"deck may declare; choose one of {choices}"))
    unknown = [cid for cid in deck.cards if cid not in content.cards]
    for cid in unknown:
        out.append(DeckProblem("GE-OPEN-05", cid, f"{cid!r} is not a card of this content "
                               "(see 'starlanes cards galactic-empires')"))
    known = {cid: k for cid, k in deck.cards.items() if cid in content.cards}
    total = sum(deck.cards.values())
    if total < STANDARD_MIN_CARDS:
        out.append(DeckProblem("GE-OPEN-01 size", "", f"{total} cards; a Standard deck "
                               f"needs at least {STANDARD_MIN_CARDS}"))
    for cid, k in sorted(known.items()):
        if k > STANDARD_MAX_COPIES:
            out.append(DeckProblem("GE-OPEN-01 copies", cid, f"{k} copies of "
                                   f"{_label(content, cid)}; at most {STANDARD_MAX_COPIES}"))
    terrain = sum(k for cid, k in known.items() if content.cards[cid].type == "T")
    if terrain < STANDARD_MIN_TERRAIN:
        out.append(DeckProblem("GE-OPEN-01 terrain", "", f"{terrain} terrain; a Standard "
                               f"deck needs at least {STANDARD_MIN_TERRAIN}"))
    for cid in sorted(known):
        card = content.cards[cid]
        if card.type in "SBD" and card.empire in MAJOR_EMPIRES and card.empire != deck.major:
            out.append(DeckProblem("GE-OPEN-01 empire", cid, f"{_label(content, cid)} "
                                   f"belongs to the {card.empire} empire, not to this "
                                   f"{deck.major} deck's"))
    return out


def cost_of(card: Card) -> int:
    """A card's cost: the sum of the points it requires to be Engaged (GE-PTS)."""
    return sum(card.requires.model_dump().values())


def summary(content: Content, deck: DeckList) -> dict[str, Any]:
    """What a deck builder shows beside the list: ``size``, ``by_type`` (type letter ->
    cards), ``curve`` (cost -> cards, for every card but terrain: its cost is the sum of
    the points it requires to be Engaged, GE-PTS), ``requires`` and ``generates`` (point
    type -> total over the deck's cards, one per copy). Unknown cards are left out."""
    by_type: dict[str, int] = {}
    curve: dict[int, int] = {}
    requires: dict[str, int] = {}
    generates: dict[str, int] = {}
    for cid, k in deck.cards.items():
        card = content.cards.get(cid)
        if card is None:
            continue
        by_type[card.type] = by_type.get(card.type, 0) + k
        if card.type != "T":
            cost = cost_of(card)
            curve[cost] = curve.get(cost, 0) + k
        for pts, into in ((card.requires, requires), (card.generates, generates)):
            for point, v in pts.model_dump().items():
                if v:
                    into[point] = into.get(point, 0) + v * k
    return {"size": deck.size, "by_type": dict(sorted(by_type.items())),
            "curve": dict(sorted(curve.items())), "requires": requires,
            "generates": generates}


def from_content(content: Content, ident: str) -> DeckList:
    """The packaged (or content-pack) deck ``ident`` as a deck list. Raises BadOptionError
    naming the decks there are."""
    d = content.decks.get(ident)
    if d is None:
        raise BadOptionError(f"no ready-made deck {ident!r}; there are "
                             f"{', '.join(sorted(content.decks))}")
    return DeckList(name=d.name, major=d.major, cards=dict(d.cards))


def from_mapping(data: Any, where: str = "the deck") -> DeckList:
    """A deck list from parsed TOML or JSON (``name``, ``major``, ``cards``). Raises
    BadOptionError naming ``where`` and the key at fault."""
    if not isinstance(data, dict):
        raise BadOptionError(f"{where}: a deck is a table of name, major and cards")
    try:
        return DeckList.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        key = ".".join(str(x) for x in first["loc"]) or "(top)"
        raise BadOptionError(f"{where}: key {key!r}: {first['msg']}") from None


def load_file(path: Path) -> DeckList:
    """Read a deck file (TOML, or JSON when it ends in ``.json``). Raises BadOptionError
    for a missing file, bad syntax or bad keys (naming the file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise BadOptionError(f"deck file {str(path)!r} cannot be read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise BadOptionError(f"deck file {str(path)!r} is not UTF-8 text") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise BadOptionError(f"deck file {str(path)!r}: {e}") from None
    return from_mapping(data, f"deck file {str(path)!r}")


def to_toml(deck: DeckList) -> str:
    """The deck as deck-file text (TOML; card ids sorted), read back by :func:`load_file`."""
    lines = [f"name = {json.dumps(deck.name)}", f"major = {json.dumps(deck.major)}", "",
             "[cards]"]
    lines += [f"{cid if re.fullmatch(r'[a-z0-9_]+', cid) else json.dumps(cid)} = {k}"
              for cid, k in sorted(deck.cards.items())]
    return "\n".join(lines) + "\n"
