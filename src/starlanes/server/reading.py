"""What the game service answers about a game without changing it: a seat's view, the
battle odds and the explanation of an action for the seat deciding, the game record once
it is over, the replay of any step, and the settings of a rematch; and the record of any
stored game (:func:`export_record`, for ``starlanes export``). A mixin of
:class:`.service.GameService`.
"""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING, Any

from starlanes.engine import SEAT_SETUP, GameRecord, StarlanesError

from .catalogue import Catalogue
from .config import ServerConfig
from .errors import BadRequest, Forbidden, NotFound
from .replays import check_seat_view, replay_view
from .tables import LiveGame
from .views import game_view

if TYPE_CHECKING:
    from .replays import ReplayCache
    from .store import Store


class Reading:
    """The reading side of the game service (see the module)."""

    store: Store
    catalogue: Catalogue
    replays: ReplayCache
    # provided by the service: live(game_id), seat_of(live, token), _engine_options(row)
    live: Any
    seat_of: Any
    _engine_options: Any


    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        live = self.live(game_id)
        seat = self.seat_of(live, token) if token else None
        return game_view(live, seat)

    def odds(self, game_id: str, token: str | None, notation: str | None) -> dict[str, Any]:
        """Battle odds for the table: of the battle the battle ``notation`` (a legal action
        of the seat) would start, or of the battle the seat is in. Computed on a
        determinisation for that seat, so nothing it may not see (other hands, future dice)
        goes into the answer. ``{"odds": null}`` when there is no battle to judge. Runs
        in its turn among the process's odds calculations and within their CPU seconds
        (:data:`.odds_api.GATE`): TooMany (429) when no turn comes in time, Unprocessable
        (422) for a battle that needs more."""
        from starlanes.analysis.odds import action_odds, battle_odds_for_state

        from .odds_api import GATE

        live = self.live(game_id)
        seat = self.seat_of(live, token)
        state = live.state  # a state is never changed once it is live
        # the determinisation's randomness comes from the operating system, never from
        # anything the client has seen
        world = state.determinize(seat, random.Random(secrets.randbits(64)))
        if notation:
            if live.waiting_for() != seat:
                raise Forbidden("odds of an action are for the seat deciding now")
            try:
                action = live.game.read_action(world, notation)
            except StarlanesError:
                return {"odds": None}  # not an action of this seat's decision any more
            report = GATE.run(lambda: action_odds(world, action, trials=300))
        else:
            report = GATE.run(lambda: battle_odds_for_state(world, seat, trials=300))
        return {"odds": None if report is None else report.to_json()}

    def describe(self, game_id: str, token: str | None, notation: str) -> dict[str, Any]:
        """The explanation of one legal action, for the seat deciding now (other viewers
        get no explanation of a decision that is not theirs)."""
        live = self.live(game_id)
        seat = self.seat_of(live, token)
        if live.waiting_for() != seat:
            raise Forbidden("explanations of the legal actions are for the seat deciding now")
        return live.describe_one(notation)

    def record(self, game_id: str) -> GameRecord:
        """The game record; only once the game is over (before, it would reveal hidden
        choices such as secret buys to anyone who downloads it). Computed once per game
        and kept (:meth:`.replays.ReplayCache.once`), in its turn among the replays."""
        live = self.live(game_id)
        if not live.over:
            raise Forbidden("the record is available when the game is over")

        def compute() -> GameRecord:
            with self.replays.turn():
                return export_record(self.store, game_id, self.catalogue)

        return self.replays.once("record", game_id, compute)

    def replay(self, game_id: str, step: int | None, seat: int | None) -> dict[str, Any]:
        """The view at ``step`` (None: the latest) of a stored game, rebuilt from its stored
        actions: the spectators' view at any time, a seat's view once the game is over.
        A finished game's views are computed once and kept (by step and seat). Raises
        NotFound, Forbidden (a seat's view of a running game) or BadRequest."""
        live = self.live(game_id)
        finished = live.over
        check_seat_view(finished, seat)
        if not finished:
            return self._replay(live, step, seat, finished)
        if step is not None and not 0 <= step <= live.seq:
            raise BadRequest(f"step {step} is outside the game: it has steps 0 to {live.seq}")
        if seat is not None and not 0 <= seat < live.row.players:
            raise BadRequest(f"seat {seat} is not in the game: seats are 0 to "
                             f"{live.row.players - 1}")
        key = (game_id, live.seq if step is None else step, seat)
        return self.replays.once("view", key, lambda: self._replay(live, step, seat, finished))

    def _replay(self, live: LiveGame, step: int | None, seat: int | None,
                finished: bool) -> dict[str, Any]:
        game_id = live.id
        actions = [a.notation for a in self.store.actions(game_id)]
        step = len(actions) if step is None else step
        game, state = self.replays.state(game_id, live.row.game, live.row.players,
                                         live.row.seed, self._engine_options(live.row),
                                         actions, step)
        labels = [live.seat_label(s.seat) for s in live.seats]
        view = replay_view(game, state, step=step, total=len(actions), seat=seat,
                           labels=labels, finished=finished, actions=actions)
        view["id"] = game_id
        return view

    def rematch(self, live: LiveGame) -> dict[str, Any]:
        """The settings of a rematch of the finished game ``live``, as keyword arguments of
        :meth:`.service.GameService.create`: the same game, players, options, clock and
        rated setting, with the seats rotated one place (the holder of seat ``s`` sits at
        ``s + 1``, the last at seat 0), their kinds (human or which bot) and setups (decks)
        going with them, and ``rematch_of``. The rematch draws a fresh secret seed when it
        is created: nothing about it follows from the finished game. Who sits where, and
        when the game is made, is the community's rematch offer (:mod:`.community.social`).
        Raises Forbidden (403) while the game is not over."""
        if not live.over:
            raise Forbidden("a rematch is for a finished game")
        row = live.row
        n = len(live.seats)
        kinds = [s.kind for s in live.seats]
        setups = list(row.options.get(SEAT_SETUP) or ())
        setups += [""] * (n - len(setups))
        options = {k: v for k, v in row.options.items() if k != SEAT_SETUP}
        return {"game": row.game, "players": row.players,
                "seats": [kinds[(i - 1) % n] for i in range(n)], "options": options,
                "setups": [setups[(i - 1) % n] for i in range(n)] if any(setups) else [],
                "clock_seconds": row.clock_seconds, "clock_kind": row.clock_kind,
                "clock_increment": row.clock_increment, "timeout": row.timeout,
                "rated": bool(row.rated), "rematch_of": row.id}


def export_record(store: Store, game_id: str, catalogue: Catalogue | None = None) -> GameRecord:
    """The usual game record of a stored game (``starlanes replay --verify`` accepts it);
    with the server's ``catalogue``, its content pack is named, not located."""
    row = store.game(game_id)
    if row is None:
        raise NotFound(f"no game {game_id!r} in the database")
    catalogue = catalogue or Catalogue(ServerConfig())
    options = catalogue.engine_options(row.game, dict(row.options))
    live = LiveGame.rebuild(row, store.seats(game_id), store.actions(game_id), options)
    seats = [s.kind if s.is_bot else (s.name or "human") for s in live.seats]
    record = catalogue.public_record(live.state.record(seats), dict(row.options))
    # a game the server ended (resign, abort, draw, time) says so in its record
    return record if row.outcome is None else record.model_copy(
        update={"outcome": dict(row.outcome)})
