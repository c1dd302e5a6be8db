"""A web process's link to the others through Redis (``starlanes serve --redis URL``).

Several ``serve`` processes share one database (PostgreSQL): the database is the one truth,
and its ``(game, seq)`` key lets one action per move in, whichever process stored it. What
Redis adds (names in :mod:`.jobs`, all under the deployment's prefix):

- **membership and owners**: every process writes its address in ``{prefix}:members``
  each second (:data:`HEARTBEAT_SECONDS`); the processes seen within
  :data:`MEMBER_SECONDS` are the live ones, and each game has one owner among them, by
  rendezvous hashing (:func:`.jobs.owner_of`). The owner holds the game: its state, its
  turn clock, its life-cycle rule. A request or a websocket about a game that reaches
  another process is forwarded to the owner (:class:`Forward`): HTTP requests as they
  are, websockets relayed frame by frame. When a process leaves (SIGTERM) or stops
  answering for :data:`MEMBER_SECONDS`, its games go to the processes that score next,
  which read them from the store on their next use (a game with a running turn clock at
  once, :meth:`.following.Following.take_over`). Correctness never depends on who owns
  what: two processes that both believe they own a game for a moment still store one
  action per move (the database's key).
- **notices**: a process that stores something for a game publishes it on the game's own
  channel; only the processes that hold the game subscribe, catch it up (applying the
  action carried when it is one move behind and the digest agrees, from the store
  otherwise) and push fresh views to their viewers;
- bot decisions are queued as jobs for the bot service (``starlanes bots``), see
  :mod:`.jobs` and :mod:`.bot_service`;
- readiness: while Redis is lost, ``/readyz`` answers 503 and new websockets are closed
  with 4503 (retryable); the sockets already open stay open and the process reads the
  store for the games they watch, at most once a second (:meth:`.following.Following.
  poll_store`), until Redis is back.

Nothing acknowledged depends on Redis: an action is acknowledged once the database
committed it; a notice lost with Redis is made good by the store poll and by the bot
service's sweep (:mod:`.bot_service`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .jobs import DEDUPE_SECONDS, ENQUEUE, BotTask, Keys, NoticedAction, notice, owner_of

log = logging.getLogger("starlanes.server")

RECONNECT_SECONDS = 0.5
"""How long the listener waits before subscribing again after losing Redis."""
HEARTBEAT_SECONDS = 1.0
"""How often a process writes itself into the members."""
MEMBER_SECONDS = 3.0
"""A process not heard of for this long is gone: its games go to the others."""
UNREACHABLE_SECONDS = 5.0
"""A member that refused a forwarded request is passed over this long."""
HOP_CLIENT = "x-starlanes-hop-client"
HOP_SIGNATURE = "x-starlanes-hop"
"""The headers of a forwarded request: the client's address and its signature."""

BEAT = """
local now = redis.call('TIME')
local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if ARGV[1] ~= '' then redis.call('ZADD', KEYS[1], ms, ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms - 60000)
redis.call('SET', KEYS[2], ARGV[3], 'NX')
return {redis.call('GET', KEYS[2]),
        redis.call('ZRANGEBYSCORE', KEYS[1], ms - tonumber(ARGV[2]), '+inf')}
"""
"""Write this member's heartbeat (Redis's clock: machines' clocks may differ), make sure
the shared secret is there (this process's own when Redis lost it: the processes agree
again at their next heartbeat) and return it with the members heard of within ARGV[2] ms
(KEYS: members, secret; ARGV: member, ms, this process's secret)."""


def redis_client(url: str) -> Any:
    """An asyncio Redis client for ``url`` (``redis://host:port/db``) with short timeouts,
    so a Redis that is gone is noticed in seconds."""
    import redis.asyncio as aioredis

    return aioredis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5,
                                   health_check_interval=5)


def advertised_url(bind_url: str) -> str:
    """The address other processes reach this one at: ``STARLANES_ADVERTISE_URL`` when
    set, else ``bind_url`` with a wildcard host (``0.0.0.0``, ``::``) replaced by this
    machine's address."""
    given = os.environ.get("STARLANES_ADVERTISE_URL", "").strip()
    if given:
        return given.rstrip("/")
    parts = urlsplit(bind_url)
    host = parts.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::", ""):
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme or "http", f"{host}{port}", "", "", "")).rstrip("/")


