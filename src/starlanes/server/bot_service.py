"""The bot service (``starlanes bots --db URL --redis URL --workers N``): plays the bot seats
of every game served by clustered web processes, from the Redis job streams of
:mod:`.jobs`.

Each of the ``N`` worker processes reads one job at a time from the streams (consumer group
:data:`.jobs.GROUP`, so any number of bot services on any number of machines share the
work), reads the game from the store, checks the job still stands (same move, same seat,
same state), lets the catalogue's bot think (:func:`.bots.bot_move`), and stores the move
like anyone's action: the database's ``(game, seq)`` key keeps exactly one move per
sequence number, whoever else tried. Only then is the job acknowledged, the change
published (viewers on every web process get the fresh view) and the next bot decision of
that game, if any, queued.

Each worker writes its own key (``{prefix}:bot-worker:{name}``) every half second with a
two-second expiry. A worker killed while thinking leaves its job pending in the group:
as soon as its key has expired, another worker claims the job and thinks it again; if
the first worker had stored its move after all, the claimed job no longer stands and is
only acknowledged. A job whose worker lives but has been silent ``reclaim`` seconds
(quick lane) or ``reclaim`` plus the longest catalogue budget (slow lane) is claimed too.
A job that failed because the database or Redis did not answer stays with its worker,
which tries it again every half second until they answer.

Fairness (as the in-process pool, :mod:`.bots`, where a queue can keep it): quick bots and
slow searches wait in separate streams; in each bot service the first worker takes quick
jobs only, so a quick bot always finds a worker however many slow games think. Jobs are
served first come first served within a lane (the per-owner round-robin of the in-process
pool is not kept across processes); the per-game and per-client-hour bot budgets are
counted in Redis and shared by every worker.

The main process supervises: it starts the workers, starts a new one for each that dies,
and every ``sweep`` seconds queues the bot decision of every unfinished game with a bot
seat where a bot waits without a queued job (after Redis lost its data, or a worker died
between storing and queueing): one query through the index of unfinished games, never a
read of all the games or all the actions.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .bots import BotJob, bot_move
from .catalogue import FALLBACK_BOT, Catalogue
from .config import load_config
from .errors import ServerError
from .jobs import DEDUPE_SECONDS, ENQUEUE, GROUP, BotTask, Keys, deployment_prefix, notice
from .store import GameRow, SeatRow, Store, StoreConflict, StoreError, StoreUnavailable
from .tables import HUMAN, LiveGame
from .workers import _die_with_parent

log = logging.getLogger("starlanes.bots")

CACHE_GAMES = 512
"""Games a worker keeps rebuilt (a later move of one only applies the actions since)."""
WORKER_BEAT_SECONDS = 0.5
WORKER_KEY_MS = 2000
"""A worker writes its key every WORKER_BEAT_SECONDS; it expires WORKER_KEY_MS later."""
RETRY_SECONDS = 0.5
"""A job that failed on the database or Redis is tried again this often."""
SWEEP_GAMES = 5000
"""The most unfinished games with a bot seat one sweep reads."""


@dataclass(frozen=True)
class ServiceSettings:
    """What every worker of a bot service is started with: the database and Redis URLs,
    the server configuration file (bot catalogue, content packs, budgets), the seconds
    after which an idle pending job is claimed by another worker, and the seconds between
    sweeps."""

    db: str
    redis: str
    config: str | None = None
    reclaim: float = 15.0
    sweep: float = 10.0


def _redis(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=10)


def keys_for(settings: ServiceSettings, config: Any) -> Keys:
    """The deployment's Redis names (:func:`.jobs.deployment_prefix`)."""
    return Keys(deployment_prefix(settings.redis, config.limits.redis_prefix))


def ensure_groups(client: Any, keys: Keys) -> None:
    """Create the consumer group on both job streams (and the streams) if missing."""
    import redis

    for stream in (keys.quick, keys.slow):
        try:
            client.xgroup_create(stream, GROUP, id="0", mkstream=True)
        except redis.ResponseError as e:
            if "BUSYGROUP" not in str(e):
                raise


