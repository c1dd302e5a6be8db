"""The game-agnostic engine: state protocol, actions, decisions, RNG, records, registry."""

from .action import Action
from .content import ContentEntry, load_table, read_toml
from .decision import Decision, SecretChoices
from .errors import (
    AgentSpecError,
    BadOptionError,
    ContentError,
    IllegalActionError,
    NotationError,
    RecordError,
    StarlanesError,
    UnknownGameError,
)
from .game import Game
from .options import CONTENT_OPTION, OptionSet, OptionSpec
from .record import GameRecord, replay
from .registry import game_class, game_ids, game_module, load, register
from .rng import GameRng, derive_seed, quick_shuffle
from .state import TERMINAL, GameState, margin_values, shared_returns

__all__ = [
    "Action", "AgentSpecError", "CONTENT_OPTION", "BadOptionError", "ContentEntry", "ContentError", "Decision",
    "Game", "GameRecord", "GameRng", "GameState", "IllegalActionError", "NotationError",
    "OptionSet", "OptionSpec", "RecordError", "SecretChoices", "StarlanesError", "TERMINAL",
    "UnknownGameError", "derive_seed", "game_class", "game_ids", "game_module", "margin_values", "load", "load_table",
    "quick_shuffle", "read_toml", "register", "replay", "shared_returns",
]
