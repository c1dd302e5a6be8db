"""The Rift Domination table in a real browser: Playwright for Python driving Debian's
Chromium against ``starlanes serve`` in a subprocess.

A game is created in the lobby and played to its end against a heuristic bot by clicking the
board (a planet, then an action of that planet) or the action list, then rematched by its
seat, one seat further round (a spectator is offered no rematch); two seat links and a
spectator watch one game, and neither player's page shows the other's OCC-cards.
Screenshots go to ``screenshots/`` at the project root (or $STARLANES_SCREENSHOTS).

The pages run under the server's Content-Security-Policy, which allows no eval: the tests
wait on the page's state with selectors (``body[data-seq='3']``), never with
``wait_for_function`` on a string, which the policy refuses to evaluate.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, FLAGS, Server, open_groups  # noqa: F401 - re-exported

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="Playwright for Python is not installed")

SHOTS = Path(os.environ.get("STARLANES_SCREENSHOTS",
                            Path(__file__).resolve().parents[2] / "screenshots"))

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found (install Debian's 'chromium' package or set "
                             "STARLANES_CHROMIUM to a Chromium binary)")



@pytest.fixture
def server(tmp_path):
    s = Server(f"sqlite:///{tmp_path / 'browser.db'}")
    s.start()
    yield s
    s.kill()


def _page(browser, errors):
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A 4xx answer (a stale explanation or odds request the table handles) is not an error.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    return page


def _decide(page, rng: random.Random) -> None:
    """Take one decision the way a player would: pick a legal action; if it names a planet
    on the board, click the planet and then the action in the list of that planet's
    actions; otherwise click it in the grouped action list."""
    seq = page.locator("body").get_attribute("data-seq")
    buttons = page.locator("#groups button.action")
    notations = [buttons.nth(i).get_attribute("data-notation") for i in range(buttons.count())]
    choice = rng.choice(notations)
    planets = [w for w in choice.split() if page.locator(f'[data-planet="{w}"]').count()]
    if planets:
        # The planet's disc: its group's box also spans the tile and upgrade labels, whose
        # centre may fall on empty board.
        page.locator(f'[data-planet="{planets[0]}"] circle').first.click()
        page.locator(f'#selection-list button[data-notation="{choice}"]').click()
    else:
        open_groups(page)
        page.locator(f'#groups button[data-notation="{choice}"]').first.click()
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")


def test_a_game_against_a_bot_is_played_to_its_end_by_clicking(browser, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "galactic-domination")  # its own learned bot is offered
    assert page.locator('#seats select >> nth=1 >> option[value="learned"]').count() == 1
    page.select_option("#game", "rift-domination")  # and not in another game
    page.select_option("#players", "2")
    assert page.locator('#seats select >> nth=1 >> option[value="learned"]').count() == 0
    page.locator("#seats select").nth(1).select_option("heuristic")
    page.locator("#options-box summary").click()
    page.fill('[data-option="round_limit"]', "2")
    page.fill("#name", "Ann")
    page.screenshot(path=SHOTS / "lobby.png")
    page.click("#create-button")
    page.wait_for_selector(".rd-board")
    rng = random.Random(1)
    decisions = 0
    shot_battle = False
    while True:
        page.wait_for_selector("body[data-turn]:not([data-turn='waiting'])", state="attached",
                               timeout=60_000)
        if page.locator("body").get_attribute("data-turn") == "over":
            break
        if decisions == 12:
            page.screenshot(path=SHOTS / "rift-domination-table.png")
        if not shot_battle and page.locator("text=Battle at").count():
            page.screenshot(path=SHOTS / "rift-domination-battle.png")
            shot_battle = True
        _decide(page, rng)
        decisions += 1
        assert decisions < 1500
    page.wait_for_selector("#gameover[open]")
    page.screenshot(path=SHOTS / "rift-domination-game-over.png")
    assert "Winner" in page.locator("#result").inner_text()
    href = page.locator("#record-link").get_attribute("href")
    record = httpx.get(server.url(href)).json()
    assert record["finished"] and record["game"] == "rift-domination"
    assert decisions > 10
    gid = page.url.split("/games/")[1].split("?")[0]

    # a spectator of the finished game is offered no rematch (only its seats may ask)
    watcher = browser.new_context()
    spectator = watcher.new_page()
    spectator.goto(server.url(f"/games/{gid}"))
    spectator.wait_for_selector("#gameover[open]")
    assert spectator.locator("#rematch").is_hidden()
    watcher.close()

    # the seat's rematch: a new game of the same settings, the seats moved round one place
    # (Ann now at seat 1) under the same name, its token kept in this browser, not in the
    # address
    page.click("#rematch")
    page.wait_for_url(lambda url: "/games/" in url and gid not in url)
    page.wait_for_selector(".rd-board")
    assert "token" not in page.url
    assert page.locator("#seats .seat-1 em").inner_text().strip() == "you"
    new = page.url.split("/games/")[1]
    entry = next(g for g in httpx.get(server.url("/api/games")).json()["games"]
                 if g["id"] == new)
    assert entry["rematch_of"] == gid and entry["seats"][1]["name"] == "Ann"
    assert entry["seats"][0]["bot"] == "heuristic"
    assert not errors, errors
    page.close()


def test_two_seat_links_and_a_spectator_see_only_their_own_cards(browser, server):
    gid = httpx.post(server.url("/api/games"), json={
        "game": "rift-domination", "players": 2, "seats": ["human", "human"],
        "seed": 12}).json()["id"]
    joined = [httpx.post(server.url(f"/api/games/{gid}/join"),
                         json={"name": name, "seat": i}).json()
              for i, name in enumerate(("Ann", "Bob"))]
    errors: list[str] = []
    pages = [_page(browser, errors) for _ in range(3)]
    for page, url in zip(pages, [server.url(j["link"]) for j in joined]
                         + [server.url(f"/games/{gid}")], strict=True):
        page.goto(url)
        page.wait_for_selector(".rd-board")
    rng = random.Random(4)
    layout = httpx.get(server.url(f"/api/games/{gid}/layout")).json()
    for _ in range(20):
        views = [httpx.get(server.url(f"/api/games/{gid}/view"),
                           headers={"Authorization": f"Bearer {j['token']}"}).json()
                 for j in joined]
        seat = views[0]["waiting_for"]
        if seat is None:
            break
        _decide(pages[seat], rng)
    views = [httpx.get(server.url(f"/api/games/{gid}/view"),
                       headers={"Authorization": f"Bearer {j['token']}"}).json() for j in joined]
    hands = [set(v["observation"]["players"][i]["hand"]) for i, v in enumerate(views)]
    public = set(views[0]["observation"]["discard"])
    for i in range(2):
        pages[i].wait_for_selector(f"body[data-seq='{views[i]['seq']}']", state="attached")
        text = pages[i].locator("#game-panels").inner_text()
        assert f"Your OCC-cards ({len(hands[i])})" in text
        for card in hands[1 - i] - hands[i] - public:
            assert layout["cards"][card]["name"] not in text, (i, card)
    spectator = pages[2].locator("body").inner_text()
    assert "Your OCC-cards" not in spectator and "Your decision" not in spectator
    for card in (hands[0] | hands[1]) - public:
        assert layout["cards"][card]["name"] not in pages[2].locator("#game-panels").inner_text()
    pages[0].screenshot(path=SHOTS / "rift-domination-seat-0.png")
    pages[2].screenshot(path=SHOTS / "rift-domination-spectator.png")
    assert not errors, errors
