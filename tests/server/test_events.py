"""The per-account event stream (``GET /api/events``, Server-Sent Events) through a real
server (uvicorn in a thread, so the stream is read as a browser reads it): a guest is
refused, the first event lists the games where it is your turn, a turn that comes (or goes)
is an event, the community's notifiers reach every open page of the account; the limits are
attacked (streams per account, idle streams, a session that ends); and with two server
processes joined by Redis an event reaches the process holding the stream."""

from __future__ import annotations

import asyncio
import json
import queue
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from starlanes.server.app import create_app
from starlanes.server.community.identity import SESSION_COOKIE, Sessions
from starlanes.server.community.models import AccountRow

from .conftest import auth, drop_postgres, postgres_url, test_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Live:
    """An app served by uvicorn in a thread on a free port."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.app = app
        self.port = free_port()
        # as 'starlanes serve' does: connections still open at a stop are given a few
        # seconds, then closed
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", lifespan="on",
                                                    timeout_graceful_shutdown=5))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Live:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        assert not self.thread.is_alive(), "the server did not stop (a stream held it?)"

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    @property
    def community(self) -> Any:
        return self.app.state.community

    def call(self, coro: Any) -> Any:
        """Run ``coro`` in the server's event loop and wait for it."""
        loop = self.community.events.loop
        return asyncio.run_coroutine_threadsafe(coro, loop).result(10)


def person(live: Live, name: str) -> dict[str, str]:
    """A new account with a session: the headers of its requests (cookie, CSRF)."""
    store = live.community.store
    with store.session() as s:
        row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
        s.add(row)
        s.flush()
        account_id = row.id
    new = Sessions(store).create(account_id)
    return {"Cookie": f"{SESSION_COOKIE}={new.cookie}", "X-CSRF-Token": new.csrf,
            "X-Account": str(account_id)}


