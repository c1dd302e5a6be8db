"""The text of a view pushed on a websocket: the same JSON value the standard library would
write, compact and in UTF-8 (names with accents stay readable), with integer keys as
strings; the views of real games of all four games round-trip exactly."""

from __future__ import annotations

import json
import random

import pytest

from starlanes.engine import load
from starlanes.server.service import view_text


def test_a_view_with_words_numbers_and_integer_keys_is_the_standard_json() -> None:
    view = {"seat": 1, "names": ["Ann", "Zoë 🚀"], "scores": {0: 3, 1: 2.5}, "over": False,
            "winner": None}
    text = view_text(view)
    assert "Zoë 🚀" in text and ", " not in text and ": " not in text
    assert json.loads(text) == json.loads(json.dumps(view))


@pytest.mark.parametrize("game,players", [("rift-domination", 3), ("galactic-domination", 2),
                                          ("interstellar-ambitions", 3),
                                          ("galactic-empires", 2)])
def test_observations_of_random_games_round_trip(game: str, players: int) -> None:
    state = load(game, players=players, seed=4).new_initial_state()
    rng = random.Random(4)
    for _ in range(60):
        if state.is_terminal():
            break
        for seat in range(players):
            observation = state.observation(seat)
            assert json.loads(view_text(observation)) == json.loads(json.dumps(observation))
        state.apply(rng.choice(state.legal_actions()))
