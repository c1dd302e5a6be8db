"""Bot strength as data (issue targets; 70% against the heuristic, issue 29), kept out of
the default suite: run with ``pytest -m slow tests/agents/test_strength.py``. Each case
plays seat-alternating games of one MCTS seat (default budget) against the other agent in
every other seat.
``python benchmarks/strength.py`` runs the same cases in parallel and prints intervals."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.agents.registry import make_agent
from starlanes.engine import derive_seed

pytestmark = pytest.mark.slow

GAMES = 20


def mcts_share(game_id: str, players: int, opponent: str, games: int = GAMES) -> float:
    """MCTS's share of wins (ties shared) over ``games`` games, its seat rotating."""
    won = 0.0
    for g in range(games):
        state = starlanes.load(game_id, players=players,
                               seed=derive_seed(2026, g)).new_initial_state()
        me = g % players
        agents = {s: make_agent("mcts" if s == me else opponent, game_id,
                                derive_seed(2026, g, s)) for s in range(players)}
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
        if me in state.winners:
            won += 1 / len(state.winners)
    return won / games


@pytest.mark.parametrize(("game_id", "players", "opponent", "target"), [
    ("rift-domination", 2, "random", 0.95),
    ("rift-domination", 2, "heuristic", 0.70),
    ("galactic-domination", 2, "random", 0.95),
    ("galactic-domination", 2, "heuristic", 0.70),
    ("interstellar-ambitions", 3, "random", 0.80),
    ("interstellar-ambitions", 3, "heuristic", 0.70),
    ("galactic-empires", 2, "random", 0.95),
    ("galactic-empires", 2, "heuristic", 0.70),
])
def test_mcts_meets_the_strength_target(game_id, players, opponent, target):
    assert mcts_share(game_id, players, opponent) >= target
