"""Limits per client in front of the server: body sizes, request rates, quotas, sockets.

:class:`ClientLimits` is a plain ASGI middleware (it never buffers a body) installed around
the whole app. What it answers, always as JSON ``{"error": reason}`` in plain words naming
the limit and the wait:

- **413** for a request body over ``limits.max_body_bytes``: at once when its
  ``Content-Length`` says so (nothing is read), otherwise as soon as the bytes received pass
  the limit (the app's handler never gets the body);
- **429** with ``Retry-After`` (whole seconds, from the rate window's reset time) for a client
  over ``requests_per_minute`` (every request and websocket connect), ``creates_per_hour``
  (``POST /api/games`` and ``POST /api/games/{id}/rematch``; and all clients of one
  network together ``network_creates_per_hour``), ``joins_per_minute``
  (``POST /api/games/{id}/join``) or ``replays_per_minute`` (``GET /api/games/{id}/replay``,
  ``POST /api/replay``). Attempts count, whether or not the app then accepts them;
- **429** for any request presenting a seat token (``Authorization: Bearer`` or a ``token``
  query parameter) from a client whose answers counted ``auth_failures_per_minute`` 401s
  (websocket refusals with close code 4401 included) in the current window: the token is
  not even checked, so guessing stops;
- for a websocket over ``websockets_per_client`` open at once, or when the server holds
  ``websockets_total``: an HTTP 429 denial response (JSON reason, ``Retry-After``) where the
  server offers the ``websocket.http.response`` extension, else a close before accepting
  with code 4429 and the reason. The same for a websocket refused by a rate above.

``/healthz``, ``/readyz`` and ``/static/...`` are exempt from rates (not from body sizes).

A client is its address (:func:`client_address`); IPv6 clients are counted per /64
network, the block one subscriber usually holds (:func:`rate_key`); creates are counted per
client network too, an IPv4 /24 or an IPv6 /48 (:func:`network_key`). Counts of open
sockets live in the process (one event loop, no locks needed); rates live in a ``limits``
storage, by default ``limits``' asyncio memory storage (it expires counts in a task of the
event loop, where the threaded memory storage starts a timer thread per change). Several
server processes (``starlanes serve --redis``) share one: :func:`redis_rates`, counts in
Redis under a prefix of the deployment's own.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import math
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.aio.storage import Storage as AsyncStorage
from limits.aio.strategies import STRATEGIES as ASYNC_STRATEGIES
from limits.storage import Storage
from limits.strategies import STRATEGIES

from .config import ServerConfig
from .rate_storage import AsyncSweptMemoryStorage as AsyncMemoryStorage

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

EXEMPT = frozenset({"/healthz", "/readyz"})
"""Paths no rate applies to (besides everything under ``/static/``)."""
SOCKET_WAIT = 10
"""The ``Retry-After`` (seconds) of a websocket refused for the open-socket quotas."""
UNAUTHORIZED_CLOSE = 4401
"""The close code the app refuses a websocket's seat token with (4000 + 401)."""


# ---------------------------------------------------------------------- client address
def client_address(scope: Scope, networks: Sequence[Network]) -> str:
    """The address of the client behind a request or websocket (its ASGI ``scope``).

    The connection's peer, unless the peer is in ``networks`` (the trusted proxies): then
    the right-most ``X-Forwarded-For`` entry that is not itself a trusted proxy (every proxy
    appends the address it saw, so entries left of it may be forged by the client), or the
    left-most entry when all are trusted. Addresses come back normalised (``str`` of
    :mod:`ipaddress`, IPv4-mapped IPv6 as IPv4); a peer that is no IP address (a test
    client, a Unix socket) comes back as given, a missing one as ``"unknown"``.
    """
    peer = scope.get("client")
    host = str(peer[0]) if peer else "unknown"
    if not networks:
        return host
    nets = tuple(networks)
    address, trusted = _classify(host[:_LONGEST], nets)
    if not trusted:
        return host
    entries = [entry for name, value in scope.get("headers", ())
               if name.lower() == b"x-forwarded-for"
               for entry in value.decode("latin-1").split(",")]
    first: str | None = None
    for entry in reversed(entries):
        entry = entry.strip()
        if not entry:
            continue
        # no address is longer; a longer entry is kept out of the cache (its memory bounded)
        forwarded, trusted = _classify(entry, nets) if len(entry) <= _LONGEST else (None, False)
        if not trusted:
            # None: no address, written by a trusted proxy all the same (RFC 7239 names)
            return forwarded if forwarded is not None else entry[:100]
        first = forwarded
    return first if first is not None else address or host


