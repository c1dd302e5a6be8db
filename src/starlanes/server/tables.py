"""One live game on the server: its state rebuilt from the stored actions, one writer at a
time, sequence numbers, the undo floor and the turn clock.

The server knows no game: it reaches the rules only through the engine contract
(``load``, ``legal_actions``, ``read_action``, ``apply``, ``observation``,
``public_observation``, ``ends_undo``, ``describe``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from starlanes.engine import Game, GameState, StarlanesError, load

from . import clocks
from .errors import Forbidden, Illegal, NotFound, Stale
from .jobs import NoticedAction
from .store import ActionRow, GameRow, NewAction, SeatRow, Store, StoreError

HUMAN = "human"


def places(values: list[float]) -> list[int]:
    """Per seat, its place by ``values`` (higher is better; 0 first): the number of seats
    with more; equal values share a place."""
    return [sum(1 for other in values if other > mine) for mine in values]


@dataclass
class SeatInfo:
    """A seat as the server keeps it in memory (the token only as its hash)."""

    seat: int
    kind: str
    name: str
    token_hash: str | None
    account_id: int | None = None
    """The account holding this human seat (None: a guest's seat link, or a bot)."""
    network: str | None = None
    """The client network the seat was taken from (:func:`.limits.network_key`)."""

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN

    @property
    def is_open(self) -> bool:
        return self.kind == HUMAN and self.token_hash is None


@dataclass
class Note:
    """A line the server adds to the log (a move made when a turn clock ran out)."""

    seq: int
    text: str


@dataclass
class Pending:
    """An action checked and applied to a copy of the state, not yet stored: the game, the
    sequence number it takes, seat, notation, the state after it and its digest, whether it
    ends undo, and who decided (``player``, ``bot``, ``clock``)."""

    game_id: str
    seq: int
    seat: int
    text: str
    after: GameState
    digest: str
    final: bool
    by: str

    def stored(self) -> NewAction:
        return NewAction(self.game_id, self.seq, self.seat, self.text, self.digest, self.by)


@dataclass
class LiveGame:
    """A game being played: settings, seats, the current state and what undo may reach.

    ``seq`` is the number of actions applied; an action must name it. ``undo_floor`` is the
    ``seq`` before which nothing may be taken back. ``lock`` makes this game's writes one
    at a time.
    """

    row: GameRow
    seats: list[SeatInfo]
    game: Game
    state: GameState
    seq: int = 0
    undo_floor: int = 0
    bys: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clock_deadline: float | None = None
    """When the running turn clock runs out (epoch seconds; :mod:`.clocks`), or None."""
    marks: list[tuple[int, float]] = field(default_factory=list)
    """Per action applied: its seat and when it was stored (epoch seconds): the clocks."""
    turns: list[Any] = field(default_factory=list)
    """Per action applied: the game turn it was decided in (``GameState.turn_key``): the
    clocks add increments and correspondence time per turn."""
    clock_began: float | None = None
    """When every seat was taken (or the game was rebuilt): a first decision's clock start."""
    version: int = 0
    bot_seconds_used: float = 0.0
    """Seconds the game's bots have thought since the server started (their budget)."""
    owner: str = ""
    """The client that created the game (its rate-limit key), for sharing bot time fairly
    between clients; empty for games rebuilt after a restart (each its own share)."""
    last_action: tuple[int, NoticedAction] | None = None
    """The last action this process stored and the version it made (what a change notice
    carries while nothing else changed since, :meth:`noticed_action`)."""
    _described: tuple[tuple[int, int], list[dict[str, Any]]] | None = None
    _moments: tuple[int, dict[str, Any]] | None = None

    def key_moments(self) -> dict[str, Any]:
        """The finished game's key moments (:func:`.moments.key_moments`), worked out once
        per number of actions."""
        from .moments import key_moments

        if self._moments is None or self._moments[0] != self.seq:
            self._moments = (self.seq, key_moments(self.state, self.game.new_initial_state()))
        return self._moments[1]

    @property
    def id(self) -> str:
        return self.row.id

    # ------------------------------------------------------------------ building
    @classmethod
    def rebuild(cls, row: GameRow, seats: list[SeatRow], actions: list[ActionRow],
                options: dict[str, Any] | None = None) -> LiveGame:
        """Replay the stored ``actions``, loading the game with ``options`` (the stored
        options as the engine takes them: a content pack's directory; default the stored
        ones). Raises StoreError if a stored action no longer applies or a digest differs
        (the rules changed under a stored game)."""
        try:
            game = load(row.game, players=row.players, seed=row.seed,
                        **dict(row.options if options is None else options))
        except StarlanesError as e:
            raise StoreError(f"game {row.id} cannot be loaded: {e}") from None
        state = game.new_initial_state()
        live = cls(row=row, seats=[SeatInfo(s.seat, s.kind, s.name, s.token_hash,
                                            s.account_id, s.network) for s in seats],
                   game=game, state=state)
        live._replay(state, actions)
        clocks.seats_filled(live)
        return live

    def _replay(self, state: GameState, actions: list[ActionRow] | list[NoticedAction]
                ) -> None:
        """Apply stored ``actions`` (the next ones in order) to ``state``, a state no one
        else holds, and make it the live state. Raises StoreError as :meth:`rebuild`."""
        for a in actions:
            before = state.clone()
            turn = state.turn_key()
            try:
                state.apply(self.game.parse_action(state, a.notation))
            except StarlanesError as e:
                raise StoreError(f"game {self.id}: stored action {a.seq} "
                                 f"({a.notation!r}) does not apply: {e}") from None
            if state.digest() != a.digest:
                raise StoreError(f"game {self.id}: replay of action {a.seq} gives digest "
                                 f"{state.digest()}, stored {a.digest}")
            self.seq += 1
            self.bys.append(a.by)
            self.turns.append(turn)
            self.marks.append((a.seat, a.at.timestamp() if a.at is not None
                               else clocks.wall()))
            if a.by == "clock":
                self.notes.append(Note(a.seq, clocks.clock_note(state, a.seat)))
            if state.ends_undo(before, a.seat):
                self.undo_floor = self.seq
        self.state = state

    def catch_up(self, seats: list[SeatRow], actions: list[ActionRow]) -> bool | None:
        """Follow what another server process stored: ``seats`` as stored now and the
        stored actions from ``seq - 1`` on (:meth:`Store.since`). Applies the new actions
        (on a copy: a live state is only replaced) and takes the seats' names and token
        hashes. Returns True when something changed, False when nothing did, None when
        the stored history no longer continues this one (an undo elsewhere, or a seat's
        setup changed the game): then nothing was changed and the caller rebuilds the
        game. Call it holding ``lock``."""
        if self.seq > 0 and (not actions or actions[0].seq != self.seq - 1
                             or actions[0].digest != self.state.digest()):
            return None
        if self.seq == 0 and actions and actions[0].seq != 0:
            return None
        if len(seats) != len(self.seats) or any(
                s.kind != i.kind for s, i in zip(seats, self.seats, strict=True)):
            return None
        changed = False
        for s, info in zip(seats, self.seats, strict=True):
            if (s.name, s.token_hash, s.account_id) != (info.name, info.token_hash,
                                                        info.account_id):
                if self.seq == 0 and self.game.seat_setup_kind():
                    return None  # a seat may have brought its setup: rebuild
                info.name, info.token_hash, info.account_id = (s.name, s.token_hash,
                                                               s.account_id)
                info.network = s.network
                changed = True
        if changed and self.clock_began is None:
            clocks.seats_filled(self)
        new = [a for a in actions if a.seq >= self.seq]
        if new:
            self._replay(self.state.clone(), new)
            changed = True
        if changed:
            self.version += 1
        return changed

    def take_over(self, fresh: LiveGame) -> None:
        """Become ``fresh`` (the same game rebuilt from the store), keeping this object's
        lock, owner and bot time. Call it holding ``lock``."""
        self.row, self.seats, self.game, self.state = (fresh.row, fresh.seats, fresh.game,
                                                       fresh.state)
        self.seq, self.undo_floor = fresh.seq, fresh.undo_floor
        self.bys, self.notes, self.marks = fresh.bys, fresh.notes, fresh.marks
        self.turns = fresh.turns
        if self.clock_began is None:
            self.clock_began = fresh.clock_began
        self.version += 1
        self._described = None

    # ------------------------------------------------------------------ questions
    def seat_label(self, seat: int) -> str:
        info = self.seats[seat]
        namer = getattr(self.state, "seat_name", None)
        base = namer(seat) if callable(namer) else f"P{seat}"
        who = info.name or ("bot " + info.kind if info.is_bot else "open seat")
        return f"{base} ({who})"

    @property
    def gathering(self) -> bool:
        """True while a game whose seats may bring a setup (``seat_setup_kind``: a deck)
        still has open seats and no move: nobody moves until every seat is taken, so a
        seat joining last may still bring its own."""
        return (self.seq == 0 and any(s.is_open for s in self.seats)
                and bool(self.game.seat_setup_kind()))

    def open_seat(self, seat: int) -> SeatInfo:
        """The open human seat ``seat``: NotFound (404) when the game has no such seat,
        Forbidden (403) when a bot holds it or someone took it."""
        if not 0 <= seat < len(self.seats):
            raise NotFound(f"game {self.id} has no seat {seat}")
        info = self.seats[seat]
        if not info.is_open:
            raise Forbidden(f"seat {seat} is " + ("held by a bot" if info.is_bot
                                                  else "already taken"))
        return info

    @property
    def over(self) -> bool:
        """True once the game has ended: by its rules, or by the server (``row.outcome``:
        a seat lost on time)."""
        return self.row.outcome is not None or self.state.is_terminal()

    def ranking(self) -> list[int] | None:
        """Per seat, its place once the game is over (0 first; tied seats share a place:
        one more than the number of seats ahead of them); None while it goes on. A result
        the server decided (``row.outcome["ranks"]``) comes before the rules' returns; an
        outcome without ranks (an abort) has None: it counts for nobody."""
        if self.row.outcome is not None:
            ranks = self.row.outcome.get("ranks")
            return None if ranks is None else [int(r) for r in ranks]
        if not self.state.is_terminal():
            return None
        return places(list(self.state.returns()))

    def waiting_for(self) -> int | None:
        """The seat the game waits for, or None when it is over (or still gathering)."""
        if self.over or self.gathering:
            return None
        return self.state.current_player()

    def has_moved(self, seat: int) -> bool:
        """Whether ``seat`` has made a decision of its own (not one its turn clock made for
        it): the abort rule of rated play (``docs/community/fair-play.md``)."""
        return any(s == seat and by == "player"
                   for (s, _), by in zip(self.marks, self.bys, strict=False))

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last decision now."""
        return (self.seq > self.undo_floor and not self.over
                and self.state.current_player() == seat)

    # ------------------------------------------------------------------ writing
    def check_turn(self, seat: int, seq: int) -> None:
        if self.row.outcome is not None:
            raise Forbidden("the game is over")
        if self.state.is_terminal():
            raise Stale("the game is over")
        if self.gathering:
            raise Forbidden("the game begins when every seat is taken (seats may still "
                            "bring their own decks)")
        if seq != self.seq:
            raise Stale(f"the action was chosen at move {seq}, but the game is at move "
                        f"{self.seq}; look at the board again")
        if self.state.current_player() != seat:
            waiting = self.state.current_player()
            raise Forbidden(f"it is not your decision: the game waits for "
                            f"{self.seat_label(waiting)}")

    def prepare(self, seat: int, seq: int, notation: str, by: str = "player") -> Pending:
        """Check one action of ``seat`` chosen at ``seq`` and work out the state after it,
        changing nothing. Raises Stale (409), Forbidden (403) or Illegal (422). The caller,
        holding ``lock``, stores ``pending.stored()`` and then calls :meth:`commit`."""
        self.check_turn(seat, seq)
        try:
            action = self.game.read_action(self.state, notation)
        except StarlanesError as e:
            raise Illegal(str(e)) from None
        after = self.state.clone()
        after.apply(action)
        return Pending(game_id=self.id, seq=self.seq, seat=seat, text=str(action),
                       after=after, digest=after.digest(),
                       final=after.ends_undo(self.state, seat), by=by)

    def commit(self, pending: Pending) -> str:
        """Make a stored pending action the live state; returns its notation. Call it
        holding ``lock``, right after the store committed ``pending.stored()``."""
        if pending.seq != self.seq:
            raise StoreError(f"game {self.id}: action {pending.seq} committed at move "
                             f"{self.seq}")
        self.turns.append(self.state.turn_key())
        self.state = pending.after
        self.seq += 1
        self.bys.append(pending.by)
        self.marks.append((pending.seat, clocks.wall()))
        if pending.by == "clock":
            self.notes.append(Note(pending.seq, clocks.clock_note(pending.after,
                                                                  pending.seat)))
        if pending.final:
            self.undo_floor = self.seq
        self.version += 1
        self.last_action = (self.version, NoticedAction(
            pending.seq, pending.seat, pending.text, pending.digest, pending.by,
            self.marks[-1][1]))
        return pending.text

    def noticed_action(self) -> NoticedAction | None:
        """The action for a change notice: the last one stored here, if it is the game's
        last change (no seat, undo or rebuild since); else None."""
        if self.last_action is None:
            return None
        version, action = self.last_action
        if version != self.version or action.seq != self.seq - 1:
            return None
        return action

    def follow_action(self, action: NoticedAction) -> bool:
        """Apply ``action``, which another process stored, if this game is at its move
        and it gives the digest stored with it: True; else False, nothing changed (the
        caller reads the store). Call it holding ``lock``."""
        if action.seq != self.seq:
            return False
        try:
            self._replay(self.state.clone(), [action])
        except (StoreError, StarlanesError):
            return False
        self.version += 1
        return True

    def apply(self, store: Store, seat: int, seq: int, notation: str,
              by: str = "player") -> str:
        """Check, store (one transaction of its own, in this thread), then apply one action;
        returns the notation applied. For tools and tests; the server goes through
        :meth:`prepare`, its store writer and :meth:`commit`."""
        pending = self.prepare(seat, seq, notation, by)
        store.append_actions([pending.stored()])
        return self.commit(pending)

    def check_undo(self, seat: int) -> int:
        """The number of actions kept if ``seat`` takes back its last decision now (Board
        Game Arena's policy: only until another seat has decided, chance was used or the
        game ended). Raises Forbidden otherwise."""
        if not self.can_undo(seat):
            raise Forbidden("nothing to take back: your last decision is final (another "
                            "seat has decided since, dice were rolled or a card was "
                            "revealed)" if self.seq else "nothing to take back yet")
        return self.seq - 1

    def take_back(self, keep: int, state: GameState) -> None:
        """Return to ``state``, the state after the first ``keep`` actions (rebuilt by
        replay), once the store has deleted the later ones. Call it holding ``lock``."""
        self.state = state
        self.seq = keep
        self.bys = self.bys[:keep]
        self.marks = self.marks[:keep]
        self.turns = self.turns[:keep]
        self.notes = [n for n in self.notes if n.seq < keep]
        self.version += 1

    # ------------------------------------------------------------------ clock
    def restart_clock(self) -> None:
        """Work out when the running turn clock runs out (:func:`.clocks.deadline`)."""
        self.clock_deadline = clocks.deadline(self)

    def log_lines(self) -> list[str]:
        """The game's own log with the server's notes (clock moves) after the line count
        they followed. Game logs are public text; secrets are never written into them."""
        lines = list(self.state.action_log())
        for note in self.notes:
            lines.append(note.text)
        return lines

    def describe_legal(self) -> list[dict[str, Any]]:
        """The legal actions with their label (words on the button) and explanation (kind,
        text, cost, rule IDs), worked out once per position. With more than
        :data:`DESCRIBE_ALL` legal actions only one action of each verb is described (for its
        kind); the others carry their label and ``"more": true``, and their explanation is
        fetched when the player looks at one (:meth:`describe_one`)."""
        if self._described is not None and self._described[0] == (self.seq, self.version):
            return self._described[1]
        legal = self.state.legal_actions()
        full = len(legal) <= DESCRIBE_ALL
        kinds: dict[str, str] = {}
        out: list[dict[str, Any]] = []
        for a in legal:
            text = str(a)
            verb = text.split(" ", 1)[0]
            if full or verb not in kinds:
                item = self._describe(a)
                kinds[verb] = item["kind"]
            else:
                item = {"notation": text, "label": self._label(a), "kind": kinds[verb],
                        "text": "", "cost": "", "rules": [], "more": True}
            out.append(item)
        self._described = ((self.seq, self.version), out)
        return out

    def describe_one(self, notation: str) -> dict[str, Any]:
        """The explanation of one legal action now. Raises Illegal when it is not legal."""
        for a in self.state.legal_actions():
            if str(a) == notation:
                return self._describe(a)
        raise Illegal(f"{notation!r} is not a legal action now")

    def _describe(self, a: Any) -> dict[str, Any]:
        item: dict[str, Any] = {"notation": str(a), "label": "", "kind": "", "text": "",
                                "cost": "", "rules": []}
        try:
            d = self.game.describe(self.state, a)
            item.update(label=d.label, kind=d.kind, text=d.text, cost=d.cost,
                        changes=d.changes, rules=list(d.rules), section=d.section)
        except NotImplementedError:
            item["kind"] = str(a).split(" ", 1)[0]
        return item

    def _label(self, a: Any) -> str:
        """The action's label in words (``game.label``); empty for a game without one."""
        try:
            return self.game.label(self.state, a)
        except (NotImplementedError, AttributeError):
            return ""


DESCRIBE_ALL = 40
"""Positions with at most this many legal actions send every explanation with the view."""

