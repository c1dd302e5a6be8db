"""Replays for the browser's replay viewer: the view of a game at step N, rebuilt from its
actions through the engine contract only (``load``, ``parse_action``, ``apply``,
``observation``, ``public_observation``, ``action_log``, ``digest``, ``layout``).

What a viewer may see: a stored game's public view at any step, even while it is running
(the public observation holds nothing hidden); a seat's view of a stored game only once the
game is over (its record is public then); any view of an uploaded game record (whoever holds
a record holds its seed and every action, so nothing in it is hidden from them). The digest of
the full state is shown only where the whole game may be seen: a finished game or a record.

Replays are served from a cache: the states at every :data:`CHECKPOINT` steps of the games
replayed lately, so a viewer stepping through a game, or many viewers of one game, replay a
few actions each instead of the whole game; and at most :data:`CONCURRENT` replays run at
once, so replays cannot crowd out the games being played. A finished game never changes:
its views (by step and seat) and its record are kept once computed (the last
:data:`FINISHED_VIEWS` and :data:`FINISHED_RECORDS`), and many viewers asking for the same
one at once wait for a single computation (:meth:`ReplayCache.once`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, TypeVar

from starlanes.engine import GameRecord, GameState, StarlanesError, load

from .errors import BadRequest, Forbidden

MAX_REPLAY_ACTIONS = 20_000
"""The longest action list replayed on request (real games are a few thousand at most)."""

CHECKPOINT = 32
"""Steps between two cached states of a replayed game."""
CACHED_GAMES = 32
"""Games whose replay checkpoints are kept."""
CONCURRENT = 2
"""Replays computed at once; more wait their turn."""
FINISHED_VIEWS = 128
"""Views of finished games kept (by game, step and seat)."""
FINISHED_RECORDS = 32
"""Records of finished games kept."""

T = TypeVar("T")


class ReplayCache:
    """Checkpoint states of recently replayed stored games, by server game id: each the
    state after a multiple of :data:`CHECKPOINT` actions, with the notations that led there
    (a checkpoint is used only while the game's stored actions still begin with them, so an
    undo makes it unused). Thread-safe; states handed out are clones."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, dict[int, tuple[tuple[str, ...], GameState]]] = \
            OrderedDict()
        self._lock = threading.Lock()
        self._running = threading.BoundedSemaphore(CONCURRENT)
        self._kept: dict[str, OrderedDict[Hashable, Any]] = {"view": OrderedDict(),
                                                             "record": OrderedDict()}
        self._sizes = {"view": FINISHED_VIEWS, "record": FINISHED_RECORDS}
        self._pending: dict[tuple[str, Hashable], Future[Any]] = {}
        self.computed = {"view": 0, "record": 0}
        """Computations of finished games' views and records so far (for tests and
        operators)."""

    @contextmanager
    def turn(self) -> Iterator[None]:
        """One of the :data:`CONCURRENT` places for a replay computation (waits for it)."""
        with self._running:
            yield

    def once(self, kind: str, key: Hashable, compute: Callable[[], T]) -> T:
        """What ``compute()`` returns for ``key`` of a finished game (``kind``: ``view`` or
        ``record``), computed once: kept afterwards (the most recent :data:`FINISHED_VIEWS`
        views, :data:`FINISHED_RECORDS` records), and callers asking while it is being
        computed wait for that computation. Its errors are raised to every caller waiting
        for it, and not kept. ``compute`` takes its own :meth:`turn`."""
        kept = self._kept[kind]
        with self._lock:
            if key in kept:
                kept.move_to_end(key)
                return kept[key]
            future = self._pending.get((kind, key))
            mine = future is None
            if future is None:
                future = self._pending[(kind, key)] = Future()
        if not mine:
            return future.result()
        try:
            value = compute()
        except BaseException as e:
            with self._lock:
                del self._pending[(kind, key)]
            future.set_exception(e)
            raise
        with self._lock:
            del self._pending[(kind, key)]
            self.computed[kind] += 1
            kept[key] = value
            while len(kept) > self._sizes[kind]:
                kept.popitem(last=False)
        future.set_result(value)
        return value

    def state(self, key: str, game_id: str, players: int, seed: int,
              options: dict[str, Any], actions: list[str], step: int) -> tuple[Any, GameState]:
        """As :func:`replay_state`, starting from the nearest usable checkpoint."""
        check_step(actions, step)
        with self._running:
            start = None
            with self._lock:
                points = self._games.get(key, {})
                if points:
                    self._games.move_to_end(key)
                for at in sorted(points, reverse=True):
                    done, st = points[at]
                    if at <= step and tuple(actions[:at]) == done:
                        start = (at, st.clone())
                        break
            if start is None:
                game, state = replay_state(game_id, players, seed, options, actions, 0)
                at = 0
            else:
                at, state = start
                game = state.game
            while at < step:
                _apply(game, state, actions, at)
                at += 1
                if at % CHECKPOINT == 0:
                    self._keep(key, at, tuple(actions[:at]), state.clone())
            return game, state

    def _keep(self, key: str, at: int, done: tuple[str, ...], state: GameState) -> None:
        with self._lock:
            points = self._games.setdefault(key, {})
            points[at] = (done, state)
            self._games.move_to_end(key)
            while len(self._games) > CACHED_GAMES:
                self._games.popitem(last=False)


