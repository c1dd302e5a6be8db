"""Interstellar Ambitions over arrays: B games stepped at once with numpy (no Python loop
over games in the common path), offered by ``starlanes.envs.BatchedEnv``.

**Scope.** A 3-player game with the default content and options (``round_limit`` may be
set), followed whole: the set-up (IA-SET-02..24); the turn machine (``batched_turn``:
steps 1-4, exchanges, turns, rounds, claims, the game's end and its scores); PRODUCE,
COLONISE and DEVELOP (``batched_economy``); BUILD and RESEARCH (``batched_fleetworks``);
Shadow Activities and Checks (``batched_shadow``); the SHADOW ACTION and MERC upkeep
(``batched_hire``); the FLEET ACTION: raids, invasions, EMERGENCY ships, combat orders
and fire (``batched_combat``; its EMERGENCY draws, pre-battle effects and unmatched
fire step their game alone) and the
spoils (``batched_spoils``). Legal masks, actions and tensors are in ``batched_view``.

Chance is the reference's: each game's :class:`~starlanes.engine.GameRng` is one uint64
of ``rng``, seeded and drawn through ``starlanes.engine.rng_arrays`` as the reference draws
it (``random()`` for the unordered piles' draws, ``sample``, ``randrange``, ``d6``), so
the same seed and action indices give the same game.

Face-down piles are kept as the reference keeps them, ordered, because a draw takes the
card at a random place and moves the pile's last card there: ``cards[game, i]`` for ``i
< size[game]`` (:class:`Pile`). Shadow hands are kept both as copies per card
(``hands``) and in order (``hand_seq``: Double Agent takes the card at a random place);
the Action Tokens are the six track codes per seat in the reference's order
(``action * 4 + level``, -1 in the pool); planets and fleets are per seat in order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from starlanes.engine import BadOptionError, load
from starlanes.engine import rng_arrays as ra

PLAYERS = 3
TERMINAL = -4
"""``current_player`` of a finished game, as the engine's."""
SETUP, TURN, OVER = range(3)
"""Phases, in the tensor's order (a row not yet reset is OVER)."""
(NONE, KEEP, START_TECH, PLACE, COMP, STEP2, MORE, HOME_PICK, STEP3, PLAN, CLAIM,
 COLONISE, CLEAR, DEVELOP, DEV_PAY, SHADOW, BOOST, OPPOSE, BUILD, SCRAP, REPLACE_TECH,
 RESEARCH, MODE, BUY, HIRE, REPLACE_MERC, UPKEEP, GIVE, FLEET, ORDER, FIRE, STEAL, SPOIL,
 CAPTURE, RESCUE, DISRUPT, DEF_REPAIR, CAP_GIVE, EM_SCRAP) = range(39)
"""The pending decision's kind (NONE: none); CAP_GIVE and EM_SCRAP are the reference's
``give_away`` of a capture and ``scrap`` before an EMERGENCY draw."""

KIND_NAMES = ("", "keep", "start_tech", "place_start", "comp", "step2", "advance_more",
              "home_pick", "step3", "place", "claim", "colonise", "clear_planets", "develop",
              "dev_pay", "shadow", "boost", "oppose", "build", "scrap", "replace_tech",
              "research", "shadow_mode", "buy", "hire", "replace_merc", "upkeep",
              "give_away", "fleet", "order", "fire", "steal", "spoil", "capture", "rescue",
              "disrupt", "def_repair", "give_away", "scrap")
"""The reference's decision kinds, by ``kind``."""


def kind_table(*kinds: int) -> np.ndarray:
    """bool [every kind]: True at ``kinds``; ``table[b.kind]`` tells which games wait on
    one of them (a look-up, cheaper than ``np.isin`` at every step)."""
    out = np.zeros(EM_SCRAP + 1, np.bool_)
    out[list(kinds)] = True
    return out


