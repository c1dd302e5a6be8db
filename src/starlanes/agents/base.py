"""The agent interface shared by every bot."""

from __future__ import annotations

from abc import ABC, abstractmethod

from starlanes.engine import Action, GameState


class Agent(ABC):
    """A player program.

    ``name`` labels the agent in records and reports. ``act(state)`` returns one of
    ``state.legal_actions()`` for ``state.current_player()`` and must not change ``state``
    (search on ``state.clone()`` or ``state.determinize(...)``). Chance comes from the
    agent's own RNG, never from the state's, so an agent cannot alter the game's rolls.
    ``reset(seed)`` restarts the agent's RNG and forgets anything it learnt in a game.
    """

    name: str = "agent"

    @abstractmethod
    def act(self, state: GameState) -> Action:
        """The action to take in ``state`` (which is not terminal)."""

    def reset(self, seed: int) -> None:  # noqa: B027 - optional hook, no-op by default
        """Start afresh with ``seed``; agents without memory or RNG need not override."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
