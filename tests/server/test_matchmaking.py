"""Play now and invitations: pairing by rating, bots after the wait, seating once only (two
rounds at once, SQLite and PostgreSQL), leaving, a restart, invitations, CSRF and guests.
The matchmaker's clock is driven by the tests and its rounds are run by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from starlanes.server.app import create_app
from starlanes.server.community.identity import CSRF_HEADER, SESSION_COOKIE, Sessions
from starlanes.server.community.matchmaking import (
    MODES,
    Matchmaking,
    Waiting,
    plan_tables,
)
from starlanes.server.community.models import AccountRow, InvitationRow, QueueRow
from starlanes.server.store import Store

from .conftest import CHROMIUM, Server, create, test_config, view


class Clock:
    """A clock the test moves (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


RATINGS: dict[str, float] = {}


def make_app(url: str, monkeypatch: pytest.MonkeyPatch, clock: Clock) -> Any:
    app = create_app(url, bot_workers=0, config=test_config(queue_wait_seconds=60))
    community = app.state.community
    community.matchmaking.interval = None  # the test runs every round itself
    community.matchmaking.clock = clock
    monkeypatch.setattr(community.ratings, "rating",
                        lambda key, game: {"rating": RATINGS.get(key, 1500.0)}, raising=False)
    monkeypatch.setattr(community.ratings, "nearest_bot", lambda game, rating: "random",
                        raising=False)
    return app


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path, monkeypatch, clock) -> Iterator[TestClient]:
    app = make_app(f"sqlite:///{tmp_path / 'server.db'}", monkeypatch, clock)
    with TestClient(app) as c:
        yield c


class Player:
    """An account made directly in the database, with a session."""

    def __init__(self, client: TestClient, name: str, rating: float = 1500.0) -> None:
        community = client.app.state.community  # type: ignore[attr-defined]
        with community.store.session() as s:
            row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
            s.add(row)
            s.flush()
            self.id = row.id
        self.name = name
        new = community.sessions.create(self.id)
        self.cookie, self.csrf = new.cookie, new.csrf
        self.client = client
        RATINGS[f"a:{self.id}"] = rating

    def headers(self, csrf: bool = True) -> dict[str, str]:
        h = {"Cookie": f"{SESSION_COOKIE}={self.cookie}"}
        if csrf:
            h[CSRF_HEADER] = self.csrf
        return h

    def call(self, method: str, path: str, body: Any = None, csrf: bool = True) -> Any:
        return self.client.request(method, path, json=body, headers=self.headers(csrf))

    def play(self, game: str = "rift-domination", players: int = 2,
             mode: str = "realtime") -> Any:
        r = self.call("POST", "/api/play", {"game": game, "players": players, "mode": mode})
        assert r.status_code == 201, r.text
        return r.json()

    def entry(self) -> dict[str, Any]:
        r = self.call("GET", "/api/play")
        assert r.status_code == 200, r.text
        return r.json()


def tick(client: TestClient, mm: Matchmaking | None = None) -> list[str]:
    mm = mm or client.app.state.community.matchmaking  # type: ignore[attr-defined]
    return client.portal.call(mm.tick)  # type: ignore[union-attr]


def live(client: TestClient, game_id: str) -> Any:
    return client.app.state.service.games[game_id]  # type: ignore[attr-defined]


# ---------------------------------------------------------------------- pairing
def test_plan_tables_pairs_near_ratings_and_fills_with_bots_after_the_wait() -> None:
    entries = [Waiting(1, 1, 1500, 0), Waiting(2, 2, 1900, 0), Waiting(3, 3, 1510, 0),
               Waiting(4, 4, 1910, 0), Waiting(5, 5, 2400, 0)]
    tables = plan_tables(entries, 2, at=0, wait_seconds=60)
    assert sorted(sorted(m.entry_id for m in t.members) for t in tables) == [[1, 3], [2, 4]]
    assert all(t.bots == 0 for t in tables)
    assert plan_tables(entries[4:], 2, at=59, wait_seconds=60) == []
    late = plan_tables(entries[4:], 2, at=60, wait_seconds=60)
    assert [(t.members[0].entry_id, t.bots) for t in late] == [(5, 1)]
    # the window widens with the wait: 1500 and 1900 are apart by 400, accepted after 60 s
    assert plan_tables(entries[:2], 2, at=30, wait_seconds=600) == []
    assert len(plan_tables(entries[:2], 2, at=60, wait_seconds=600)) == 1


