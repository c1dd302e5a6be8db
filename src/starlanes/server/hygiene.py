"""HTTP hygiene of the server: security headers on every answer, the websocket ``Origin``
check, and an access log with seat tokens redacted. Pure ASGI middleware (nothing buffered).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .config import ServerConfig

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("starlanes.access")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Pages load scripts, styles and images from this server only, run no inline script, and
may not be framed by any site (a framed table could be clicked through by another page)."""

# The OpenAPI page (/api/docs) loads its viewer from a CDN; it gets its own looser policy.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
    "https://fastapi.tiangolo.com; frame-ancestors 'none'"
)

HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds the Content-Security-Policy and the other security headers to every HTTP
    answer."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.policy = CONTENT_SECURITY_POLICY.encode()
        self.docs = DOCS_POLICY.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.docs if scope.get("path") == "/api/docs" else self.policy

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"content-security-policy", policy))
                headers.extend(HEADERS)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


_TOKEN = re.compile(r"(token=)[^&\s]*", re.I)


def redact(text: str) -> str:
    """``text`` (a path with its query) with every ``token=`` value replaced."""
    return _TOKEN.sub(r"\1[redacted]", text)


REFUSALS_EVERY = 60.0
"""Seconds over which a client's refused requests (413, 429) are summed into one line."""


class AccessLog:
    """Logs every HTTP request and websocket session on ``starlanes.access``: client
    address, method, path and query with seat tokens redacted, status and milliseconds.
    (The Authorization header is never logged.)

    Refusals for size or rate (413, 429) would let a flooding client fill the log: the
    first refusal of a client in each ``REFUSALS_EVERY`` seconds is logged as above, the
    rest are counted and logged as one line per client and status when the window ends
    (at the first request after it)."""

    def __init__(self, app: App, client: Callable[[Scope], str]) -> None:
        self.app = app
        self.client = client
        self._window = time.monotonic()
        self._refused: dict[tuple[str, int], int] = {}

    def _summarise(self, now: float) -> None:
        """Log the refusals counted in the window that ended, and start a new one."""
        for (client, status), count in sorted(self._refused.items()):
            if count:
                access_log.info("%s: %d more requests refused with %d in the last %.0f s",
                                client, count, status, now - self._window)
        self._refused.clear()
        self._window = now

    def _quiet(self, client: str, status: int) -> bool:
        """Whether a refusal is only counted (True), not logged on its own line."""
        now = time.monotonic()
        if now - self._window >= REFUSALS_EVERY:
            self._summarise(now)
        if status not in (413, 429):
            return False
        key = (client, status)
        if key not in self._refused:
            if len(self._refused) >= 10_000:  # a flood of addresses: sum them up now
                self._summarise(now)
            self._refused[key] = 0
            return False
        self._refused[key] += 1
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not access_log.isEnabledFor(
                logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: list[int] = []

        async def watch(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start" or kind == "websocket.http.response.start":
                status.append(int(message["status"]))
            elif kind == "websocket.accept":
                status.append(101)
            elif kind == "websocket.close" and not status:
                status.append(int(message.get("code", 1000)))
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            query = scope.get("query_string", b"").decode("latin-1")
            path = scope.get("path", "") + (f"?{query}" if query else "")
            method = scope.get("method", "WS")
            client = self.client(scope)
            if not (status and self._quiet(client, status[0])):
                access_log.info("%s %s %s %s %.1f ms", client, method, redact(path)[:300],
                                status[0] if status else "-",
                                (time.perf_counter() - started) * 1000)


def origin_allowed(origin: str | None, config: ServerConfig, host: str | None,
                   scheme: str) -> bool:
    """Whether a websocket opened from a page of ``origin`` may connect. No Origin header:
    not a browser page (a browser always sends one), allowed (seat tokens still rule).
    Otherwise the origin must be the public URL's or an allowed one; with no public URL
    configured, the origin must be the address the request was made to (same origin)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    allowed = config.origins()
    if origin in allowed:
        return True
    if config.public_url is None and host:
        web = "https" if scheme in ("wss", "https") else "http"
        return origin == f"{web}://{host.lower()}"
    return False
