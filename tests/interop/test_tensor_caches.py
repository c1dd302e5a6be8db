"""The observation tensors' caches never change a value: along random games, at every step
and for every seat, the encoder as the adapters use it (its caches warm, the acting seat
encoded first as the AEC loop does, then the others) gives the bytes of a second copy of
the same tensor module whose caches are emptied before every call (a fresh encoder).

Covered: Galactic Domination (ship rows, slot rows kept per seat, head rows), Galactic
Empires (discard counts, unit rows and unit sections kept per seat) and Interstellar
Ambitions (seat parts and piles kept on the layout)."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from starlanes.engine import load

MODULES = {
    "galactic-domination": "starlanes.games.galactic_domination.tensor",
    "galactic-empires": "starlanes.games.galactic_empires.tensor",
    "interstellar-ambitions": "starlanes.games.interstellar_ambitions.tensor",
}


def _copy(name: str) -> ModuleType:
    """A second copy of module ``name``, with its own module-level caches."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fresh_encoder(name: str) -> Callable[[Any, int], Any]:
    """``encode(state, seat)`` of a copy of tensor module ``name`` with every cache emptied
    before each call (module-level containers back to their first value, and a layout
    built anew where the layout keeps caches)."""
    module = _copy(name)
    first = [(v, v.copy()) for k, v in vars(module).items()
             if k.startswith("_") and k.isupper() and isinstance(v, (dict, list))]
    if hasattr(module, "_Layout"):
        module.layout = module._Layout  # type: ignore[attr-defined]

    def encode(state: Any, seat: int) -> Any:
        for value, start in first:
            if isinstance(value, dict):
                value.clear()
                value.update(start)
            else:
                value[:] = start
        return module.encode(state, seat)
    return encode


@pytest.mark.parametrize(("game_id", "players"), [
    ("galactic-domination", 2), ("galactic-empires", 2), ("galactic-empires", 5),
    ("interstellar-ambitions", 3), ("interstellar-ambitions", 6)])
def test_cached_encoder_is_a_fresh_encoder(game_id: str, players: int) -> None:
    warm = importlib.import_module(MODULES[game_id]).encode
    fresh = _fresh_encoder(MODULES[game_id])
    rng = random.Random(players)
    steps = 0
    for seed in (1, 2):
        state = load(game_id, players=players, seed=seed).new_initial_state()
        space = state.game.action_space()
        while not state.is_terminal() and steps < 700 * seed:
            space.legal_indices(state)  # as the AEC environment, before it observes
            actor = max(state.current_player(), 0)
            for seat in (actor, *(s for s in range(players) if s != actor)):
                got = warm(state, seat)
                assert got.tobytes() == fresh(state, seat).tobytes(), (steps, seat)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 600