_LONGEST = 64
"""Characters of the longest address text parsed (IPv6 with brackets, port and zone)."""


@functools.lru_cache(maxsize=8192)
def _classify(text: str, networks: tuple[Network, ...]) -> tuple[str | None, bool]:
    """The normalised IP address in ``text`` (bare, ``v4:port`` or ``[v6]:port``; None
    when it holds none) and whether it lies in ``networks``. Cached: a server sees the same
    proxies and clients again and again, and parsing costs microseconds."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None, False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address), any(address in network for network in networks)


@functools.lru_cache(maxsize=8192)
def rate_key(address: str) -> str:
    """The key a client's rates (and bot time) are counted under: the address, or its /64 network for IPv6."""
    if ":" not in address:
        return address
    try:
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    except ValueError:
        return address


@functools.lru_cache(maxsize=8192)
def network_key(address: str) -> str:
    """The client network an address belongs to, for fair play and quotas: its /24 for
    IPv4, its /48 for IPv6 (the block one site usually holds: 256 /64 networks); anything
    that is no IP address comes back as given. Two accounts whose seats were taken from one
    network are treated as one person's for rated play (``docs/community/fair-play.md``)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


# ---------------------------------------------------------------------- rates
@dataclass(frozen=True, slots=True)
class Rule:
    """One rate: the ``limits`` item, its ``name`` (part of the storage key) and ``what``
    a refusal says before the numbers (``too many games created from your address``)."""

    name: str
    item: RateLimitItem
    what: str
    unit: str

    def reason(self, wait: int) -> str:
        """The refusal's words: the limit and the wait (seconds)."""
        return f"{self.what}: at most {self.item.amount} per {self.unit}; try again in {wait} s"


class Rates:
    """A ``limits`` strategy over a sync or async storage, always awaited."""

    def __init__(self, storage: Storage | AsyncStorage, strategy: str) -> None:
        self.is_async = isinstance(storage, AsyncStorage)
        table: dict[str, Any] = ASYNC_STRATEGIES if self.is_async else STRATEGIES
        if strategy not in table:
            raise ValueError(f"unknown rate strategy {strategy!r}: one of {', '.join(table)}")
        self.limiter: Any = table[strategy](storage)

    async def hit(self, rule: Rule, key: str) -> bool:
        """Count one for ``key``; False when that goes over the rule."""
        if self.is_async:
            return bool(await self.limiter.hit(rule.item, rule.name, key))
        return bool(self.limiter.hit(rule.item, rule.name, key))

    async def test(self, rule: Rule, key: str) -> bool:
        """Whether ``key`` has room left under the rule (counts nothing)."""
        if self.is_async:
            return bool(await self.limiter.test(rule.item, rule.name, key))
        return bool(self.limiter.test(rule.item, rule.name, key))

    async def wait(self, rule: Rule, key: str) -> int:
        """Whole seconds (at least 1) until the rule's window for ``key`` resets."""
        stats = self.limiter.get_window_stats(rule.item, rule.name, key)
        if self.is_async:
            stats = await stats
        return max(1, math.ceil(stats.reset_time - time.time()))


