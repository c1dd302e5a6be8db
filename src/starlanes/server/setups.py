"""What a seat brings to a game (the engine's ``seat_setup`` option: a deck of one's own in
a Galactic Empires Standard Game), on the server, without knowing what it is.

- :func:`checked_setups`: the per-seat setups of a create request, checked by loading the
  game with them (422 naming the game's reason: the rule and the card).
- :func:`join_setup`: a seat's setup brought on join, before the first move: the game's
  options and the rebuilt game with it.

The routes of a setup builder (the deck builder page ``/decks``) are
:mod:`.setup_routes`'.

A seat's setup is hidden information: the lobby leaves it out, views are built from
observations (which never hold it), and the record (only once the game is over) has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from starlanes.engine import SEAT_SETUP, BadOptionError, Game, load

from .errors import Forbidden, Unprocessable

if TYPE_CHECKING:  # pragma: no cover
    from .tables import LiveGame

MAX_SETUP = 2000
"""The longest setup text taken (characters)."""


def _load_with(game_id: str, players: int, seed: int, engine_opts: dict[str, Any],
               texts: list[str]) -> Game:
    try:
        return load(game_id, players=players, seed=seed,
                    **{**engine_opts, SEAT_SETUP: tuple(texts)})
    except BadOptionError as e:
        raise Unprocessable(str(e)) from None


def checked_setups(game: Game, opts: dict[str, Any], engine_opts: dict[str, Any],
                   setups: Sequence[str]) -> dict[str, Any]:
    """The stored options of a new game with its seats' ``setups`` (one text per seat, ''
    for none), checked by the game. Raises Unprocessable (422): more texts than seats, a
    setup for a game whose seats bring none, or the game's reason for refusing one."""
    texts = [t.strip() for t in setups]
    if not any(texts):
        return opts
    if len(texts) > game.players:
        raise Unprocessable(f"'setup' holds {len(texts)} entries for {game.players} seats")
    if not game.seat_setup_kind():
        raise Unprocessable(f"seats of {game.title} bring nothing with these options "
                            "(Galactic Empires: a deck in the Standard Game)")
    texts += [""] * (game.players - len(texts))
    _load_with(game.game_id, game.players, game.seed, engine_opts, texts)
    return {**opts, SEAT_SETUP: texts}


def join_setup(live: LiveGame, seat: int, text: str,
               engine_options: Any) -> tuple[dict[str, Any], Game]:
    """The game's stored options with ``seat``'s setup ``text``, and the game loaded with
    them (its initial state dealt from it). ``engine_options`` turns stored options into
    the engine's. Raises Forbidden once a move is played, Unprocessable (422) for a game
    whose seats bring nothing or the game's reason for refusing the setup."""
    game = live.game
    if not game.seat_setup_kind():
        raise Unprocessable(f"seats of {game.title} bring nothing with these options "
                            "(Galactic Empires: a deck in the Standard Game)")
    if live.seq:
        raise Forbidden("a seat brings its deck before the game's first move")
    texts = list(live.row.options.get(SEAT_SETUP) or [""] * game.players)
    texts += [""] * (game.players - len(texts))
    texts[seat] = text.strip()
    opts = {**live.row.options, SEAT_SETUP: texts}
    loaded = _load_with(game.game_id, game.players, live.row.seed, engine_options(opts),
                        texts)
    return opts, loaded
