"""The terminal table at a 120 x 40 terminal and every move printed once.

Galactic Domination, played to its end by the heuristic in the human seat against the
heuristic: after the first decision the board is never drawn whole again (each decision
shows only the lines that changed), and every decision screen, from its rule to the
prompt, fits 40 rows of 120 columns. In every game each bot move is printed once: with a
human at the table as the news of that human's next decision (the log lines it wrote, or
who made it and its notation when it wrote none), in watch mode as it is made.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import starlanes.terminal.common as common
import starlanes.terminal.session as session_module
from starlanes.agents import make_agent
from starlanes.engine import load
from starlanes.terminal.session import PlaySession

GAMES = [("rift-domination", 2, 5), ("galactic-domination", 2, 1),
         ("interstellar-ambitions", 3, 3), ("galactic-empires", 2, 31)]
RULE = "to decide"


class BotAtTheKeyboard(io.TextIOBase):
    """Standard input typed by a heuristic agent: the notation of its choice at every
    prompt, ``quit`` after ``decisions`` of them."""

    def __init__(self, game: str, decisions: int) -> None:
        self.agent = make_agent("heuristic", game, 0)
        self.session: PlaySession | None = None
        self.left = decisions

    def readline(self, size: int = -1) -> str:
        assert self.session is not None
        if self.left == 0:
            return "quit\n"
        self.left -= 1
        return f"{self.agent.act(self.session.state)}\n"


def _console(monkeypatch, width: int, height: int, terminal: bool) -> io.StringIO:
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, height=height, highlight=False,
                      force_terminal=terminal, color_system=None)
    monkeypatch.setattr(session_module, "out", console)
    monkeypatch.setattr(common, "out", console)
    return buffer


def test_galactic_domination_redraws_only_what_changed_and_fits_120x40(monkeypatch) -> None:
    buffer = _console(monkeypatch, 120, 40, terminal=True)
    keyboard = BotAtTheKeyboard("galactic-domination", 400)
    state = load("galactic-domination", players=2, seed=7).new_initial_state()
    session = PlaySession(state, ["human", "heuristic"], 7, None, keyboard)
    keyboard.session = session
    session.run()
    text = buffer.getvalue()
    screens = text.split(RULE)[1:]
    assert len(screens) >= 60 and session.state.is_terminal()
    for n, screen in enumerate(screens):
        shown = screen[:screen.index("P0> ")].splitlines()
        assert len(shown) + 1 <= 40, (n, len(shown), screen)  # the rule, ..., the prompt
        assert max(len(line) for line in shown) <= 120, n
    assert "Legend:" in screens[0]
    later = screens[1:]
    assert not [n for n, s in enumerate(later, 1) if "Legend:" in s]
    assert all("changed on the board since your last decision" in s
               or "the board is as you last saw it" in s for s in later)


def _expected_news(final, human: int | None) -> list[tuple[str, bool]]:
    """Every move of ``final``'s game once, as the table prints it: ``(line, exact)``; a
    bot move that wrote no log line is its seat and agent (compared as a prefix, since its
    notation is as the viewer saw it then). A silent move of ``human`` is not news."""
    from starlanes.terminal.common import seat_label

    replay = load(final.game.game_id, players=final.game.players,
                  seed=final.game.seed).new_initial_state()
    lines: list[tuple[str, bool]] = []
    for action in final.history:
        seat = replay.current_player()
        before = len(replay.action_log())
        replay.apply(action)
        written = replay.action_log()[before:]
        if written:
            lines += [(w, True) for w in written]
        elif seat != human:
            lines.append((f"{seat_label(replay, seat)} [heuristic]: ", False))
    return lines


def _matches(printed: list[str], expected: list[tuple[str, bool]]) -> bool:
    return len(printed) <= len(expected) and all(
        p == e if exact else p.startswith(e)
        for p, (e, exact) in zip(printed, expected, strict=False))


@pytest.mark.parametrize("game, players, seed", GAMES)
def test_each_bot_move_is_printed_once_at_the_table(game: str, players: int, seed: int,
                                                    monkeypatch) -> None:
    """A human (typing the first action) against heuristic bots: the news of the
    decisions, read in order, is every move once - no bot move both as its notation and
    as its log lines, none twice."""
    monkeypatch.setattr(session_module, "LOG_TAIL", 10_000)
    buffer = _console(monkeypatch, 400, 40, terminal=False)
    seats = ["human"] + ["heuristic"] * (players - 1)
    state = load(game, players=players, seed=seed).new_initial_state()
    session = PlaySession(state, seats, seed, None, io.StringIO("1\n" * 40 + "quit\n"))
    session.run()
    printed: list[str] = []
    reading = False
    for line in buffer.getvalue().splitlines():
        if line.startswith(("New in the log", "Recent log")):
            reading = True
        elif reading and line.startswith("  "):
            printed.append(line[2:])
        else:
            reading = False
    expected = _expected_news(session.state, human=0)
    assert len(printed) >= 20
    assert _matches(printed, expected), (printed[:40], expected[:40])
    bot_moves = sum(1 for line, exact in expected if not exact)
    tagged = len(re.findall(r"\[heuristic\]: ", buffer.getvalue()))
    assert tagged <= bot_moves


@pytest.mark.parametrize("game, players, seed", GAMES)
def test_each_bot_move_is_printed_once_in_watch_mode(game: str, players: int, seed: int,
                                                     monkeypatch) -> None:
    """Bots in every seat, ``--delay 0``: one printed line per log line a move wrote, or
    one line naming the seat, its agent and the move; the game's lines in order."""
    buffer = _console(monkeypatch, 400, 40, terminal=False)
    state = load(game, players=players, seed=seed).new_initial_state()
    session = PlaySession(state, ["heuristic"] * players, seed, None, io.StringIO(""))
    original = session.bot_turn
    turns = 0

    def bot_turn(seat: int) -> bool:  # 150 moves are enough; the end is not the point
        nonlocal turns
        turns += 1
        return original(seat) and turns < 150

    monkeypatch.setattr(session, "bot_turn", bot_turn)
    session.run()
    printed = buffer.getvalue().splitlines()
    expected = _expected_news(session.state, human=None)
    assert len(expected) >= 150
    assert _matches(printed[:len(expected)], expected), (printed[:30], expected[:30])
