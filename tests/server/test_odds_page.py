"""The battle calculator (/odds) in a real browser, and its JSON API.

Browser: a fleet is built by clicking units, the odds appear and equal the API's answer
for the same set-up; the address shares the set-up: opened in a new browser context it
shows the same numbers; the lobby links to it. API: forms, bounded input (422 with the
reason), the seat's position of a running game from that seat's own knowledge.
The pages run under the server's Content-Security-Policy: waits are by selector.
"""

from __future__ import annotations

import time

import httpx
import pytest

from .conftest import Server, create, join
from .test_browser import SHOTS, playwright_api

DOCS_SHOTS = SHOTS.parent / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('odds') / 'odds.db'}")
    s.start()
    yield s
    s.kill()



def _page(context, errors):
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 4" not in m.text else None)
    return page


def _odds(server, body: dict) -> dict:
    """The odds API's report for ``body``, as a client that honours the calculator's share
    would get it: a 429 (the page's own calculations just used the share) is asked again
    after its Retry-After."""
    deadline = time.monotonic() + 60
    while True:
        r = httpx.post(server.url("/api/odds"), json=body, timeout=30)
        if r.status_code != 429 or time.monotonic() > deadline:
            break
        time.sleep(float(r.headers["Retry-After"]))
    assert r.status_code == 200, r.text
    return r.json()


def _numbers(page) -> dict[str, str]:
    cells = page.locator("#outcomes td[data-p]")
    return {cells.nth(i).get_attribute("data-p"): cells.nth(i).inner_text()
            for i in range(cells.count())}


def test_build_by_clicking_share_and_reopen(server, browser):
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = _page(ctx, errors)
    page.goto(server.url("/"))
    page.click("a[href='/odds']")  # the lobby links to the calculator
    page.wait_for_selector("body[data-game='rift-domination']")
    # carrier with 2 infantry and 2 diplomats aboard against a destroyer (issue 28's case)
    page.click("#palette-attacker button[data-unit='carrier']")
    for _ in range(2):
        page.click("#palette-attacker button[data-unit='infantry']")
        page.click("#palette-attacker button[data-unit='diplomat']")
    page.click("#palette-defender button[data-unit='destroyer']")
    page.click("#palette-defender button[data-unit='destroyer']")
    page.click("#fleet-defender button[data-less='destroyer']")  # back to one
    page.wait_for_selector("body[data-odds='ready']")
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text("74.42%")
    shown = _numbers(page)
    # the same numbers from the API
    api = _odds(server, {
        "game": "rift-domination", "attacker": "carrier, 2 infantry, 2 diplomat",
        "defender": "destroyer"})
    assert shown["attacker_total"] == f"{100 * api['attacker_win_total']:.2f}%"
    assert shown["mutual_destruction"] == f"{100 * api['outcomes']['mutual_destruction']:.2f}%"
    # at least N survive
    page.fill("#least-n", "3")
    playwright_api.expect(page.locator("#least-p")).to_have_text(
        f"{100 * api['survivors_at_least'][0]['3']:.2f}%")
    # damage changes the odds at once
    page.click("#palette-attacker button[data-unit='destroyer']")
    page.select_option("#fleet-attacker select[data-damage='destroyer']", "1")
    page.wait_for_selector("#fleet-attacker li[data-entry='destroyer/1']")
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).not_to_have_text(
        "74.42%")
    page.wait_for_selector("body[data-odds='ready']")
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_SHOTS / "odds_calculator.png"), full_page=True)
    address = page.locator("#share").input_value()
    assert "destroyer%2F1" in address or "destroyer/1" in address
    api = _odds(server, {
        "game": "rift-domination", "attacker": "carrier, 2 infantry, 2 diplomat, destroyer/1",
        "defender": "destroyer"})
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text(
        f"{100 * api['attacker_win_total']:.2f}%")
    shown = _numbers(page)
    ctx.close()
    # the shared address in a fresh browser context shows the same set-up and numbers
    other = browser.new_context(viewport={"width": 1400, "height": 950})
    page = _page(other, errors)
    page.goto(address)
    page.wait_for_selector("#fleet-attacker li[data-entry='destroyer/1']")
    page.wait_for_selector("body[data-odds='ready']")
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text(
        shown["attacker_total"])
    assert _numbers(page) == shown
    other.close()
    assert not errors


def test_settings_and_the_other_game(server, browser):
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = _page(ctx, errors)
    page.goto(server.url("/odds"))
    page.wait_for_selector("body[data-game='rift-domination']")
    page.click("#palette-attacker button[data-unit='fighter']")
    page.click("#palette-defender button[data-unit='fighter']")
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text("34.92%")
    # a card the exact model leaves out makes the result a Monte Carlo estimate, said so
    # with its error bars and the reason
    page.check("#setting-attacker_cards input[data-choice='weapon_industry']")
    playwright_api.expect(page.locator("#method")).to_contain_text("Monte Carlo estimate")
    playwright_api.expect(page.locator("#method")).to_contain_text("Weapon Industry")
    # Interstellar Ambitions: ships, planning level from the form
    page.select_option("#game", "interstellar-ambitions")
    page.wait_for_selector("body[data-game='interstellar-ambitions']")
    page.click("#palette-attacker button[data-unit='destroyer']")
    page.click("#palette-defender button[data-unit='corvette']")
    page.select_option("#setting-level", "3")
    page.wait_for_selector("body[data-odds='ready']")
    api = _odds(server, {
        "game": "interstellar-ambitions", "attacker": "destroyer", "defender": "corvette",
        "settings": {"level": 3}})
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text(
        f"{100 * api['attacker_win_total']:.2f}%")
    # a refusal is shown in words, and the odds go away
    for _ in range(3):
        page.click("#palette-attacker button[data-unit='battleship']")
    playwright_api.expect(page.locator("#error")).to_contain_text("HEAVY")
    ctx.close()
    assert not errors