MAX_PLANETS = 8
"""Planets a player may own (IA-PLN-03)."""
MAX_SHIPS = 8
"""Ships in a fleet (IA-SHIP-07)."""
COMPENSATION = ((0, 0), (0, 1), (1, 1))
"""Seat position from the start player -> (tokens to advance, resources to take)
(IA-SET-19/20, three players)."""
HAND_MAX = 8
"""Room for a Shadow hand: the limit of 7 (IA-SHA-04) and one."""
TOKENS = 6
"""Action Tokens per player (IA-SET-10)."""
SUPPORTED_OPTIONS = ("round_limit",)
"""The only option accepted (the rest are the defaults)."""
def resolve_game(options: dict[str, Any]) -> Any:
    """The reference Game (3 players) for ``options``: BadOptionError for any option but
    ``round_limit`` (naming the supported ones) or a bad value."""
    for name in options:
        if name not in SUPPORTED_OPTIONS:
            raise BadOptionError(
                f"option {name!r} is not supported by the batched Interstellar Ambitions "
                f"(supported: {', '.join(SUPPORTED_OPTIONS)}; the default content and "
                "options otherwise, 3 players)")
    return load("interstellar-ambitions", seed=0, players=PLAYERS, **options)


class Pile:
    """An ordered pile per game: ``cards`` int16 [n, cap] (-1 past the end), ``size``
    int64 [n]."""

    def __init__(self, n: int, cap: int) -> None:
        self.cards = np.full((n, cap), -1, np.int16)
        self.size = np.zeros(n, np.int64)

    def fill(self, rows: np.ndarray, cards: Any) -> None:
        """Set the piles of ``rows`` to ``cards`` (the same list for each)."""
        c = np.asarray(cards, np.int64)
        self.cards[rows] = -1
        self.cards[rows, :c.size] = c
        self.size[rows] = c.size

    def push(self, rows: np.ndarray, card: np.ndarray) -> None:
        """Append ``card`` [len(rows)] to the piles of ``rows``."""
        self.cards[rows, self.size[rows]] = card
        self.size[rows] += 1

    def take(self, rows: np.ndarray, at: np.ndarray) -> np.ndarray:
        """Remove and return the card at ``at`` of each pile of ``rows``, the pile's last
        card moving there (the reference's draw)."""
        card = self.cards[rows, at]
        last = self.size[rows] - 1
        self.cards[rows, at] = self.cards[rows, last]
        self.cards[rows, last] = -1
        self.size[rows] = last
        return card


