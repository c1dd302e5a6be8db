"""The whole social loop between two browsers (Playwright driving Chromium against
``starlanes serve``): Ann challenges Bob by name from his profile while Bob has his own
profile open, which shows the challenge without a reload; Bob accepts in the lobby's
challenges panel, both land at the new table, chat and play a move; Ann resigns and offers
a rematch from the game-over dialog, Bob (who sees the offer in his table's dialog)
accepts it from "my games" in the lobby, and every table of both players, Bob's old one
included, moves to the new game with its new seat. The chat of the first game is in its
replay and its record. Screenshots of each step go to docs/screenshots/social-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import CHROMIUM, Server, open_groups
from .test_browser_community import _player, _token

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path / 'social.db'}")
    s.start()
    yield s
    s.kill()


def _at_new_table(page, old: str) -> str:
    page.wait_for_url(lambda url: "/games/" in url and old not in url, timeout=20_000)
    page.wait_for_selector("#seats em", timeout=20_000)
    return page.url.split("/games/")[1].split("?")[0]


def test_a_challenge_from_a_profile_then_a_rematch_accepted_from_my_games(browser, server):
    errors: list[str] = []
    ann = _player(browser, server, "Ann", errors)
    bob = _player(browser, server, "Bob", errors)
    SHOTS.mkdir(parents=True, exist_ok=True)

    # Bob looks at his own profile; Ann challenges him from it: Rift Domination, ten
    # minutes a player, rated
    bob.goto(server.url("/players/Bob"))
    bob.wait_for_selector("#live-notes summary")
    ann.goto(server.url("/players/Bob"))
    ann.wait_for_selector("#social-box:not([hidden]) #challenge-form")
    ann.click("#follow-button")
    ann.wait_for_selector("#social-result:has-text('You follow Bob')")
    ann.select_option("#challenge-game", "rift-domination")
    ann.select_option("#challenge-clock", "rapid")
    ann.check("#challenge-rated")
    ann.click("#challenge-send")
    ann.wait_for_selector("#challenge-result:has-text('Challenge sent to Bob')")
    ann.screenshot(path=str(SHOTS / "social-profile-challenge.png"), full_page=True)
    # Bob's profile shows it without a reload
    bob.wait_for_function("() => document.querySelector('#live-notes summary')"
                          ".textContent === 'notifications (1)'", timeout=15_000)
    bob.locator("#live-notes summary").click()
    assert "Ann challenges you: Rift Domination" in bob.locator("#live-list").inner_text()

    # Bob finds it in the lobby's challenges panel and accepts: both land at the table
    bob.goto(server.url("/"))
    bob.wait_for_selector("#challenge-list li.offer:has-text('Ann challenges you')")
    assert "rated" in bob.locator("#challenge-list li.offer").inner_text()
    bob.screenshot(path=str(SHOTS / "social-lobby-challenge.png"))
    bob.click("#challenge-list .offer-accept")
    for page in (bob, ann):
        page.wait_for_url("**/games/*", timeout=20_000)
        page.wait_for_selector("#seats em", timeout=20_000)
    (gid, ann_token), (bob_gid, _bob_token) = _token(ann), _token(bob)
    assert gid == bob_gid, "the two players are not at the same table"
    api = httpx.Client(base_url=server.url(""), timeout=10)
    first = api.get(f"/api/games/{gid}/view").json()
    assert {s["name"] for s in first["seats"]} == {"Ann", "Bob"}

    # they chat at the table
    ann.wait_for_selector("#chat-box:not([hidden]) #chat-input")
    ann.fill("#chat-input", "good luck, have fun")
    ann.click("#chat-send")
    bob.wait_for_selector("#chat-box .chat-text:has-text('good luck, have fun')",
                          timeout=15_000)

    # the player whose turn it is plays a move from the action list; both see it
    mover = ann if api.get(f"/api/games/{gid}/view", headers={
        "Authorization": f"Bearer {ann_token}"}).json()["your_turn"] else bob
    mover.wait_for_selector("body[data-turn='yours']")
    open_groups(mover)
    mover.locator("#groups button.action").first.click()
    for page in (ann, bob):
        page.wait_for_selector("body[data-seq='1']", timeout=15_000)

    # Ann resigns; both tables show the game over, and Ann offers a rematch
    r = api.post(f"/api/games/{gid}/resign", headers={"Authorization": f"Bearer {ann_token}"})
    assert r.status_code == 200, r.text
    for page in (ann, bob):
        page.wait_for_selector("#gameover[open]", timeout=15_000)
    ann.click("#rematch")
    ann.wait_for_selector("#rematch-status:has-text('waiting for Bob')")
    # Bob's table hears of it: the dialog says so and offers the answer
    bob.wait_for_selector("#rematch-status:has-text('Ann offers a rematch')", timeout=15_000)
    bob.wait_for_selector("#rematch-accept")
    bob.screenshot(path=str(SHOTS / "social-rematch-offer.png"))

    # Bob answers from "my games" in the lobby (a second page of his browser)
    lobby = bob.context.new_page()
    lobby.on("pageerror", lambda e: errors.append(f"Bob's lobby: {e}"))
    lobby.goto(server.url("/"))
    lobby.wait_for_selector("#my-games-summary:has-text('1 offer')", timeout=15_000)
    lobby.click("#my-games-summary")
    lobby.wait_for_selector("#account-offers li.offer-rematch:has-text('Ann offers a rematch')")
    lobby.screenshot(path=str(SHOTS / "social-my-games-offer.png"))
    lobby.click("#account-offers .offer-accept")

    # every table moves to the new game: Ann's, Bob's old table and Bob's lobby page
    new = _at_new_table(lobby, gid)
    assert _at_new_table(bob, gid) == new
    assert _at_new_table(ann, gid) == new
    entry = api.get(f"/api/games/{new}/view").json()
    # the seats moved round one place: each player sits one seat further on
    old_seats = {s["name"]: s["seat"] for s in first["seats"]}
    new_seats = {s["name"]: s["seat"] for s in entry["seats"]}
    assert new_seats == {name: (seat + 1) % 2 for name, seat in old_seats.items()}
    for name, page in (("Ann", ann), ("Bob", bob), ("Bob", lobby)):
        page.wait_for_selector(f"#seats .seat-{new_seats[name]} em:has-text('you')",
                               timeout=15_000)
    listed = {g["id"]: g for g in api.get("/api/games").json()["games"]}
    assert listed[new]["rematch_of"] == gid
    ann.screenshot(path=str(SHOTS / "social-rematch-table.png"))

    # the first game's chat is in its replay and in its record
    viewer = ann.context.new_page()
    viewer.goto(server.url(f"/replay?game={gid}&step=0"))
    viewer.wait_for_selector("#replay-chat li")
    assert viewer.locator("#replay-chat").inner_text() == "Ann: good luck, have fun"
    viewer.close()
    record = api.get(f"/api/games/{gid}/record").json()
    assert [(c["name"], c["text"]) for c in record["chat"]] == [("Ann", "good luck, have fun")]

    # Ann's lobby lists Bob as a friend who is playing, with the game to watch
    ann.goto(server.url("/"))
    ann.wait_for_selector(f"#friends-list li.friend-playing a[href='/games/{new}']",
                          timeout=15_000)
    ann.screenshot(path=str(SHOTS / "social-lobby-friends.png"))
    assert errors == []
