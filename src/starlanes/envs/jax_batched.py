"""Galactic Domination's batched environment in JAX: on an accelerator when JAX has one.

Needs the ``jax`` extra (``pip install "starlanes[jax]"``; a CUDA build of ``jaxlib`` for
a GPU). Two ways in:

- :class:`JaxGD`, the pure functions in the style of pgx, each ``jit``-compiled and
  ``vmap``-ed over games: ``init(seeds) -> state``, ``step(state, actions) -> state``,
  ``legal_mask(state) -> bool [B, A]``, ``observe(state, seats) -> float32 [B, N]``,
  ``current_player(state) -> int32 [B]`` and ``returns(state) -> float32 [B, 2]``. The
  state is a :class:`~starlanes.games.galactic_domination.batched_jax.GDState` of device
  arrays. Compose them in your own ``jit`` or ``lax.scan`` (a training loop on the device)
  under ``jax.enable_x64(True)``: the games' generators are uint64 (the methods here
  enter it themselves).
- :class:`JaxBatchedEnv`, :class:`~starlanes.envs.BatchedEnv`'s interface and meaning
  (autoreset in the same step, the same seed sequence, the same refusals) with the arrays
  it returns left on the device as JAX arrays (``np.asarray`` copies one to the host).

The rules are the numpy batch's, one game at a time (``batched_jax``); the same seeds and
actions give the same games, masks, tensors and returns as ``BatchedEnv`` and as the
reference engine (``tests/interop/test_batched_jax.py``). ``python
benchmarks/jax_env.py`` measures it on the machine's default JAX device.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from starlanes.engine import ActionIndexError, BadOptionError, StarlanesError
from starlanes.games.galactic_domination import batched as nb
from starlanes.games.galactic_domination.batched_jax import GDState, Rules
from starlanes.games.galactic_domination.batched_jax_view import View
from starlanes.games.galactic_domination.batched_obs import HEAD, PER_SHIP

from .batched import _check_seed


def _rows(pred: Any, a: GDState, b: GDState) -> GDState:
    """Per game: ``a``'s row where ``pred`` (bool [B]), else ``b``'s."""
    def pick(x: Any, y: Any) -> Any:
        return jnp.where(pred.reshape(pred.shape + (1,) * (x.ndim - 1)), x, y)
    return jax.tree.map(pick, a, b)


class JaxGD:
    """The pure functions of Galactic Domination over ``B`` games (see the module
    docstring), for one option set (``GDBatch``'s options: BadOptionError for an
    unknown one). Attributes: ``num_actions`` (A), ``observation_shape`` (``(N,)``),
    ``action_space`` (the game's fixed ActionSpace)."""

    def __init__(self, **options: Any) -> None:
        t = nb.Tables(nb.resolve_game(options))
        with jax.enable_x64(True):
            self.rules = rules = Rules(t)
            self.view = view = View(rules)
        self.action_space = t.game.action_space()
        self.num_actions = t.size
        self.observation_shape = (HEAD + 2 * nb.SLOTS * PER_SHIP,)
        self._init = jax.jit(jax.vmap(rules.init))
        self._step = jax.jit(jax.vmap(rules.step))
        self._mask = jax.jit(jax.vmap(view.legal_mask))
        self._observe = jax.jit(jax.vmap(view.observe))
        self._current = jax.jit(jax.vmap(rules.current_player))

    def init(self, seeds: Any) -> GDState:
        """New games from int64 ``seeds`` [B] (each as ``load(..., seed=s)`` deals it)."""
        with jax.enable_x64(True):
            return self._init(jnp.asarray(seeds, jnp.int64))

    def step(self, state: GDState, actions: Any) -> GDState:
        """One legal action index per game (int [B]); finished games stay as they are.
        Nothing is checked (:meth:`legal_mask` says what is legal)."""
        with jax.enable_x64(True):
            return self._step(state, jnp.asarray(actions, jnp.int32))

    def legal_mask(self, state: GDState) -> Any:
        """bool [B, A]: the legal actions of the seat to act in each game."""
        with jax.enable_x64(True):
            return self._mask(state)

    def observe(self, state: GDState, seats: Any) -> Any:
        """float32 [B, N]: each game seen from ``seats`` (int [B], 0 or 1)."""
        with jax.enable_x64(True):
            return self._observe(state, jnp.asarray(seats, jnp.int32))

    def current_player(self, state: GDState) -> Any:
        """int32 [B]: the seat to act, -4 for a finished game."""
        with jax.enable_x64(True):
            return self._current(state)

    @staticmethod
    def returns(state: GDState) -> Any:
        """float32 [B, 2]: 1 to the winner, 0.5 each on a draw, 0 while a game goes on."""
        return state.ret


class JaxBatchedEnv:
    """:class:`~starlanes.envs.BatchedEnv` for ``"galactic-domination"`` in JAX (see the
    module docstring): ``reset(seed=None) -> (obs, info)``, ``step(actions) -> (obs,
    rewards, terminated, truncated, info)``, ``action_masks()``, with JAX arrays.
    ``rewards`` are float64 [B, 2]. Errors as ``BatchedEnv``'s; a refused step changes
    nothing."""

    def __init__(self, game: str = "galactic-domination", num_envs: int = 1, seed: int = 0,
                 **options: Any) -> None:
        if game != "galactic-domination":
            raise BadOptionError(f"{game!r} has no JAX build; JAX games: galactic-domination")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        _check_seed(seed)
        self.game_id = game
        self.num_envs = num_envs
        self.players = 2
        self.fns = fns = JaxGD(**options)
        self.action_space = fns.action_space
        self.num_actions = fns.num_actions
        self.observation_shape = fns.observation_shape
        self._next_seed = seed
        self._state: GDState | None = None
        self._mask: Any = None
        self.game_seeds: Any = None
        self._reset = jax.jit(self._reset_body)
        self._advance = jax.jit(self._step_body)
        self._legal = jax.jit(self._legal_body)

    # ------------------------------------------------------------------ compiled bodies
    def _view(self, state: GDState) -> tuple[Any, Any, Any]:
        r, v = self.fns.rules, self.fns.view
        cp = jax.vmap(r.current_player)(state)
        obs = jax.vmap(v.observe)(state, jnp.maximum(cp, 0))
        return obs, jax.vmap(v.legal_mask)(state), cp

    def _reset_body(self, seeds: Any) -> tuple[Any, ...]:
        # a new game is mostly constants: the barrier keeps XLA from folding the whole
        # view of it at compile time (seconds on the CPU, and a warning)
        state = jax.lax.optimization_barrier(jax.vmap(self.fns.rules.init)(seeds))
        return (state, *self._view(state))

    def _step_body(self, state: GDState, actions: Any, next_seed: Any,
                   game_seeds: Any) -> tuple[Any, ...]:
        r = self.fns.rules
        state = jax.vmap(r.step)(state, actions)
        term = state.phase == nb.OVER
        rewards = jnp.where(term[:, None], state.ret.astype(jnp.float64), 0.0)
        seeds = next_seed + jnp.cumsum(term, dtype=jnp.int64) - 1
        state = _rows(term, jax.vmap(r.init)(seeds), state)
        game_seeds = jnp.where(term, seeds, game_seeds)
        next_seed = next_seed + term.sum(dtype=jnp.int64)
        return (state, next_seed, game_seeds, rewards, term, *self._view(state))

    @staticmethod
    def _legal_body(mask: Any, actions: Any) -> Any:
        inside = (actions >= 0) & (actions < mask.shape[1])
        at = jnp.clip(actions, 0, mask.shape[1] - 1)
        return inside & jnp.take_along_axis(mask, at[:, None], 1)[:, 0]

    # ------------------------------------------------------------------ the API
    def _info(self, mask: Any, cp: Any) -> dict[str, Any]:
        return {"action_mask": mask, "current_player": cp, "game_seed": self.game_seeds}

    def reset(self, seed: int | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game in every row (seeds as ``BatchedEnv``'s): ``(obs, info)``.
        BadOptionError for a seed that is not an integer in -2**63..2**62-1."""
        if seed is not None:
            _check_seed(seed)
            self._next_seed = int(seed)
        seeds = int(self._next_seed) + np.arange(self.num_envs, dtype=np.int64)
        with jax.enable_x64(True):
            self._next_seed = jnp.int64(int(self._next_seed) + self.num_envs)
            self._state, obs, mask, cp = self._reset(jnp.asarray(seeds))
            self.game_seeds = jnp.asarray(seeds)
        self._mask = mask
        return obs, self._info(mask, cp)

    def action_masks(self) -> Any:
        """The current legal-action masks, bool ``[num_envs, A]``."""
        if self._mask is None:
            raise StarlanesError("call reset() before action_masks()")
        return self._mask

    def _check(self, actions: Any) -> Any:
        if self._state is None:
            raise StarlanesError("call reset() before step()")
        a = np.asarray(actions) if not isinstance(actions, jax.Array) else actions
        if a.shape != (self.num_envs,):
            raise BadOptionError(f"one action per game needed: shape ({self.num_envs},), "
                                 f"got {a.shape}")
        if not jnp.issubdtype(a.dtype, jnp.integer):
            raise BadOptionError(f"actions must be integers, got dtype {a.dtype}")
        a = jnp.asarray(a, jnp.int64)
        ok = self._legal(self._mask, a)
        if not bool(ok.all()):
            row = int(np.flatnonzero(~np.asarray(ok))[0])
            index = int(a[row])
            if not 0 <= index < self.num_actions:
                raise ActionIndexError(f"row {row}: action {index} is outside "
                                       f"0..{self.num_actions - 1}")
            words = " ".join(self.action_space.key_at(index))
            seat = int(self.fns.current_player(self._state)[row])
            raise ActionIndexError(f"row {row}: action {index} ({words}) is not legal now "
                                   f"for seat {seat}")
        return a.astype(jnp.int32)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Apply one action index per row, reset the games that end: ``(obs, rewards,
        terminated, truncated, info)`` (``BatchedEnv.step``)."""
        with jax.enable_x64(True):
            a = self._check(actions)
            (self._state, self._next_seed, self.game_seeds, rewards, term, obs, mask,
             cp) = self._advance(self._state, a, self._next_seed, self.game_seeds)
            truncated = jnp.zeros(self.num_envs, jnp.bool_)
        self._mask = mask
        return obs, rewards, term, truncated, self._info(mask, cp)
