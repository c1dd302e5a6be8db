"""OpenSpiel games of the starlanes games: each game with a fixed action space and an
observation tensor registered as a Python game with ``pyspiel``.

``register()`` (run on import) registers ``python_starlanes_<game>`` (dashes become
underscores) for every such game; ``pyspiel.load_game("python_starlanes_galactic_domination",
{"players": 2, "seed": 7})`` then makes one; the ``options`` parameter is a JSON object of
game options (``'{"turn_limit": 20}'``).

Parameters: ``players``, ``seed``, ``options`` (a JSON object of game options),
``reward`` (a mode of :mod:`starlanes.interop.rewards`: ``result``, ``score``,
``zero_sum`` or ``dense``), ``cap_result`` (``draw`` or ``score``: the result of a game
the engine abandons as a draw at its own length cap, see :mod:`starlanes.interop.rewards`)
and ``max_game_length`` (0: the game's default, see below).

Chance. The engines resolve chance inside ``apply``: an action that rolls dice, shuffles
or draws takes its outcome from the state's RNG, seeded by the ``seed`` parameter, in the
same call. OpenSpiel therefore sees no chance nodes (``max_chance_outcomes`` is 0). The
``seed`` fixes every future roll and shuffle, as a deal fixes the cards, so for a given
``seed`` the game is ``DETERMINISTIC`` in OpenSpiel's terms: replaying the same actions
gives the same game, and a clone rolls what the original would. The RNG's state (the
future rolls, the deck order) is part of the state that no player sees, so every game is
``IMPERFECT_INFORMATION``, Galactic Domination included (its rulebook hides nothing, but
the future rolls are still unknown to the players): perfect-information search would
otherwise read the real future rolls off a clone. ``resample_from_infostate`` is the
engine's determinisation (hidden cards and tiles reshuffled, the RNG reseeded), so a
search sees fresh chance, never the real one. (A ``SAMPLED_STOCHASTIC`` game would keep
its RNG in the game object, which a Python game cannot hand to OpenSpiel's serialiser.)

Serialisation. ``pyspiel.serialize_game_and_state`` writes the game's parameters and the
state; the state part holds the game, the actions taken (seat and index), the determinisations met on
the way (``resample_from_infostate``: where, for which seat, with which seed), the RNG's
state and the state's digest, and ``deserialize_game_and_state`` replays the actions,
redoes the determinisations, restores the RNG and checks the digest.

Length. ``max_game_length()`` is the game's own cap (rounds or turns, from its options)
times the players times ``actions_per_seat_round`` of research.toml; a game that reaches
that many actions ends there with no winner (returns 0), as the engines' own caps end a
game, so the bound holds for every game.

Rewards. ``result``, ``score`` and ``zero_sum`` are terminal (``RewardModel.TERMINAL``);
``dense`` pays each step (``RewardModel.REWARDS``, ``state.rewards()``; ``returns()`` is
their sum so far). The game type says ``ZERO_SUM`` (``utility_sum`` 0) where the mode's
returns add up to 0 in every game (:func:`zero_sum_returns`: ``zero_sum`` at every player
count, ``score`` with two players) and ``GENERAL_SUM`` otherwise. Actions are fixed action-space indices. The observation tensor is the engine's
``observation_tensor(player)``; the observation string its JSON ``observation(player)``.
The information-state string is the history as the player knows it (other seats' secret
choices hidden) followed by its observation string. The information-state tensor is the
observation tensor followed by what the player has seen happen: for each seat (relative:
0 = the player, 1 = the next seat ...) how many actions of each family of the action
space (move, attack, build ...) it took, plus how many of its secret choices the player
did not see (counted apart, whatever they were), then the number of actions so far. Two
histories with the same counts and the same observation share a tensor; the string tells
every history apart.

C++ bots. ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` release Python's global
interpreter lock while they search and then call back into the Python state (``Clone``
imports ``copy`` without the lock), which crashes the process with a segmentation fault
for every Python-defined game, OpenSpiel's own ``python_tic_tac_toe`` included. Importing
this module replaces them in ``pyspiel`` by subclasses that refuse a Python-defined game
or state with a ``TypeError`` naming the Python bots to use (``open_spiel.python
.algorithms.mcts`` and ``ismcts``); C++ games are untouched.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from starlanes.engine import BadOptionError, game_ids, game_module, load

from .openspiel_guard import guard_cpp_bots
from .rewards import REWARD_MODES, RewardModel, check_cap_result, check_mode, game_constants


def short_name(game_id: str) -> str:
    """``python_starlanes_<game>`` with dashes as underscores."""
    return "python_starlanes_" + game_id.replace("-", "_")


def _game_type(game_id: str) -> Any:
    g = load(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id), long_name=f"starlanes {g.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players, min_num_players=g.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": g.min_players, "seed": 0, "options": "",
                                 "reward": "result", "cap_result": "draw",
                                 "max_game_length": 0})


def length_cap(engine_game: Any) -> int:
    """The most actions a game of ``engine_game`` may take here: its rounds or turns cap
    (the option named by research.toml's ``length_option``) times its players times
    ``actions_per_seat_round``."""
    const = game_constants(engine_game.game_id)
    rounds = int(engine_game.options[const["length_option"]])
    return rounds * engine_game.players * int(const["actions_per_seat_round"])


_UTILITY = {"result": (0.0, 1.0), "score": (-1.0, 1.0), "zero_sum": (-1.0, 1.0),
            "dense": (-0.5, 1.5)}
"""Each reward mode's range of returns (see :mod:`starlanes.interop.rewards`)."""


def zero_sum_returns(mode: str, players: int) -> bool:
    """Whether the returns of reward ``mode`` add up to 0 in every game of ``players``
    seats, a game cut at ``max_game_length`` included (all returns 0 there): always for
    ``zero_sum``; for ``score`` with two players (each seat's margin is minus the
    other's, clipped alike); never for ``result`` (1 for a win, 0 for a game cut short) or
    ``dense`` (its sum is the result's)."""
    return mode == "zero_sum" or (mode == "score" and players == 2)


class StarlanesSpielGame(pyspiel.Game):
    """One starlanes game as an OpenSpiel game (see the module docstring). Raises
    BadOptionError for options that are not a JSON object, a bad option, reward mode or
    length."""

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
        self.reward_mode = check_mode(str(params.get("reward", "result")))
        self.cap_result = check_cap_result(str(params.get("cap_result", "draw")))
        cap = int(params.get("max_game_length", 0))
        if cap < 0:
            raise BadOptionError(f"max_game_length must be 0 (the default) or positive, "
                                 f"got {cap}")
        self.length = cap or length_cap(g)
        self.obs_size = int(np.prod(g.observation_tensor_shape()))
        families = len(g.action_space().families)
        self.info_size = self.obs_size + g.players * (families + 1) + 1
        lo, hi = _UTILITY[self.reward_mode]
        zero = zero_sum_returns(self.reward_mode, g.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(), max_chance_outcomes=0,
            num_players=g.players, min_utility=lo, max_utility=hi,
            utility_sum=0.0 if zero else None, max_game_length=self.length)
        game_type = _variant(self.game_id, self.reward_mode == "dense", zero)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> StarlanesSpielState:
        return StarlanesSpielState(self)

    def information_state_tensor_shape(self) -> list[int]:
        return [self.info_size]

    def information_state_tensor_size(self) -> int:
        return self.info_size

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self, perfect_recall)


