"""OpenSpiel games of the starlanes games: each game with a fixed action space and an
observation tensor registered as a Python game with ``pyspiel``.

``register()`` (run on import) registers ``python_starlanes_<game>`` (dashes become
underscores) for every such game; ``pyspiel.load_game("python_starlanes_galactic_domination",
{"players": 2, "seed": 7})`` then makes one; the ``options`` parameter is a JSON object of
game options (``'{"turn_limit": 20}'``).

Chance. The engines resolve chance inside ``apply``: an action that rolls dice, shuffles
or draws takes its outcome from the state's RNG, seeded by the ``seed`` parameter, in the
same call. OpenSpiel therefore sees no chance nodes (``max_chance_outcomes`` is 0) and the
game type says ``SAMPLED_STOCHASTIC``: a player action's result is sampled, not
enumerated, and replaying the same actions with the same ``seed`` gives the same game.
The RNG's state (the future rolls, the deck order) is part of the OpenSpiel state that no
player sees, so every game is ``IMPERFECT_INFORMATION``, Galactic Domination included
(its rulebook hides nothing, but the future rolls are still unknown to the players):
perfect-information search would otherwise read the real future rolls off a clone.
``resample_from_infostate`` is the engine's determinisation (hidden cards and tiles
reshuffled, the RNG reseeded), so a search sees fresh chance, never the real one.

Rewards are terminal (the engine's ``returns()``: 1 to the winner, shared on ties, 0 when
nobody wins, so the utility is general-sum). Actions are fixed action-space indices. The
observation tensor is the engine's ``observation_tensor(player)``; the observation string
its JSON ``observation(player)``. The information-state string is the history as the
player knows it (other seats' secret choices hidden) followed by its observation string;
the information-state tensor is the observation tensor (a fixed shape cannot hold a history
of unbounded length), so tensor-based methods get the player's current view, and the
information-state string, which keys ISMCTS nodes, tells histories apart.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from starlanes.engine import BadOptionError, game_ids, game_module, load

MAX_GAME_LENGTH = 1_000_000
"""The game length OpenSpiel is told (the engines end games by their own limits)."""

def short_name(game_id: str) -> str:
    return "python_starlanes_" + game_id.replace("-", "_")


def _game_type(game_id: str) -> Any:
    g = load(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id), long_name=f"starlanes {g.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players, min_num_players=g.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": g.min_players, "seed": 0, "options": ""})


class StarlanesSpielGame(pyspiel.Game):
    """One starlanes game as an OpenSpiel game (see the module docstring)."""

    game_id = ""

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        text = params.get("options") or "{}"
        try:
            options = json.loads(text)
        except json.JSONDecodeError as e:
            raise BadOptionError(f"the options parameter is not JSON ({e}): {text!r}") from None
        if not isinstance(options, dict):
            raise BadOptionError(f"the options parameter must be a JSON object of game "
                                 f"options, got {text!r}")
        self.engine_game = load(self.game_id, players=int(params.get("players", 0)) or None,
                                seed=int(params.get("seed", 0)), **options)
        g = self.engine_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(), max_chance_outcomes=0,
            num_players=g.players, min_utility=0.0, max_utility=1.0, utility_sum=None,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(_TYPES[self.game_id], info, params)

    def new_initial_state(self) -> StarlanesSpielState:
        return StarlanesSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.engine_game, perfect_recall)


class _Engine:
    """The engine game and state behind an OpenSpiel state. pyspiel clones a Python state
    from C++ by deep-copying its attributes; this holder is its only one and deep-copies as
    the engine clones (the state's own mutable parts; the game and its content shared)."""

    __slots__ = ("game", "state")

    def __init__(self, game: Any, state: Any) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(self.game, self.state.clone())


class StarlanesSpielState(pyspiel.State):
    """A state: wraps an engine state (``inner``); ``_apply_action`` takes a fixed action
    index."""

    def __init__(self, game: StarlanesSpielGame, inner: Any = None) -> None:
        super().__init__(game)
        g = game.engine_game
        self._engine = _Engine(g, g.new_initial_state() if inner is None else inner)

    @property
    def inner(self) -> Any:
        """The engine state."""
        return self._engine.state

    @property
    def engine_game(self) -> Any:
        """The engine game."""
        return self._engine.game

    def current_player(self) -> int:
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner.is_terminal() or player != self.inner.current_player():
            return []
        return sorted(self.engine_game.action_space().legal_indices(self.inner))

    def _apply_action(self, action: int) -> None:
        self.inner.apply(self.engine_game.index_to_action(self.inner, action))

    def _action_to_string(self, player: int, action: int) -> str:
        return " ".join(self.engine_game.action_space().key_at(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with what ``player_id`` knows: the engine's determinisation
        (hidden cards and tiles reshuffled, future chance reseeded), seeded from
        ``probability_sampler`` (a callable returning a float in [0, 1))."""
        import random

        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        inner = self.inner.determinize(player_id, random.Random(seed))
        return StarlanesSpielState(self.get_game(), inner)

    def __deepcopy__(self, memo: dict) -> StarlanesSpielState:
        return self.clone()

    def clone(self) -> StarlanesSpielState:
        return StarlanesSpielState(self.get_game(), self.inner.clone())

    def returns(self) -> list[float]:
        return [float(r) for r in self.inner.returns()] if self.inner.is_terminal() \
            else [0.0] * self.engine_game.players

    def __str__(self) -> str:
        return "\n".join(str(a) for a in self.inner.history[-5:]) or "(start)"


class _Observer:
    """OpenSpiel's observer: ``tensor`` is the engine's observation tensor (for the
    information state too); strings are the JSON observation, preceded for the information
    state by the player's view of the history."""

    def __init__(self, game: Any, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.observation_tensor_shape(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StarlanesSpielState, player: int) -> None:
        self.tensor[:] = state.inner.observation_tensor(player)

    def string_from(self, state: StarlanesSpielState, player: int) -> str:
        obs = json.dumps(state.inner.observation(player), sort_keys=True, default=str)
        if not self.perfect_recall:
            return obs
        seen = " | ".join(str(a) for a in state.inner.history_seen_by(player))
        return f"{seen}\n{obs}"


_TYPES: dict[str, Any] = {}


def register() -> list[str]:
    """Register every game that has an action space and a tensor; returns the short names."""
    names = []
    for gid in game_ids():
        if not (game_module(gid, "action_space") and game_module(gid, "tensor")):
            continue
        name = short_name(gid)
        if gid not in _TYPES:
            _TYPES[gid] = _game_type(gid)
            cls = type(f"Spiel_{gid.replace('-', '_')}", (StarlanesSpielGame,),
                       {"game_id": gid})
            globals()[cls.__name__] = cls
            pyspiel.register_game(_TYPES[gid], cls)
        names.append(name)
    return names


register()
