"""Actions made once per game (``actions.made``): the same value as a freshly built action,
shared between listings, per game, and held in tables that stay bounded."""

from __future__ import annotations

import random

from starlanes.engine import load
from starlanes.games.galactic_empires import actions as A
from starlanes.games.galactic_empires.actions import GEAction


def _walk(seed: int, players: int, steps: int):
    state = load("galactic-empires", players=players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_a_made_action_equals_the_action_built_afresh_and_is_shared_between_listings():
    seen: dict[tuple[str, int, int, int], GEAction] = {}
    for state in _walk(3, 3, 400):
        for action in state.legal_actions():
            fresh = GEAction(action.kind, action.a, action.b, action.c, action.label)
            assert action == fresh and hash(action) == hash(fresh)
            key = (action.kind, action.a, action.b, action.c)
            if key in seen and action.kind != "done":
                # one object per (kind, arguments) within a game, with one notation
                assert seen[key].label == action.label
                if action.kind in {"play", "swap", "study", "discard", "scuttle", "engage",
                                   "arm", "repair"}:
                    assert seen[key] is action
            seen[key] = action


def test_two_games_with_other_cards_do_not_share_labels():
    one = load("galactic-empires", players=2, seed=1).new_initial_state()
    two = load("galactic-empires", players=2, seed=2).new_initial_state()
    assert one.defs is not two.defs
    a1 = A.one_card(one, "discard", 0)
    a2 = A.one_card(two, "discard", 0)
    assert a1.label == f"discard {one.name(0)}" and a2.label == f"discard {two.name(0)}"
    assert A.one_card(one, "discard", 0) is a1


def test_the_tables_stay_bounded_however_many_actions_and_games_are_met():
    state = load("galactic-empires", players=2, seed=5).new_initial_state()
    for i in range(A.MADE_CAP * 2 + 10):  # more distinct actions than a table keeps
        made = A.made(state, "probe", i, -1, -1, lambda _s, kind, a, _b, _c: f"{kind} {a}")
        assert made.a == i
    table = state.game.made_actions
    assert len(table) <= A.MADE_CAP
    games = [load("galactic-empires", players=2, seed=1000 + seed) for seed in range(100)]
    for game in games:  # each game keeps its own table, gone with the game
        A.one_card(game.new_initial_state(), "discard", 0)
    assert all(len(game.made_actions) == 1 for game in games)