class Games:
    """The games a process keeps rebuilt, caught up from the store on each use."""

    def __init__(self, store: Store, catalogue: Catalogue) -> None:
        self.store = store
        self.catalogue = catalogue
        self._games: OrderedDict[str, LiveGame] = OrderedDict()

    def get(self, game_id: str) -> LiveGame | None:
        """The game as stored now, or None when there is none."""
        live = self._games.pop(game_id, None)
        if live is not None:
            seats, actions = self.store.since(game_id, max(live.seq - 1, 0))
            if live.catch_up(seats, actions) is None:
                live = None
        if live is None:
            row = self.store.game(game_id)
            if row is None:
                return None
            live = LiveGame.rebuild(row, self.store.seats(game_id),
                                    self.store.actions(game_id),
                                    self.catalogue.engine_options(row.game, dict(row.options)))
        self._games[game_id] = live
        while len(self._games) > CACHE_GAMES:
            self._games.popitem(last=False)
        return live

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)


def bot_waiting(live: LiveGame) -> int | None:
    """The bot seat the game waits for, or None."""
    seat = live.waiting_for()
    return seat if seat is not None and live.seats[seat].is_bot else None


def queue_task(client: Any, keys: Keys, catalogue: Catalogue, live: LiveGame, seat: int,
               owner: str = "") -> None:
    """Queue the bot decision of ``seat`` in ``live`` now (once per move and state)."""
    import json

    entry = catalogue.bot(live.seats[seat].kind)
    task = BotTask(live.id, live.seq, seat, live.state.digest(), owner)
    client.register_script(ENQUEUE)(
        keys=[keys.mark(task), keys.lane(entry.seconds if entry else 0.0)],
        args=[DEDUPE_SECONDS, json.dumps(asdict(task))])