def redis_prefix(url: str, prefix: str = "") -> str:
    """The key prefix of a deployment's rate counts in the Redis at ``url``: ``prefix``
    when given (``limits.redis_prefix``), else ``starlanes-limits-db`` and the Redis
    database number of ``url`` (``redis://host:6379/2``: ``starlanes-limits-db2``)."""
    if prefix:
        return prefix
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    db = parts.path.strip("/") or (parse_qs(parts.query).get("db") or ["0"])[0]
    return f"starlanes-limits-db{db if db.isdigit() else 0}"


def redis_rates(url: str, prefix: str = "") -> AsyncStorage:
    """The rate-limit storage of a clustered process (``starlanes serve --redis URL``):
    ``limits``' Redis storage at ``url`` with keys under :func:`redis_prefix`, so a
    client's requests count the same whichever process answers them, and two deployments
    sharing a Redis never count together. While Redis cannot be reached the counts are
    kept in this process's memory (rates stay limited per process rather than every
    request failing)."""
    from limits.aio.storage import RedisStorage as LimitsRedis

    class SharedRates(AsyncStorage):
        """Counts in Redis; in memory while Redis is away."""

        STORAGE_SCHEME = None

        def __init__(self) -> None:
            self.key_prefix = redis_prefix(url, prefix)
            self.shared = LimitsRedis("async+" + url, implementation="redispy",
                                      key_prefix=self.key_prefix, socket_timeout=1,
                                      socket_connect_timeout=1)
            self.local = AsyncMemoryStorage()

        @property
        def base_exceptions(self) -> Any:
            return (Exception,)

        async def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
            try:
                return await getattr(self.shared, name)(*args, **kwargs)
            except Exception:  # noqa: BLE001 - Redis away: this process's own counts
                return await getattr(self.local, name)(*args, **kwargs)

        async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
            return int(await self._either("incr", key, expiry, amount=amount))

        async def get(self, key: str) -> int:
            return int(await self._either("get", key))

        async def get_expiry(self, key: str) -> float:
            return float(await self._either("get_expiry", key))

        async def check(self) -> bool:
            return bool(await self._either("check"))

        async def reset(self) -> int | None:
            return await self._either("reset")  # type: ignore[no-any-return]

        async def clear(self, key: str) -> None:
            await self._either("clear", key)

    return SharedRates()


# ---------------------------------------------------------------------- middleware
class _TooLarge(Exception):
    """Raised into the app when a body passes the size limit while it is received."""


