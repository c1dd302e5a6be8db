"""Seeded random playouts shared by the tests that sweep many positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import starlanes
from starlanes.engine import Game, GameState


def playout_states(game_id: str, min_players: int, games: int = 3, steps: int = 300
                   ) -> Iterator[tuple[Game, GameState]]:
    """(game, state) for the states met in ``games`` seeded random games of at most
    ``steps`` actions; game k has ``min_players + k % 3`` players and seed k."""
    for seed in range(games):
        g = starlanes.load(game_id, players=min_players + seed % 3, seed=seed)
        s = g.new_initial_state()
        rng = random.Random(seed)
        for _ in range(steps):
            if s.is_terminal():
                break
            yield g, s
            s.apply(rng.choice(s.legal_actions()))
