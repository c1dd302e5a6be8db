"""The Game object: a game id with its player count, seed and options.

``starlanes.load(game_id, players=, seed=, **options)`` returns one; its
``new_initial_state()`` starts a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import BadOptionError, NotationError
from .options import OptionSet

if TYPE_CHECKING:  # pragma: no cover
    from .action import Action
    from .state import GameState


class Game(ABC):
    """Base class of every game.

    Class attributes: ``game_id`` (e.g. ``"rift-domination"``), ``title``, ``version``
    (bumped when rules change so old records are refused), ``min_players``,
    ``max_players`` and ``option_set``.

    Raises BadOptionError for a player count out of range or an unknown/ill-typed option.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str] = "1"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_set: ClassVar[OptionSet] = OptionSet()
    summary: ClassVar[str] = ""

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptionError(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadOptionError(
                f"{self.game_id} is played by {self.min_players}-{self.max_players} players, "
                f"not {players}"
            )
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptionError(f"seed must be an integer, got {seed!r}")
        self.players = players
        self.seed = seed
        self.options = self.option_set.resolve(options)

    @abstractmethod
    def new_initial_state(self) -> GameState: ...

    def content_dir(self) -> Path | None:
        """The directory named by the ``content`` option, or None for the packaged files.

        Raises BadOptionError if the directory does not exist.
        """
        override = self.options.get("content", "")
        if not override:
            return None
        if not Path(override).is_dir():
            raise BadOptionError(f"content directory {override!r} does not exist")
        return Path(override)

    def parse_action(self, state: GameState, text: str) -> Action:
        """Read ``text`` as one of ``state``'s legal actions.

        Raises NotationError if no legal action has that notation.
        """
        want = " ".join(text.split())
        for a in state.legal_actions():
            if str(a) == want:
                return a
        raise NotationError(
            f"{text!r} is not a legal action for seat {state.current_player()} now"
        )

    def __repr__(self) -> str:
        return f"<{self.game_id} players={self.players} seed={self.seed} options={self.options}>"
