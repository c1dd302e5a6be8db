"""The Galactic Empires state: data, copying, digest, determinisation and dispatch.

Cards are numbered instances (``inst``): ``defs[inst]`` is the card id. Hands, decks, the
reserve fleets and discard piles are lists of instances; cards in play are :class:`Unit`
tuples in ``units`` by instance, so ``clone()`` copies flat lists and one dict of
references. The rules live in sibling modules: ``setup`` (deal, reserve, ante), ``alloc``
(phases 1-2), ``cardplay`` and ``effects`` (phases 3 and 5), ``fire`` (phase 4),
``endturn`` (phases 6-8, elimination), ``units`` (card statistics and damage) and
``empires`` (empire rules).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple

from starlanes.engine import Action, Decision, GameRng, GameState, quick_shuffle
from starlanes.engine.state import TERMINAL, shared_returns

from .content import Card, Content

if TYPE_CHECKING:  # pragma: no cover
    from .game import GalacticEmpires

#: Point pool indices: energy, supply, ammo, research, repair, healing, economy.
E, S, A, R, P, H, X = range(7)
POOL_NAMES = ("energy", "supply", "ammo", "research", "repair", "healing", "economy")
HQ_LIMIT = 25


class Unit(NamedTuple):
    """A card in play. ``owner`` controls it; ``against`` is the seat whose fleet a monster,
    hazard or lasting occurrence is played against (-1 otherwise); ``host`` the card a crew,
    equipment or located card sits on. ``sdmg``/``dmg``/``perm``/``rdmg``: shield,
    structural, permanent (part of ``dmg``) damage and research points (GE-MISC-06).
    ``ammo``/``charge``: points allocated this turn (charge = variplaz or EMF energy).
    ``fired``: bitmask of weapons fired this turn. ``partner``: the other Krebiz component.
    ``nofire``: a component joined this turn (GE-EMP-KRB-11). ``turn_in``: the owner's turn
    number when it came into play; ``split``: when last separated; ``left``: duration left;
    ``used``: its function was operated this turn; ``half``: the one Krebiz component
    engaged (GE-EMP-KRB-15)."""

    card: str
    owner: int
    host: int = -1
    against: int = -1
    engaged: bool = False
    sdmg: int = 0
    dmg: int = 0
    perm: int = 0
    rdmg: int = 0
    ammo: int = 0
    charge: int = 0
    fired: int = 0
    partner: int = -1
    nofire: bool = False
    turn_in: int = 0
    split: int = -1
    left: int = -1
    used: bool = False
    half: int = -1


class GEState(GameState):
    """A game of Galactic Empires in progress. See :class:`starlanes.engine.GameState`."""

    __slots__ = (
        "content", "cards", "defs", "deck_of", "options", "rng", "n", "structure", "decks",
        "discards", "hands", "reserve", "units", "hq", "hq_by", "alive", "major", "turns", "seat",
        "first", "round", "phase", "plays", "ship_plays", "pool", "fired_at", "aim", "picks",
        "stack", "pending", "draw_allow", "end_reason", "winners", "log_lines", "antes",
        "turn_cap", "lost", "known", "held",
    )

    def __init__(self, game: GalacticEmpires, content: Content, defs: tuple[str, ...],
                 deck_of: tuple[int, ...]) -> None:
        super().__init__(game)
        self.content = content
        self.cards: dict[str, Card] = content.rule_cards  # plain copies: fast to read
        self.defs = defs
        self.deck_of = deck_of
        self.options = game.options
        self.rng = GameRng(game.seed)
        self.n = game.players
        self.structure: str = game.options["structure"]
        self.decks: list[list[int]] = []
        self.discards: list[list[int]] = []
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.reserve: list[list[int]] = [[] for _ in range(self.n)]
        self.units: dict[int, Unit] = {}
        self.hq = [0] * self.n
        self.hq_by: list[dict[str, int]] = [{} for _ in range(self.n)]
        """Per seat, Sector HQ damage by who scored it (``P1``) and repairs (negative);
        each dict is replaced, never changed, so copies share them."""
        self.alive = [True] * self.n
        self.major = [""] * self.n
        self.turns = [0] * self.n
        self.seat = 0
        self.first = 0
        self.round = 0
        self.phase = "setup"
        self.plays = 0
        self.ship_plays = 0
        self.pool = [0] * 7
        self.fired_at: list[int] = []
        self.aim = -1
        self.picks: list[tuple[int, int]] = []
        self.stack: list[Decision] = []
        self.pending: tuple = ()
        self.draw_allow = 0
        self.end_reason = ""
        self.winners: list[int] = []
        self.log_lines: list[str] = []
        self.antes: list[int] = []
        self.turn_cap: int = game.options["turn_cap"]
        #: Card ids of ships and bases the player to act lost in his own turn: their
        #: command points come free only from his next turn (GE-FLEET-06).
        self.lost: list[str] = []
        #: Cards every player saw go into a hand (salvaged from the discard pile, beamed
        #: back by a transporter): determinisation keeps them where they are. A card drawn
        #: since is no longer known; after a reserve swap of that hand it moves to ``held``.
        self.known: list[int] = []
        #: Cards every player saw go into a hand whose owner has swapped with his reserve
        #: fleet since: the others cannot tell which card the swap moved (ruling
        #: GE-OPEN-04), so determinisation keeps them in that hand or that reserve.
        self.held: list[int] = []

    # ------------------------------------------------------------------ helpers
    def card(self, inst: int) -> Card:
        """The card design of instance ``inst``."""
        return self.cards[self.defs[inst]]

    def name(self, inst: int) -> str:
        """Notation of a card instance: ``card_id#inst``."""
        return f"{self.defs[inst]}#{inst}"

    def log(self, text: str) -> None:
        self.log_lines.append(text)

    def title(self, inst: int) -> str:
        """A card instance as players read it: its printed name (``Blue Giant Star``), for
        log lines; :meth:`name` is the notation typed."""
        return self.cards[self.defs[inst]].name

    def seat_name(self, seat: int) -> str:
        m = self.major[seat]
        emp = self.content.empires.get(m) if m else None
        return f"P{seat}" + (f" ({emp.name if emp is not None else m})" if m else "")

    def pile(self, inst: int) -> list[int]:
        """The discard pile a card goes to: the shared one in the Basic Game, its deck
        owner's in the Standard Game (GE-MISC-03)."""
        return self.discards[0] if self.structure == "basic" else self.discards[self.deck_of[inst]]

    def deck_for(self, seat: int) -> list[int]:
        return self.decks[0] if self.structure == "basic" else self.decks[seat]

    def to_discard(self, inst: int) -> None:
        self.pile(inst).append(inst)

    def draw(self, seat: int) -> int | None:
        """Draw the top card of ``seat``'s deck into his hand. In the Basic Game an empty
        deck is rebuilt from the shuffled discard pile (GE-MISC-04); in the Standard Game
        it is not (GE-MISC-05, ruling GE-OPEN-01). Returns None if nothing can be drawn."""
        deck = self.deck_for(seat)
        if not deck and self.structure == "basic" and self.discards[0]:
            deck.extend(self.discards[0])
            self.discards[0].clear()
            self.rng.shuffle(deck)
            self.log("the discard pile is shuffled into a new deck")
        if not deck:
            return None
        inst = deck.pop()
        self.hands[seat].append(inst)
        if inst in self.known:
            self.known.remove(inst)
        if inst in self.held:
            self.held.remove(inst)
        return inst

    def drawable(self, seat: int) -> int:
        deck = self.deck_for(seat)
        if self.structure == "basic":
            return len(deck) + len(self.discards[0])
        return len(deck)

    def plays_left(self) -> int:
        return 3 - self.plays

    def push(self, d: Decision) -> None:
        self.stack.append(d)

    def touch(self) -> None:
        self._legal = None

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.stack:
            return self.stack[-1].seat
        return self.seat

    def turn_key(self) -> tuple[int, int]:
        """The turn a decision belongs to: the round and the seat whose turn it is; answers
        of other seats during it belong to it too (GE-TURN-01)."""
        return (self.round, self.seat)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)

    def returns(self) -> list[float]:
        return shared_returns(self.winners, self.n)

    def scores(self) -> list[int]:
        """Sector HQ points left (25 minus damage, 0 once eliminated)."""
        return [max(0, HQ_LIMIT - d) if a else 0 for d, a in zip(self.hq, self.alive, strict=True)]

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's Sector HQ points by source, for the game-over table: the 25 it
        starts with, minus the damage each opponent scored on it, plus repairs, minus what
        was left when it was eliminated, plus damage scored past its last point (they add
        up to :meth:`scores`)."""
        out = []
        for seat in range(self.n):
            by = {"Sector HQ": HQ_LIMIT}
            for who, n in self.hq_by[seat].items():
                by[who] = -n
            left = sum(by.values())
            if left < 0:  # the eliminating hit scored more than the points left
                by["damage past the last point"] = -left
            elif not self.alive[seat] and left:
                by["eliminated"] = -left
            out.append(by)
        return out

    def note_hq(self, seat: int, source: str, n: int) -> None:
        """Record ``n`` points of damage (negative: repaired) on ``seat``'s Sector HQ from
        ``source`` (``P1``, ``repairs``) for :meth:`score_breakdown`."""
        if n:
            by = dict(self.hq_by[seat])
            by[source] = by.get(source, 0) + n
            self.hq_by[seat] = by

    def _copy(self) -> GEState:
        c = GEState.__new__(GEState)
        c.game = self.game
        c.content = self.content
        c.cards = self.cards
        c.defs = self.defs
        c.deck_of = self.deck_of
        c.options = self.options
        c.rng = self.rng.copy()
        c.n = self.n
        c.structure = self.structure
        c.decks = [d[:] for d in self.decks]
        c.discards = [d[:] for d in self.discards]
        c.hands = [h[:] for h in self.hands]
        c.reserve = [r[:] for r in self.reserve]
        c.units = self.units.copy()
        c.hq = self.hq[:]
        c.hq_by = self.hq_by[:]
        c.alive = self.alive[:]
        c.major = self.major[:]
        c.turns = self.turns[:]
        c.seat = self.seat
        c.first = self.first
        c.round = self.round
        c.phase = self.phase
        c.plays = self.plays
        c.ship_plays = self.ship_plays
        c.pool = self.pool[:]
        c.fired_at = self.fired_at[:]
        c.aim = self.aim
        c.picks = self.picks[:]
        c.stack = self.stack[:]
        c.pending = self.pending
        c.draw_allow = self.draw_allow
        c.end_reason = self.end_reason
        c.winners = self.winners[:]
        c.log_lines = self.log_lines[:]
        c.antes = self.antes
        c.turn_cap = self.turn_cap
        c.lost = self.lost[:]
        c.known = self.known[:]
        c.held = self.held[:]
        return c

    def _digest_payload(self) -> Any:
        return [
            self.decks, self.discards, self.hands, self.reserve,
            sorted((k, list(v)) for k, v in self.units.items()), self.hq, self.alive,
            self.major, self.turns, self.seat, self.first, self.round, self.phase,
            self.plays, self.ship_plays, self.pool, self.fired_at, self.aim, self.picks,
            [(d.seat, d.kind, repr(d.data)) for d in self.stack], repr(self.pending),
            self.draw_allow, self.end_reason, self.winners, self.lost,
            self.known, self.held,
        ]

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        """Reshuffle what ``seat`` cannot see: other hands and reserves and the deck
        order, keeping every size (Basic: one shared pool; Standard: each deck's own).
        Cards everyone saw go into a hand (``known``) stay there; such a card whose owner
        has swapped with his reserve since (``held``) stays in that hand or reserve, in
        either. Other seats' reserve swaps are kept secret in the history
        (:meth:`GameState._keep_secret`): they show as a bare "swap"."""
        others = [s for s in range(self.n) if s != seat]
        known, held = set(self.known), set(self.held)
        pinned: dict[int, tuple[list[int], list[int], int, int]] = {}
        for s in others:
            hand, res = self.hands[s], self.reserve[s]
            in_hand = [i for i in hand if i in known]
            either = [i for i in hand + res if i in held and i not in known] if held else []
            pinned[s] = (in_hand, either, len(hand), len(res))
            if in_hand or either:
                out = set(in_hand) | set(either)
                self.hands[s] = [i for i in hand if i not in out]
                self.reserve[s] = [i for i in res if i not in out]
        if self.structure == "basic":
            groups = [(self.decks[0], others)]
        else:
            groups = [(self.decks[s], [s]) for s in others] + [(self.decks[seat], [])]
        for deck, seats in groups:
            unseen = list(deck)
            for s in seats:
                unseen.extend(self.hands[s])
                unseen.extend(self.reserve[s])
            quick_shuffle(unseen, rng)
            i = 0
            for s in seats:
                in_hand, either, n_hand, n_res = pinned[s]
                k = n_hand + n_res - len(in_hand) - len(either)
                flex = either + unseen[i:i + k]
                i += k
                if either:
                    quick_shuffle(flex, rng)
                k = n_hand - len(in_hand)
                self.hands[s] = flex[:k] + in_hand
                self.reserve[s] = flex[k:]
            deck[:] = unseen[i:]

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: every card in play, its own hand and reserve, the sizes
        of the others' hands and reserves and of the decks, the discard piles."""
        from .observe import observation

        return observation(self, seat)

    def action_log(self) -> list[str]:
        return list(self.log_lines)


# The rules import this module's types; imported last, so that either module may load
# first, and bound once here rather than imported again on every step.
from . import rules  # noqa: E402
