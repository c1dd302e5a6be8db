"""``info`` accepts every form the tables print and says readable facts; the Galactic
Empires hand shows each card's text (issue 28)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

import starlanes
from starlanes.terminal import renderer_for
from starlanes.terminal.menu import info_lines


def _advance(game: str, seed: int, steps: int):
    state = starlanes.load(game, players=2, seed=seed).new_initial_state()
    for _ in range(steps):
        state.apply(state.legal_actions()[0])
    return state


def _text(lines: list[str]) -> str:
    """The lines as a player reads them: markup gone, one space between words."""
    return " ".join(" ".join(Text.from_markup(x).plain for x in lines).split())


def test_galactic_empires_info_takes_the_printed_card_forms() -> None:
    state = _advance("galactic-empires", 31, 3)
    seat = state.current_player()
    for form in ("gas_giant#26", "26", "#26", "GAS_GIANT#26"):
        got = _text(info_lines(state, seat, form))
        assert "unit 26 on the table: card gas_giant, held by P1" in got, form
        assert "Gas Giant (terrain gas_giant" in got and "owner" not in got
    in_hand = _text(info_lines(state, seat, "eq_transporter#24"))
    assert "eq_transporter#24 in the hand" in in_hand and "Transporter (equipment" in in_hand
    assert _text(info_lines(state, seat, "24")) == in_hand
    # the other seat's hand is not in this seat's observation: nothing numbered leaks
    other = state.hands[1 - seat][0]
    assert "nothing numbered" in _text(info_lines(state, seat, str(other)))


def test_rift_domination_planet_info_is_readable() -> None:
    state = _advance("rift-domination", 5, 0)
    got = _text(info_lines(state, 0, "A1a"))
    assert got.startswith("planet A1a on the table: no owner")
    assert "-1" not in got and "False" not in got


def test_galactic_domination_ship_by_its_drawn_form() -> None:
    state = _advance("galactic-domination", 2, 6)
    got = _text(info_lines(state, 0, "r#1"))
    assert got.startswith("ship 1 on the table: held by red (P0), kind command")
    assert "Command Ship (unit command" in got and "Red zone" not in got


def test_galactic_empires_hand_shows_card_text() -> None:
    state = _advance("galactic-empires", 31, 3)
    seat = state.current_player()
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderer_for("galactic-empires")(state, seat))
    shown = " ".join(console.file.getvalue().split())
    assert "[E] Transporter (eq_transporter#24): equipment, Generic. Saves crew" in shown
    assert "[T] Blue Giant Star (blue_giant#16): terrain, Generic; strength 4" in shown


def test_rift_domination_move_actions_say_which_units_move() -> None:
    """``move A1a A1`` moves the whole stack: the menu says what goes (RD-MOV-06/07)
    without ``?``; Galactic Domination's moves name their ship already and stay short."""
    from starlanes.terminal.menu import ActionMenu

    state = starlanes.load("rift-domination", players=2, seed=5).new_initial_state()
    while not (state.phase == "move" and state.current_player() == 0):
        state.apply(state.legal_actions()[0])
    lines = _text(ActionMenu(state, state.legal_actions()).lines(120))
    assert "1. move A1a A1 Move 3 Carriers (carrying 4 Infantry, 1 Diplomat, 5 Fighters)" in lines
    assert "2. move A1a A1 carrier Move 1 Carrier (carrying 4 Infantry)" in lines
    gd = _advance("galactic-domination", 2, 30)
    gd_lines = _text(ActionMenu(gd, gd.legal_actions()).lines(120))
    assert "moves from sector" not in gd_lines
