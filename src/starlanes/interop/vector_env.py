"""A Gymnasium vector environment: N games stepped in one process, batched arrays out.

``StarlanesVectorEnv(8, game="galactic-domination", opponents="heuristic", ...)`` takes
every keyword of :class:`~starlanes.interop.gymnasium_env.StarlanesEnv` (seat, opponents,
reward, observation, max_steps, game options) and holds ``num_envs`` of them. ``reset``
and ``step`` return batched arrays: observations of shape ``(num_envs, *tensor shape)``
(float32; with ``observation="dict"`` a dict of that and ``action_mask``, int8 of shape
``(num_envs, num_distinct_actions)``), rewards (float64), terminations and truncations
(bool), all of shape ``(num_envs,)``; ``action_masks()`` returns the bool masks of
shape ``(num_envs, num_distinct_actions)``, and ``info["action_mask"]`` holds them too.

Autoreset is Gymnasium's ``SAME_STEP`` mode: a game that ends in a step is reset in that
same step, so the returned observation and mask are the new game's and every row's mask
is always the one to act on; the finished game's last observation is in
``info["final_obs"]`` (an object array, filled where ``info["_final_obs"]`` is True) and
its info in ``info["final_info"]``. Environment ``i`` of ``reset(seed=s)`` is seeded
``s + i``; later episodes draw their seeds from each environment's generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from starlanes.engine import BadOptionError

from .gymnasium_env import StarlanesEnv


class StarlanesVectorEnv(VectorEnv):
    """See the module docstring. Raises BadOptionError for ``num_envs`` below 1 and the
    errors of StarlanesEnv for bad keywords."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, game: str = "galactic-domination",
                 **kwargs: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = num_envs
        self.envs = [StarlanesEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.observation_format = first.observation_format
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        shape = first.game.observation_tensor_shape()
        n = first.game.num_distinct_actions()
        self._tensors = np.zeros((num_envs, *shape), np.float32)
        self._masks = np.zeros((num_envs, n), np.int8)
        self.render_mode = None

    def _put(self, i: int, obs: Any) -> None:
        env = self.envs[i]
        if self.observation_format == "dict":
            self._tensors[i] = obs["observation"]
        else:
            self._tensors[i] = obs
        self._masks[i] = env._mask

    def _batch(self) -> Any:
        if self.observation_format == "dict":
            return {"observation": self._tensors.copy(), "action_mask": self._masks.copy()}
        return self._tensors.copy()

    def action_masks(self) -> np.ndarray:
        """The legal-action masks of the current observations, bool, shape
        ``(num_envs, num_distinct_actions)``."""
        return self._masks.astype(bool)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict | None = None) -> tuple[Any, dict[str, Any]]:
        seeds = seed if isinstance(seed, list) else \
            [None if seed is None else seed + i for i in range(self.num_envs)]
        if len(seeds) != self.num_envs:
            raise BadOptionError(f"{self.num_envs} seeds needed, got {len(seeds)}")
        seats = np.zeros(self.num_envs, np.int64)
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            obs, info = env.reset(seed=s, options=options)
            self._put(i, obs)
            seats[i] = info["seat"]
        return self._batch(), {"seat": seats, "action_mask": self._masks.copy()}

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise BadOptionError(f"one action per environment needed: shape "
                                 f"({self.num_envs},), got {actions.shape}")
        rewards = np.zeros(self.num_envs, np.float64)
        terms = np.zeros(self.num_envs, bool)
        truncs = np.zeros(self.num_envs, bool)
        seats = np.zeros(self.num_envs, np.int64)
        final_obs = np.full(self.num_envs, None, object)
        final_info = np.full(self.num_envs, None, object)
        ended = np.zeros(self.num_envs, bool)
        for i, env in enumerate(self.envs):
            obs, reward, term, trunc, info = env.step(int(actions[i]))
            rewards[i], terms[i], truncs[i] = reward, term, trunc
            if term or trunc:
                ended[i] = True
                final_obs[i], final_info[i] = obs, info
                obs, info = env.reset()
            self._put(i, obs)
            seats[i] = info["seat"]
        infos: dict[str, Any] = {"seat": seats, "action_mask": self._masks.copy()}
        if ended.any():
            infos.update(final_obs=final_obs, _final_obs=ended, final_info=final_info,
                         _final_info=ended)
        return self._batch(), rewards, terms, truncs, infos

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []
