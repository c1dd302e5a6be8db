"""Abuse of the game server: the load of ``server_load.py`` (N concurrent games of scripted
humans and a bot seat) while one hostile client floods the server, bounded in its rate.

The hostile client is one address (``203.0.113.66`` in its ``X-Forwarded-For``; every
scripted human has its own 10.x.y.z, see ``server_load.py``) that sends ``--hostile-rate``
requests per second, at most ``--hostile-in-flight`` at once, in an even mix of five kinds:

- **creates**: ``POST /api/games`` of games whose seats are all the catalogue's most
  expensive bot (``--hostile-seats``): each game it gets thinks on the bot workers;
- **websockets**: spectator sockets on the lobby's games, held open (and read) to the end;
- **tokens**: a random seat token on ``GET .../view``, ``POST .../actions`` or a websocket;
- **bodies**: ``POST /api/replay`` of 5-60 MB, streamed, half announcing their
  ``Content-Length`` and half chunked, at most ``--hostile-bodies`` at once and
  ``--hostile-body-rate`` MB/s in all; each is sent to its end whatever the answer (as a
  client that reads the answer after sending does) unless the server closes the connection;
- **replays**: ``GET /api/games/ID/replay?step=N`` of the game with the most moves, at a
  random step;
- **rated**: rating farming: ``POST /api/games`` of a rated two-player game with a
  one-second clock, then both seats joined by the same client (each answer counted);
- **addresses**: filling the server's caps from many addresses: ``POST /api/games`` of
  games of human seats, each from another ``X-Forwarded-For`` address (198.18.N.M, 100
  networks of 254 addresses, through the trusted proxy);
- **selfpair**: self-pairing in play now: four accounts of the hostile client (registered
  at its start, from its own network) take turns joining ``POST /api/play`` for a
  two-player game, hoping to meet each other;
- **botcpu**: bot CPU starvation: ``POST /api/games`` of games whose seats are all
  ``--hostile-bot-seats`` (``mcts-easy``), from ten addresses in ten networks (each another
  client, as the review's attack);
- **odds**: ``POST /api/odds`` of a Rift Domination battle of 60 mixed ships a side (about
  10 s of CPU each before the calculator had a CPU budget).

It runs in a process of its own, so its work never delays the measuring clients, and
refreshes its list of games from the lobby every few seconds when the server lets it.

All kinds run at once by default (``--hostile-kinds`` picks some). Prints the normal
players' figures as ``server_load.py`` does (actions, latency to the
updated views and to the HTTP acknowledgement, errors: any 429 or 413 a normal player got
is a failure of the limits and is called out), the server's CPU and peak RSS, and the
hostile client's answers by kind and status (429s by the limit named in their reason), the
``Retry-After`` values it was given and the bytes its bodies got through. ``--compare``
runs the same load without the hostile client first (each run on a fresh server and
database). Not a test; run it by hand:

    python benchmarks/server_abuse.py --compare --games 100 --seconds 60
    python benchmarks/server_abuse.py --games 20 --seconds 20 --hostile-rate 100 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import sys
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

import server_load as load
import websockets

HOSTILE_ADDRESS = "203.0.113.66"
"""The hostile client's address, as its proxy would name it (TEST-NET-3)."""
KINDS = ("creates", "websockets", "tokens", "bodies", "replays", "rated", "addresses",
         "selfpair", "botcpu", "odds")
MIXED = ("10 fighter, 10 carrier, 5 flagship, 10 infantry, 5 destroyer, 5 cruiser, "
         "5 goliath, 5 bomber, 5 sentinel")
"""Sixty mixed Rift Domination ships: the heavy odds request."""
ACCOUNTS = 4
"""Accounts the hostile client registers for self-pairing."""


def spread_address(i: int) -> str:
    """The ``i``-th address of the cap-filling attack: 100 networks of 254 addresses."""
    return f"198.18.{i % 100}.{1 + (i // 100) % 254}"


def bot_client_address(i: int) -> str:
    """One of the ten addresses (ten networks) of the bot CPU attack."""
    return f"198.19.{i % 10}.1"
LOBBY_EVERY = 5.0
"""Seconds between the hostile client's looks at the lobby (for game ids and lengths)."""
BLOCK = 256 * 1024
"""Bytes of a large body written at a time."""
DRAIN = 5.0
"""Seconds the hostile client waits for its requests in flight once its time is up."""
LIMIT_NAMES = (
    ("too many requests", "requests/min"),
    ("too many games created", "creates/h"),
    ("too many seats", "joins/min"),
    ("too many wrong or missing seat tokens", "auth failures/min"),
    ("too many replay", "replays/min"),
    ("too many websockets", "websockets per client"),
    ("as many websockets as it allows", "websockets in all"),
    ("unfinished games", "open games"),
    ("calculator is busy", "odds at once"),
    ("more computing", "odds CPU"),
    ("used its share", "odds share"),
    ("play-now queue joins", "queue joins/min"),
)


