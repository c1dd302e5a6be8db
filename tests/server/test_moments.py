"""The game-over dialog's key moments (:mod:`starlanes.server.moments`): the lead changes
and the largest swing of a score, worked out by replaying a finished game through the
engine contract, for every game."""

from __future__ import annotations

import random

import pytest

from starlanes.engine import game_ids, load
from starlanes.server.moments import MOST_LEAD_CHANGES, key_moments, leader

from .conftest import auth, create, finish, join


def _finished(game_id: str, seed: int = 3):
    g = load(game_id, seed=seed)
    s = g.new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return g, s


def test_leader_is_the_seat_alone_at_the_top():
    assert leader([3, 5, 1]) == 1
    assert leader([5, 5, 1]) is None


@pytest.mark.parametrize("game_id", game_ids())
def test_moments_follow_the_scores_move_by_move(game_id):
    g, final = _finished(game_id)
    moments = key_moments(final, g.new_initial_state())
    # the scores after every move, from a second replay
    state = g.new_initial_state()
    scores = [list(state.scores())]
    for action in final.history:
        state.apply(action)
        scores.append(list(state.scores()))
    sole = [leader(s) for s in scores]
    takes = [k for k in range(1, len(sole)) if sole[k] is not None
             and sole[k] != next((x for x in reversed(sole[:k]) if x is not None), None)]
    assert [d["move"] for d in moments["leads"]] == takes[-MOST_LEAD_CHANGES:]
    assert all(sole[d["move"]] == d["seat"] for d in moments["leads"])
    assert moments["lead_changes"] == max(0, len(takes) - (sole[0] is None))
    deltas = [(b - a, k, seat) for k in range(1, len(scores))
              for seat, (a, b) in enumerate(zip(scores[k - 1], scores[k], strict=True))
              if b != a]
    swing = moments["largest_swing"]
    if not deltas:
        assert swing is None
    else:
        drops = [d[0] for d in deltas if d[0] < 0]
        # the heaviest blow where any score ever dropped, else the largest gain
        assert swing["points"] == (min(drops) if drops else max(d[0] for d in deltas))
        move, seat = swing["move"], swing["seat"]
        assert scores[move][seat] - scores[move - 1][seat] == swing["points"]
        assert swing["action"] == str(final.history[move - 1])


def test_a_finished_game_view_carries_its_key_moments(client):
    gid = create(client, "galactic-domination", ["human", "heuristic"])
    token = join(client, gid, "Ann", 0)
    v = finish(client, gid, token, timeout=120)
    moments = v["result"]["moments"]
    assert set(moments) == {"lead_changes", "leads", "largest_swing"}
    assert client.get(f"/api/games/{gid}/view", headers=auth(token)).json()["result"][
        "moments"] == moments


@pytest.mark.parametrize("game_id", game_ids())
def test_the_swing_names_who_chose_it_and_the_action_in_words(game_id):
    """The largest swing says which seat chose the action (a blow is often another seat's
    move) and the action as its button read it, in words (no ids), in the position where
    it was chosen."""
    from starlanes.engine.explain import label_fault

    g, final = _finished(game_id)
    swing = key_moments(final, g.new_initial_state())["largest_swing"]
    assert swing is not None
    state = g.new_initial_state()
    for action in final.history[:swing["move"] - 1]:
        state.apply(action)
    assert swing["by"] == state.current_player()
    assert swing["label"] == g.label(state, final.history[swing["move"] - 1])
    assert not label_fault(swing["label"], swing["action"]), swing