class IABatch:
    """``n`` games of Interstellar Ambitions (3 players) (see the module docstring).

    Per game: ``rng`` uint64; ``phase`` (SETUP, TURN, OVER), ``step`` (the reference's
    set-up stage or turn step), ``start`` (the start player), ``seat`` (whose turn it is),
    ``round``, ``turn_count``, ``claims`` [n, 6, 3] (claim position per Ambition slot and
    seat, 0: none), ``end_trigger`` and ``final_left`` (IA-END-01/02); ``ambitions``
    [n, 6] in play; piles ``shadow_deck``, ``shadow_discard``, ``tech_deck``,
    ``merc_deck``, ``emerg_deck``, ``colony_deck`` and ``planet_decks`` (one per planet
    type) as :class:`Pile`; face-up ``planet_slots`` [n, 4, 2], ``tech_slots`` [n, 4] and
    ``merc_slots`` [n, 3]; per seat ``hands`` [n, 3, cards] copies, ``tokens`` [n, 3, 6],
    ``res`` [n, 3, 4] (food, ore, science, coin), ``known`` [n, 3, techs] bool; and
    ``tech_owner`` [n, techs] (-1: none). The pending decision: ``kind`` with its
    ``dec_seat``, ``count`` (cards still to discard), ``adv``/``take`` (compensation left),
    ``done`` [n, 6] (tokens already advanced) and ``cursor`` (its place in its stage);
    ``count`` also holds the Home World picks and the tokens to plan still to come.
    Cards, slots, tokens, fleets, planets, resources, hands (and their order), claims,
    medals, stats and the seen cards are int8 or int16, as their values fit: the tensor
    compares them from step to step (``batched_positions``) and every pass over them
    reads a fraction of int64's bytes.
    Construct with the game's options (BadOptionError, see :func:`resolve_game`), then
    call :meth:`reset`."""

    def __init__(self, n: int, **options: Any) -> None:
        self.n = n
        game = self.game = resolve_game(options)
        c = self.content = game.content
        self.round_limit = int(game.options["round_limit"])
        self.n_cards = len(c.shadow_ids)
        self.n_techs = len(c.tech_ids)
        self.n_planets = len(c.planet_ids)
        self.start_techs = np.array(c.start_techs, np.int64)
        self.passive = [i for i, p in enumerate(c.ambition_passive) if p]
        self.active = [i for i, p in enumerate(c.ambition_passive) if not p]
        self.planet_type = np.array(c.planet_type, np.int64)
        self.homes = np.array(c.homes[:PLAYERS], np.int64)
        self.first_ships = (c.ship_index["strike_craft"], c.ship_index["destroyer"])
        rules = c.rules
        self.rng = np.zeros(n, np.uint64)
        self.phase = np.full(n, OVER, np.int64)
        self.step = np.zeros(n, np.int64)
        self.start = np.zeros(n, np.int64)
        self.ambitions = np.zeros((n, 6), np.int16)
        self.shadow_deck = Pile(n, len(c.shadow_cards))
        self.shadow_discard = Pile(n, len(c.shadow_cards))
        self.tech_deck = Pile(n, self.n_techs)
        self.merc_deck = Pile(n, len(c.merc_cards))
        self.emerg_deck = Pile(n, len(c.emergency_cards))
        self.emerg_discard = Pile(n, len(c.emergency_cards))
        self.colony_deck = Pile(n, len(c.event_cards))
        per_type = [int((self.planet_type == t).sum()) for t in range(4)]
        self.planet_decks = [Pile(n, per_type[t]) for t in range(4)]
        self.planet_slots = np.full((n, 4, rules["planet_slots_per_type"]), -1, np.int16)
        self.tech_slots = np.full((n, rules["tech_slots"]), -1, np.int16)
        self.merc_slots = np.full((n, rules["merc_slots"]), -1, np.int16)
        self.hands = np.zeros((n, PLAYERS, self.n_cards), np.int8)
        self.hand_seq = np.full((n, PLAYERS, HAND_MAX), -1, np.int16)
        """Each Shadow hand in the reference's order (-1 past its end): Double Agent takes
        the card at a random place of it; ``hands`` counts the same cards per card."""
        self.seen = np.zeros((n, PLAYERS, PLAYERS, self.n_cards), np.int8)
        """``seen_cards`` as counts: ``seen[game, viewer, holder, card]`` copies of a card
        the viewer knows the holder holds (Double Agent's victim knows the card taken)."""
        self.tokens = np.full((n, PLAYERS, TOKENS), -1, np.int8)
        self.res = np.zeros((n, PLAYERS, 4), np.int16)
        self.known = np.zeros((n, PLAYERS, self.n_techs), np.bool_)
        self.tech_owner = np.full((n, self.n_techs), -1, np.int8)
        self.kind = np.zeros(n, np.int64)
        self.dec_seat = np.zeros(n, np.int64)
        self.count = np.zeros(n, np.int64)
        self.adv = np.zeros(n, np.int64)
        self.take = np.zeros(n, np.int64)
        self.done = np.zeros((n, TOKENS), np.bool_)
        self.cursor = np.zeros(n, np.int64)
        self.round = np.zeros(n, np.int64)
        self.seat = np.zeros(n, np.int64)
        self.claims = np.zeros((n, 6, PLAYERS), np.int8)
        """Per Ambition slot and seat: its claim position (1: 1st ...; 0: none)."""
        self.end_trigger = np.full(n, -1, np.int64)
        self.final_left = np.zeros(n, np.int64)
        self.turn_count = np.zeros(n, np.int64)
        self.ret = np.zeros((n, PLAYERS), np.float64)
        """The reference's ``returns()``: 1 split among the winners once the game is
        over, else 0."""
        self.pl_card = np.full((n, PLAYERS, MAX_PLANETS), -1, np.int16)
        """Owned planets per seat in the reference's order (-1: none); ``pl_level`` and
        ``pl_marker`` (the kept Colony Event, -1: none) beside."""
        self.pl_level = np.zeros((n, PLAYERS, MAX_PLANETS), np.int16)
        self.pl_marker = np.full((n, PLAYERS, MAX_PLANETS), -1, np.int16)
        self.ship_card = np.full((n, PLAYERS, MAX_SHIPS), -1, np.int16)
        """Fleets per seat in the reference's order (-1: none), damage in ``ship_dmg``."""
        self.ship_dmg = np.zeros((n, PLAYERS, MAX_SHIPS), np.int16)
        self.medals = np.zeros((n, PLAYERS, 2), np.int16)
        """Fleet and Shadow medals per seat."""
        self.colonised = np.zeros((n, self.n_planets), np.bool_)
        self.planet_discard = Pile(n, self.n_planets)
        self.colony_discard = Pile(n, len(c.event_cards))
        self.tech_discard = Pile(n, self.n_techs)
        self.merc_discard = Pile(n, len(c.merc_cards))
        self.stats = np.zeros((n, PLAYERS, 3), np.int16)
        """Raids won, captures, techs taken per seat."""
        self.sh_card = np.zeros(n, np.int64)
        """The Shadow Check under way: the card, its target seat ``sh_target`` and the
        target's argument ``sh_arg`` (token code, planet, ship card * 16 + damage or
        tech), the modifier ``sh_mod``, ``sh_boosts``, ``sh_opposes`` and the checking
        seat ``sh_player`` (IA-SHD-06..11)."""
        self.sh_target = np.zeros(n, np.int64)
        self.sh_arg = np.zeros(n, np.int64)
        self.sh_mod = np.zeros(n, np.int64)
        self.sh_boosts = np.zeros(n, np.int64)
        self.sh_opposes = np.zeros(n, np.int64)
        self.sh_player = np.zeros(n, np.int64)
        self.offer = Pile(n, 5)
        """The private offer of Buy Cards (ruling IA-OPEN-15)."""
        self.count2 = np.zeros(n, np.int64)
        """MERC upkeeps still to be asked after PRODUCE."""
        self.scrap_card = np.zeros(n, np.int64)
        """The ship waiting for a scrap at 8 ships, its cost, the resource paid and the
        decision asked again after."""
        self.scrap_cost = np.zeros(n, np.int64)
        self.scrap_res = np.zeros(n, np.int64)
        self.scrap_back = np.zeros(n, np.int64)
        self.give_planet = np.zeros(n, np.int64)
        """The planet being colonised while one is given away, and its start level."""
        self.give_start = np.zeros(n, np.int64)
        self.act_level = np.zeros(n, np.int64)
        """The planning level of the ACTION being taken (COLONISE, DEVELOP)."""
        self.dev_left = np.zeros(n, np.int64)
        """Planets DEVELOP may still raise after the pending payment (0: none); the
        markers repaired so far in a BUILD; the techs RESEARCH may still take."""
        self.dev_done = np.zeros((n, self.n_planets), np.bool_)
        from .batched_combat import alloc

        alloc(self)  # the fight's ``cb_*`` arrays (``batched_combat``)

    # ------------------------------------------------------------------ chance
    def _random(self, rows: np.ndarray) -> np.ndarray:
        """``GameRng.random()``: float64 [len(rows)] in [0, 1)."""
        return ra.random(self.rng, rows)

    def _below(self, rows: np.ndarray, m: int) -> np.ndarray:
        """``GameRng.randrange(m)``: int64 [len(rows)]."""
        return ra.below(self.rng, rows, m)

    def _sample(self, rows: np.ndarray, population: list[int], k: int) -> np.ndarray:
        """``GameRng.sample(population, k)``: int64 [len(rows), k]."""
        return ra.sample(self.rng, rows, population, k)

    def _draw(self, rows: np.ndarray, pile: Pile, discard: Pile | None = None) -> np.ndarray:
        """A card drawn at random from each pile of ``rows`` (``IAState.draw``): an empty
        pile first takes in its ``discard`` in order (IA-COLN-09, IA-SHA-07, ruling
        IA-OPEN-26); -1 (no draw) where both are empty. int64 [len(rows)]."""
        if discard is not None:
            empty = rows[pile.size[rows] == 0]
            if empty.size:
                w = min(pile.cards.shape[1], discard.cards.shape[1])
                pile.cards[empty] = -1
                pile.cards[empty, :w] = discard.cards[empty, :w]
                pile.size[empty] = discard.size[empty]
                discard.fill(empty, [])
        out = np.full(rows.size, -1, np.int64)
        has = pile.size[rows] > 0
        r = rows[has]
        at = (self._random(r) * pile.size[r]).astype(np.int64)
        out[has] = pile.take(r, at)
        return out

    # ------------------------------------------------------------------ set-up
    def reset(self, rows: Any, seeds: Any) -> None:
        """Start new games in ``rows`` (ints) from ``seeds`` (ints, any 64-bit value, as
        ``load(..., seed=)``), as ``setup.begin``: six Ambitions drawn, 3 Passive then 3
        Active (IA-SET-02/03), the face-down piles (IA-SET-04, 06, 09), two face-up planets
        of each type (IA-SET-05), four techs and three Mercs face up (IA-SET-06/09), Home
        Worlds at level 4 with a Strike Craft and a Destroyer (IA-SET-10..12), the start
        player at random (IA-SET-13) and four Shadow cards each in turn order (IA-SET-14);
        then the first decision (keep, the start player first)."""
        rows = np.asarray(rows, np.int64)
        c = self.content
        ra.seed(self.rng, rows, seeds)
        self.phase[rows] = SETUP
        self.ambitions[rows] = np.concatenate(
            [self._sample(rows, self.passive, 3), self._sample(rows, self.active, 3)], 1)
        self.shadow_deck.fill(rows, c.shadow_cards)
        self.shadow_discard.fill(rows, [])
        self.emerg_deck.fill(rows, c.emergency_cards)
        self.emerg_discard.fill(rows, [])
        from .batched_combat import clear

        clear(self, rows)
        self.colony_deck.fill(rows, c.event_cards)
        self.merc_deck.fill(rows, c.merc_cards)
        start = set(c.start_techs)
        self.tech_deck.fill(rows, [t for t in range(self.n_techs) if t not in start])
        for t in range(4):  # refill_planets, stack by stack (ruling IA-OPEN-10)
            self.planet_decks[t].fill(rows, np.flatnonzero(self.planet_type == t))
            for i in range(self.planet_slots.shape[2]):
                self.planet_slots[rows, t, i] = self._draw(rows, self.planet_decks[t])
        for i in range(self.tech_slots.shape[1]):
            self.tech_slots[rows, i] = self._draw(rows, self.tech_deck)
        for i in range(self.merc_slots.shape[1]):
            self.merc_slots[rows, i] = self._draw(rows, self.merc_deck)
        self.tokens[rows] = -1
        self.res[rows] = 0
        self.known[rows] = False
        self.tech_owner[rows] = -1
        self.hands[rows] = 0
        self.hand_seq[rows] = -1
        self.seen[rows] = 0
        self.pl_card[rows] = -1
        self.pl_level[rows] = 0
        self.pl_marker[rows] = -1
        self.pl_card[rows, :, 0] = self.homes
        self.pl_level[rows, :, 0] = 4
        self.ship_card[rows] = -1
        self.ship_dmg[rows] = 0
        self.ship_card[rows, :, 0] = self.first_ships[0]
        self.ship_card[rows, :, 1] = self.first_ships[1]
        self.medals[rows] = 0
        self.colonised[rows] = False
        self.colonised[rows[:, None], self.homes] = True
        self.planet_discard.fill(rows, [])
        self.colony_discard.fill(rows, [])
        self.tech_discard.fill(rows, [])
        self.merc_discard.fill(rows, [])
        self.stats[rows] = 0
        self.offer.fill(rows, [])
        self.count2[rows] = 0
        self.round[rows] = 0
        self.claims[rows] = 0
        self.end_trigger[rows] = -1
        self.final_left[rows] = 0
        self.turn_count[rows] = 0
        self.ret[rows] = 0.0
        st = self.start[rows] = self._below(rows, PLAYERS)
        for k in range(PLAYERS):
            seat = (st + k) % PLAYERS
            for _ in range(4):
                card = self._draw(rows, self.shadow_deck)
                self.hand_add(rows, seat, card)
        self.seat[rows] = st
        self.step[rows] = 1
        self.done[rows] = False
        self._set(rows, KEEP, st, 0)
        self.count[rows] = 2

    def hand_add(self, rows: np.ndarray, seat: np.ndarray, card: np.ndarray) -> None:
        """Put ``card`` at the end of each hand (``hands[seat] + (card,)``)."""
        k = (self.hand_seq[rows, seat] >= 0).sum(1)
        self.hand_seq[rows, seat, k] = card
        self.hands[rows, seat, card] += 1

    def hand_take(self, rows: np.ndarray, seat: np.ndarray, k: np.ndarray) -> np.ndarray:
        """Take the card at place ``k`` of each hand, the later ones moving up."""
        seq = self.hand_seq[rows, seat]
        card = seq[np.arange(rows.size), k]
        nxt = np.minimum(np.arange(HAND_MAX) + 1, HAND_MAX - 1)
        moved = np.where(np.arange(HAND_MAX)[None, :] >= k[:, None], seq[:, nxt], seq)
        moved[:, -1] = -1
        self.hand_seq[rows, seat] = moved
        self.hands[rows, seat, card] -= 1
        return card

    def hand_discard(self, rows: np.ndarray, seat: np.ndarray, card: np.ndarray) -> None:
        """``common.discard_card``: the first copy of ``card`` leaves the hand face up to
        the Shadow discard (ruling IA-OPEN-15); each seat that knew ``seat`` held one
        forgets one."""
        k = (self.hand_seq[rows, seat] == card[:, None]).argmax(1)
        self.hand_take(rows, seat, k)
        self.shadow_discard.push(rows, card)
        have = self.seen[rows, :, seat, card]  # [len(rows), viewers]
        self.seen[rows, :, seat, card] = np.maximum(0, have - 1)

    def _set(self, rows: np.ndarray, kind: int, seat: np.ndarray, cursor: Any) -> None:
        self.kind[rows] = kind
        self.dec_seat[rows] = seat
        self.cursor[rows] = cursor

    def order(self, rows: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """The seat at ``pos`` in turn order from the start player (IA-SET-13)."""
        return (self.start[rows] + pos) % PLAYERS

    # ------------------------------------------------------------------ queries
    def current_player(self) -> np.ndarray:
        """int64 [n]: the seat to decide; TERMINAL (-4) once the game is over."""
        cp = np.where(self.kind != NONE, self.dec_seat, -1)
        return np.where(self.phase == OVER, TERMINAL, cp)

    def terminal(self) -> np.ndarray:
        """bool [n]: the game is over."""
        return self.phase == OVER

    def can_advance(self, rows: np.ndarray) -> np.ndarray:
        """bool [len(rows), 3, 6]: each token can move one slot right: placed, not at
        ULTIMATE (IA-TRK-05), not into a full ULTIMATE slot (IA-TRK-06..08: one token in a
        3-player game)."""
        tok = self.tokens[rows]
        lvl = tok & 3
        ult = np.zeros((rows.size, 6), np.int64)
        placed = tok >= 0
        top = placed & (lvl == 3)
        np.add.at(ult, (np.nonzero(top)[0], (tok[top] >> 2)), 1)
        full = np.take_along_axis(ult[:, None, :].repeat(PLAYERS, 1), np.maximum(tok, 0) >> 2, 2)
        return placed & ((lvl < 2) | ((lvl == 2) & (full < 1)))

    # ------------------------------------------------------------------ step
    def step_indices(self, actions: np.ndarray) -> None:
        """Apply one legal action index per game (int [n], see ``batched_view``); games
        over are left as they are. Nothing is checked."""
        from .batched_view import apply

        apply(self, np.asarray(actions, np.int64))

    def discard(self, rows: np.ndarray, card: np.ndarray) -> None:
        """Keep 2 of 4 (IA-SET-14): one card of the hand to the Shadow discard; the next
        seat in turn order when two are gone; the starting techs then, the last player
        first (IA-SET-15)."""
        seat = self.dec_seat[rows]
        self.hand_discard(rows, seat, card)
        again = self.count[rows] > 1
        self.count[rows[again]] -= 1
        r = rows[~again]
        cur = self.cursor[r] + 1
        nxt = cur < PLAYERS
        self._set(r[nxt], KEEP, self.order(r[nxt], cur[nxt]), cur[nxt])
        self.count[r[nxt]] = 2
        r = r[~nxt]
        self.step[r] = 2
        self._set(r, START_TECH, self.order(r, np.full(r.size, PLAYERS - 1)), 0)

    def start_tech(self, rows: np.ndarray, k: np.ndarray) -> None:
        """Claim starting tech ``k`` (IA-SET-15); after the start player, the unclaimed
        ones go into the Tech deck (IA-SET-16) and the tokens are placed, the start player
        first (IA-SET-17)."""
        t = self.start_techs[k]
        seat = self.dec_seat[rows]
        self.tech_owner[rows, t] = seat
        self.known[rows, seat, t] = True
        cur = self.cursor[rows] + 1
        nxt = cur < PLAYERS
        r = rows[nxt]
        self._set(r, START_TECH, self.order(r, PLAYERS - 1 - cur[nxt]), cur[nxt])
        r = rows[~nxt]
        self.step[r] = 3
        for t in self.start_techs:  # in content order, as the reference extends
            m = self.tech_owner[r, t] < 0
            self.tech_deck.push(r[m], np.full(int(m.sum()), t))
        self._set(r, PLACE, self.start[r], 0)

    def place(self, rows: np.ndarray, act: np.ndarray) -> None:
        """Place a token on ``act``'s BASIC slot (IA-SET-17): one at a time in turn order
        until all are placed; then 2 of each resource (IA-SET-18) and the compensation,
        player 2 first (IA-SET-19/20)."""
        seat = self.dec_seat[rows]
        tok = self.tokens[rows, seat]
        i = (tok < 0).argmax(1)
        self.tokens[rows, seat, i] = act * 4
        cur = self.cursor[rows] + 1
        nxt = cur < PLAYERS * TOKENS
        r = rows[nxt]
        self._set(r, PLACE, self.order(r, cur[nxt] % PLAYERS), cur[nxt])
        r = rows[~nxt]
        self.step[r] = 4
        self.res[r] = 2
        self._comp(r, np.ones(r.size, np.int64))

    def _comp(self, rows: np.ndarray, pos: np.ndarray) -> None:
        """The compensation of the seat at ``pos`` (IA-SET-19/20); past the last, round 1
        begins with the start player (IA-SET-24, ``batched_turn``)."""
        go = pos < PLAYERS
        r = rows[go]
        p = pos[go]
        self._set(r, COMP, self.order(r, p), p)
        table = np.array(COMPENSATION, np.int64)
        self.adv[r] = table[p, 0]
        self.take[r] = table[p, 1]
        self.done[r] = False
        r = rows[~go]
        self.kind[r] = NONE
        self.phase[r] = TURN
        self.round[r] = 1
        self.seat[r] = self.start[r]
        self.step[r] = 0
        from .batched_turn import run

        run(self, r)

    def movable(self, rows: np.ndarray) -> np.ndarray:
        """bool [len(rows), 6]: the deciding seat's tokens it may still advance in its
        compensation (IA-SET-20/21: different tokens)."""
        seat = self.dec_seat[rows]
        can = self.can_advance(rows)[np.arange(rows.size), seat]
        return can & ~self.done[rows]

    def advance(self, rows: np.ndarray, code: np.ndarray) -> None:
        """Advance one token of track code ``code`` one slot (IA-SET-20): the first such
        token not advanced yet."""
        seat = self.dec_seat[rows]
        tok = self.tokens[rows, seat]
        i = ((tok == code[:, None]) & ~self.done[rows]).argmax(1)
        self.tokens[rows, seat, i] = code + 1
        self.done[rows, i] = True
        self.adv[rows] -= 1
        self._comp_next(rows)

    def take_res(self, rows: np.ndarray, r: np.ndarray) -> None:
        """Take one resource ``r`` (IA-SET-19/20); with no token left to advance, the
        advances still owed lapse."""
        seat = self.dec_seat[rows]
        self.res[rows, seat, r] += 1
        self.take[rows] -= 1
        self.adv[rows] = np.where(self.movable(rows).any(1), self.adv[rows], 0)
        self._comp_next(rows)

    def _comp_next(self, rows: np.ndarray) -> None:
        over = (self.adv[rows] == 0) & (self.take[rows] == 0)
        r = rows[over]
        self._comp(r, self.cursor[r] + 1)
