"""Adapters to research frameworks (PettingZoo, Gymnasium), over any game that has a fixed
action space and an observation tensor (``Game.action_space``, ``observation_tensor``).

They need the ``rl`` extra (``pip install "starlanes[rl]"``); this package knows no game.
"""

from __future__ import annotations

from typing import Any


def spaces_for(game: Any) -> tuple[Any, Any]:
    """Gymnasium spaces of ``game``: the observation space, a Dict of ``observation``
    (float32 Box of ``game.observation_tensor_shape()``) and ``action_mask`` (int8 0/1
    Box of ``game.num_distinct_actions()``), and the Discrete action space."""
    import numpy as np
    from gymnasium import spaces

    n = game.num_distinct_actions()
    obs = spaces.Dict({
        "observation": spaces.Box(-np.inf, np.inf, game.observation_tensor_shape(),
                                  dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
    })
    return obs, spaces.Discrete(n)
