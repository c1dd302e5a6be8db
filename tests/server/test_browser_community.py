"""Two strangers find each other and play a rated game (Playwright driving Chromium against
``starlanes serve``): each registers in the lobby and presses "play now" for Galactic
Domination; both land at the same table with running clocks, chat, finish the game, and see
the result and their new ratings on their profiles. A third player, alone in the
correspondence queue, is given a bot after the wait and is notified of a turn while the
page is hidden."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, Server
from .test_turnsignal import FAKES

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WAIT = 6
"""Seconds a play-now player waits for people before a bot takes the empty seat."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    config = tmp_path / "server.toml"
    config.write_text(f"queue_wait_seconds = {WAIT}\n")
    s = Server(f"sqlite:///{tmp_path / 'community.db'}", config=str(config))
    s.start()
    yield s
    s.kill()


def _player(browser, server: Server, name: str, errors: list[str]):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.add_init_script(FAKES)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.goto(server.url("/"))
    page.click("#account-box summary:has-text('log in / register')")
    page.fill("#account-form input[name='name']", name)
    page.fill("#account-form input[name='password']", f"{name}-secret-pass")
    page.click("#account-register")
    page.wait_for_selector(f"#account-name:has-text('{name}')")
    page.wait_for_selector("#play-form")
    return page


def _play_now(page, game: str, mode: str) -> None:
    page.select_option("#play-game", game)
    page.select_option("#play-players", "2")
    page.select_option("#play-mode", mode)
    page.click("#play-start")


def _token(page) -> tuple[str, str]:
    gid = page.evaluate("decodeURIComponent(location.pathname.split('/').pop())")
    stored = json.loads(page.evaluate(f"localStorage.getItem('starlanes:{gid}')"))
    return gid, stored["token"]


def _finish(server: Server, gid: str, tokens: list[str]) -> dict:
    """Play both seats until the game is over: an attack where one is legal, else the last
    legal action. (The last legal action alone played 7,180 actions on one of 30 deals;
    with attacks first, 200 deals ended within 150-458 actions.)"""
    api = httpx.Client(base_url=server.url(""), timeout=10)
    for _ in range(5000):
        views = [api.get(f"/api/games/{gid}/view",
                         headers={"Authorization": f"Bearer {t}"}).json() for t in tokens]
        if views[0]["result"] is not None:
            return views[0]
        for token, v in zip(tokens, views, strict=True):
            if v["your_turn"]:
                notations = [a["notation"] for a in v["legal"]]
                pick = next((n for n in notations if n.startswith("attack ")), notations[-1])
                r = api.post(f"/api/games/{gid}/actions", json={"seq": v["seq"], "action": pick},
                             headers={"Authorization": f"Bearer {token}"})
                assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


def _clock_runs(page) -> None:
    running = "#clocks-box .clock-row[data-running='true'] .clock-time"
    page.wait_for_selector(running)
    before = page.locator(running).text_content()
    page.wait_for_function(f"t => document.querySelector(\"{running}\").textContent !== t",
                           arg=before)


