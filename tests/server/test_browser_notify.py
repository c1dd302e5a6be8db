"""In a real browser (Chromium through Playwright), a logged-in player's profile page shows
a turn that comes and a challenge made meanwhile without a reload (the live notifications
control in the header and the page's title), and keeps the notification mail settings; the
replay viewer shows the chat written up to the step."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import auth, browser  # noqa: F401 - the browser fixture
from .test_events import Live, make_app, person, play, two_accounts_game, whose_turn


@pytest.fixture
def live(tmp_path) -> Any:
    with Live(make_app(f"sqlite:///{tmp_path / 'server.db'}")) as served:
        yield served


def logged_in_page(browser: Any, live: Live, headers: dict[str, str]) -> Any:  # noqa: F811
    name, _, value = headers["Cookie"].partition("=")
    context = browser.new_context()
    context.add_cookies([{"name": name, "value": value, "url": live.url("/")}])
    return context.new_page()


def test_profile_shows_a_turn_and_a_challenge_without_reload(browser, live):  # noqa: F811
    gid, ann, bob, tokens = two_accounts_game(live)
    first = whose_turn(live, gid, tokens)
    people, names = [ann, bob], ["Ann", "Bob"]
    waiter = 1 - first  # the player whose turn is coming watches their profile
    page = logged_in_page(browser, live, people[waiter])
    try:
        page.goto(live.url(f"/players/{names[waiter]}"))
        bell = page.locator("#live-notes summary")
        bell.wait_for()
        assert bell.inner_text() == "notifications"
        page.wait_for_function(
            "() => document.querySelector('#mail-form') !== null")
        while whose_turn(live, gid, tokens) == first:
            play(live, gid, tokens[first])
        page.wait_for_function(
            "() => document.querySelector('#live-notes summary').textContent === 'notifications (1)'")
        assert page.title().startswith("(1) ")
        page.locator("#live-notes summary").click()
        assert page.locator("#live-list").inner_text() == "Your turn: Rift Domination"
        # a challenge made meanwhile shows too
        r = httpx.post(live.url("/api/challenges"), headers=people[first],
                       json={"name": names[waiter], "game": "galactic-domination"})
        assert r.status_code == 201, r.text
        page.wait_for_function(
            "() => document.querySelector('#live-notes summary').textContent === 'notifications (2)'")
        assert f"{names[first]} challenges you: Galactic Domination" in \
            page.locator("#live-list").inner_text()
        # the turn item opens the game with a fresh seat link of the account
        page.get_by_role("button", name="Your turn: Rift Domination").click()
        page.wait_for_url(f"**/games/{gid}?token=*")
    finally:
        page.context.close()


def test_mail_settings_on_the_profile(browser, live):  # noqa: F811
    ann = person(live, "Ann")
    page = logged_in_page(browser, live, ann)
    try:
        page.goto(live.url("/players/Ann"))
        page.locator("#mail-address").fill("not an address")
        page.locator("#mail-turns").check()
        # the browser's own check of the field stops the form: bypass it, as a script could
        page.evaluate("document.querySelector('#mail-address').type = 'text'")
        page.locator("#mail-form button[type=submit]").click()
        page.wait_for_function(
            "() => document.querySelector('#mail-result').textContent !== ''")
        assert "not an e-mail address" in page.locator("#mail-result").inner_text()
        page.locator("#mail-address").fill("ann@example.org")
        page.locator("#mail-form button[type=submit]").click()
        page.wait_for_function(
            "() => document.querySelector('#mail-result').textContent.startsWith('Saved')")
        r = httpx.get(live.url("/api/account/settings"), headers=ann)
        assert r.json()["email"] == "ann@example.org" and r.json()["email_turns"] is True
    finally:
        page.context.close()


def test_replay_viewer_shows_the_chat_up_to_the_step(browser, live):  # noqa: F811
    gid, _ann, _bob, tokens = two_accounts_game(live)
    first = whose_turn(live, gid, tokens)
    r = httpx.post(live.url(f"/api/games/{gid}/chat"), headers=auth(tokens[0]),
                   json={"channel": "players", "text": "<b>good luck</b>"})
    assert r.status_code == 201, r.text
    play(live, gid, tokens[first])
    httpx.post(live.url(f"/api/games/{gid}/chat"), headers=auth(tokens[1]),
               json={"channel": "players", "text": "thanks"})
    page = browser.new_page()
    try:
        page.goto(live.url(f"/replay?game={gid}&step=0"))
        page.wait_for_function(
            "() => document.querySelectorAll('#replay-chat li').length === 1")
        assert page.locator("#replay-chat").inner_text() == "Ann: <b>good luck</b>"
        page.goto(live.url(f"/replay?game={gid}&step=1"))
        page.wait_for_function(
            "() => document.querySelectorAll('#replay-chat li').length === 2")
        assert page.locator("#replay-chat li.now").inner_text() == "Bob: thanks"
    finally:
        page.close()