class Worker:
    """One worker process's loop (see the module's description)."""

    def __init__(self, settings: ServiceSettings, quick_only: bool) -> None:
        self.settings = settings
        self.config = load_config(settings.config)
        self.catalogue = Catalogue(self.config)
        self.store = Store(settings.db)
        self.games = Games(self.store, self.catalogue)
        self.redis = _redis(settings.redis)
        self.keys = keys_for(settings, self.config)
        keys = self.keys
        self.streams = [keys.quick] if quick_only else [keys.quick, keys.slow]
        self.name = f"{socket.gethostname()}-{os.getpid()}"
        longest = max((b.seconds for b in self.config.bots), default=0.0)
        self.idle_ms = {keys.quick: int(settings.reclaim * 1000),
                        keys.slow: int((settings.reclaim + longest) * 1000)}
        self.stopping = False
        self._held: tuple[str, bytes, dict[Any, Any]] | None = None
        """A job that failed on the database or Redis: tried again before any other."""

    def run(self) -> None:
        import redis

        threading.Thread(target=self._beats, name="bot-worker-beat", daemon=True).start()
        while not self.stopping:
            try:
                ensure_groups(self.redis, self.keys)
                jobs = ([self._held] if self._held is not None else
                        self._orphans() or self._claim() or self._read())
                for stream, entry_id, fields in jobs:
                    self._handle(stream, entry_id, fields)
            except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable) as e:
                log.warning("worker %s: %s; trying again in %.1f s", self.name, e,
                            RETRY_SECONDS)
                time.sleep(RETRY_SECONDS)

    def _beats(self) -> None:
        """Write this worker's key every half second (a thread: a bot thinking long does
        not make the worker look dead)."""
        client = _redis(self.settings.redis)
        while not self.stopping:
            with contextlib.suppress(Exception):
                client.set(self.keys.worker(self.name), "1", px=WORKER_KEY_MS)
            time.sleep(WORKER_BEAT_SECONDS)

    def _read(self) -> list[tuple[str, bytes, dict[Any, Any]]]:
        got = self.redis.xreadgroup(GROUP, self.name, {s: ">" for s in self.streams},
                                    count=1, block=int(WORKER_BEAT_SECONDS * 1000)) or []
        return [(_text(stream), entry_id, fields) for stream, entries in got
                for entry_id, fields in entries]

    def _orphans(self) -> list[tuple[str, bytes, dict[Any, Any]]]:
        """A pending job whose worker's key has expired (the worker died), claimed now."""
        for stream in self.streams:
            pending = self.redis.xpending_range(stream, GROUP, min="-", max="+", count=20)
            for item in pending:
                consumer = _text(item["consumer"])
                if consumer == self.name or self.redis.exists(self.keys.worker(consumer)):
                    continue
                got = self.redis.xclaim(stream, GROUP, self.name, 0, [item["message_id"]])
                claimed = [(stream, entry_id, fields) for entry_id, fields in got if fields]
                if claimed:
                    log.info("worker %s took over job %s of the stopped worker %s", self.name,
                             _text(claimed[0][1]), consumer)
                    return claimed
        return []

    def _claim(self) -> list[tuple[str, bytes, dict[Any, Any]]]:
        for stream in self.streams:
            reply = self.redis.xautoclaim(stream, GROUP, self.name, self.idle_ms[stream],
                                          start_id="0-0", count=1)
            claimed = [(stream, entry_id, fields) for entry_id, fields in reply[1] if fields]
            if claimed:
                log.info("worker %s took over job %s of %s", self.name, claimed[0][1], stream)
                return claimed
        return []

    def _handle(self, stream: str, entry_id: bytes, fields: dict[Any, Any]) -> None:
        try:
            task = BotTask.decode(fields)
        except (ValueError, KeyError, TypeError) as e:
            log.error("dropping a malformed bot job %s: %s", entry_id, e)
            self.redis.xack(stream, GROUP, entry_id)
            return
        import redis

        self._held = (stream, entry_id, fields)
        try:
            self._play(task)
        except (StoreUnavailable, redis.ConnectionError, redis.TimeoutError):
            self.games.forget(task.game_id)
            raise  # kept: tried again as soon as the database and Redis answer
        except Exception as e:  # noqa: BLE001 - a broken bot or game must not stop the worker
            log.error("bot job of game %s, move %s failed: %s", task.game_id, task.seq, e)
            self.games.forget(task.game_id)
        self.redis.xack(stream, GROUP, entry_id)
        self._held = None

    def _play(self, task: BotTask) -> None:
        live = self.games.get(task.game_id)
        if live is None:
            return
        if (live.seq != task.seq or bot_waiting(live) != task.seat
                or live.state.digest() != task.digest):
            # done already (by a worker that died before acknowledging) or overtaken:
            # make sure viewers and the next bot know where the game is
            self.redis.publish(self.keys.game(live.id),
                               notice(live.id, live.seq, live.state.digest()))
            self._queue_next(live, task.owner)
            return
        entry = self.catalogue.bot(live.seats[task.seat].kind)
        if entry is None:
            log.error("game %s: seat %s is the bot %r, which the catalogue does not offer; "
                      "that seat waits", live.id, task.seat, live.seats[task.seat].kind)
            return
        spec, seconds = entry.spec, entry.seconds
        if self._over_budget(live.id, task.owner):
            spec, seconds = FALLBACK_BOT, 0.0
        started = time.monotonic()
        notation = bot_move(BotJob(
            live.id, live.row.game, live.row.players, live.row.seed,
            self.catalogue.engine_options(live.row.game, dict(live.row.options)),
            tuple(str(a) for a in live.state.history), task.seat, spec, seconds,
            owner=task.owner))
        self._charge(live.id, task.owner, time.monotonic() - started)
        pending = live.prepare(task.seat, task.seq, notation, "bot")
        try:
            self.store.append_actions([pending.stored()])
        except StoreConflict:
            self.games.forget(live.id)  # another worker stored this move first
            return
        live.commit(pending)
        self.redis.publish(self.keys.game(live.id),
                           notice(live.id, live.seq, live.state.digest(),
                                  live.noticed_action()))
        self._queue_next(live, task.owner)

    def _queue_next(self, live: LiveGame, owner: str) -> None:
        seat = bot_waiting(live)
        if seat is not None:
            queue_task(self.redis, self.keys, self.catalogue, live, seat, owner)

    def _over_budget(self, game_id: str, owner: str) -> bool:
        limits = self.config.limits
        keys = [self.keys.game_seconds(game_id)]
        if owner:
            keys.append(self.keys.owner_seconds(owner, int(time.time() // 3600)))
        values = self.redis.mget(keys)
        game = float(values[0] or 0)
        client = float(values[1] or 0) if owner else 0.0
        return (game >= limits.bot_seconds_per_game
                or client >= limits.bot_seconds_per_client_hour)

    def _charge(self, game_id: str, owner: str, seconds: float) -> None:
        pipe = self.redis.pipeline()
        pipe.incrbyfloat(self.keys.game_seconds(game_id), seconds)
        pipe.expire(self.keys.game_seconds(game_id), 30 * 86400)
        if owner:
            key = self.keys.owner_seconds(owner, int(time.time() // 3600))
            pipe.incrbyfloat(key, seconds)
            pipe.expire(key, 7200)
        pipe.execute()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def worker_main(settings: ServiceSettings, quick_only: bool, parent_pid: int) -> None:
    """A worker process: dies with its service, plays bot jobs until SIGTERM."""
    _die_with_parent(parent_pid)
    _logging()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = Worker(settings, quick_only)

    def stop(*_: Any) -> None:
        worker.stopping = True

    signal.signal(signal.SIGTERM, stop)
    worker.run()


def bot_games(store: Store, limit: int = SWEEP_GAMES) -> list[GameRow]:
    """Up to ``limit`` unfinished games with a bot seat, oldest first: one query through
    the index of unfinished games."""
    from sqlalchemy import exists, select

    with store.session() as s:
        has_bot = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind != HUMAN)
        rows = list(s.scalars(select(GameRow).where(GameRow.ended.is_(None), has_bot)
                              .order_by(GameRow.created).limit(limit)))
        s.expunge_all()
        return rows


def sweep(store: Store, games: Games, client: Any, keys: Keys, catalogue: Catalogue) -> int:
    """Queue the bot decision of every unfinished game with a bot seat where a bot waits
    (a job already queued for that move and state is not queued twice). Returns how many
    games were looked at."""
    rows = bot_games(store)
    for row in rows:
        try:
            live = games.get(row.id)
        except (StoreError, ServerError) as e:
            if isinstance(e, StoreUnavailable):
                raise
            log.error("sweep: game %s cannot be rebuilt: %s", row.id, e)
            continue
        if live is not None and (seat := bot_waiting(live)) is not None:
            queue_task(client, keys, catalogue, live, seat)
    return len(rows)


def serve_bots(settings: ServiceSettings, workers: int) -> None:
    """Run the bot service until SIGINT or SIGTERM: ``workers`` worker processes (the
    first of them for quick bots only when there are two or more), restarted when they
    die, and a sweep every ``settings.sweep`` seconds. Raises StoreError / ConfigError
    when the database or the configuration cannot be used, ConnectionError when Redis
    cannot be reached at start."""
    import redis

    _logging()
    config = load_config(settings.config)
    catalogue = Catalogue(config)
    client = _redis(settings.redis)
    client.ping()
    store = Store(settings.db)
    store.ping()
    keys = keys_for(settings, config)
    ensure_groups(client, keys)
    games = Games(store, catalogue)
    context = multiprocessing.get_context("spawn")
    procs: list[Any] = [None] * workers
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    next_sweep = 0.0
    try:
        while not stopping:
            for i, proc in enumerate(procs):
                if proc is None or not proc.is_alive():
                    if proc is not None:
                        log.warning("bot worker %s ended (%s); starting another", proc.pid,
                                    proc.exitcode)
                    procs[i] = context.Process(
                        target=worker_main, args=(settings, i == 0 and workers > 1,
                                                  os.getpid()),
                        name=f"starlanes-bots-{i}", daemon=True)
                    procs[i].start()
            if time.monotonic() >= next_sweep:
                next_sweep = time.monotonic() + settings.sweep
                try:
                    sweep(store, games, client, keys, catalogue)
                except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable) as e:
                    log.warning("sweep skipped: %s", e)
            time.sleep(0.2)
    finally:
        for proc in procs:
            if proc is not None and proc.is_alive():
                proc.terminate()
        for proc in procs:
            if proc is not None:
                proc.join(5)
                if proc.is_alive():
                    proc.kill()


def _logging() -> None:
    import sys

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("starlanes").setLevel(logging.INFO)


def settings_for(db: str, redis_url: str, config: Path | None, reclaim: float,
                 sweep_seconds: float) -> ServiceSettings:
    """The settings of a bot service from its command line."""
    with contextlib.suppress(Exception):
        config = config.resolve() if config is not None else None
    return ServiceSettings(db, redis_url, str(config) if config else None, reclaim,
                           sweep_seconds)
