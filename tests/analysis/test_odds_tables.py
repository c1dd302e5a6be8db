"""The tables show the odds of a battle before a player commits to it: the terminal's
``? N`` line and the server's odds endpoint both come from ``action_odds`` on a
determinisation for the deciding seat."""

from __future__ import annotations

import starlanes
from starlanes.agents import make_agent
from starlanes.analysis.odds import action_odds
from starlanes.terminal.menu import battle_odds_line


def _battle_move(seed: int = 3):
    game = starlanes.load("rift-domination", players=2, seed=seed)
    state = game.new_initial_state()
    bots = [make_agent("heuristic", "rift-domination", i) for i in range(2)]
    for _ in range(3000):
        for a in state.legal_actions():
            if str(a).startswith("move ") and action_odds(state, a, trials=50) is not None:
                return state, a
        state.apply(bots[state.current_player()].act(state))
    raise AssertionError("no battle move came up")


def test_a_battle_move_gets_an_odds_line_and_the_state_is_untouched():
    """RD-BAT-01: moving onto an enemy fleet starts a battle; the table shows its odds."""
    state, move = _battle_move()
    digest = state.digest()
    line = battle_odds_line(state, move)
    assert line.startswith("battle odds: win ") and "lose" in line
    assert state.digest() == digest


def test_actions_that_start_no_battle_get_no_odds():
    state, _ = _battle_move()
    quiet = [a for a in state.legal_actions() if str(a) in ("end", "done")]
    assert quiet and battle_odds_line(state, quiet[0]) == ""
    other = starlanes.load("galactic-domination", players=2, seed=1).new_initial_state()
    assert action_odds(other, other.legal_actions()[0]) is None
    assert battle_odds_line(other, other.legal_actions()[0]) == ""
