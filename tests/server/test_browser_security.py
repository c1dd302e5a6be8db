"""The pages as a server on the internet must serve them: in a real browser (Playwright for
Python driving Debian's Chromium against ``starlanes serve`` in a subprocess).

- a table will not load inside another site's frame (Content-Security-Policy
  ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``);
- a seat link's token leaves the address bar at once, and the clean address still plays as
  that seat (the token stays in this browser's storage for the game);
- the lobby, the four tables and the replay viewer run under the server's
  Content-Security-Policy without one violation;
- the lobby offers the bots and content packs of the server's catalogue, and a game whose
  creator chose its seed carries a "seeded" badge in the lobby and at its table.

Screenshots go to ``screenshots/`` (or $STARLANES_SCREENSHOTS).
"""

from __future__ import annotations

import json
import random

import httpx
import pytest

from .conftest import Server
from .test_browser import CHROMIUM, SHOTS, _page, server  # noqa: F401
from .test_browser_tables import _decide, _drive

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

ELSEWHERE = "http://elsewhere.test"
BOARDS = {"rift-domination": ".rd-board", "galactic-domination": ".gd-board",
          "interstellar-ambitions": ".ia-table", "galactic-empires": ".ge-table"}
SHORT = {"rift-domination": {"round_limit": 3}, "galactic-domination": {"turn_limit": 2},
         "interstellar-ambitions": {"round_limit": 2}, "galactic-empires": {"turn_cap": 3}}


def _game(server, game: str, players: int, seed: int | None = None,  # noqa: F811
          **options) -> tuple[str, list[str]]:
    """A game of human seats created through the API, every seat taken; its id and tokens."""
    body = {"game": game, "players": players, "seats": ["human"] * players, "options": options}
    if seed is not None:
        body["seed"] = seed
    r = httpx.post(server.url("/api/games"), json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    tokens = []
    for i in range(players):
        j = httpx.post(server.url(f"/api/games/{gid}/join"), json={"name": f"P{i}", "seat": i})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return gid, tokens


def _waiting(server, gid: str) -> int:  # noqa: F811
    return httpx.get(server.url(f"/api/games/{gid}/view")).json()["waiting_for"]


def _csp_watch(page, found: list[str]) -> None:
    """Collect every Content-Security-Policy violation of the page, across navigations: the
    ``securitypolicyviolation`` events (reported through an exposed function) and the
    console's refusals."""
    page.expose_function("__starlanesViolation", lambda text: found.append(text))
    page.add_init_script("""
        document.addEventListener("securitypolicyviolation", (e) => {
          window.__starlanesViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
            + ` at ${e.sourceFile}:${e.lineNumber} (${e.sample})`);
        });
    """)
    page.on("console", lambda m: found.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)


def _assert_headers(response) -> None:
    """The page came with the server's policy and the other protective headers."""
    headers = response.headers
    policy = headers.get("content-security-policy", "")
    for part in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                 "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"):
        assert part in policy, (part, policy)
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
    assert headers.get("x-frame-options", "").upper() == "DENY", headers
    assert headers.get("referrer-policy") == "no-referrer", headers
    assert headers.get("x-content-type-options") == "nosniff", headers


# ------------------------------------------------------------------ (a) frames
def _framing_page(route, table_url: str) -> None:
    route.fulfill(status=200, content_type="text/html", body=(
        "<!doctype html><title>another site</title><p>another site's page</p>"
        f'<iframe id="table" src="{table_url}" width="900" height="600"></iframe>'))