# ---------------------------------------------------------------------- the hostile client
@dataclass
class HostileReport:
    """What the hostile client sent and was answered (JSON-able)."""

    sent: dict[str, int] = field(default_factory=dict)
    answers: dict[str, dict[str, int]] = field(default_factory=dict)
    retry_after: dict[str, dict[str, int]] = field(default_factory=dict)
    answer_ms: dict[str, dict[str, float | int]] = field(default_factory=dict)
    body_bytes_offered: int = 0
    body_bytes_before_answer: int = 0
    body_bytes_after_answer: int = 0
    bodies_cut_by_server: int = 0
    websockets_held_most: int = 0
    websocket_messages: int = 0
    lobby_looks: dict[str, int] = field(default_factory=dict)
    late: int = 0
    cpu_seconds: float = 0.0
    seconds: float = 0.0


def limit_name(reason: str) -> str:
    """The limit a 429's reason names, short (``requests/min``), or ``?``."""
    for words, name in LIMIT_NAMES:
        if words in reason:
            return name
    return "?"


def reason_of(body: bytes | str | None) -> str:
    try:
        return str(json.loads(body or b"{}").get("error", ""))
    except (ValueError, AttributeError):
        return ""


class Hostile:
    """One hostile client at ``base``; see the module's text."""

    def __init__(self, base: str, config: dict[str, Any]) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.rate: float = config["rate"]
        self.stop: float = config["stop"]
        self.game: str = config["game"]
        self.seats: list[str] = config["seats"]
        self.games: list[str] = list(config["games"])
        self.longest: tuple[str, int] = (self.games[0], 0)
        self.kinds: list[str] = config["kinds"]
        self.in_flight: int = config["in_flight"]
        self.slots = asyncio.Semaphore(self.in_flight)
        self.body_slots = asyncio.Semaphore(config["bodies"])
        self.body_rate: float = config["body_mb_per_s"] * 1e6
        self.body_next = 0.0
        self.rng = random.Random(config.get("seed", 66))
        self.headers = load.forwarded(HOSTILE_ADDRESS)
        self.report = HostileReport()
        self.answers: dict[str, Counter[str]] = defaultdict(Counter)
        self.waits: dict[str, Counter[str]] = defaultdict(Counter)
        self.times: dict[str, list[float]] = defaultdict(list)
        self.held: set[Any] = set()
        self.readers: set[asyncio.Task[None]] = set()
        self.client = RawHTTP(base, self.headers)
        self.bot_seats: list[str] = config.get("bot_seats", ["mcts-easy", "mcts-easy"])
        self.spread = 0
        self.accounts: list[dict[str, str]] = []
        self.account_turn = 0
        self.play_mode = "realtime"

    # ------------------------------------------------------------------ bookkeeping
    def count(self, kind: str, status: int | str, reason: str = "",
              retry_after: str | None = None, started: float | None = None) -> None:
        label = str(status)
        if status == 429:
            label = f"429 {limit_name(reason)}"
        self.answers[kind][label] += 1
        if retry_after is not None:
            self.waits[kind][retry_after] += 1
        if started is not None:
            self.times[kind].append(time.perf_counter() - started)

    def target(self) -> str:
        return self.rng.choice(self.games)

    # ------------------------------------------------------------------ the flood
    async def run(self) -> HostileReport:
        cpu = time.process_time()
        start = time.monotonic()
        async with self.client:
            if "selfpair" in self.kinds:
                await self.register()
            tasks: set[asyncio.Task[None]] = set()
            interval = 1.0 / self.rate
            due = time.monotonic()
            next_lobby = due + LOBBY_EVERY
            while True:
                now = time.monotonic()
                if now >= self.stop:
                    break
                if due > now:
                    await asyncio.sleep(due - now)
                due = max(due + interval, time.monotonic() - interval)  # no catch-up burst
                await self.slots.acquire()
                kind = self.pick()
                if time.monotonic() >= next_lobby:
                    next_lobby = time.monotonic() + LOBBY_EVERY
                    job = self.lobby()
                elif kind is not None:
                    job = self.one(kind)
                else:
                    self.slots.release()
                    continue
                task = asyncio.create_task(job)
                tasks.add(task)
                task.add_done_callback(lambda t: (tasks.discard(t), self.slots.release()))
            if tasks:
                _, late = await asyncio.wait(tasks, timeout=DRAIN)
                for task in late:
                    task.cancel()
                self.report.late = len(late)
            for ws in list(self.held):
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 2)
            for task in self.readers:
                task.cancel()
        r = self.report
        r.seconds = time.monotonic() - start
        r.cpu_seconds = time.process_time() - cpu
        r.answers = {k: dict(v.most_common()) for k, v in sorted(self.answers.items())}
        r.retry_after = {k: dict(sorted(v.items(), key=lambda x: int(x[0])))
                         for k, v in sorted(self.waits.items())}
        r.answer_ms = {k: load.percentiles(v) for k, v in sorted(self.times.items())}
        return r

    def pick(self) -> str | None:
        """The kind of the next request; None when only bodies are flooded and as many
        are being sent as allowed (that turn is skipped)."""
        kinds = self.kinds
        if self.body_slots.locked() and "bodies" in kinds:
            kinds = [k for k in kinds if k != "bodies"]
        return self.rng.choice(kinds) if kinds else None

    async def one(self, kind: str) -> None:
        self.report.sent[kind] = self.report.sent.get(kind, 0) + 1
        try:
            if kind == "creates":
                await self.create()
            elif kind == "websockets":
                await self.socket(None, "websockets")
            elif kind == "tokens":
                await self.guess()
            elif kind == "bodies":
                await self.body()
            elif kind == "rated":
                await self.rated()
            elif kind == "addresses":
                await self.fill()
            elif kind == "selfpair":
                await self.selfpair()
            elif kind == "botcpu":
                await self.botcpu()
            elif kind == "odds":
                await self.http("odds", "POST", "/api/odds", json_body={
                    "game": "rift-domination", "attacker": MIXED, "defender": MIXED})
            else:
                await self.replay()
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError,
                websockets.WebSocketException) as e:
            self.count(kind, f"error {type(e).__name__}")

    async def http(self, kind: str, method: str, path: str, headers: dict[str, str] | None = None,
                   json_body: Any = None) -> tuple[int, dict[str, str], bytes]:
        started = time.perf_counter()
        status, head, content = await self.client.request(method, path, headers, json_body)
        self.count(kind, status, reason_of(content) if status >= 400 else "",
                   head.get("retry-after"), started)
        return status, head, content

    async def rated(self) -> None:
        """A rated game with a one-second clock, both seats taken by this client."""
        status, _, content = await self.http("rated (create)", "POST", "/api/games", json_body={
            "game": self.game, "players": 2, "seats": ["human", "human"], "rated": True,
            "clock_seconds": 1})
        if status != 201:
            return
        gid = json.loads(content)["id"]
        for seat, name in enumerate(("farmer", "victim")):
            await self.http("rated (join)", "POST", f"/api/games/{gid}/join",
                            json_body={"name": name, "seat": seat})

    async def fill(self) -> None:
        """A game of human seats from the next of many addresses."""
        self.spread += 1
        await self.http("addresses", "POST", "/api/games",
                        headers={"X-Forwarded-For": spread_address(self.spread)},
                        json_body={"game": self.game, "players": 2,
                                   "seats": ["human", "human"]})

    async def botcpu(self) -> None:
        """A game of heavy bots from one of ten other clients."""
        self.spread += 1
        await self.http("botcpu", "POST", "/api/games",
                        headers={"X-Forwarded-For": bot_client_address(self.spread)},
                        json_body={"game": self.game, "players": len(self.bot_seats),
                                   "seats": self.bot_seats})

    async def register(self) -> None:
        """Register the self-pairing accounts (each from its own address of the hostile
        network) and read the play-now modes."""
        with contextlib.suppress(OSError, ValueError, KeyError):
            status, _, content = await self.client.request("GET", "/api/play/modes")
            if status == 200:
                self.play_mode = json.loads(content)["modes"][0]["name"]
        for i in range(ACCOUNTS):
            address = f"203.0.113.{100 + i}"
            name = f"farm{secrets.token_hex(3)}{i}"
            try:
                status, head, content = await self.http(
                    "selfpair (register)", "POST", "/api/account/register",
                    headers={"X-Forwarded-For": address},
                    json_body={"name": name, "password": secrets.token_urlsafe(12)})
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError) as e:
                self.count("selfpair (register)", f"error {type(e).__name__}")
                continue
            if status == 201:
                cookie = head.get("set-cookie", "").split(";")[0]
                self.accounts.append({"Cookie": cookie, "X-Forwarded-For": address,
                                      "X-CSRF-Token": json.loads(content)["csrf"]})

    async def selfpair(self) -> None:
        """The next account joins play now (after leaving its last entry)."""
        if not self.accounts:
            self.count("selfpair", "no account")
            return
        self.account_turn += 1
        headers = self.accounts[self.account_turn % len(self.accounts)]
        await self.client.request("DELETE", "/api/play", headers=headers)
        await self.http("selfpair", "POST", "/api/play", headers=headers, json_body={
            "game": self.game, "players": 2, "mode": self.play_mode})

    async def create(self) -> None:
        await self.http("creates", "POST", "/api/games", json_body={
            "game": self.game, "players": len(self.seats), "seats": self.seats})

    async def guess(self) -> None:
        token = secrets.token_urlsafe(24)
        gid = self.target()
        how = self.rng.choice(("view", "action", "websocket"))
        bearer = {"Authorization": f"Bearer {token}"}
        if how == "view":
            await self.http("tokens (view)", "GET", f"/api/games/{gid}/view", headers=bearer)
        elif how == "action":
            await self.http("tokens (action)", "POST", f"/api/games/{gid}/actions",
                            headers=bearer, json_body={"seq": 0, "action": "pass"})
        else:
            await self.socket(token, "tokens (websocket)")

    async def socket(self, token: str | None, kind: str) -> None:
        """Open a websocket on a game (a spectator's, or a seat's with ``token``); hold it
        open to the end when the server accepts it."""
        url = f"{self.ws_base}/ws/games/{self.target()}"
        if token is not None:
            url += f"?token={token}"
        started = time.perf_counter()
        try:
            ws = await websockets.connect(url, additional_headers=self.headers, proxy=None,
                                          compression=None, max_size=2**24, open_timeout=10)
        except websockets.InvalidStatus as e:
            response = e.response
            self.count(kind, response.status_code, reason_of(response.body),
                       response.headers.get("Retry-After"), started)
            return
        except websockets.ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd is not None else "?"
            self.count(kind, f"close {code}", started=started)
            return
        self.count(kind, "101 held", started=started)
        self.held.add(ws)
        self.report.websockets_held_most = max(self.report.websockets_held_most,
                                               len(self.held))
        self.readers.add(asyncio.create_task(self.read(ws)))

    async def read(self, ws: Any) -> None:
        try:
            async for _ in ws:
                self.report.websocket_messages += 1
        except websockets.ConnectionClosed:
            pass
        finally:
            self.held.discard(ws)

    async def replay(self) -> None:
        gid, moves = self.longest
        step = self.rng.randint(0, max(moves, 0))
        await self.http("replays", "GET", f"/api/games/{gid}/replay?step={step}")

    async def lobby(self) -> None:
        try:
            status, _, content = await self.client.request("GET", "/api/games")
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError) as e:
            label = f"error {type(e).__name__}"
        else:
            label = str(status)
            if status == 200:
                games = json.loads(content)["games"]
                running = [g for g in games if g["status"] != "finished"] or games
                if running:
                    self.games = [g["id"] for g in running]
                    best = max(running, key=lambda g: g["moves"])
                    self.longest = (best["id"], best["moves"])
        self.report.lobby_looks[label] = self.report.lobby_looks.get(label, 0) + 1

    async def body(self) -> None:
        """POST /api/replay with a body of 5-60 MB on a connection of its own, sent to its
        end whatever the answer (as a client that reads the answer after sending does),
        unless the server closes the connection; all bodies together at most
        ``body_rate`` bytes per second."""
        async with self.body_slots:
            size = self.rng.randint(5, 60) * 1_000_000
            chunked = self.rng.random() < 0.5
            kind = "bodies (chunked)" if chunked else "bodies (Content-Length)"
            r = self.report
            r.body_bytes_offered += size
            parts = urlsplit(self.base)
            reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
            started = time.perf_counter()

            async def answer_of() -> tuple[tuple[int, dict[str, str], bytes], float]:
                return await read_response(reader), time.perf_counter()

            answer: asyncio.Task[Any] | None = None
            sent = 0
            try:
                framing = ("Transfer-Encoding: chunked" if chunked
                           else f"Content-Length: {size}")
                writer.write((f"POST /api/replay HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                              f"X-Forwarded-For: {HOSTILE_ADDRESS}\r\n"
                              f"Content-Type: application/json\r\n{framing}\r\n\r\n").encode())
                answer = asyncio.create_task(answer_of())
                prefix = b'{"record": {"game": "' + self.game.encode() + b'", "pad": "'
                first = prefix + b"x" * (BLOCK - len(prefix))
                rest = b"x" * BLOCK
                try:
                    while sent < size:
                        data = (rest if sent else first)[: size - sent]
                        await self.bandwidth(len(data))
                        if chunked:
                            writer.writelines((f"{len(data):x}\r\n".encode(), data, b"\r\n"))
                        else:
                            writer.write(data)
                        await writer.drain()
                        await asyncio.sleep(0)  # let the answer be read as it comes
                        if answer.done():
                            r.body_bytes_after_answer += len(data)
                        else:
                            r.body_bytes_before_answer += len(data)
                        sent += len(data)
                    if chunked:
                        writer.write(b"0\r\n\r\n")
                        await writer.drain()
                except (OSError, RuntimeError):  # uvloop: RuntimeError on a closed transport
                    r.bodies_cut_by_server += 1
                (status, head, content), when = await asyncio.wait_for(answer, 30)
                self.answers[kind][str(status) if status != 429
                                   else f"429 {limit_name(reason_of(content))}"] += 1
                if head.get("retry-after") is not None:
                    self.waits[kind][head["retry-after"]] += 1
                self.times[kind].append(when - started)
            finally:
                if answer is not None and not answer.done():
                    answer.cancel()
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()

    async def bandwidth(self, n: int) -> None:
        """Wait until ``n`` more body bytes fit the hostile client's body rate."""
        now = time.monotonic()
        at = max(self.body_next, now)
        self.body_next = at + n / self.body_rate
        if at > now:
            await asyncio.sleep(at - now)


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of an HTTP/1.1 answer."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.partition(":") for line in head[1:] if line)}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            body += await reader.readexactly(size + 2)
            del body[-2:]
        await reader.readuntil(b"\r\n")
        return status, headers, bytes(body)
    return status, headers, await reader.readexactly(int(headers.get("content-length", 0)))


