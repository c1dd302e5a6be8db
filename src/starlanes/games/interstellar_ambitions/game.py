"""The Interstellar Ambitions game object and its options (rulings in
docs/rulings/interstellar-ambitions.md)."""

from __future__ import annotations

from typing import Any

from starlanes.engine import CONTENT_OPTION, Game, OptionSet, OptionSpec, register

from .content import load_content
from .state import IAState


@register
class InterstellarAmbitions(Game):
    """Interstellar Ambitions: 3-6 players (IA-SET-01), a card-driven empire game with an
    Action Track, hidden Shadow hands, secret combat orders and ambitions."""

    game_id = "interstellar-ambitions"
    title = "Interstellar Ambitions"
    version = "1"
    min_players = 3
    max_players = 6
    summary = "card-driven empire game: action track, planets, tech, ships, shadow cards"
    option_set = OptionSet((
        OptionSpec("ambitions", str, "drawn",
                   "'drawn': 3 passive + 3 active at random; 'core': 4 core ambitions every "
                   "game + 1 passive + 1 active drawn", choices=("drawn", "core"),
                   ruling="IA-OPEN-01"),
        OptionSpec("disrupt_limit", int, 3, "tokens the Disrupt Plans spoil may reset",
                   minimum=2, maximum=3, ruling="IA-OPEN-03"),
        OptionSpec("plan_tokens", str, "all", "Plan Actions places 'all' pool tokens or "
                   "'any' number of them", choices=("all", "any"), ruling="IA-OPEN-04"),
        OptionSpec("raid_take", str, "up_to", "a won raid takes 'up_to' the margin or "
                   "'exact'ly the margin (as far as the defender has)",
                   choices=("up_to", "exact"), ruling="IA-OPEN-06"),
        OptionSpec("round_limit", int, 60, "rounds after which the game ends on VP "
                   "(end_reason 'round_limit')", minimum=1, maximum=1000),
        CONTENT_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir())

    def new_initial_state(self) -> IAState:
        from . import rules, setup

        state = IAState(self, self.content)
        setup.begin(state)
        rules.advance(state)
        return state
