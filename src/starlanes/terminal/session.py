"""A game at the terminal table: :class:`PlaySession`.

Humans type an action's number or its notation (case-insensitive, unambiguous prefixes
accepted) or a command; bots act on their own. A decision with a single legal action is
taken automatically unless ``confirm_forced``. With no human seat the session is watch
mode: each move is drawn with the board, paced by ``delay`` seconds (or a key press per
move when ``delay`` is negative); with ``delay`` 0 only the moves are printed. The game is
written to ``autosave`` after every decision, and Ctrl-C saves before leaving.
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text

from starlanes.agents import Agent, make_agent
from starlanes.engine import GameState, HiddenAction, NotationError, StarlanesError, derive_seed
from starlanes.engine.state import SPECTATOR

from .common import (
    HUMAN,
    out,
    renderer_for,
    results_table,
    seat_label,
    seat_name,
    winners_of,
    write_record,
    write_safe_record,
)
from .menu import ActionMenu, battle_odds_line, describe_lines, info_lines, refusal_lines
from .redraw import BoardMemory, News
from .safe_text import markup_safe

LOG_TAIL = 12
HELP_TEXT = (
    "Type the number of an action or its notation (e.g. 'done'); notation ignores case and "
    "may be shortened while it matches one action ('rec inf c3a').\n"
    "Commands: ? N (explain action N), why (why the last typed action was refused), "
    "info THING (a unit, card, planet or ship), actions (list them again), board, log, "
    "undo (take back your last decision and the bot moves after it), save FILE, help, quit."
)


MIN_NEWS = 3
"""The fewest news lines a decision screen cuts the news to when space is short."""


def rows(line: Text | str, width: int) -> int:
    """The terminal rows ``line`` (rich markup or Text) takes at ``width`` columns."""
    text = line if isinstance(line, Text) else Text.from_markup(line)
    return max(1, -(-text.cell_len // max(1, width)))


def fit_screen(board: list[Text | str], separators: int, news: list[str], menu: ActionMenu,
               width: int, height: int) -> tuple[list[Text | str], list[str], int]:
    """The board rows, the menu lines and how many news lines to show so that a decision
    screen (a rule above, the prompt below) fits ``height`` rows of ``width`` columns when
    it can: first the menu loses its costs and texts (:meth:`ActionMenu.compact_lines`),
    then the news is cut to its newest lines (never below :data:`MIN_NEWS`), then the
    ``...`` rows between the board's changed stretches go. A whole board is never cut."""
    room = height - 2
    menu_lines = menu.lines(width)

    def used(board_rows: list[Text | str], lines: list[str], tail: int) -> int:
        shown = news[len(news) - tail:]
        return (sum(rows(r, width) for r in board_rows) + sum(rows(m, width) for m in lines)
                + (1 + sum(rows("  " + n, width) for n in shown) if shown else 0))

    tail = min(len(news), LOG_TAIL)
    if used(board, menu_lines, tail) > room:
        menu_lines = menu.compact_lines(width)
    while tail > min(len(news), MIN_NEWS) and used(board, menu_lines, tail) > room:
        tail -= 1
    if separators and used(board, menu_lines, tail) > room:
        board = [r for r in board if not (isinstance(r, str) and r == "[dim]  ...[/dim]")]
    return board, menu_lines, tail


