"""A Gymnasium environment: one learner in one seat, the other seats played by agents.

``StarlanesEnv(game="galactic-domination", seat=0, opponents="heuristic")``; ``opponents``
is one agent spec for every other seat or a list with one spec per other seat (any spec
``starlanes.agents.make_agent`` reads, a user's ``module:Class`` included). Observations
are dicts of ``observation`` (the learner's observation tensor) and ``action_mask`` (int8,
1 at the legal action indices); actions are indices of the game's fixed action space. The
reward is the learner's ``returns()`` entry when the game ends, 0 before. An index that is
not legal now leaves the game unchanged and ends the episode with reward
``illegal_reward`` and ``info["illegal_action"] = True`` (mask the actions to avoid it).
``max_steps`` learner steps truncate the episode. Registered ids are in :data:`ENV_IDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from starlanes.agents import make_agent
from starlanes.engine import ActionIndexError, derive_seed, load

from . import spaces_for

ENV_IDS = {
    "starlanes/RiftDomination-v0": "rift-domination",
    "starlanes/GalacticDomination-v0": "galactic-domination",
    "starlanes/InterstellarAmbitions-v0": "interstellar-ambitions",
    "starlanes/GalacticEmpires-v0": "galactic-empires",
}
"""Gymnasium ids and the games they make (``gymnasium.make(id, players=..., ...)``)."""


class StarlanesEnv(gym.Env):
    """See the module docstring. Raises AgentSpecError for a bad opponent spec and
    BadOptionError for a bad seat, player count or game option."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "galactic-domination", players: int | None = None,
                 seat: int = 0, opponents: str | Sequence[str] = "heuristic",
                 max_steps: int = 100_000, illegal_reward: float = -1.0,
                 render_mode: str | None = None, **options: Any) -> None:
        from starlanes.engine import BadOptionError

        self.game_id = game
        self._options = options
        self.game = load(game, players=players, seed=0, **options)
        n = self.game.players
        if not 0 <= seat < n:
            raise BadOptionError(f"seat {seat} is not a seat of a {n}-player game")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise BadOptionError(f"{n - 1} opponent specs needed, got {len(specs)}")
        for spec in specs:
            make_agent(spec, game, 0)  # a bad spec fails here
        self.seat = seat
        self.specs = specs
        self.max_steps = max_steps
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space, self.action_space = spaces_for(self.game)
        self.state: Any = None

    def _obs(self) -> dict[str, Any]:
        import numpy as np

        state = self.state
        if state.is_terminal():
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        else:
            mask = state.game.action_space().legal_mask(state, np.int8)
        return {"observation": state.observation_tensor(self.seat), "action_mask": mask}

    def _play_opponents(self) -> None:
        s, seat, bots = self.state, self.seat, self.bots
        while not s.is_terminal():
            who = s.current_player()
            if who == seat:
                return
            s.apply(bots[who].act(s))

    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, Any], dict]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.game = load(self.game_id, players=self.game.players, seed=game_seed,
                         **self._options)
        self.state = self.game.new_initial_state()
        others = [i for i in range(self.game.players) if i != self.seat]
        self.bots = {i: make_agent(spec, self.game_id, derive_seed(game_seed, "seat", i))
                     for i, spec in zip(others, self.specs, strict=True)}
        self.steps = 0
        self._play_opponents()
        return self._obs(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict]:
        try:
            a = self.game.index_to_action(self.state, int(action))
        except ActionIndexError as e:
            return self._obs(), float(self.illegal_reward), True, False, {
                "illegal_action": True, "error": str(e)}
        self.state.apply(a)
        self.steps += 1
        self._play_opponents()
        done = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        truncated = not done and self.steps >= self.max_steps
        return self._obs(), reward, done, truncated, {}

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