class RawHTTP:
    """A small HTTP/1.1 client with a pool of keep-alive connections (httpx spends more CPU
    per request than the server does on a refusal, and on two cores the hostile client's
    CPU is taken from the server). Every request carries ``headers``."""

    IDLE = 3.0
    """Seconds a connection is kept idle (the server closes one idle for 5 s)."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.fixed = "".join(f"{k}: {v}\r\n" for k, v in
                             {"Host": parts.netloc, **headers}.items())
        self.idle: list[tuple[float, asyncio.StreamReader, asyncio.StreamWriter]] = []

    async def __aenter__(self) -> RawHTTP:
        return self

    async def __aexit__(self, *_: object) -> None:
        for _, _, writer in self.idle:
            writer.close()
        self.idle.clear()

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      json_body: Any = None) -> tuple[int, dict[str, str], bytes]:
        body = b"" if json_body is None else json.dumps(json_body).encode()
        fixed = self.fixed
        if headers and "X-Forwarded-For" in headers:  # another address than the fixed one
            fixed = "".join(line + "\r\n" for line in fixed.split("\r\n")
                            if line and not line.startswith("X-Forwarded-For:"))
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        if json_body is not None:
            extra += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        data = f"{method} {path} HTTP/1.1\r\n{fixed}{extra}\r\n".encode() + body
        while self.idle:
            since, reader, writer = self.idle.pop()
            if time.monotonic() - since > self.IDLE or reader.at_eof():
                writer.close()
                continue
            try:  # a kept connection the server has just closed: try a fresh one
                return await self._exchange(reader, writer, data)
            except (OSError, asyncio.IncompleteReadError):
                continue
        reader, writer = await asyncio.open_connection(self.host, self.port)
        return await self._exchange(reader, writer, data)

    async def _exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        data: bytes) -> tuple[int, dict[str, str], bytes]:
        try:
            writer.write(data)
            status, headers, body = await asyncio.wait_for(read_response(reader), 30)
        except BaseException:
            writer.close()
            raise
        if headers.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append((time.monotonic(), reader, writer))
        return status, headers, body


def hostile_child() -> None:
    """The hostile client's process: its settings in argv[2] (JSON), its report on stdout."""
    config = json.loads(sys.argv[2])
    report = load.run_client(Hostile(config["base"], config).run())
    json.dump(asdict(report), sys.stdout)


