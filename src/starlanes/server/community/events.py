"""One event stream per open page of a logged-in player: ``GET /api/events``
(Server-Sent Events, the session cookie), read by the shared script of every page
(``web/notify.js``), which turns the events into the page title, a badge and a list.

Events (each one ``data:`` line of JSON with a ``kind``):

- ``{"kind": "hello", "games": [{id, title, url, your_turn}]}``: first, the account's games
  where it is its turn now (:func:`.accounts.account_games`);
- ``{"kind": "turn", "game", "title", "url", "your_turn", "seq", "over"}``: it became (or
  stopped being) the account's turn in a game; sent from the game service's listeners, the
  same source as the lobby's turn signal;
- anything the community's notifiers are called with (``community.notifiers``: challenges,
  rematch offers), as given, e.g. ``{"kind": "challenge", ...}``.

Limits: at most ``notifications.streams_per_account`` streams per account and
``notifications.streams_total`` per process (429 past them); a stream that carried no event
for ``stream_idle_seconds`` is closed (the browser opens a new one), each stream checks its
session every ``heartbeat_seconds`` (a logged-out or suspended account's streams end) and
queues at most :data:`QUEUED` events (a page that stops reading loses the oldest). What the
process holds is its open streams and, per unfinished game with account seats, whose turn
was last signalled: nothing grows with history.

Several processes (``starlanes serve --redis``): an event (a notifier's, or a turn worked
out by the process where the game changed) is published on the Redis channel
:func:`channel`, and every process hands it to the streams it holds. A turn signalled twice
(two processes saw the change) says the same thing twice: pages take it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ..errors import TooMany, Unauthorized
from .identity import SESSION_COOKIE, optional_account

if TYPE_CHECKING:
    from ..tables import LiveGame
    from . import Community

log = logging.getLogger("starlanes.server")

CHANNEL = "events"
"""The Redis channel of the events (``{"account": id, "event": {...}}``), after the
deployment's prefix (:func:`channel`)."""


def channel(redis_url: str, prefix: str = "") -> str:
    """This deployment's event channel: ``prefix`` (``limits.redis_prefix``) or
    ``starlanes-db`` and the Redis database number, then ``:events``; two deployments
    sharing a Redis server never hear each other's events."""
    if not prefix:
        from urllib.parse import urlsplit

        db = urlsplit(redis_url).path.strip("/")
        prefix = f"starlanes-db{db if db.isdigit() else 0}"
    return f"{prefix}:{CHANNEL}"
QUEUED = 32
"""Events one stream keeps waiting at most."""
RETRY_MS = 5000
"""How long a browser waits before opening a closed stream again."""


@dataclass(eq=False)
class Stream:
    """One open page of an account: the session it came with (its hash) and its queue
    (events, then None when the server ends it)."""

    account_id: int
    session: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUED))
    last: float = field(default_factory=time.monotonic)

    def offer(self, event: dict[str, Any] | None) -> None:
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(event)


def sse(event: dict[str, Any]) -> str:
    """One Server-Sent Event carrying ``event`` as JSON."""
    return "data: " + json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n\n"


