"""What a Galactic Empires seat brings to a Standard Game: its own deck, as a deck code (the
engine's ``seat_setup`` option, one text per seat). This is the game's companion module
for that contract: a server or a deck builder reaches decks only through these functions,
without knowing what a deck is.

- :func:`seat_decks`: the decks of a game's ``seat_setup`` option, checked.
- :func:`builder`: what a deck builder shows: the pool, the empires, the ready-made decks
  (as codes), the construction rules.
- :func:`check_draft`: a deck list being built, checked: its problems, summary and code.
- :func:`read_code`: the deck list of a code.
- :func:`setup_text`: a deck file or code given on the command line, as a code.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlanes.engine.errors import BadOptionError

from . import deck_code, decks
from .layout import card_faces

if TYPE_CHECKING:  # pragma: no cover
    from .content import Content, Deck
    from .game import GalacticEmpires

KIND = "deck"
"""What a seat brings (the engine's ``seat_setup_kind``)."""


def parse(content: Content, text: str, seat: int | None = None) -> decks.DeckList:
    """The legal Standard deck of the code ``text``. Raises BadOptionError (a DeckCodeError
    for a code that cannot be read) naming the seat, the rule broken and the card."""
    who = f"seat {seat}'s deck" if seat is not None else "the deck"
    try:
        deck = deck_code.decode(content, text)
    except deck_code.DeckCodeError as e:
        raise deck_code.DeckCodeError(f"{who}: {e}") from None
    problems = decks.check(content, deck)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise BadOptionError(f"{who} breaks rule {problems[0]}{more}")
    return deck


def seat_decks(content: Content, structure: str, setup: tuple[str, ...],
               players: int) -> list[Deck | None]:
    """Per seat, the deck its ``seat_setup`` text brings (None: the game's default deck).
    Raises BadOptionError: a setup in the Basic Game (one shared deck), more texts than
    seats, or a deck code that cannot be read or breaks a construction rule."""
    texts = [t.strip() for t in setup]
    if len(texts) > players:
        raise BadOptionError(f"seat_setup holds {len(texts)} texts for {players} seats")
    if any(texts) and structure != "standard":
        raise BadOptionError("decks of one's own are for the Standard Game "
                             "(structure=standard); the Basic Game shares one deck")
    out: list[Deck | None] = []
    for seat in range(players):
        text = texts[seat] if seat < len(texts) else ""
        out.append(parse(content, text, seat).as_content_deck(f"seat{seat}") if text
                   else None)
    return out


def builder(game: GalacticEmpires) -> dict[str, Any]:
    """JSON-ready data for a deck builder: ``kind`` ("deck"), ``fingerprint``, ``cards``
    (card id -> face, as the table draws it), ``empires`` (id -> name, major, text),
    ``decks`` (ready-made Standard decks: id, name, major, code), ``rules`` (rule id ->
    text) and ``limits`` (min cards, max copies, min terrain)."""
    c = game.content
    ready = []
    for d in c.decks.values():
        if d.structure != "standard":
            continue
        deck = decks.from_content(c, d.id)
        ready.append({"id": d.id, "name": d.name, "major": d.major,
                      "code": deck_code.encode(c, deck)})
    return {
        "game": game.game_id, "kind": KIND, "fingerprint": c.fingerprint,
        "cards": card_faces(c),
        "empires": {e.id: {"name": e.name, "major": e.major, "text": e.text}
                    for e in c.empires.values() if e.id != "generic"},
        "decks": ready, "rules": dict(decks.RULES),
        "limits": {"min_cards": decks.STANDARD_MIN_CARDS,
                   "max_copies": decks.STANDARD_MAX_COPIES,
                   "min_terrain": decks.STANDARD_MIN_TERRAIN},
    }


def check_draft(game: GalacticEmpires, data: Any) -> dict[str, Any]:
    """A deck list being built (``name``, ``major``, ``cards``), checked: ``legal``,
    ``problems`` (rule, card, message each), ``summary`` (see :func:`decks.summary`) and
    ``code`` (None when the list names a card or empire the content lacks). Raises
    BadOptionError for data that is not a deck list at all."""
    deck = decks.from_mapping(data)
    problems = decks.check(game.content, deck)
    try:
        code: str | None = deck_code.encode(game.content, deck)
    except deck_code.DeckCodeError:
        code = None
    return {"legal": not problems, "problems": [p.to_json() for p in problems],
            "summary": decks.summary(game.content, deck), "code": code}


def read_code(game: GalacticEmpires, code: str) -> dict[str, Any]:
    """The deck list of ``code`` (``name``, ``major``, ``cards``) with its check (as
    :func:`check_draft`). Raises DeckCodeError saying why the code cannot be read."""
    deck = deck_code.decode(game.content, code)
    return {"deck": deck.model_dump(), **check_draft(game, deck.model_dump())}


def setup_text(game: GalacticEmpires, given: str) -> str:
    """What a seat brings, from the command line: the deck code of ``given`` when it names
    a deck file (TOML or JSON), else ``given`` itself (a deck code, checked when the game
    loads). Raises BadOptionError for a deck file that cannot be read or encoded."""
    path = Path(given).expanduser()
    if given.strip().upper().startswith(deck_code.PREFIX) and not path.is_file():
        return given.strip()
    if not path.is_file():
        raise BadOptionError(f"{given!r} is neither a deck code (GE1-...) nor a deck file")
    return deck_code.encode(game.content, decks.load_file(path))
