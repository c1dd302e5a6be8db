"""The ``learned`` agent: a Galactic Domination policy learned from play, evaluated with
numpy alone.

The weights (``learned_galactic_domination.npz`` beside this module) are a one-hidden-
layer MLP: the observation tensor's features listed in ``features``, each divided by its
``scale``, then ReLU units (``w1``, ``b1``), then one logit per index of the game's fixed
action space (``w2``, ``b2``). The agent plays the legal action with the highest logit,
ties broken by its own RNG, so it never plays an illegal move. How the weights were made
(data, budget, seeds, the command to reproduce them) is in docs/research.md, "A learned
bot"; ``examples/learned_galactic_domination/`` holds the scripts.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from starlanes.engine import Action, AgentSpecError, GameState

from .base import Agent

GAMES = ("galactic-domination",)
"""The games the agent has weights for."""

WEIGHTS = Path(__file__).with_name("learned_galactic_domination.npz")


@cache
def weights() -> dict[str, Any]:
    """The MLP's arrays as float32 (``features`` int); AgentSpecError when numpy or the
    weights file is missing."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy comes with scipy, a dependency
        raise AgentSpecError("the learned agent needs numpy") from None
    if not WEIGHTS.is_file():
        raise AgentSpecError(f"the learned agent's weights are missing ({WEIGHTS.name})")
    with np.load(WEIGHTS) as data:
        out = {k: data[k].astype(np.float32) for k in ("scale", "w1", "b1", "w2", "b2")}
        out["features"] = data["features"].astype(np.int64)
    return out


def logits(tensor: Any) -> Any:
    """The policy's logits (shape ``(num_distinct_actions,)``) for one observation tensor
    (shape ``(2907,)`` with the packaged content)."""
    import numpy as np

    w = weights()
    x = tensor[w["features"]] / w["scale"]
    hidden = np.maximum(x @ w["w1"] + w["b1"], 0.0)
    return hidden @ w["w2"] + w["b2"]


class LearnedAgent(Agent):
    """Plays the learned policy's best legal action (module docstring). Raises
    AgentSpecError for a game without weights."""

    def __init__(self, seed: int = 0, game_id: str = "galactic-domination") -> None:
        if game_id not in GAMES:
            raise AgentSpecError(f"the learned agent plays {', '.join(GAMES)} only, "
                                 f"not {game_id}")
        self.name = "learned"
        self.rng = random.Random(seed)
        weights()

    def reset(self, seed: int) -> None:
        self.rng.seed(seed)

    def act(self, state: GameState) -> Action:
        legal = state.game.action_space().legal_indices(state)
        if len(legal) == 1:
            return next(iter(legal.values()))
        scores = logits(state.observation_tensor(state.current_player()))
        best = max(float(scores[i]) for i in legal)
        top = [i for i in legal if float(scores[i]) >= best - 1e-6]
        return legal[top[0] if len(top) == 1 else self.rng.choice(sorted(top))]
