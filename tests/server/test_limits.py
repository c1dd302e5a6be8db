"""Limits per client: every attack of issue 23 played against the real HTTP API.

Each attack gets its status (413 or 429), its reason in words, its ``Retry-After``, and a
check that a normal client at another address is not hurt. Clients are told apart the way
a server behind a reverse proxy tells them apart: the test client's peer is a trusted proxy
(10.0.0.2) and each request names its client in ``X-Forwarded-For``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("limits", reason="the server extras are not installed")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from starlanes.server.app import create_app  # noqa: E402
from starlanes.server.config import load_config  # noqa: E402
from starlanes.server.limits import ClientLimits, client_address  # noqa: E402

from .conftest import auth, create, join  # noqa: E402

PROXY = ("10.0.0.2", 40000)
ATTACKER = "203.0.113.66"
NORMAL = "198.51.100.7"


def as_(address: str) -> dict[str, str]:
    """The headers of a request from ``address`` through the trusted proxy."""
    return {"X-Forwarded-For": address}


QUOTAS = {"anonymous_games_per_network": 100_000, "anonymous_share": 1.0}
"""Quotas of unfinished games out of the way: these tests attack the rates (the quotas are
attacked in test_quotas.py)."""


@contextlib.contextmanager
def serve(tmp_path, peer: tuple[str, int] = PROXY, trusted: list[str] | None = None,
          **limits: Any) -> Iterator[TestClient]:
    config = load_config(limits={**QUOTAS, **limits}, access_log=False,
                         trusted_proxies=["10.0.0.0/8"] if trusted is None else trusted)
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", bot_workers=0, config=config)
    with TestClient(app, client=peer) as client:
        yield client


def refused(r: httpx.Response, status: int, words: str) -> int:
    """Assert ``r`` is a JSON refusal naming ``words``; return its Retry-After (0: none)."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    reason = r.json()["error"]
    assert words in reason, reason
    if status != 429:
        return 0
    wait = int(r.headers["retry-after"])
    said = re.search(r"try again in (\d+) s", reason)
    assert said is not None and int(said.group(1)) == wait, reason
    return wait


def in_loop(client: TestClient, work: Callable[[httpx.AsyncClient], Awaitable[Any]]) -> Any:
    """Run ``work`` with an async client of the app, in the event loop the app's lifespan
    runs in: bodies stream chunk by chunk (the test client would read them whole first)
    and many requests can be in flight at once."""
    async def go() -> Any:
        transport = httpx.ASGITransport(app=client.app, client=PROXY)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return await work(c)
    assert client.portal is not None
    return client.portal.call(go)


def streamed(client: TestClient, url: str, chunks: AsyncIterator[bytes],
             headers: dict[str, str]) -> httpx.Response:
    """POST a body streamed chunk by chunk."""
    return in_loop(client, lambda c: c.post(url, content=chunks, headers=headers))


def ws_refused(client: TestClient, url: str, address: str,
               kind: type[Exception] = WebSocketDenialResponse) -> Any:
    """What a websocket opened to ``url`` from ``address`` is refused with (``kind``)."""
    with pytest.raises(kind) as refusal, client.websocket_connect(url, headers=as_(address)):
        pass
    return refusal.value


class Source:
    """A request body that records how much of it was pulled (bytes)."""

    def __init__(self, total: int, chunk: int) -> None:
        self.total, self.chunk, self.pulled = total, chunk, 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while self.pulled < self.total:
            self.pulled += self.chunk
            yield b" " * self.chunk


def games(client: TestClient) -> int:
    return len(client.get("/api/games", headers=as_(NORMAL)).json()["games"])


GAME = {"game": "rift-domination", "players": 2, "seats": ["human", "human"], "seed": 7}


# ---------------------------------------------------------------------- client address
def _scope(peer: str | None, *forwarded: str) -> dict[str, Any]:
    return {"type": "http", "client": (peer, 1) if peer else None,
            "headers": [(b"x-forwarded-for", f.encode()) for f in forwarded]}