def _replayed(game: Any, log: list[tuple[int, int]], rng: tuple, digest: str,
              resamples: list[tuple[int, int, int]]) -> Any:
    """The engine state of a serialised OpenSpiel state (see :meth:`_Engine.__reduce__`):
    the actions replayed, each determinisation ``(actions before it, seat, seed)`` redone
    where it happened, the RNG's state restored. Raises BadOptionError when the result's
    digest is not ``digest`` (another content or engine version)."""
    import random

    state = game.new_initial_state()
    pending = sorted(resamples)
    for i in range(len(log) + 1):
        while pending and pending[0][0] == i:
            _, seat, seed = pending.pop(0)
            state = state.determinize(seat, random.Random(seed))
        if i < len(log):
            state.apply(game.index_to_action(state, log[i][1]))
    state.rng.setstate(rng)
    if state.digest() != digest:
        raise BadOptionError("the serialised state does not replay to its digest (another "
                             "content or engine version?)")
    return state


def _restore_engine(game_id: str, players: int, seed: int, options: dict,
                    log: list[tuple[int, int]], rng: tuple, digest: str,
                    resamples: list[tuple[int, int, int]]) -> _Engine:
    game = load(game_id, players=players, seed=seed, **options)
    return _Engine(game, _replayed(game, log, rng, digest, resamples), list(log),
                   list(resamples))


