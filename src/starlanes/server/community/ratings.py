"""Ratings and leaderboards: one openskill Plackett-Luce rating per player and game (the
model :mod:`starlanes.analysis.ratings` rates agents with), the catalogue bots on the same
scale (their ratings come from the bot ladder, :mod:`.ladder`), and the API and pages that
show them.

What is rated (see ``docs/community/ratings.md``): a game that is over, asked to be rated
(``row.rated``), not seeded by its creator, with every human seat held by an account (each
account in one seat), at least one account seated, and options within the rated set
(:func:`rated_options`). Each is rated exactly once: the row of ``rated_games`` (its
primary key is the game) is written in the same transaction as the new ratings.

Bots take part with their ladder rating and their rating does not move in games with
players: a bot's strength is fixed by its agent spec, and the ladder measures it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse
from sqlalchemy import delete, select

from starlanes.engine import SEAT_SETUP, StarlanesError, game_class

from ..errors import NotFound
from ..store import GameRow, Store, StoreConflict, now
from ..tables import LiveGame
from .models import AccountRow, RatedGameRow, RatingRow

if TYPE_CHECKING:
    from ..config import ServerConfig
    from . import Community

log = logging.getLogger("starlanes.server.ratings")

PROVISIONAL_GAMES = 5
"""A rating over fewer rated games than this is shown as provisional."""
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0
"""The rating shown is ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``, rounded: a new
player (mu 25, sigma 25/3) shows 1000."""
FREE_OPTIONS = frozenset({SEAT_SETUP})
"""Options a rated game may set away from their defaults: what each seat brings (its
deck), chosen by that seat within the rules. Every other option must keep its default
(a content pack or content override makes a game unrated)."""
CATCH_UP_DAYS = 7
"""At start, rated games that ended this many days back at most are rated if they were not
(a bounded query: never a scan of every game)."""
DONE_KEPT = 10_000
"""Game ids a process remembers having rated (a bounded memory; the store decides)."""
RETRIES = 3
"""Attempts at one game's update when another write raced it (a new player's first row)."""


def display(mu: float, sigma: float) -> int:
    """The rating shown for openskill's ``mu`` and ``sigma`` (see :data:`DISPLAY_SCALE`)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def _still_measured(bot: dict[str, Any], game: str) -> bool:
    """Whether a ladder entry's bot is still the agent measured: its spec resolves in
    ``game`` to the ``resolved`` agent recorded (an ``mcts`` spec relative to the game's
    search defaults means another search once those change). Entries without one (older
    files) are taken by spec alone."""
    from starlanes.agents.registry import resolved_spec

    recorded = bot.get("resolved")
    if recorded is None:
        return True
    try:
        return resolved_spec(str(bot.get("spec", "")), game) == recorded
    except StarlanesError:
        return False


def rated_options(game: str, options: dict[str, Any]) -> bool:
    """Whether stored ``options`` of ``game`` are within the rated set: each option at its
    default, except :data:`FREE_OPTIONS`. An option the game does not know is not."""
    try:
        specs = {s.name: s for s in game_class(game).option_set.specs}
    except StarlanesError:
        return False
    for key, value in options.items():
        if key in FREE_OPTIONS:
            continue
        spec = specs.get(key)
        if spec is None:
            return False
        try:
            if spec.coerce(value) != spec.default:
                return False
        except StarlanesError:
            return False
    return True


def unrated_reason(live: LiveGame, same_network: bool = False) -> str | None:
    """Why the game ``live`` is not rated (None: it is, once over). Does not look at
    whether it is over, but an ended game is judged by how it ended: one aborted (or
    expired) counts for nobody, and so does one in which a human seat never made a
    decision of its own (the abort rule: ``docs/community/fair-play.md``).
    ``same_network``: whether two accounts of one client network may meet
    (``fair_play.rated_same_network``)."""
    row = live.row
    if not row.rated:
        return "the game was not asked to be rated"
    if row.seeded:
        return "its creator chose the seed"
    if row.outcome is not None and row.outcome.get("ranks") is None:
        return "the game was aborted"
    humans = [s for s in live.seats if not s.is_bot]
    accounts = [s.account_id for s in humans]
    if any(a is None for a in accounts):
        return "a seat is held by a guest, or open"
    if not accounts:
        return "no player with an account is seated"
    if len(set(accounts)) != len(accounts):
        return "one account holds several seats"
    if not rated_options(row.game, dict(row.options)):
        return "its options are not the rated set"
    networks = [s.network for s in humans if s.network]
    if not same_network and len(set(networks)) != len(networks):
        return "two seats were taken from one network"
    if live.over:
        idle = [s for s in humans if not live.has_moved(s.seat)]
        if idle:
            return (f"{live.seat_label(idle[0].seat)} never made a decision, so the game "
                    "counts as aborted")
    return None


