"""The Galactic Domination game object and its options."""

from __future__ import annotations

from typing import Any

from starlanes.engine import (
    CONTENT_OPTION,
    CONTENT_SET_OPTION,
    Action,
    Game,
    OptionSet,
    OptionSpec,
    register,
)
from starlanes.engine.game import per_content

from .content import load_content
from .state import GDState


class ActionRows:
    """The turn's actions of every game of one content, made on first use and shared by
    them all (``fleet.turn_actions``, ``specials``): each is one immutable value of a ship
    id, a sector or a target id, whichever game asks. Ship ids start again at 1 in every
    game, so the rows hold at most one game's worth of ids.

    * ``move``: ship id -> its move to each sector index;
    * ``attack``: ship id -> target ship id -> its attack;
    * ``build``: unit kind -> its build in each sector index;
    * ``shot``: ship id -> its black hole shot charged at each sector index;
    * ``jump``: ship id -> its fleet jump to each sector index.
    """

    __slots__ = ("move", "attack", "build", "shot", "jump")

    def __init__(self, game: Game) -> None:
        sectors = len(game.content.board.names)  # type: ignore[attr-defined]
        self.move: dict[int, list[Action | None]] = {}
        self.attack: dict[int, dict[int, Action]] = {}
        self.build: list[list[Action | None]] = [[None] * sectors for _ in range(5)]
        self.shot: dict[int, list[Action | None]] = {}
        self.jump: dict[int, list[Action | None]] = {}


@register
class GalacticDomination(Game):
    """Galactic Domination: 2 players, tactical ship combat on 5 zones of 3 sectors
    (rulebook galactic-domination.txt). Options are in ``option_set``; content comes from
    the packaged TOML files or the ``content`` directory."""

    game_id = "galactic-domination"
    title = "Galactic Domination"
    version = "1"
    min_players = 2
    max_players = 2
    summary = "tactical ship game: 5 zones x 3 sectors, action points, shields, black holes"
    option_set = OptionSet((
        OptionSpec("turn_limit", int, 150,
                   "rounds after which the game ends as a draw (end_reason turn_limit)",
                   minimum=1, maximum=10000, ruling="GD-TURN-01"),
        OptionSpec("roll_off", bool, False,
                   "decide player 1 by the D10 roll-off (0 counts as 10) instead of seat order",
                   ruling="GD-SET-06"),
        OptionSpec("charge_ends_turn", bool, False,
                   "charging a black hole shot or a fleet jump ends the ship's actions for the "
                   "turn (its other AP are lost); off: charging costs 1 AP like any special",
                   ruling="GD-OPEN-07"),
        OptionSpec("arrive_full", bool, True,
                   "an explorer whose player picks its arrival sector (command ship in the "
                   "zone) may pick a full sector and collide; off: only sectors with room",
                   ruling="GD-DS-05"),
        CONTENT_OPTION,
        CONTENT_SET_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir(), self.content_overrides())
        rows = per_content(self, ActionRows, by_players=False)
        self.move_rows = rows.move
        self.attack_rows = rows.attack
        self.build_rows = rows.build
        self.shot_rows = rows.shot
        self.jump_rows = rows.jump
        self.special_rows: dict[int, Action] = {}
        """Ship id -> its one special action (attach, warp, charge), made on first use;
        this game's own, since which one a ship id has depends on its kind."""

    def new_initial_state(self) -> GDState:
        from . import setup

        state = GDState(self, self.content)
        setup.begin(state)
        return state
