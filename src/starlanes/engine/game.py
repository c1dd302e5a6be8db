"""The Game object: a game id with its player count, seed and options.

``starlanes.load(game_id, players=, seed=, **options)`` returns one; its
``new_initial_state()`` starts a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .errors import ActionIndexError, BadOptionError, NotationError
from .options import OptionSet

SEED_MIN = -(2**63)
"""The smallest seed a game accepts (seeds are 64-bit: signed or unsigned)."""
SEED_MAX = 2**64 - 1
"""The largest seed a game accepts."""

if TYPE_CHECKING:  # pragma: no cover
    from .action import Action
    from .action_space import ActionSpace
    from .explain import ActionDescription, EntryText, Refusal
    from .state import GameState


T = TypeVar("T")

_SPACES: dict[tuple[Any, ...], ActionSpace] = {}
"""Action spaces already built, by game class, player count, content and options."""
_COMPANIONS: dict[tuple[type, str], Any] = {}
"""Companion modules already imported, by game class and module name."""

_PER_CONTENT: dict[tuple[Any, ...], tuple[Any, Any]] = {}
_LAST_BUILT: dict[Any, tuple[Any, Any]] = {}
"""Per ``build`` of :func:`per_content`: the last game asked and its value."""


def per_content(game: Game, build: Callable[[Game], T], *, by_players: bool = True) -> T:
    """``build(game)``, made once for every Game of the same class, loaded content and
    (unless ``by_players`` is false) player count, then shared: the static tables a game's
    action space or observation tensor derives from its content. The content is told by
    its fingerprint, or by identity when it has none. At most 64 values are kept, and
    each ``build``'s last game is answered at once (an encoder asks at every step)."""
    last = _LAST_BUILT.get(build)
    if last is not None and last[0] is game:
        return last[1]
    content = getattr(game, "content", None)
    ident = (build, type(game), game.content_fingerprint or id(content),
             game.players if by_players else None)
    found = _PER_CONTENT.get(ident)
    if found is not None and (game.content_fingerprint or found[0] is content):
        value = found[1]
    else:
        value = build(game)
        if len(_PER_CONTENT) >= 64:
            _PER_CONTENT.pop(next(iter(_PER_CONTENT)))
        _PER_CONTENT[ident] = (content, value)
    if len(_LAST_BUILT) >= 64:
        _LAST_BUILT.clear()
    _LAST_BUILT[build] = (game, value)
    return value


