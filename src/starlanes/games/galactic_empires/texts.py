"""Player-facing names and text of Galactic Empires cards, built from the loaded content.

A card instance is shown everywhere as its name followed by the id a user types:
``Blue Giant Star (blue_giant#15)`` (:func:`display`); notation keeps the typed id alone
(``play blue_giant#15``). :func:`card_text` gives a card's type, empire, statistics and
the ``text`` of its content entry; :func:`empire_text` gives an empire's name and the
``text`` of its content entry, the words the catalogue shows too. Nothing here names a
particular card or empire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import code_seat, is_fleet, is_hq

if TYPE_CHECKING:  # pragma: no cover
    from .content import Card, GEContent
    from .state import GEState

TYPE_NAMES = {
    "T": "terrain", "S": "ship", "B": "base", "C": "crew", "E": "equipment",
    "O": "occurrence", "H": "hazard", "M": "monster", "D": "space dragon",
    "Q": "Sector HQ card",
}
"""Card type letters in words (docs/content/galactic-empires.md)."""

WEAPON_NAMES = {
    "P": "phaser", "W": "subspace whip", "F": "physical attack", "T": "trans-warp missile",
    "B": "dragon breath", "V": "variplaz", "X": "distortion cannon",
}
"""Weapon symbols in words; T, B, V and X are heavy weapons needing ammunition."""

POINT_WORDS = ("energy", "supply", "ammo", "research", "repair", "economy")


def display(s: GEState, inst: int) -> str:
    """``Blue Giant Star (blue_giant#15)``: the name and the id a user types."""
    return f"{s.card(inst).name} ({s.name(inst)})"


def target_words(s: GEState, code: int) -> str:
    """A play target in words: a card, ``P1's fleet`` or ``P1's Sector HQ``."""
    if is_hq(code):
        return f"P{code_seat(code)}'s Sector HQ (HQ{code_seat(code)})"
    if is_fleet(code):
        return f"P{code_seat(code)}'s fleet (P{code_seat(code)})"
    return display(s, code)


def points_text(p: object) -> str:
    """``2 energy + 1 supply`` from a Points model; ``none`` when all zero."""
    parts = [f"{getattr(p, k)} {k}" for k in POINT_WORDS if getattr(p, k)]
    return " + ".join(parts) or "none"


def weapons_text(symbols: str) -> str:
    """``PPT`` -> ``2 phaser, 1 trans-warp missile``."""
    seen: dict[str, int] = {}
    for w in symbols:
        seen[w] = seen.get(w, 0) + 1
    return ", ".join(f"{n} {WEAPON_NAMES.get(w, w)}" for w, n in seen.items())


def empire_name(content: GEContent | None, empire: str) -> str:
    """The display name of an empire id (``krebiz`` -> ``Krebiz``), from the content."""
    e = content.empires.get(empire) if content is not None else None
    return e.name if e is not None else empire


def empire_text(content: GEContent, empire: str) -> str:
    """``Krebiz: <its content text>``: what sets an empire apart in play (GE-EMP)."""
    e = content.empires.get(empire)
    if e is None:
        return empire
    return f"{e.name}: {e.text}" if e.text else e.name


def card_summary(c: Card, content: GEContent | None = None) -> str:
    """``terrain, Generic; strength 3; generates 2 energy. <text>`` (the empire's name from
    ``content`` when given, else its id)."""
    bits = [f"{TYPE_NAMES.get(c.type, c.type)}, {empire_name(content, c.empire)}"]
    if c.reaction:
        bits[0] += ", reaction card"
    if c.strength:
        bits.append(f"strength {c.strength}")
    if c.shields:
        bits.append(f"shields {c.shields}")
    if c.nodes:
        bits.append(f"EMF with {c.nodes} node(s)")
    if c.weapons:
        bits.append(f"weapons {weapons_text(c.weapons)}")
    if c.vmax:
        bits.append(f"variplaz up to {c.vmax} energy")
    req = points_text(c.requires)
    if req != "none":
        bits.append(f"needs {req} to Engage")
    gen = points_text(c.generates)
    if gen != "none":
        bits.append(f"generates {gen}" + (" (healing)" if c.healing else ""))
    if c.duration:
        bits.append(f"lasts {c.duration} turn(s)")
    if c.krebiz:
        bits.append(f"Krebiz {c.krebiz}")
    body = f"{'; '.join(bits)}."
    return f"{body} {c.text}" if c.text else body


def card_text(s: GEState, inst: int) -> str:
    """``Blue Giant Star (blue_giant#15): terrain, generic; ...``: :func:`display` and
    :func:`card_summary`."""
    return f"{display(s, inst)}: {card_summary(s.card(inst), s.content)}"
