"""The clocks panel and the "your turn" signals in a real browser (Playwright driving
Chromium against ``starlanes serve``): both clocks shown with the running one counting
down, the tab icon with its marker on your turn, and a notification for a hidden page
when the turn comes (the browser's Notification replaced by a recorder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "clocks.png"

FAKES = """
window.__notes = [];
window.__hidden = false;
class RecordedNotification {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
  static requestPermission() {
    RecordedNotification.permission = "granted";
    return Promise.resolve("granted");
  }
}
RecordedNotification.permission = "default";
window.Notification = RecordedNotification;
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'signals.db'}")
    s.start()
    yield s
    s.kill()


def _seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def _page(browser, errors: list[str]):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_init_script(FAKES)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def test_clocks_count_down_the_icon_marks_your_turn_and_a_hidden_page_notifies(browser, server):
    api = httpx.Client(base_url=server.url(""), timeout=10)
    gid = api.post("/api/games", json={"game": "rift-domination", "players": 2,
                                       "seats": ["human", "human"], "clock_seconds": 900,
                                       "clock_kind": "game", "clock_increment": 10}).json()["id"]
    tokens = [api.post(f"/api/games/{gid}/join", json={"name": n, "seat": i}).json()["token"]
              for i, n in enumerate(["Ann", "Bob"])]
    first = api.get(f"/api/games/{gid}/view").json()["waiting_for"]
    other = 1 - first
    errors: list[str] = []
    mover, waiter = _page(browser, errors), _page(browser, errors)
    mover.goto(server.url(f"/games/{gid}?token={tokens[first]}"))
    waiter.goto(server.url(f"/games/{gid}?token={tokens[other]}"))
    for page in (mover, waiter):
        page.wait_for_selector("#clocks-box .clock-row[data-running='true']")
    rows = mover.locator("#clocks-box .clock-row")
    assert rows.count() == 2
    running = mover.locator("#clocks-box .clock-row[data-running='true'] .clock-time")
    assert mover.locator("#clocks-box .clock-row[data-running='true']").get_attribute(
        "data-seat") == str(first)
    before = running.text_content()
    mover.wait_for_function(
        "t => document.querySelector(\"#clocks-box .clock-row[data-running='true'] "
        ".clock-time\").textContent !== t", arg=before)
    assert _seconds(running.text_content()) < _seconds(before)
    assert "a bot moves for you" in mover.locator("#clocks-box .clock-rule").text_content()
    # the tab icon has its marker for the seat whose turn it is, not for the other
    assert mover.locator("link[rel='icon']").get_attribute("href") == "/static/icon-turn.svg"
    assert waiter.locator("link[rel='icon']").get_attribute("href") == "/static/icon.svg"
    # the waiting player asks for notifications (the permission is asked on that click
    # only), then hides the page; the mover plays until it is the other's turn
    assert waiter.evaluate("Notification.permission") == "default"
    waiter.click("#turn-signal button:has-text('notify me')")
    waiter.wait_for_selector("#turn-signal button[aria-pressed='true']")
    assert waiter.evaluate("Notification.permission") == "granted"
    waiter.evaluate("window.__hidden = true")
    while True:
        v = api.get(f"/api/games/{gid}/view",
                    headers={"Authorization": f"Bearer {tokens[first]}"}).json()
        if v["waiting_for"] != first:
            break
        r = api.post(f"/api/games/{gid}/actions", json={"seq": v["seq"],
                     "action": v["legal"][-1]["notation"]},
                     headers={"Authorization": f"Bearer {tokens[first]}"})
        assert r.status_code == 200, r.text
    # predicates are functions: an expression string is polled through eval, which the
    # pages' Content-Security-Policy refuses once the first check comes back false
    waiter.wait_for_function("() => window.__notes.length > 0")
    notes = waiter.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0]["title"].startswith("Your turn")
    waiter.wait_for_function(
        "() => document.querySelector(\"link[rel='icon']\").getAttribute('href')"
        " === '/static/icon-turn.svg'")
    mover.wait_for_function(
        "() => document.querySelector(\"link[rel='icon']\").getAttribute('href')"
        " === '/static/icon.svg'")
    # the mover's page was visible: it got no notification
    assert mover.evaluate("window.__notes.length") == 0
    mover.wait_for_selector(f"#clocks-box .clock-row[data-seat='{other}'][data-running='true']")
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    mover.screenshot(path=str(SHOT))
    # the lobby has the same control, remembered from the table: notifications are on
    waiter.evaluate("window.__hidden = false")
    waiter.goto(server.url("/"))
    waiter.wait_for_selector("#turn-signal button[aria-pressed='true']:has-text('notify me')")
    assert waiter.locator("#turn-signal button:has-text('sound')").get_attribute(
        "aria-pressed") == "false"
    assert waiter.locator("link[rel='icon']").get_attribute("href") == "/static/icon.svg"
    assert errors == []
