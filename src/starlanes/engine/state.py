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
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .action import Action
from .errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    import random

    from .game import Game
    from .record import GameRecord

TERMINAL = -4
"""``current_player()`` of a finished game (OpenSpiel's convention)."""


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


class GameState(ABC):
    """Base class of every game's state.

    Public contract: ``current_player() -> int`` (seat 0..n-1, or TERMINAL),
    ``legal_actions() -> list[Action]`` (empty only when terminal), ``apply(action)``
    (raises :class:`IllegalActionError` and changes nothing when the action is not legal),
    ``is_terminal()``, ``returns() -> list[float]`` (1.0 winner, shared on ties),
    ``scores() -> list[int]`` (victory points), ``observation(seat) -> dict`` (JSON-ready,
    hidden information removed), ``clone()``, ``determinize(seat, rng)``, ``record()`` and
    ``digest() -> str``.
    """

    __slots__ = ("game", "history", "_legal")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[Action] = []
        self._legal: list[Action] | None = None

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
        return c

    def determinize(self, seat: int, rng: random.Random) -> GameState:
        """A clone in which everything ``seat`` cannot see is resampled with ``rng``.

        Hidden cards and tiles are reshuffled consistently with what ``seat`` knows, and the
        clone's own RNG is reseeded from ``rng`` so future chance is not the real game's.
        """
        c = self.clone()
        c._resample_hidden(seat, rng)
        c.reseed(rng.getrandbits(63))
        c._legal = None
        return c

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
            options=dict(g.options),
            seats=list(seats) if seats is not None else [],
            actions=[str(a) for a in self.history],
            digest=self.digest(),
            finished=self.is_terminal(),
            scores=self.scores(),
        )

    def action_log(self) -> list[str]:
        """Human-readable lines describing what happened (games override)."""
        return [str(a) for a in self.history]