class Game(ABC):
    """Base class of every game.

    Class attributes: ``game_id`` (e.g. ``"rift-domination"``), ``title``, ``version``
    (bumped when rules change so old records are refused), ``min_players``,
    ``max_players`` and ``option_set``.

    Raises BadOptionError for a player count out of range or an unknown/ill-typed option.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str] = "1"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_set: ClassVar[OptionSet] = OptionSet()
    summary: ClassVar[str] = ""

    def __init__(self, players: int | None = None, seed: int = 0, **options: Any) -> None:
        if players is None:
            players = self.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptionError(f"players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = (f"exactly {self.min_players}" if self.min_players == self.max_players
                    else f"{self.min_players}-{self.max_players}")
            raise BadOptionError(f"{self.game_id} is played by {span} players, not {players}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptionError(f"seed must be an integer, got {seed!r}")
        if not SEED_MIN <= seed <= SEED_MAX:
            raise BadOptionError(f"seed must fit in 64 bits ({SEED_MIN} to {SEED_MAX}), "
                                 f"got {seed}")
        self.players = players
        self.seed = seed
        self.options = self.option_set.resolve(options)
        if self.options.get("content"):
            self.options["content"] = str(Path(self.options["content"]).expanduser().resolve())

    @abstractmethod
    def new_initial_state(self) -> GameState: ...

    def __deepcopy__(self, memo: dict) -> Game:
        """A Game is its configuration and loaded content, never changed once made: a deep
        copy is the game itself (states that deep-copy their game share it)."""
        return self

    def content_dir(self) -> Path | None:
        """The directory named by the ``content`` option, or None for the packaged files.

        Raises BadOptionError if the directory does not exist.
        """
        override = self.options.get("content", "")
        if not override:
            return None
        if not Path(override).is_dir():
            raise BadOptionError(f"content directory {override!r} does not exist")
        return Path(override)

    def content_overrides(self) -> tuple[str, ...]:
        """The dotted content overrides (``units.destroyer.cost=2``) of the ``content_set``
        option, applied after the content directory."""
        return tuple(self.options.get("content_set", ()))

    def seat_setup_kind(self) -> str:
        """What a seat may bring to this game as loaded (its ``seat_setup`` option, e.g.
        ``"deck"``), or "" when seats bring nothing. A server asks it before taking a
        seat's setup; the game's companion module ``seat_setup`` builds and checks it."""
        return ""

    @property
    def content_fingerprint(self) -> str:
        """SHA-256 (hex) of the merged content this game was loaded with; empty for a game
        without content files."""
        return str(getattr(getattr(self, "content", None), "fingerprint", ""))

    def parse_action(self, state: GameState, text: str) -> Action:
        """Read ``text`` as one of ``state``'s legal actions.

        Raises NotationError if no legal action has that notation (or ``text`` is no str).
        """
        if not isinstance(text, str):
            raise NotationError(f"an action's notation is text, got {text!r}")
        want = " ".join(text.split())
        for a in state.legal_actions():
            if str(a) == want:
                return a
        raise NotationError(
            f"{text!r} is not a legal action for seat {state.current_player()} now"
        )

    # ------------------------------------------------------------- explanations
    def _companion(self, name: str) -> Any:
        module = _COMPANIONS.get((type(self), name))
        if module is None:
            from .registry import game_module

            module = game_module(type(self), name)
            if module is None:
                raise NotImplementedError(f"{self.game_id} has no {name} module")
            _COMPANIONS[type(self), name] = module
        return module

    def read_action(self, state: GameState, text: str) -> Action:
        """Read a human's ``text`` as a legal action: exact notation, then ignoring case,
        then an unambiguous prefix (``home e2`` for ``home E2a`` when only one matches).

        Raises NotationError whose message is :meth:`explain_refusal`'s reason.
        """
        from .explain import resolve_notation

        if not isinstance(text, str):
            raise NotationError(f"an action's notation is text, got {text!r}")
        action, _ = resolve_notation(state.legal_actions(), text)
        if action is not None:
            return action
        refusal = self.explain_refusal(state, text)
        raise NotationError(str(refusal) if refusal else f"{text!r} is not legal now")

    def describe(self, state: GameState, action: Action) -> ActionDescription:
        """What the legal ``action`` does in ``state``: text, cost, changes, rule IDs and
        the rules-reference section (see :mod:`starlanes.engine.explain`)."""
        return self._companion("explain").describe(state, action)

    def label(self, state: GameState, action: Action) -> str:
        """The few words on the legal ``action``'s button (``"Draw a card"``): the game's
        ``explain.label`` (see :mod:`starlanes.engine.explain`)."""
        return self._companion("explain").label(state, action)

    def explain_refusal(self, state: GameState, text: str) -> Refusal | None:
        """Why ``text`` is not a legal action now (None when it resolves to one): the game's
        specific reason when it has one, else the engine's generic analysis, with the
        nearest legal notations (searched for only when the reason found has none)."""
        from dataclasses import replace

        from .explain import generic_refusal, nearest_notations
        from .registry import game_module

        legal = [] if state.is_terminal() else state.legal_actions()
        generic = generic_refusal(state, text, legal, nearest=False)
        if generic is None:
            return None
        if generic.kind in ("empty", "game_over", "ambiguous"):
            return generic
        module = game_module(type(self), "explain")
        specific = module.refusal(state, text) if module is not None else None
        found = specific if specific is not None else generic
        if not found.nearest:
            found = replace(found, nearest=nearest_notations(legal, text))
        return found

    def entries(self, kind: str | None = None) -> list[EntryText]:
        """Every content entry of this game (as loaded with its options and content), or
        only those of ``kind`` (``faction``, ``unit``, ``card`` ...)."""
        found = self._companion("catalogue").entries(self)
        return [e for e in found if kind is None or e.kind == kind]

    def layout(self, state: GameState) -> dict[str, Any]:
        """Static, public drawing data for a table (board geometry, names and statistics of
        content), from the game's companion module ``layout``; ``{}`` when it has none.
        Reveals nothing: it is the same for every seat and spectator."""
        from .registry import game_module

        module = game_module(type(self), "layout")
        return module.layout(state) if module is not None else {}

    # ------------------------------------------------------------- research interface
    def action_space(self) -> ActionSpace:
        """The game's fixed action space at this player count and content (see
        :mod:`starlanes.engine.action_space`), built from its ``action_space`` companion
        module once for every Game of the same class, player count, options and content
        (so a new game with another seed keeps the space's remembered indices). Raises
        NotImplementedError for a game without one."""
        space = self.__dict__.get("_action_space")
        if space is None:
            ident = (type(self), self.players, self.content_fingerprint,
                     repr(sorted(self.options.items())))
            space = _SPACES.get(ident)
            if space is None:
                module = self._companion("action_space")
                from .action_space import ActionSpace

                space = ActionSpace(module.families(self), module.key,
                                    getattr(module, "STATELESS_KEYS", False),
                                    getattr(module, "legal_index_map", None))
                if len(_SPACES) >= 64:
                    _SPACES.pop(next(iter(_SPACES)))
                _SPACES[ident] = space
            self.__dict__["_action_space"] = space
        return space

    def num_distinct_actions(self) -> int:
        """How many actions the fixed action space numbers (the length of every mask)."""
        return self.action_space().size

    def action_to_index(self, action: Action, state: GameState | None = None) -> int:
        """The fixed index of ``action``. ``state`` is the state it is legal in; games
        whose notation names changing things (ship numbers) need it to find the stable
        slot. Raises ActionIndexError outside the space or without a needed state."""
        space = self.action_space()
        return space.index(space.key(state, action))  # type: ignore[arg-type]

    def index_to_action(self, state: GameState, index: int) -> Action:
        """The legal action of ``state`` numbered ``index``. Raises ActionIndexError if
        ``index`` is outside the space or names no legal action now."""
        space = self.action_space()
        action = None if isinstance(index, bool) else space.legal_indices(state).get(index)
        if action is None:
            key = space.key_at(index)  # raises for an index outside the space
            raise ActionIndexError(f"action index {index} ({' '.join(key)}) is not legal now")
        return action

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`GameState.observation_tensor` (float32), from the game's
        ``tensor`` companion module."""
        return tuple(self._companion("tensor").shape(self))

    def __repr__(self) -> str:
        return f"<{self.game_id} players={self.players} seed={self.seed} options={self.options}>"