class Events:
    """The event streams of one process, the turn signals and the notifiers' relay."""

    def __init__(self, community: Community) -> None:
        self.community = community
        self.service = community.service
        self.settings = community.config.notifications
        self.streams: dict[int, list[Stream]] = {}
        self._turns: dict[str, dict[int, bool]] = {}
        """Per unfinished game, per account seated in it: whether the last signal said it
        was the account's turn."""
        self._task: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        cluster = self.service.cluster
        self.channel = channel(cluster.url, community.config.limits.redis_prefix) \
            if cluster is not None else ""
        self.service.listeners.append(self.on_change)
        self.service.on_start.append(self.start)
        self.service.on_stop.append(self.stop)
        community.notifiers.append(self.notify)

    # ------------------------------------------------------------------ streams
    def count(self) -> int:
        return sum(len(s) for s in self.streams.values())

    def open(self, account_id: int, session: str) -> Stream:
        """A new stream for the account; TooMany (429) past the limits."""
        mine = self.streams.get(account_id, [])
        if len(mine) >= self.settings.streams_per_account:
            error = TooMany(f"you have {len(mine)} pages with live notifications open "
                            f"already (at most {self.settings.streams_per_account}); close "
                            "one, or reload this page later")
            error.retry_after = 60
            raise error
        if self.count() >= self.settings.streams_total:
            error = TooMany("the server holds as many live notification streams as it can; "
                            "try again in a minute")
            error.retry_after = 60
            raise error
        stream = Stream(account_id, session)
        self.streams.setdefault(account_id, []).append(stream)
        return stream

    def close(self, stream: Stream) -> None:
        mine = self.streams.get(stream.account_id)
        if mine is None:
            return
        with contextlib.suppress(ValueError):
            mine.remove(stream)
        if not mine:
            del self.streams[stream.account_id]

    def deliver(self, account_id: int, event: dict[str, Any]) -> int:
        """Hand ``event`` to this process's streams of the account; how many got it."""
        mine = self.streams.get(account_id, [])
        for stream in mine:
            stream.offer(event)
        return len(mine)

    def end_account(self, account_id: int) -> None:
        """End every stream of an account here (logged out everywhere, suspended)."""
        for stream in list(self.streams.get(account_id, [])):
            stream.offer(None)

    # ------------------------------------------------------------------ notifiers
    async def notify(self, account_id: int, event: dict[str, Any]) -> None:
        """The community notifier: ``event`` (a dict with a ``kind``) for every open page
        of the account, on whichever process holds it."""
        if not isinstance(event, dict) or "kind" not in event:
            raise ValueError("an event is a dict with a 'kind'")
        cluster = self.service.cluster
        if cluster is None:
            self.deliver(account_id, event)
            return
        text = json.dumps({"account": account_id, "event": event}, separators=(",", ":"))
        try:
            await cluster.redis.publish(self.channel, text)
        except Exception as e:  # noqa: BLE001 - the page still learns at its next load
            log.warning("could not publish an event for account %s: %s", account_id, e)
            self.deliver(account_id, event)

    # ------------------------------------------------------------------ turns
    def on_change(self, live: LiveGame) -> None:
        """Service listener: signal every account seated in ``live`` whose turn began or
        ended, and tell the mailer of the turns that began."""
        accounts = {s.account_id for s in live.seats
                    if s.account_id is not None and not s.is_bot}
        if not accounts or (live.over and live.id not in self._turns):
            return
        waiting = None if live.over else live.waiting_for()
        whose = live.seats[waiting].account_id if waiting is not None else None
        before = self._turns.get(live.id, {})
        now: dict[int, bool] = {}
        from .accounts import game_title

        for account_id in accounts:
            turn = account_id == whose
            now[account_id] = turn
            if before.get(account_id, False) == turn and not live.over:
                continue
            self._send(account_id, {
                "kind": "turn", "game": live.id, "title": game_title(live.row.game),
                "url": f"/games/{live.id}", "your_turn": turn, "seq": live.seq,
                "over": live.over})
            if turn:
                mailer = getattr(self.community, "mail", None)
                if mailer is not None:
                    mailer.turn_came(live, account_id)
        if live.over:
            self._turns.pop(live.id, None)
        else:
            self._turns[live.id] = now
            if len(self._turns) > len(self.service.games) + 100:
                self.forget_gone()

    def _send(self, account_id: int, event: dict[str, Any]) -> None:
        """:meth:`notify` from a listener (in the event loop, not awaited): delivered here
        at once without a cluster, published through Redis with one."""
        if self.service.cluster is None:
            self.deliver(account_id, event)
            return
        task = asyncio.get_running_loop().create_task(self.notify(account_id, event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def forget_gone(self) -> None:
        """Drop the turn records of games this process no longer holds."""
        for game_id in [g for g in self._turns if g not in self.service.games]:
            del self._turns[game_id]

    # ------------------------------------------------------------------ the cluster
    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()  # where the streams live
        if self.service.cluster is not None:
            self._task = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        for streams in list(self.streams.values()):
            for stream in streams:
                stream.offer(None)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _listen(self) -> None:
        """Follow :data:`CHANNEL` (events for this process's streams), subscribing again
        after Redis is lost."""
        cluster = self.service.cluster
        assert cluster is not None
        while True:
            pubsub = cluster.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    data = message["data"]
                    self._relayed(data.decode() if isinstance(data, bytes) else str(data))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any Redis fault: subscribe again
                log.warning("the event relay lost Redis (%s); subscribing again", e)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(0.5)

    def _relayed(self, data: str) -> None:
        try:
            body = json.loads(data)
            account_id, event = int(body["account"]), body["event"]
        except (ValueError, KeyError, TypeError):
            log.warning("an event on %s could not be read", self.channel)
            return
        if isinstance(event, dict):
            self.deliver(account_id, event)


# ---------------------------------------------------------------------- the route
def router(community: Community, web: Path) -> APIRouter:
    """``GET /api/events``: the logged-in account's event stream (401 for a guest)."""
    r = APIRouter()
    events: Events = community.events

    @r.get("/api/events", response_class=StreamingResponse,
           responses={200: {"content": {"text/event-stream": {}},
                            "description": "Server-Sent Events, one JSON object each"}})
    async def event_stream(request: Request) -> StreamingResponse:
        """The account's events as Server-Sent Events (see
        :mod:`starlanes.server.community.events`); 401 without a session, 429 past the
        stream limits."""
        found = await asyncio.to_thread(_lookup, community, request)
        if found is None:
            raise Unauthorized("log in to get live notifications")
        account_id, session = found
        stream = events.open(account_id, session)
        try:
            from .accounts import account_games

            games = await account_games(community, account_id)
        except Exception:
            events.close(stream)
            raise
        hello = {"kind": "hello", "games": [
            {k: g[k] for k in ("id", "title", "url", "your_turn")}
            for g in games if g.get("your_turn")]}
        return StreamingResponse(
            _run(community, events, stream, request, hello),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return r


def _lookup(community: Community, request: Request) -> tuple[int, str] | None:
    acc = optional_account(request)
    if acc is None:
        return None
    return acc.id, acc.session


async def _run(community: Community, events: Events, stream: Stream, request: Request,
               hello: dict[str, Any]) -> AsyncIterator[str]:
    """The stream's text: the retry hint and ``hello``, then each event, a comment line
    every ``heartbeat_seconds``; it ends when the server stops, the session ends or the
    stream was idle too long."""
    settings = events.settings
    cookie = request.cookies.get(SESSION_COOKIE)
    try:
        yield f"retry: {RETRY_MS}\n" + sse(hello)
        while True:
            try:
                event = await asyncio.wait_for(stream.queue.get(), settings.heartbeat_seconds)
            except TimeoutError:
                if time.monotonic() - stream.last >= settings.stream_idle_seconds:
                    return
                found = await asyncio.to_thread(community.sessions.lookup, cookie)
                if found is None or found[0].session != stream.session:
                    return
                yield ": still here\n\n"
                continue
            if event is None:
                return
            stream.last = time.monotonic()
            yield sse(event)
    finally:
        events.close(stream)