async def run_hostile(args: argparse.Namespace, base: str, tables: list[load.Table],
                      stop: float) -> HostileReport:
    """Start the hostile client's process until ``stop`` (a shared monotonic clock) and
    return its report."""
    config = {"base": base, "stop": stop, "rate": args.hostile_rate, "game": args.game,
              "in_flight": args.hostile_in_flight, "bodies": args.hostile_bodies,
              "body_mb_per_s": args.hostile_body_rate, "kinds": args.hostile_kinds,
              "seats": args.hostile_seats.split(","), "games": [t.gid for t in tables],
              "bot_seats": args.hostile_bot_seats.split(",")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, os.path.abspath(__file__), "--hostile-child", json.dumps(config),
        stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"the hostile client failed (exit code {proc.returncode})")
    return HostileReport(**json.loads(out))


# ---------------------------------------------------------------------- runs and reports
def one_run(args: argparse.Namespace, hostile: bool) -> dict[str, Any]:
    """Start a fresh server, run the load (with the hostile client or not); the figures."""
    # each run has its own event loop: an asyncio semaphore made for (and bound to) the
    # last run's loop fails every table that waits on it in this one
    load.CONNECTING = asyncio.Semaphore(16)  # as server_load.py
    server: load.Server | None = None
    try:
        with load.serving(args) as server:
            async def beside(tables: list[load.Table], stop: float) -> HostileReport:
                return await run_hostile(args, server.base, tables, stop)

            m, report = load.run_client(load.measure(args, server.base, server.proc.pid,
                                                     beside if hostile else None))
    finally:
        notes = server.notes if server is not None else []
    return figures(args, m, report, notes)