class ClientLimits:
    """ASGI middleware enforcing ``config.limits`` per client (see the module's text).

    ``storage``: where rates are counted (default: a fresh in-memory storage);
    ``strategy``: a ``limits`` strategy name, ``fixed-window`` (default: one counter per
    client and rate), ``moving-window`` or ``sliding-window-counter``. Raises ValueError for
    an unknown strategy.
    """

    def __init__(self, app: ASGIApp, config: ServerConfig,
                 storage: Storage | AsyncStorage | None = None,
                 strategy: str = "fixed-window") -> None:
        self.app = app
        limits = config.limits
        self.max_body = limits.max_body_bytes
        self.networks = tuple(config.proxy_networks())
        self.rates = Rates(storage if storage is not None else AsyncMemoryStorage(), strategy)
        self.requests = Rule("requests", RateLimitItemPerMinute(limits.requests_per_minute),
                             "too many requests from your address", "minute")
        self.creates = Rule("creates", RateLimitItemPerHour(limits.creates_per_hour),
                            "too many games created from your address", "hour")
        self.network_creates = Rule(
            "network-creates", RateLimitItemPerHour(limits.network_creates_per_hour),
            "too many games created from your network", "hour")
        self.joins = Rule("joins", RateLimitItemPerMinute(limits.joins_per_minute),
                          "too many seats taken from your address", "minute")
        self.replays = Rule("replays", RateLimitItemPerMinute(limits.replays_per_minute),
                            "too many replay requests from your address", "minute")
        self.auth = Rule("auth", RateLimitItemPerMinute(limits.auth_failures_per_minute),
                         "too many wrong or missing seat tokens from your address", "minute")
        self.sockets_per_client = limits.websockets_per_client
        self.sockets_total = limits.websockets_total
        self.sockets: dict[str, int] = {}  # open websockets per client key
        self.open_sockets = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if scope.get("starlanes.hop"):  # forwarded by another process: counted there
            await self.app(scope, receive, send)
        elif kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -------------------------------------------------------------- shared
    def _address(self, scope: Scope) -> str:
        if self.networks:
            return client_address(scope, self.networks)
        peer = scope.get("client")
        return str(peer[0]) if peer else "unknown"

    def _client(self, scope: Scope) -> str:
        return rate_key(self._address(scope))

    async def _refusal(self, method: str, path: str, key: str, token: bool,
                       network: str = "") -> tuple[str, int] | None:
        """The reason and wait (seconds) a request is refused with for a rate, or None
        (having counted it). ``network``: the client's network (creates count there too)."""
        if path in EXEMPT or path.startswith("/static/"):
            return None
        if not await self.rates.hit(self.requests, key):
            return await self._over(self.requests, key)
        if token and not await self.rates.test(self.auth, key):
            return await self._over(self.auth, key)
        rule = self._route_rule(method, path)
        if rule is not None and not await self.rates.hit(rule, key):
            return await self._over(rule, key)
        if rule is self.creates and not await self.rates.hit(self.network_creates,
                                                              network or key):
            return await self._over(self.network_creates, network or key)
        return None

    async def _over(self, rule: Rule, key: str) -> tuple[str, int]:
        wait = await self.rates.wait(rule, key)
        return rule.reason(wait), wait

    def _route_rule(self, method: str, path: str) -> Rule | None:
        if not path.startswith("/api/"):
            return None
        if method == "POST":
            if path == "/api/games":
                return self.creates
            if path == "/api/replay":
                return self.replays
            action = _game_action(path)
            if action == "join":
                return self.joins
            if action == "rematch":
                return self.creates
        elif method in ("GET", "HEAD") and _game_action(path) == "replay":
            return self.replays
        return None

    # -------------------------------------------------------------- http
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = self._address(scope)
        key = rate_key(address)
        length: bytes | None = None
        token = chunked = False
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                length = value
            elif name == b"authorization":
                token = value[:7].lower() == b"bearer "
            elif name == b"transfer-encoding":
                chunked = True
        declared = _int(length) if length is not None else None
        # a refused request's body is never read: the connection closes after the answer,
        # so the server does not take in what the client goes on sending
        unread = chunked or (length is not None and declared != 0)
        refusal = await self._refusal(scope["method"], _route_path(scope), key,
                                      token or _query_token(scope), network_key(address))
        if refusal is not None:
            await _answer(send, 429, *refusal, close=unread)
            return
        limit = self.max_body
        if declared is not None and declared > limit:
            await _answer(send, 413, _too_large(limit), close=True)
            return
        started = answered = False
        received = 0

        async def counted_send(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the 413 is out: whatever the app says after it is dropped
            if message["type"] == "http.response.start":
                started = True
                if message["status"] == 401:
                    await self.rates.hit(self.auth, key)
            await send(message)

        async def counted_receive() -> Message:
            nonlocal received, answered
            if answered:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    if not started:
                        await _answer(send, 413, _too_large(limit), close=True)
                    answered = True
                    raise _TooLarge(_too_large(limit))
            return message

        try:
            await self.app(scope, counted_receive, counted_send)
        except Exception:
            if not answered:
                raise

    # -------------------------------------------------------------- websockets
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._client(scope)
        token = _query_token(scope) or any(
            name == b"authorization" and value[:7].lower() == b"bearer "
            for name, value in scope.get("headers", ()))
        refusal = await self._refusal("GET", _route_path(scope), key, token)
        if refusal is None:
            refusal = self._reserve(key)
        if refusal is not None:
            await _deny(scope, receive, send, *refusal)
            return
        held = True
        accepted = False

        def release() -> None:
            nonlocal held
            if held:
                held = False
                self._release(key)

        async def counted_send(message: Message) -> None:
            nonlocal accepted
            kind = message["type"]
            if kind == "websocket.accept":
                accepted = True
            elif kind == "websocket.close":
                if not accepted and message.get("code") == UNAUTHORIZED_CLOSE:
                    await self.rates.hit(self.auth, key)
                release()
            elif kind == "websocket.http.response.start" and message["status"] == 401:
                await self.rates.hit(self.auth, key)
            await send(message)

        async def counted_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                release()
            return message

        try:
            await self.app(scope, counted_receive, counted_send)
        finally:
            release()

    def _reserve(self, key: str) -> tuple[str, int] | None:
        """Hold a websocket slot for ``key`` from its connect on, or say why not."""
        if self.open_sockets >= self.sockets_total:
            return (f"the server holds as many websockets as it allows "
                    f"({self.sockets_total}); try again in {SOCKET_WAIT} s", SOCKET_WAIT)
        held = self.sockets.get(key, 0)
        if held >= self.sockets_per_client:
            return (f"too many websockets open from your address: at most "
                    f"{self.sockets_per_client} at once; close one, then try again in "
                    f"{SOCKET_WAIT} s", SOCKET_WAIT)
        self.sockets[key] = held + 1
        self.open_sockets += 1
        return None

    def _release(self, key: str) -> None:
        left = self.sockets.get(key, 1) - 1
        if left > 0:
            self.sockets[key] = left
        else:
            self.sockets.pop(key, None)
        self.open_sockets = max(0, self.open_sockets - 1)


# ---------------------------------------------------------------------- helpers
def _route_path(scope: Scope) -> str:
    """The path routes see: without the ``root_path`` the server may have put in front."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        return path[len(root):] or "/"
    return path


def _game_action(path: str) -> str | None:
    """``join`` for ``/api/games/{id}/join`` and the like; None for other paths."""
    if not path.startswith("/api/games/"):
        return None
    game, _, action = path[11:].partition("/")
    if not game or not action or "/" in action:
        return None
    return action


def _query_token(scope: Scope) -> bool:
    query: bytes = scope.get("query_string", b"")
    return bool(query) and (query.startswith(b"token=") or b"&token=" in query)


def _int(text: bytes) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _too_large(limit: int) -> str:
    return f"request body too large: at most {limit} bytes are read"


def _body(reason: str) -> bytes:
    return json.dumps({"error": reason}).encode()


def _headers(body: bytes, wait: int | None, close: bool = False) -> list[tuple[bytes, bytes]]:
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if wait is not None:
        headers.append((b"retry-after", str(wait).encode()))
    if close:
        headers.append((b"connection", b"close"))
    return headers


async def _answer(send: Send, status: int, reason: str, wait: int | None = None,
                  close: bool = False) -> None:
    """Send a whole JSON error response: ``status``, ``{"error": reason}``,
    ``Retry-After: wait`` (seconds) when given, and ``Connection: close`` when ``close``
    (the server then stops reading the request: its body is never taken in)."""
    body = _body(reason)
    await send({"type": "http.response.start", "status": status,
                "headers": _headers(body, wait, close)})
    await send({"type": "http.response.body", "body": body})


async def _deny(scope: Scope, receive: Receive, send: Send, reason: str, wait: int) -> None:
    """Refuse a websocket before accepting it: an HTTP 429 denial response where the
    server supports one, else a close with code 4429 and the reason (clipped to the 123
    bytes a close frame holds)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return  # the client is already gone
    if "websocket.http.response" in (scope.get("extensions") or {}):
        body = _body(reason)
        await send({"type": "websocket.http.response.start", "status": 429,
                    "headers": _headers(body, wait)})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    clipped = reason.encode()[:123].decode(errors="ignore")
    await send({"type": "websocket.close", "code": 4429, "reason": clipped})
