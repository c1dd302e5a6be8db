"""What the terminal table prints to a seat never shows another seat's secret choice
(a face-down combat order, a card bought from a private offer, a reserve swap) before the
game reveals it: every line printed over full games of all four games is scanned, with
human seats driven through :class:`PlaySession` and bots in the other seats."""

from __future__ import annotations

import contextlib
import io
import itertools

import pytest
from rich.console import Console

import starlanes.terminal.common as common
import starlanes.terminal.session as session_module
from starlanes.engine import HiddenAction, game_class, load
from starlanes.terminal.common import seat_label
from starlanes.terminal.session import PlaySession

GAMES = ["rift-domination", "galactic-domination", "interstellar-ambitions",
         "galactic-empires"]


class Ones:
    """Piped input that picks the first legal action at every prompt."""

    def readline(self) -> str:
        return "1\n"


class Enough(BaseException):
    """Ends a scanned game early, at its step limit (the session lets it through)."""


class ScanningSession(PlaySession):
    """A session that, after every printed step, checks the new output against the secret
    actions of other seats that the seats at the screen have not been shown yet."""

    def __init__(self, *args, console: Console, buffer: io.StringIO, **kw) -> None:
        super().__init__(*args, **kw)
        self.buffer = buffer
        self.console = console
        self.mark = 0
        self.secrets: list[tuple[int, int, str]] = []  # (history index, seat, notation)
        self.secret_count = 0
        self.steps = 0
        self.limit = 20_000

    def scan(self) -> None:
        self.buffer.seek(self.mark)  # read only what is new: the whole buffer each step
        text = self.buffer.read()    # made long games quadratic; the position ends at the end
        self.mark = self.buffer.tell()
        if not self.secrets:
            return
        viewers = self.viewers()
        seen = {v: self.state.history_seen_by(v) for v in viewers}
        for index, seat, notation in self.secrets:
            hidden_from = [v for v in viewers if v != seat and index < len(seen[v])
                           and isinstance(seen[v][index], HiddenAction)]
            if not hidden_from:
                continue
            label = seat_label(self.state, seat)
            for line in text.splitlines():
                assert not (label in line and notation in line), (
                    f"{notation!r} by {label} shown to seat(s) {hidden_from}: {line!r}")

    def note_secret(self, seat: int) -> None:
        index = len(self.state.history) - 1
        if index < 0:
            return
        full = self.state.history[index]
        others = [v for v in range(self.state.game.players) if v != seat]
        if any(isinstance(self.state.history_seen_by(v)[index], HiddenAction)
               for v in others):
            self.secrets.append((index, seat, str(full)))
            self.secret_count += 1

    def bot_turn(self, seat: int) -> bool:
        self.steps += 1
        if self.steps >= self.limit:
            raise Enough
        result = super().bot_turn(seat)
        self.note_secret(seat)
        self.scan()
        return result

    def take(self, seat, action, forced=False) -> None:
        self.steps += 1
        if self.steps >= self.limit:
            raise Enough
        super().take(seat, action, forced)
        self.note_secret(seat)
        self.scan()

    def human_turn(self, seat: int) -> bool:
        result = super().human_turn(seat)
        self.scan()
        return result


def _play(game_id: str, seats: list[str], seed: int, monkeypatch,
          limit: int | None = None) -> ScanningSession:
    """Play a game through a scanning session; ``limit``: end it after that many steps
    (None: to the end)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, highlight=False, force_terminal=True,
                      color_system=None)
    monkeypatch.setattr(session_module, "out", console)
    monkeypatch.setattr(common, "out", console)
    seats = seats[:game_class(game_id).max_players]
    game = load(game_id, players=len(seats), seed=seed)
    state = game.new_initial_state()
    s = ScanningSession(state, seats, seed, None, Ones(), console=console, buffer=buffer)
    if limit is None:
        assert s.run()
        return s
    s.limit = limit
    with contextlib.suppress(Enough):
        s.run()
    return s


@pytest.mark.parametrize("game_id", GAMES)
def test_one_human_never_sees_bot_secrets(game_id: str, monkeypatch) -> None:
    """Human seat 0 against heuristic and random bots; the secrets the bots keep are
    counted so a game without any would not pass unnoticed in the games that have them."""
    total = 0
    for seed in range(2):
        s = _play(game_id, ["human", "heuristic", "random"], seed, monkeypatch)
        total += s.secret_count
    if game_id in ("interstellar-ambitions", "galactic-empires"):
        assert total > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_hot_seat_hand_over_clears_the_scrollback(game_id: str, monkeypatch) -> None:
    """Two humans at one terminal: each hand-over erases the screen and the scrollback
    (ESC[3J), and neither sees the other's secret choices."""
    # the first 300 steps hold many hand-overs (and secret choices where the game has
    # them); every human decision redraws the table, so whole games would take minutes
    s = _play(game_id, ["human", "human", "heuristic"], 1, monkeypatch, limit=300)
    assert s.secret_count > 0 or game_id in GAMES[:2]
    text = s.buffer.getvalue()
    handovers = text.count("hand the terminal to")
    assert handovers > 0
    assert text.count("\x1b[3J") >= handovers


def test_the_secret_notations_are_what_the_games_print() -> None:
    """Guard for the scan: the hidden parts are the notations the engines keep secret."""
    shown = set()
    for game_id, seed in itertools.product(["interstellar-ambitions", "galactic-empires"],
                                           range(3)):
        from starlanes.agents import make_agent
        game = load(game_id, players=3, seed=seed)
        state = game.new_initial_state()
        agents = [make_agent("heuristic", game_id, i) for i in range(3)]
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
            seen = state.history_seen_by((state.current_player() + 1) % 3
                                         if not state.is_terminal() else 0)
            shown.update(str(a).split()[0] for a in seen if isinstance(a, HiddenAction))
    assert shown & {"order", "buy", "swap"}
