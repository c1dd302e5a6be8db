"""What a request may name, checked against the server's configuration: bots by catalogue
name, content packs by name, game options that are options, printable display names.

Nothing a request says is ever an import path, a file path or an agent parameter: seat kinds
are looked up in the bot catalogue, ``options.content`` in the registered content packs,
and only then turned into the agent spec and directory the engine needs. Stored games keep
the names, so a game created under one configuration is played under the current one.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from starlanes.engine import GameRecord, game_class

from .config import HUMAN, BotEntry, ServerConfig
from .errors import Unprocessable

MAX_NAME = 40
"""The longest display name (characters)."""

NOT_OPTIONS = {
    "seed": "the seed is not an option: give 'seed' beside 'options' (the game is then "
            "marked as seeded by its creator), or leave it out for a secret random seed",
    "players": "the player count is not an option: give 'players' beside 'options'",
    "content_set": "content overrides are not taken from requests: the server offers its "
                   "content packs by name ('content')",
    "seat_setup": "what a seat brings (a deck code) is given per seat: 'setup' on create "
                  "(one per seat) or on join, never in 'options'",
}

FALLBACK_BOT = "heuristic"
"""The agent that plays for a bot whose game spent its thinking budget (and for a turn
clock that ran out): it does not search."""


class Catalogue:
    """The bots and content packs of a server's configuration, and the checks of what a
    request names. Raises :class:`~.errors.Unprocessable` (422) naming the problem."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config

    # ------------------------------------------------------------------ what is offered
    def public(self) -> dict[str, Any]:
        """The bots and content packs as the lobby lists them (names, help, budgets; never
        an agent spec or a directory)."""
        return {
            "bots": [{"name": b.name, "help": b.help, "seconds": b.seconds,
                      "games": list(b.games)} for b in self.config.bots],
            "content_packs": [{"name": p.name, "game": p.game, "help": p.help}
                              for p in self.config.content_packs],
        }

    # ------------------------------------------------------------------ seats
    def seat_kind(self, text: Any, game: str | None = None) -> str:
        """``human`` or the catalogue name of a bot, from what a request named (for
        ``game``: a bot made for other games is refused)."""
        if not isinstance(text, str):
            raise Unprocessable("a seat is 'human' or a bot's name")
        key = text.strip().lower()
        if key == HUMAN:
            return HUMAN
        entry = self.config.bot(key)
        offered = [b.name for b in self.config.bots_for(game)]
        if entry is None or key not in offered:
            where = f" for {game}" if game is not None and entry is not None else ""
            raise Unprocessable(f"{text[:40]!r} is not a seat this server offers{where}: "
                                f"'human' or one of the bots {', '.join(offered)}")
        return key

    def bot(self, kind: str) -> BotEntry | None:
        """The catalogue entry a stored seat kind names, or None when the catalogue no
        longer has it (or the kind was stored before bots were named by catalogue)."""
        return self.config.bot(kind)

    # ------------------------------------------------------------------ options
    def check_options(self, game: str, options: Any) -> dict[str, Any]:
        """The options of a create request, as stored: refuses what is not an option, and
        a ``content`` that is not the name of a pack registered for ``game``."""
        if not isinstance(options, dict):
            raise Unprocessable("options must be an object of option names and values")
        for key, why in NOT_OPTIONS.items():
            if key in options:
                raise Unprocessable(why)
        content = options.get("content", "")
        if content not in ("", None):
            self._pack_path(game, content)
        return {k: v for k, v in options.items() if not (k == "content" and not v)}

    def engine_options(self, game: str, options: dict[str, Any]) -> dict[str, Any]:
        """Stored options as the engine takes them: a content pack name becomes its
        directory."""
        content = options.get("content")
        if not content:
            return dict(options)
        return {**options, "content": self._pack_path(game, content)}

    def public_record(self, record: GameRecord, options: dict[str, Any]) -> GameRecord:
        """A record as clients get it: the content pack by its name, not its directory."""
        opts = dict(record.options)
        if options.get("content"):
            opts["content"] = options["content"]
        return record.model_copy(update={"options": opts})

    def _pack_path(self, game: str, name: Any) -> str:
        if not isinstance(name, str):
            raise Unprocessable("'content' names a content pack of this server")
        pack = self.config.pack(game, name)
        if pack is None:
            names = [p.name for p in self.config.content_packs if p.game == game]
            offered = (f"its packs for {game} are {', '.join(names)}" if names
                       else f"it has no content packs for {game}")
            raise Unprocessable(f"{name[:40]!r} is not a content pack of this server; "
                                f"{offered} (leave 'content' out for the packaged content)")
        return str(pack.path)

    def check_game(self, game: Any) -> str:
        """The game id, or 422 naming the known games."""
        if not isinstance(game, str):
            raise Unprocessable("'game' names one of the games")
        game_class(game)  # BadOptionError (400) naming the known games
        return game


def display_name(name: Any) -> str:
    """A display name as stored: printable text of 1 to :data:`MAX_NAME` characters with its
    runs of spaces made one. Raises Unprocessable for control or format characters (escape
    sequences, bidi overrides), an empty name or a longer one."""
    if not isinstance(name, str):
        raise Unprocessable("a display name is text")
    for ch in name:
        # tab and line breaks are plain white space, folded below
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in "\t\n\r":
            raise Unprocessable(f"a display name may not hold control characters "
                                f"(U+{ord(ch):04X})")
    clean = " ".join(name.split())
    if not clean:
        raise Unprocessable("a display name is needed to join")
    if len(clean) > MAX_NAME:
        raise Unprocessable(f"a display name has at most {MAX_NAME} characters, this one "
                            f"{len(clean)}")
    return clean