def test_close_ratings_are_seated_together(client: TestClient) -> None:
    players = [Player(client, n, r) for n, r in
               (("ann", 1500), ("bea", 1900), ("cid", 1510), ("dan", 1910))]
    for p in players:
        assert p.play()["status"] == "waiting"
    made = tick(client)
    assert len(made) == 2
    entries = {p.name: p.entry() for p in players}
    assert all(e["status"] == "seated" for e in entries.values())
    assert entries["ann"]["game_id"] == entries["cid"]["game_id"]
    assert entries["bea"]["game_id"] == entries["dan"]["game_id"]
    assert entries["ann"]["game_id"] != entries["bea"]["game_id"]
    game = live(client, entries["ann"]["game_id"])
    assert game.row.rated and game.row.clock_kind == "game" and game.row.timeout == "lose"
    assert game.row.clock_seconds == MODES["realtime"].clock_seconds
    assert {s.account_id for s in game.seats} == {players[0].id, players[2].id}
    e = entries["ann"]
    assert e["link"] == f"/games/{e['game_id']}?token={e['token']}"
    assert view(client, e["game_id"], e["token"])["you"] == e["seat"]
    assert tick(client) == []  # nobody left waiting


def test_bots_fill_the_table_after_the_wait_not_before(client: TestClient,
                                                      clock: Clock) -> None:
    alone = Player(client, "eve", 1700)
    alone.play(players=3, mode="correspondence")
    assert tick(client) == []
    clock.t += 59
    assert tick(client) == []
    waiting = alone.entry()
    assert waiting["status"] == "waiting" and waiting["waited_seconds"] == 59
    clock.t += 1
    made = tick(client)
    assert len(made) == 1
    game = live(client, made[0])
    assert sorted(s.kind for s in game.seats) == ["human", "random", "random"]
    assert game.row.clock_kind == "move" and game.row.timeout == "bot"
    assert game.row.clock_seconds == 3 * 86400
    seated = alone.entry()
    assert seated["status"] == "seated" and seated["game_id"] == made[0]
    assert game.seats[seated["seat"]].account_id == alone.id


def _seat_once(client: TestClient, clock: Clock) -> None:
    community = client.app.state.community  # type: ignore[attr-defined]
    other = Matchmaking(community, clock=clock, interval=None)  # a second process
    players = [Player(client, f"p{i}", 1500 + i) for i in range(6)]
    for p in players:
        p.play()
    client.portal.call(other.start)  # loads the queue from the database

    async def rounds() -> list[list[str]]:
        return await asyncio.gather(community.matchmaking.tick(), other.tick(),
                                    community.matchmaking.tick())

    made = [g for found in client.portal.call(rounds) for g in found]
    assert len(made) == len(set(made)) == 3
    games = {p.entry()["game_id"] for p in players}
    assert games == set(made)
    with community.store.session() as s:
        rows = list(s.query(QueueRow).filter(QueueRow.account_id.in_([p.id for p in players])))
    assert sorted(r.game_id for r in rows) == sorted(made * 2)
    for game_id in made:
        assert sum(s.account_id is not None for s in live(client, game_id).seats) == 2
    assert tick(client) == [] and client.portal.call(other.tick) == []


def test_concurrent_rounds_seat_an_entry_once(db_url: str, monkeypatch, clock) -> None:
    app = make_app(db_url, monkeypatch, clock)
    with TestClient(app) as c:
        _seat_once(c, clock)


def test_leaving_the_queue(client: TestClient, clock: Clock) -> None:
    p = Player(client, "fay")
    p.play()
    r = p.call("POST", "/api/play", {"game": "rift-domination", "players": 2,
                                     "mode": "realtime"})
    assert r.status_code == 409  # one open entry per account
    assert p.call("DELETE", "/api/play").json() == {"status": "left"}
    assert p.entry() == {"status": "none"}
    clock.t += 600
    assert tick(client) == []
    assert p.call("DELETE", "/api/play").status_code == 404
    assert p.play(mode="correspondence")["status"] == "waiting"  # may queue again


def test_suspended_players_are_not_seated(client: TestClient, clock: Clock) -> None:
    kept, gone = Player(client, "quin", 1500), Player(client, "rex", 1500)
    kept.play()
    gone.play()
    with client.app.state.community.store.session() as s:  # type: ignore[attr-defined]
        s.get(AccountRow, gone.id).suspended = True
    assert tick(client) == []
    clock.t += 60
    made = tick(client)
    assert len(made) == 1
    assert sorted(s.kind for s in live(client, made[0]).seats) == ["human", "random"]
    assert kept.entry()["game_id"] == made[0]