class Reader(threading.Thread):
    """Reads one event stream: every event (a dict) lands in ``events``; ``status`` is the
    answer's status, ``ended`` set when the server closed the stream."""

    def __init__(self, url: str, headers: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.url, self.headers = url, headers
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.status: int | None = None
        self.body = ""
        self.opened = threading.Event()
        self.ended = threading.Event()
        self._client = httpx.Client(timeout=httpx.Timeout(5, read=60))

    def run(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as r:
                self.status = r.status_code
                self.opened.set()
                if r.status_code != 200:
                    self.body = r.read().decode()
                    return
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        self.events.put(json.loads(line[6:]))
        except httpx.HTTPError:
            pass
        finally:
            self.opened.set()
            self.ended.set()

    def next(self, kind: str | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """The next event (of ``kind``), waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {kind or 'event'} within {timeout} s"
            event = self.events.get(timeout=left)
            if kind is None or event.get("kind") == kind:
                return event

    def close(self) -> None:
        self._client.close()


def stream(live: Live, headers: dict[str, str]) -> Reader:
    reader = Reader(live.url("/api/events"), headers)
    reader.start()
    assert reader.opened.wait(10)
    return reader


def make_app(url: str, **notifications: Any) -> Any:
    settings = {"heartbeat_seconds": 1, **notifications}
    return create_app(url, bot_workers=0,
                      config=test_config(notifications=settings))


@pytest.fixture
def live(tmp_path) -> Iterator[Live]:
    with Live(make_app(f"sqlite:///{tmp_path / 'server.db'}", streams_per_account=2,
                       stream_idle_seconds=5)) as served:
        yield served


def two_accounts_game(live: Live) -> tuple[str, dict[str, str], dict[str, str], list[str]]:
    """A game of Ann (seat 0) and Bob (seat 1), both accounts: (id, headers, tokens)."""
    ann, bob = person(live, "Ann"), person(live, "Bob")
    r = httpx.post(live.url("/api/games"), json={"game": "rift-domination", "players": 2,
                                                 "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = []
    for seat, who in enumerate((ann, bob)):
        r = httpx.post(live.url(f"/api/games/{gid}/join"), json={"name": "x", "seat": seat},
                       headers=who)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return gid, ann, bob, tokens


def whose_turn(live: Live, gid: str, tokens: list[str]) -> int:
    for seat, token in enumerate(tokens):
        if httpx.get(live.url(f"/api/games/{gid}/view"), headers=auth(token)).json()[
                "your_turn"]:
            return seat
    raise AssertionError("nobody's turn")


def play(live: Live, gid: str, token: str) -> None:
    v = httpx.get(live.url(f"/api/games/{gid}/view"), headers=auth(token)).json()
    r = httpx.post(live.url(f"/api/games/{gid}/actions"), headers=auth(token),
                   json={"seq": v["seq"], "action": v["legal"][-1]["notation"]})
    assert r.status_code == 200, r.text


def test_a_guest_gets_no_stream(live):
    r = httpx.get(live.url("/api/events"))
    assert r.status_code == 401 and r.json()["error"] == "log in to get live notifications"


def test_turns_come_as_events(live):
    gid, ann, bob, tokens = two_accounts_game(live)
    first = whose_turn(live, gid, tokens)
    people = [ann, bob]
    mover, other = stream(live, people[first]), stream(live, people[1 - first])
    try:
        hello = mover.next("hello")
        assert [g["id"] for g in hello["games"]] == [gid]  # your turn there already
        assert other.next("hello")["games"] == []
        # the mover plays until the turn passes: the other seat hears of it, once
        while whose_turn(live, gid, tokens) == first:
            play(live, gid, tokens[first])
        came = other.next("turn")
        assert (came["game"], came["your_turn"], came["url"]) == (gid, True, f"/games/{gid}")
        assert came["title"] == "Rift Domination"
        gone = mover.next("turn")
        assert (gone["game"], gone["your_turn"]) == (gid, False)
        assert other.events.empty()
        # the game ends: both streams hear that it is nobody's turn
        r = httpx.post(live.url(f"/api/games/{gid}/resign"), headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        for reader in (mover, other):
            over = reader.next("turn")
            assert over["over"] is True and over["your_turn"] is False
    finally:
        mover.close()
        other.close()


def test_notifiers_reach_every_open_page(live):
    ann = person(live, "Ann")
    pages = [stream(live, ann), stream(live, ann)]
    try:
        for page in pages:
            page.next("hello")
        event = {"kind": "challenge", "id": 7, "from": "Bob", "title": "Rift Domination",
                 "url": "/#challenges-box"}
        live.call(live.community.notify(int(ann["X-Account"]), event))
        for page in pages:
            assert page.next("challenge") == event
        with pytest.raises(ValueError):
            live.call(live.community.events.notify(1, {"no": "kind"}))
    finally:
        for page in pages:
            page.close()


def test_streams_per_account_are_limited(live):
    ann = person(live, "Ann")
    pages = [stream(live, ann), stream(live, ann)]
    try:
        third = stream(live, ann)
        third.join(10)
        assert third.status == 429
        assert "at most 2" in json.loads(third.body)["error"]
        pages[0].close()  # a page closed gives its place back
        deadline = time.monotonic() + 10
        while live.community.events.count() > 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        again = stream(live, ann)
        assert again.status == 200
        again.close()
        # the process's own cap holds whoever asks
        live.community.events.settings.streams_total = 1  # Ann still holds a page
        bob = stream(live, person(live, "Bob"))
        bob.join(10)
        assert bob.status == 429 and "as many live notification streams" in bob.body
    finally:
        for page in pages:
            page.close()


def test_idle_streams_and_ended_sessions_are_closed(live):
    ann, bob = person(live, "Ann"), person(live, "Bob")
    idle, logged_out = stream(live, ann), stream(live, bob)
    try:
        idle.next("hello")
        logged_out.next("hello")
        r = httpx.post(live.url("/api/account/logout"), headers=bob)
        assert r.status_code == 200, r.text
        assert logged_out.ended.wait(5), "a stream outlived its session"
        assert not idle.ended.is_set()
        assert idle.ended.wait(10), "an idle stream was kept open"
        assert live.community.events.count() == 0  # nothing left behind
    finally:
        idle.close()
        logged_out.close()


def test_a_suspended_account_loses_its_streams(tmp_path):
    from sqlalchemy import update

    with Live(make_app(f"sqlite:///{tmp_path / 's.db'}")) as live:
        live.app.state.config.notifications.admin_poll_seconds = 0.1
        ann = person(live, "Ann")
        page = stream(live, ann)
        try:
            page.next("hello")
            with live.community.store.session() as s:
                s.execute(update(AccountRow).values(suspended=True))
            live.call(live.community.admin.poll())
            assert page.ended.wait(5)
        finally:
            page.close()


# ---------------------------------------------------------------------- two processes
@pytest.fixture
def pair() -> Iterator[tuple[Live, Live]]:
    """Two server processes' apps on one PostgreSQL database and their own Redis."""
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine (the cluster tests run their own)")
    db = postgres_url()
    if db is None:
        pytest.skip("no PostgreSQL reachable (set STARLANES_TEST_POSTGRES)")
    from starlanes.server.store import upgrade

    from .test_scale_cluster import RedisServer

    redis_server = RedisServer()
    try:
        redis_server.start()
        upgrade(db)
        apps = [create_app(db, bot_workers=0, redis_url=redis_server.url,
                           config=test_config(notifications={"heartbeat_seconds": 1}))
                for _ in range(2)]
        with Live(apps[0]) as a, Live(apps[1]) as b:
            yield a, b
    finally:
        redis_server.stop()
        drop_postgres(db)


def test_an_event_reaches_the_process_holding_the_stream(pair):
    a, b = pair
    gid, ann, bob, tokens = two_accounts_game(b)  # made and joined through process B
    first = whose_turn(b, gid, tokens)
    people = [ann, bob]
    waiting = stream(a, people[1 - first])  # the other player's page is on process A
    try:
        waiting.next("hello")
        # a notifier called on process B reaches the page on process A
        account = int(people[1 - first]["X-Account"])
        b.call(b.community.notify(account, {"kind": "rematch", "id": 3}))
        assert waiting.next("rematch") == {"kind": "rematch", "id": 3}
        # a move made through process B makes it this player's turn: A hears of it
        while whose_turn(b, gid, tokens) == first:
            play(b, gid, tokens[first])
        came = waiting.next("turn", timeout=15)
        assert (came["game"], came["your_turn"]) == (gid, True)
    finally:
        waiting.close()