class Cluster:
    """The Redis side of one web process: its membership, its notice subscriptions and its
    bot jobs. ``me`` is the address other processes forward requests to; ``prefix`` the
    deployment's (:func:`.jobs.deployment_prefix`)."""

    def __init__(self, url: str, prefix: str, me: str) -> None:
        self.url = url
        self.keys = Keys(prefix)
        self.me = me
        self.redis = redis_client(url)
        self.members: tuple[str, ...] = (me,)
        """The live processes as last read (this one always among them)."""
        self._unreachable: dict[str, float] = {}
        self._beat_at = float("-inf")
        self._listening = False
        self._watched: set[str] = set()
        """The games whose notices this process wants (the ones it holds)."""
        self._enqueue = self.redis.register_script(ENQUEUE)
        self._beat = self.redis.register_script(BEAT)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._secret = secrets.token_hex(32).encode()
        self._secrets: tuple[bytes, ...] = (self._secret,)
        """The shared secret, and the one before it (while processes change over)."""
        self.received = 0
        self.received_elsewhere = 0
        """Notices received, and of those the ones for a game not held here (logged at
        stop: a benchmark reads them)."""
        self.leaving = False

    # ------------------------------------------------------------------ life cycle
    async def start(self, on_notice: Callable[[str], Awaitable[None]],
                    on_watch: Callable[[list[str]], None],
                    on_members: Callable[[], None], on_lost: Callable[[], None],
                    wait: float = 5.0) -> None:
        """Start the heartbeat and the listener: ``on_notice(text)`` for each notice of a
        watched game, ``on_watch(game_ids)`` once the channels of those games are
        subscribed (notices published before were not received: catch them up),
        ``on_members()`` when the live processes change, ``on_lost()`` each time Redis is
        lost. Waits up to ``wait`` seconds for the first subscription (a process started
        while Redis is away starts unready and keeps trying)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.beat(), wait)
        self._tasks = [loop.create_task(self._listen(on_notice, on_watch, on_members,
                                                     on_lost)),
                       loop.create_task(self._heartbeats(on_members))]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), wait)

    async def stop(self) -> None:
        """Leave the members at once (the others take this process's games now, not
        :data:`MEMBER_SECONDS` later) and stop listening."""
        self.leaving = True
        log.info("notices received: %s (%s for games this process did not hold)",
                 self.received, self.received_elsewhere)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.zrem(self.keys.members, self.me), 2)
            await asyncio.wait_for(self.redis.publish(self.keys.members, "left"), 2)
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.redis.aclose(), 2)

    @property
    def ready(self) -> bool:
        """Subscribed, and Redis answered a heartbeat within two heartbeats."""
        return (self._listening and not self.leaving
                and time.monotonic() - self._beat_at < 2.5 * HEARTBEAT_SECONDS)

    async def ping(self) -> None:
        """Raise unless Redis answers and this process is subscribed."""
        await asyncio.wait_for(self.redis.ping(), 3)
        if not self.ready:
            raise ConnectionError("not subscribed to the notices, or no heartbeat written")

    # ------------------------------------------------------------------ owners
    async def _heartbeats(self, on_members: Callable[[], None]) -> None:
        while not self.leaving:
            await self.beat(on_members)
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def beat(self, on_members: Callable[[], None] | None = None) -> None:
        """Write this process's heartbeat and read the live members (kept as they were
        when Redis cannot be reached: the owners stay where they were)."""
        try:
            secret, got = await self._beat(
                keys=[self.keys.members, self.keys.hop_secret],
                args=["" if self.leaving else self.me, int(MEMBER_SECONDS * 1000),
                      self._secret])
        except Exception as e:  # noqa: BLE001 - any Redis fault: keep the last members
            log.debug("heartbeat not written: %s", e)
            return
        self._beat_at = time.monotonic()
        secret = secret if isinstance(secret, bytes) else str(secret).encode()
        if secret != self._secret:
            self._secrets = (secret, self._secret)
            self._secret = secret
        members = tuple(sorted({m.decode() if isinstance(m, bytes) else str(m) for m in got}
                               | ({self.me} if not self.leaving else set())))
        if members != self.members:
            log.info("server processes now: %s", ", ".join(members))
            self.members = members
            if on_members is not None:
                on_members()

    def owner(self, game_id: str) -> str:
        """The address of the process that owns ``game_id`` (this one's ``me`` when it is
        the owner, or when no other member is known to answer)."""
        now = time.monotonic()
        if self._unreachable:
            self._unreachable = {m: t for m, t in self._unreachable.items() if t > now}
        members = [m for m in self.members if m not in self._unreachable]
        return owner_of(game_id, members) or self.me

    def owns(self, game_id: str) -> bool:
        return self.owner(game_id) == self.me

    def unreachable(self, member: str) -> None:
        """``member`` refused a forwarded request: pass it over for a few seconds (it has
        died, or is stopping; its heartbeat will tell)."""
        if member != self.me:
            log.warning("server process %s does not answer; serving its games here", member)
            self._unreachable[member] = time.monotonic() + UNREACHABLE_SECONDS

    # ------------------------------------------------------------------ hops
    def sign(self, client: str, secret: bytes | None = None) -> str:
        """The signature a forwarded request carries for the client address ``client``."""
        return hmac.new(secret or self._secret, client.encode(), hashlib.sha256).hexdigest()

    def signed(self, client: str, signature: str) -> bool:
        """Whether ``signature`` is this deployment's for ``client`` (a forwarded
        request from another process, not a client's forgery)."""
        return any(hmac.compare_digest(self.sign(client, s), signature)
                   for s in self._secrets)

    # ------------------------------------------------------------------ notices
    def watch(self, game_id: str) -> None:
        """Receive the notices of ``game_id`` (subscribed within a tenth of a second)."""
        self._watched.add(game_id)

    def unwatch(self, game_id: str) -> None:
        self._watched.discard(game_id)

    @property
    def watched(self) -> frozenset[str]:
        return frozenset(self._watched)

    async def _listen(self, on_notice: Callable[[str], Awaitable[None]],
                      on_watch: Callable[[list[str]], None],
                      on_members: Callable[[], None], on_lost: Callable[[], None]) -> None:
        members_channel = self.keys.members
        while not self.leaving:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            subscribed: set[str] = set()
            try:
                await pubsub.subscribe(members_channel)
                if not self._listening:
                    log.info("listening for notices at %s (prefix %s)", self.url,
                             self.keys.prefix)
                self._listening = True
                self._subscribed.set()
                while True:
                    wanted = self._watched
                    new = [g for g in wanted if g not in subscribed]
                    gone = [g for g in subscribed if g not in wanted]
                    if new:
                        await pubsub.subscribe(*(self.keys.game(g) for g in new))
                        subscribed.update(new)
                        on_watch(new)
                    if gone:
                        await pubsub.unsubscribe(*(self.keys.game(g) for g in gone))
                        subscribed.difference_update(gone)
                    message = await pubsub.get_message(timeout=0.1)
                    if message is None or message.get("type") != "message":
                        continue
                    channel = message["channel"]
                    channel = channel.decode() if isinstance(channel, bytes) else str(channel)
                    if channel == members_channel:
                        await self.beat(on_members)
                        continue
                    self.received += 1
                    data = message["data"]
                    await on_notice(data.decode() if isinstance(data, bytes) else str(data))
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any Redis fault: unready, retry
                if self._listening:
                    log.warning("lost Redis (%s): not ready; open sockets stay, their games "
                                "are read from the database", e)
                self._listening = False
                on_lost()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def changed(self, game_id: str, seq: int | None = None, digest: str = "",
                      action: NoticedAction | None = None) -> None:
        """Tell the processes holding ``game_id`` that it changed and is now at move
        ``seq`` with state ``digest``, by ``action`` when the change was that one action
        (:func:`.jobs.notice`); with no ``seq``, only that it changed (a seat taken, an
        undo: they read the store). A lost notice is logged: the change is stored,
        viewers catch up from the store."""
        text = game_id if seq is None else notice(game_id, seq, digest, action)
        try:
            await self.redis.publish(self.keys.game(game_id), text)
        except Exception as e:  # noqa: BLE001
            log.warning("could not publish the change of game %s: %s", game_id, e)

    async def enqueue(self, task: BotTask, seconds: float) -> None:
        """Queue a bot decision (once per game, move and state) in the lane of a bot that
        thinks ``seconds`` per move."""
        try:
            await self._enqueue(keys=[self.keys.mark(task), self.keys.lane(seconds)],
                                args=[DEDUPE_SECONDS, json.dumps(asdict(task))])
        except Exception as e:  # noqa: BLE001 - the bot service's sweep queues it again
            log.warning("could not queue the bot of seat %s in game %s: %s", task.seat,
                        task.game_id, e)