def check_step(actions: list[str], step: int) -> None:
    """BadRequest for too many actions or a step outside 0..len(actions)."""
    if len(actions) > MAX_REPLAY_ACTIONS:
        raise BadRequest(f"the record has {len(actions)} actions; at most "
                         f"{MAX_REPLAY_ACTIONS} are replayed")
    if not 0 <= step <= len(actions):
        raise BadRequest(f"step {step} is outside the game: it has steps 0 to {len(actions)}")


def replay_state(game_id: str, players: int, seed: int, options: dict[str, Any],
                 actions: list[str], step: int) -> tuple[Any, GameState]:
    """The game and its state after the first ``step`` of ``actions`` (0: the set-up).

    Raises BadRequest naming the problem for a step outside 0..len(actions), too many
    actions, a game that cannot be loaded or an action that does not apply."""
    check_step(actions, step)
    try:
        game = load(game_id, players=players, seed=seed, **dict(options))
    except StarlanesError as e:
        raise BadRequest(f"the game cannot be loaded: {e}") from None
    state = game.new_initial_state()
    for i in range(step):
        _apply(game, state, actions, i)
    return game, state


def _apply(game: Any, state: GameState, actions: list[str], i: int) -> None:
    text = actions[i]
    try:
        state.apply(game.parse_action(state, text))
    except StarlanesError as e:
        raise BadRequest(f"action {i + 1} ({str(text)[:80]!r}) does not replay: {e}") from None


def replay_view(game: Any, state: GameState, *, step: int, total: int, seat: int | None,
                labels: list[str], finished: bool, actions: list[str]) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator) at ``step`` of ``total``, shaped like a
    table view without legal actions: ``observation``, ``log`` (the whole log up to this
    step), ``digest``, ``scores``, ``result`` at the end (with the score ``breakdown`` by
    source where the game gives one), ``seats`` labels and the notation of
    the action that led here (``last``, only when the whole game may be seen, i.e.
    ``finished``: a running game's notation may name a secret choice). ``digest`` (of the
    full state) only when ``finished``: the digest of a running game's state would let a
    viewer test guesses about its hidden part."""
    if seat is not None and not 0 <= seat < game.players:
        raise BadRequest(f"seat {seat} is not in the game: seats are 0 to {game.players - 1}")
    observation = state.observation(seat) if seat is not None else state.public_observation()
    result = None
    if state.is_terminal():
        returns = state.returns()
        breakdown = getattr(state, "score_breakdown", None)  # the score by source
        result = {"winners": [i for i, r in enumerate(returns) if r > 0],
                  "scores": list(state.scores()),
                  "end_reason": str(getattr(state, "end_reason", "") or "finished"),
                  "breakdown": breakdown() if callable(breakdown) else None}
    waiting = None if state.is_terminal() else state.current_player()
    return {
        "game": game.game_id, "title": getattr(game, "title", game.game_id),
        "players": game.players, "step": step, "total": total, "seq": step, "you": seat,
        "seats": [{"seat": i, "label": labels[i] if i < len(labels) else f"P{i}",
                   "name": "", "bot": None, "open": False} for i in range(game.players)],
        "waiting_for": waiting,
        "waiting_label": labels[waiting] if waiting is not None and waiting < len(labels)
        else None,
        "your_turn": False, "legal": [], "can_undo": False,
        "scores": list(state.scores()), "result": result,
        "observation": observation, "log": list(state.action_log()),
        "log_total": len(state.action_log()),
        "digest": state.digest() if finished else None,
        "last": actions[step - 1] if step > 0 and finished else None,
        "finished": finished,
    }


def record_replay(record: GameRecord, step: int, seat: int | None,
                  options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The view at ``step`` of an uploaded game record, with the game's ``layout`` and the
    record's ``chat`` written at that step or before (the newest 200); the game is loaded
    with ``options`` (the record's, its content pack resolved by the caller)."""
    game, state = replay_state(record.game, record.players, record.seed,
                               record.options if options is None else options,
                               record.actions, step)
    labels = [f"P{i} ({name})" if name else f"P{i}"
              for i, name in enumerate(record.seats + [""] * game.players)][:game.players]
    view = replay_view(game, state, step=step, total=len(record.actions), seat=seat,
                       labels=labels, finished=True, actions=record.actions)
    view["layout"] = game.layout(state)
    view["chat"] = [line.model_dump() for line in (record.chat or []) if line.seq <= step][-200:]
    return view


def check_seat_view(finished: bool, seat: int | None) -> None:
    """Raises Forbidden for a seat's view of a stored game still being played."""
    if seat is not None and not finished:
        raise Forbidden("a seat's view of a game still being played is shown only to that "
                        "seat, at its table; the replay shows the spectators' view until "
                        "the game is over")