def test_a_game_that_cannot_be_made_leaves_the_players_waiting(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlanes.server.errors import TooMany

    pair = [Player(client, "uma", 1500), Player(client, "vic", 1520)]
    for p in pair:
        p.play()
    service = client.app.state.service  # type: ignore[attr-defined]

    async def full(*_args: Any, **_kw: Any) -> Any:
        raise TooMany("the server holds its most unfinished games")

    with monkeypatch.context() as m:
        m.setattr(service, "create", full)
        assert tick(client) == []
    assert [p.entry()["status"] for p in pair] == ["waiting", "waiting"]
    made = tick(client)
    assert len(made) == 1 and {p.entry()["game_id"] for p in pair} == set(made)


def test_bad_requests(client: TestClient) -> None:
    p = Player(client, "gus")
    for body, status in (({"game": "rift-domination", "players": 2, "mode": "bullet"}, 422),
                         ({"game": "interstellar-ambitions", "players": 2}, 422),
                         ({"game": "no-such-game", "players": 2}, 400)):
        r = p.call("POST", "/api/play", body)
        assert r.status_code == status, r.text
        assert r.json()["error"]
    modes = client.get("/api/play/modes").json()
    assert [m["name"] for m in modes["modes"]] == ["realtime", "correspondence"]
    assert modes["queue_wait_seconds"] == 60


def test_the_queue_survives_a_restart(tmp_path, monkeypatch, clock) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with TestClient(make_app(url, monkeypatch, clock)) as c:
        p = Player(c, "hal", 1600)
        p.play()
        cookie, csrf, pid = p.cookie, p.csrf, p.id
    clock.t += 30
    with TestClient(make_app(url, monkeypatch, clock)) as c:
        p.client = c
        waiting = p.entry()
        assert waiting["status"] == "waiting" and waiting["waited_seconds"] >= 0
        clock.t += 60
        made = tick(c)
        assert len(made) == 1
        assert p.entry()["token"]
    with TestClient(make_app(url, monkeypatch, clock)) as c:
        p.client = c
        seated = p.entry()
        assert (seated["status"], seated["game_id"], seated["token"]) == ("seated", made[0],
                                                                          None)
        assert live(c, made[0]).seats[seated["seat"]].account_id == pid
        assert (cookie, csrf) == (p.cookie, p.csrf)


def test_claims_left_by_a_stopped_process_are_released(client: TestClient) -> None:
    import time

    old, fresh = Player(client, "sal"), Player(client, "tom")
    old.play()
    fresh.play()
    community = client.app.state.community  # type: ignore[attr-defined]
    marks = {old.id: f"claim-{int(time.time()) - 3600}-00000000",
             fresh.id: f"claim-{int(time.time())}-00000000"}
    with community.store.session() as s:
        for row in s.query(QueueRow):
            row.game_id = marks[row.account_id]
    community.matchmaking.load()  # as at start
    assert old.entry()["status"] == "waiting"  # its claim was an hour old: released
    assert fresh.entry()["status"] == "waiting"  # being seated by another process
    with community.store.session() as s:
        rows = {r.account_id: r.game_id for r in s.query(QueueRow)}
    assert rows == {old.id: None, fresh.id: marks[fresh.id]}
    queued = [w.account_id for b in community.matchmaking.queue.values() for w in b.values()]
    assert queued == [old.id]


# ---------------------------------------------------------------------- invitations
def _seated_game(client: TestClient, host: Player) -> str:
    game_id = create(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    client.portal.call(service.join, game_id, host.name, 0, "", host.id)  # type: ignore[union-attr]
    return game_id


def test_invitation_accepted(client: TestClient) -> None:
    host, guest = Player(client, "ida"), Player(client, "Jon")
    game_id = _seated_game(client, host)
    r = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "jon"})
    assert r.status_code == 201, r.text
    assert r.json()["to"] == "Jon"
    again = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "Jon"})
    assert again.status_code == 409
    mine = guest.call("GET", "/api/invitations").json()["invitations"]
    assert [(i["game_id"], i["seat"], i["from"]) for i in mine] == [(game_id, 1, "ida")]
    assert host.call("GET", "/api/invitations").json() == {"invitations": []}
    # only the invited account may answer
    assert host.call("POST", f"/api/invitations/{mine[0]['id']}/accept").status_code == 404
    taken = guest.call("POST", f"/api/invitations/{mine[0]['id']}/accept")
    assert taken.status_code == 200, taken.text
    seat = taken.json()
    assert seat["seat"] == 1 and seat["link"] == f"/games/{game_id}?token={seat['token']}"
    assert view(client, game_id, seat["token"])["you"] == 1
    assert live(client, game_id).seats[1].account_id == guest.id
    assert guest.call("POST", f"/api/invitations/{mine[0]['id']}/accept").status_code == 409
    # the seat is taken now
    r = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "Jon"})
    assert r.status_code == 403


