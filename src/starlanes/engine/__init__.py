"""The game-agnostic engine: state protocol, actions, decisions, RNG, records, registry."""

from .action import Action, HiddenAction
from .content import ContentEntry, load_table, read_toml
from .decision import Decision, SecretChoices
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
from .record import GameRecord, replay
from .registry import game_class, game_ids, game_module, load, register
from .rng import GameRng, derive_seed, quick_shuffle
from .state import SPECTATOR, TERMINAL, GameState, margin_values, shared_returns

__all__ = [
    "Action", "ActionIndexError", "ActionDescription", "EntryText", "Refusal", "AgentSpecError", "CONTENT_OPTION", "CONTENT_SET_OPTION", "SEAT_SETUP", "SEAT_SETUP_OPTION", "BadOptionError", "BadSeatError", "ContentEntry", "ContentError", "Decision",
    "Game", "GameRecord", "HiddenAction", "GameRng", "GameState", "IllegalActionError", "NotationError",
    "OptionSet", "OptionSpec", "RecordError", "SecretChoices", "SPECTATOR", "StarlanesError", "TERMINAL",
    "UnknownGameError", "derive_seed", "game_class", "game_ids", "game_module", "margin_values", "load", "load_table",
    "quick_shuffle", "read_toml", "register", "replay", "shared_returns",
]
