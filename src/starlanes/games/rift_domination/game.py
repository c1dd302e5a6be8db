"""The Rift Domination game object and its options."""

from __future__ import annotations

from typing import Any

from starlanes.engine import CONTENT_OPTION, Game, OptionSet, OptionSpec, register

from .board import board_for
from .content import load_content
from .state import RiftState


@register
class RiftDomination(Game):
    """Rift Domination: 2-6 players, 4X on a board of 30 systems (rulebook
    rift-domination.txt). Options are listed in ``option_set``; content comes from the
    packaged TOML files or the ``content`` directory."""

    game_id = "rift-domination"
    title = "Rift Domination"
    version = "1"
    min_players = 2
    max_players = 6
    summary = "4X board game: 30 systems, factions, fleets, range-phase battles, OCC cards"
    option_set = OptionSet((
        OptionSpec("round_limit", int, 60, "rounds after which the game ends on VP",
                   minimum=1, maximum=1000, ruling="RD-OPEN-19"),
        OptionSpec("first_round_no_instants", bool, False,
                   "the rulebook's first-session variant: no instant OCC-cards in round one",
                   ruling="RD-OCC-08"),
        OptionSpec("warp_limit", str, "system",
                   "one warp per system in total ('system') or per player ('player')",
                   choices=("system", "player"), ruling="RD-OPEN-23"),
        CONTENT_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir())
        self.board = board_for(self.content, self.players, wormholes=False)

    def new_initial_state(self) -> RiftState:
        from . import setup

        state = RiftState(self, self.content, self.board)
        setup.begin(state)
        return state
