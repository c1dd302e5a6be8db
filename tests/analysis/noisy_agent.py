"""A test agent that writes to standard output at both levels (Python's print and the file
descriptor) while it plays, the way a library warning would: the lab's ``--json`` output
must stay one JSON object regardless (issue 28)."""

from __future__ import annotations

import os
import random

from starlanes.agents import Agent
from starlanes.engine import Action, GameState


class NoisyAgent(Agent):
    """Plays uniformly at random and prints a line to stdout on its first decision."""

    name = "noisy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.spoke = False

    def act(self, state: GameState) -> Action:
        if not self.spoke:
            print("library warning: something on stdout", flush=True)
            os.write(1, b"C-level warning on descriptor 1\n")
            self.spoke = True
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]
