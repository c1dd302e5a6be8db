"""IA-OPEN-21 (issue 28): an Ambition's condition must hold when it is claimed in step 4
(default, ``ambition_timing=claim``), or, with ``ambition_timing=turn``, at some moment of
the claimer's turn ("during their turn", IA-AMB-02)."""

from __future__ import annotations

import pytest

import starlanes
from starlanes.engine import replay
from starlanes.games.interstellar_ambitions.turn import claimable

SET = "expansionist,terraformer,treasury,warlord,spymaster,decorated"


def _in_a_turn(reading: str):
    state = starlanes.load("interstellar-ambitions", players=3, seed=2, ambition_set=SET,
                           ambition_timing=reading).new_initial_state()
    while state.phase != "turn" or state.current_player() != state.seat:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize(("reading", "claimable_later"), [("claim", False), ("turn", True)])
def test_treasury_met_earlier_in_the_turn(reading: str, claimable_later: bool) -> None:
    """Treasury (16 resources) is met in the middle of the turn, then the resources are
    spent: at claiming time only the 'turn' reading still allows the claim."""
    state = _in_a_turn(reading)
    seat = state.seat
    slot = state.ambitions.index(state.content.ambition_index["treasury"])
    state.res[seat] = (8, 8, 0, 0)
    action = state.legal_actions()[0]
    state.apply(action)  # the tracking sees 16 resources during the turn
    if state.seat != seat:
        pytest.skip("the first action ended the turn")
    state.res[seat] = (0, 0, 0, 0)  # spent before step 4
    assert (slot in claimable(state, seat)) is claimable_later


def test_turn_reading_replays_to_the_same_digest() -> None:
    state = _in_a_turn("turn")
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply(state.legal_actions()[-1])
    record = state.record(["random"] * 3)
    assert replay(record).digest() == state.digest()
