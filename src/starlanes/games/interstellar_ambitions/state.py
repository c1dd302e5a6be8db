"""The Interstellar Ambitions game state: data, copying, digest, determinisation.

Rules live in sibling modules by concern: ``setup`` (set-up and game start), ``turn`` (the
four turn steps, the Action Track, exchange, ambitions, game end), ``economy`` (PRODUCE,
COLONISE, DEVELOP), ``fleetworks`` (BUILD, RESEARCH, SHADOW action), ``shadow`` (Shadow
cards and checks), ``combat`` (RAID and INVADE), ``spoils`` (victory spoils), ``scoring``.

Everything that changes is a flat list of ints or of immutable tuples, so ``clone()``
copies a few dozen lists. Face-down decks are unordered piles drawn from at random with
the state's own RNG at draw time (the same odds as shuffling), so nobody, not even the
engine, knows their order: determinisation only has to resample other players' hands and
hidden combat orders.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from starlanes.engine import Action, Decision, GameState
from starlanes.engine.state import TERMINAL, shared_returns

from .content import IAContent
from .rng import FastRng

if TYPE_CHECKING:  # pragma: no cover
    from .combat import Combat
    from .game import InterstellarAmbitions

Planet = tuple[int, int, tuple[int, ...]]
"""An owned planet: (planet card index, development level, kept colony event indices)."""
Ship = tuple[int, int]
"""A ship in a fleet: (ship card index, damage markers)."""

POOL = -1


class IAState(GameState):
    """A game of Interstellar Ambitions in progress. See :class:`GameState`.

    Public figures: ``round`` (1-based, 0 during set-up), ``end_reason`` (``"ambitions"``
    or ``"round_limit"``), ``winners``. Per seat: ``res`` (food, ore, science, coin),
    ``planets``, ``ships``, ``hands``, ``tokens`` (six track codes, -1 in the pool),
    ``known`` techs, ``medals`` (fleet, shadow), ``stats`` (raids won, captures, techs
    taken). ``seen_cards`` lists ``(viewer, holder, card)``: one copy of a Shadow card the
    viewer knows ``holder`` holds (the victim of a Double Agent pilfer knows the card taken);
    determinisation keeps those cards where they are.
    """

    __slots__ = (
        "content", "options", "rng", "n", "phase", "seat", "start", "round", "step",
        "res", "planets", "ships", "hands", "tokens", "known", "tech_owner", "medals",
        "stats", "ambitions", "claims", "shadow_deck", "shadow_discard", "tech_deck",
        "tech_slots", "tech_discard", "merc_deck", "merc_slots", "merc_discard",
        "emerg_deck", "emerg_discard", "colony_deck", "colony_discard", "planet_decks",
        "planet_slots", "planet_discard", "colonised", "stack", "combat", "offer",
        "end_trigger", "final_left", "end_reason", "winners", "log_lines", "ult_cap",
        "turn_count", "seen_cards", "met",
    )

    def __init__(self, game: InterstellarAmbitions, content: IAContent) -> None:
        super().__init__(game)
        n = game.players
        self.content = content
        self.options = game.options
        self.rng = FastRng(game.seed)
        self.n = n
        self.phase = "setup"
        self.seat = 0
        self.start = 0
        self.round = 0
        self.step = 0
        self.res: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * n
        self.planets: list[tuple[Planet, ...]] = [()] * n
        self.ships: list[tuple[Ship, ...]] = [()] * n
        self.hands: list[tuple[int, ...]] = [()] * n
        self.tokens: list[tuple[int, ...]] = [(POOL,) * 6] * n
        self.known: list[tuple[int, ...]] = [()] * n
        self.tech_owner: list[int] = [-1] * len(content.tech_ids)
        self.medals: list[tuple[int, int]] = [(0, 0)] * n
        self.stats: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.ambitions: tuple[int, ...] = ()
        self.claims: list[tuple[int, ...]] = []
        self.shadow_deck: list[int] = []
        self.shadow_discard: list[int] = []
        self.tech_deck: list[int] = []
        self.tech_slots: list[int] = []
        self.tech_discard: list[int] = []
        self.merc_deck: list[int] = []
        self.merc_slots: list[int] = []
        self.merc_discard: list[int] = []
        self.emerg_deck: list[int] = []
        self.emerg_discard: list[int] = []
        self.colony_deck: list[int] = []
        self.colony_discard: list[int] = []
        self.planet_decks: list[list[int]] = [[], [], [], []]
        self.planet_slots: list[list[int]] = [[], [], [], []]
        self.planet_discard: list[int] = []
        self.colonised: list[bool] = [False] * len(content.planet_ids)
        self.stack: list[Decision] = []
        self.combat: Combat | None = None
        self.offer: tuple[int, ...] = ()
        self.end_trigger = -1
        self.final_left = 0
        self.end_reason = ""
        self.winners: list[int] = []
        self.log_lines: list[str] = []
        self.ult_cap = 1 if n == 3 else 2
        self.turn_count = 0
        # option ambition_timing=turn (ruling IA-OPEN-21): (turn_count, ambition slots whose
        # condition the turn's player has met at some moment of that turn)
        self.met: tuple[int, tuple[int, ...]] = (-1, ())
        self.seen_cards: tuple[tuple[int, int, int], ...] = ()

    # ------------------------------------------------------------------ helpers
    def log(self, text: str) -> None:
        self.log_lines.append(text)

    def seat_name(self, seat: int) -> str:
        return f"P{seat}"

    def push(self, decision: Decision) -> None:
        self.stack.append(decision)

    def draw(self, deck: list[int], discard: list[int]) -> int:
        """Draw a random card of a face-down pile; an empty pile takes in its discards
        first (IA-COLN-09, IA-RSCH-05, IA-SHA-07, ruling IA-OPEN-26). -1 if both are empty."""
        if not deck:
            if not discard:
                return -1
            deck.extend(discard)
            discard.clear()
        i = int(self.rng.random() * len(deck))
        card = deck[i]
        deck[i] = deck[-1]
        deck.pop()
        return card

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.stack:
            return self.stack[-1].seat
        return self.seat  # pragma: no cover - a decision is always pending

    def turn_key(self) -> tuple[int, int]:
        """The turn a decision belongs to: the round and the seat whose turn it is; answers
        of other seats during it belong to it too (IA-TURN-01)."""
        return (self.round, self.seat)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> None:
        turn_reading = self.options["ambition_timing"] == "turn"
        if turn_reading:
            self.note_met()
        rules.apply(self, action)
        if turn_reading:
            self.note_met()

    def note_met(self) -> None:
        """Option ``ambition_timing=turn`` (ruling IA-OPEN-21): remember the ambitions whose
        condition the player whose turn it is meets now, for the rest of that turn."""
        from .turn import meets

        if self.phase != "turn" or self.is_terminal():
            return
        seat = self.seat
        before = self.met[1] if self.met[0] == self.turn_count else ()
        now = tuple(i for i, amb in enumerate(self.ambitions)
                    if i not in before and meets(self, seat, amb))
        if now or self.met[0] != self.turn_count:
            self.met = (self.turn_count, tuple(sorted(before + now)))

    def returns(self) -> list[float]:
        return shared_returns(self.winners, self.n)

    def scores(self) -> list[int]:
        from .scoring import score_all

        return score_all(self)

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's VP by source (planets, set bonus, techs, ships, medals, ambitions;
        they add up to :meth:`scores`), for the game-over table."""
        from .scoring import breakdown

        return [breakdown(self, i) for i in range(self.n)]

    def _copy(self) -> IAState:
        c = IAState.__new__(IAState)
        c.game = self.game
        c.content = self.content
        c.options = self.options
        c.rng = self.rng.copy()
        c.n = self.n
        c.phase = self.phase
        c.seat = self.seat
        c.start = self.start
        c.round = self.round
        c.step = self.step
        c.res = self.res[:]
        c.planets = self.planets[:]
        c.ships = self.ships[:]
        c.hands = self.hands[:]
        c.tokens = self.tokens[:]
        c.known = self.known[:]
        c.tech_owner = self.tech_owner[:]
        c.medals = self.medals[:]
        c.stats = self.stats[:]
        c.ambitions = self.ambitions
        c.claims = self.claims[:]
        c.shadow_deck = self.shadow_deck[:]
        c.shadow_discard = self.shadow_discard[:]
        c.tech_deck = self.tech_deck[:]
        c.tech_slots = self.tech_slots[:]
        c.tech_discard = self.tech_discard[:]
        c.merc_deck = self.merc_deck[:]
        c.merc_slots = self.merc_slots[:]
        c.merc_discard = self.merc_discard[:]
        c.emerg_deck = self.emerg_deck[:]
        c.emerg_discard = self.emerg_discard[:]
        c.colony_deck = self.colony_deck[:]
        c.colony_discard = self.colony_discard[:]
        c.planet_decks = [d[:] for d in self.planet_decks]
        c.planet_slots = [d[:] for d in self.planet_slots]
        c.planet_discard = self.planet_discard[:]
        c.colonised = self.colonised[:]
        c.stack = self.stack[:]
        c.combat = None if self.combat is None else self.combat.copy()
        c.offer = self.offer
        c.end_trigger = self.end_trigger
        c.final_left = self.final_left
        c.end_reason = self.end_reason
        c.winners = self.winners[:]
        c.log_lines = self.log_lines[:]
        c.ult_cap = self.ult_cap
        c.turn_count = self.turn_count
        c.seen_cards = self.seen_cards
        c.met = self.met
        return c

    def _digest_payload(self) -> Any:
        return [
            self.phase, self.seat, self.start, self.round, self.step, self.res, self.planets,
            self.ships, self.hands, self.tokens, self.known, self.tech_owner, self.medals,
            self.stats, self.ambitions, self.claims, self.shadow_deck,
            self.shadow_discard, self.tech_deck, self.tech_slots, self.tech_discard,
            self.merc_deck, self.merc_slots, self.merc_discard,
            self.emerg_deck, self.emerg_discard, self.colony_deck,
            self.colony_discard, self.planet_decks, self.planet_slots,
            self.planet_discard, self.colonised,
            [(d.seat, d.kind, repr(d.data)) for d in self.stack],
            None if self.combat is None else self.combat.digest_data(),
            self.offer, self.end_trigger, self.final_left, self.end_reason, self.winners,
            self.turn_count, self.seen_cards,
        ] + ([self.met] if self.options["ambition_timing"] == "turn" else [])

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        """Others' Shadow hands are redrawn from the cards ``seat`` has not seen (their
        hands plus the face-down Shadow deck), keeping hand sizes and every card ``seat``
        knows another holds (``seen_cards``); a Buy offer another seat is looking at
        likewise; hidden combat orders are reshuffled. Face-down decks are unordered piles,
        so there is nothing else to resample."""
        hidden = [s for s in range(self.n) if s != seat and self.hands[s]]
        offer_hidden = bool(self.offer) and self.stack and self.stack[-1].seat != seat
        if hidden or offer_hidden:
            kept: dict[int, list[int]] = {}
            for v, h, x in self.seen_cards:
                if v == seat and h != seat:
                    kept.setdefault(h, []).append(x)
            pool = list(self.shadow_deck)
            for s in hidden:
                if s in kept:
                    rest = list(self.hands[s])
                    for x in kept[s]:
                        rest.remove(x)
                    pool.extend(rest)
                else:
                    pool.extend(self.hands[s])
            if offer_hidden:
                pool.extend(self.offer)
            rnd = rng.random
            m = len(pool)
            for s in hidden:
                out = list(kept.get(s, ()))
                for _ in range(len(self.hands[s]) - len(out)):
                    j = int(rnd() * m)
                    out.append(pool[j])
                    m -= 1
                    pool[j] = pool[m]
                self.hands[s] = tuple(out)
            if offer_hidden:
                k = len(self.offer)
                out = []
                for _ in range(k):
                    j = int(rnd() * m)
                    out.append(pool[j])
                    m -= 1
                    pool[j] = pool[m]
                self.offer = tuple(out)
            del pool[m:]
            self.shadow_deck = pool
        if self.combat is not None:
            self.combat.resample(seat, rng)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see (see :mod:`.observe`)."""
        from .observe import observation

        return observation(self, seat)

    def action_log(self) -> list[str]:
        return list(self.log_lines)


# The rules import this module's types; imported last, so that either module may load
# first, and bound once here rather than imported again on every step.
from . import rules  # noqa: E402
