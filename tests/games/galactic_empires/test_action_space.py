"""Galactic Empires' fixed action space names cards by copy rank, never by instance number,
and its observation tensor lists what the seat sees (docs/research.md)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")

import starlanes  # noqa: E402
from starlanes.engine import ActionIndexError  # noqa: E402
from starlanes.games.galactic_empires import tensor  # noqa: E402
from starlanes.games.galactic_empires.action_space import copy_caps, key  # noqa: E402


def _key_of(s, notation: str) -> tuple[str, ...]:
    action = next(a for a in s.legal_actions() if str(a) == notation)
    return key(s, action)


def test_copies_in_hand_are_named_by_rank_not_instance(ge):
    """Two Blue Giants in hand are blue_giant:0 and blue_giant:1 by instance order; once
    the first is played the other becomes blue_giant:0, at the same index."""
    s = ge.blank(seat=0)
    low, high = ge.give(s, 0, "blue_giant", "blue_giant")
    game = s.game
    k_low = _key_of(s, f"play blue_giant#{low}")
    k_high = _key_of(s, f"play blue_giant#{high}")
    assert (k_low, k_high) == (("play", "blue_giant:0"), ("play", "blue_giant:1"))
    i0 = game.action_space().index(k_low)
    assert game.action_to_index(s.legal_actions()[0], s) >= 0
    ge.do(s, f"play blue_giant#{low}")
    assert _key_of(s, f"play blue_giant#{high}") == ("play", "blue_giant:0")
    assert game.action_to_index(
        next(a for a in s.legal_actions() if str(a) == f"play blue_giant#{high}"), s) == i0


def test_the_same_position_dealt_with_other_instances_has_the_same_indices(ge):
    """Instance numbers depend on the deal; the indices of a position do not."""
    def position(padding: int):
        s = ge.blank(phase="fire")
        ge.give(s, 0, *["blue_giant"] * padding)  # shifts the instance numbers below
        s.hands[0] = []
        ge.put(s, "arg_frigate", 0, engaged=True)
        ge.put(s, "arg_cruiser", 1, engaged=True)
        ge.put(s, "arg_cruiser", 1, engaged=True)
        ge.give(s, 0, "re_deflector", "blue_giant")
        s.phase = "fire"
        ge.touch(s)
        return s

    a, b = position(0), position(3)
    assert a.units.keys() != b.units.keys()
    assert np.array_equal(a.legal_action_mask(), b.legal_action_mask())
    assert sorted(key(a, x) for x in a.legal_actions()) == \
        sorted(key(b, x) for x in b.legal_actions())
    assert ("aim", "arg_cruiser:1@1") in {key(a, x) for x in a.legal_actions()}
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))


def test_cards_in_play_are_named_by_owner_relative_to_the_seat_to_act(ge):
    """``@r`` is the owner r seats after the actor: the same ship is @2 for seat 0 and
    @1 for seat 1 in a three-player game."""
    s = ge.blank(players=3, phase="fire")
    ge.put(s, "arg_frigate", 0, engaged=True)
    ge.put(s, "arg_frigate", 1, engaged=True)
    target = ge.put(s, "arg_cruiser", 2, engaged=True)
    assert _key_of(s, f"aim arg_cruiser#{target}") == ("aim", "arg_cruiser:0@2")
    s.seat = 1
    ge.touch(s)
    assert _key_of(s, f"aim arg_cruiser#{target}") == ("aim", "arg_cruiser:0@1")
    ge.do(s, f"aim arg_cruiser#{target}")
    assert ("shoot", "arg_frigate:0@0.0") in {key(s, a) for a in s.legal_actions()}


def test_reserve_cards_are_named_by_slot_in_content_order(ge):
    """A swap names the reserve card by its slot: the reserve sorted by card id in the
    content's order (ruling GE-OPEN-04: as many reserve cards as players)."""
    s = ge.blank(seat=0)
    (hand,) = ge.give(s, 0, "arg_battleship")
    order = list(copy_caps(s.content))
    late, early = sorted(["blue_giant", "arg_scout"], key=order.index, reverse=True)
    r_late = ge.new_inst(s, late)
    r_early = ge.new_inst(s, early)
    s.reserve[0] = [r_late, r_early]
    ge.touch(s)
    assert _key_of(s, f"swap arg_battleship#{hand} {early}#{r_early}") == \
        ("swap", "arg_battleship:0", "R0")
    assert _key_of(s, f"swap arg_battleship#{hand} {late}#{r_late}") == \
        ("swap", "arg_battleship:0", "R1")
    t = s.observation_tensor(0)
    lay = tensor.layout(s.game)
    q = lay.at["cards"] + len(lay.cards)
    assert t[q + lay.card_index[early]] == 1
    assert t[q + len(lay.cards) + lay.card_index[late]] == 1


def test_card_actions_need_the_state_and_numbered_copies(ge):
    s = ge.blank(seat=0)
    (card,) = ge.give(s, 0, "blue_giant")
    game = s.game
    play = next(a for a in s.legal_actions() if str(a) == f"play blue_giant#{card}")
    with pytest.raises(ActionIndexError, match="needs the state"):
        game.action_to_index(play)
    done = next(a for a in s.legal_actions() if str(a) == "done")
    assert game.action_to_index(done) == game.action_space().index(("done",))
    cap = copy_caps(s.content)["blue_giant"]
    ge.give(s, 0, *["blue_giant"] * cap)  # one copy more than any deck holds
    with pytest.raises(ActionIndexError, match="does not number"):
        s.legal_action_mask()


def _instances(s, a) -> tuple[int, ...]:
    """The card instances an action names, in the order of its key's arguments."""
    if a.kind == "play" and a.c >= 0:
        return (a.a, a.c)
    if a.kind == "counter":
        return (a.a, s.pending[4][a.b][0])
    if a.kind in ("draw", "celebrate", "split"):
        return ()
    return (a.a, a.b, a.c)


@pytest.mark.parametrize("players, structure", [(2, "standard"), (3, "basic"),
                                                (4, "standard"), (5, "basic")])
def test_keys_name_each_card_by_its_id_and_masks_survive_determinisation(players, structure):
    """Over random playouts (both deck structures): no key names an instance, each card
    token carries the card id of the instance it stands for, and a determinisation for
    the seat to act keeps its legal actions at the same indices."""
    from starlanes.games.galactic_empires.heuristic import HeuristicAgent

    game = starlanes.load("galactic-empires", players=players, seed=players,
                          structure=structure)
    rng = random.Random(players)
    bot = HeuristicAgent(players)
    s = game.new_initial_state()
    steps = 0
    while not s.is_terminal() and steps < 1500:
        legal = s.legal_actions()
        assert int(s.legal_action_mask().sum()) == len(legal)
        for a in legal:
            k = key(s, a)
            assert not any("#" in tok for tok in k), k
            for inst, tok in zip(_instances(s, a), k[1:], strict=False):
                if ":" in tok:
                    assert tok.split(":")[0] == s.defs[inst], (a, k)
        if steps % 9 == 0:
            seat = s.current_player()
            d = s.determinize(seat, rng)
            assert np.array_equal(d.legal_action_mask(), s.legal_action_mask())
        s.apply(bot.act(s) if rng.random() < 0.7 else rng.choice(legal))
        steps += 1
