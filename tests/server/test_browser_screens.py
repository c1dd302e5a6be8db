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

from .conftest import Server, open_groups
from .test_browser import CHROMIUM

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(360, 740), (390, 844), (768, 1024), (1366, 768), (1920, 1080)]
TABLES = {  # players, seed, the board's selector, seat 0's decisions taken first
    "galactic-domination": (2, 3, ".gd-board", 12),
    "rift-domination": (2, 5, ".rd-board", 30),
    "interstellar-ambitions": (3, 2, ".ia-table", 8),
    "galactic-empires": (2, 1, ".ge-table", 6),
}



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


def seated_game(server, game: str, players: int, seed: int, moves: int = 0,
                options: dict | None = None) -> tuple[str, str]:
    """A game with a human at seat 0 and heuristic bots in the other seats; ``moves`` of seat
    0's decisions are taken (its last legal action) so that the board has last moves."""
    gid = httpx.post(server.url("/api/games"), json={
        "game": game, "players": players, "seats": ["human"] + ["heuristic"] * (players - 1),
        "seed": seed, "options": options or {}}).json()["id"]
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


@pytest.fixture(scope="module")
def tables(server):
    """One seated game of each table for the module: game -> (id, seat 0's token)."""
    return {game: seated_game(server, game, players, seed, moves=moves)
            for game, (players, seed, _board, moves) in TABLES.items()}


# Every action button of the decision panel, scrolled into view in turn: is it inside the
# screen's width, enabled, and the element found at its centre (not covered by the sheet,
# a card or a dialog)? The notations of those that are not.
UNREACHABLE = """() => [...document.querySelectorAll('#groups button.action')].filter((b) => {
  b.scrollIntoView({block: 'center'});
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return b.disabled || r.left < 0 || r.right > window.innerWidth + 1 || !(hit && b.contains(hit));
}).map((b) => b.dataset.notation)"""


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width} > {inner}"


@pytest.mark.parametrize("game", list(TABLES))
def test_every_table_fits_every_screen_and_every_action_is_reachable(browser, tables, server,
                                                                     game):
    players, seed, board, moves = TABLES[game]
    gid, token = tables[game]
    errors: list[str] = []
    for width, height in SIZES:
        page = new_page(browser, errors, width, height)
        page.goto(server.url(f"/games/{gid}?token={token}"))
        page.wait_for_selector(board)
        page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
        no_horizontal_scroll(page)
        assert page.locator("#groups button.action").count() > 0
        if width < 700:  # the bottom sheet is raised to show them all
            page.click("#sheet-handle")
        open_groups(page)
        assert page.evaluate(UNREACHABLE) == []
        if width < 700:
            page.click("#sheet-handle")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=DOCS_SHOTS / f"{game}-{width}.png")
        if game == "rift-domination" and width == 1366:
            # a planet's facts (tile, upgrades, units) in the card beside the board
            page.hover("#board [data-planet] circle >> nth=0")
            page.wait_for_selector("#facts:not([hidden]) h3")
            page.screenshot(path=DOCS_SHOTS / "rift-domination-planet-facts.png")
        no_horizontal_scroll(page)
        page.close()
    assert not errors, errors


def _wait_turn(page) -> str:
    page.wait_for_selector("body[data-turn]:not([data-turn='waiting'])", state="attached",
                           timeout=30_000)
    return page.locator("body").get_attribute("data-turn")


def _legal(page) -> list[str]:
    buttons = page.locator("#groups button.action")
    return [buttons.nth(i).get_attribute("data-notation") for i in range(buttons.count())]


def _changed(page, seq: str) -> None:
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")


def _board_object(page, notation: str) -> tuple[str, str] | None:
    """The ship (by number) or sector an action names, when it is drawn on the board."""
    for word in notation.split()[1:]:
        for attr in ("data-ship", "data-sector"):
            found = page.locator(f'#board [{attr}="{word}"]')
            if found.count() and found.first.is_visible():
                return attr, word
    return None


