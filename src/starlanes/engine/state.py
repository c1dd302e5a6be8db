"""The state protocol every game implements (modelled on OpenSpiel's State).

A state is mutable: :meth:`GameState.apply` changes it in place. :meth:`clone` is cheap
and shares static data (map, unit types, cards) with the original. Subclasses implement the
``_``-prefixed hooks; the public methods here add legality checking, history and records.
"""

from __future__ import annotations

import hashlib
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .action import Action, HiddenAction
from .errors import BadSeatError, IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .game import Game
    from .record import GameRecord

TERMINAL = -4
"""``current_player()`` of a finished game (OpenSpiel's convention)."""

SPECTATOR = -1
"""The viewer of :meth:`GameState.public_observation`: no seat, so nothing hidden is shown."""


def shared_returns(winners: Sequence[int], players: int) -> list[float]:
    """Returns for ``players`` seats: 1.0 split evenly among ``winners`` (ties shared),
    0.0 for everyone else; all 0.0 when there is no winner."""
    if not winners:
        return [0.0] * players
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(players)]


def margin_values(scores: Sequence[float], scale: float,
                  out: Sequence[int] = ()) -> list[float]:
    """Leaf values for search, one per seat in [0, 1]: a logistic of each seat's score
    minus the best other seat's, divided by ``scale`` (in score units). Seats in ``out``
    (eliminated) get 0. With two seats the values sum to 1."""
    n = len(scores)
    values = []
    for i in range(n):
        if i in out:
            values.append(0.0)
            continue
        best = max(scores[j] for j in range(n) if j != i)
        z = max(-30.0, min(30.0, (scores[i] - best) / scale))
        values.append(1.0 / (1.0 + math.exp(-z)))
    return values


def weighted_positions(state: GameState,
                       features: Callable[[Any, int], Mapping[str, float]],
                       weights: Mapping[str, float]) -> list[float]:
    """Each seat's position score for a fitted leaf evaluation: the sum over ``weights``
    (feature name -> logits per unit) of the weight times ``features(state, seat)[name]``,
    one float per seat, for :func:`margin_values` or :func:`softmax_values`."""
    out = []
    for seat in range(state.game.players):
        f = features(state, seat)
        out.append(sum(w * f[k] for k, w in weights.items()))
    return out


def softmax_values(scores: Sequence[float]) -> list[float]:
    """Leaf values for search, one per seat in [0, 1] and summing to 1: the softmax of the
    seats' scores (in logits, as a conditional logit model fitted on self-play gives them),
    read as each seat's chance of winning. With two seats this is :func:`margin_values`
    with ``scale=1``."""
    top = max(scores)
    weights = [math.exp(max(-60.0, v - top)) for v in scores]
    total = sum(weights)
    return [w / total for w in weights]