def test_invitation_declined_and_refusals(client: TestClient) -> None:
    host, guest, outsider = Player(client, "kim"), Player(client, "lou"), Player(client, "max")
    game_id = _seated_game(client, host)
    unknown = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "nobody"})
    assert unknown.status_code == 404 and unknown.json()["error"]
    assert host.call("POST", f"/api/games/{game_id}/invite",
                     {"seat": 0, "name": "lou"}).status_code == 403  # host's own seat
    assert outsider.call("POST", f"/api/games/{game_id}/invite",
                         {"seat": 1, "name": "lou"}).status_code == 403  # holds no seat
    assert host.call("POST", f"/api/games/{game_id}/invite",
                     {"seat": 1, "name": "KIM"}).status_code == 422  # oneself
    assert host.call("POST", "/api/games/nope/invite",
                     {"seat": 1, "name": "lou"}).status_code == 404
    r = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "lou"})
    iid = r.json()["id"]
    assert guest.call("POST", f"/api/invitations/{iid}/decline").json()["status"] == "declined"
    assert guest.call("GET", "/api/invitations").json() == {"invitations": []}
    assert guest.call("POST", f"/api/invitations/{iid}/accept").status_code == 409
    assert live(client, game_id).seats[1].is_open
    # declined: the seat may be offered again, here to another account
    r = host.call("POST", f"/api/games/{game_id}/invite", {"seat": 1, "name": "max"})
    assert r.status_code == 201
    # a plain join of an invited seat is allowed; the invitation is then withdrawn
    client.post(f"/api/games/{game_id}/join", json={"name": "walk-in", "seat": 1})
    assert outsider.call("GET", "/api/invitations").json() == {"invitations": []}


# ---------------------------------------------------------------------- who may ask
def test_csrf_and_guests_are_refused(client: TestClient) -> None:
    p = Player(client, "ned")
    body = {"game": "rift-domination", "players": 2, "mode": "realtime"}
    assert p.call("POST", "/api/play", body, csrf=False).status_code == 403
    assert p.call("DELETE", "/api/play", csrf=False).status_code == 403
    assert p.entry() == {"status": "none"}
    for method, path in (("POST", "/api/play"), ("GET", "/api/play"), ("DELETE", "/api/play"),
                         ("GET", "/api/invitations"), ("POST", "/api/invitations/1/accept"),
                         ("POST", "/api/invitations/1/decline")):
        r = client.request(method, path, json=body if method == "POST" else None)
        assert r.status_code == 401, (method, path, r.text)
    with client.app.state.community.store.session() as s:  # type: ignore[attr-defined]
        s.get(AccountRow, p.id).suspended = True
    assert p.call("POST", "/api/play", body).status_code == 401


# ---------------------------------------------------------------------- the lobby panel
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")
def test_lobby_panel_queues_and_sends_to_the_seat(browser, tmp_path) -> None:
    config = tmp_path / "server.toml"
    config.write_text("queue_wait_seconds = 0\n")
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    server = Server(url, config=str(config))
    server.start()
    try:
        store = Store(url)
        with store.session() as s:
            rows = [AccountRow(name=n, name_key=n.casefold(), password_hash="")
                    for n in ("Oda", "Pia")]
            s.add_all(rows)
            s.flush()
            account_id, host_id = rows[0].id, rows[1].id
        session = Sessions(store).create(account_id)
        r = httpx.post(server.url("/api/games"), json={"game": "rift-domination", "players": 2,
                                                       "seats": ["human", "human"]})
        invited = r.json()["id"]
        with store.session() as s:
            s.add(InvitationRow(game_id=invited, seat=1, from_id=host_id, to_id=account_id))
        errors: list[str] = []
        guest = browser.new_page()
        guest.on("pageerror", lambda e: errors.append(str(e)))
        guest.goto(server.url("/"))
        guest.locator("#play-guest").wait_for()
        assert "log in" in guest.locator("#play-now").inner_text().lower()
        assert guest.locator("#play-form").count() == 0
        guest.close()
        context = browser.new_context()
        context.add_cookies([{"name": SESSION_COOKIE, "value": session.cookie,
                              "url": server.url("/")}])
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url("/"))
        invitation = page.locator("#play-invitations li")
        invitation.wait_for()
        assert "Pia invites you" in invitation.inner_text()
        invitation.locator("button.accept").click()
        page.wait_for_url(f"**/games/{invited}?token=*", timeout=20_000)
        page.goto(server.url("/"))
        page.locator("#play-form").wait_for()
        assert page.locator("#play-invitations li").count() == 0
        page.select_option("#play-game", "rift-domination")
        page.select_option("#play-players", "2")
        page.select_option("#play-mode", "correspondence")
        page.locator("#play-start").click()
        # nobody else waits: after the (zero) wait a bot takes the other seat and the
        # panel sends the player to the seat
        page.wait_for_url("**/games/*?token=*", timeout=20_000)
        assert errors == []
        context.close()
    finally:
        server.kill()