# ---------------------------------------------------------------------- forwarding
def game_of_path(path: str) -> str | None:
    """The game id of ``/api/games/{id}/...`` or ``/ws/games/{id}``, else None."""
    parts = path.strip("/").split("/")
    if len(parts) >= 3 and parts[:2] in (["api", "games"], ["ws", "games"]) \
            and 0 < len(parts[2]) <= 32:
        return parts[2]
    return None


_HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"host",
               b"content-length", b"te", b"trailer", b"proxy-connection"}


class HopIn:
    """ASGI middleware, outside the rate limits: a request another process of the
    deployment forwarded (signed client address, :meth:`Cluster.sign`) is taken as coming
    from that client, and marked so the limits (counted where it arrived) and the
    forwarding skip it. A forged or stale signature is ignored (the request counts as the
    forwarding process's own)."""

    def __init__(self, app: Any, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            client = headers.get(HOP_CLIENT.encode())
            signature = headers.get(HOP_SIGNATURE.encode())
            if client is not None and signature is not None:
                text = client.decode("latin-1")
                if self.cluster.signed(text, signature.decode("latin-1")):
                    scope = dict(scope)
                    scope["client"] = (text, 0)
                    scope["headers"] = [(k, v) for k, v in scope["headers"]
                                        if k not in (HOP_CLIENT.encode(),
                                                     HOP_SIGNATURE.encode(),
                                                     b"x-forwarded-for")]
                    scope["starlanes.hop"] = True
        await self.app(scope, receive, send)


class Forward:
    """ASGI middleware of a clustered web process, inside the rate limits: a request or
    websocket about a game (``/api/games/{id}/...``, ``/ws/games/{id}``) this process does
    not own goes to the owner (:meth:`Cluster.owner`): HTTP as it came, a websocket relayed
    frame by frame. An owner that does not answer is passed over and the game served here.
    A request this process serves catches the game up with the store first (loading it when
    it is not held); before the lobby (``GET /api/games``, at most once per
    ``LOBBY_SECONDS``) the lobby's page of games is read again. ``service`` is the
    :class:`.service.GameService`, ``networks`` the trusted proxies."""

    LOBBY_SECONDS = 1.0

    def __init__(self, app: Any, service: Any, networks: Any = ()) -> None:
        self.app = app
        self.service = service
        self.cluster: Cluster = service.cluster
        self.networks = tuple(networks)
        self._lobby_at = float("-inf")
        self._http: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        game_id = game_of_path(scope.get("path", ""))
        if game_id is not None and not scope.get("starlanes.hop"):
            owner = self.cluster.owner(game_id)
            if owner != self.cluster.me:
                if scope["type"] == "http":
                    if await self._forward_http(scope, receive, send, owner):
                        return
                elif await self._relay(scope, receive, send, owner):
                    return
                receive = self._replayed(scope, receive)
        try:
            await self._refresh(scope, game_id)
        except Exception as e:  # noqa: BLE001 - the route answers from what it has
            log.warning("could not catch up before %s: %s", scope.get("path"), e)
        await self.app(scope, receive, send)

    async def _refresh(self, scope: Any, game_id: str | None) -> None:
        if game_id is not None:
            parts = scope.get("path", "").strip("/").split("/")
            if parts[3:] == ["actions"] and scope.get("method") == "POST" \
                    and game_id in self.service.games:
                self.service.touch(game_id)
                return  # the action names its move: caught up only when it is ahead
            await self.service.refresh(game_id)
        elif scope.get("path") == "/api/games" and scope.get("method") == "GET":
            now = asyncio.get_running_loop().time()
            if now - self._lobby_at >= self.LOBBY_SECONDS:
                self._lobby_at = now
                await self.service.refresh_lobby()

    def _client(self, scope: Any) -> str:
        from .limits import client_address

        if self.networks:
            return client_address(scope, self.networks)
        peer = scope.get("client")
        return str(peer[0]) if peer else "unknown"

    def _hop_headers(self, scope: Any) -> list[tuple[str, str]]:
        client = self._client(scope)
        return [(HOP_CLIENT, client), (HOP_SIGNATURE, self.cluster.sign(client))]

    # -------------------------------------------------------------- HTTP
    async def _forward_http(self, scope: Any, receive: Any, send: Any, owner: str) -> bool:
        """Send the request to ``owner`` and its answer back; False (nothing sent, the
        body kept for the route: :meth:`_replayed`) when the owner cannot be reached."""
        import httpx

        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return True
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        scope["starlanes.body"] = body
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=2.0),
                                           limits=httpx.Limits(max_connections=200))
        headers = [(k.decode("latin-1"), v.decode("latin-1"))
                   for k, v in scope.get("headers", []) if k not in _HOP_BY_HOP
                   and k not in (b"x-forwarded-for", HOP_CLIENT.encode(),
                                 HOP_SIGNATURE.encode())]
        headers += self._hop_headers(scope)
        url = owner + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if scope.get("query_string"):
            url += "?" + scope["query_string"].decode("latin-1")
        try:
            request = self._http.build_request(scope["method"], url, headers=headers,
                                               content=body)
            response = await self._http.send(request, stream=True)
        except httpx.TransportError as e:  # (an action it may have stored meets the
            log.debug("forward to %s failed: %s", owner, e)  # (game, seq) key here: 409)
            self.cluster.unreachable(owner)
            return False
        try:
            await send({"type": "http.response.start", "status": response.status_code,
                        "headers": [(k, v) for k, v in response.headers.raw
                                    if k.lower() not in _HOP_BY_HOP
                                    and not _ours(k.lower())]})
            async for chunk in response.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except httpx.HTTPError as e:  # the owner died while answering
            log.warning("the answer from %s broke off: %s", owner, e)
            self.cluster.unreachable(owner)
        finally:
            await response.aclose()
        return True

    @staticmethod
    def _replayed(scope: Any, receive: Any) -> Any:
        """``receive`` giving first what :meth:`_forward_http` or :meth:`_relay` read
        before the owner turned out to be unreachable."""
        kept = scope.pop("starlanes.body", None)
        first = scope.pop("starlanes.first", None)
        if kept is None and first is None:
            return receive
        pending = [first] if first is not None else [
            {"type": "http.request", "body": kept, "more_body": False}]

        async def again() -> Any:
            if pending:
                return pending.pop()
            return await receive()

        return again

    # -------------------------------------------------------------- websockets
    async def _relay(self, scope: Any, receive: Any, send: Any, owner: str) -> bool:
        """Relay a websocket to ``owner``'s; False when the owner cannot be reached
        (nothing sent: served here)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        from .hygiene import origin_allowed

        first = await receive()  # websocket.connect
        scope["starlanes.first"] = first
        if first.get("type") != "websocket.connect":
            return True
        headers = {k.decode("latin-1"): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        config = self.service.config
        if not origin_allowed(headers.get("origin"), config, headers.get("host"),
                              scope.get("scheme", "ws")):
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4403,
                        "reason": "this page's origin may not open the game"})
            return True
        if not self.cluster.ready:
            await _refuse_unready(send)
            return True
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        query = scope.get("query_string", b"").decode("latin-1")
        url = "ws" + owner[len("http"):] + path + (f"?{query}" if query else "")
        try:
            upstream = await connect(url, additional_headers=self._hop_headers(scope),
                                     open_timeout=3, max_size=2**22, compression=None)
        except InvalidStatus as e:
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4000 + e.response.status_code,
                        "reason": "the game's server refused the connection"})
            return True
        except (OSError, TimeoutError) as e:
            log.debug("relay to %s failed: %s", owner, e)
            self.cluster.unreachable(owner)
            return False
        await send({"type": "websocket.accept"})
        code, reason = 1012, "the game's server is restarting: connect again"

        async def down() -> None:
            nonlocal code, reason
            try:
                async for text in upstream:
                    await send({"type": "websocket.send", "text": str(text)})
            except ConnectionClosed:
                pass
            if upstream.close_code is not None and upstream.close_code not in (1006,):
                code, reason = upstream.close_code, upstream.close_reason or ""

        async def up() -> None:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message.get("text") is not None:
                    await upstream.send(message["text"])

        tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            client_left = tasks[1] in done
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            with contextlib.suppress(Exception):
                await upstream.close()
        if not client_left:
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": code, "reason": reason[:120]})
        return True


def _ours(name: bytes) -> bool:
    """Headers this process's own middleware adds to every answer (not copied twice)."""
    from .hygiene import HEADERS

    return name in (b"content-security-policy", *(k for k, _ in HEADERS))


async def _refuse_unready(send: Any) -> None:
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": 4503,
                "reason": "this server has lost its link to the others; connect again"})
