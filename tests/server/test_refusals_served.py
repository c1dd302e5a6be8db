"""Refusals through the real server (``starlanes serve`` under uvicorn), where what the
server does after answering matters: a refused body is not taken in, a refused websocket
logs no error, and a flood of refusals does not flood the access log (issue 23)."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

import httpx
import pytest
import websockets

from starlanes.server import hygiene
from starlanes.server.hygiene import AccessLog

from .conftest import Server

BODY = 50 * 2**20
"""Bytes a hostile request announces (the server reads at most 1,000,000)."""


def _read_answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _closed_within(sock: socket.socket, seconds: float, more: bytes) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` while the client keeps
    sending ``more`` (a reset or an end of stream both count)."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            sock.sendall(more)
            if sock.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:  # reset or broken pipe: the server closed its end
            return True
    return False


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("refusals")
    config = tmp / "server.toml"
    config.write_text("access_log = true\n[limits]\nwebsockets_per_client = 1\n")
    srv = Server(f"sqlite:///{tmp / 's.db'}", config=str(config))
    srv.start()
    yield srv
    if srv.proc is not None:
        srv.proc.terminate()
        srv.proc.wait(10)


def test_a_refused_body_is_not_taken_in_the_connection_closes(server):
    """A 413 for an announced 50 MB body comes with ``Connection: close`` and the server
    closes the connection instead of reading the 50 MB it was refused."""
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: " + str(BODY).encode() + b"\r\n\r\n")
        sock.sendall(b" " * 65536)
        answer = _read_answer(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"connection: close" in answer.lower()
        assert _closed_within(sock, 10, b" " * 65536)


def test_a_chunked_body_past_the_limit_is_cut_off_and_the_connection_closes(server):
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(b"POST /api/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"10000\r\n" + b" " * 0x10000 + b"\r\n"
        answer = b""
        sock.settimeout(0.5)
        for _ in range(40):  # 2.6 MB at most: the limit is 1 MB
            try:
                sock.sendall(chunk)
                answer += sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if b"\r\n\r\n" in answer:
                break
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"connection: close" in answer.lower()
        assert _closed_within(sock, 10, chunk)


def test_a_websocket_over_the_quota_is_refused_with_429_and_no_error_logged(server):
    r = httpx.post(server.url("/api/games"), json={
        "game": "galactic-domination", "players": 2, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    url = f"ws://127.0.0.1:{server.port}/ws/games/{r.json()['id']}"

    async def main() -> int:
        async with websockets.connect(url) as first:
            await first.recv()  # the spectator's view: the socket is open and counted
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(url):
                    pass
            return refused.value.response.status_code

    assert asyncio.run(main()) == 429
    time.sleep(0.5)
    log = server.log()
    assert "without completing handshake" not in log
    assert "ERROR" not in log, log[-2000:]


def test_a_flood_of_refusals_is_summed_up_in_the_access_log(monkeypatch, caplog):
    """The first 429 of a client in a window gets its own line; the rest are counted and
    logged as one line per client and status when the window ends."""
    async def refuse(scope, receive, send):
        status = 429 if scope["path"] == "/flood" else 200
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    monkeypatch.setattr(hygiene, "REFUSALS_EVERY", 0.3)
    app = AccessLog(refuse, client=lambda scope: scope["client"][0])

    async def request(path: str, client: str) -> None:
        scope = {"type": "http", "method": "GET", "path": path, "query_string": b"",
                 "headers": [], "client": (client, 1)}

        async def receive():
            return {"type": "http.request", "body": b""}

        async def send(_message):
            return None

        await app(scope, receive, send)

    async def main() -> None:
        for _ in range(500):
            await request("/flood", "203.0.113.66")
        await request("/flood", "198.51.100.7")
        await asyncio.sleep(0.35)
        await request("/ok", "198.51.100.7")

    with caplog.at_level(logging.INFO, logger="starlanes.access"):
        asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records if r.name == "starlanes.access"]
    assert len(lines) == 4, lines  # not 502
    assert lines[0].startswith("203.0.113.66 GET /flood 429")
    assert lines[1].startswith("198.51.100.7 GET /flood 429")
    assert lines[2].startswith("203.0.113.66: 499 more requests refused with 429 in the last")
    assert lines[3].startswith("198.51.100.7 GET /ok 200")