class Interrupted(Exception):  # noqa: N818 - a signal from the table, not an error
    """Ctrl-C at the table; the game was saved to ``path``."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(str(path))
        self.path = path


class PlaySession:
    """One game at the terminal: humans type, bots act, ``undo`` restores clones."""

    def __init__(self, state: GameState, seats: list[str], seed: int,
                 save: Path | None, stdin: Any = None, *, autosave: Path | None = None,
                 confirm_forced: bool = False, delay: float = 0.0) -> None:
        self.state = state
        self.seats = seats
        self.game_id = state.game.game_id
        self.humans = {i for i, s in enumerate(seats) if s == HUMAN}
        self.agents: dict[int, Agent] = {
            i: make_agent(spec, self.game_id, derive_seed(seed, "seat", i))
            for i, spec in enumerate(seats) if spec != HUMAN
        }
        self.render = renderer_for(self.game_id)
        self.watch_render = renderer_for(self.game_id, spectator=True)
        self.save = save
        self.autosave = autosave
        self.confirm_forced = confirm_forced
        self.delay = delay
        # (seat, state before the decision, taken automatically)
        self.undo_stack: list[tuple[int, GameState, bool]] = []
        self.stdin = stdin or sys.stdin
        self.last_human: int | None = None
        self.menu: ActionMenu | None = None
        self.memory = BoardMemory()
        self.news = News()
        self.last_refusal = None

    # ------------------------------------------------------------------ the loop
    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False).

        Raises :class:`Interrupted` on Ctrl-C, after saving the game.
        """
        try:
            return self._loop()
        except KeyboardInterrupt as stop:
            # Ctrl-C, or SIGTERM/SIGHUP (the command turns them into KeyboardInterrupt):
            # write first, the terminal may already be gone.
            path = self.autosave or self.save
            for target in {p for p in (self.autosave, self.save) if p is not None}:
                write_safe_record(self.state, self.seats, target,
                                  make_folder=target == self.autosave)
            with contextlib.suppress(OSError):
                out.print()
            raise Interrupted(path) from stop

    def _loop(self) -> bool:
        while not self.state.is_terminal():
            seat = self.state.current_player()
            legal = self.state.legal_actions()
            if seat in self.humans:
                if len(legal) == 1 and not self.confirm_forced:
                    self.take(seat, legal[0], forced=True)
                    continue
                if not self.hand_over(seat) or not self.human_turn(seat):
                    self.finish(quit_early=True)
                    return False
            elif not self.bot_turn(seat):
                self.finish(quit_early=True)
                return False
        self.finish(quit_early=False)
        return True

    def take(self, seat: int, action: Any, forced: bool = False) -> None:
        """Apply a human's action (remembered for undo), echo it and autosave. What the
        move wrote in the log is news for every seat at its next decision; a move that
        wrote nothing is news for the other seats only (its player saw the echo)."""
        self.undo_stack.append((seat, self.state.clone(), forced))
        before = len(self.state.action_log())
        self.state.apply(action)
        shown = self.as_seen(action)
        note = "  [dim](the only legal action)[/dim]" if forced else ""
        out.print(f"{escape(seat_label(self.state, seat))} (you): "
                  f"[bold]{escape(shown)}[/bold]{note}")
        written = self.written_since(before)
        if written:
            self.news.add(written)
        else:
            self.news.add([f"{seat_label(self.state, seat)}: {shown}"], seen_by=seat)
        self.autosave_now()

    def written_since(self, before: int) -> list[str]:
        """The log lines written since the log held ``before`` lines."""
        log = self.state.action_log()
        return log[before:] if len(log) > before else []

    def move_lines(self, seat: int, action: Any, before: int) -> list[str]:
        """A bot's move, once: the log lines it wrote, or (when it wrote none) the seat,
        its agent and the move's notation as the viewers may see it."""
        return self.written_since(before) or [
            f"{seat_label(self.state, seat)} [{seat_name(self.seats, seat)}]: "
            f"{self.as_seen(action)}"]

    def reader(self) -> int | None:
        """The human certain to be at the screen now: the only human, or the one who last
        had the terminal; None in watch mode or before the first hand-over."""
        if len(self.humans) == 1:
            return next(iter(self.humans))
        return self.last_human

    def viewers(self) -> set[int]:
        """The seats that may be looking at the screen now: the human who last had the
        terminal; before any hand-over every human seat; with no human, a spectator."""
        if not self.humans:
            return {SPECTATOR}
        return {self.last_human} if self.last_human is not None else set(self.humans)

    def as_seen(self, action: Any) -> str:
        """The notation of ``action`` (the last one applied) as every seat in
        :meth:`viewers` may see it: another seat's secret choice (a face-down order, a card
        bought from a private offer, a reserve swap) shows only its public part."""
        for viewer in self.viewers():
            seen = self.state.history_seen_by(viewer)[-1] if self.state.history else action
            if isinstance(seen, HiddenAction):
                return str(seen)
        return str(action)

    def autosave_now(self) -> None:
        if self.autosave is not None:
            write_record(self.state, self.seats, self.autosave, make_folder=True)

    def bot_turn(self, seat: int) -> bool:
        """One bot move, printed once (:meth:`move_lines`): with a human at the table it
        is news shown at that human's next decision (or at the end); in watch mode it is
        printed now, with the board drawn and paced unless ``delay`` is 0. False if the
        watcher stops."""
        before = len(self.state.action_log())
        action = self.agents[seat].act(self.state)
        self.state.apply(action)
        lines = self.move_lines(seat, action, before)
        if self.humans:
            self.news.add(lines)
            return True
        self.autosave_now()
        if self.delay != 0:
            out.clear()
            out.print(self.watch_render(self.state, max(0, self.state.current_player())))
        for line in lines:
            out.print(markup_safe(line))
        if self.delay == 0:
            return True
        if self.delay > 0:
            time.sleep(self.delay)
            return True
        return self.read("Enter: next move, q: stop> ") not in (None, "q", "quit")

    def hand_over(self, seat: int) -> bool:
        """Hotseat: before the first human decision and whenever the decision passes to
        another human, clear the screen (and the scrollback) and wait until that player
        has the terminal, so no one sees another seat's hand or secret choices. The
        clearing codes are written even when the output is piped (a terminal at the end of
        the pipe clears), and the screen then says that earlier lines may still be
        readable there. False if input ends."""
        if len(self.humans) < 2 or self.last_human == seat:
            self.last_human = seat
            return True
        self.last_human = seat
        self.memory.forget()
        # home, erase the screen, erase the scrollback
        out.file.write("\x1b[H\x1b[2J\x1b[3J")
        out.file.flush()
        out.rule(f"hand the terminal to {escape(seat_label(self.state, seat))}")
        if not out.is_terminal:
            out.print("[yellow]the output is not a terminal: the screen was sent the codes "
                      "that clear it, but earlier lines may still be readable where the "
                      "output goes (a file, a pager, a scrollback)[/yellow]")
        return self.read("press Enter when only that player can see the screen ") is not None

    def finish(self, quit_early: bool) -> None:
        if self.save is not None:
            write_record(self.state, self.seats, self.save)
            out.print(f"record saved to {escape(str(self.save))}")
        self.autosave_now()
        if quit_early and self.autosave is not None:
            out.print(f"game saved to {escape(str(self.autosave))}; resume with: "
                      f"starlanes play --load {escape(str(self.autosave))}", soft_wrap=True)
        if not quit_early:
            reader = self.reader()
            if reader is not None:  # the moves since that human's last decision
                for line in self.news.unread(reader, LOG_TAIL)[-LOG_TAIL:]:
                    out.print("  " + markup_safe(line))
                self.news.mark_read(reader)
            if not self.humans and self.delay == 0:
                out.print(self.watch_render(self.state, 0))
            out.print(results_table(self.state, self.seats))
            won = winners_of(self.state)
            names = ", ".join(seat_label(self.state, w) for w in won) or "nobody"
            out.print(f"[bold]Winner{'s' if len(won) > 1 else ''}: {escape(names)}[/bold]")

    # ------------------------------------------------------------------ a human decides
    def show(self, seat: int, full: bool = False) -> None:
        """The decision screen: the board (whole the first time, on ``board``, after a
        hand-over or when much changed; else only the lines that changed since this
        seat's last decision), the moves and log lines it has not read, and the actions.
        When that would not fit the terminal's height (:func:`fit_screen`) the actions
        are listed without their costs and texts and the news is cut to its newest lines;
        output that is not a terminal gets everything."""
        out.rule(f"{escape(seat_label(self.state, seat))} to decide")
        with out.capture() as shot:
            out.print(self.render(self.state, seat))
        lines = shot.get().splitlines()
        if full:
            self.memory.forget(seat)
        changes = self.memory.changes(seat, lines)
        board: list[Text | str] = []
        separators = 0
        if changes is None:
            board = [Text.from_ansi(line) for line in lines]
        elif not changes.stretches:
            board = ["[dim]the board is as you last saw it ('board' draws it whole)[/dim]"]
        else:
            board = [f"[dim]changed on the board since your last decision ({changes.count} "
                     f"of {changes.total} lines; 'board' draws it whole):[/dim]"]
            for i, (_, stretch) in enumerate(changes.stretches):
                if i:
                    board.append("[dim]  ...[/dim]")
                    separators += 1
                board.extend(Text.from_ansi(line) for line in stretch)
        news = self.news.unread(seat, LOG_TAIL)
        self.news.mark_read(seat)
        if full and not news:
            news = self.state.action_log()[-LOG_TAIL:]
        assert self.menu is not None
        height = out.height if out.is_terminal else 10**6  # a pipe has no screen to fit
        board, menu, tail = fit_screen(board, separators, news, self.menu, out.width, height)
        for row in board:
            out.print(row)
        if news:
            skipped = len(news) - tail
            more = f" [dim]({skipped} earlier: 'log')[/dim]" if skipped else ""
            out.print(f"[bold]{'Recent log' if full else 'New in the log'}[/bold]{more}")
            for line in news[len(news) - tail:]:
                out.print("  " + markup_safe(line))
        for line in menu:
            out.print(line)

    def show_actions(self) -> None:
        assert self.menu is not None
        for line in self.menu.lines(out.width):
            out.print(line)

    def read(self, prompt: str) -> str | None:
        out.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            out.print()
            return None
        return line.strip()

    def human_turn(self, seat: int) -> bool:
        """Read until one action is applied; False if the human quits."""
        self.menu = ActionMenu(self.state, self.state.legal_actions())
        self.last_refusal = None
        self.show(seat)
        while True:
            text = self.read(f"P{seat}> ")
            if text is None:
                out.print("input ended: leaving the game")
                return False
            if not text:
                continue
            outcome = self.command(seat, text)
            if outcome == "quit":
                return False
            if outcome == "undone":
                return True
            if outcome == "again":
                continue
            action = self.choose(text)
            if action is not None:
                self.take(seat, action)
                return True

    def command(self, seat: int, text: str) -> str | None:
        """Run a command: returns ``"quit"``, ``"undone"`` (the turn is over), ``"again"``
        (read on), or None when ``text`` is no command (left to :meth:`choose`)."""
        word, _, arg = text.partition(" ")
        word, arg = word.lower(), arg.strip()
        if word.startswith("?") and len(word) > 1:
            word, arg = "?", (word[1:] + " " + arg).strip()
        if word in ("quit", "exit", "q"):
            return "quit"
        if word == "help" or (word == "?" and not arg):
            out.print(escape(HELP_TEXT))
        elif word == "?":
            self.explain(arg)
        elif word == "why":
            for line in refusal_lines(self.game_id, self.last_refusal, self.menu):
                out.print(line)
        elif word == "info":
            for line in info_lines(self.state, seat, arg):
                out.print(line)
        elif word == "log":
            for line in self.state.action_log():
                out.print("  " + markup_safe(line))
        elif word == "board":
            self.show(seat, full=True)
        elif word == "actions":
            self.show_actions()
        elif word == "save":
            self.save_as(arg)
        elif word == "undo":
            return "undone" if self.undo(seat) else "again"
        else:
            return None
        return "again"

    def explain(self, arg: str) -> None:
        assert self.menu is not None
        number = arg.isascii() and arg.isdigit()
        action = self.menu.pick(int(arg)) if number else None
        if action is None and not number:
            try:
                action = self.state.game.read_action(self.state, arg)
            except NotationError as e:
                out.print(f"[yellow]{escape(str(e))}[/yellow]")
                return
        if action is None:
            out.print(f"[yellow]no action {arg}: choose 1-{len(self.menu.numbered)}[/yellow]")
            return
        for line in describe_lines(self.game_id, self.menu.descriptions.get(action),
                                   str(action)):
            out.print(line)
        odds = battle_odds_line(self.state, action)
        if odds:
            out.print(f"  [green]{escape(odds)}[/green]")

    def save_as(self, arg: str) -> None:
        if not arg:
            out.print("[yellow]save needs a file name: save FILE[/yellow]")
            return
        try:
            write_record(self.state, self.seats, Path(arg))
        except StarlanesError as e:
            out.print(f"[yellow]{escape(str(e))}[/yellow]")
            return
        out.print(f"record saved to {escape(arg)}")

    def undo(self, seat: int) -> bool:
        stack = self.undo_stack
        i = len(stack)
        while i and stack[i - 1][0] == seat and stack[i - 1][2]:
            i -= 1  # forced actions after the decision go with it
        if not i or stack[i - 1][0] != seat:
            out.print("[yellow]nothing of yours to undo[/yellow]")
            return False
        self.state = stack[i - 1][1]
        del stack[i - 1:]
        out.print("[cyan]took back your last decision[/cyan]")
        self.autosave_now()
        return True

    def choose(self, text: str) -> Any:
        assert self.menu is not None
        if text.isascii() and text.isdigit():  # not '²' or '③', which int() refuses
            action = self.menu.pick(int(text))
            if action is None:
                out.print(f"[yellow]no action {text}: choose 1-{len(self.menu.numbered)}"
                          "[/yellow]")
            return action
        try:
            return self.state.game.read_action(self.state, text)
        except NotationError:
            refusal = self.state.game.explain_refusal(self.state, text)
            self.last_refusal = refusal
            reason = refusal.reason if refusal is not None else f"{text!r} is not legal now"
            out.print(f"[yellow]{escape(reason)}[/yellow] [dim](why: more; help: "
                      "commands)[/dim]")
            return None