def test_client_address_trusts_forwarded_for_only_from_trusted_proxies():
    nets = [ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("fd00::/8")]
    assert client_address(_scope("1.2.3.4", "9.9.9.9"), []) == "1.2.3.4"
    assert client_address(_scope("1.2.3.4", "9.9.9.9"), nets) == "1.2.3.4"
    assert client_address(_scope("10.0.0.2"), nets) == "10.0.0.2"
    # the right-most address that is no trusted proxy; forged entries left of it count not
    assert client_address(_scope("10.0.0.2", "6.6.6.6, 5.5.5.5, 10.1.1.1"), nets) == "5.5.5.5"
    assert client_address(_scope("10.0.0.2", "6.6.6.6", "5.5.5.5"), nets) == "5.5.5.5"
    assert client_address(_scope("10.0.0.2", "10.3.3.3, 10.1.1.1"), nets) == "10.3.3.3"
    assert client_address(_scope("10.0.0.2", "[2001:db8::1]:443"), nets) == "2001:db8::1"
    assert client_address(_scope("10.0.0.2", "5.5.5.5:8080"), nets) == "5.5.5.5"
    assert client_address(_scope("::ffff:10.0.0.2", "5.5.5.5"), nets) == "5.5.5.5"
    assert client_address(_scope("fd00::7", "2001:DB8::0:1"), nets) == "2001:db8::1"
    assert client_address(_scope("testclient", "5.5.5.5"), nets) == "testclient"
    assert client_address(_scope(None, "5.5.5.5"), nets) == "unknown"


# ---------------------------------------------------------------------- bodies
def test_a_60_mb_body_gets_413_before_a_byte_is_read(tmp_path):
    with serve(tmp_path) as client:
        body = Source(60 * 2**20, 2**20)
        r = streamed(client, "/api/games", body,
                     {"Content-Length": str(60 * 2**20), **as_(ATTACKER)})
        assert refused(r, 413, "request body too large: at most 1000000 bytes") == 0
        assert body.pulled == 0 and games(client) == 0
        assert client.post("/api/games", json=GAME, headers=as_(ATTACKER)).status_code == 201


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(tmp_path):
    with serve(tmp_path, max_body_bytes=65536) as client:
        body = Source(60 * 2**20, 16384)
        r = streamed(client, "/api/games", body,
                     {"Content-Type": "application/json", **as_(ATTACKER)})
        assert "content-length" not in {k.lower() for k in r.request.headers}
        refused(r, 413, "request body too large: at most 65536 bytes")
        assert body.pulled <= 65536 + 2 * 16384 and games(client) == 0
        assert client.post("/api/games", json=GAME, headers=as_(NORMAL)).status_code == 201


# ---------------------------------------------------------------------- rates
def test_a_thousand_creates_get_429_past_the_hourly_quota(tmp_path):
    with serve(tmp_path, creates_per_hour=5) as client:
        async def flood(c: httpx.AsyncClient) -> list[int]:
            replies = await asyncio.gather(*(c.post("/api/games", json=GAME,
                                                    headers=as_(ATTACKER))
                                             for _ in range(1000)))
            return [r.status_code for r in replies]

        codes = in_loop(client, flood)  # all at once
        assert codes.count(201) == 5 and codes.count(429) == 995
        r = client.post("/api/games", json=GAME, headers=as_(ATTACKER))
        wait = refused(r, 429, "too many games created from your address: at most 5 per hour")
        assert 3000 < wait <= 3600
        gid = client.post("/api/games", json=GAME, headers=as_(NORMAL)).json()["id"]
        refused(client.post(f"/api/games/{gid}/rematch", headers=as_(ATTACKER)), 429,
                "too many games created")
        assert games(client) == 6


def test_every_request_counts_against_the_rate_per_minute_but_health_checks(tmp_path):
    with serve(tmp_path, requests_per_minute=10) as client:
        codes = [client.get("/api/games", headers=as_(ATTACKER)).status_code
                 for _ in range(10)]
        assert codes == [200] * 10
        wait = refused(client.get("/api/catalogue", headers=as_(ATTACKER)), 429,
                       "too many requests from your address: at most 10 per minute")
        assert 1 <= wait <= 60
        refused(ws_refused(client, "/ws/games/any", ATTACKER), 429, "too many requests")
        assert client.get("/healthz", headers=as_(ATTACKER)).status_code == 200
        assert client.get("/readyz", headers=as_(ATTACKER)).status_code == 200
        assert client.get("/api/games", headers=as_(NORMAL)).status_code == 200


