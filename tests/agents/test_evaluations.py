"""The games' leaf evaluations for search (``evaluate`` in each heuristic module, else the
generic score scaling): one value in [0, 1] per seat, the game's returns once it is over,
and sensible directions."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.agents.mcts import score_evaluation
from starlanes.agents.registry import make_agent
from starlanes.engine import game_module

GAMES = ["rift-domination", "galactic-domination", "interstellar-ambitions",
         "galactic-empires"]


def _play(game_id: str, players: int, actions: int, seed: int = 4):
    state = starlanes.load(game_id, players=players, seed=seed).new_initial_state()
    bots = [make_agent("heuristic", game_id, s) for s in range(players)]
    n = 0
    while not state.is_terminal() and (actions < 0 or n < actions):
        state.apply(bots[state.current_player()].act(state))
        n += 1
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_values_are_per_seat_probabilities_and_exact_at_the_end(game_id):
    evaluate = getattr(game_module(game_id, "heuristic"), "evaluate", score_evaluation)
    players = 3 if game_id == "interstellar-ambitions" else 2
    mid = _play(game_id, players, 120)
    values = evaluate(mid)
    assert len(values) == mid.game.players and all(0.0 <= v <= 1.0 for v in values)
    if mid.game.players == 2 or game_id == "interstellar-ambitions":  # softmax: sums to 1
        assert sum(values) == pytest.approx(1.0)
    end = _play(game_id, players, -1)
    assert evaluate(end) == end.returns()


def test_galactic_empires_values_a_lost_ship_and_hq_damage():
    from starlanes.games.galactic_empires.heuristic import EVAL_WEIGHTS, evaluate
    from starlanes.games.galactic_empires.units import destroy, vessels_of

    s = _play("galactic-empires", 2, 300)
    assert not s.is_terminal() and vessels_of(s, 1) and vessels_of(s, 0)
    before = evaluate(s)[0]
    ship = s.clone()
    destroy(ship, vessels_of(ship, 1)[0])
    assert evaluate(ship)[0] > before
    hit = s.clone()
    hit.hq[0] += 3
    assert evaluate(hit)[0] < before
    assert all(w > 0 for k, w in EVAL_WEIGHTS.items() if k != "damage")
    assert EVAL_WEIGHTS["damage"] < 0  # damage still on a ship counts against its owner
    worn = s.clone()
    ship = vessels_of(worn, 0)[0]
    worn.units[ship] = worn.units[ship]._replace(dmg=worn.units[ship].dmg + 1)
    assert evaluate(worn)[0] < before


def test_interstellar_ambitions_values_vp_resources_levels_and_fleet():
    """The fitted leaf value (heuristic_eval): more VP (a medal, IA-END-09), more resources,
    a higher track token and a stronger fleet each raise the seat's value, and lower its
    opponents'; the weights say the same."""
    from starlanes.games.interstellar_ambitions.heuristic import EVAL_WEIGHTS, evaluate

    s = _play("interstellar-ambitions", 3, 200)
    assert not s.is_terminal()
    before = evaluate(s)
    assert all(w > 0 for w in EVAL_WEIGHTS.values())

    def changed(edit):
        t = s.clone()
        edit(t)
        after = evaluate(t)
        assert after[0] > before[0] and after[1] < before[1] and after[2] < before[2]

    changed(lambda t: t.medals.__setitem__(0, (t.medals[0][0] + 1, t.medals[0][1])))
    changed(lambda t: t.res.__setitem__(0, tuple(v + 2 for v in t.res[0])))
    changed(lambda t: t.ships.__setitem__(0, t.ships[0] + t.ships[1][:1]))
    low = min(range(6), key=lambda i: (s.tokens[0][i] & 3) if s.tokens[0][i] >= 0 else 9)
    assert s.tokens[0][low] >= 0 and s.tokens[0][low] & 3 < 3

    def advance(t):
        tokens = list(t.tokens[0])
        tokens[low] += 1
        t.tokens[0] = tuple(tokens)

    changed(advance)


def test_softmax_values_are_win_chances_and_the_two_seat_margin():
    from starlanes.engine import margin_values, softmax_values

    values = softmax_values([2.0, 0.5, -1.0])
    assert sum(values) == pytest.approx(1.0) and values[0] > values[1] > values[2]
    assert softmax_values([1.5, 0.25]) == pytest.approx(margin_values([1.5, 0.25], 1.0))
    assert softmax_values([1e6, 0.0, -1e6]) == pytest.approx([1.0, 0.0, 0.0])
