"""The game registry: game ids to Game classes."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any

from .errors import UnknownGameError
from .game import Game

_GAMES: dict[str, type[Game]] = {}
_LAZY: dict[str, str] = {
    "rift-domination": "starlanes.games.rift_domination",
    "galactic-domination": "starlanes.games.galactic_domination",
    "interstellar-ambitions": "starlanes.games.interstellar_ambitions",
    "galactic-empires": "starlanes.games.galactic_empires",
}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: register a Game subclass under its ``game_id``."""
    _GAMES[cls.game_id] = cls
    return cls


def game_class(game_id: str) -> type[Game]:
    """The Game class of ``game_id``; raises UnknownGameError naming the known games."""
    module = _LAZY.get(game_id)
    if game_id not in _GAMES and module and importlib.util.find_spec(module) is not None:
        importlib.import_module(module)
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {game_id!r}; known games: {', '.join(game_ids())}"
        ) from None


def game_ids() -> list[str]:
    """Registered game ids whose package is present."""
    out = set(_GAMES)
    for gid, module in _LAZY.items():
        if gid in out or importlib.util.find_spec(module) is None:
            continue
        try:
            importlib.import_module(module)
        except ImportError:  # a package still being written is not offered
            continue
        if gid in _GAMES:
            out.add(gid)
    return sorted(out)


def load(game_id: str, players: int | None = None, seed: int = 0, **options: Any) -> Game:
    """``starlanes.load("rift-domination", players=4, seed=7, round_limit=80)``."""
    return game_class(game_id)(players=players, seed=seed, **options)


def game_module(game: str | type[Game], name: str) -> ModuleType | None:
    """A companion module of a game's package (``heuristic``, ``render``, ``content``...),
    or None when the game has none. ``game`` is a registered id or a Game class. Raises
    UnknownGameError for an unknown id; an import error inside an existing module
    propagates."""
    cls = game_class(game) if isinstance(game, str) else game
    package = sys.modules[cls.__module__].__package__ or cls.__module__.rpartition(".")[0]
    full = f"{package}.{name}"
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as e:
        if e.name != full:
            raise
        return None
