"""Player profiles: the API (games in progress, finished games with their result and replay
link, ratings, 404s) and, in a real browser, registering in the lobby's account box and
opening one's profile page (screenshot docs/screenshots/profile.png)."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from starlanes.server.community.identity import CSRF_HEADER, SESSION_COOKIE
from starlanes.server.store import GameRow, Store, now

from .conftest import CHROMIUM, Server, create
from .test_accounts import PASSWORD, csrf, make_client, register

LOBBY_SHOT = os.environ.get("STARLANES_LOBBY_SHOT")
"""Where to save a picture of the lobby with the account box open (not saved unless set)."""
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def end_game(url: str, gid: str, ranks: list[int]) -> None:
    """End a game in the store the way the server ends one on time (``outcome``): quicker
    than playing it out on a busy machine. The server reads it when it starts."""
    store = Store(url)
    with store.session() as s:
        row = s.get(GameRow, gid)
        row.outcome = {"reason": "test", "loser": ranks.index(max(ranks)), "ranks": ranks}
        row.ended = now()  # the server stores when it ended with the outcome


def seat_as_account(c: TestClient | httpx.Client, gid: str, token: str, seat: int) -> str:
    r = c.post(f"/api/games/{gid}/join", json={"name": "x", "seat": seat},
               headers=csrf(token))
    assert r.status_code == 200, r.text
    return r.json()["token"]


def test_profile_lists_games_and_a_finished_result(db_url: str) -> None:
    with make_client(db_url, limits={"logins_per_minute": 1000}) as c:
        body = register(c, "Pia")
        done = create(c, seats=["human", "random"])
        seat_as_account(c, done, body["csrf"], 0)
        end_game(db_url, done, [1, 0])
        live = c.app.state.service.games[done]
        live.row.outcome = {"reason": "test", "loser": 0, "ranks": [1, 0]}
        running = create(c, seats=["human", "human"])
        seat_as_account(c, running, body["csrf"], 1)
        p = c.get("/api/players/pia").json()  # any letter case
        assert p["name"] == "Pia" and p["created"]
        assert p["ratings"] == [] or all({"game", "rating", "games", "provisional"} <= set(r)
                                         for r in p["ratings"])
        assert [(g["id"], g["seat"], g["status"]) for g in p["games_in_progress"]] == \
            [(running, 1, "open")]
        assert "your_turn" in p["games_in_progress"][0]  # asked by the account itself
        [game] = p["finished"]
        place = 2
        assert game["id"] == done and game["replay"] == f"/replay?game={done}"
        assert game["place"] == place and game["of"] == 2 and game["players"][0] == "Pia"
        assert game["ended"]
        assert p["recent"] == {"games": 1, "wins": int(game["place"] == 1),
                               "places": [game["place"]]}
        # someone else sees no turn signal
        c.cookies.clear()
        other = c.get("/api/players/Pia").json()
        assert "your_turn" not in other["games_in_progress"][0]
        assert other["finished"] == p["finished"]


def test_profile_404_and_the_page(site: TestClient) -> None:
    assert site.get("/api/players/nobody").status_code == 404
    assert site.get("/api/players/" + "x" * 300).status_code == 404
    r = site.get("/players/whoever")
    assert r.status_code == 200 and "profile.js" in r.text


def test_profile_ratings_come_from_the_ratings_part(site: TestClient) -> None:
    body = register(site, "Quin")
    ratings = site.app.state.community.ratings
    asked: list[str] = []

    def profile(key: str) -> list[dict]:
        asked.append(key)
        return [{"game": "rift-domination", "rating": 25.0, "games": 3, "provisional": True}]

    ratings.profile = profile
    p = site.get("/api/players/Quin").json()
    assert asked == [f"a:{body['account']['id']}"]
    assert p["ratings"][0]["games"] == 3


@pytest.fixture
def site(tmp_path):
    with make_client(f"sqlite:///{tmp_path / 'p.db'}", limits={"logins_per_minute": 1000}) as c:
        yield c


# ---------------------------------------------------------------------- browser
def axe_problems(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (none without
    axe-playwright-python)."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        return []
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")
def test_register_in_the_lobby_and_open_the_profile(browser, tmp_path) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    server = Server(f"sqlite:///{tmp_path / 'browser.db'}")
    server.start()
    try:
        errors: list[str] = []
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url("/"))
        page.locator("#account-box summary").click()
        assert axe_problems(page) == []  # the log-in form open
        page.fill("#account-form input[name=name]", "Rosa")
        page.fill("#account-form input[name=password]", PASSWORD)
        page.click("#account-register")
        expect(page.locator("#account-name")).to_have_text("Rosa")
        expect(page.locator("#account-profile")).to_have_text("my profile")
        # a finished game and a running one for the account, played through the API with
        # the browser's own session
        cookie = next(c["value"] for c in context.cookies() if c["name"] == SESSION_COOKIE)
        with httpx.Client(base_url=server.url(""), cookies={SESSION_COOKIE: cookie}) as c:
            token = c.get("/api/account").json()["csrf"]
            done = create(c, seats=["human", "random"])  # type: ignore[arg-type]
            seat_as_account(c, done, token, 0)
            running = create(c, seats=["human", "human"])  # type: ignore[arg-type]
            seat_as_account(c, running, token, 0)
            assert c.post("/api/account/logout").status_code == 403  # no CSRF header
            assert c.request("POST", "/api/account/logout",
                             headers={CSRF_HEADER: "no"}).status_code == 403
        end_game(server.db, done, [0, 1])
        server.kill()  # a restarted server rebuilds its games from the store
        server.start()
        page.reload()
        page.locator("#my-games-summary").click()
        expect(page.locator("#account-games li")).to_have_count(2)
        assert axe_problems(page) == []  # the lobby with the account box and its menu open
        if LOBBY_SHOT:
            page.screenshot(path=LOBBY_SHOT)
        page.click("#account-profile")
        expect(page.locator("#player-name")).to_have_text("Rosa")
        expect(page.locator("#finished-table tbody tr")).to_have_count(1)
        expect(page.locator("#finished-table a")).to_have_attribute("href",
                                                                    f"/replay?game={done}")
        expect(page.locator("#live-table tbody tr")).to_have_count(1)
        expect(page.locator("#settings-box")).to_be_visible()
        assert axe_problems(page) == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "profile.png"), full_page=True)
        assert errors == []
        context.close()
    finally:
        server.kill()
