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
    expect(note).to_contain_text("GE1-garbage")
    assert note.inner_text().strip() != "GE1-garbage"
    assert page.locator("#import-code").get_attribute("aria-invalid") == "true"
    assert page.locator("#deck-list tbody tr").count() == before
    # a code that reads clears the note
    page.select_option("#deck-start", index=1)
    page.fill("#import-code", page.locator("#deck-start").input_value())
    page.click("#import")
    expect(note).to_have_text("")
    assert page.locator("#import-code").get_attribute("aria-invalid") is None
    assert not errors, errors