class _Engine:
    """The engine game and state behind an OpenSpiel state, the log of (seat, action
    index) the information-state tensor counts, and the determinisations that led to the
    state (``(actions before, seat, seed)``). pyspiel clones a Python state from C++ by
    deep-copying its attributes and serialises it by pickling them; this holder is its only
    one: it deep-copies as the engine clones (the state's own mutable parts; the game and
    its content shared) and pickles as the actions that lead to the state, the
    determinisations, the RNG's state and the digest."""

    __slots__ = ("game", "state", "log", "resamples")

    def __init__(self, game: Any, state: Any, log: list[tuple[int, int]] | None = None,
                 resamples: list[tuple[int, int, int]] | None = None) -> None:
        self.game = game
        self.state = state
        self.log = log if log is not None else []
        self.resamples = resamples if resamples is not None else []

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(self.game, self.state.clone(), list(self.log), list(self.resamples))

    def __reduce__(self) -> tuple:
        g, state = self.game, self.state
        options = {k: list(v) if isinstance(v, tuple) else v for k, v in g.options.items()}
        return (_restore_engine, (g.game_id, g.players, g.seed, options, self.log,
                                  state.rng.getstate(), state.digest(), self.resamples))


class StarlanesSpielState(pyspiel.State):
    """A state: wraps an engine state (``inner``); ``_apply_action`` takes a fixed action
    index."""

    def __init__(self, game: StarlanesSpielGame, inner: Any = None,
                 log: list[tuple[int, int]] | None = None) -> None:
        super().__init__(game)
        g = game.engine_game
        self._engine = _Engine(g, g.new_initial_state() if inner is None else inner, log)
        self._reward = RewardModel(g.game_id, game.reward_mode, game.cap_result)
        self._reward.start(self._engine.state)
        self._rewards = [0.0] * g.players
        self._returns = [0.0] * g.players

    @property
    def inner(self) -> Any:
        """The engine state."""
        return self._engine.state

    @property
    def engine_game(self) -> Any:
        """The engine game."""
        return self._engine.game

    def _capped(self) -> bool:
        return len(self.inner.history) >= self.get_game().length

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or player != self.inner.current_player():
            return []
        return sorted(self.engine_game.action_space().legal_indices(self.inner))

    def _apply_action(self, action: int) -> None:
        inner = self.inner
        self._engine.log.append((inner.current_player(), action))
        inner.apply(self.engine_game.index_to_action(inner, action))
        if self.get_game().reward_mode == "dense":
            self._rewards = self._reward.step(inner)
            self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]

    def _action_to_string(self, player: int, action: int) -> str:
        return " ".join(self.engine_game.action_space().key_at(action))

    def is_terminal(self) -> bool:
        return self.inner.is_terminal() or self._capped()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with what ``player_id`` knows: the engine's determinisation
        (hidden cards and tiles reshuffled, future chance reseeded), seeded from
        ``probability_sampler`` (a callable returning a float in [0, 1))."""
        import random

        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        inner = self.inner.determinize(player_id, random.Random(seed))
        out = self._with(inner)
        out._engine.resamples.append((len(inner.history), player_id, seed))
        return out

    def _with(self, inner: Any) -> StarlanesSpielState:
        out = StarlanesSpielState(self.get_game(), inner, list(self._engine.log))
        out._engine.resamples = list(self._engine.resamples)
        out._reward._potential = list(self._reward._potential)
        out._rewards, out._returns = list(self._rewards), list(self._returns)
        return out

    def __deepcopy__(self, memo: dict) -> StarlanesSpielState:
        return self.clone()

    def clone(self) -> StarlanesSpielState:
        return self._with(self.inner.clone())

    def rewards(self) -> list[float]:
        """The rewards of the last action (``dense``; 0 in the terminal modes except at
        the end, where they are the returns)."""
        if self.get_game().reward_mode == "dense":
            return list(self._rewards)
        return self.returns() if self.is_terminal() else [0.0] * self.engine_game.players

    def returns(self) -> list[float]:
        mode = self.get_game().reward_mode
        if mode == "dense":
            return list(self._returns)
        if self.inner.is_terminal():
            return [float(r) for r in self._reward.terminal(self.inner)]
        return [0.0] * self.engine_game.players

    def __str__(self) -> str:
        return "\n".join(str(a) for a in self.inner.history[-5:]) or "(start)"


class _Observer:
    """OpenSpiel's observer: the observation tensor, or for the information state that
    tensor followed by the history counts (module docstring: ``players * (families + 1)``
    counts in seat-major order, then the number of actions); strings are the JSON
    observation, preceded for the information state by the player's view of the
    history."""

    def __init__(self, game: StarlanesSpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.offsets = np.asarray(game.engine_game.action_space().offsets, np.int64)
        self.families = len(self.offsets)
        self.obs_size = game.obs_size
        self.players = game.engine_game.players
        size = game.info_size if perfect_recall else game.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StarlanesSpielState, player: int) -> None:
        inner = state.inner
        t = self.tensor
        t[:self.obs_size] = inner.observation_tensor(player)
        if not self.perfect_recall:
            return
        t[self.obs_size:] = 0.0
        log = state._engine.log
        if not log:
            return
        width = self.families + 1
        seats = np.fromiter((s for s, _ in log), np.int64, len(log))
        index = np.fromiter((a for _, a in log), np.int64, len(log))
        slot = np.searchsorted(self.offsets, index, side="right") - 1
        unseen = [i for i, seen_by, *_ in inner._secrets if player not in seen_by and i < len(log)]
        slot[unseen] = self.families  # a secret choice: only that it was made
        cell = ((seats - player) % self.players) * width + slot
        t[self.obs_size:-1] = np.bincount(cell, minlength=self.players * width)
        t[-1] = len(log)

    def string_from(self, state: StarlanesSpielState, player: int) -> str:
        obs = json.dumps(state.inner.observation(player), sort_keys=True, default=str)
        if not self.perfect_recall:
            return obs
        seen = " | ".join(str(a) for a in state.inner.history_seen_by(player))
        return f"{seen}\n{obs}"


_TYPES: dict[str, Any] = {}
_VARIANTS: dict[tuple[str, bool, bool], Any] = {}


def _variant(game_id: str, per_step: bool, zero: bool) -> Any:
    """The registered game type of ``game_id`` with per-step rewards (``per_step``: the
    ``dense`` mode) and ``ZERO_SUM`` utility (``zero``: see :func:`zero_sum_returns`)."""
    key = (game_id, per_step, zero)
    t = _TYPES[game_id]
    if key not in _VARIANTS:
        _VARIANTS[key] = t if not (per_step or zero) else pyspiel.GameType(
            short_name=t.short_name, long_name=t.long_name, dynamics=t.dynamics,
            chance_mode=t.chance_mode, information=t.information,
            utility=pyspiel.GameType.Utility.ZERO_SUM if zero else t.utility,
            reward_model=pyspiel.GameType.RewardModel.REWARDS if per_step
            else t.reward_model,
            max_num_players=t.max_num_players, min_num_players=t.min_num_players,
            provides_information_state_string=True, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=t.parameter_specification)
    return _VARIANTS[key]


def register() -> list[str]:
    """Register every game that has an action space and a tensor; returns the short
    names. Also guards ``pyspiel``'s C++ bots (module docstring)."""
    guard_cpp_bots()
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


__all__ = ["REWARD_MODES", "StarlanesSpielGame", "StarlanesSpielState", "length_cap",
           "register", "short_name", "zero_sum_returns"]

register()
