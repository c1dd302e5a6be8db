"""A batched environment: ``num_envs`` games stepped at once over numpy arrays.

``BatchedEnv("galactic-domination", num_envs=1024, seed=0, **options)`` holds the games as
arrays (:mod:`starlanes.games.galactic_domination.batched`) and steps them all with one
call: no Python object per game, no loop over games. Only games with a batched rules
implementation are offered (:data:`BATCHED_GAMES`): Galactic Domination (2 players) and
Interstellar Ambitions (3 players, the default content and options but ``round_limit``:
:mod:`starlanes.games.interstellar_ambitions.batched`; an EMERGENCY draw, a pre-battle
effect and an unmatched fire step their game alone). It needs numpy only (not the ``rl`` extra).

``reset(seed=None) -> (obs, info)`` and ``step(actions) -> (obs, rewards, terminated,
truncated, info)``:

- ``obs``: float32 ``[num_envs, N]``, each row the observation tensor of the seat to act in
  that game (the one ``info["current_player"]`` names), exactly what the PettingZoo
  environment gives that seat (``tensor.encode`` clipped to the adapters' bounds);
- ``info["action_mask"]``: bool ``[num_envs, A]``, the legal actions of that seat in the
  index numbering of the game's fixed action space (``load(game).action_space()``);
  ``info["current_player"]``: int64 ``[num_envs]``; ``info["game_seed"]``: int64
  ``[num_envs]``, the seed of the game now in each row;
- ``rewards``: float64 ``[num_envs, players]``, 0 except in a row whose game ended in this
  step, which holds that game's ``returns()`` (1 split among the winners);
- ``terminated``: bool ``[num_envs]``, the row's game ended in this step; ``truncated``:
  bool ``[num_envs]``, always False (a game's own ``turn_limit`` or ``round_limit`` ends it,
  which is a termination).

Autoreset is in the same step (Gymnasium's ``SAME_STEP``): a row whose game ends is given
a new game at once, so ``obs`` and the mask are always the ones to act on. Seeds: after
``reset(seed=s)`` row ``i`` plays the game seeded ``s + i`` (as ``load(game, seed=s + i)``
deals it); the games started later take the seeds ``s + num_envs``, ``s + num_envs + 1``,
... in the order they start (rows in increasing order within a step). ``reset()`` without
a seed starts every row on the next seeds of that sequence (the constructor's ``seed``
begins it).

Errors (``starlanes.engine``): BadOptionError for an unknown game, a game without a
batched implementation (the message names those that have one), a bad ``num_envs``, a
seed that is not an integer in -2**63..2**62-1 or an unknown or bad option, and for
``actions`` of the wrong shape or type; ActionIndexError for
an action index outside the space or not legal in its row (the message names the row,
the index and its action). A refused step changes nothing.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from starlanes.engine import ActionIndexError, BadOptionError, StarlanesError, game_ids

BATCHED_GAMES = ("galactic-domination", "interstellar-ambitions")
"""The games with a batched rules implementation."""


class Recycler:
    """Copies of an array for callers to keep, in arrays handed out before once nobody
    else holds them.

    ``copy_of(src)`` returns an array equal to ``src`` (same shape and dtype every call)
    that no caller holds: the least recently handed out of the last ``keep`` arrays whose
    only reference is this pool's (CPython's reference count: a caller's name, a view, a
    container, any object that keeps a reference to it holds it), written over; else a new
    copy. Memory shared without a reference (a raw pointer kept by C code that let go of
    the array) is not seen: copy such data first. Fresh
    arrays of tens of MB cost the kernel a page fault and zeroing per 4 KB page, several
    times a copy into memory already mapped (``benchmarks/batched_env.py``)."""

    def __init__(self, keep: int = 3) -> None:
        self._keep = keep
        self._arrays: list[np.ndarray] = [np.empty(0)]
        self._free = sys.getrefcount(self._arrays[0])  # the count of an array only we hold
        self._arrays.clear()

    def copy_of(self, src: np.ndarray) -> np.ndarray:
        arrays = self._arrays
        for i in range(len(arrays)):
            if sys.getrefcount(arrays[i]) <= self._free:
                out = arrays.pop(i)
                np.copyto(out, src)
                break
        else:
            out = src.copy()
            if len(arrays) >= self._keep:
                arrays.pop(0)  # held by a caller: it lives on with them
        arrays.append(out)
        return out


def _check_seed(seed: Any) -> None:
    """BadOptionError unless ``seed`` is an integer in the int64 range (the seeds of the
    games that follow it are kept as int64)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise BadOptionError(f"seed must be an integer, got {seed!r}")
    if not -(2**63) <= int(seed) < 2**62:
        raise BadOptionError(f"seed must be in -2**63..2**62-1, got {seed}")


