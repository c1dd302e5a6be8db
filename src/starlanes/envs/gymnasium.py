"""Gymnasium environments of the starlanes games (see
:mod:`starlanes.interop.gymnasium_env`); importing registers ``starlanes/<Game>-v0``.
:class:`StarlanesVectorEnv` steps N games in one process with batched arrays, and
:class:`OpponentPool` mixes fixed bots and snapshots of the learner."""

from starlanes.interop.gymnasium_env import ENV_IDS, StarlanesEnv, register
from starlanes.interop.opponents import OpponentPool, PolicyAgent
from starlanes.interop.rewards import REWARD_MODES
from starlanes.interop.vector_env import StarlanesVectorEnv

__all__ = ["ENV_IDS", "REWARD_MODES", "OpponentPool", "PolicyAgent", "StarlanesEnv",
           "StarlanesVectorEnv", "register"]