def figures(args: argparse.Namespace, m: load.Measurement, hostile: HostileReport | None,
            notes: list[str]) -> dict[str, Any]:
    limited = {k: v for k, v in m.tally.errors.items() if "429" in k or "413" in k}
    return {
        "hostile": hostile is not None,
        "setup": {"games": args.games, "game": args.game, "humans": args.humans,
                  "bots": args.bots, "bot": args.bot, "think": args.think,
                  "bot_workers": args.bot_workers, "db": args.db_label,
                  "seconds": args.seconds, "cores": os.cpu_count(),
                  "hostile": {"address": HOSTILE_ADDRESS, "rate": args.hostile_rate,
                              "in_flight": args.hostile_in_flight,
                              "bodies": args.hostile_bodies,
                              "body_mb_per_s": args.hostile_body_rate,
                              "kinds": args.hostile_kinds, "seats": args.hostile_seats,
                              "bot_seats": args.hostile_bot_seats}
                  if hostile is not None else None},
        "normal": {
            "seconds": m.wall, "actions": m.moves, "actions_per_s": m.moves / m.wall,
            "human_actions": m.tally.human, "human_per_s": m.tally.human / m.wall,
            "finished": m.tally.finished, "lobby_games": m.count,
            "view_ms": load.percentiles(m.tally.latencies),
            "ack_ms": load.percentiles(m.tally.acks),
            "errors": dict(sorted(m.tally.errors.items())),
            "limited": limited,
        },
        "server": {"cpu_s": m.cpu[0], "bot_workers_cpu_s": m.cpu[1], "clients_cpu_s": m.cpu[2],
                   "peak_rss_mb": m.rss[0], "bot_worker_peak_rss_mb": m.rss[1],
                   "load_average": os.getloadavg()[0], "notes": notes},
        "attack": asdict(hostile) if hostile is not None else None,
        "_measurement": m,
    }


