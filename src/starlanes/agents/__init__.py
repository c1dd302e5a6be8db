"""Agents: players that see only the engine API.

``make_agent("random", "rift-domination", seed=1)`` builds one from a spec string; every
agent has a ``name`` and ``act(state) -> Action`` and draws chance from its own RNG, never
from the game's.
"""

from .base import Agent
from .random_agent import RandomAgent
from .registry import AGENT_NAMES, make_agent, parse_spec

__all__ = ["AGENT_NAMES", "Agent", "RandomAgent", "make_agent", "parse_spec"]