def test_a_flood_of_joins_gets_429(tmp_path):
    with serve(tmp_path, joins_per_minute=2) as client:
        gid = create(client, seats=["human"] * 4)
        for seat in (0, 1):
            r = client.post(f"/api/games/{gid}/join", json={"name": "X", "seat": seat},
                            headers=as_(ATTACKER))
            assert r.status_code == 200, r.text
        r = client.post(f"/api/games/{gid}/join", json={"name": "X", "seat": 2},
                        headers=as_(ATTACKER))
        refused(r, 429, "too many seats taken from your address: at most 2 per minute")
        r = client.post(f"/api/games/{gid}/join", json={"name": "Ann", "seat": 2},
                        headers=as_(NORMAL))
        assert r.status_code == 200, r.text


def test_a_replay_flood_gets_429_for_stored_games_and_uploaded_records(tmp_path):
    with serve(tmp_path, replays_per_minute=4) as client:
        gid = create(client)
        record = {"game": "rift-domination"}  # malformed: answered 400, counted all the same
        for _ in range(3):
            r = client.get(f"/api/games/{gid}/replay", headers=as_(ATTACKER))
            assert r.status_code == 200, r.text
        r = client.post("/api/replay", json={"record": record}, headers=as_(ATTACKER))
        assert r.status_code == 400, r.text
        for r in (client.get(f"/api/games/{gid}/replay?step=0", headers=as_(ATTACKER)),
                  client.post("/api/replay", json={"record": record}, headers=as_(ATTACKER))):
            refused(r, 429, "too many replay requests from your address: at most 4 per minute")
        assert client.get(f"/api/games/{gid}/replay", headers=as_(NORMAL)).status_code == 200
        assert client.get(f"/api/games/{gid}/view", headers=as_(ATTACKER)).status_code == 200


# ---------------------------------------------------------------------- token guessing
def test_token_guesses_get_429_even_for_the_right_token(tmp_path):
    with serve(tmp_path, auth_failures_per_minute=3) as client:
        gid = create(client)
        token = join(client, gid, "Ann")
        for guess in ("a" * 32, "b" * 32, "c" * 32):
            r = client.get(f"/api/games/{gid}/view", headers={**auth(guess), **as_(ATTACKER)})
            assert r.status_code == 401, r.text
        r = client.get(f"/api/games/{gid}/view", headers={**auth(token), **as_(ATTACKER)})
        wait = refused(r, 429, "too many wrong or missing seat tokens from your address: "
                               "at most 3 per minute")
        assert 1 <= wait <= 60
        refused(ws_refused(client, f"/ws/games/{gid}?token={token}", ATTACKER), 429,
                "too many wrong or missing seat tokens")
        # without a token the guesser is a spectator like anyone; the player is unhurt
        spectator = client.get(f"/api/games/{gid}/view", headers=as_(ATTACKER))
        assert spectator.status_code == 200
        r = client.get(f"/api/games/{gid}/view", headers={**auth(token), **as_(NORMAL)})
        assert r.status_code == 200, r.text


def test_token_guesses_over_websockets_count_too(tmp_path):
    with serve(tmp_path, auth_failures_per_minute=2) as client:
        gid = create(client)
        token = join(client, gid, "Ann")
        for guess in ("a" * 32, "b" * 32):
            closed = ws_refused(client, f"/ws/games/{gid}?token={guess}", ATTACKER,
                                WebSocketDisconnect)
            assert closed.code == 4401
        refused(ws_refused(client, f"/ws/games/{gid}?token={token}", ATTACKER), 429,
                "at most 2 per minute")
        r = client.get(f"/api/games/{gid}/view", headers={**auth(token), **as_(ATTACKER)})
        refused(r, 429, "too many wrong or missing seat tokens")
        with client.websocket_connect(f"/ws/games/{gid}?token={token}",
                                      headers=as_(NORMAL)) as ws:
            assert ws.receive_json()["you"] == 0