def _game_over_dialog(page) -> None:
    page.wait_for_selector("#gameover[open]")
    assert "Winner" in page.locator("#result").inner_text() or "Nobody won" in \
        page.locator("#result").inner_text()
    headers = page.locator("#result table.scores thead th").all_inner_texts()
    assert headers[0] == "player" and "total" in headers, headers
    assert page.locator("#result table.scores tbody tr").count() == 2
    assert page.locator("#replay-button").get_attribute("href").startswith("/replay?game=")
    assert page.locator("#rematch").is_visible()


FULL = [pytest.param(False, id="first-decisions"), pytest.param(True, id="whole-game",
                                                                  marks=pytest.mark.slow)]
"""The first decisions in the quick run; the whole game (some 20 s) with ``-m slow``."""
QUICK_DECISIONS = 8


@pytest.mark.parametrize("full", FULL)
def test_galactic_domination_is_played_to_its_end_on_a_phone_by_tapping(browser, server, full):
    """360x740 with touch: each decision is tapped, on the board when the action names a
    ship (the bottom sheet opens on that ship's actions) or in the sheet's list otherwise;
    the page never scrolls sideways; the game-over dialog has its score table."""
    import random

    gid, token = seated_game(server, "galactic-domination", 2, 7, options={"turn_limit": 1})
    errors: list[str] = []
    page = new_page(browser, errors, 360, 740, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(".gd-board")
    rng = random.Random(3)
    decisions = 0
    by_board = 0
    while _wait_turn(page) == "yours":
        seq = page.locator("body").get_attribute("data-seq")
        choice = rng.choice(_legal(page))
        target = _board_object(page, choice)
        if target is not None:
            attr, word = target
            page.locator(f'#board [{attr}="{word}"]').first.tap(
                position={"x": 20, "y": 8} if attr == "data-sector" else None)
            option = page.locator(f'#selection-list button[data-notation="{choice}"]')
            option.first.tap()
            by_board += 1
        else:
            if page.locator("#side:not(.open)").count():
                page.tap("#sheet-handle")
            open_groups(page, tap=True)
            page.locator(f'#groups button[data-notation="{choice}"]').first.tap()
        _changed(page, seq)
        if page.locator("#side.open").count() and not page.locator("#gameover[open]").count():
            page.tap("#sheet-handle")
        decisions += 1
        assert decisions < 400
        if decisions == 6:
            no_horizontal_scroll(page)
            page.screenshot(path=DOCS_SHOTS / "galactic-domination-phone-play.png")
        if not full and decisions == QUICK_DECISIONS:
            break
    if full:
        _game_over_dialog(page)
        page.screenshot(path=DOCS_SHOTS / "galactic-domination-phone-game-over.png")
    assert by_board > 3 and decisions >= QUICK_DECISIONS
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("full", FULL)
def test_galactic_domination_is_played_to_its_end_from_the_keyboard(browser, server, full):
    """1366x768, keyboard only: Tab reaches the board in one stop, the arrow keys move
    between its objects, Enter on a ship shows its actions and moves to the first, Enter
    plays it; other decisions are typed into the action search ("/", the notation, Enter).
    Escape leaves a selection and comes back to the board."""
    import random

    gid, token = seated_game(server, "galactic-domination", 2, 8, options={"turn_limit": 1})
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 768)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(".gd-board")
    rng = random.Random(5)
    decisions = 0
    by_board = 0
    since = 0
    while _wait_turn(page) == "yours":
        seq = page.locator("body").get_attribute("data-seq")
        legal = _legal(page)
        # back to this seat after the bot's turn: what happened since is summarised
        since += page.locator("#since:not([hidden]) li").count() > 0
        assert page.locator("#announce").inner_text().startswith("Your turn.")
        # one tab stop: the board's objects are tabindex -1 but one
        assert page.locator("#board [tabindex='0']").count() == 1
        choice = rng.choice(legal)
        target = _board_object(page, choice)
        played = False
        if target is not None and by_board < 3:
            attr, word = target
            at = f"document.activeElement.getAttribute('{attr}')"
            page.locator("body").press("Escape")
            page.evaluate("document.activeElement && document.activeElement.blur()")
            for _ in range(40):  # Tab until the board
                page.keyboard.press("Tab")
                if page.evaluate("!!document.activeElement.closest('#board')"):
                    break
            for key in ("Home", *["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown"] * 12):
                if page.evaluate(at) == word:
                    break
                page.keyboard.press(key)
            if page.evaluate(at) == word:
                page.keyboard.press("Enter")
                for _ in range(60):
                    focused = page.evaluate("document.activeElement.getAttribute('data-notation')")
                    if focused == choice:
                        page.keyboard.press("Enter")
                        played = True
                        by_board += 1
                        break
                    page.keyboard.press("Tab")
        if not played:
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("/")
            page.keyboard.type(choice)
            page.keyboard.press("Enter")
        _changed(page, seq)
        decisions += 1
        assert decisions < 400
        if not full and decisions == QUICK_DECISIONS:
            break
    if full:
        _game_over_dialog(page)
        assert page.locator("#announce").inner_text().startswith("The game is over.")
        assert since > 0
    assert by_board > 0 and decisions >= QUICK_DECISIONS
    assert not errors, errors
    page.close()


