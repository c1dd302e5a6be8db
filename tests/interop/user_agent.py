"""A user's agent, imported by path in the tournament test (``tests.interop.user_agent:
FirstLegal``): it plays the first legal action, or the last with ``pick=last``."""

from __future__ import annotations

from starlanes.agents import Agent


class FirstLegal(Agent):
    def __init__(self, seed: int, pick: str = "first") -> None:
        self.pick = pick

    def act(self, state):
        actions = state.legal_actions()
        return actions[0] if self.pick == "first" else actions[-1]


class NotAnAgent:
    pass


class Greedy(Agent):
    """The example of docs/research.md: plays the action that most raises its score one
    step ahead among ``tries`` shuffled legal actions."""

    def __init__(self, seed: int, tries: str = "20") -> None:
        import random

        self.rng = random.Random(seed)
        self.tries = int(tries)

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)

    def act(self, state):
        me = state.current_player()
        actions = state.legal_actions()
        self.rng.shuffle(actions)

        def gain(action):
            after = state.clone()
            after.apply(action)
            return after.scores()[me]

        return max(actions[: self.tries], key=gain)
