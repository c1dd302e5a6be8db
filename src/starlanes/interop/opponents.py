"""Opponents of a learner: agents, agent specs, policies and pools of them.

An *opponent* is any of:

- an agent spec string (``"heuristic"``, ``"mcts:iterations=50"``, ``"pkg.mod:Class"``),
  built afresh for each episode with a seed derived from the episode's;
- a :class:`starlanes.agents.Agent` instance, used as it is (``reset(seed)`` each episode);
- a *policy*: a callable ``policy(observation, action_mask) -> int`` taking the seat's
  float32 observation tensor (shape ``game.observation_tensor_shape()``) and its int8
  legal-action mask (shape ``(game.num_distinct_actions(),)``) and returning a legal
  action index; a frozen copy of the learner (a *snapshot*) is one.

An :class:`OpponentPool` holds opponents with weights and draws one per other seat per
episode, so training meets fixed bots and its own past snapshots in a chosen mix.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from starlanes.agents import Agent, make_agent
from starlanes.engine import BadOptionError, derive_seed

Policy = Callable[[Any, Any], int]
"""``policy(observation tensor, int8 action mask) -> action index``."""


class PolicyAgent(Agent):
    """An agent that plays a :data:`Policy`: it encodes the seat's observation tensor and
    mask and maps the returned index to the action. Raises ActionIndexError when the
    policy returns an index that is not legal."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def act(self, state: Any) -> Any:
        import numpy as np

        seat = state.current_player()
        game = state.game
        mask = game.action_space().legal_mask(state, np.int8)
        index = int(self.policy(state.observation_tensor(seat), mask))
        return game.index_to_action(state, index)


def _check(entry: Any, game_id: str) -> None:
    if isinstance(entry, str):
        make_agent(entry, game_id, 0)  # a bad spec fails here, with AgentSpecError
    elif not (isinstance(entry, Agent) or callable(entry)):
        raise BadOptionError(f"an opponent is an agent spec, an Agent or a policy callable, "
                             f"got {type(entry).__name__}")


def build(entry: Any, game_id: str, seed: int) -> Agent:
    """The agent that plays ``entry`` (see the module docstring) in one episode."""
    if isinstance(entry, str):
        return make_agent(entry, game_id, seed)
    if isinstance(entry, Agent):
        entry.reset(seed)
        return entry
    return PolicyAgent(entry, getattr(entry, "__name__", "policy"))


class OpponentPool:
    """Weighted opponents drawn per episode and seat.

    ``OpponentPool(["heuristic", "random"], weights=[3, 1])``; ``add(snapshot)`` puts a
    past copy of the learner in (``snapshots`` keeps at most ``max_snapshots`` of them,
    oldest dropped first, each with weight ``snapshot_weight``). ``draw(rng)`` returns one
    opponent. Raises BadOptionError for an empty pool, negative or mismatched weights, and
    AgentSpecError for a bad spec (checked against ``game_id`` when given)."""

    def __init__(self, opponents: Sequence[Any], weights: Sequence[float] | None = None,
                 max_snapshots: int = 10, snapshot_weight: float = 1.0,
                 game_id: str | None = None) -> None:
        self.fixed = list(opponents)
        self.weights = [1.0] * len(self.fixed) if weights is None else \
            [float(w) for w in weights]
        if len(self.weights) != len(self.fixed):
            raise BadOptionError(f"{len(self.fixed)} opponents but {len(self.weights)} weights")
        if any(w < 0 for w in self.weights) or snapshot_weight < 0:
            raise BadOptionError("opponent weights must not be negative")
        if game_id is not None:
            for entry in self.fixed:
                _check(entry, game_id)
        self.snapshots: list[Any] = []
        self.max_snapshots = max_snapshots
        self.snapshot_weight = float(snapshot_weight)
        if not self.fixed and max_snapshots < 1:
            raise BadOptionError("an opponent pool needs an opponent or room for snapshots")

    def add(self, snapshot: Any) -> None:
        """Add a past learner (an opponent of any kind, usually a policy callable)."""
        if not (isinstance(snapshot, (str, Agent)) or callable(snapshot)):
            raise BadOptionError(f"a snapshot is an agent spec, an Agent or a policy, got "
                                 f"{type(snapshot).__name__}")
        self.snapshots.append(snapshot)
        del self.snapshots[:-self.max_snapshots]

    def check(self, game_id: str) -> None:
        """Check every fixed opponent against ``game_id`` (AgentSpecError for a bad spec)."""
        for entry in self.fixed:
            _check(entry, game_id)

    def draw(self, rng: random.Random) -> Any:
        """One opponent, chosen with probability proportional to its weight. Raises
        BadOptionError when every weight is zero."""
        entries = self.fixed + self.snapshots
        weights = self.weights + [self.snapshot_weight] * len(self.snapshots)
        if not entries or sum(weights) <= 0:
            raise BadOptionError("the opponent pool has nothing to draw (no opponent with "
                                 "a positive weight)")
        return rng.choices(entries, weights)[0]


class Lineup:
    """Who sits in the other seats, episode by episode: one opponent (or pool) for every
    seat, or a list with one per other seat, in seat order skipping the learner's."""

    def __init__(self, opponents: Any, game_id: str, players: int) -> None:
        if isinstance(opponents, (list, tuple)):
            entries = list(opponents)
            if len(entries) != players - 1:
                raise BadOptionError(f"{players - 1} opponents needed, got {len(entries)}")
        else:
            entries = [opponents] * (players - 1)
        for entry in entries:
            if isinstance(entry, OpponentPool):
                entry.check(game_id)
            else:
                _check(entry, game_id)
        self.entries = entries
        self.game_id = game_id

    def agents(self, seats: Sequence[int], game_seed: int,
               rng: random.Random) -> dict[int, Agent]:
        """The agents of ``seats`` (the other seats, in order) for one episode."""
        out = {}
        for seat, entry in zip(seats, self.entries, strict=True):
            chosen = entry.draw(rng) if isinstance(entry, OpponentPool) else entry
            out[seat] = build(chosen, self.game_id, derive_seed(game_seed, "seat", seat))
        return out