class GameState(ABC):
    """Base class of every game's state.

    Public contract: ``current_player() -> int`` (seat 0..n-1, or TERMINAL),
    ``legal_actions() -> list[Action]`` (empty only when terminal), ``apply(action)``
    (raises :class:`IllegalActionError` and changes nothing when the action is not legal),
    ``is_terminal()``, ``returns() -> list[float]`` (1.0 winner, shared on ties),
    ``scores() -> list[int]`` (victory points), ``observation(seat) -> dict`` (JSON-ready,
    hidden information removed), ``clone()``, ``determinize(seat, rng)``, ``record()`` and
    ``digest() -> str``.

    Secret choices in the history: a game whose action is seen only by some seats (a card
    bought from a private offer, a face-down combat order) calls :meth:`_keep_secret` while
    applying it; :meth:`determinize` then shows that entry to other seats as a
    :class:`HiddenAction` (see :meth:`history_seen_by`), and :meth:`_reveal_secrets` makes
    such entries public again when the game reveals them.
    """

    __slots__ = ("game", "history", "_legal", "_secrets")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's ``observation`` refuses a seat that is not 0..n-1 or
        :data:`SPECTATOR` with :class:`BadSeatError`, before the game's code runs."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("observation")
        if own is not None and not getattr(own, "_checks_seat", False):
            def observation(self: GameState, seat: int, _own: Any = own) -> dict[str, Any]:
                self._check_seat(seat, spectator=True)
                return _own(self, seat)
            observation.__doc__ = own.__doc__
            observation._checks_seat = True  # type: ignore[attr-defined]
            cls.observation = observation  # type: ignore[method-assign]

    def _check_seat(self, seat: Any, spectator: bool = False) -> None:
        """Raise :class:`BadSeatError` unless ``seat`` is an int seat of this game (or
        :data:`SPECTATOR` when ``spectator``)."""
        n = self.game.players
        if (isinstance(seat, bool) or not isinstance(seat, int)
                or not (0 <= seat < n or (spectator and seat == SPECTATOR))):
            who = f"0-{n - 1}" + (f" or {SPECTATOR} (a spectator)" if spectator else "")
            raise BadSeatError(f"seat must be an integer {who}, got {seat!r}")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[Action] = []
        self._legal: list[Action] | None = None
        self._secrets: tuple[tuple[int, frozenset[int], str, str], ...] = ()

    # ----------------------------------------------------------------- to implement
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> None: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    @abstractmethod
    def scores(self) -> list[int]: ...

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]: ...

    @abstractmethod
    def _copy(self) -> GameState:
        """A copy whose mutable parts are independent; ``history`` is copied by the base."""

    @abstractmethod
    def _digest_payload(self) -> Any:
        """Every part of the state that matters for the future, as JSON-ready data."""

    def _resample_hidden(self, seat: int, rng: random.Random) -> None:
        """Resample what ``seat`` cannot see; games with hidden information override."""
        return None

    # ----------------------------------------------------------------- public API
    def legal_actions(self) -> list[Action]:
        """The actions the current player may take now; a fresh list each call."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        legal = self._legal
        for a in legal:
            if a is action:
                return True
        return action in legal

    def apply(self, action: Action) -> None:
        """Apply a legal action in place.

        Raises IllegalActionError (state unchanged) if ``action`` is not legal now.
        """
        if not self.is_legal(action):
            who = self.current_player()
            raise IllegalActionError(
                f"{action} is not a legal action for seat {who} now"
                if not self.is_terminal()
                else f"{action}: the game is over"
            )
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def apply_notation(self, text: str) -> Action:
        """Parse ``text`` with the game's notation, apply it, and return the action."""
        action = self.game.parse_action(self, text)
        self.apply(action)
        return action

    def clone(self) -> GameState:
        """An independent copy; static data (content, map) is shared, not copied."""
        c = self._copy()
        c.history = list(self.history)
        c._legal = self._legal
        c._secrets = self._secrets
        return c

    def __deepcopy__(self, memo: dict) -> GameState:
        """``copy.deepcopy`` is :meth:`clone`: the static data (content, map) is never
        copied (OpenSpiel's ``Clone`` of a Python state deep-copies its attributes)."""
        return self.clone()

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A clone in which everything ``seat`` cannot see is resampled with ``rng``.

        Hidden cards and tiles are reshuffled consistently with what ``seat`` knows, the
        clone's own RNG is reseeded from ``rng`` so future chance is not the real game's, and
        the clone's ``history`` is :meth:`history_seen_by` ``seat`` (other seats' secret
        choices replaced by :class:`HiddenAction`, same length).
        """
        self._check_seat(seat)
        c = self.clone()
        c._resample_hidden(seat, rng)
        c._redact_history(c.history, seat)
        c.reseed(rng.getrandbits(63))
        c._legal = None
        return c

    def public_observation(self) -> dict[str, Any]:
        """What a spectator may see: ``observation`` for :data:`SPECTATOR`, a viewer who
        holds no seat, so every seat's hidden information (hands, secret choices, deck
        order, face-down tiles) is left out. JSON-ready."""
        return self.observation(SPECTATOR)

    def turn_key(self) -> Hashable:
        """The game turn the pending decision belongs to, as the rules define turns: equal
        keys are one turn (a seat may make many decisions in its turn, and other seats may
        answer during it). The server's turn clocks add their increment once per turn and
        give a correspondence clock's time per turn, not per decision. Default: the number
        of actions played, so every decision is its own turn; a game whose rules have turns
        returns its own key (all four games: ``(round, seat whose turn it is)``)."""
        return len(self.history)

    def ends_undo(self, before: GameState, seat: int) -> bool:
        """Whether the last action, taken by ``seat`` in ``before``, can no longer be taken
        back (Board Game Arena's policy): it used chance (dice, a shuffle, a draw: the RNG
        moved, which may also have revealed a card or tile), it handed the decision to
        another seat, or it ended the game. Games that reveal hidden information without
        chance override this."""
        return (self.is_terminal() or self.current_player() != seat
                or self.rng.getstate() != before.rng.getstate())  # type: ignore[attr-defined]

    # ----------------------------------------------------------------- secrets
    def _keep_secret(self, seen_by: Sequence[int] | frozenset[int], shown: str,
                     topic: str = "") -> None:
        """Mark the action being applied (call from ``_apply``) as seen only by the seats
        ``seen_by``; other seats see ``shown`` instead. ``topic`` names the secret for
        :meth:`_reveal_secrets` (empty: never revealed)."""
        entry = (len(self.history), frozenset(seen_by), shown, topic)
        self._secrets = (*self._secrets, entry)

    def _reveal_secrets(self, topic: str) -> None:
        """Every seat now knows the secret actions marked with ``topic`` (e.g. combat orders
        once all are turned face up)."""
        if self._secrets and topic:
            self._secrets = tuple(e for e in self._secrets if e[3] != topic)

    def history_seen_by(self, seat: int) -> list[Action]:
        """The history as ``seat`` knows it: the same length, each secret action ``seat``
        did not see replaced by a :class:`HiddenAction` with its public part. ``seat`` may
        be :data:`SPECTATOR`; raises :class:`BadSeatError` for anything else."""
        self._check_seat(seat, spectator=True)
        history = list(self.history)
        self._redact_history(history, seat)
        return history

    def _redact_history(self, history: list[Action], seat: int) -> None:
        """Hook: rewrite ``history`` (a copy of this state's) in place as ``seat`` knows it.
        The default replaces the actions marked by :meth:`_keep_secret` that ``seat`` did
        not see; a game with secrets that cannot be marked action by action overrides it."""
        for index, seen_by, shown, _topic in self._secrets:
            if seat not in seen_by and index < len(history):
                history[index] = HiddenAction(shown)

    def reseed(self, seed: int) -> None:
        """Replace the state's RNG stream (used by determinisation)."""
        self.rng.seed(seed)  # type: ignore[attr-defined]

    def digest(self) -> str:
        """SHA-256 (hex, 16 chars) of the full state including the RNG position."""
        payload = self._digest_payload()
        data = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        h = hashlib.sha256(data.encode())
        h.update(repr(self.rng.getstate()).encode())  # type: ignore[attr-defined]
        return h.hexdigest()[:16]

    def record(self, seats: Sequence[str] | None = None) -> GameRecord:
        """The game record: game id, version, options, seed, seats and action notations."""
        from .record import GameRecord

        g = self.game
        return GameRecord(
            game=g.game_id,
            version=g.version,
            players=g.players,
            seed=g.seed,
            options={k: list(v) if isinstance(v, tuple) else v for k, v in g.options.items()
                     if not (k == "content_set" and not v)},
            seats=list(seats) if seats is not None else [],
            actions=[str(a) for a in self.history],
            digest=self.digest(),
            finished=self.is_terminal(),
            scores=self.scores(),
            content_fingerprint=g.content_fingerprint,
        )

    # ----------------------------------------------------------------- research interface
    def legal_action_mask(self) -> Any:
        """A numpy bool array of length ``game.num_distinct_actions()``, True exactly at
        the indices of the legal actions (all False when terminal). Needs numpy (the
        ``rl`` extra); raises ActionIndexError if a legal action is outside the space."""
        return self.game.action_space().legal_mask(self)

    def observation_tensor(self, seat: int) -> Any:
        """``observation(seat)`` as a fixed-shape float32 numpy array of shape
        ``game.observation_tensor_shape()``; it holds only what ``seat`` may see. The
        features are listed in docs/research.md. Needs numpy."""
        return self.game._companion("tensor").encode(self, seat)

    def action_log(self) -> list[str]:
        """Human-readable lines describing what happened (games override)."""
        return [str(a) for a in self.history]
