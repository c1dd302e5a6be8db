"""Reward modes shared by the research adapters: ``result``, ``score`` and ``dense``.

Every adapter takes ``reward=`` one of :data:`REWARD_MODES`:

- ``"result"``: the seat's ``returns()`` entry when the game ends (1 to the winner, shared
  on ties, 0 otherwise), 0 on every other step. Episode sum in [0, 1].
- ``"score"``: when the game ends, the seat's *margin*: its score minus the best other
  seat's, divided by the game's ``margin_scale`` (research.toml) and clipped to [-1, 1];
  0 on every other step. Episode sum in [-1, 1]. Scores are ``state.scores()``: fleet
  value in minerals (Galactic Domination), VP (Rift Domination, Interstellar Ambitions),
  Sector HQ points left (Galactic Empires).
- ``"zero_sum"``: the result as a zero-sum utility, paid when the game ends: each seat's
  ``result`` minus the mean of the other seats' results, 0 on every other step. With two
  players a win is 1, a loss -1 and a shared result 0; with ``n`` a lone winner gets 1
  and each other seat ``-1/(n-1)``. Episode sum in [-1, 1]; the seats' sums add up to 0
  at every player count (what two-player zero-sum algorithms, minimax, CFR and
  AlphaZero-style self-play, assume).
- ``"dense"``: potential-based shaping (Ng, Harada and Russell, 1999) on top of
  ``result``. The potential of a running state is ``dense_weight`` (0.5) times the seat's
  clipped margin, the potential of a finished game is 0, and each step pays the change of
  potential, plus the result on the last step. With potential 0 at the end the shaping
  sums to minus the starting potential, the same whatever is played, so the policies that
  maximise the result maximise the dense return too. A step's reward lies in [-1, 1]
  before the end and in [-0.5, 1.5] on the last step; the episode sum is the result
  minus the starting potential (0 when the seats start level, as in every game here).

A truncated episode ends without the result: its dense sum is the last potential minus
the first.

``cap_result`` (every adapter takes it; default ``"draw"``) says what the result is when
a game reaches its own length cap and the engine abandons it as a draw (research.toml's
``draw_end_reason``: Galactic Domination's ``turn_limit``, Galactic Empires'
``turn_cap``): ``"draw"``, the engine's returns (the seats still in share the result), or
``"score"``, the result decided by ``state.scores()``: the seats with the best score
share the win. It changes ``result``, ``zero_sum`` and ``dense`` (whose last step pays the
result), never the game: the engine's ``returns()``, the log and the winners stay a draw.
Rift Domination's and Interstellar Ambitions' caps already end on VP, so it changes
nothing there. Random Galactic Empires games reach the cap nine times in ten, so without
it a learner starting from scratch sees almost no wins or losses (docs/research.md).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from starlanes.engine import BadOptionError

REWARD_MODES = ("result", "score", "zero_sum", "dense")
"""The reward modes every adapter accepts."""

CAP_RESULTS = ("draw", "score")
"""What a game abandoned as a draw at its length cap pays (``cap_result``, module
docstring): the engine's shared result, or the win to the best score."""


@cache
def research_constants() -> dict[str, Any]:
    """The designed constants of ``research.toml`` (margin scales, tensor bounds)."""
    with open(Path(__file__).with_name("research.toml"), "rb") as f:
        return tomllib.load(f)


def game_constants(game_id: str) -> dict[str, Any]:
    """``research.toml``'s table for ``game_id``. Raises BadOptionError for a game that
    has none."""
    table = research_constants()["games"].get(game_id)
    if table is None:
        raise BadOptionError(f"no research constants for {game_id!r} in research.toml")
    return table


def check_mode(mode: str) -> str:
    """``mode`` if it is a reward mode; BadOptionError naming the modes otherwise."""
    if mode not in REWARD_MODES:
        raise BadOptionError(f"unknown reward mode {mode!r}; modes: {', '.join(REWARD_MODES)}")
    return mode


