"""The terminal table: draw a game with rich, read a human's choices, let bots act.

:class:`PlaySession` runs one game: humans type an action's number or notation (or a
command: undo, save FILE, log, board, help, quit); bots act on their own and their actions
are printed. The board is drawn by the game's own ``render(state, seat)`` module function.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.pretty import Pretty
from rich.table import Table

from starlanes.agents import Agent, make_agent
from starlanes.engine import (
    BadOptionError,
    GameState,
    NotationError,
    StarlanesError,
    derive_seed,
    game_module,
)

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

HUMAN = "human"
LOG_TAIL = 12
HELP_TEXT = (
    "Type the number of an action or its notation (e.g. 'done').\n"
    "Commands: undo (take back your last decision and the bot moves after it), "
    "save FILE (write the game record), log (the full game log), board (draw the table "
    "again), help, quit."
)


def renderer_for(game_id: str) -> Callable[[GameState, int], RenderableType]:
    """The game's ``render(state, seat)``, or a plain view of the observation."""
    render = getattr(game_module(game_id, "render"), "render", None)
    return render or (lambda state, seat: Pretty(state.observation(seat)))


def seat_label(state: GameState, seat: int) -> str:
    namer = getattr(state, "seat_name", None)
    return namer(seat) if callable(namer) else f"P{seat}"


def winners_of(state: GameState) -> list[int]:
    if not state.is_terminal():
        return []
    return [i for i, r in enumerate(state.returns()) if r > 0]


def end_reason_of(state: GameState) -> str:
    reason = getattr(state, "end_reason", "")
    return str(reason) if reason else "finished"


def write_record(state: GameState, seats: Sequence[str], path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        state.record(seats).save(path)
    except OSError as e:
        raise BadOptionError(f"cannot write {path}: {e.strerror}") from None


def results_table(state: GameState, seats: Sequence[str]) -> Table:
    winners = winners_of(state)
    table = Table(title=f"Game over: {end_reason_of(state)}")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("result")
    for i, score in enumerate(state.scores()):
        table.add_row(f"P{i}", escape(f"{seat_label(state, i)} [{seats[i]}]"), str(score),
                      "winner" if i in winners else "")
    return table


class PlaySession:
    """A game at the terminal table: humans type, bots act, ``undo`` restores clones."""

    def __init__(self, state: GameState, seats: list[str], seed: int,
                 save: Path | None, stdin: Any = None) -> None:
        self.state = state
        self.seats = seats
        self.game_id = state.game.game_id
        self.humans = {i for i, s in enumerate(seats) if s == HUMAN}
        self.agents: dict[int, Agent] = {
            i: make_agent(spec, self.game_id, derive_seed(seed, "seat", i))
            for i, spec in enumerate(seats) if spec != HUMAN
        }
        self.render = renderer_for(self.game_id)
        self.save = save
        self.undo_stack: list[tuple[int, GameState]] = []
        self.stdin = stdin or sys.stdin
        self.last_human: int | None = None

    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if seat in self.humans:
                if not self.hand_over(seat) or not self.human_turn(seat):
                    self.finish(quit_early=True)
                    return False
            else:
                action = self.agents[seat].act(self.state)
                self.state.apply(action)
                out.print(f"{escape(seat_label(self.state, seat))} {escape(f'[{self.seats[seat]}]')}: "
                          f"[bold]{escape(str(action))}[/bold]")
        self.finish(quit_early=False)
        return True

    def hand_over(self, seat: int) -> bool:
        """Hotseat: when the decision passes to another human, clear the screen and wait
        until that player has the terminal, so no one sees another seat's hand or secret
        choices. False if input ends."""
        if len(self.humans) < 2 or self.last_human in (None, seat):
            self.last_human = seat
            return True
        self.last_human = seat
        out.clear()
        out.rule(f"hand the terminal to {escape(seat_label(self.state, seat))}")
        return self.read("press Enter when only that player can see the screen ") is not None

    def finish(self, quit_early: bool) -> None:
        if self.save is not None:
            write_record(self.state, self.seats, self.save)
            out.print(f"record saved to {escape(str(self.save))}")
        if not quit_early:
            out.print(results_table(self.state, self.seats))
            won = winners_of(self.state)
            names = ", ".join(seat_label(self.state, w) for w in won) or "nobody"
            out.print(f"[bold]Winner{'s' if len(won) > 1 else ''}: {escape(names)}[/bold]")

    def show(self, seat: int, actions: list) -> None:
        out.rule(f"{escape(seat_label(self.state, seat))} to decide")
        out.print(self.render(self.state, seat))
        log = self.state.action_log()
        if log:
            out.print("[bold]Recent log[/bold]")
            for line in log[-LOG_TAIL:]:
                out.print("  " + escape(line))
        self.show_actions(actions)

    def show_actions(self, actions: list) -> None:
        out.print("[bold]Legal actions[/bold]")
        width = len(str(len(actions)))
        for i, a in enumerate(actions, 1):
            out.print(f"  {i:>{width}}. {escape(str(a))}")

    def read(self, prompt: str) -> str | None:
        out.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            out.print()
            return None
        return line.strip()

    def human_turn(self, seat: int) -> bool:
        """Read until one action is applied; False if the human quits."""
        actions = self.state.legal_actions()
        self.show(seat, actions)
        while True:
            text = self.read(f"P{seat}> ")
            if text is None:
                out.print("input ended: leaving the game")
                return False
            word, _, arg = text.partition(" ")
            word = word.lower()
            if not text:
                continue
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?"):
                out.print(HELP_TEXT)
                continue
            if word == "log":
                for line in self.state.action_log():
                    out.print("  " + escape(line))
                continue
            if word == "board":
                self.show(seat, actions)
                continue
            if word == "save":
                if not arg.strip():
                    out.print("[yellow]save needs a file name: save FILE[/yellow]")
                    continue
                try:
                    write_record(self.state, self.seats, Path(arg.strip()))
                except StarlanesError as e:
                    out.print(f"[yellow]{escape(str(e))}[/yellow]")
                    continue
                out.print(f"record saved to {escape(arg.strip())}")
                continue
            if word == "undo":
                if not self.undo_stack or self.undo_stack[-1][0] != seat:
                    out.print("[yellow]nothing of yours to undo[/yellow]")
                    continue
                self.state = self.undo_stack.pop()[1]
                out.print("[cyan]took back your last decision[/cyan]")
                return True
            action = self.choose(text, actions)
            if action is None:
                continue
            self.undo_stack.append((seat, self.state.clone()))
            self.state.apply(action)
            out.print(f"you (P{seat}): [bold]{escape(str(action))}[/bold]")
            return True

    def choose(self, text: str, actions: list) -> Any:
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            out.print(f"[yellow]no action {n}: choose 1-{len(actions)}[/yellow]")
            return None
        try:
            return self.state.game.parse_action(self.state, text)
        except NotationError:
            out.print(f"[yellow]{escape(text)!r} is neither a legal action nor a command; "
                      "type help[/yellow]")
            return None
