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

from .content import load_content
from .state import GDState


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
        self.move_rows: dict[int, list[Action | None]] = {}
        """Ship id -> its move action to each sector index, made on first use
        (``fleet.turn_actions``); every state of this game shares them."""
        self.attack_rows: dict[int, dict[int, Action]] = {}
        """Ship id -> target ship id -> its attack action, made on first use."""
        self.build_rows: list[list[Action | None]] = [
            [None] * len(self.content.board.names) for _ in range(5)]
        """Unit kind -> its build action in each sector index, made on first use."""
        self.special_rows: dict[int, Action] = {}
        """Ship id -> its one special action (attach, warp, charge), made on first use."""

    def new_initial_state(self) -> GDState:
        from . import setup

        state = GDState(self, self.content)
        setup.begin(state)
        return state
