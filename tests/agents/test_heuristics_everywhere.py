"""Every game's heuristic bot answers every position, not only the ones its own play
reaches: along random playouts it is asked at each decision and must return a legal
action without changing the state (search rolls it out from arbitrary positions)."""

from __future__ import annotations

import random

import pytest

import starlanes
from starlanes.agents.registry import make_agent

CASES = [("rift-domination", 2), ("rift-domination", 4), ("galactic-domination", 2),
         ("interstellar-ambitions", 3), ("interstellar-ambitions", 5),
         ("galactic-empires", 2), ("galactic-empires", 3)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_heuristic_answers_positions_reached_by_random_play(game_id, players, seed):
    state = starlanes.load(game_id, players=players, seed=seed).new_initial_state()
    bot = make_agent("heuristic", game_id, seed)
    rng = random.Random(seed)
    for _ in range(1500):
        if state.is_terminal():
            break
        before = state.digest()
        choice = bot.act(state)
        assert state.digest() == before
        assert state.is_legal(choice), f"{choice} is not legal"
        state.apply(rng.choice(state.legal_actions()))
