"""Chat at the tables through the API: who writes and reads which channel, plain text and
its limits, the rate per writer, mutes, reports and suspended accounts; and, in a real
browser, a message full of markup shown as the text it is."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from starlanes.server.app import create_app
from starlanes.server.community.identity import SESSION_COOKIE, Sessions
from starlanes.server.community.models import AccountRow, ReportRow
from starlanes.server.store import Store

from .conftest import CHROMIUM, Server, auth, create, join, test_config


def account(client: TestClient, name: str) -> dict[str, str]:
    """A new account ``name`` with a session: the headers of its requests (cookie, CSRF)."""
    store = client.app.state.community.store
    with store.session() as s:
        row = AccountRow(name=name, name_key=name.casefold(), password_hash="")
        s.add(row)
        s.flush()
        account_id = row.id
    new = Sessions(store).create(account_id)
    return {"Cookie": f"{SESSION_COOKIE}={new.cookie}", "X-CSRF-Token": new.csrf,
            "X-Account-Id": str(account_id)}


def say(client: TestClient, gid: str, headers: dict[str, str], text: str,
        channel: str = "players") -> httpx.Response:
    return client.post(f"/api/games/{gid}/chat", json={"channel": channel, "text": text},
                       headers=headers)


def read(client: TestClient, gid: str, headers: dict[str, str] | None = None,
         after: int = 0) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/chat?after={after}", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


def texts(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["channel"], m["text"]) for m in answer["messages"]]


@pytest.fixture
def table(client: TestClient) -> tuple[str, str, str]:
    gid = create(client)
    return gid, join(client, gid, "Ann", 0), join(client, gid, "Bob", 1)


def test_players_write_everyone_reads(client, table):
    gid, ann, _bob = table
    r = say(client, gid, auth(ann), "  good luck\x1b[31m\x00 all\u202e!\t\n\n\n\nhave fun  ")
    assert r.status_code == 201, r.text
    msg = r.json()
    assert msg["text"] == "good luck[31m all!\n\nhave fun"  # controls gone, breaks kept
    assert (msg["channel"], msg["name"], msg["seat"]) == ("players", "Ann", 0)
    anonymous = read(client, gid)
    assert texts(anonymous) == [("players", msg["text"])]
    assert anonymous["write"] is None
    assert read(client, gid, after=msg["id"])["messages"] == []
    assert say(client, gid, auth(ann), "   \x07 ").status_code == 422  # empty once cleaned


def test_spectators_channel(client, table):
    gid, ann, _bob = table
    carol = account(client, "Carol")
    # a spectator cannot write to the players, nor a guest anywhere, nor a player to them
    assert say(client, gid, carol, "psst").status_code == 403
    assert say(client, gid, {}, "hi", "spectators").status_code == 401
    assert say(client, gid, auth(ann), "hi", "spectators").status_code == 403
    no_csrf = {"Cookie": carol["Cookie"]}
    assert say(client, gid, no_csrf, "hi", "spectators").status_code == 403
    assert say(client, gid, carol, "hi", "radio").status_code == 422
    assert say(client, gid, carol, "nice move", "spectators").status_code == 201
    assert texts(read(client, gid)) == [("spectators", "nice move")]  # guests read it
    # an unrated game: the players read the spectators too
    assert texts(read(client, gid, auth(ann))) == [("spectators", "nice move")]
    assert read(client, gid, carol)["write"] == "spectators"


def test_rated_game_in_progress_hides_spectators_from_players(client, table):
    gid, ann, bob = table
    live = client.app.state.service.games[gid]
    live.row.rated = True
    dave = account(client, "Dave")
    # an account holding a seat is a player (cookie and CSRF, no token)
    live.seats[1].account_id = int(dave["X-Account-Id"])
    carol = account(client, "Carol")
    assert say(client, gid, carol, "play the left lane", "spectators").status_code == 201
    assert say(client, gid, auth(ann), "gl hf").status_code == 201
    r = say(client, gid, dave, "you too")
    assert r.status_code == 201 and r.json()["seat"] == 1, r.text
    assert say(client, gid, dave, "hint?", "spectators").status_code == 403
    for player in (auth(ann), auth(bob), dave):
        seen = read(client, gid, player)
        assert texts(seen) == [("players", "gl hf"), ("players", "you too")]
        assert seen["channels"] == ["players"]
    assert len(read(client, gid, carol)["messages"]) == 3
    # a guest could be a player who logged out: the spectators are not theirs to read yet
    assert read(client, gid)["channels"] == ["players"]
    # a report of a message the reporter cannot read is refused like a missing one
    hidden = read(client, gid, carol)["messages"][0]["id"]
    assert client.post(f"/api/chat/{hidden}/report", json={"reason": "x"},
                       headers=auth(ann)).status_code == 404
    live.row.outcome = {"ranks": [0, 1]}  # the game is over: the players read everything
    assert ("spectators", "play the left lane") in texts(read(client, gid, auth(ann)))


def test_length_limit(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", bot_workers=0,
                     config=test_config(limits={"chat_message_chars": 10}))
    with TestClient(app) as c:
        gid = create(c)
        ann = join(c, gid, "Ann", 0)
        assert say(c, gid, auth(ann), "0123456789").status_code == 201
        r = say(c, gid, auth(ann), "0123456789x")
        assert r.status_code == 422 and "at most 10 characters" in r.json()["error"]
        # counted after cleaning: controls and the spaces around do not count
        assert say(c, gid, auth(ann), "  01234\x0156789  ").status_code == 201


def test_rate_limit(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", bot_workers=0,
                     config=test_config(limits={"chat_messages_per_minute": 3}))
    with TestClient(app) as c:
        gid = create(c)
        ann, bob = join(c, gid, "Ann", 0), join(c, gid, "Bob", 1)
        for i in range(3):
            assert say(c, gid, auth(ann), f"m{i}").status_code == 201
        r = say(c, gid, auth(ann), "one too many")
        assert r.status_code == 429, r.text
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "too many chat messages" in r.json()["error"]
        assert say(c, gid, auth(bob), "my own rate").status_code == 201  # per writer


def test_mute_hides(client, table):
    gid, _ann, _bob = table
    carol, erin = account(client, "Carol"), account(client, "Erin")
    assert say(client, gid, carol, "spam spam", "spectators").status_code == 201
    assert say(client, gid, erin, "hello", "spectators").status_code == 201
    r = client.post("/api/mutes", json={"name": "carol"}, headers=erin)
    assert r.status_code == 200 and r.json() == {"muted": ["Carol"]}, r.text
    seen = read(client, gid, erin)
    assert texts(seen) == [("spectators", "hello")] and seen["muted"] == ["Carol"]
    assert len(read(client, gid, carol)["messages"]) == 2  # only the muter's reading changes
    assert client.post("/api/mutes", json={"name": "Erin"}, headers=erin).status_code == 422
    assert client.post("/api/mutes", json={"name": "nobody"}, headers=erin).status_code == 404
    assert client.post("/api/mutes", json={"name": "Carol"},
                       headers={"Cookie": erin["Cookie"]}).status_code == 403  # no CSRF
    r = client.delete("/api/mutes/Carol", headers=erin)
    assert r.status_code == 200 and r.json() == {"muted": []}
    assert len(read(client, gid, erin)["messages"]) == 2


def test_report_stored(client, table):
    gid, ann, bob = table
    msg = say(client, gid, auth(ann), "rude words").json()
    r = client.post(f"/api/chat/{msg['id']}/report", json={"reason": "insults\x00"},
                    headers=auth(bob))
    assert r.status_code == 201, r.text
    carol = account(client, "Carol")
    assert client.post(f"/api/chat/{msg['id']}/report", json={},
                       headers=carol).status_code == 201
    assert client.post(f"/api/chat/{msg['id']}/report", json={}).status_code == 401
    assert client.post("/api/chat/99999/report", json={}, headers=carol).status_code == 404
    with client.app.state.community.store.session() as s:
        rows = s.query(ReportRow).order_by(ReportRow.id).all()
        assert [(x.message_id, x.reporter, x.reason, x.handled) for x in rows] == [
            (msg["id"], "Bob (seat 1)", "insults", False), (msg["id"], "Carol", "", False)]
    for _ in range(4):  # five a minute per reporter
        client.post(f"/api/chat/{msg['id']}/report", json={}, headers=carol)
    assert client.post(f"/api/chat/{msg['id']}/report", json={},
                       headers=carol).status_code == 429


def test_suspended_account_refused(client, table):
    gid, ann, _bob = table
    carol = account(client, "Carol")
    live = client.app.state.service.games[gid]
    live.seats[0].account_id = int(carol["X-Account-Id"])  # Ann's seat is Carol's account
    assert say(client, gid, auth(ann), "before").status_code == 201
    with client.app.state.community.store.session() as s:
        s.get(AccountRow, int(carol["X-Account-Id"])).suspended = True
    assert say(client, gid, auth(ann), "after").status_code == 403  # the seat's token
    assert say(client, gid, carol, "after").status_code == 401  # the session is refused
    assert texts(read(client, gid)) == [("players", "before")]


def test_on_each_database(db_url):
    """Messages, the channel filter, a mute and a report on SQLite and PostgreSQL."""
    with TestClient(create_app(db_url, bot_workers=0, config=test_config())) as c:
        gid = create(c)
        ann = join(c, gid, "Ann", 0)
        c.app.state.service.games[gid].row.rated = True
        carol, erin = account(c, "Carol"), account(c, "Erin")
        assert say(c, gid, auth(ann), "hello\nworld").status_code == 201
        assert say(c, gid, carol, "go left", "spectators").status_code == 201
        assert c.post("/api/mutes", json={"name": "CAROL"}, headers=erin).status_code == 200
        assert texts(read(c, gid, erin)) == [("players", "hello\nworld")]
        assert texts(read(c, gid, auth(ann))) == [("players", "hello\nworld")]
        seen = read(c, gid, carol)
        assert [m["name"] for m in seen["messages"]] == ["Ann", "Carol"]
        assert seen["messages"][0]["at"].endswith("Z")
        first = seen["messages"][0]["id"]
        assert c.post(f"/api/chat/{first}/report", json={"reason": "r"},
                      headers=carol).status_code == 201


def test_wrong_token_and_unknown_game(client, table):
    gid, _ann, _bob = table
    assert say(client, gid, auth(secrets.token_urlsafe(16)), "hi").status_code == 401
    assert client.get("/api/games/nope/chat").status_code == 404


# ---------------------------------------------------------------------- browser
SHOTS = Path(os.environ.get("STARLANES_SCREENSHOTS",
                            Path(__file__).resolve().parents[2] / "docs" / "screenshots"))
MARKUP = "<img src=x onerror=alert(1)> and <b>bold</b>"


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")
def test_markup_shown_as_text(browser, tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'chat.db'}")
    server.start()
    try:
        r = httpx.post(server.url("/api/games"), json={"game": "rift-domination", "players": 2,
                                                       "seats": ["human", "human"]})
        gid = r.json()["id"]
        tokens = [httpx.post(server.url(f"/api/games/{gid}/join"),
                             json={"name": name, "seat": i}).json()["token"]
                  for i, name in enumerate(("Ann", "Bob"))]
        r = httpx.post(server.url(f"/api/games/{gid}/chat"), headers=auth(tokens[1]),
                       json={"channel": "players", "text": MARKUP})
        assert r.status_code == 201, r.text
        dialogs: list[str] = []
        errors: list[str] = []
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url(f"/games/{gid}?token={tokens[0]}"))
        box = page.locator("#chat-box")
        box.locator(".chat-text", has_text="onerror").wait_for()
        assert box.locator(".chat-text").first.inner_text() == MARKUP
        assert box.locator("img").count() == 0 and box.locator("b").count() == 0
        page.locator("#chat-input").fill("gl <i>hf</i>")
        page.locator("#chat-send").click()
        box.locator(".chat-text", has_text="gl <i>hf</i>").wait_for()
        assert box.locator("i").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box.scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        box.screenshot(path=str(SHOTS / "chat.png"))
        # report Bob's message with a reason, then mute him (a guest: in this browser)
        bobs = box.locator(".chat-message", has_text="onerror")
        bobs.get_by_role("button", name="report this message by Bob").click()
        bobs.get_by_label("why you report it").fill("html spam")
        bobs.get_by_role("button", name="send report").click()
        bobs.get_by_text("reported, thank you").wait_for()
        bobs.get_by_role("button", name="mute Bob").click()
        bobs.wait_for(state="detached")
        box.get_by_role("button", name="unmute").click()
        box.locator(".chat-message", has_text="onerror").wait_for()
        assert dialogs == [] and errors == []
        store = Store(server.db)
        with store.session() as s:
            assert [r.reason for r in s.query(ReportRow)] == ["html spam"]
            carol = AccountRow(name="Carol", name_key="carol", password_hash="")
            s.add(carol)
            s.flush()
            carol_id = carol.id
        # a logged-in spectator (the session cookie; the page asks its CSRF token) writes
        # in the spectators' channel, which the players of this unrated game read too
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.add_cookies([{"name": SESSION_COOKIE, "url": server.url("/"),
                              "value": Sessions(store).create(carol_id).cookie}])
        watcher = context.new_page()
        watcher.on("pageerror", lambda e: errors.append(str(e)))
        watcher.goto(server.url(f"/games/{gid}"))
        watcher.get_by_text("to the spectators").wait_for()
        watcher.locator("#chat-input").fill("nice opening")
        watcher.locator("#chat-send").click()
        watcher.locator(".chat-text", has_text="nice opening").wait_for()
        page.get_by_role("button", name="spectators").click()
        box.locator(".chat-text", has_text="nice opening").wait_for()
        context.close()
        assert errors == []
    finally:
        server.kill()
