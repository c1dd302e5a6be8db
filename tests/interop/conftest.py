"""Shared helpers of the research-interface tests."""

from __future__ import annotations

import random

from starlanes.engine import game_ids, game_module, load


def research_games() -> list[tuple[str, int]]:
    """(game id, player count) for every game with an action space and a tensor, at
    every legal player count."""
    out = []
    for gid in game_ids():
        if game_module(gid, "action_space") and game_module(gid, "tensor"):
            g = load(gid)
            out += [(gid, n) for n in range(g.min_players, g.max_players + 1)]
    return out


def random_states(game_id: str, players: int, games: int, cap: int, seed: int = 0):
    """States met in ``games`` random playouts of at most ``cap`` actions each."""
    for k in range(games):
        state = load(game_id, players=players, seed=seed + k).new_initial_state()
        rng = random.Random(seed + k)
        for _ in range(cap):
            if state.is_terminal():
                break
            yield state
            state.apply(rng.choice(state.legal_actions()))
        yield state