def print_run(args: argparse.Namespace, run: dict[str, Any]) -> None:
    m: load.Measurement = run["_measurement"]
    title = ("WITH the hostile client" if run["hostile"] else "baseline: no hostile client")
    print(f"=== {title} ===")
    load.report(args, m)
    limited = run["normal"]["limited"]
    if limited:
        n = sum(limited.values())
        print(f"!!! LIMITS HIT NORMAL PLAYERS: {n} answers 429/413 to normal players ("
              + ", ".join(f"{k}: {v}" for k, v in sorted(limited.items())) + ")")
    else:
        print("normal players got no 429 or 413")
    attack = run["attack"]
    if attack is not None:
        print_attack(args, attack)
    for note in run["server"]["notes"]:
        print(note)


def print_attack(args: argparse.Namespace, a: dict[str, Any]) -> None:
    sent = sum(a["sent"].values())
    print(f"hostile client ({HOSTILE_ADDRESS}; {args.hostile_rate:g} requests/s, at most "
          f"{args.hostile_in_flight} in flight, {args.hostile_bodies} bodies at once; "
          f"{', '.join(args.hostile_kinds)}; creates seat {args.hostile_seats}, bot CPU games "
          f"{args.hostile_bot_seats}): {sent:,} requests in {a['seconds']:.1f} s "
          f"({sent / max(a['seconds'], 1e-9):.0f}/s), its process used {a['cpu_seconds']:.1f} "
          f"s of CPU; {a['late']} still unanswered {DRAIN:g} s after its time")
    for kind, answers in a["answers"].items():
        line = ", ".join(f"{n:,} × {status}" for status, n in answers.items())
        ms = a["answer_ms"].get(kind, {})
        timing = (f" (answered in p50 {ms['p50']:.0f} ms, p99 {ms['p99']:.0f} ms)"
                  if ms.get("n") else "")
        print(f"  {kind}: {line}{timing}")
    looks = ", ".join(f"{n} × {s}" for s, n in a["lobby_looks"].items()) or "none"
    print(f"  lobby looks: {looks}")
    print(f"  bodies: {a['body_bytes_offered'] / 1e6:,.0f} MB offered at most "
          f"{args.hostile_body_rate:g} MB/s; {a['body_bytes_before_answer'] / 1e6:,.1f} MB "
          f"sent before the answers came, {a['body_bytes_after_answer'] / 1e6:,.1f} MB after "
          f"them (taken by the server), {a['bodies_cut_by_server']} connections closed by "
          f"the server before the body's end")
    print(f"  websockets held open at most at once: {a['websockets_held_most']}, "
          f"{a['websocket_messages']:,} views received on them")
    waits = []
    for kind, seen in a["retry_after"].items():
        values = sorted(int(v) for v in seen)
        waits.append(f"{kind} {values[0]}-{values[-1]} s" if len(values) > 1
                     else f"{kind} {values[0]} s")
    print(f"  Retry-After seen: {'; '.join(waits) or 'none'}")
    refused = sum(n for answers in a["answers"].values() for s, n in answers.items()
                  if s.startswith(("429", "413")))
    print(f"  refused with 429/413: {refused:,} of {sent:,}")
    print("  refused per attack (any 4xx/5xx, by status):")
    for kind, answers in refusals(a).items():
        total = sum(answers.values())
        no = {s: n for s, n in answers.items() if s[:1] in "45" or s.startswith("error")}
        print(f"    {kind}: {sum(no.values()):,} of {total:,}"
              + (" (" + ", ".join(f"{s}: {n:,}" for s, n in no.items()) + ")" if no else ""))