# ---------------------------------------------------------------------- websockets
def test_too_many_websockets_per_client_and_in_all(tmp_path):
    with serve(tmp_path, websockets_per_client=2, websockets_total=3) as client:
        gid = create(client)
        url = f"/ws/games/{gid}"

        def opened(stack: contextlib.ExitStack, address: str) -> Any:
            ws = stack.enter_context(client.websocket_connect(url, headers=as_(address)))
            ws.receive_json()
            return ws

        def denial(address: str) -> httpx.Response:
            return ws_refused(client, url, address)

        with contextlib.ExitStack() as stack:
            opened(stack, ATTACKER)
            with contextlib.ExitStack() as second:
                opened(second, ATTACKER)
                wait = refused(denial(ATTACKER), 429, "too many websockets open from your "
                                                      "address: at most 2 at once")
                assert wait == 10
                opened(stack, NORMAL)
                refused(denial("192.0.2.1"), 429,
                        "the server holds as many websockets as it allows (3)")
            # one of the attacker's sockets closed: room again, for anyone
            opened(stack, "192.0.2.1")
            refused(denial(ATTACKER), 429, "as many websockets as it allows")
        with contextlib.ExitStack() as stack:
            for _ in range(2):
                opened(stack, ATTACKER)


def test_a_websocket_is_refused_with_close_4429_without_the_denial_extension(tmp_path):
    config = load_config(limits={"websockets_per_client": 1})

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await receive()  # until the client leaves

    limited = ClientLimits(app, config)

    async def connect() -> tuple[list[dict], asyncio.Queue, asyncio.Future]:
        inbox: asyncio.Queue = asyncio.Queue()
        await inbox.put({"type": "websocket.connect"})
        sent: list[dict] = []

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "websocket", "path": "/ws/games/x", "query_string": b"",
                 "headers": [], "client": ("192.0.2.9", 1)}
        task = asyncio.ensure_future(limited(scope, inbox.get, send))
        await asyncio.sleep(0.01)
        return sent, inbox, task

    async def run() -> None:
        first, inbox, task = await connect()
        assert first == [{"type": "websocket.accept"}]
        second, _, other = await connect()
        await other
        assert second[0]["type"] == "websocket.close" and second[0]["code"] == 4429
        assert "too many websockets open from your address: at most 1" in second[0]["reason"]
        await inbox.put({"type": "websocket.disconnect", "code": 1000})
        await task
        third, inbox, task = await connect()
        assert third == [{"type": "websocket.accept"}]
        await inbox.put({"type": "websocket.disconnect", "code": 1000})
        await task

    asyncio.run(run())


# ---------------------------------------------------------------------- X-Forwarded-For
def test_forwarded_for_from_an_untrusted_peer_cannot_dodge_the_limits(tmp_path):
    with serve(tmp_path, peer=(ATTACKER, 5000), creates_per_hour=2) as client:
        codes = [client.post("/api/games", json=GAME,
                             headers=as_(f"192.0.2.{i}")).status_code for i in range(6)]
        assert codes == [201, 201, 429, 429, 429, 429]
        refused(client.post("/api/games", json=GAME, headers=as_("10.0.0.9")), 429,
                "too many games created from your address: at most 2 per hour")


def test_forwarded_for_from_a_trusted_proxy_names_the_client(tmp_path):
    with serve(tmp_path, creates_per_hour=1) as client:
        assert client.post("/api/games", json=GAME, headers=as_(ATTACKER)).status_code == 201
        # an address forged left of the proxy's own entry changes nothing
        for forged in (ATTACKER, f"192.0.2.1, {ATTACKER}", f"{ATTACKER}, 10.9.9.9"):
            refused(client.post("/api/games", json=GAME, headers=as_(forged)), 429,
                    "too many games created")
        assert client.post("/api/games", json=GAME, headers=as_(NORMAL)).status_code == 201
        # IPv6 clients are counted per /64 network
        assert client.post("/api/games", json=GAME,
                           headers=as_("2001:db8:1:2::1")).status_code == 201
        refused(client.post("/api/games", json=GAME, headers=as_("2001:db8:1:2::beef")),
                429, "too many games created")
