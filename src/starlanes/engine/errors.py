"""Errors raised by starlanes.

Every error that bad input can cause is a subclass of :class:`StarlanesError` and is raised
*before* any state is changed, so the caller may catch it and carry on with the same state.
"""

from __future__ import annotations


class StarlanesError(Exception):
    """Base class of every error starlanes raises on bad input."""


class IllegalActionError(StarlanesError):
    """An action was applied that is not among the current legal actions.

    The state is left exactly as it was.
    """


class NotationError(IllegalActionError):
    """A text notation could not be read as an action of the game, or names no legal action."""


class BadOptionError(StarlanesError):
    """An unknown game option, or an option value of the wrong type or out of range."""


class BadSeatError(StarlanesError):
    """A seat that is not an integer 0..players-1 (or the spectator, -1, where a viewer
    without a seat is allowed) was asked for."""


class UnknownGameError(BadOptionError):
    """A game id that is not registered."""


class ContentError(StarlanesError):
    """A content file (TOML) is missing, malformed, or breaks its schema.

    The message names the file and, where known, the entry.
    """


class RecordError(StarlanesError):
    """A game record is malformed, names an unknown game, or does not replay to its digest."""


class AgentSpecError(BadOptionError):
    """An agent spec such as ``mcts:iterations=400`` could not be read."""


class ActionIndexError(StarlanesError):
    """An action or action index outside a game's fixed action space, or an index that
    names no legal action in the given state."""