class BatchedEnv:
    """See the module docstring. ``num_envs`` games of ``game`` with the game's
    ``options``; ``seed`` starts the seed sequence of the first ``reset()`` without a seed.

    Attributes: ``num_envs``, ``players`` (the game's: 2 or 3), ``num_actions`` (A), ``observation_shape``
    (``(N,)``), ``action_space`` (the game's fixed ActionSpace: ``key_at(index)`` names an
    action), ``game_seeds`` (int64 [num_envs]) and ``core`` (the batched games).

    ``copy`` (default True): every ``reset`` and ``step`` returns observation and mask
    arrays that nothing else holds: what a caller keeps (an array, a view of it, the
    ``info`` dict) is never written again, and an array the caller let go of is filled
    anew (:class:`Recycler`), which spares the kernel's page zeroing of a fresh one.
    With ``copy=False`` they are the same two arrays every time, overwritten by the
    next call (no allocation: faster at large ``num_envs``, where fresh arrays of tens of MB
    cost the kernel's page zeroing); copy what must outlive a step. The observation array
    is then read-only: it is the environment's own, kept up to date block by block
    between steps (only the ship blocks an action changed are rewritten), so it must not
    be written to."""

    def __init__(self, game: str = "galactic-domination", num_envs: int = 1, seed: int = 0,
                 copy: bool = True, **options: Any) -> None:
        if game not in BATCHED_GAMES:
            known = "a game" if game in game_ids() else "an unknown game"
            raise BadOptionError(f"{game!r} is {known} without a batched implementation; "
                                 f"batched games: {', '.join(BATCHED_GAMES)}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        _check_seed(seed)
        self.game_id = game
        self.num_envs = num_envs
        self.game_seeds = np.zeros(num_envs, np.int64)
        self._next_seed = seed
        self._mask: np.ndarray | None = None
        self.copy = bool(copy)
        self._buffers: np.ndarray | None = None
        self._masks_out, self._obs_out = Recycler(), Recycler()
        if game == "interstellar-ambitions":
            self._init_ia(options)
            return
        from starlanes.games.galactic_domination import batched, batched_masks, batched_obs

        self.players = 2
        self.core = batched.GDBatch(num_envs, **options)
        self._masks = batched_masks
        self._obs = batched_obs
        self._tables = batched_obs.ObsTables(self.core.t)
        self._stream = batched_obs.ObsStream(self._tables, num_envs)
        self._obs_view = self._stream.buf.view()
        self._obs_view.flags.writeable = False
        self.action_space = self.core.t.game.action_space()
        self.num_actions = self.action_space.size
        self.observation_shape = (batched_obs.HEAD + 2 * batched.SLOTS * batched_obs.PER_SHIP,)
        self._buffers = np.zeros((num_envs, self.num_actions), np.bool_)

    def _init_ia(self, options: dict[str, Any]) -> None:
        from starlanes.games.interstellar_ambitions import batched, batched_view

        self.core = batched.IABatch(self.num_envs, **options)
        self.players = batched.PLAYERS
        self._ia_view = batched_view
        self.action_space = self.core.game.action_space()
        self.num_actions = self.action_space.size
        self.observation_shape = (batched_view.offsets(self.core).lay.size,)
        self._ia_stream = batched_view.ObsStream(self.core)
        self._obs_view = self._ia_stream.tensors.view()
        self._obs_view.flags.writeable = False
        self._buffers = np.zeros((self.num_envs, self.num_actions), np.bool_)

    def _new_games(self, rows: np.ndarray) -> None:
        seeds = self._next_seed + np.arange(rows.size, dtype=np.int64)
        self._next_seed += int(rows.size)
        self.core.reset(rows, seeds.tolist())
        self.game_seeds[rows] = seeds

    def _view(self) -> tuple[np.ndarray, dict[str, Any]]:
        core = self.core
        cp = core.current_player()
        if self.game_id == "interstellar-ambitions":
            mask = self._ia_view.legal_mask(core, self._buffers)
            buf = self._ia_stream.update(core, np.maximum(cp, 0))
        else:
            mask = self._masks.legal_mask(core, self._buffers)
            self._stream.update(core, np.maximum(cp, 0), current=cp)
            buf = self._stream.buf
        if self.copy:
            mask, obs = self._masks_out.copy_of(mask), self._obs_out.copy_of(buf)
        else:
            obs = self._obs_view
        self._mask = mask
        return obs, {"action_mask": mask, "current_player": cp,
                     "game_seed": self.game_seeds.copy()}

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game in every row (see the module docstring for the seeds):
        ``(obs, info)``. BadOptionError for a seed that is not an integer in
        -2**63..2**62-1."""
        if seed is not None:
            _check_seed(seed)
            self._next_seed = int(seed)
        self._new_games(np.arange(self.num_envs))
        return self._view()

    def action_masks(self) -> np.ndarray:
        """The current legal-action masks, bool ``[num_envs, A]`` (the array
        ``info["action_mask"]`` holds)."""
        if self._mask is None:
            raise StarlanesError("call reset() before action_masks()")
        return self._mask

    def _check(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 [num_envs], each legal in its row; raises otherwise."""
        mask = self._mask
        if mask is None:
            raise StarlanesError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise BadOptionError(f"one action per game needed: shape ({self.num_envs},), "
                                 f"got {a.shape}")
        if a.dtype.kind not in "iu":
            raise BadOptionError(f"actions must be integers, got dtype {a.dtype}")
        a = a.astype(np.int64, copy=False)
        inside = (a >= 0) & (a < self.num_actions)
        ok = inside.copy()
        ok[inside] = mask[np.flatnonzero(inside), a[inside]]
        if not ok.all():
            row = int(np.flatnonzero(~ok)[0])
            index = int(a[row])
            if not inside[row]:
                raise ActionIndexError(f"row {row}: action {index} is outside "
                                       f"0..{self.num_actions - 1}")
            words = " ".join(self.action_space.key_at(index))
            raise ActionIndexError(f"row {row}: action {index} ({words}) is not legal now "
                                   f"for seat {int(self.core.current_player()[row])}")
        return a

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Apply one action index per row (int array ``[num_envs]``), reset the games that
        end (see the module docstring): ``(obs, rewards, terminated, truncated, info)``."""
        a = self._check(actions)
        core = self.core
        if self.game_id == "interstellar-ambitions":
            core.step_indices(a)
        else:
            core.step(a)
        terminated = core.terminal()
        rewards = np.zeros((self.num_envs, self.players), np.float64)
        done = np.flatnonzero(terminated)
        if done.size:
            rewards[done] = core.ret[done]
            self._new_games(done)
        obs, info = self._view()
        return obs, rewards, terminated, np.zeros(self.num_envs, np.bool_), info
