"""The heuristic bot against random, and heuristic games end by conquest."""

from __future__ import annotations

import re

import starlanes
from starlanes.agents.random_agent import RandomAgent
from starlanes.games.galactic_empires.heuristic import HeuristicAgent


def _play(seed: int, players: int, heuristic_seats: set[int], structure: str = "basic"):
    s = starlanes.load("galactic-empires", players=players, seed=seed,
                       structure=structure).new_initial_state()
    bots = [HeuristicAgent(seed + i) if i in heuristic_seats else RandomAgent(seed + i)
            for i in range(players)]
    while not s.is_terminal():
        a = bots[s.current_player()].act(s)
        assert a in s.legal_actions()
        s.apply(a)
    return s


def test_heuristic_beats_random():
    """The heuristic wins clearly against random (>= 90% of 2-player games)."""
    wins = 0
    for g in range(12):
        s = _play(g, 2, {g % 2}, ("basic", "standard")[g % 2])
        wins += s.returns()[g % 2] == 1.0
    assert wins >= 11


def test_heuristic_games_end_by_conquest():
    """Heuristic self-play ends with one Sector HQ standing, well before the turn cap."""
    for g, players in ((1, 2), (2, 3), (3, 4)):
        s = _play(g, players, set(range(players)))
        assert s.end_reason == "conquest" and len(s.winners) == 1
        assert s.round < s.turn_cap


def test_render_shows_only_own_hand():
    """render(state, seat) shows the seat's own hand and no other hand."""
    from rich.console import Console

    from starlanes.games.galactic_empires.render import render

    s = starlanes.load("galactic-empires", players=2, seed=2).new_initial_state()
    console = Console(width=200, record=True)
    console.print(render(s, 0))
    text = console.export_text()
    assert re.search(rf"#{s.hands[0][0]}\b", text)
    hidden = [c for c in s.hands[1] + s.reserve[1] if re.search(rf"#{c}\b", text)]
    assert not hidden