def refusals(a: dict[str, Any]) -> dict[str, dict[str, int]]:
    """The hostile client's answers grouped per attack (``tokens (view)`` under ``tokens``),
    status by status."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for kind, answers in a["answers"].items():
        out[kind.split(" (")[0] if kind.startswith(("tokens", "bodies")) else kind].update(
            answers)
    return {k: dict(v.most_common()) for k, v in sorted(out.items())}


def print_comparison(runs: list[dict[str, Any]]) -> None:
    """The normal players' and the server's figures side by side: baseline -> hostile."""
    base, hostile = runs

    def pair(get: Any, fmt: str) -> str:
        return f"{fmt.format(get(base))} -> {fmt.format(get(hostile))}"

    def lat(key: str) -> Any:
        return lambda r: "/".join(f"{r['normal'][key].get(p, float('nan')):.0f}"
                                  for p in ("p50", "p95", "p99", "max"))

    print("comparison, baseline -> with the hostile client:")
    print("  human actions/s: " + pair(lambda r: r["normal"]["human_per_s"], "{:.1f}")
          + "; all actions/s: " + pair(lambda r: r["normal"]["actions_per_s"], "{:.1f}"))
    print("  latency to the views p50/p95/p99/max ms: " + pair(lat("view_ms"), "{}"))
    print("  latency to the HTTP ack p50/p95/p99/max ms: " + pair(lat("ack_ms"), "{}"))
    print("  server process CPU s: " + pair(lambda r: r["server"]["cpu_s"], "{:.1f}")
          + "; bot workers CPU s: " + pair(lambda r: r["server"]["bot_workers_cpu_s"], "{:.1f}")
          + "; server peak RSS MB: " + pair(lambda r: r["server"]["peak_rss_mb"], "{:.0f}"))
    print("  normal players' errors: " + pair(lambda r: sum(r["normal"]["errors"].values()),
                                              "{}")
          + "; of them 429/413: " + pair(lambda r: sum(r["normal"]["limited"].values()), "{}"))


def verdict(args: argparse.Namespace, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the aim is met: normal p99 to the views under ``args.aim_ms`` with the
    hostile client, no 429/413 for normal players, 429s and 413s for the hostile, and
    (with ``--compare``) the normal players' actions at ``args.aim_kept`` of the
    baseline's or more."""
    hostile = next((r for r in runs if r["hostile"]), None)
    out: dict[str, Any] = {}
    for r in runs:
        key = "hostile" if r["hostile"] else "baseline"
        out[f"{key}_view_p99_ms"] = r["normal"]["view_ms"].get("p99")
        out[f"{key}_normal_limited"] = sum(r["normal"]["limited"].values())
        out[f"{key}_human_actions_per_s"] = r["normal"]["human_per_s"]
    if hostile is not None:
        answers = hostile["attack"]["answers"]
        statuses = Counter(s.split()[0] for a in answers.values() for s in a)
        out["hostile_got_429"] = statuses["429"] > 0
        out["hostile_got_413"] = statuses["413"] > 0
        p99 = out["hostile_view_p99_ms"]
        out["aim_met"] = bool(p99 is not None and p99 < args.aim_ms
                              and out["hostile_normal_limited"] == 0
                              and out["hostile_got_429"] and out["hostile_got_413"])
        if "baseline_human_actions_per_s" in out:
            out["human_actions_kept"] = (out["hostile_human_actions_per_s"]
                                         / max(out["baseline_human_actions_per_s"], 1e-9))
            out["aim_met"] = out["aim_met"] and out["human_actions_kept"] >= args.aim_kept
        out["refused"] = refusals(hostile["attack"])
    return out


