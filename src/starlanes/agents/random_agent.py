"""The uniform random agent."""

from __future__ import annotations

import random

from starlanes.engine import Action, GameState

from .base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions with its own ``random.Random(seed)``."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)

    def act(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is no action to choose")
        return actions[self.rng.randrange(len(actions))]
