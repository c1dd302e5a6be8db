"""The Galactic Domination game state: data, copying, digest and the engine contract.

The rules live in sibling modules: ``setup`` (Starting the Game), ``turn`` (Turn
Progression: recharge, gather, explorer return, end of turn), ``fleet`` (Spending Action
Points: moves, attacks, building) and ``specials`` (Special Abilities, Black Hole Markers,
Deep Space). ``rules`` dispatches to them.

Ships are plain tuples ``(owner, kind, sector, shields, hull, ap, attached, charge, aim)``
in a dict by ship number, so ``clone()`` copies one dict of references. ``sector`` is -1
while the ship is in deep space; ``charge`` is 0 (none), 1 (charging, this turn) or 2
(charged: fires or jumps this turn); ``aim`` is the black hole target sector or -1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlanes.engine import Action, Decision, GameRng, GameState
from starlanes.engine.state import TERMINAL, shared_returns

from .content import RANGE_ORDER, UNIT_IDS, GDContent

if TYPE_CHECKING:  # pragma: no cover
    from .game import GalacticDomination

OWNER, KIND, SEC, SH, HULL, AP, ATT, CHG, AIM = range(9)
DEEP = -1
Ship = tuple[int, int, int, int, int, int, int, int, int]


PHASE_WORDS = {
    "setup": "set-up, placing ships",
    "returns": "explorers return from deep space",
    "act": "spending action points",
    "over": "game over",
}
"""The turn's phases in words (the observation's ``phase_words``; ``phase`` is the id)."""


class GDState(GameState):
    """A game of Galactic Domination in progress. See :class:`starlanes.engine.GameState`.

    ``seat`` is the active player, ``first`` the seat that is player 1 (red, moves first),
    ``round`` counts rounds (player 1's turns), ``active`` the ship acting now (-1: none)."""

    __slots__ = (
        "content", "board", "options", "rng", "seat", "first", "round", "phase", "ships",
        "next_uid", "minerals", "dark", "holes", "active", "stack", "pending", "jump_group",
        "to_place", "end_reason", "winners", "log_lines", "start", "turn_limit",
        "max_ap", "damage", "max_sh", "max_hull", "cost", "reach",
    )

    def __init__(self, game: GalacticDomination, content: GDContent) -> None:
        super().__init__(game)
        self.content = content
        self.board = content.board
        self.options = game.options
        self.turn_limit: int = game.options["turn_limit"]
        self.rng = GameRng(game.seed)
        units = content.units
        self.max_ap = tuple(u.ap for u in units)
        self.damage = tuple(u.damage for u in units)
        self.max_sh = tuple(u.shields for u in units)
        self.max_hull = tuple(u.hull for u in units)
        self.cost = tuple(u.cost for u in units)
        self.reach = tuple(self.board.reach[RANGE_ORDER.index(u.range)] for u in units)
        self.seat = 0
        self.first = 0
        self.round = 0
        self.phase = "setup"
        self.ships: dict[int, Ship] = {}
        self.next_uid = 1
        self.minerals = [0, 0]
        self.dark = [0, 0]
        self.holes = [False] * 15
        self.active = -1
        self.stack: list[Decision] = []
        self.pending: list[int] = []
        self.jump_group: dict[int, tuple[int, ...]] = {}
        self.to_place = [[0] * 5, [0] * 5]
        self.end_reason = ""
        self.winners: list[int] = []
        self.log_lines: list[str] = []
        self.start = [self.board.start_zone[0], self.board.start_zone[1]]

    # ------------------------------------------------------------------ helpers
    def log(self, text: str) -> None:
        self.log_lines.append(text)

    def seat_name(self, seat: int) -> str:
        """``red (P0)``: the seat by its colour (red is player 1 and moves first, purple is
        player 2, GD-MAP-03) with its seat number, never to be mistaken for sector P1."""
        return f"{'red' if seat == self.first else 'purple'} (P{seat})"

    def ship_name(self, uid: int) -> str:
        """``red (P0)'s Raider Ship 5``: the owner and :meth:`ship_word`."""
        sh = self.ships[uid]
        return f"{self.seat_name(sh[OWNER])}'s {self.ship_word(uid, sh[KIND])}"

    def ship_word(self, uid: int, kind: int | None = None) -> str:
        """``Raider Ship 5``: the ship's type name as printed and the number on its badge
        (typed in notation; ``kind`` for a ship no longer on the board)."""
        k = self.ships[uid][KIND] if kind is None else kind
        return f"{self.content.units[k].name} {uid}"

    def add_ship(self, owner: int, kind: int, sector: int) -> int:
        """A new ship at full shields, hull and AP (GD-BLD-05)."""
        uid = self.next_uid
        self.next_uid += 1
        self.ships[uid] = (owner, kind, sector, self.max_sh[kind], self.max_hull[kind],
                           self.max_ap[kind], 0, 0, -1)
        return uid

    def load_at(self, sector: int) -> int:
        """Ships counting towards the capacity of ``sector``: all but miners (GD-MAP-06)."""
        return sum(1 for x in self.ships.values() if x[SEC] == sector and x[KIND] != 2)

    def fleet_counts(self, seat: int) -> list[int]:
        """Units of ``seat`` by type, deep space included (GD-LIM-*)."""
        n = [0] * 5
        for x in self.ships.values():
            if x[OWNER] == seat:
                n[x[KIND]] += 1
        return n

    def on_board(self, seat: int) -> int:
        return sum(1 for x in self.ships.values() if x[OWNER] == seat and x[SEC] >= 0)

    def push(self, decision: Decision) -> None:
        self.stack.append(decision)

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.stack:
            return self.stack[-1].seat
        return self.seat

    def turn_key(self) -> tuple[int, int]:
        """The turn a decision belongs to: the round and the seat whose turn it is; answers
        of other seats during it belong to it too (GD-TURN-01, GD-TURN-02)."""
        return (self.round, self.seat)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> None:
        rules.apply(self, action)

    def returns(self) -> list[float]:
        return shared_returns(self.winners, 2)

    def scores(self) -> list[int]:
        """Fleet value: the mineral cost of each player's units still in play."""
        out = [0, 0]
        for x in self.ships.values():
            out[x[OWNER]] += self.cost[x[KIND]]
        return out

    def score_breakdown(self) -> list[dict[str, int]]:
        """Each player's fleet value by unit kind (minerals; they add up to :meth:`scores`),
        for the game-over table."""
        out: list[dict[str, int]] = [{}, {}]
        for x in self.ships.values():
            by, kind = out[x[OWNER]], UNIT_IDS[x[KIND]]
            by[kind] = by.get(kind, 0) + self.cost[x[KIND]]
        return out

    def _copy(self) -> GDState:
        c = GDState.__new__(GDState)
        c.game = self.game
        c.content = self.content
        c.board = self.board
        c.options = self.options
        c.turn_limit = self.turn_limit
        c.rng = self.rng.copy()
        c.max_ap = self.max_ap
        c.damage = self.damage
        c.max_sh = self.max_sh
        c.max_hull = self.max_hull
        c.cost = self.cost
        c.reach = self.reach
        c.seat = self.seat
        c.first = self.first
        c.round = self.round
        c.phase = self.phase
        c.ships = self.ships.copy()
        c.next_uid = self.next_uid
        c.minerals = self.minerals[:]
        c.dark = self.dark[:]
        c.holes = self.holes[:]
        c.active = self.active
        c.stack = self.stack[:]
        c.pending = self.pending[:]
        c.jump_group = self.jump_group.copy()
        c.to_place = [self.to_place[0][:], self.to_place[1][:]]
        c.end_reason = self.end_reason
        c.winners = self.winners[:]
        c.log_lines = self.log_lines[:]
        c.start = self.start[:]
        return c

    def _digest_payload(self) -> Any:
        return [
            self.seat, self.first, self.round, self.phase, self.next_uid,
            sorted((k, list(v)) for k, v in self.ships.items()), self.minerals, self.dark,
            self.holes, self.active, [(d.seat, d.kind, list(d.data)) for d in self.stack],
            self.pending, sorted((k, list(v)) for k, v in self.jump_group.items()),
            self.to_place, self.end_reason, self.winners, self.start,
        ]

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything: Galactic Domination has no hidden information (ruling GD-OPEN-05,
        hidden-information note); dice and the spinner are chance, not secrets."""
        b = self.board
        return {
            "game": "galactic-domination",
            "seat": seat,
            "round": self.round,
            "turn": self.seat,
            "player_1": self.first,
            "phase": self.phase,
            "phase_words": PHASE_WORDS.get(self.phase, self.phase),
            "current_player": self.current_player(),
            "active_ship": self.active,
            "minerals": list(self.minerals),
            "dark_matter": list(self.dark),
            "start_zone": [b.zone_colors[z] for z in self.start],
            "black_holes": [b.names[i] for i in range(15) if self.holes[i]],
            "ships": [
                {"id": uid, "owner": x[OWNER], "kind": UNIT_IDS[x[KIND]],
                 "at": b.names[x[SEC]] if x[SEC] >= 0 else "deep_space",
                 "shields": x[SH], "hull": x[HULL], "ap": x[AP], "attached": bool(x[ATT]),
                 "charge": x[CHG], "aim": b.names[x[AIM]] if x[AIM] >= 0 else None}
                for uid, x in sorted(self.ships.items())
            ],
            "to_place": [list(t) for t in self.to_place],
            "pending": [d.kind for d in self.stack],
            "terminal": self.is_terminal(),
            "winners": list(self.winners),
            "end_reason": self.end_reason,
        }

    def action_log(self) -> list[str]:
        return list(self.log_lines)


from . import rules  # noqa: E402  (rules imports this module's names)
