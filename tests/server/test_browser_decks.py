"""The deck builder (/decks) in a real browser (issue 30): a legal 40-card Galactic Empires
deck built by clicking the pool, its validation turning green, its code copied and the deck
saved; then a Standard Game seat joined from the lobby with that deck, whose hand holds
only that deck's cards. Screenshots go to docs/screenshots/.

Waits use selectors only (the pages' Content-Security-Policy allows no eval)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from starlanes.games.galactic_empires import deck_code
from starlanes.games.galactic_empires.content import load_content

from .conftest import Server
from .test_browser import CHROMIUM, _page

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")



@pytest.fixture
def server(tmp_path):
    s = Server(f"sqlite:///{tmp_path / 'decks.db'}")
    s.start()
    yield s
    s.kill()


def _click(page, card: str, times: int) -> None:
    for _ in range(times):
        page.locator(f'#pool [data-card="{card}"]').click()


def test_build_a_deck_by_clicking_and_play_it(browser, server) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/decks"))
    page.wait_for_selector("#pool .ge-card")
    page.fill("#deck-name", "Clicked Fleet")
    page.select_option("#deck-major", "argonian")
    page.select_option("#f-type", "T")
    terrain = [page.locator("#pool .ge-card").nth(i).get_attribute("data-card")
               for i in range(4)]
    for cid in terrain:
        _click(page, cid, 3)
    expect(page.locator("#validation.bad")).to_contain_text("GE-OPEN-01 size")
    page.select_option("#f-type", "S")
    page.select_option("#f-empire", "argonian")
    ships = [page.locator("#pool .ge-card").nth(i).get_attribute("data-card")
             for i in range(page.locator("#pool .ge-card").count())]
    assert len(ships) >= 8
    for cid in ships[:8]:
        _click(page, cid, 3)
    page.select_option("#f-type", "")
    page.select_option("#f-empire", "")
    page.fill("#f-text", "gunner")
    _click(page, "crew_gunner", 3)
    page.fill("#f-text", "")
    expect(page.locator("#validation")).to_contain_text("39 cards")
    expect(page.locator("#validation.bad")).to_be_visible()
    _click(page, "crew_engineer", 1)
    expect(page.locator("#validation.ok")).to_contain_text("Legal: 40 cards")
    expect(page.locator("#curve svg rect").first).to_be_attached()
    page.click("#copy")
    code = page.input_value("#code")
    assert code.startswith("GE1-")
    deck = deck_code.decode(load_content(), code)
    assert deck.name == "Clicked Fleet" and deck.size == 40 and deck.major == "argonian"
    page.click("#save")
    expect(page.locator('#saved li[data-deck="Clicked Fleet"]')).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "deck-builder.png"), full_page=False)

    # a Standard Game against a bot, joined from the lobby with the saved deck
    r = httpx.post(server.url("/api/games"), json={
        "game": "galactic-empires", "players": 2, "seats": ["human", "heuristic"],
        "options": {"structure": "standard"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    page.goto(server.url("/"))
    page.wait_for_selector(f'.deck-pick[data-game="{gid}"]')
    page.fill("#name", "Ann")
    page.select_option(f'.deck-pick[data-game="{gid}"]', code)
    page.locator(f'tr[data-game="{gid}"] button').first.click()
    page.wait_for_url(f"**/games/{gid}")
    hand = page.locator("h3:has-text('Your hand') + .ge-row [data-card]")
    expect(hand.first).to_be_attached(timeout=20000)
    held = {hand.nth(i).get_attribute("data-card").split("#")[0] for i in range(hand.count())}
    assert held and held <= set(deck.cards), held - set(deck.cards)
    page.screenshot(path=str(SHOTS / "deck-in-hand.png"), full_page=False)
    assert not errors, errors
