"""The Galactic Domination, Interstellar Ambitions and Galactic Empires tables and the replay
viewer in a real browser: Playwright for Python driving Debian's Chromium against
``starlanes serve`` in a subprocess.

Each game is created in the lobby against bots with a short limit (rounds or turns) and
played to its end by clicking the board (a ship, card or planet named by the chosen action,
then that action in the list of the object's actions) or the action list otherwise; the
secret combat order of Interstellar Ambitions is given with its order list. Screenshots go
to ``screenshots/``. The replay viewer steps through a running game (no digest shown) and
a finished one, whose every step shows the digest of the engine's replay of its record.
"""

from __future__ import annotations

import random

import httpx
import pytest

from .conftest import open_groups
from .test_browser import CHROMIUM, SHOTS, _page, server  # noqa: F401
from .test_browser_board_play import _bring

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

BOARD_OBJECTS = ("data-ship", "data-card", "data-sector", "data-planet")


def _decide(page, rng: random.Random) -> None:
    """One decision as a player takes it: the combat order with its order list; else a
    random legal action, clicked on the board when it names something drawn there, in the
    grouped action list otherwise."""
    seq = page.locator("body").get_attribute("data-seq")
    if page.locator("#confirm-order").count():
        page.locator("#confirm-order").click()
        page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")
        return
    buttons = page.locator("#groups button.action")
    notations = [buttons.nth(i).get_attribute("data-notation") for i in range(buttons.count())]
    choice = rng.choice(notations)
    clicked = False
    for word in choice.split()[1:]:
        for attr in BOARD_OBJECTS:
            target = page.locator(f'#board [{attr}="{word}"]')
            if target.count() and target.first.is_visible():
                # an object near the map's edge is brought into sight by its edge marker
                _bring(page, target.first, touch=False)
                # a sector is clicked by its name strip (its middle may hold a ship)
                target.first.click(position={"x": 30, "y": 14} if attr == "data-sector"
                                   else None)
                option = page.locator(f'#selection-list button[data-notation="{choice}"]')
                if option.count():
                    option.first.click()
                    clicked = True
                break
        if clicked:
            break
    if not clicked:
        open_groups(page)
        page.locator(f'#groups button[data-notation="{choice}"]').first.click()
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")


def _play_from_lobby(browser, server, game, players, option, limit, board, shots):  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for i in range(1, players):
        page.locator("#seats select").nth(i).select_option("heuristic")
    page.locator("#options-box summary").click()
    page.fill(f'[data-option="{option}"]', str(limit))
    page.fill("#name", "Ann")
    page.click("#create-button")
    page.wait_for_selector(board)
    rng = random.Random(2)
    decisions = 0
    while True:
        page.wait_for_selector("body[data-turn]:not([data-turn='waiting'])", state="attached",
                               timeout=120_000)
        if page.locator("body").get_attribute("data-turn") == "over":
            break
        if decisions in shots:
            page.screenshot(path=SHOTS / shots[decisions])
        for selector, name in (("#confirm-order", f"{game}-combat-order.png"),
                               (".ge-window.yours", f"{game}-reaction.png"),
                               (".ia-combat", f"{game}-fight.png")):
            if page.locator(selector).count() and not (SHOTS / name).exists():
                page.screenshot(path=SHOTS / name)
        _decide(page, rng)
        decisions += 1
        assert decisions < 2000
    page.wait_for_selector("#gameover[open]")
    page.screenshot(path=SHOTS / f"{game}-game-over.png")
    assert "Winner" in page.locator("#result").inner_text()
    # the scores as a table with its headers, the replay and the record
    headers = page.locator("#result table.scores thead th").all_inner_texts()
    assert headers[0] == "player" and headers[-2:] == ["total", "result"], headers
    assert page.locator("#result table.scores tbody tr").count() == players
    gid = page.url.split("/games/")[1].split("?")[0]
    record = httpx.get(server.url(f"/api/games/{gid}/record")).json()
    assert record["finished"] and record["game"] == game
    assert decisions > 5
    assert not errors, errors
    page.close()
    return gid


