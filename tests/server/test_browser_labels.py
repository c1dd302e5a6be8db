"""The action buttons of a mid-game phone table (390x844) read words, in all four games:
each button's label is the engine's label for its action (never an id with underscores
or #numbers, never only the notation), the notation follows in small type, and typing a
notation or a word of a label in the search finds the action. The screenshots of the
raised decision panel go to docs/screenshots/<game>-390-actions.png."""

from __future__ import annotations

import pytest

from starlanes.engine.explain import label_fault

from .conftest import CHROMIUM, open_groups
from .test_browser_screens import DOCS_SHOTS, TABLES, new_page, seated_game
from .test_browser_screens import server as server  # noqa: F401  (the module's server)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")


@pytest.mark.parametrize("game", list(TABLES))
def test_phone_action_buttons_read_labels(browser, server, game) -> None:  # noqa: F811
    players, seed, board, moves = TABLES[game]
    gid, token = seated_game(server, game, players, seed, moves=moves)
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
    page.click("#sheet-handle")
    open_groups(page)
    buttons = page.locator("#groups button.action")
    assert buttons.count() > 0
    seen = []
    for i in range(buttons.count()):
        b = buttons.nth(i)
        notation = b.get_attribute("data-notation")
        label = b.locator(".label").inner_text()
        assert b.locator("code.notation").inner_text() == notation
        assert not label_fault(label, notation), (notation, label)
        seen.append((notation, label))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=DOCS_SHOTS / f"{game}-390-actions.png")
    # the search finds an action by a word of its label and by its notation
    notation, label = seen[0]
    word = max(label.split(), key=len)
    page.fill("#search", word.lower())
    assert page.locator(f'#groups button[data-notation="{notation}"]').count() == 1
    page.fill("#search", notation)
    assert page.locator(f'#groups button[data-notation="{notation}"]').count() == 1
    assert not errors, errors
