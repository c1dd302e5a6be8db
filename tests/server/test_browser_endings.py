"""Resign, abort and draw offers at a real browser table (Playwright driving Debian's
Chromium against ``starlanes serve`` in a subprocess), worked with the keyboard: one player
offers a draw, the other declines it; abort is offered before the first move; a
resignation asks to be confirmed (Escape steps back) and then both players see the
game-over dialog saying who resigned. Screenshots: docs/screenshots/draw-offer.png (the
decision panel with a draw offered) and docs/screenshots/resigned-game-over.png.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, Server

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (install Debian's 'chromium' package or set "
                             "STARLANES_CHROMIUM to a Chromium binary)")


@pytest.fixture
def server(tmp_path):
    s = Server(f"sqlite:///{tmp_path / 'endings.db'}")
    s.start()
    yield s
    s.kill()


def _page(browser, errors: list[str], url: str):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    page.goto(url)
    page.wait_for_selector("body[data-seq]", state="attached")
    return page


def _press(page, selector: str, key: str = "Enter") -> None:
    """Work a control with the keyboard: focus it, then press ``key``."""
    page.locator(selector).focus()
    page.keyboard.press(key)


def test_draw_declined_then_a_confirmed_resignation_is_labelled(browser, server) -> None:
    with httpx.Client(base_url=server.url("")) as api:
        r = api.post("/api/games", json={"game": "rift-domination", "players": 2,
                                         "seats": ["human", "human"], "clock_seconds": 900,
                                         "clock_kind": "game"})
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        links = [api.post(f"/api/games/{gid}/join", json={"name": name, "seat": seat})
                 .json()["link"] for seat, name in enumerate(("Ann", "Bob"))]
    errors: list[str] = []
    ann = _page(browser, errors, server.url(links[0]))
    bob = _page(browser, errors, server.url(links[1]))
    ann.wait_for_selector("#endings #resign-button")
    assert ann.locator("#abort-button").is_visible()  # nobody has moved yet
    assert ann.locator("#offer-draw").inner_text() == "offer a draw"

    # a draw offered by Ann, seen and declined by Bob with the keyboard
    _press(ann, "#offer-draw")
    bob.wait_for_selector("#accept-draw")
    assert "offers you a draw" in bob.locator("#draw-offer").inner_text()
    bob.locator("#actions-box").screenshot(path=str(SHOTS / "draw-offer.png"))
    ann.wait_for_selector("#draw-offer")
    assert "You offered a draw" in ann.locator("#draw-offer").inner_text()
    assert ann.locator("#offer-draw").count() == 0
    _press(bob, "#decline-draw")
    ann.wait_for_selector("#offer-draw")
    bob.wait_for_selector("#draw-offer", state="detached")

    # resigning asks first; Escape steps back without resigning
    _press(ann, "#resign-button")
    ann.wait_for_selector("#endings-question")
    assert "Resign this game?" in ann.locator("#endings-question").inner_text()
    assert ann.evaluate("document.activeElement.id") == "endings-no"
    ann.keyboard.press("Escape")
    ann.wait_for_selector("#resign-button")
    assert ann.evaluate("document.activeElement.id") == "resign-button"
    assert bob.locator("#gameover[open]").count() == 0
    _press(ann, "#resign-button")
    _press(ann, "#endings-yes")

    for page in (bob, ann):
        page.wait_for_selector("#gameover[open]")
        text = page.locator("#result").inner_text()
        assert "How it ended: P" in text and "(Ann) resigned." in text, text
        assert "resigned" in page.locator("#result table").inner_text()
        assert "Winner:" in text and "Bob" in page.locator("#result .winners").inner_text()
        assert page.locator("#endings").is_hidden()
    bob.screenshot(path=str(SHOTS / "resigned-game-over.png"))
    _press(bob, "#close-gameover")
    bob.wait_for_selector("#clock-ended")
    assert "The game ended at" in bob.locator("#clock-ended").inner_text()
    assert not errors, errors