def test_galactic_domination_is_played_to_its_end_by_clicking(browser, server):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    _play_from_lobby(browser, server, "galactic-domination", 2, "turn_limit", 2, ".gd-board",
                     {8: "galactic-domination-setup.png", 20: "galactic-domination-table.png"})


def test_interstellar_ambitions_is_played_to_its_end_by_clicking(browser, server):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    _play_from_lobby(browser, server, "interstellar-ambitions", 3, "round_limit", 2,
                     ".ia-table", {12: "interstellar-ambitions-table.png"})


def test_galactic_empires_is_played_to_its_end_by_clicking(browser, server):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    _play_from_lobby(browser, server, "galactic-empires", 2, "turn_cap", 4, ".ge-table",
                     {10: "galactic-empires-table.png"})


def test_the_replay_viewer_steps_through_a_game_and_its_digests_once_it_is_over(browser, server):  # noqa: F811
    """A game played through the API. While it runs, the viewer steps through the
    spectators' view with the button and the keyboard and shows no digest (the digest of
    the full state is for a finished game); once it is over, every step shows the digest of
    the engine's own replay of the record up to that step, forwards, backwards and from a
    shared link."""
    from starlanes.engine import GameRecord, load

    SHOTS.mkdir(parents=True, exist_ok=True)
    gid = httpx.post(server.url("/api/games"), json={
        "game": "galactic-domination", "players": 2, "seats": ["human", "human"],
        "seed": 5, "options": {"turn_limit": 1}}).json()["id"]
    tokens = [httpx.post(server.url(f"/api/games/{gid}/join"), json={"name": n, "seat": i})
              .json()["token"] for i, n in enumerate(("Ann", "Bob"))]
    rng = random.Random(9)

    def play(count: int) -> None:
        for _ in range(count):
            seat = httpx.get(server.url(f"/api/games/{gid}/view")).json()["waiting_for"]
            if seat is None:
                return
            mine = httpx.get(server.url(f"/api/games/{gid}/view"),
                             headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            r = httpx.post(server.url(f"/api/games/{gid}/actions"),
                           json={"seq": mine["seq"],
                                 "action": rng.choice(mine["legal"])["notation"]},
                           headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200 and set(r.json()) >= {"applied", "seq"}, r.text

    play(20)
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url(f"/replay?game={gid}&step=0"))
    page.wait_for_selector(".gd-board")
    for step in range(1, 5):
        if step % 2:
            page.click("#next")
        else:
            page.locator("body").press("ArrowRight")
        page.wait_for_selector(f"body[data-step='{step}']", state="attached")
        assert page.locator("body").get_attribute("data-digest") is None
    assert page.locator("#step-label").inner_text() == "action 4 of 20"
    # a seat's view of a running game is not offered (the server would refuse it)
    assert page.locator("#seat option[value='0']").is_disabled()
    assert page.locator("#seat-note").is_visible()

    play(500)
    record = GameRecord.from_json(httpx.get(server.url(f"/api/games/{gid}/record")).text)
    assert record.finished
    game = load("galactic-domination", players=2, seed=record.seed, **record.options)
    state = game.new_initial_state()
    digests = [state.digest()]
    for text in record.actions:
        state.apply(game.parse_action(state, text))
        digests.append(state.digest())
    total = len(record.actions)
    page.goto(server.url(f"/replay?game={gid}&step=0"))
    page.wait_for_selector("body[data-step='0']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == digests[0]
    for step in range(1, 21):
        if step % 2:
            page.click("#next")
        else:
            page.locator("body").press("ArrowRight")
        page.wait_for_selector(f"body[data-step='{step}']", state="attached")
        assert page.locator("body").get_attribute("data-digest") == digests[step]
        assert page.locator("#last-action").inner_text() == f"{step}: {record.actions[step - 1]}"
    page.locator("body").press("End")
    page.wait_for_selector(f"body[data-step='{total}']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == digests[-1] == record.digest
    assert page.locator("#step-label").inner_text() == f"action {total} of {total}"
    page.click("#prev")
    page.wait_for_selector(f"body[data-step='{total - 1}']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == digests[total - 1]
    log_lines = page.locator("#log li").count()
    page.click("#first")
    page.wait_for_selector("body[data-step='0']", state="attached")
    assert page.locator("#log li").count() < log_lines
    page.goto(server.url(f"/replay?game={gid}&step=7"))
    page.wait_for_selector("body[data-step='7']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == digests[7]
    page.screenshot(path=SHOTS / "replay-viewer.png")
    assert not [e for e in errors if "403" not in e], errors
    page.close()


def _human_game(server, game, players, seed):  # noqa: F811
    gid = httpx.post(server.url("/api/games"), json={
        "game": game, "players": players, "seats": ["human"] * players, "seed": seed}).json()["id"]
    tokens = [httpx.post(server.url(f"/api/games/{gid}/join"), json={"name": f"N{i}", "seat": i})
              .json()["token"] for i in range(players)]
    return gid, tokens


def _drive(server, gid, tokens, until, prefer, rng, limit=3000):  # noqa: F811
    """Play through the API (random, preferring the words in ``prefer``) until ``until(view)``
    holds for the seat to decide; returns that seat and its view."""
    with httpx.Client() as http:
        for _ in range(limit):
            seat = http.get(server.url(f"/api/games/{gid}/view")).json()["waiting_for"]
            assert seat is not None, "the game ended before the situation arose"
            v = http.get(server.url(f"/api/games/{gid}/view"),
                         headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
            if until(v):
                return seat, v
            legal = [a["notation"] for a in v["legal"]]
            liked = [a for a in legal if a.split()[0] in prefer]
            action = rng.choice(liked) if liked and rng.random() < 0.7 else rng.choice(legal)
            r = http.post(server.url(f"/api/games/{gid}/actions"),
                          json={"seq": v["seq"], "action": action},
                          headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
    raise AssertionError("the situation did not arise")


def test_the_secret_combat_order_is_chosen_by_ordering_the_ships(browser, server):  # noqa: F811
    """Interstellar Ambitions (IA-RAID, the secret order of ships): the seat reorders its
    ships in the order list and confirms; the table plays the engine's order decisions in
    that order and the seat's view shows its own order, the opponent's still face down."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    gid, tokens = _human_game(server, "interstellar-ambitions", 3, 11)
    seat, v = _drive(server, gid, tokens, lambda v: v["observation"]["pending"]["kind"] == "order"
                     and len(v["legal"]) > 1, ("raid", "invade", "build", "place"),
                     random.Random(5))
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url(f"/games/{gid}?token={tokens[seat]}"))
    page.wait_for_selector("#confirm-order")
    first = page.locator(".ia-order li").nth(0).get_attribute("data-order")
    page.locator(".ia-order li").nth(0).locator("button[aria-label=later]").click()
    wanted = [page.locator(".ia-order li").nth(i).get_attribute("data-order")
              for i in range(page.locator(".ia-order li").count())]
    assert wanted[1] == first
    page.screenshot(path=SHOTS / "interstellar-ambitions-combat-order.png")
    page.click("#confirm-order")
    page.wait_for_selector("#confirm-order", state="detached")
    import time

    deadline = time.monotonic() + 30
    while True:  # the table plays one order decision per ship
        cb = httpx.get(server.url(f"/api/games/{gid}/view"),
                       headers={"Authorization": f"Bearer {tokens[seat]}"}
                       ).json()["observation"]["combat"]
        if cb["committed"][str(seat)] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert cb["committed"][str(seat)]
    assert cb["orders"][str(seat)] == [w.split("/")[0] for w in wanted]
    other = cb["attacker"] if cb["defender"] == seat else cb["defender"]
    spectator = httpx.get(server.url(f"/api/games/{gid}/view")).json()["observation"]["combat"]
    if not spectator["committed"][str(other)]:  # not revealed yet: face down to others
        assert "face-down" in spectator["orders"][str(seat)] or any(
            s["damage"] for s in cb["ships"][0 if cb["attacker"] == seat else 1])
    assert not errors, errors
    page.close()


def test_a_reaction_window_is_shown_to_the_seat_that_may_answer_with_its_pass(browser, server):  # noqa: F811
    """Galactic Empires (reaction windows, GE-FIRE): the answering seat sees a banner naming
    what it may answer, the fire arrow from firer to target, and a pass button that passes;
    the firing seat sees whom the game waits for."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    gid, tokens = _human_game(server, "galactic-empires", 2, 1)
    seat, v = _drive(server, gid, tokens, lambda v: any(
        a["notation"].split()[0] in ("react", "counter") for a in v["legal"]),
        ("aim", "fire", "engage", "play"), random.Random(1))
    errors: list[str] = []
    page = _page(browser, errors)
    other = _page(browser, errors)
    page.goto(server.url(f"/games/{gid}?token={tokens[seat]}"))
    other.goto(server.url(f"/games/{gid}?token={tokens[1 - seat]}"))
    page.wait_for_selector(".ge-window.yours")
    other.wait_for_selector(".ge-window")
    assert "waiting for" in other.locator(".ge-window").inner_text()
    if v["observation"]["pending"] and v["observation"]["pending"]["kind"] == "fire":
        page.wait_for_selector(".ge-fire", state="attached")
    page.screenshot(path=SHOTS / "galactic-empires-reaction.png")
    seq = v["seq"]
    page.locator(".ge-window .pass").click()
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")
    assert not errors, errors
    page.close()
    other.close()


def test_an_uploaded_record_is_stepped_through_from_a_seat_with_its_hand(browser, server, tmp_path):  # noqa: F811
    """A game record file played here (a short Galactic Empires game between random
    players) is loaded in the viewer; its last step shows the record's final digest, and a
    seat's view shows that seat's hand."""
    from starlanes.engine import load

    game = load("galactic-empires", players=2, seed=4, turn_cap=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    record = state.record(["random", "random"])
    path.write_text(record.to_json())
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/replay"))
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".ge-table")
    assert page.locator("body").get_attribute("data-step") == "0"
    page.locator("body").press("End")
    page.wait_for_selector(f"body[data-step='{len(record.actions)}']", state="attached")
    assert page.locator("body").get_attribute("data-digest") == record.digest
    assert "Your hand" not in page.locator("#board").inner_text()
    page.select_option("#seat", "1")
    page.wait_for_selector("text=Your hand")
    page.click("#first")
    page.wait_for_selector("body[data-step='0']", state="attached")
    assert not errors, errors
    page.close()


def test_a_ship_picked_while_the_last_action_is_on_its_way_stays_picked(browser, server):  # noqa: F811
    """The view after a player's action may come (and be drawn) before the server's answer
    to that action. A ship the player picks on the board in between keeps its actions on
    show when the answer arrives: the answer clears only the pick the action was sent
    from. (The answer is held back here until the ship has been picked.)"""
    gid, tokens = _human_game(server, "galactic-domination", 2, 7)
    seat, view = _drive(server, gid, tokens, lambda v: any(
        a["notation"].startswith("move ") for a in v["legal"]), ("place", "move"),
        random.Random(3))
    token = tokens[seat]
    errors: list[str] = []
    page = _page(browser, errors)
    held: list = []

    def hold(route):
        held.append((route, route.fetch()))  # the server takes the action; its answer waits

    page.route("**/api/games/*/actions", hold)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector("body[data-turn='yours']", state="attached")
    seq = page.locator("body").get_attribute("data-seq")
    first = next(a["notation"] for a in view["legal"] if a["notation"].startswith("move "))
    open_groups(page)
    page.locator(f'#groups button[data-notation="{first}"]').first.click()
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")
    assert len(held) == 1
    ship = first.split()[1]  # the ship that moved: still on the board
    page.locator(f'#board [data-ship="{ship}"]').first.click()
    page.wait_for_selector("#selection:not([hidden])")
    assert page.locator("body").get_attribute("data-sending") == first  # still on its way
    route, response = held.pop()
    route.fulfill(response=response)
    page.wait_for_selector("body:not([data-sending])", state="attached")  # answer handled
    assert page.locator("#selection").is_visible()
    assert page.locator("#selection-list button.action").first.is_visible()
    assert not errors, errors
    page.close()