def test_a_table_refuses_to_load_inside_another_sites_frame(browser, server):  # noqa: F811
    """Another site's page holding a seat link in an iframe gets no table: Chromium refuses
    the frame (frame-ancestors 'none', X-Frame-Options DENY), so no script of the table runs
    there and nothing on it can be clicked through. The same page with the table's
    protective headers stripped does show the table, so the check can see a table."""
    gid, tokens = _game(server, "rift-domination", 2, seed=3)
    table_url = server.url(f"/games/{gid}?token={tokens[0]}")
    errors: list[str] = []
    page = _page(browser, errors)
    page.route(f"{ELSEWHERE}/**", lambda route: _framing_page(route, table_url))
    page.goto(f"{ELSEWHERE}/")
    page.wait_for_load_state("load")
    frame = page.frame_locator("#table")
    assert frame.locator("#board, #title, #actions-box, .rd-board").count() == 0
    page.wait_for_timeout(1500)  # a table that had loaded would have drawn its board by now
    assert frame.locator("#board, .rd-board, #groups button").count() == 0
    assert "another site's page" in page.locator("body").inner_text()
    page.close()

    control = browser.new_page()

    def strip(route):
        answer = route.fetch()
        headers = {k: v for k, v in answer.headers.items()
                   if k.lower() not in ("content-security-policy", "x-frame-options")}
        route.fulfill(response=answer, headers=headers)

    control.route(f"{ELSEWHERE}/**", lambda route: _framing_page(route, table_url))
    control.route(server.url(f"/games/{gid}*"), strip)
    control.goto(f"{ELSEWHERE}/")
    control.frame_locator("#table").locator("#title").wait_for(state="attached", timeout=10_000)
    control.close()


# ------------------------------------------------------------------ (b) tokens
def test_a_seat_links_token_leaves_the_address_bar_and_the_seat_still_plays(browser, server):  # noqa: F811
    """A seat link opened: the token is gone from the address (other query parameters
    stay), the page plays as that seat (its turn, its legal actions, an action taken), the
    copied seat link is the full link, and a reload of the clean address plays on."""
    gid, tokens = _game(server, "rift-domination", 2, seed=8)
    seat = _waiting(server, gid)
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url(""))
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    page.goto(server.url(f"/games/{gid}?from=mail&token={tokens[seat]}#board"))
    page.wait_for_selector(".rd-board")
    assert "token" not in page.url, page.url
    assert page.url == server.url(f"/games/{gid}?from=mail#board"), page.url
    page.go_back()  # the history holds the clean address only (replaced, not pushed)
    page.go_forward()
    page.wait_for_selector(".rd-board")
    assert "token" not in page.url, page.url
    kept = json.loads(page.evaluate(f"localStorage.getItem('starlanes:{gid}')"))
    assert kept["token"] == tokens[seat]

    page.wait_for_selector("body[data-turn='yours']", state="attached")
    assert page.locator("#groups button.action").count() > 0
    assert page.locator(f"#seats .seat-{seat} em").inner_text().strip() == "you"
    page.locator("#link-button").click()
    page.wait_for_selector("#link-button:has-text('link copied')")
    assert page.evaluate("navigator.clipboard.readText()") == \
        server.url(f"/games/{gid}?token={tokens[seat]}")
    rng = random.Random(3)
    _decide(page, rng)

    # the other seat plays until this seat decides again, then the clean address is reloaded
    with httpx.Client() as http:
        for _ in range(200):
            waiting = _waiting(server, gid)
            if waiting == seat:
                break
            other = tokens[waiting]
            v = http.get(server.url(f"/api/games/{gid}/view"),
                         headers={"Authorization": f"Bearer {other}"}).json()
            r = http.post(server.url(f"/api/games/{gid}/actions"),
                          json={"seq": v["seq"], "action": rng.choice(v["legal"])["notation"]},
                          headers={"Authorization": f"Bearer {other}"})
            assert r.status_code == 200, r.text
    assert _waiting(server, gid) == seat
    page.reload()
    page.wait_for_selector(".rd-board")
    assert "token" not in page.url
    page.wait_for_selector("body[data-turn='yours']", state="attached")
    assert page.locator(f"#seats .seat-{seat} em").inner_text().strip() == "you"
    _decide(page, rng)
    assert not errors, errors
    context.close()


def test_undo_names_the_position_it_was_asked_at(browser, server):  # noqa: F811
    """The undo button sends the position the seat saw ({"seq": n}); the decision is taken
    back and the page shows the earlier position."""
    gid, tokens = _game(server, "galactic-domination", 2, seed=12)
    seat, v = _drive(server, gid, tokens, lambda v: v["can_undo"], ("place", "move"),
                     random.Random(2))
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url(f"/games/{gid}?token={tokens[seat]}"))
    page.wait_for_selector(f"body[data-seq='{v['seq']}']", state="attached")
    page.click("#undo")
    page.wait_for_selector(f"body[data-seq='{v['seq'] - 1}']", state="attached")
    assert _waiting(server, gid) == seat
    assert not errors, errors
    page.close()