def kinds(text: str) -> list[str]:
    chosen = [k.strip() for k in text.split(",") if k.strip()]
    unknown = set(chosen) - set(KINDS)
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"kinds are some of {', '.join(KINDS)}")
    return chosen


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--hostile-child":
        hostile_child()
        return
    ap = load.arguments(__doc__.split("\n\n")[0])
    ap.add_argument("--hostile-rate", type=float, default=200,
                    help="the hostile client's requests per second")
    ap.add_argument("--hostile-in-flight", type=int, default=50,
                    help="the hostile client's requests in flight at most")
    ap.add_argument("--hostile-bodies", type=int, default=3,
                    help="large bodies the hostile client streams at once at most")
    ap.add_argument("--hostile-body-rate", type=float, default=100,
                    help="MB/s the hostile client's bodies send at most, all together "
                         "(100: a 1 Gbit/s link)")
    ap.add_argument("--hostile-seats", default="mcts-hard,mcts-hard,mcts-hard",
                    help="the seats of the hostile client's games, comma-separated")
    ap.add_argument("--hostile-kinds", type=kinds, default=list(KINDS),
                    help="what the hostile client floods with, comma-separated, of "
                         + ", ".join(KINDS) + " [default: all, evenly]")
    ap.add_argument("--hostile-bot-seats", default="mcts-easy,mcts-easy",
                    help="the seats of the bot CPU attack's games, comma-separated")
    ap.add_argument("--aim-kept", type=float, default=0.9,
                    help="the aim for the normal players' actions with the hostile client, "
                         "as a share of the baseline's (--compare)")
    ap.add_argument("--aim-ms", type=float, default=150,
                    help="the aim for the normal players' p99 latency to their views")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--no-hostile", action="store_true",
                     help="the load alone (the baseline)")
    how.add_argument("--compare", action="store_true",
                     help="the baseline first, then the load with the hostile client")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args()
    plan = [False, True] if args.compare else [not args.no_hostile]
    runs = []
    for hostile in plan:
        run = one_run(args, hostile)
        runs.append(run)
        if not args.json:
            print_run(args, run)
            print()
    result = verdict(args, runs)
    if len(runs) == 2 and not args.json:
        print_comparison(runs)
    if args.json:
        clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in runs]
        json.dump({"runs": clean, "verdict": result}, sys.stdout, indent=2)
        print()
        return
    if "aim_met" in result:
        base = result.get("baseline_view_p99_ms")
        print(f"aim (normal p99 to the views < {args.aim_ms:g} ms with the hostile client, no "
              f"429/413 for normal players, 429 and 413 for the hostile client"
              + (f", normal actions at {100 * args.aim_kept:.0f}% of the baseline's or more"
                 if "human_actions_kept" in result else "") + "): "
              f"{'MET' if result['aim_met'] else 'NOT MET'} — p99 "
              + (f"{base:.1f} ms without, " if base is not None else "")
              + f"{result['hostile_view_p99_ms']:.1f} ms with the hostile client; normal "
              f"players limited {result['hostile_normal_limited']} times; hostile got 429: "
              f"{result['hostile_got_429']}, 413: {result['hostile_got_413']}")
        if "human_actions_kept" in result:
            kept = result["human_actions_kept"]
            print(f"normal players' actions/s with the hostile client: {100 * kept:.0f}% of the "
                  "baseline's" + (" -- THE NORMAL GAMES WERE SLOWED DOWN"
                                  if kept < args.aim_kept else ""))


if __name__ == "__main__":
    main()
