"""Adapters to research frameworks (PettingZoo, Gymnasium, OpenSpiel), over any game that
has a fixed action space and an observation tensor (``Game.action_space``,
``observation_tensor``).

They need the ``rl`` extra (``pip install "starlanes[rl]"``); this package knows no game.
"""

from __future__ import annotations

from typing import Any

OBSERVATION_FORMATS = ("dict", "array")
"""``dict``: ``{"observation": tensor, "action_mask": int8 mask}`` (PettingZoo's and
sb3-contrib's convention); ``array``: the tensor alone, the mask in ``info["action_mask"]``
(and the Gymnasium adapter's ``action_masks()``)."""


def tensor_bounds(game: Any) -> tuple[float, float]:
    """The ``(low, high)`` every value of ``game``'s observation tensor lies in, from
    research.toml (the adapters clip to them)."""
    from .rewards import game_constants

    const = game_constants(game.game_id)
    return float(const["low"]), float(const["high"])


def check_format(observation: str) -> str:
    """``observation`` if it is one of :data:`OBSERVATION_FORMATS`, else BadOptionError."""
    from starlanes.engine import BadOptionError

    if observation not in OBSERVATION_FORMATS:
        raise BadOptionError(f"unknown observation format {observation!r}; formats: "
                             f"{', '.join(OBSERVATION_FORMATS)}")
    return observation


def spaces_for(game: Any, observation: str = "dict") -> tuple[Any, Any]:
    """Gymnasium spaces of ``game``: the observation space and the Discrete action space.

    The tensor is a float32 Box of ``game.observation_tensor_shape()`` bounded by
    :func:`tensor_bounds`; with ``observation="dict"`` the space is a Dict of that Box
    (``observation``) and ``action_mask`` (int8 0/1 Box of ``game.num_distinct_actions()``),
    with ``"array"`` the Box alone. Raises BadOptionError for another format."""
    import numpy as np
    from gymnasium import spaces

    check_format(observation)
    n = game.num_distinct_actions()
    low, high = tensor_bounds(game)
    box = spaces.Box(low, high, game.observation_tensor_shape(), dtype=np.float32)
    if observation == "array":
        return box, spaces.Discrete(n)
    obs = spaces.Dict({
        "observation": box,
        "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
    })
    return obs, spaces.Discrete(n)


def legal_index_map(game: Any) -> Any:
    """The game's batch map ``legal_index_map(state, space)`` (index -> legal action, the
    same dict as ``space.indices_by_key(state)``) from its ``action_space`` companion
    module, or None where it has none. The action space's ``legal_indices``, which the
    adapters mask with, answers through it already."""
    from starlanes.engine import game_module

    module = game_module(type(game), "action_space")
    return getattr(module, "legal_index_map", None)


def _clip_ufunc() -> Any:
    """numpy's ``clip`` ufunc (one pass, no Python wrapper), or ``np.clip`` where the
    numpy at hand does not expose it."""
    import numpy as np

    for name in ("_core", "core"):
        umath = getattr(getattr(np, name, None), "umath", None)
        if umath is not None and hasattr(umath, "clip"):
            return umath.clip
    return np.clip


_CLIP: list[Any] = []


def tensor_encoder(game: Any) -> Any:
    """``f(state, seat)``: ``state.observation_tensor(seat)`` for states of ``game`` (its
    class, content and player count) clipped in place to the bounds of
    :func:`tensor_bounds`, calling the game's tensor module directly (without the state's
    look-up of it). The clip is one pass of numpy's ``clip`` ufunc (``np.clip``'s Python
    wrapper, and a ``minimum`` then ``maximum`` pass, cost two to eight times more on these
    sizes), with the same values as ``np.clip`` (a NaN stays NaN). A tensor module that
    keeps its vector between calls (Rift Domination's canvases) offers
    ``encode_clipped(state, seat, clip, low, high)``, which writes the clipped copy in the
    same pass as the copy out."""
    from starlanes.engine import game_module

    if not _CLIP:
        _CLIP.append(_clip_ufunc())
    clip = _CLIP[0]
    low, high = tensor_bounds(game)
    module = game_module(type(game), "tensor")
    clipped = getattr(module, "encode_clipped", None)
    if clipped is not None:  # the module clips as it copies its vector out: one pass
        return lambda state, seat: clipped(state, seat, clip, low, high)
    raw = module.encode if module is not None else (
        lambda state, seat: state.observation_tensor(seat))

    def tensor(state: Any, seat: int) -> Any:
        x = raw(state, seat)
        return clip(x, low, high, out=x)
    return tensor
