"""Refusals that said the wrong thing (issue 28): a short unit name in the wrong step is a
wrong-step refusal, not an unknown word; Galactic Empires' first-turn refusal names what
may really be played."""

from __future__ import annotations

import starlanes


def test_short_unit_name_in_the_wrong_step_says_the_step() -> None:
    """RD: ``recruit`` belongs to the recruit step (RD-TURN-07); at set-up, ``recruit inf
    A1a`` is refused for the step, and ``inf`` (a prefix the reader accepts) is no unknown
    unit."""
    game = starlanes.load("rift-domination", players=2, seed=5)
    state = game.new_initial_state()
    refusal = game.explain_refusal(state, "recruit inf A1a")
    assert refusal is not None and refusal.kind == "wrong_phase"
    assert "'recruit' is used in the recruit step" in refusal.reason
    assert "not a unit" not in refusal.reason
    unknown = game.explain_refusal(state, "recruit zorgs A1a")
    assert unknown is not None and "'zorgs' is not a unit of this game" in unknown.reason


def test_galactic_empires_first_turn_refusal_lists_what_may_be_played() -> None:
    """GE-PLAY-08: on turn one only terrain joins the active fleet; the refusal of a ship
    says so and lists the kinds of card in hand that may be played now."""
    game = starlanes.load("galactic-empires", players=2, seed=31)
    state = game.new_initial_state()
    while not any(str(a).startswith("play ") for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    playable = {state.card(h).type for h in state.hands[state.seat]
                if f"play {state.card(h).id}#{h}" in {str(a) for a in state.legal_actions()}}
    ship = next(h for h in state.hands[state.seat] if state.card(h).type == "S")
    refusal = game.explain_refusal(state, f"play {state.card(ship).id}#{ship}")
    assert refusal is not None and refusal.kind == "wrong_phase"
    assert "On your first turn no ship may be played" in refusal.reason
    assert "hazards, monsters and occurrences may still be played" in refusal.reason
    assert playable == {"T"}
    assert "Playable from your hand now: terrain." in refusal.reason
