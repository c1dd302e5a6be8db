"""The Rift Domination game state: data, copying, observation and action dispatch.

The rules live in sibling modules, one per concern: ``setup`` (SET UP), ``turn`` (BASIC
GAME STRUCTURE: steps 1-4 and 7), ``movement`` (MOVEMENT, steps 5-6), ``planets`` (PLANET
CONDITIONS, SYSTEMS, SPECIAL PLANETS), ``battle`` (BATTLE, UNIT-SKILLS), ``occ``
(OCC-CARDS). This module holds the data they share and the engine contract.

Units are immutable :class:`Unit` tuples in a :class:`UnitTable` by unit id (a dict that also
keeps each seat's units and fleets, see ``units``), so ``clone()`` copies a dict of
references; planets and players are flat lists of ints, strings and tuples.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from starlanes.engine import Action, Decision, GameRng, GameState
from starlanes.engine.state import TERMINAL, shared_returns

from . import battle, rules
from .board import Board
from .content import RiftContent
from .factions import FactionRules, UnitStats
from .hidden import resample_hidden
from .units import Unit, UnitTable

if TYPE_CHECKING:  # pragma: no cover
    from .game import RiftDomination


class RiftState(GameState):
    """A game of Rift Domination in progress. See :class:`starlanes.engine.GameState`."""

    __slots__ = (
        "content", "board", "rng", "n", "phase", "step", "seat", "round", "units", "next_uid",
        "planet_owner", "planet_upgrades", "tile_kind", "tile_value", "tile_revealed",
        "tile_bag", "tile_in_hand", "resources", "income", "vp", "vp_by", "faction", "fx", "stats",
        "roster", "unlocks", "home", "repicked", "faction_pool", "faction_offer", "hands",
        "deck", "discard", "system_owner", "stack", "battle", "turn_mp_bonus", "end_reason",
        "winners", "log_lines", "target_vp", "setup_order", "options", "deck_unordered",
        "no_landing", "target_reached", "occ_known", "huge_scored", "_log_shared",
    )

    def __init__(self, game: RiftDomination, content: RiftContent, board: Board) -> None:
        super().__init__(game)
        self.content = content
        self.board = board
        self.options = game.options
        self.rng = GameRng(game.seed)
        self.n = game.players
        self.phase = "setup_home"
        self.step = 0
        self.seat = 0
        self.round = 0
        self.units = UnitTable(self.n)
        self.next_uid = 1
        np_ = len(board.planet_ids)
        self.planet_owner = [-1] * np_
        self.planet_upgrades: list[tuple[str, ...]] = [()] * np_
        self.tile_kind: list[str] = [""] * np_
        self.tile_value = [0] * np_
        self.tile_revealed = [False] * np_
        self.tile_bag: list[tuple[str, int]] = []
        self.tile_in_hand: tuple[str, int] | None = None
        self.resources = [0] * self.n
        self.income = [0] * self.n
        self.vp = [0] * self.n
        self.vp_by: list[dict[str, int]] = [{} for _ in range(self.n)]
        """Per seat, VP by source (they add up to ``vp``); each dict is replaced, never
        changed, so copies share them."""
        self.faction: list[str] = [""] * self.n
        self.fx: list[FactionRules | None] = [None] * self.n
        self.stats: list[dict[str, UnitStats]] = [{} for _ in range(self.n)]
        self.roster: list[tuple[str, ...]] = [()] * self.n
        self.unlocks = [0] * self.n
        self.home = [-1] * self.n
        self.repicked = [False] * self.n
        self.faction_pool: list[str] = []
        self.faction_offer = ""
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        self.deck: list[str] = []
        # True in a determinisation: the deck is then an unordered set and each draw takes a
        # card at random (same odds as the top of a shuffled deck, without the shuffle).
        self.deck_unordered = False
        self.discard: list[str] = []
        self.system_owner = [-1] * len(board.system_ids)
        self.stack: list[Decision] = []
        self.battle: Any = None
        self.turn_mp_bonus = 0
        self.end_reason = ""
        self.winners: list[int] = []
        self.log_lines: list[str] = []
        # log_lines is shared with clones until one of them logs (copy on write)
        self._log_shared = False
        self.target_vp = 0
        # Someone has reached the target this game: the current round is the last
        # (RD-WIN-06, ruling RD-OPEN-19), even if that player falls below it again.
        self.target_reached = False
        # What every seat knows of each hand from the card windows between turns (a seat
        # with no any-time card is skipped, one with some is asked): per seat, (how many
        # of its cards are known not to be any-time cards, whether it is known to hold an
        # any-time card). Determinisations keep these facts (ruling RD-OPEN-14).
        self.occ_known: list[tuple[int, bool]] = [(0, False)] * self.n
        self.setup_order: list[int] = []
        # Ground units that retreated from a ground battle into orbit: they may not land
        # again until they arrive at a point anew (ruling RD-OPEN-10).
        self.no_landing: frozenset[int] = frozenset()
        self.huge_scored: frozenset[tuple[int, int]] = frozenset()
        """(seat, planet) of each huge planet whose VP the seat has scored (only kept with
        option ``huge_planet_vp="once"``, ruling RD-OPEN-21)."""

    # ------------------------------------------------------------------ helpers
    def log(self, text: str) -> None:
        if self._log_shared:
            self.log_lines = self.log_lines[:]
            self._log_shared = False
        self.log_lines.append(text)

    def seat_name(self, seat: int) -> str:
        """``P2 (Verdant Bloom)``, or ``P2`` before the seat has a faction; made once per
        board (one per content and player count) and seat, as every log line names one."""
        f = self.faction[seat]
        memo = self.board.memo
        key = ("seat name", seat, f)
        name = memo.get(key)
        if name is None:
            name = memo[key] = f"P{seat}" + (f" ({self.content.factions[f].name})" if f else "")
        return name

    def kind_name(self, kind: str, n: int = 0) -> str:
        """A unit type's or upgrade's printed name (``kamikaze_drone`` -> ``Kamikaze
        Drone``; an id the content does not know is spelt out in words); with ``n`` > 0 the
        count goes first and the name takes a plural: ``3 Carriers``, ``2 Infantry``."""
        unit = self.content.units.get(kind)
        up = None if unit is not None else self.content.upgrades.get(kind)
        name = unit.name if unit is not None else up.name if up is not None else \
            kind.replace("_", " ")
        if n <= 0:
            return name
        if n == 1 or name.endswith(("s", "ry")):
            return f"{n} {name}"
        return f"{n} {name}s"

    def point_name(self, point: str) -> str:
        """A point as players read it: a planet by its name and id (``Kessar Prime
        (A1a)``), a system or warp point by its id (``E5``), a lane as ``the lane between B1
        and C1``."""
        if "|" in point:
            return "the lane between " + " and ".join(point.split("|"))
        planet = self.content.planets.get(point)
        return f"{planet.name} ({point})" if planet is not None else point

    def unit_stats(self, seat: int, kind: str) -> UnitStats:
        return self.stats[seat][kind]

    def add_unit(self, owner: int, kind: str, loc: int, landed: bool = False) -> int:
        uid = self.next_uid
        self.next_uid += 1
        self.units[uid] = Unit(owner, kind, loc, landed, 0, 0)
        return uid

    def remove_unit(self, uid: int) -> None:
        del self.units[uid]

    def units_at(self, point: int, owner: int | None = None) -> list[int]:
        if owner is not None:
            return [u for u, x in self.units.of[owner].items() if x.loc == point]
        return [u for u, x in self.units.items() if x.loc == point]

    def gain_vp(self, seat: int, n: int, reason: str) -> None:
        """Add (or with negative ``n`` remove) victory points; VP never go below 0, and the
        log says what really changed (e.g. "loses 1 VP, 2 would go below 0")."""
        before = self.vp[seat]
        self.vp[seat] = max(0, before + n)
        if self.vp[seat] != before:
            by = dict(self.vp_by[seat])
            source = vp_source(reason)
            by[source] = by.get(source, 0) + self.vp[seat] - before
            self.vp_by[seat] = by
        if self.target_vp and self.vp[seat] >= self.target_vp:
            self.target_reached = True
        name = self.seat_name(seat)
        if n >= 0:
            self.log(f"{name} +{n} VP ({reason})")
            return
        lost = before - self.vp[seat]
        if lost == -n:
            self.log(f"{name} -{lost} VP ({reason})")
        elif lost:
            self.log(f"{name} loses {lost} VP ({reason}: {-n} due, VP cannot go below 0)")
        else:
            self.log(f"{name} has no VP to lose ({reason}: {-n} due, VP cannot go below 0)")

    def gain_resources(self, seat: int, n: int, reason: str) -> None:
        """Add resources (negative ``n`` removes, never below 0)."""
        self.resources[seat] = max(0, self.resources[seat] + n)
        if n:
            self.log(f"{self.seat_name(seat)} {'+' if n >= 0 else ''}{n} resources ({reason})")

    def draw_card(self, seat: int) -> str | None:
        """Take the top OCC-card; the discard pile is reshuffled when the deck runs out
        (ruling RD-OPEN-14). Returns None if both are empty."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
            self.log("the OCC discard pile is shuffled into a new deck")
        deck = self.deck
        if self.deck_unordered:
            j = self.rng.randrange(len(deck))
            deck[j], deck[-1] = deck[-1], deck[j]
        card = deck.pop()
        self.hands[seat].append(card)
        return card

    def discard_card(self, seat: int, card: str) -> None:
        """Move ``card`` from the seat's hand to the (public) discard pile."""
        self.hands[seat].remove(card)
        self.discard.append(card)
        known, holds = self.occ_known[seat]
        if known or holds:
            if self.content.cards[card].timing == "any_time":
                holds = False  # it may have been the only one
            else:
                known -= 1  # it may have been one of the known ones
            self.occ_known[seat] = (max(0, min(known, len(self.hands[seat]) - holds)), holds)

    def push(self, decision: Decision) -> None:
        self.stack.append(decision)

    def enemy_fleet_at(self, seat: int, point: int) -> bool:
        """True if another seat has units that are not landed at ``point`` (an
        enemy-held point: entering it starts a battle, RD-MOV-10, ruling RD-OPEN-24)."""
        return self.units.fleet_at(point, seat)

    def controls_planet_in_system(self, seat: int, system: int) -> bool:
        return any(self.planet_owner[p] == seat for p in self.board.system_planets[system])

    def military_bases(self, seat: int) -> list[int]:
        """The seat's planets with a military base, in play order."""
        owner, ups = self.planet_owner, self.planet_upgrades
        return [p for p in self.board.in_play_planets
                if owner[p] == seat and "military_base" in ups[p]]

    def capture_planet(self, planet: int, seat: int, landing: list[int]) -> None:
        from .planets import capture_planet

        capture_planet(self, planet, seat, landing)

    def after_battle(self) -> None:
        """Called by the battle module when a battle is over."""
        self.battle = None

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.stack:
            return self.stack[-1].seat
        if self.battle is not None:
            return battle.current_player(self)
        return self.seat

    def turn_key(self) -> tuple[int, int]:
        """The turn a decision belongs to: the round and the seat whose turn it is; answers
        of other seats during it belong to it too (RD-TURN-01, RD-TURN-10)."""
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
        return list(self.vp)

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each seat's VP by source (starting VP, systems, huge planets, anomalies,
        battles, OCC cards, ...; they add up to :meth:`scores`), for the game-over table."""
        return [{k: v for k, v in by.items() if v} for by in self.vp_by]

    def _copy(self) -> RiftState:
        c = RiftState.__new__(RiftState)
        c.game = self.game
        c.content = self.content
        c.board = self.board
        c.options = self.options
        c.rng = self.rng.copy()
        c.n = self.n
        c.phase = self.phase
        c.step = self.step
        c.seat = self.seat
        c.round = self.round
        c.units = self.units.copy()
        c.next_uid = self.next_uid
        c.planet_owner = self.planet_owner[:]
        c.planet_upgrades = self.planet_upgrades[:]
        c.tile_kind = self.tile_kind[:]
        c.tile_value = self.tile_value[:]
        c.tile_revealed = self.tile_revealed[:]
        c.tile_bag = self.tile_bag[:]
        c.tile_in_hand = self.tile_in_hand
        c.resources = self.resources[:]
        c.income = self.income[:]
        c.vp = self.vp[:]
        c.vp_by = self.vp_by[:]
        c.faction = self.faction[:]
        c.fx = self.fx[:]
        c.stats = self.stats[:]
        c.roster = self.roster[:]
        c.unlocks = self.unlocks[:]
        c.home = self.home[:]
        c.repicked = self.repicked[:]
        c.faction_pool = self.faction_pool[:]
        c.faction_offer = self.faction_offer
        c.hands = [h[:] for h in self.hands]
        c.deck = self.deck[:]
        c.deck_unordered = self.deck_unordered
        c.discard = self.discard[:]
        c.system_owner = self.system_owner[:]
        c.stack = self.stack[:]
        c.battle = None if self.battle is None else self.battle.copy()
        c.turn_mp_bonus = self.turn_mp_bonus
        c.end_reason = self.end_reason
        c.winners = self.winners[:]
        c.log_lines = self.log_lines
        c._log_shared = self._log_shared = True
        c.target_vp = self.target_vp
        c.target_reached = self.target_reached
        c.occ_known = self.occ_known[:]
        c.setup_order = self.setup_order[:]
        c.no_landing = self.no_landing
        c.huge_scored = self.huge_scored
        return c

    def _digest_payload(self) -> Any:
        return [
            self.phase, self.step, self.seat, self.round, self.next_uid,
            sorted((k, list(v)) for k, v in self.units.items()),
            self.planet_owner, [list(u) for u in self.planet_upgrades], self.tile_kind,
            self.tile_value, self.tile_revealed, self.tile_bag, self.tile_in_hand,
            self.resources, self.income, self.vp, self.faction, self.roster, self.unlocks,
            self.home, self.repicked, self.faction_pool, self.faction_offer, self.hands,
            self.deck, self.discard, self.system_owner,
            [(d.seat, d.kind, repr(d.data)) for d in self.stack],
            None if self.battle is None else repr(self.battle.digest_data()),
            self.turn_mp_bonus, self.end_reason, self.winners,
        ] + (["unordered deck"] if self.deck_unordered else []) + (
            [["no landing", sorted(self.no_landing)]] if self.no_landing else []) + (
            ["target reached"] if self.target_reached else []) + (
            [["huge scored", sorted(self.huge_scored)]] if self.huge_scored else [])

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        resample_hidden(self, seat, rng)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the public board, its own hand, others' hand sizes; tile
        values only once revealed; the OCC deck only as a count."""
        from .observe import observation

        return observation(self, seat)

    def action_log(self) -> list[str]:
        return list(self.log_lines)


VP_SOURCES = (("battle won", "battles"), ("OCC-card", "OCC cards"), ("anomaly", "anomalies"),
              ("faction bonus", "faction bonus"), ("consume", "consumed planets"),
              ("huge planet", "huge planets"), ("controls system", "systems"),
              ("start", "starting VP"))
"""How a VP gain's reason (its log text) maps to a source of the score breakdown."""


def vp_source(reason: str) -> str:
    """The score-breakdown source of a VP change logged with ``reason``."""
    for prefix, source in VP_SOURCES:
        if reason.startswith(prefix):
            return source
    return reason
