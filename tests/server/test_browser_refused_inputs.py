"""Refused inputs on the deck builder (/decks) and the battle calculator (/odds) are named
on screen, next to the field they were typed in, in a real browser: a deck code that does
not read (``GE1-garbage``), and a shared calculator link with a negative count
(``-5 fighter``) or a unit the game does not have. Nothing is dropped without a word.

Waits use selectors only (the pages' Content-Security-Policy allows no eval)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from .conftest import Server
from .test_browser import CHROMIUM, _page

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

ODDS_WAIT_MS = 90_000
"""How long a test waits for the odds: a loaded machine makes the calculation slow, and a
busy calculator makes the page wait its Retry-After and ask again (docs/odds.md)."""


@pytest.fixture
def server(tmp_path):
    s = Server(f"sqlite:///{tmp_path / 'refused.db'}")
    s.start()
    yield s
    s.kill()


def test_a_deck_code_that_does_not_read_is_named_beside_the_import_field(browser,
                                                                          server) -> None:
    """GE1-garbage: the server answers 422; the page says which code was refused and why,
    right under the import field, and the deck being built is unchanged."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server.url("/decks"))
    page.wait_for_selector("#pool .ge-card")
    before = page.locator("#deck-list tbody tr").count()
    page.fill("#import-code", "GE1-garbage")
    page.click("#import")
    note = page.locator("#import-error")
    # the page asks the server: give a loaded machine longer than expect's 5 s default
    expect(note).to_contain_text("GE1-garbage", timeout=30_000)
    assert note.inner_text().strip() != "GE1-garbage"
    assert page.locator("#import-code").get_attribute("aria-invalid") == "true"
    assert page.locator("#deck-list tbody tr").count() == before
    # a code that reads clears the note
    page.select_option("#deck-start", index=1)
    page.fill("#import-code", page.locator("#deck-start").input_value())
    page.click("#import")
    expect(note).to_have_text("", timeout=30_000)
    assert page.locator("#import-code").get_attribute("aria-invalid") is None
    assert not errors, errors


def test_a_shared_calculator_link_names_every_entry_it_leaves_out(browser, server) -> None:
    """A link with ``-5 fighter`` for the attacker and an unknown unit for the defender:
    both are named beside their fleet with the reason; the readable entries are kept and
    the odds are worked out for them."""
    errors: list[str] = []
    page = _page(browser, errors)
    shared = urlencode({"game": "rift-domination", "a": "-5 fighter, carrier",
                        "d": "zorg, destroyer, 0 fighter"})
    page.goto(server.url(f"/odds#{shared}"))
    page.wait_for_selector("#fleet-attacker li[data-entry='carrier']")
    attacker = page.locator("#refused-attacker")
    expect(attacker).to_contain_text('"-5 fighter" has a negative count')
    defender = page.locator("#refused-defender")
    expect(defender).to_contain_text('"zorg": Rift Domination has no unit "zorg"')
    expect(defender).to_contain_text('"0 fighter" has no units')
    assert page.locator("#fleet-attacker li").count() == 1
    assert page.locator("#fleet-defender li").count() == 1
    page.wait_for_selector("#least:not([hidden])", timeout=ODDS_WAIT_MS)
    # the link the page now shares holds only what it took
    assert "zorg" not in page.locator("#share").input_value()
    assert not errors, errors


def test_a_negative_number_of_survivors_is_named_not_answered(browser, server) -> None:
    """"At least -5 units survive" is not a question: the field says why and no chance is
    shown; a whole number answers again."""
    errors: list[str] = []
    page = _page(browser, errors)
    shared = urlencode({"game": "rift-domination", "a": "2 destroyer", "d": "fighter"})
    page.goto(server.url(f"/odds#{shared}"))
    page.wait_for_selector("#least:not([hidden])", timeout=ODDS_WAIT_MS)
    page.fill("#least-n", "-5")
    expect(page.locator("#least-error")).to_contain_text('"-5" is not a number of units')
    expect(page.locator("#least-p")).to_have_text("-")
    assert page.locator("#least-n").get_attribute("aria-invalid") == "true"
    page.fill("#least-n", "1")
    expect(page.locator("#least-error")).to_have_text("")
    expect(page.locator("#least-p")).to_contain_text("%")
    assert page.locator("#least-n").get_attribute("aria-invalid") is None
    assert not errors, errors