def seat_keys(live: LiveGame) -> list[str]:
    """The player key of every seat: ``a:<account id>`` or ``bot:<catalogue name>``."""
    return [f"bot:{s.kind}" if s.is_bot else f"a:{s.account_id}" for s in live.seats]


class Ratings:
    """The ratings of a server: updates when rated games end, questions for the lobby,
    profiles and play-now, and the bot ladder loaded at start."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.store: Store = community.store
        self.config: ServerConfig = community.config
        self.ladder_path: Path | None = None
        """The ladder file loaded at start (None: the packaged ``ladder.json``)."""
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._done: OrderedDict[str, None] = OrderedDict()
        """Games rated by this process lately (at most :data:`DONE_KEPT`; the store's
        ``rated_games`` row is what stops a second rating)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._same_network = community.config.fair_play.rated_same_network
        community.service.listeners.append(self.on_change)
        community.service.on_start.append(self.start)

    # ------------------------------------------------------------------ hooks
    async def start(self) -> None:
        """At server start: the bots' ladder ratings into the table, then every game asked
        to be rated that ended in the last :data:`CATCH_UP_DAYS` days but is not in
        ``rated_games`` (the server stopped between its last move and its update), read
        from the store (finished games are archived, not held in memory)."""
        await asyncio.to_thread(self.load_ladder)
        service = self.community.service
        for game_id in await asyncio.to_thread(self._unsettled_ids):
            try:
                live = await service.open(game_id)
            except Exception:  # noqa: BLE001 - one broken game must not stop the start
                log.exception("game %s could not be read to rate it", game_id)
                continue
            if live.over and unrated_reason(live, self._same_network) is None:
                await self._update(live)

    def _unsettled_ids(self) -> list[str]:
        """Games asked to be rated, ended lately, with no ``rated_games`` row."""
        since = now() - dt.timedelta(days=CATCH_UP_DAYS)
        with self.store.session() as s:
            return list(s.scalars(
                select(GameRow.id).where(GameRow.rated.is_(True), GameRow.ended >= since,
                                         ~GameRow.id.in_(select(RatedGameRow.game_id)))
                .order_by(GameRow.ended)))

    def on_change(self, live: LiveGame) -> None:
        """Service listener: when a rated game is over and not yet rated, start its update
        in a thread and return at once."""
        if (not live.over or live.id in self._busy or live.id in self._done
                or unrated_reason(live, self._same_network) is not None):
            return
        self._busy.add(live.id)
        task = asyncio.get_running_loop().create_task(self._update(live, claimed=True))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _update(self, live: LiveGame, claimed: bool = False) -> None:
        if not claimed:
            if live.id in self._busy:
                return
            self._busy.add(live.id)
        ranks = live.ranking()
        try:
            if ranks is not None:
                await asyncio.to_thread(self.rate, live.id, live.row.game, seat_keys(live),
                                        ranks)
                self._done[live.id] = None
                while len(self._done) > DONE_KEPT:
                    self._done.popitem(last=False)
        except Exception:  # noqa: BLE001 - retried by the next change or the next start
            log.exception("rating game %s failed", live.id)
        finally:
            self._busy.discard(live.id)

    async def settle(self) -> None:
        """Wait for the updates in flight (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ updating
    def rate(self, game_id: str, game: str, keys: Sequence[str], ranks: Sequence[int]) -> bool:
        """Rate one finished game (``keys``: player key per seat, ``ranks``: place per
        seat, 0 first) in one transaction with its ``rated_games`` row; True when rated
        now, False when it had been rated before. Bots' ratings are read, never changed.
        Raises StoreUnavailable when the database cannot be used."""
        for attempt in range(RETRIES):
            try:
                with self._lock, self.store.session() as s:
                    if s.get(RatedGameRow, game_id) is not None:
                        return False
                    s.add(RatedGameRow(game_id=game_id, rated_at=now(), changes=[]))
                    s.flush()  # a second attempt at this game stops here
                    changes = _apply(s, game, keys, ranks)
                    s.get(RatedGameRow, game_id).changes = changes  # type: ignore[union-attr]
                return True
            except StoreConflict:
                with self.store.session() as s:
                    if s.get(RatedGameRow, game_id) is not None:
                        return False  # rated by another process meanwhile
                if attempt == RETRIES - 1:
                    raise
        return False

    def recompute(self, game: str | None = None) -> int:
        """Rebuild the players' ratings of ``game`` (None: every game) from scratch: delete
        them, then rate every stored rated game again in the order it was rated, its result
        replayed from its stored actions. Bots keep their ladder ratings. Returns the number
        of games rated."""
        from ..catalogue import Catalogue

        catalogue = Catalogue(self.config)
        with self._lock, self.store.session() as s:
            query = delete(RatingRow).where(RatingRow.player.like("a:%"))
            if game is not None:
                query = query.where(RatingRow.game == game)
            s.execute(query)
            rows = s.execute(select(RatedGameRow, GameRow).join(
                GameRow, GameRow.id == RatedGameRow.game_id).order_by(
                RatedGameRow.rated_at, RatedGameRow.game_id)).all()
            count = 0
            for rated, row in rows:
                if game is not None and row.game != game:
                    continue
                keys, ranks = self._stored_result(s, row, rated, catalogue)
                rated.changes = _apply(s, row.game, keys, ranks)
                s.flush()
                count += 1
        return count

    def _stored_result(self, s: Any, row: GameRow, rated: RatedGameRow,
                       catalogue: Any) -> tuple[list[str], list[int]]:
        from ..store import ActionRow, SeatRow

        seats = list(s.scalars(select(SeatRow).where(SeatRow.game_id == row.id)
                               .order_by(SeatRow.seat)))
        actions = list(s.scalars(select(ActionRow).where(ActionRow.game_id == row.id)
                                 .order_by(ActionRow.seq)))
        live = LiveGame.rebuild(row, seats, actions, catalogue.engine_options(
            row.game, dict(row.options)))
        ranks = live.ranking()
        if ranks is None:  # cannot happen for a game that was rated
            ranks = [c["place"] for c in rated.changes]
        return seat_keys(live), ranks

    # ------------------------------------------------------------------ the ladder
    def load_ladder(self) -> int:
        """Copy the ladder's bot ratings into the table as ``bot:<name>``, for the
        catalogue bots whose spec is the one measured; returns the number of rows."""
        from .ladder import load_ladder

        try:
            ladder = load_ladder(self.ladder_path)
        except (OSError, ValueError) as e:
            log.error("bot ladder not loaded: %s", e)
            return 0
        for _attempt in range(3):  # processes starting together may insert a row at once
            try:
                return self._copy_ladder(ladder)
            except StoreConflict:
                continue
        log.error("bot ladder not loaded: the rating rows kept changing under it")
        return 0

    def _copy_ladder(self, ladder: dict[str, Any]) -> int:
        specs = {b.name: b.spec for b in self.config.bots}
        n = 0
        with self._lock, self.store.session() as s:
            for game, entry in ladder["games"].items():
                for name, bot in entry.get("bots", {}).items():
                    if specs.get(name) != bot.get("spec"):
                        continue  # not offered, or a different agent than was measured
                    if not _still_measured(bot, game):
                        log.info("bot ladder: %s in %s now resolves to another agent than "
                                 "was measured (%s); not rated from the ladder",
                                 name, game, bot["resolved"])
                        continue
                    key = f"bot:{name}"
                    row = s.get(RatingRow, (key, game))
                    if row is None:
                        row = RatingRow(player=key, game=game)
                        s.add(row)
                    row.mu, row.sigma = float(bot["mu"]), float(bot["sigma"])
                    row.games, row.updated = int(bot["games"]), now()
                    n += 1
        return n

    # ------------------------------------------------------------------ questions
    def rating(self, player_key: str, game: str) -> dict[str, Any]:
        """``{rating, mu, sigma, games, provisional}`` of a player key in ``game``; a
        player never rated there gets the starting values (rating 1000, provisional)."""
        with self.store.session() as s:
            row = s.get(RatingRow, (player_key, game))
            if row is None:
                return _shape(*_start())
            return _shape(row.mu, row.sigma, row.games)

    def profile(self, player_key: str) -> list[dict[str, Any]]:
        """Every game the player has a rating in: ``[{game, rating, games, provisional}]``,
        by game id."""
        with self.store.session() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.player == player_key)
                             .order_by(RatingRow.game)).all()
            return [{"game": r.game, **{k: v for k, v in _shape(r.mu, r.sigma, r.games)
                                        .items() if k in ("rating", "games", "provisional")}}
                    for r in rows]

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best ``limit`` of ``game``, players and catalogue bots on one scale:
        ``[{rank, name, player, rating, games, provisional, bot}]`` by rating (ties share a
        rank). Deleted and suspended accounts are left out."""
        offered = {b.name for b in self.config.bots_for(game)}
        with self.store.session() as s:
            rows = s.execute(select(RatingRow, AccountRow).outerjoin(
                AccountRow, RatingRow.player == _account_key()).where(
                RatingRow.game == game)).all()
            entries = []
            for r, account in rows:
                bot = r.player.startswith("bot:")
                if bot:
                    name = r.player.removeprefix("bot:")
                    if name not in offered:
                        continue
                elif account is None or account.deleted or account.suspended:
                    continue
                else:
                    name = account.name
                shown = _shape(r.mu, r.sigma, r.games)
                entries.append({"name": name, "player": r.player, "rating": shown["rating"],
                                "games": r.games, "provisional": shown["provisional"],
                                "bot": bot, "_key": (-shown["rating"], -r.mu, r.player)})
        entries.sort(key=lambda e: e.pop("_key"))
        out: list[dict[str, Any]] = []
        for i, e in enumerate(entries[:limit]):
            rank = out[-1]["rank"] if out and out[-1]["rating"] == e["rating"] else i + 1
            out.append({"rank": rank, **e})
        return out

    def bots(self, game: str) -> list[dict[str, Any]]:
        """The catalogue bots that play ``game``, with their ratings in it: ``[{name,
        rating, help}]`` in catalogue order (a bot without a ladder rating shows the
        starting rating)."""
        with self.store.session() as s:
            rows = {r.player: r for r in s.scalars(select(RatingRow).where(
                RatingRow.game == game, RatingRow.player.like("bot:%")))}
        out = []
        for b in self.config.bots_for(game):
            r = rows.get(f"bot:{b.name}")
            mu, sigma, _ = (r.mu, r.sigma, r.games) if r is not None else _start()
            out.append({"name": b.name, "rating": display(mu, sigma), "help": b.help})
        return out

    def nearest_bot(self, game: str, rating: float) -> str:
        """The catalogue bot whose rating in ``game`` is nearest ``rating`` (the first in
        catalogue order on a tie). Raises NotFound when the catalogue has no bots."""
        bots = self.bots(game)
        if not bots:
            raise NotFound("this server offers no bots")
        return min(bots, key=lambda b: abs(b["rating"] - rating))["name"]


