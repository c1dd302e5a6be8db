"""The Galactic Empires game object and its options (rulings in
docs/rulings/galactic-empires.md)."""

from __future__ import annotations

import random
from typing import Any

from starlanes.engine import (
    CONTENT_OPTION,
    CONTENT_SET_OPTION,
    SEAT_SETUP_OPTION,
    BadOptionError,
    Game,
    OptionSet,
    OptionSpec,
    derive_seed,
    register,
)

from .actions import GEAction
from .content import BASIC_SETS, deck_problems, load_content
from .seat_setup import KIND, seat_decks
from .setup import begin, deck_lists
from .state import GEState


@register
class GalacticEmpires(Game):
    """Galactic Empires: 2 or more players (at most 6 here, ruling GE-OPEN-21), terrain
    points, ships, bases, crew, equipment and Sector HQs (rulebook galactic-empires.txt)."""

    game_id = "galactic-empires"
    title = "Galactic Empires"
    version = "1"
    min_players = 2
    max_players = 6
    summary = "1994 trading card game: terrain points, fleets of ships and bases, Sector HQ"
    option_set = OptionSet((
        OptionSpec("structure", str, "basic",
                   "Basic Game (one shared deck) or Standard Game (one deck each)",
                   choices=("basic", "standard"), ruling="GE-OPEN-01"),
        OptionSpec("deck", str, "auto", "Basic Game deck: a Basic Set pairing or both",
                   choices=("auto", *BASIC_SETS, "both")),
        OptionSpec("decks", str, "", "Standard Game decks, comma-separated, one per seat "
                   "(cycled); default krebiz,argonian,corporate,mechad"),
        OptionSpec("first_turns", str, "own",
                   "turns 1 and 2 are each player's own turns ('own') or complete turns",
                   choices=("own", "complete"), ruling="GE-OPEN-06"),
        OptionSpec("minor_bonus", str, "one",
                   "one minor-empire ship free of command in total, or one per empire",
                   choices=("one", "per_empire"), ruling="GE-OPEN-14"),
        OptionSpec("base_shield_regen", bool, False,
                   "bases' shields also regenerate in the Engagement Phase",
                   ruling="GE-OPEN-19"),
        OptionSpec("withdrawal", bool, False, "offer voluntary withdrawal as an action",
                   ruling="GE-WIN-03"),
        OptionSpec("exhaustion", str, "attrition",
                   "Standard Game: a player whose deck is empty at his Draw Phase takes 1 "
                   "Sector HQ damage ('attrition') or nothing happens ('none')",
                   choices=("attrition", "none"), ruling="GE-OPEN-01"),
        OptionSpec("turn_cap", int, 150, "complete turns after which an unfinished game "
                   "is abandoned as a draw among the players still in",
                   minimum=1, maximum=10000),
        CONTENT_OPTION,
        CONTENT_SET_OPTION,
        SEAT_SETUP_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir(), self.content_overrides())
        names = [d for d in self.options["decks"].split(",") if d]
        if self.options["decks"] and len(names) != self.options["decks"].count(",") + 1:
            raise BadOptionError(
                f"option 'decks' has an empty entry in {self.options['decks']!r}: name one "
                "Standard Game deck per seat, comma-separated (e.g. krebiz,argonian)")
        for nm in names:
            d = self.content.decks.get(nm)
            if d is None or d.structure != "standard":
                raise BadOptionError(f"unknown Standard Game deck {nm!r}")
            if deck_problems(self.content, d):
                raise BadOptionError(f"deck {nm!r}: {deck_problems(self.content, d)[0]}")
        #: per seat, the deck of its own it brought (seat_setup, a deck code), or None
        self.seat_decks = seat_decks(self.content, self.options["structure"],
                                     self.options["seat_setup"], self.players)
        lists = deck_lists(self.content, self.options["structure"], self.options["deck"],
                           self.options["decks"], self.players, self.seat_decks)
        need = self.players + 9 if self.options["structure"] == "standard" else \
            self.players * (self.players + 10)
        if min(len(lst) for lst in lists) < need:
            raise BadOptionError(
                f"the deck is too small to ante, set aside reserves and deal {self.players} "
                f"players (needs {need} cards); use deck=both")
        for seat, own in enumerate(self.seat_decks):
            if own is not None:  # card numbers (card#n) must not tell the sorted list apart
                random.Random(derive_seed(seed, "own deck", seat)).shuffle(lists[seat])
        self.defs = tuple(cid for lst in lists for cid in lst)
        self.deck_of = tuple(k for k, lst in enumerate(lists) for _ in lst)
        self.made_actions: dict[tuple[str, int, int, int], GEAction] = {}
        """The actions of this game made so far, by (kind, a, b, c) (``actions.made``)."""

    def seat_setup_kind(self) -> str:
        """``"deck"`` in the Standard Game (each seat may bring its own deck as a deck
        code, ruling GE-OPEN-01), "" in the Basic Game."""
        return KIND if self.options["structure"] == "standard" else ""

    def new_initial_state(self) -> GEState:
        state = GEState(self, self.content, self.defs, self.deck_of)
        begin(state)
        return state
