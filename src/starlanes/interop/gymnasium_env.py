"""A Gymnasium environment: one learner in one seat, the other seats played by opponents.

``StarlanesEnv(game="galactic-domination", seat=0, opponents="heuristic")``.

``opponents`` (see :mod:`starlanes.interop.opponents`): one opponent for every other seat
or a list with one per other seat; an opponent is an agent spec (a user's
``module:Class`` included), an Agent, a policy callable ``(observation, mask) -> index``,
or an :class:`~starlanes.interop.opponents.OpponentPool` drawn from at each episode
(fixed bots and snapshots of the learner).

``seat``: the learner's seat, an int, ``"random"`` (drawn per episode) or ``"cycle"``
(0, 1, ..., one seat per episode), so a learner plays every seat;
``info["seat"]`` says which.

Observations (``observation="dict"``, default) are dicts of ``observation`` (the learner's
observation tensor, clipped to the Box's bounds) and ``action_mask`` (int8, 1 at the legal
action indices); with ``observation="array"`` the tensor alone, the mask in
``info["action_mask"]``. Either way ``action_masks()`` returns the mask as a bool array
(what sb3-contrib's MaskablePPO asks for), and ``info["legal_indices"]`` holds the legal
action indices (an intp array in the order of the engine's ``legal_actions()``, empty once
the game is over): the mask's 1s without a scan of the whole action space. Actions are indices of the game's fixed action
space. ``reward`` is a mode of :mod:`starlanes.interop.rewards` (``result``, ``score``,
``zero_sum``, ``dense``); the learner's reward of a step covers its action and the opponents' actions up
to its next turn. ``cap_result="score"`` decides by score the result of a game the engine
abandons as a draw at its own length cap (:mod:`starlanes.interop.rewards`; default
``"draw"``). An index that is not legal now leaves the game unchanged and ends the
episode with reward ``illegal_reward`` and ``info["illegal_action"] = True`` (mask the
actions to avoid it). ``max_steps`` learner steps truncate the episode. Registered ids are
in :data:`ENV_IDS`.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

from starlanes.engine import ActionIndexError, BadOptionError, load

from . import check_format, spaces_for, tensor_encoder
from .opponents import Lineup
from .rewards import RewardModel

ENV_IDS = {
    "starlanes/RiftDomination-v0": "rift-domination",
    "starlanes/GalacticDomination-v0": "galactic-domination",
    "starlanes/InterstellarAmbitions-v0": "interstellar-ambitions",
    "starlanes/GalacticEmpires-v0": "galactic-empires",
}
"""Gymnasium ids and the games they make (``gymnasium.make(id, players=..., ...)``)."""

SEAT_CHOICES = ("random", "cycle")


class StarlanesEnv(gym.Env):
    """See the module docstring. Raises AgentSpecError for a bad opponent spec and
    BadOptionError for a bad seat, player count, reward mode, observation format or game
    option."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str = "galactic-domination", players: int | None = None,
                 seat: int | str = 0, opponents: Any = "heuristic",
                 max_steps: int = 100_000, illegal_reward: float = -1.0,
                 reward: str = "result", observation: str = "dict",
                 render_mode: str | None = None, cap_result: str = "draw",
                 **options: Any) -> None:
        self.game_id = game
        self._options = options
        self.game = load(game, players=players, seed=0, **options)
        n = self.game.players
        if isinstance(seat, str):
            if seat not in SEAT_CHOICES:
                raise BadOptionError(f"seat must be 0-{n - 1}, 'random' or 'cycle', got "
                                     f"{seat!r}")
        elif isinstance(seat, bool) or not 0 <= seat < n:
            raise BadOptionError(f"seat {seat} is not a seat of a {n}-player game")
        self.lineup = Lineup(opponents, game, n)
        self.seat_choice = seat
        self.seat = 0 if isinstance(seat, str) else seat
        self.episodes = 0
        self.max_steps = max_steps
        self.illegal_reward = illegal_reward
        self.observation_format = check_format(observation)
        self.reward_model = RewardModel(game, reward, cap_result)
        self.reward_range = self.reward_model.reward_range()
        self._tensor = tensor_encoder(self.game)
        self.render_mode = render_mode
        self.observation_space, self.action_space = spaces_for(self.game, observation)
        self.state: Any = None
        self._mask: np.ndarray | None = None

    def action_masks(self) -> np.ndarray:
        """The legal-action mask as a bool array of shape ``(num_distinct_actions,)``
        (all False once the game is over)."""
        return self._mask.view(np.bool_)

    def _obs(self) -> tuple[Any, dict[str, Any]]:
        state = self.state
        if state.is_terminal():
            self._mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
            indices = np.zeros(0, dtype=np.intp)
        else:
            self._mask, indices = state.game.action_space().legal_arrays(state, np.int8)
        tensor = self._tensor(state, self.seat)
        info = {"seat": self.seat, "legal_indices": indices}
        if self.observation_format == "array":
            info["action_mask"] = self._mask
            return tensor, info
        return {"observation": tensor, "action_mask": self._mask}, info

    def _play_opponents(self) -> None:
        s, seat, bots = self.state, self.seat, self.bots
        while not s.is_terminal():
            who = s.current_player()
            if who == seat:
                return
            s.apply(bots[who].act(s))

    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        rng = random.Random(game_seed)
        n = self.game.players
        if self.seat_choice == "random":
            self.seat = rng.randrange(n)
        elif self.seat_choice == "cycle":
            self.seat = self.episodes % n
        self.episodes += 1
        self.game = load(self.game_id, players=n, seed=game_seed, **self._options)
        self.state = self.game.new_initial_state()
        others = [i for i in range(n) if i != self.seat]
        self.bots = self.lineup.agents(others, game_seed, rng)
        self.steps = 0
        self.reward_model.start(self.state)
        self._play_opponents()
        self._pending = self.reward_model.step(self.state)[self.seat] \
            if self.reward_model.mode == "dense" else 0.0
        return self._obs()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict]:
        try:
            a = self.game.index_to_action(self.state, int(action))
        except ActionIndexError as e:
            obs, info = self._obs()
            info.update(illegal_action=True, error=str(e))
            return obs, float(self.illegal_reward), True, False, info
        self.state.apply(a)
        self.steps += 1
        self._play_opponents()
        done = self.state.is_terminal()
        reward = self.reward_model.step(self.state)[self.seat] + self._pending
        self._pending = 0.0
        truncated = not done and self.steps >= self.max_steps
        obs, info = self._obs()
        return obs, float(reward), done, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return f"{self.game_id} step {self.steps}: scores {self.state.scores()}"


def register() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done on importing this module)."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=f"{__name__}:StarlanesEnv",
                         kwargs={"game": game})


register()