def _account_key() -> Any:
    from sqlalchemy import String, cast, literal

    return literal("a:") + cast(AccountRow.id, String)


def _start() -> tuple[float, float, int]:
    model = _model()
    return model.mu, model.sigma, 0


def _shape(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {"rating": display(mu, sigma), "mu": round(mu, 4), "sigma": round(sigma, 4),
            "games": games, "provisional": games < PROVISIONAL_GAMES}


def _apply(s: Any, game: str, keys: Sequence[str], ranks: Sequence[int]) -> list[dict[str, Any]]:
    """Rate one result inside the session ``s``: players' rows are updated (created at the
    starting values), bots' rows only read. Returns the changes per seat."""
    model = _model()
    # players' rows locked in one order (PostgreSQL: another process rating a game of the
    # same player waits; SQLite has one writer anyway); bots' rows are only read
    rows: dict[str, RatingRow | None] = {
        k: s.get(RatingRow, (k, game), with_for_update=not k.startswith("bot:"))
        for k in sorted(set(keys))}
    teams = []
    for k in keys:
        r = rows[k]
        teams.append([model.rating(mu=r.mu, sigma=r.sigma) if r is not None
                      else model.rating()])
    rated = model.rate(teams, ranks=[r + 1 for r in ranks])
    changes = []
    for seat, (k, before, after) in enumerate(zip(keys, teams, rated, strict=True)):
        changes.append({"seat": seat, "player": k, "place": ranks[seat],
                        "before": [before[0].mu, before[0].sigma],
                        "after": [after[0].mu, after[0].sigma]})
        if k.startswith("bot:"):
            continue
        row = rows[k]
        if row is None:
            row = rows[k] = RatingRow(player=k, game=game, games=0)
            s.add(row)
        row.mu, row.sigma = after[0].mu, after[0].sigma
        row.games = (row.games or 0) + 1
        row.updated = now()
    return changes


# ---------------------------------------------------------------------- the command line
def recompute_database(url: str, config: ServerConfig, game: str | None = None) -> int:
    """``starlanes ratings recompute``: migrate the database at ``url`` and rebuild its
    players' ratings (:meth:`Ratings.recompute`); returns the number of games rated."""
    from types import SimpleNamespace

    from ..store import upgrade

    upgrade(url)
    store = Store(url)
    service = SimpleNamespace(listeners=[], on_start=[], games={})
    community = SimpleNamespace(store=store, config=config, service=service)
    return Ratings(community).recompute(game)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- routes
def router(community: Community, web: Path) -> APIRouter:
    """``GET /api/ratings/{game}`` (leaderboard), ``GET /api/ratings/{game}/bots`` and the
    page ``/leaderboard``. An unknown game is answered 400 naming the known ones."""
    api = APIRouter()
    ratings: Ratings = community.ratings

    @api.get("/api/ratings/{game}")
    def leaderboard(game: str, limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
        game_class(game)  # BadOptionError (400) names the known games
        return {"game": game, "provisional_games": PROVISIONAL_GAMES,
                "leaderboard": ratings.leaderboard(game, limit)}

    @api.get("/api/ratings/{game}/bots")
    def bots(game: str) -> dict[str, Any]:
        game_class(game)
        return {"game": game, "bots": ratings.bots(game)}

    @api.get("/leaderboard", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(web / "leaderboard.html")

    return api