def test_two_strangers_play_a_rated_game_and_a_third_is_told_of_a_turn(browser, server):
    errors: list[str] = []
    ann = _player(browser, server, "Ann", errors)
    bob = _player(browser, server, "Bob", errors)
    # a new player sees the bots of the ladder with their ratings in the lobby
    ann.wait_for_selector("#ladder-box:not([hidden])")
    assert "heuristic" in ann.locator("#ladder-box").text_content()
    _play_now(ann, "galactic-domination", "realtime")
    ann.wait_for_selector("#play-waiting")
    _play_now(bob, "galactic-domination", "realtime")
    for page in (ann, bob):
        page.wait_for_url("**/games/*", timeout=20_000)
        page.wait_for_selector(".gd-board, #board svg", timeout=20_000)
    (gid, ann_token), (bob_gid, bob_token) = _token(ann), _token(bob)
    assert gid == bob_gid, "the two players were not seated at the same table"
    # both see both clocks, the running one counting down, and the rule of a timeout
    for page in (ann, bob):
        page.wait_for_selector("#clocks-box:not([hidden])")
        assert page.locator("#clocks-box .clock-row").count() == 2
        _clock_runs(page)
        assert "lose" in page.locator("#clocks-box .clock-rule").text_content()
    # they talk: what one writes the other reads
    ann.wait_for_selector("#chat-box:not([hidden]) #chat-input")
    ann.fill("#chat-input", "good luck, have fun")
    ann.click("#chat-send")
    bob.wait_for_selector("#chat-box .chat-text:has-text('good luck, have fun')", timeout=15_000)
    bob.fill("#chat-input", "you too")
    bob.click("#chat-send")
    ann.wait_for_selector("#chat-box .chat-text:has-text('you too')", timeout=15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "play-now-table.png"))
    # the rest of the game is played through the API while the pages are away (a table
    # redrawing some 250 moves twice over would only cost time); back at the table, each
    # finds the game over
    for page in (ann, bob):
        page.goto("about:blank")
    final = _finish(server, gid, [ann_token, bob_token])
    for page in (ann, bob):
        page.goto(server.url(f"/games/{gid}"))
        page.wait_for_selector("#gameover[open]", timeout=20_000)
        # the dialog tells the story: who led when, and the largest swing
        page.wait_for_selector("#gameover h3:has-text('Key moments') + ul.moments li")
    ann.screenshot(path=str(SHOTS / "game-over-key-moments.png"))
    # the rated result reaches both profiles: the finished game and a rating in the game
    api = httpx.Client(base_url=server.url(""), timeout=10)
    for name, page in (("Ann", ann), ("Bob", bob)):
        profile = api.get(f"/api/players/{name}").json()
        assert [g["id"] for g in profile["finished"]] == [gid]
        rating = [r for r in profile["ratings"] if r["game"] == "galactic-domination"]
        assert len(rating) == 1 and rating[0]["games"] == 1
        page.goto(server.url(f"/players/{name}"))
        page.wait_for_selector(f"#finished-games a[href*='{gid}']")
        page.wait_for_selector("#ratings :text('Galactic Domination'), "
                               "#ratings :text('galactic-domination')")
    board = api.get("/api/ratings/galactic-domination").json()["leaderboard"]
    players = {row["name"]: row for row in board if not row["bot"]}
    assert set(players) == {"Ann", "Bob"}
    winners = final["result"]["winners"]
    if len(winners) == 1:  # the winner is placed above the loser
        seat_names = {s["seat"]: s["name"] for s in final["seats"]}
        assert players[seat_names[winners[0]]]["rank"] < players[
            seat_names[1 - winners[0]]]["rank"]
    ann.screenshot(path=str(SHOTS / "profile-after-rated-game.png"))

    # a third player alone in the correspondence queue gets a bot after the wait, and is
    # notified of a turn while the table is hidden
    cay = _player(browser, server, "Cay", errors)
    _play_now(cay, "galactic-domination", "correspondence")
    cay.wait_for_url("**/games/*", timeout=(WAIT + 20) * 1000)
    cay.wait_for_selector("#turn-signal button:has-text('notify me')")
    cay.click("#turn-signal button:has-text('notify me')")
    cay.wait_for_selector("#turn-signal button[aria-pressed='true']")
    cgid, cay_token = _token(cay)
    view = api.get(f"/api/games/{cgid}/view", headers={"Authorization": f"Bearer {cay_token}"}
                   ).json()
    assert any(s["bot"] for s in view["seats"]), "no bot took the empty seat"
    assert view["clocks"]["kind"] == "move" and view["clocks"]["timeout"] == "bot"
    cay.evaluate("window.__hidden = true")
    # play Cay's turn (when it is Cay's) so that the bot moves and the turn comes back
    for _ in range(200):
        v = api.get(f"/api/games/{cgid}/view",
                    headers={"Authorization": f"Bearer {cay_token}"}).json()
        if not v["your_turn"]:
            break
        api.post(f"/api/games/{cgid}/actions", json={"seq": v["seq"],
                 "action": v["legal"][-1]["notation"]},
                 headers={"Authorization": f"Bearer {cay_token}"})
    cay.wait_for_function("() => window.__notes.length > 0", timeout=60_000)
    assert cay.evaluate("window.__notes")[0]["title"].startswith("Your turn")
    assert errors == []


def test_a_guest_seat_kept_in_the_account_and_an_invitation_from_the_table(browser, server):
    """A player logged in at a table of a seat taken as a guest keeps it in the account
    (the profile then lists the game), and invites another account to an open seat by
    name; the invitation waits for that account."""
    api = httpx.Client(base_url=server.url(""), timeout=10)
    gid = api.post("/api/games", json={"game": "rift-domination", "players": 3,
                                       "seats": ["human"] * 3}).json()["id"]
    link = api.post(f"/api/games/{gid}/join", json={"name": "Dee", "seat": 0}).json()["link"]
    bob = httpx.Client(base_url=server.url(""), timeout=10)
    assert bob.post("/api/account/register", json={"name": "Bob",
                                                   "password": "Bob-secret-pass"}).status_code == 201
    errors: list[str] = []
    dee = _player(browser, server, "Dee", errors)
    dee.goto(server.url(link))
    dee.wait_for_selector("#seat-account:not([hidden]) #claim-seat")
    dee.click("#claim-seat")
    dee.wait_for_selector("#seat-account :text('now in your account')")
    assert [g["id"] for g in api.get("/api/players/Dee").json()["games_in_progress"]] == [gid]
    # the seat is the account's now: the panel offers the invitation to the open seats
    dee.wait_for_selector("#invite-form")
    dee.select_option("#invite-form select", "2")
    dee.fill("#invite-form input", "Bob")
    dee.click("#invite-form button[type='submit']")
    dee.wait_for_selector("#invite-form :text('Bob is invited')")
    waiting = bob.get("/api/invitations").json()["invitations"]
    assert [(i["game_id"], i["seat"], i["from"]) for i in waiting] == [(gid, 2, "Dee")]
    assert errors == []
