"""The game-agnostic engine: state protocol, actions, decisions, RNG, records, registry.

The names of ``content`` and ``record`` (pydantic models) are imported on first use, so
that importing the engine (and the ``starlanes`` command) does not load pydantic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .action import Action, HiddenAction, shared
from .decision import Decision, SecretChoices, decision
from .errors import (
    ActionIndexError,
    AgentSpecError,
    BadOptionError,
    BadSeatError,
    ContentError,
    IllegalActionError,
    NotationError,
    RecordError,
    StarlanesError,
    UnknownGameError,
)
from .explain import ActionDescription, EntryText, Refusal
from .game import Game
from .options import (
    CONTENT_OPTION,
    CONTENT_SET_OPTION,
    SEAT_SETUP,
    SEAT_SETUP_OPTION,
    OptionSet,
    OptionSpec,
)
from .registry import game_class, game_ids, game_module, load, register
from .rng import GameRng, derive_seed, quick_shuffle
from .state import (
    SPECTATOR,
    TERMINAL,
    GameState,
    margin_values,
    shared_returns,
    softmax_values,
    weighted_positions,
)

if TYPE_CHECKING:
    from .content import ContentEntry, load_table, read_toml
    from .record import GameRecord, replay

_LAZY = {"ContentEntry": "content", "load_table": "content", "read_toml": "content",
         "GameRecord": "record", "replay": "record"}
"""Names imported from their module on first use: ``name -> module``."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

__all__ = [
    "Action", "ActionIndexError", "ActionDescription", "EntryText", "Refusal", "AgentSpecError", "CONTENT_OPTION", "CONTENT_SET_OPTION", "SEAT_SETUP", "SEAT_SETUP_OPTION", "BadOptionError", "BadSeatError", "ContentEntry", "ContentError", "Decision", "decision",
    "Game", "GameRecord", "HiddenAction", "GameRng", "GameState", "IllegalActionError", "NotationError",
    "OptionSet", "OptionSpec", "RecordError", "SecretChoices", "SPECTATOR", "StarlanesError", "TERMINAL",
    "UnknownGameError", "derive_seed", "shared", "game_class", "game_ids", "game_module", "margin_values", "load", "load_table",
    "softmax_values", "weighted_positions",
    "quick_shuffle", "read_toml", "register", "replay", "shared_returns",
]
