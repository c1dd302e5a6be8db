"""A PettingZoo AEC environment for any starlanes game with a fixed action space.

``env("galactic-domination", players=2, seed=0)`` gives the wrapped environment (order
enforcing, as PettingZoo's own games); agents are ``seat_0`` .. ``seat_{n-1}``.

Seeding follows PettingZoo's and Gymnasium's convention. ``reset(seed=s)`` plays the game
``load(game, seed=s)`` deals and reseeds the environment's own generator (``np_random``)
with ``s``; ``reset()`` without a seed plays a new game whose seed is drawn from that
generator, so successive resets give different deals and the resets that follow
``reset(seed=s)`` are the same every time. The constructor's ``seed`` stands for the first
reset's seed when that reset gives none. ``game_seed`` is the seed of the game in play.

Each agent's observation is a dict of ``observation`` (its observation tensor) and
``action_mask`` (int8, 1 at its legal action indices, all 0 when it is not to act). An
action is an index of the game's fixed action space. ``reward`` is a mode of
:mod:`starlanes.interop.rewards`: ``"result"`` (default: each seat's ``returns()`` at the
end, 1 to the winner, shared on ties), ``"score"`` (the clipped score margin at the end),
``"zero_sum"`` (the result less the mean of the other seats' results, at the end; the
seats' sums cancel) or ``"dense"`` (the result plus the per-step change of a score-margin potential; every seat
is paid at every step). ``cap_result="score"`` decides by score the result of a game the
engine abandons as a draw at its own length cap (see :mod:`starlanes.interop.rewards`;
default ``"draw"``, the engine's result). ``max_steps`` truncates a game that runs too long (every agent
truncated). ``observation="array"`` makes each observation the tensor alone (a Box, so
PettingZoo's ``api_test`` has nothing to warn about); the mask is then read from
``infos[agent]["action_mask"]``. Tensor values are clipped to the space's bounds.

The acting agent's mask is also in its ``infos[agent]["action_mask"]`` (the same array as
in its observation; the other agents' infos hold a shared, read-only all-zero mask), so
masked play that needs no observation tensor can call ``last(observe=False)`` and skip
encoding it. ``infos[agent]["legal_indices"]`` holds the acting agent's legal action
indices (an intp array in the order of the engine's ``legal_actions()``; a shared,
read-only empty array for the others and once the game is over): the mask's 1s without a
scan of the whole action space, for samplers that gather the policy's logits at the legal
indices (Rift Domination's space has 35,298-39,386 actions, of which a few dozen are
legal). The mask is computed once per step (through the action space's ``legal_indices``, which
uses the game's batch map where its action space module has one), the observation tensor
only when an agent is observed; observations are new arrays each step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from starlanes.engine import load

from . import check_format, spaces_for, tensor_encoder
from .rewards import RewardModel


class StarlanesAEC(AECEnv):
    """The raw AEC environment (see the module docstring). Raises the engine's errors for
    an unknown game or bad options, and ActionIndexError for an index that is not a legal
    action of the agent to act."""

    metadata = {"render_modes": ["ansi"], "name": "starlanes_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, seed: int = 0,
                 render_mode: str | None = None, max_steps: int = 100_000,
                 reward: str = "result", observation: str = "dict",
                 cap_result: str = "draw", **options: Any) -> None:
        super().__init__()
        self.observation_format = check_format(observation)
        self.game_id = game
        self._options = options
        self._seed = seed
        self.game_seed = seed
        self.np_random: Any = None
        self.np_random_seed: int | None = None
        self.game = load(game, players=players, seed=seed, **options)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.reward_model = RewardModel(game, reward, cap_result)
        self._tensor = tensor_encoder(self.game)
        self.possible_agents = [f"seat_{i}" for i in range(self.game.players)]
        obs, act = spaces_for(self.game, observation)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.metadata = dict(self.metadata, name=f"starlanes_{game.replace('-', '_')}_v0")
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.state: Any = None
        self._legal: dict[int, Any] = {}
        self._legal_at = -1

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act and give it its mask."""
        state = self.state
        agent = self.possible_agents[state.current_player()]
        previous = self.agent_selection
        if previous != agent and previous in self.infos:
            self._unmask(previous)
        self.agent_selection = self._mask_agent = agent
        self._legal = self._space.legal_indices(state)
        self._legal_at = len(state.history)
        self._mask, indices = self._space.legal_arrays(state, np.int8)
        info = self.infos[agent]
        info["action_mask"] = self._mask
        info["legal_indices"] = indices

    def _unmask(self, agent: str) -> None:
        """``agent`` is no longer to act: its info gets the shared all-zero mask and the
        shared empty index array."""
        info = self.infos[agent]
        info["action_mask"] = self._no_mask
        info["legal_indices"] = self._no_indices

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game: the one ``seed`` deals (reseeding ``np_random`` with it), or one
        whose seed ``np_random`` draws when ``seed`` is None (the constructor's seed for
        the first reset). Raises gymnasium's ``Error`` for a negative or non-int seed."""
        if seed is None and self.np_random is None:
            seed = self._seed
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(int(seed))
            self.game_seed = int(seed)
        else:
            self.game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game = load(self.game_id, players=self.game.players, seed=self.game_seed,
                         **self._options)
        self.state = self.game.new_initial_state()
        self._space = self.game.action_space()
        self.reward_model.start(self.state)
        self._dense = self.reward_model.mode == "dense"
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._no_mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._no_indices = np.zeros(0, dtype=np.intp)
        self._no_indices.flags.writeable = False
        self.infos: dict[str, dict] = {
            a: {"action_mask": self._no_mask, "legal_indices": self._no_indices}
            for a in self.agents}
        self.agent_selection = None
        self._select()

    def observe(self, agent: str) -> Any:
        tensor = self._tensor(self.state, self._seats[agent])
        if self.observation_format == "array":
            return tensor
        mask = self._mask if agent == self._mask_agent else self._no_mask.copy()
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.state
        index = int(action)
        chosen = self._legal.get(index) if self._legal_at == len(state.history) else None
        if chosen is None:  # not a legal index: the engine says why
            chosen = self.game.index_to_action(state, index)
        state.apply(chosen)
        self.steps += 1
        over = state.is_terminal()
        if over or self._dense:
            for a, r in zip(self.possible_agents, self.reward_model.step(state), strict=True):
                self.rewards[a] = r
            self._accumulate_rewards()
        if over:
            self._unmask(agent)
            self._mask_agent = None
            for a in self.possible_agents:
                self.terminations[a] = True
        elif self.steps >= self.max_steps:
            self._unmask(agent)
            self._mask_agent = None
            for a in self.agents:
                self.truncations[a] = True
        else:
            self._select()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        last = str(self.state.history[-1]) if self.state.history else "(start)"
        return f"{self.game_id} step {self.steps}: {last}"

    def close(self) -> None:
        return None


def raw_env(game: str, **kwargs: Any) -> StarlanesAEC:
    """The unwrapped AEC environment."""
    return StarlanesAEC(game, **kwargs)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper whose ``last`` and ``step`` ask the environment
    directly once it has been reset and while agents are left (the wrapper's attribute
    forwarding costs more than the call); otherwise PettingZoo's own checks run."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


def env(game: str, **kwargs: Any) -> Any:
    """The AEC environment with PettingZoo's order-enforcing wrapper."""
    return _OrderEnforcing(raw_env(game, **kwargs))
