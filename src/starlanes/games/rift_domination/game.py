"""The Rift Domination game object and its options."""

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
        OptionSpec("board", str, "standard",
                   "designed board: 'standard' (fewer one-planet systems, empty systems, "
                   "neutral garrisons) or 'classic' (the first designed map)",
                   choices=("standard", "classic"), ruling="RD-OPEN-06"),
        OptionSpec("occ_timing", str, "always",
                   "when any-time OCC-cards may be played: also in a window after every "
                   "other seat's turn ('always') or only in the owner's turn ('own_turn')",
                   choices=("always", "own_turn"), ruling="RD-OPEN-14"),
        OptionSpec("factions", str, "",
                   "fix each seat's faction, comma-separated faction ids in seat order "
                   "(e.g. 'iron_bastion,the_void'); empty: drawn at set-up with one repick",
                   ruling="RD-SET-09"),
        OptionSpec("warp_limit", str, "system",
                   "one warp per system in total ('system') or per player ('player')",
                   choices=("system", "player"), ruling="RD-OPEN-23"),
        OptionSpec("battle_fire", str, "simultaneous",
                   "within a battle phase both sides fire and casualties fall at its end "
                   "('simultaneous'), or the attacker's casualties fall before the defender "
                   "fires ('sequential')",
                   choices=("simultaneous", "sequential"), ruling="RD-OPEN-07"),
        OptionSpec("weapon_industry", str, "phase",
                   "Weapon Industry doubles the damage of every hit of the player's volleys "
                   "in the phase ('phase') or of one hit only ('one_shot')",
                   choices=("phase", "one_shot"), ruling="RD-OCC-07"),
        OptionSpec("repair_rush", str, "split",
                   "a unit's Repair Rush (4 damage a battle) may be split over several "
                   "phases ('split') or is used once, the rest lost ('once')",
                   choices=("split", "once"), ruling="RD-OPEN-16"),
        OptionSpec("huge_planet_vp", str, "each_capture",
                   "a huge central planet's VP are scored at every capture ('each_capture') "
                   "or once per player and planet ('once'), so retaking it pays nothing",
                   choices=("each_capture", "once"), ruling="RD-OPEN-21"),
        CONTENT_OPTION,
        CONTENT_SET_OPTION,
    ))

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        super().__init__(players=players, seed=seed, **options)
        self.content = load_content(self.content_dir(), self.content_overrides(),
                                    self.options["board"])
        self.board = board_for(self, wormholes=False)
        self.fixed_factions = self._fixed_factions()

    def _fixed_factions(self) -> tuple[str, ...]:
        """The ``factions`` option as one faction id per seat (empty: drawn at set-up).
        Raises BadOptionError for a wrong count, an unknown id or a faction named twice."""
        text = self.options["factions"].strip()
        if not text:
            return ()
        ids = tuple(x.strip() for x in text.split(","))
        if len(ids) != self.players:
            raise BadOptionError(f"option factions names {len(ids)} factions for "
                                 f"{self.players} seats")
        unknown = [x for x in ids if x not in self.content.factions]
        if unknown:
            raise BadOptionError(f"option factions: unknown faction(s) {', '.join(unknown)}; "
                                 f"see 'starlanes cards rift-domination --kind faction'")
        if len(set(ids)) != len(ids):
            raise BadOptionError("option factions names a faction twice")
        return ids

    def new_initial_state(self) -> RiftState:
        from . import setup

        state = RiftState(self, self.content, self.board)
        setup.begin(state)
        return state
