"""Game over on a phone, in Debian's Chromium through Playwright against one ``starlanes
serve`` for the module.

A short seeded game of each of the four games (seat 0 played through the API, heuristic
bots in the other seats) is finished; its table is opened at 390x844 (and the score table
checked at 360 and 414 too): the game-over dialog's scores are a card per seat whose every
line - the player, each source of points, the total and the result - lies inside the
dialog and the screen (bounding boxes), each labelled in plain words (no underscores, no
ids); the key moments name the biggest loss or gain with the move in words. The replay
viewer's last step shows the same scores, fitted the same way. Screenshots:
``docs/screenshots/game-over-390-<game>.png`` and ``replay-scores-390-<game>.png``.
"""

from __future__ import annotations

import random
import re
import time

import httpx
import pytest

from .conftest import Server
from .test_browser import CHROMIUM
from .test_browser_screens import DOCS_SHOTS, new_page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

GAMES = {  # players, seed, short options
    "galactic-domination": (2, 7, {"turn_limit": 1}),
    "rift-domination": (3, 5, {"round_limit": 1}),
    "interstellar-ambitions": (4, 4, {"round_limit": 1}),
    "galactic-empires": (4, 3, {"turn_cap": 2}),
}
WIDTHS = (360, 390, 414)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('gameover') / 'gameover.db'}")
    s.start()
    yield s
    s.kill()


def finished_game(server, game: str) -> tuple[str, str]:
    """A finished game of ``game``: seat 0 plays seeded random legal actions through the
    API, heuristic bots the others. Returns (id, seat 0's token)."""
    players, seed, options = GAMES[game]
    gid = httpx.post(server.url("/api/games"), json={
        "game": game, "players": players, "seats": ["human"] + ["heuristic"] * (players - 1),
        "seed": seed, "options": options}).json()["id"]
    token = httpx.post(server.url(f"/api/games/{gid}/join"),
                       json={"name": "Ann", "seat": 0}).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(seed)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        v = httpx.get(server.url(f"/api/games/{gid}/view"), headers=auth).json()
        if v["result"]:
            return gid, token
        if not v["your_turn"]:
            time.sleep(0.05)
            continue
        httpx.post(server.url(f"/api/games/{gid}/actions"), headers=auth,
                   json={"seq": v["seq"], "action": rng.choice(v["legal"])["notation"]})
    raise AssertionError(f"{game} did not finish in time")


@pytest.fixture(scope="module")
def finished(server):
    return {game: finished_game(server, game) for game in GAMES}


# Every line of the score cards (the player's name, each cell shown) that does not lie
# inside the box `within` and the screen, with its label (the header of its column, the
# card's ::before) and text.
CUT = """(within) => {
  const box = document.querySelector(within).getBoundingClientRect();
  const out = [];
  for (const n of document.querySelectorAll(`${within} table.scores tbody th, ${within} table.scores tbody td`)) {
    if (!n.getClientRects().length) continue;
    const r = n.getBoundingClientRect();
    const label = getComputedStyle(n, '::before').content;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.left < 0 || r.right > innerWidth + 0.5
        || n.scrollWidth > n.clientWidth + 1) {
      out.push(`${label} ${n.textContent} [${Math.round(r.left)}, ${Math.round(r.right)}] in [${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
  }
  return out;
}"""
# Each card: its lines as "label: text" (the label from the cell's ::before).
CARDS = """(within) => [...document.querySelectorAll(`${within} table.scores tbody tr`)].map((tr) =>
  [...tr.children].filter((n) => n.getClientRects().length).map((n) => {
    const label = getComputedStyle(n, '::before').content;
    return `${label === 'none' || label === 'normal' ? '' : JSON.parse(label)}: ${n.textContent.trim()}`;
  }))"""


def check_cards(page, within: str) -> list[list[str]]:
    """The score cards inside ``within`` fit it and the screen, with a line for the player,
    the total and the result, every label in words; returns the cards' lines."""
    assert page.evaluate(CUT, within) == []
    cards = page.evaluate(CARDS, within)
    assert cards
    for lines in cards:
        labels = [line.split(": ")[0] for line in lines]
        assert labels[0] == "" and "total" in labels and "result" in labels, lines
        for line in lines:
            assert not re.search(r"_|#\d", line), line
    width = page.evaluate(f"document.querySelector('{within} .scores-box').scrollWidth"
                          f" - document.querySelector('{within} .scores-box').clientWidth")
    assert width <= 1, "the scores scroll sideways"
    return cards


@pytest.mark.parametrize("game", list(GAMES))
def test_the_game_over_scores_fit_a_phone_and_the_replay_shows_them(browser, server, finished,
                                                                    game):
    gid, token = finished[game]
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector("#gameover[open] #result table.scores")
    seen = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(100)
        seen[width] = check_cards(page, "#gameover")
    cards = seen[390]
    page.set_viewport_size({"width": 390, "height": 844})
    moments = page.locator("#result ul.moments").inner_text()
    assert "Biggest loss in one move" in moments or "Biggest gain in one move" in moments
    assert "\u201c" in moments and not re.search(r"_|#\d", moments), moments
    page.locator("#gameover").evaluate("(d) => d.scrollTop = 0")
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=DOCS_SHOTS / f"game-over-390-{game}.png")
    page.close()

    replay = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    replay.goto(server.url(f"/replay?game={gid}"))
    replay.wait_for_selector("#replay-scores table.scores")
    assert check_cards(replay, "#replay-scores") == cards  # the same scores as the dialog
    replay.locator("#replay-scores").scroll_into_view_if_needed()
    replay.screenshot(path=DOCS_SHOTS / f"replay-scores-390-{game}.png")
    # a step before the end has no final scores
    replay.keyboard.press("ArrowLeft")
    replay.wait_for_selector("#replay-scores", state="hidden")
    replay.close()
    assert not errors, errors
