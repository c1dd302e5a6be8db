"""Accounts through the API: registration, log-in, sessions and their CSRF token, the
log-in rate limits, password changes, deletion, seat links of an account's games and
claiming a guest seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import select

from starlanes.server.app import create_app
from starlanes.server.community.identity import CSRF_HEADER, DELETED_NAME, SESSION_COOKIE
from starlanes.server.community.models import AccountRow
from starlanes.server.store import SeatRow

from .conftest import auth, create, join, test_config, view

CHEAP = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))
"""Argon2 with tiny parameters: the tests hash many passwords on a busy machine."""
PASSWORD = "correct horse battery"


def make_client(url: str, cheap: bool = True, peer: str = "testclient",
                **flags: Any) -> TestClient:
    app = create_app(url, bot_workers=0, config=test_config(**flags))
    if cheap:
        app.state.community.accounts.hasher = CHEAP
    return TestClient(app, client=(peer, 50000))


@pytest.fixture
def site(tmp_path) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path / 'server.db'}",
                     limits={"logins_per_minute": 1000}) as c:
        yield c


def register(c: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()


def login(c: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = c.post("/api/account/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return r.json()


def csrf(token: str) -> dict[str, str]:
    return {CSRF_HEADER: token}


def use_cookie(c: TestClient, cookie: str) -> None:
    c.cookies.clear()
    if cookie:
        c.cookies.set(SESSION_COOKIE, cookie, domain="testserver.local")


# ---------------------------------------------------------------------- the core flow
def test_register_log_out_and_in(db_url: str) -> None:
    with make_client(db_url, limits={"logins_per_minute": 1000}) as c:
        body = register(c, "Ann_1")
        assert body["account"]["name"] == "Ann_1" and body["csrf"]
        me = c.get("/api/account").json()
        assert me == {"account": body["account"], "csrf": body["csrf"]}
        # the same name in other letter case is taken
        r = c.post("/api/account/register", json={"name": "ann_1", "password": PASSWORD})
        assert r.status_code == 409 and "taken" in r.json()["error"]
        assert c.post("/api/account/logout").status_code == 403
        assert c.post("/api/account/logout", headers=csrf(body["csrf"])).status_code == 200
        assert c.get("/api/account").json() == {"account": None, "csrf": None}
        r = c.post("/api/account/login", json={"name": "Ann_1", "password": "wrong password"})
        assert r.status_code == 401
        for odd in ("Ann\x00_1", "Ann_1" + "x" * 30, "Ånn_1"):  # no such name; no 5xx
            r = c.post("/api/account/login", json={"name": odd, "password": PASSWORD})
            assert r.status_code == 401, r.text
        assert c.get("/api/players/Ann%00_1").status_code == 404
        again = login(c, "ANN_1")  # any letter case logs in
        assert again["account"] == body["account"] and again["csrf"] != body["csrf"]
        assert c.get("/api/account").json()["account"]["name"] == "Ann_1"
        gid = create(c, seats=["human", "human"])
        r = c.post(f"/api/games/{gid}/join", json={"name": "x", "seat": 1},
                   headers=csrf(again["csrf"]))
        assert r.status_code == 200
        games = c.get("/api/account/games").json()["games"]
        assert [(g["id"], g["seat"], g["status"], g["url"]) for g in games] == \
            [(gid, 1, "open", f"/games/{gid}")]
        assert set(games[0]) == {"id", "game", "title", "status", "seat", "your_turn",
                                 "url", "updated"}


def test_refused_names_and_passwords(site: TestClient) -> None:
    for name, password in [("ab", PASSWORD), ("x" * 33, PASSWORD), ("has space", PASSWORD),
                           ("semi;colon", PASSWORD), ("Ånn", PASSWORD), ("Ann", "short"),
                           ("Ann", "p" * 201)]:
        r = site.post("/api/account/register", json={"name": name, "password": password})
        assert r.status_code == 422, (name, password, r.text)
        assert site.get("/api/account").json()["account"] is None
    register(site, "a-Z_09")  # every kind of character allowed


def test_passwords_are_argon2_and_rehashed_when_outdated(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with make_client(url) as c:
        register(c, "Bob")
        accounts = c.app.state.community.accounts
        store = accounts.store

        def stored() -> str:
            with store.session() as s:
                return s.scalars(select(AccountRow.password_hash)).one()

        cheap = stored()
        assert cheap.startswith("$argon2id$") and "m=1024,t=1" in cheap
        accounts.hasher = PasswordHash.recommended()  # the server's default parameters
        login(c, "Bob")
        fresh = stored()
        assert fresh.startswith("$argon2id$") and fresh != cheap and "m=1024,t=1" not in fresh
        login(c, "Bob")  # the new hash verifies
        assert stored() == fresh


# ---------------------------------------------------------------------- attacks
def test_wrong_name_and_wrong_password_look_the_same(site: TestClient) -> None:
    register(site, "Cleo")
    accounts = site.app.state.community.accounts
    calls: list[str] = []
    real_verify = accounts.hasher.verify

    class Counting:
        def hash(self, password: str) -> str:
            return CHEAP.hash(password)

        def verify(self, password: str, hashed: str) -> bool:
            calls.append(hashed)
            return real_verify(password, hashed)

        def verify_and_update(self, password: str, hashed: str) -> Any:
            calls.append(hashed)
            return CHEAP.verify_and_update(password, hashed)

    accounts.hasher = Counting()
    unknown = site.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
    wrong = site.post("/api/account/login", json={"name": "Cleo", "password": "not it at all"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json() == {"error": "wrong name or password"}
    # the unknown name was checked against a hash too (about the same time)
    assert len(calls) == 2 and all(h.startswith("$argon2") for h in calls)


def test_log_in_rate_limit_per_address(tmp_path) -> None:
    with make_client(f"sqlite:///{tmp_path / 's.db'}", limits={"logins_per_minute": 3}) as c:
        register(c, "Dan")  # registrations count too
        for _ in range(2):
            r = c.post("/api/account/login", json={"name": "Dan", "password": "guess guess"})
            assert r.status_code == 401
        r = c.post("/api/account/login", json={"name": "Dan", "password": PASSWORD})
        assert r.status_code == 429, r.text
        assert int(r.headers["Retry-After"]) >= 1 and "log-in attempts" in r.json()["error"]
        r = c.post("/api/account/register", json={"name": "Eve", "password": PASSWORD})
        assert r.status_code == 429


def test_log_in_rate_limit_per_name_across_addresses(tmp_path) -> None:
    with make_client(f"sqlite:///{tmp_path / 's.db'}", peer="10.0.0.1",
                     trusted_proxies=["10.0.0.0/8"], limits={"logins_per_minute": 2}) as c:
        def attempt(address: str, name: str = "Fay") -> int:
            return c.post("/api/account/login", json={"name": name, "password": "guessing"},
                          headers={"X-Forwarded-For": address}).status_code

        assert c.post("/api/account/register", json={"name": "Fay", "password": PASSWORD},
                      headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 201
        assert attempt("192.0.2.2") == 401
        assert attempt("192.0.2.3") == 401
        assert attempt("192.0.2.4") == 429  # a fresh address, the same name: refused
        assert attempt("192.0.2.5", "Other") == 401  # another name from a fresh address


def test_writes_need_the_csrf_token(site: TestClient) -> None:
    body = register(site, "Gus")
    gid = create(site, seats=["human", "human"])
    guest = join(site, gid, "guest", 0)
    r = site.post(f"/api/games/{gid}/join", json={"name": "Gus", "seat": 1},
                  headers=csrf(body["csrf"]))
    assert r.status_code == 200
    writes = [("/api/account/logout", {}), ("/api/account/password",
                                            {"old": PASSWORD, "new": "another password"}),
              ("/api/account/delete", {"password": PASSWORD}),
              (f"/api/games/{gid}/my-seat", {}), (f"/api/games/{gid}/claim", {})]
    for headers in ({}, csrf("forged"), csrf(body["csrf"][:-1])):
        for path, payload in writes:
            r = site.post(path, json=payload, headers={**headers, **auth(guest)})
            assert r.status_code == 403, (path, headers, r.text)
            assert CSRF_HEADER in r.json()["error"]
    gid2 = create(site, seats=["human", "human"])
    r = site.post(f"/api/games/{gid2}/join", json={"name": "x"}, headers=csrf("forged"))
    assert r.status_code == 403
    # without the header a join stays a guest's, whatever the cookie
    join(site, gid2, "someone")
    assert [s.account_id for s in site.app.state.service.games[gid2].seats] == [None, None]
    # nothing was changed: the session lives, the account and its seat too
    assert site.get("/api/account").json()["account"]["name"] == "Gus"
    assert [g["id"] for g in site.get("/api/account/games").json()["games"]] == [gid]


def test_guest_gets_401_for_account_routes(site: TestClient) -> None:
    for path, payload in (("/api/account/logout", {}),
                          ("/api/account/password", {"old": PASSWORD, "new": PASSWORD}),
                          ("/api/account/delete", {"password": PASSWORD})):
        r = site.post(path, json=payload, headers=csrf("x"))
        assert r.status_code == 401 and r.json()["error"] == "log in first"
    assert site.get("/api/account/games").status_code == 401
    gid = create(site)
    assert site.post(f"/api/games/{gid}/my-seat", headers=csrf("x")).status_code == 401
    r = site.post(f"/api/games/{gid}/join", json={"name": "x"}, headers=csrf("x"))
    assert r.status_code == 401


# ---------------------------------------------------------------------- sessions
def test_password_change_ends_the_other_sessions(site: TestClient) -> None:
    first = register(site, "Hal")
    first_cookie = site.cookies[SESSION_COOKIE]
    second = login(site, "Hal")
    second_cookie = site.cookies[SESSION_COOKIE]
    # a log-in on a browser with a session ends that one: log the first in again
    use_cookie(site, "")
    first = login(site, "Hal")
    first_cookie = site.cookies[SESSION_COOKIE]
    use_cookie(site, second_cookie)
    assert site.get("/api/account").json()["account"]["name"] == "Hal"
    r = site.post("/api/account/password", json={"old": "wrong one!", "new": "new password 1"},
                  headers=csrf(second["csrf"]))
    assert r.status_code == 403 and "wrong" in r.json()["error"]
    r = site.post("/api/account/password", json={"old": PASSWORD, "new": "new password 1"},
                  headers=csrf(second["csrf"]))
    assert r.status_code == 200, r.text
    assert site.get("/api/account").json()["account"]["name"] == "Hal"  # this one lives
    use_cookie(site, first_cookie)
    assert site.get("/api/account").json() == {"account": None, "csrf": None}
    assert site.get("/api/account/games").status_code == 401
    assert site.post("/api/account/logout", headers=csrf(first["csrf"])).status_code == 401
    site.cookies.clear()
    r = site.post("/api/account/login", json={"name": "Hal", "password": PASSWORD})
    assert r.status_code == 401
    login(site, "Hal", "new password 1")


def test_cookie_attributes(tmp_path) -> None:
    with make_client(f"sqlite:///{tmp_path / 'a.db'}") as c:
        r = c.post("/api/account/register", json={"name": "Ida", "password": PASSWORD})
        cookie = r.headers["set-cookie"].lower()
        assert cookie.startswith(SESSION_COOKIE + "=")
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        assert "path=/" in cookie
    with make_client(f"sqlite:///{tmp_path / 'b.db'}",
                     public_url="https://play.example.org") as c:
        r = c.post("/api/account/register", json={"name": "Ida", "password": PASSWORD})
        assert r.status_code == 201
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "; secure" in cookie


def test_logout_clears_the_cookie(site: TestClient) -> None:
    body = register(site, "Joe")
    cookie = site.cookies[SESSION_COOKIE]
    r = site.post("/api/account/logout", headers=csrf(body["csrf"]))
    assert r.status_code == 200 and SESSION_COOKIE in r.headers["set-cookie"]
    use_cookie(site, cookie)  # the old value is worth nothing now
    assert site.get("/api/account").json()["account"] is None


# ---------------------------------------------------------------------- deletion
def test_deletion(db_url: str) -> None:
    with make_client(db_url, limits={"logins_per_minute": 1000}) as c:
        body = register(c, "Kim")
        gid = create(c, seats=["human", "human"])
        r = c.post(f"/api/games/{gid}/join", json={"name": "ignored", "seat": 0},
                   headers=csrf(body["csrf"]))
        token = r.json()["token"]
        assert view(c, gid, token)["seats"][0]["name"] == "Kim"
        r = c.post("/api/account/delete", json={"password": "wrong password"},
                   headers=csrf(body["csrf"]))
        assert r.status_code == 403
        r = c.post("/api/account/delete", json={"password": PASSWORD},
                   headers=csrf(body["csrf"]))
        assert r.status_code == 200, r.text
        assert c.get("/api/account").json()["account"] is None
        assert view(c, gid)["seats"][0]["name"] == DELETED_NAME
        lobby = {g["id"]: g for g in c.get("/api/games").json()["games"]}
        assert lobby[gid]["seats"][0]["name"] == DELETED_NAME
        store = c.app.state.service.store
        with store.session() as s:
            row = s.scalars(select(AccountRow)).one()
            seat = s.scalars(select(SeatRow).where(SeatRow.game_id == gid,
                                                   SeatRow.seat == 0)).one()
            assert (row.name, row.deleted, row.password_hash) == (DELETED_NAME, True, "")
            assert row.name_key != "kim"
            assert (seat.name, seat.account_id) == (DELETED_NAME, row.id)
        r = c.post("/api/account/login", json={"name": "Kim", "password": PASSWORD})
        assert r.status_code == 401
        assert c.get("/api/players/Kim").status_code == 404
        register(c, "kim")  # the name is free again


# ---------------------------------------------------------------------- seats
def test_my_seat_gives_a_fresh_link_and_the_old_one_stops(site: TestClient) -> None:
    body = register(site, "Lou")
    gid = create(site, seats=["human", "human"])
    r = site.post(f"/api/games/{gid}/join", json={"name": "x", "seat": 1},
                  headers=csrf(body["csrf"]))
    old = r.json()["token"]
    assert view(site, gid, old)["you"] == 1
    r = site.post(f"/api/games/{gid}/my-seat", headers=csrf(body["csrf"]))
    assert r.status_code == 200, r.text
    fresh = r.json()
    assert fresh["seat"] == 1 and fresh["link"] == f"/games/{gid}?token={fresh['token']}"
    assert site.get(f"/api/games/{gid}/view", headers=auth(old)).status_code == 401
    assert view(site, gid, fresh["token"])["you"] == 1
    # a seat the account does not hold
    r = site.post(f"/api/games/{gid}/my-seat", json={"seat": 0}, headers=csrf(body["csrf"]))
    assert r.status_code == 403
    other = create(site)
    assert site.post(f"/api/games/{other}/my-seat",
                     headers=csrf(body["csrf"])).status_code == 403
    assert site.post("/api/games/nosuchgame/my-seat",
                     headers=csrf(body["csrf"])).status_code == 404


def test_claim_a_guest_seat(site: TestClient) -> None:
    gid = create(site, seats=["human", "human"])
    token = join(site, gid, "guest", 0)
    body = register(site, "Max")
    assert site.post(f"/api/games/{gid}/claim", headers={**csrf(body["csrf"]),
                                                          **auth("wrong")}).status_code == 401
    r = site.post(f"/api/games/{gid}/claim", headers={**csrf(body["csrf"]), **auth(token)})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 0
    assert site.app.state.service.games[gid].seats[0].account_id == body["account"]["id"]
    games = site.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seat"]) for g in games] == [(gid, 0)]
    # claiming again is harmless; another account is refused
    r = site.post(f"/api/games/{gid}/claim", headers={**csrf(body["csrf"]), **auth(token)})
    assert r.status_code == 200
    site.cookies.clear()
    other = register(site, "Ned")
    r = site.post(f"/api/games/{gid}/claim", headers={**csrf(other["csrf"]), **auth(token)})
    assert r.status_code == 409
    with site.app.state.service.store.session() as s:
        seat = s.scalars(select(SeatRow).where(SeatRow.game_id == gid,
                                               SeatRow.seat == 0)).one()
        assert seat.account_id == body["account"]["id"]


def test_my_games_says_whose_turn(site: TestClient) -> None:
    body = register(site, "Oda")
    gid = create(site, seats=["human", "human"])
    for seat in (0, 1):
        r = site.post(f"/api/games/{gid}/join", json={"name": "x", "seat": seat},
                      headers=csrf(body["csrf"]))
        assert r.status_code == 200
    games = site.get("/api/account/games").json()["games"]
    assert len(games) == 1
    live = site.app.state.service.games[gid]
    assert games[0]["status"] == "in progress"
    assert games[0]["your_turn"] is True and games[0]["seat"] == live.waiting_for()


def test_suspended_account(site: TestClient) -> None:
    body = register(site, "Pam")
    with site.app.state.service.store.session() as s:
        s.get(AccountRow, body["account"]["id"]).suspended = True
    assert site.get("/api/account").json()["account"] is None  # its session stops at once
    r = site.post("/api/account/login", json={"name": "Pam", "password": "not the one"})
    assert r.status_code == 401 and r.json()["error"] == "wrong name or password"
    r = site.post("/api/account/login", json={"name": "Pam", "password": PASSWORD})
    assert r.status_code == 403 and "suspended" in r.json()["error"]
    assert SESSION_COOKIE not in r.headers.get("set-cookie", "")


def test_deletion_reaches_the_viewers_at_once(site: TestClient) -> None:
    body = register(site, "Quentin")
    gid = create(site, seats=["human", "human"])
    site.post(f"/api/games/{gid}/join", json={"name": "x", "seat": 1},
              headers=csrf(body["csrf"]))
    with site.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["seats"][1]["name"] == "Quentin"
        r = site.post("/api/account/delete", json={"password": PASSWORD},
                      headers=csrf(body["csrf"]))
        assert r.status_code == 200
        assert ws.receive_json()["seats"][1]["name"] == DELETED_NAME


def test_password_guesses_through_a_session_are_limited_too(tmp_path) -> None:
    with make_client(f"sqlite:///{tmp_path / 's.db'}", limits={"logins_per_minute": 3}) as c:
        body = register(c, "Rex")  # one attempt from this address
        wrong = {"old": "not the password", "new": "whatever 123"}
        for status in (403, 403, 429):
            r = c.post("/api/account/password", json=wrong, headers=csrf(body["csrf"]))
            assert r.status_code == status, r.text
        r = c.post("/api/account/delete", json={"password": PASSWORD},
                   headers=csrf(body["csrf"]))
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert c.get("/api/account").json()["account"]["name"] == "Rex"