def _axe_problems(page) -> list[str]:
    """The serious and critical findings of axe-core on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def test_no_serious_accessibility_problem_on_the_lobby_tables_and_replay_viewer(browser, server,
                                                                                tables):
    """axe-core (through axe-playwright-python) on the lobby, a seat's table of each of the
    four games, its rules dialog, and the replay viewer: no serious or critical finding."""
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 768)
    problems: dict[str, list[str]] = {}
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    problems["lobby"] = _axe_problems(page)
    gids = {}
    for game, (_players, _seed, board, _moves) in TABLES.items():
        gid, token = tables[game]
        gids[game] = gid
        page.goto(server.url(f"/games/{gid}?token={token}"))
        page.wait_for_selector(board)
        page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
        problems[game] = _axe_problems(page)
    page.click("#rules-button")
    page.wait_for_selector("#rules-toc li")
    problems["rules"] = _axe_problems(page)
    assert page.locator("#rules-text .symbol-list li").count() >= 10
    page.screenshot(path=DOCS_SHOTS / "how-to-play.png")
    page.goto(server.url(f"/replay?game={gids['rift-domination']}"))
    page.wait_for_selector(".rd-board")
    problems["replay"] = _axe_problems(page)
    page.screenshot(path=DOCS_SHOTS / "replay-viewer.png")
    page.set_viewport_size({"width": 360, "height": 740})
    page.reload()
    page.wait_for_selector(".rd-board")
    no_horizontal_scroll(page)
    page.screenshot(path=DOCS_SHOTS / "replay-viewer-360.png")
    assert not {k: v for k, v in problems.items() if v}, problems
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("game", list(TABLES))
def test_the_guided_first_game_runs_to_its_end(browser, server, game):
    """The lobby's guided first game (its guide file: fixed seed, bots, steps): the table
    shows each step's hint with its rule and outlines the actions it teaches; playing them
    walks the guide to its last step."""
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 768)
    page.goto(server.url("/"))
    page.fill("#name", "Ann")
    page.click(f'#learn-games button[data-guide="{game}"]')
    page.wait_for_selector(TABLES[game][2])
    page.wait_for_selector("#guide:not([hidden])", state="attached")
    assert "guide=1" in page.url
    hints = set()
    for _ in range(120):
        _wait_turn(page)
        if page.locator("body").get_attribute("data-guide") == "done" \
                or page.locator("body").get_attribute("data-turn") == "over":
            break
        seq = page.locator("body").get_attribute("data-seq")
        hint = page.locator("#guide .guide-hint")
        picks = page.locator("#groups button.guide-pick")
        if hint.count():
            hints.add(hint.inner_text())
            assert page.locator("#guide .rule-id").inner_text().startswith("rule ")
        target = picks.first if picks.count() else page.locator("#groups button.action").last
        open_groups(page)
        target.click()
        _changed(page, seq)
    assert page.locator("body").get_attribute("data-guide") == "done", \
        (page.locator("body").get_attribute("data-turn"), hints, page.locator("#guide").inner_text())
    assert "Guided game: done" in page.locator("#guide").inner_text()
    assert len(hints) >= 3
    assert not errors, errors
    page.close()


def test_offline_banner_disables_the_actions_and_search_matches_action_names(browser, server,
                                                                            tables):
    """Losing the network: a banner says so in plain words, the status stops saying "your
    turn" and the action buttons are disabled; back online, the table rechecks the server
    and comes back. The action search matches the actions' names, not their explanations;
    the lobby fits a 360 px screen."""
    errors: list[str] = []
    gid, token = tables["galactic-domination"]
    page = new_page(browser, errors, 1366, 768)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
    legal = _legal(page)
    # a sector's name: in some notations, never in an action's kind; every explanation of
    # a move names sectors too, so a search of the explanations would find more
    sectors = sorted({w for n in legal for w in n.split() if len(w) == 2 and w[1].isdigit()})
    word = sectors[0]
    page.fill("#search", word)
    shown = _legal(page)
    assert shown == [n for n in legal if word.lower() in n.lower()]
    page.fill("#search", "")
    page.context.set_offline(True)
    page.wait_for_selector("#offline:not([hidden])")
    assert "offline" in page.locator("#offline").inner_text().lower()
    assert page.locator("#status").inner_text() == "offline"
    assert page.locator("#groups button.action:enabled").count() == 0
    page.context.set_offline(False)
    page.wait_for_selector("#offline[hidden]", state="attached")
    assert page.locator("#groups button.action:enabled").count() == len(legal)
    page.close()
    lobby = new_page(browser, errors, 360, 740)
    lobby.goto(server.url("/"))
    lobby.wait_for_selector("#learn-games button")
    no_horizontal_scroll(lobby)
    lobby.screenshot(path=DOCS_SHOTS / "lobby-360.png")
    lobby.close()
    assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e], errors


def test_interstellar_ambitions_is_played_to_its_end_on_a_phone_by_tapping(browser, server):
    """390x844 with touch, two heuristic bots, a one-round game: a card named by the action
    is tapped on the board (the sheet opens on its actions), an action of the track by
    tapping the seat's cell of the track, anything else in the sheet; the secret combat
    order is confirmed by tapping. The game-over dialog gives the score by source."""
    import random

    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    gid, token = seated_game(server, "interstellar-ambitions", 3, 4, options={"round_limit": 1})
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(".ia-table")
    rng = random.Random(6)
    decisions = by_board = 0
    while _wait_turn(page) == "yours":
        seq = page.locator("body").get_attribute("data-seq")
        if page.locator("#confirm-order").count():
            page.locator("#confirm-order").tap()
            _changed(page, seq)
            continue
        choice = rng.choice(_legal(page))
        words = choice.replace(":", " ").split()
        spot = None
        for word in words[1:]:
            for selector in (f'#board [data-card="{word}"]', f'#board [data-track="0:{word}"]'):
                if page.locator(selector).count() and page.locator(selector).first.is_visible():
                    spot = page.locator(selector).first
                    break
            if spot is not None:
                break
        option = page.locator(f'#selection-list button[data-notation="{choice}"]')
        if spot is not None:
            spot.tap()
        if spot is not None and option.count():
            option.first.tap()
            by_board += 1
        else:
            if page.locator("#side:not(.open)").count():
                page.tap("#sheet-handle")
            if page.locator("#selection:not([hidden])").count():
                page.locator("#clear-selection").tap()
            open_groups(page, tap=True)
            page.locator(f'#groups button[data-notation="{choice}"]').first.tap()
        _changed(page, seq)
        if page.locator("#side.open").count() and not page.locator("#gameover[open]").count():
            try:
                page.tap("#sheet-handle", timeout=5000)
            except PlaywrightTimeout:  # the game ended meanwhile: its dialog covers the sheet
                assert page.locator("#gameover[open]").count()
                break
        no_horizontal_scroll(page)
        decisions += 1
        assert decisions < 400
    page.wait_for_selector("#gameover[open]")
    headers = page.locator("#result table.scores thead th").all_inner_texts()
    assert "planets" in headers and "ambitions" in headers, headers  # score by source
    page.screenshot(path=DOCS_SHOTS / "interstellar-ambitions-phone-game-over.png")
    assert by_board > 0 and decisions >= QUICK_DECISIONS
    assert not errors, errors
    page.close()