# ------------------------------------------------------------------ (c) the policy
def test_no_page_breaks_the_content_security_policy(browser, server, tmp_path):  # noqa: F811
    """The lobby (every game's settings drawn), each of the four tables (board, tooltips,
    a few decisions, the rules dialog) and the replay viewer (a stored game stepped through,
    an uploaded record from a seat's view) come with the policy and break none of it."""
    found: list[str] = []
    errors: list[str] = []
    page = _page(browser, errors)
    _csp_watch(page, found)

    _assert_headers(page.goto(server.url("/")))
    page.wait_for_selector("#game option", state="attached")
    for game in BOARDS:
        page.select_option("#game", game)
        page.locator("#seats select").first.wait_for()
    page.locator("#options-box summary").click()
    page.wait_for_selector("#options [data-option]")

    catalogue = {g["id"]: g for g in httpx.get(server.url("/api/catalogue")).json()["games"]}
    ids = {}
    for game, board in BOARDS.items():
        gid, tokens = _game(server, game, catalogue[game]["min_players"], seed=4, **SHORT[game])
        ids[game] = gid
        rng = random.Random(6)
        for _ in range(3):
            seat = _waiting(server, gid)
            response = page.goto(server.url(f"/games/{gid}?token={tokens[seat]}"))
            _assert_headers(response)
            page.wait_for_selector(board)
            page.wait_for_selector("body[data-turn='yours']", state="attached")
            first = page.locator("#groups button.action").first
            if first.count() and first.is_visible():
                first.hover()
                page.wait_for_selector("#tip:not([hidden])")
            _decide(page, rng)
        page.click("#rules-button")
        page.wait_for_selector("#rules[open] #rules-text h2", state="attached")
        page.click("#close-rules")
        page.screenshot(path=SHOTS / f"{game}-under-csp.png")

    _assert_headers(page.goto(server.url(f"/replay?game={ids['galactic-domination']}&step=0")))
    page.wait_for_selector(".gd-board")
    for step in (1, 2):
        page.click("#next")
        page.wait_for_selector(f"body[data-step='{step}']", state="attached")
    from starlanes.engine import load

    game = load("galactic-empires", players=2, seed=4, turn_cap=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = state.record(["random", "random"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".ge-table")
    page.select_option("#seat", "1")
    page.wait_for_selector("text=Your hand")
    page.locator("body").press("End")
    page.wait_for_selector(f"body[data-step='{len(record.actions)}']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == record.digest
    # the community's pages: a profile and the leaderboard, under the same policy
    assert httpx.post(server.url("/api/account/register"), json={
        "name": "Csp", "password": "csp-secret-pass"}).status_code == 201
    _assert_headers(page.goto(server.url("/players/Csp")))
    page.wait_for_selector("#player-name:has-text('Csp')")
    _assert_headers(page.goto(server.url("/leaderboard?game=rift-domination")))
    page.wait_for_selector("#leaderboard table, #leaderboard p")
    assert not found, found
    assert not errors, errors
    page.close()


# ------------------------------------------------------------------ (d) catalogue and seeds
@pytest.fixture
def pack_server(tmp_path):
    """A server whose catalogue holds a content pack for Rift Domination (an empty folder:
    the packaged content as it is, under a name)."""
    folder = tmp_path / "pack"
    folder.mkdir()
    config = tmp_path / "server.toml"
    config.write_text(f"""
[[content_packs]]
name = "tournament"
game = "rift-domination"
path = {json.dumps(str(folder))}
help = "the tournament cards"
""")
    s = Server(f"sqlite:///{tmp_path / 'packs.db'}", config=str(config))
    s.start()
    yield s
    s.kill()


def test_the_lobby_offers_the_catalogues_bots_and_packs(browser, pack_server):  # noqa: F811
    """Each seat offers "human" and the catalogue's bots by name; the content select lists
    the packs of the chosen game only, "packaged content" first; a game created with a bot
    and a pack is stored with their names; a join refused for its name says why."""
    catalogue = httpx.get(pack_server.url("/api/catalogue")).json()
    bots = [b["name"] for b in catalogue["bots"]
            if not b["games"] or "rift-domination" in b["games"]]  # the seat below's game
    assert {"random", "heuristic", "mcts-easy", "mcts-normal", "mcts-hard"} <= set(bots)
    # games already in the list: one of bots with a secret seed, one seeded by its creator
    for body in ({"game": "galactic-domination", "players": 2, "seats": ["human", "mcts-hard"]},
                 {"game": "interstellar-ambitions", "players": 3, "seed": 99,
                  "seats": ["human", "heuristic", "random"]}):
        assert httpx.post(pack_server.url("/api/games"), json=body).status_code == 201
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(pack_server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_selector("#games .badge.seeded")
    page.select_option("#game", "galactic-domination")
    assert page.locator("#content-box").is_hidden()
    page.select_option("#game", "rift-domination")
    page.select_option("#players", "2")
    seat = page.locator("#seats select").nth(1)
    values = seat.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["human", *bots]
    assert seat.input_value() == "heuristic"
    assert page.locator("#content-box").is_visible()
    packs = page.locator("#content option").evaluate_all("os => os.map(o => o.value)")
    assert packs == ["", "tournament"]
    assert page.locator("#content option").first.inner_text() == "packaged content"
    seat.select_option("mcts-easy")
    help_text = next(b["help"] for b in catalogue["bots"] if b["name"] == "mcts-easy")
    assert page.locator("#seats .seat-help").nth(1).inner_text() == help_text
    page.select_option("#content", "tournament")
    page.fill("#name", "Ann")
    page.screenshot(path=SHOTS / "lobby-bots-and-packs.png")
    page.click("#create-button")
    page.wait_for_selector(".rd-board")
    assert "token" not in page.url
    gid = page.url.split("/games/")[1].split("?")[0]
    entry = next(g for g in httpx.get(pack_server.url("/api/games")).json()["games"]
                 if g["id"] == gid)
    assert entry["seats"][1]["bot"] == "mcts-easy"
    assert entry["options"].get("content") == "tournament"
    assert not entry.get("seeded")

    # a join refused for its display name shows the server's reason in the lobby
    open_game = httpx.post(pack_server.url("/api/games"), json={
        "game": "galactic-domination", "players": 2, "seats": ["human", "random"]}).json()["id"]
    page.goto(pack_server.url("/"))
    page.fill("#name", "Ann\u202eevil")
    page.locator(f'tr[data-game="{open_game}"] button:has-text("join seat 0")').click()
    page.wait_for_selector("#games-error:has-text('control characters')")
    assert page.url == pack_server.url("/")
    assert not errors, errors
    page.close()


def test_a_seeded_game_carries_its_badge_in_the_lobby_and_at_its_table(browser, server):  # noqa: F811
    """A game created with a seed is marked "seeded" (its creator may know its future; it
    counts for no rating) in its lobby row and at its table, with the explanation on
    hover; a game with a secret seed carries no badge."""
    seeded, tokens = _game(server, "galactic-domination", 2, seed=21)
    secret, _ = _game(server, "galactic-domination", 2)
    games = {g["id"]: g for g in httpx.get(server.url("/api/games")).json()["games"]}
    assert games[seeded]["seeded"] is True and not games[secret].get("seeded")
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/"))
    page.wait_for_selector(f'tr[data-game="{seeded}"]')
    badge = page.locator(f'tr[data-game="{seeded}"] .badge.seeded')
    assert badge.is_visible()
    assert "Seeded by its creator" in badge.get_attribute("title")
    assert page.locator(f'tr[data-game="{secret}"] .badge').count() == 0

    page.goto(server.url(f"/games/{seeded}?token={tokens[0]}"))
    page.wait_for_selector(".gd-board")
    assert page.locator("#seeded").is_visible()
    page.locator("#seeded").hover()
    page.wait_for_selector("#tip:has-text('Seeded by its creator')")
    page.screenshot(path=SHOTS / "table-seeded-badge.png")
    page.goto(server.url(f"/games/{secret}"))
    page.wait_for_selector(".gd-board")
    assert page.locator("#seeded").is_hidden()
    assert not errors, errors
    page.close()
