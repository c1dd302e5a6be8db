"""The Interstellar Ambitions game object and its options (rulings in
docs/rulings/interstellar-ambitions.md)."""

from __future__ import annotations

from typing import Any

from starlanes.engine import (
    CONTENT_OPTION,
    CONTENT_SET_OPTION,
    BadOptionError,
    Game,
    OptionSet,
    OptionSpec,
    register,
)

from .content import load_content
from .state import IAState


@register
class InterstellarAmbitions(Game):
    """Interstellar Ambitions: 3-6 players (IA-SET-01), a card-driven empire game with an
    Action Track, hidden Shadow hands, secret combat orders and ambitions."""

    game_id = "interstellar-ambitions"
    title = "Interstellar Ambitions"
    version = "2"
    min_players = 3
    max_players = 6
    summary = "card-driven empire game: action track, planets, tech, ships, shadow cards"
    option_set = OptionSet((
        OptionSpec("ambitions", str, "drawn",
                   "'drawn': 3 passive + 3 active at random; 'core': 4 core ambitions every "
                   "game + 1 passive + 1 active drawn", choices=("drawn", "core"),
                   ruling="IA-OPEN-01"),
        OptionSpec("ambition_set", str, "",
                   "fix the ambitions in play: six comma-separated ambition ids, three "
                   "passive and three active (a designer's control); empty: as 'ambitions' "
                   "says", ruling="IA-OPEN-01"),
        OptionSpec("ambition_timing", str, "claim",
                   "an ambition's condition must hold when it is claimed in step 4 "
                   "('claim') or at some moment of the claimer's turn ('turn')",
                   choices=("claim", "turn"), ruling="IA-OPEN-21"),
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
        CONTENT_SET_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir(), self.content_overrides())
        self.fixed_ambitions = self._fixed_ambitions()

    def _fixed_ambitions(self) -> tuple[int, ...]:
        """The ``ambition_set`` option as ambition indices (empty: drawn at set-up).
        Raises BadOptionError unless it names six distinct known ambitions, three passive
        and three active, as the set-up deals (IA-SET-02/03)."""
        text = self.options["ambition_set"].strip()
        if not text:
            return ()
        c = self.content
        ids = [x.strip() for x in text.split(",")]
        unknown = [x for x in ids if x not in c.ambition_ids]
        if unknown:
            raise BadOptionError(f"option ambition_set: unknown ambition(s) "
                                 f"{', '.join(unknown)}; see 'starlanes cards "
                                 f"interstellar-ambitions --kind ambition'")
        if len(set(ids)) != len(ids):
            raise BadOptionError("option ambition_set names an ambition twice")
        index = [c.ambition_ids.index(x) for x in ids]
        passive = sum(1 for i in index if c.ambition_passive[i])
        if len(index) != 6 or passive != 3:
            raise BadOptionError(f"option ambition_set needs 3 passive and 3 active ambitions, "
                                 f"got {passive} passive and {len(index) - passive} active")
        return tuple(index)

    def new_initial_state(self) -> IAState:
        from . import rules, setup

        state = IAState(self, self.content)
        setup.begin(state)
        rules.advance(state)
        return state