def check_cap_result(value: str) -> str:
    """``value`` if it is one of :data:`CAP_RESULTS`; BadOptionError naming them
    otherwise."""
    if value not in CAP_RESULTS:
        raise BadOptionError(f"unknown cap_result {value!r}; choices: {', '.join(CAP_RESULTS)}")
    return value


def best_score_result(scores: Sequence[float]) -> list[float]:
    """1 shared among the seats with the highest score, 0 to the others."""
    best = max(scores)
    top = [s == best for s in scores]
    share = 1.0 / sum(top)
    return [share if t else 0.0 for t in top]


def zero_sum(results: Sequence[float]) -> list[float]:
    """Each seat's result minus the mean of the other seats' results (they sum to 0)."""
    n = len(results)
    total = sum(results)
    return [r - (total - r) / (n - 1) for r in results]


def margins(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's score minus the best other seat's, over ``scale``, clipped to [-1, 1]."""
    n = len(scores)
    out = []
    for i in range(n):
        best = max(scores[j] for j in range(n) if j != i)
        out.append(max(-1.0, min(1.0, (scores[i] - best) / scale)))
    return out


class RewardModel:
    """Per-step rewards of every seat under one mode.

    ``start(state)`` at the beginning of an episode, then ``step(state)`` after each
    applied action (or after several: the rewards of the actions in between telescope)
    returns one reward per seat, a list of floats. ``cap_result`` is one of
    :data:`CAP_RESULTS` (module docstring). Raises BadOptionError for an unknown mode or
    ``cap_result``, or a game without constants.
    """

    def __init__(self, game_id: str, mode: str = "result", cap_result: str = "draw") -> None:
        self.mode = check_mode(mode)
        self.cap_result = check_cap_result(cap_result)
        const = game_constants(game_id)
        self.draw_end_reason = str(const.get("draw_end_reason", ""))
        self.scale = float(const["margin_scale"])
        self.weight = float(research_constants()["dense_weight"])
        self._potential: list[float] = []

    def potential(self, state: Any) -> list[float]:
        """The dense potential of every seat: 0 once the game is over, otherwise
        ``dense_weight`` times the clipped margin."""
        if state.is_terminal():
            return [0.0] * state.game.players
        return [self.weight * m for m in margins(state.scores(), self.scale)]

    def capped_draw(self, state: Any) -> bool:
        """Whether the finished ``state`` was abandoned as a draw at the game's own length
        cap (its ``end_reason`` is research.toml's ``draw_end_reason``)."""
        return bool(self.draw_end_reason) and \
            getattr(state, "end_reason", "") == self.draw_end_reason

    def result(self, state: Any) -> list[float]:
        """Each seat's result of the finished ``state``: its ``returns()``, or with
        ``cap_result="score"`` and a game abandoned at its cap, the win shared by the
        best scores."""
        if self.cap_result == "score" and self.capped_draw(state):
            return best_score_result(state.scores())
        return [float(r) for r in state.returns()]

    def terminal(self, state: Any) -> list[float]:
        """The end-of-game reward of every seat under ``result``, ``score`` or
        ``zero_sum``."""
        if self.mode == "score":
            return margins(state.scores(), self.scale)
        results = self.result(state)
        if self.mode == "zero_sum":
            return zero_sum(results)
        return results

    def start(self, state: Any) -> None:
        """Remember the starting potential (dense only)."""
        if self.mode == "dense":
            self._potential = self.potential(state)

    def step(self, state: Any) -> list[float]:
        """The rewards earned since the last call (or ``start``), one per seat."""
        if self.mode == "dense":
            now = self.potential(state)
            out = [b - a for a, b in zip(self._potential, now, strict=True)]
            self._potential = now
            if state.is_terminal():
                out = [o + r for o, r in zip(out, self.result(state), strict=True)]
            return out
        if state.is_terminal():
            return self.terminal(state)
        return [0.0] * state.game.players

    def reward_range(self) -> tuple[float, float]:
        """The smallest and largest reward one step can give."""
        if self.mode == "result":
            return 0.0, 1.0
        if self.mode in ("score", "zero_sum"):
            return -1.0, 1.0
        return -2 * self.weight, 1.0 + self.weight