def test_from_a_table_without_a_battle_reads_the_seat_from_storage(server, browser):
    with httpx.Client(base_url=server.url("")) as c:
        gid = create(c, "rift-domination", ["human", "heuristic"])
        token = join(c, gid, "Ann", 0)
    errors: list[str] = []
    ctx = browser.new_context()
    page = _page(ctx, errors)
    page.goto(server.url("/odds?from=" + gid))
    playwright_api.expect(page.locator("#origin")).to_contain_text("holds no seat")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"starlanes:{gid}", f'{{"token": "{token}", "seat": 0}}'])
    page.goto(server.url("/odds?from=" + gid))
    playwright_api.expect(page.locator("#origin")).to_contain_text("in no battle")
    assert token not in page.url
    ctx.close()
    assert not errors


def _heuristic_actions(n: int) -> list[tuple[int, str]]:
    """The first ``n`` actions (seat, notation) of a seeded heuristic game (seed 1): after
    91 of them the second seat's fleet (3 infantry aboard) meets one with 3 infantry
    aboard."""
    import starlanes
    from starlanes.agents.registry import make_agent

    s = starlanes.load("rift-domination", players=2, seed=1).new_initial_state()
    bots = [make_agent("heuristic", "rift-domination", k) for k in (1, 2)]
    out = []
    for _ in range(n):
        seat = s.current_player()
        action = bots[seat].act(s)
        out.append((seat, str(action)))
        s.apply(action)
    return out


def test_a_battle_at_a_table_opens_in_the_calculator(server, browser):
    with httpx.Client(base_url=server.url("")) as c:
        r = c.post("/api/games", json={"game": "rift-domination", "players": 2,
                                       "seats": ["human", "human"], "seed": 1})
        gid = r.json()["id"]
        tokens = [join(c, gid, "Ann", 0), join(c, gid, "Bob", 1)]
        seq = 0
        for seat, notation in _heuristic_actions(91):
            r = c.post(f"/api/games/{gid}/actions", json={"seq": seq, "action": notation},
                       headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
            seq = r.json()["seq"]
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    table = _page(ctx, errors)
    table.goto(server.url(f"/games/{gid}?token={tokens[1]}"))
    link = table.locator(".battle-panel a.odds-link")
    link.wait_for()
    asked: list[dict] = []  # what the calculator page asks the odds API
    ctx.on("request", lambda r: asked.append(r.post_data_json)
           if r.method == "POST" and r.url.endswith("/api/odds") else None)
    with ctx.expect_page() as opened:
        link.click()
    page = opened.value
    page.wait_for_selector("#fleet-defender li[data-entry='infantry']")
    page.wait_for_selector("body[data-odds='ready']")
    assert tokens[1] not in page.url and "from=" not in page.url
    playwright_api.expect(page.locator("#origin")).to_contain_text("your seat is in")
    assert page.locator("#fleet-defender li[data-entry='infantry'] .count").inner_text() == "3"
    # the page asked for the battle's fleets as they stand (carried infantry included),
    # and shows what the API answers for them
    body = asked[-1]
    assert "3 infantry" in body["defender"] and "infantry" in body["attacker"]
    assert {body["settings"]["attacker_faction"], body["settings"]["defender_faction"]} == {
        "ilune_seers", "korrath_hegemony"}
    api = _odds(server, body)
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text(
        f"{100 * api['attacker_win_total']:.2f}%")
    ctx.close()
    assert not errors


def test_a_busy_calculator_is_asked_again_after_the_seconds_it_names(server, browser):
    """A 429 with Retry-After (the calculator's share is spent) is not an error to the
    player: the page says it is waiting, asks again after those seconds and shows the odds."""
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1400, "height": 950})
    page = _page(ctx, errors)
    refused: list[str] = []

    def busy_once(route):
        # Only the asking for the whole set-up (a defender in it) is refused: on a loaded
        # machine the first click alone may be asked before the second click lands.
        body = route.request.post_data_json if route.request.method == "POST" else None
        if body and body.get("defender") and not refused:
            refused.append(route.request.post_data)
            route.fulfill(status=429, headers={"Retry-After": "3"}, json={
                "error": "the battle calculator has used its share of the server for now; "
                         "try again in 3 seconds"})
        else:
            route.continue_()

    # every status the page shows while it waits is kept, so that a slow poll cannot miss
    # the three seconds of waiting
    page.add_init_script("""
        window.__waits = [];
        new MutationObserver(() => {
          const s = document.getElementById('status');
          if (document.body.dataset.odds === 'waiting' && s)
            window.__waits.push([s.textContent, document.getElementById('error').textContent]);
        }).observe(document, {subtree: true, childList: true, characterData: true,
                              attributes: true, attributeFilter: ['data-odds']});
    """)
    page.route("**/api/odds", busy_once)
    page.goto(server.url("/odds"))
    page.wait_for_selector("body[data-game='rift-domination']")
    page.click("#palette-attacker button[data-unit='fighter']")
    page.click("#palette-defender button[data-unit='fighter']")
    # seen in the page itself while it waits
    page.wait_for_function(
        "() => window.__waits.some(([status, error]) =>"
        " status.includes('asking again in 3 s') && error === '')", timeout=60_000)
    # the server itself may refuse the next asking too when the machine is loaded: the page
    # then waits the seconds it names, so the odds are given the time of a few such waits
    playwright_api.expect(page.locator("td[data-p='attacker_total']")).to_have_text(
        "34.92%", timeout=60_000)
    assert page.locator("#status").inner_text() == ""
    assert len(refused) == 1
    ctx.close()
    assert not errors
