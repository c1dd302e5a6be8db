"""A web process's link to the others through Redis (``starlanes serve --redis URL``).

Several ``serve`` processes share one database (PostgreSQL): the database is the one truth,
and its ``(game, seq)`` key lets one action per move in, whichever process stored it. What
Redis adds:

- every process that stores something for a game publishes the game's id on
  :data:`.jobs.CHANGES` (with the action, when the change was one action); every process
  listens, catches the game up (applying the action carried when it is one move behind
  and the digest agrees, from the store otherwise) and pushes the fresh views to the
  viewers it holds (in order: a view is pushed only when the game moved past the last one
  pushed);
- bot decisions are queued as jobs for the bot service (``starlanes bots``), see
  :mod:`.jobs` and :mod:`.bot_service`;
- readiness: while the process is not subscribed (Redis lost), ``/readyz`` answers 503,
  new websockets are refused and the open ones are closed, so viewers reconnect to a
  process that can keep them up to date rather than watch a stale board.

Nothing acknowledged depends on Redis: an action is acknowledged once the database
committed it; a notice lost with Redis is made good by the viewers' reconnect (they get
the current view) and by the bot service's sweep (:mod:`.bot_service`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .jobs import CHANGES, DEDUPE_SECONDS, ENQUEUE, BotTask, NoticedAction, lane, notice

log = logging.getLogger("starlanes.server")

RECONNECT_SECONDS = 0.5
"""How long the listener waits before subscribing again after losing Redis."""


def redis_client(url: str) -> Any:
    """An asyncio Redis client for ``url`` (``redis://host:port/db``) with short timeouts,
    so a Redis that is gone is noticed in seconds."""
    import redis.asyncio as aioredis

    return aioredis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5,
                                   health_check_interval=5)


class Cluster:
    """The Redis side of one web process. ``ready`` is True while it is subscribed to the
    change channel."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.redis = redis_client(url)
        self.ready = False
        self._enqueue = self.redis.register_script(ENQUEUE)
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self, on_change: Callable[[str], Awaitable[None]],
                    on_lost: Callable[[], None], wait: float = 5.0) -> None:
        """Start listening: ``on_change(game_id)`` for every change published, ``on_lost()``
        each time Redis is lost. Waits up to ``wait`` seconds for the first subscription
        (a process started while Redis is away starts unready and keeps trying)."""
        self._task = asyncio.get_running_loop().create_task(self._listen(on_change, on_lost))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self, on_change: Callable[[str], Awaitable[None]],
                      on_lost: Callable[[], None]) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANGES)
                if not self.ready:
                    log.info("subscribed to %s at %s", CHANGES, self.url)
                self.ready = True
                self._subscribed.set()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    data = message["data"]
                    await on_change(data.decode() if isinstance(data, bytes) else str(data))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any Redis fault: unready, retry
                if self.ready:
                    log.warning("lost Redis (%s): not ready, closing viewers' sockets", e)
                self.ready = False
                on_lost()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def ping(self) -> None:
        """Raise unless Redis answers and this process is subscribed."""
        await asyncio.wait_for(self.redis.ping(), 3)
        if not self.ready:
            raise ConnectionError("not subscribed to the change channel")

    async def changed(self, game_id: str, seq: int | None = None, digest: str = "",
                      action: NoticedAction | None = None) -> None:
        """Tell every process that ``game_id`` changed and is now at move ``seq`` with
        state ``digest``, by ``action`` when the change was that one action
        (:func:`.jobs.notice`); with no ``seq``, only that it changed (a seat taken, an
        undo: every process reads the store). A lost notice is logged: the change is
        stored, viewers catch up when they reconnect."""
        text = game_id if seq is None else notice(game_id, seq, digest, action)
        try:
            await self.redis.publish(CHANGES, text)
        except Exception as e:  # noqa: BLE001
            log.warning("could not publish the change of game %s: %s", game_id, e)

    async def enqueue(self, task: BotTask, seconds: float) -> None:
        """Queue a bot decision (once per game, move and state) in the lane of a bot that
        thinks ``seconds`` per move."""
        import json
        from dataclasses import asdict

        try:
            await self._enqueue(keys=[task.mark, lane(seconds)],
                                args=[DEDUPE_SECONDS, json.dumps(asdict(task))])
        except Exception as e:  # noqa: BLE001 - the bot service's sweep queues it again
            log.warning("could not queue the bot of seat %s in game %s: %s", task.seat,
                        task.game_id, e)


class CatchUp:
    """ASGI middleware of a clustered web process: before a request or websocket about a
    game (``/api/games/{id}/...``, ``/ws/games/{id}``) the process catches that game up
    with the store, loading it if another process created it; before the lobby
    (``GET /api/games``, at most once per ``LOBBY_SECONDS``) it loads the games other
    processes created. ``service`` is the :class:`.service.GameService`."""

    LOBBY_SECONDS = 1.0

    def __init__(self, app: Any, service: Any) -> None:
        self.app = app
        self.service = service
        self._lobby_at = float("-inf")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            try:
                await self._refresh(scope)
            except Exception as e:  # noqa: BLE001 - the route answers from what it has
                log.warning("could not catch up before %s: %s", scope.get("path"), e)
        await self.app(scope, receive, send)

    async def _refresh(self, scope: Any) -> None:
        parts = scope.get("path", "").strip("/").split("/")
        if parts[:2] in (["api", "games"], ["ws", "games"]) and len(parts) >= 3:
            if parts[3:] == ["actions"] and scope.get("method") == "POST":
                return  # the action names its move: caught up only when it is ahead
            await self.service.refresh(parts[2])
        elif parts == ["api", "games"] and scope.get("method") == "GET":
            now = asyncio.get_running_loop().time()
            if now - self._lobby_at >= self.LOBBY_SECONDS:
                self._lobby_at = now
                await self.service.refresh_lobby()
