"""Symbols in explanation text on the four tables, in Debian's Chromium through Playwright
against one ``starlanes serve`` for the module.

Where an action's explanation (its line in the action list, its tooltip) or a board
object's tooltip names a unit kind, resource, card type or weapon that has a symbol, the
symbol stands before the word: an inline ``<svg aria-hidden="true">`` with the word kept as
text. Each explanation line reads exactly as the server wrote it (its text is unchanged),
and what a screen reader gets (Playwright's ARIA snapshot) holds the words once and no
image.
"""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import Server
from .test_browser import CHROMIUM
from .test_browser_screens import TABLES, new_page, seated_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

SHEETS = {"rift-domination", "galactic-domination", "interstellar-ambitions",
          "galactic-empires"}

# Each explanation line of the action list: its action's notation, its text, how many
# words carry a symbol.
LINES = """() => [...document.querySelectorAll('#groups li')].map((li) => [
  li.querySelector('button.action').dataset.notation,
  li.querySelector('.what').textContent,
  li.querySelectorAll('.what .sym-term').length])"""

# The symbols in a box: each must be hidden from screen readers, the first thing in its
# word's span, followed by the word as text. Returns the problems found and the words.
SYMBOLS = """(box) => {
  const problems = [];
  const words = [];
  for (const term of box.querySelectorAll('.sym-term')) {
    const sym = term.firstElementChild;
    const href = sym?.querySelector('use')?.getAttribute('href') ?? '';
    if (!sym || sym.localName !== 'svg' || sym.getAttribute('aria-hidden') !== 'true') problems.push('not hidden: ' + term.outerHTML);
    if (!/^\\/static\\/symbols\\/[a-z-]+\\.svg#[\\w-]+$/.test(href)) problems.push('no symbol: ' + term.outerHTML);
    if (sym?.textContent !== '' || term.childNodes.length !== 2 || term.lastChild.nodeType !== Node.TEXT_NODE) problems.push('not symbol then word: ' + term.outerHTML);
    words.push([href.split('/').pop(), term.textContent]);
  }
  return [problems, words];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('symbols') / 'symbols.db'}")
    s.start()
    yield s
    s.kill()


def spoken(snapshot: str) -> str:
    """The text of an ARIA snapshot with its YAML quoting undone and spaces collapsed."""
    text = snapshot.replace('\\"', '"').replace("''", "'")
    return re.sub(r"\s+", " ", text)


def check_box(page, selector: str) -> list[list[str]]:
    """The symbols of the box are hidden and stand before their words; the screen reader's
    text of the box is its text, with no image. Returns [symbol, word] pairs."""
    box = page.locator(selector).first
    problems, words = box.evaluate(SYMBOLS)
    assert problems == [], problems
    snapshot = box.aria_snapshot()
    assert "img" not in snapshot, snapshot
    text = re.sub(r"\s+", " ", box.text_content()).strip()
    assert text in spoken(snapshot), (text, snapshot)
    for href, word in words:
        assert href.split(".svg#")[0] in SHEETS | {"common"}
        assert spoken(snapshot).count(word) == text.count(word)  # read once, as written
    return words


@pytest.mark.parametrize("game", list(TABLES))
def test_explanations_show_symbols_before_the_words_and_read_the_same(browser, server, game):
    players, seed, board, _moves = TABLES[game]
    gid, token = seated_game(server, game, players, seed)
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 900)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
    view = httpx.get(server.url(f"/api/games/{gid}/view"),
                     headers={"Authorization": f"Bearer {token}"}).json()
    texts = {a["notation"]: a.get("text") or "" for a in view["legal"]}
    page.evaluate("() => document.querySelectorAll('#groups details')"
                  ".forEach((d) => { d.open = true; })")
    lines = page.evaluate(LINES)
    assert lines
    # every explanation line reads as the server wrote it, symbols or not
    for notation, text, _count in lines:
        assert text == texts[notation], notation
    found: list[list[str]] = []
    decorated = [i for i, (_n, _t, count) in enumerate(lines) if count]
    if decorated:
        found += check_box(page, f"#groups li >> nth={decorated[0]} >> .what")
    # a tooltip with a symbol: an action's (its explanation, cost, changes and rules), else
    # a board object's (a card or a chip)
    hovers = [f"#groups li >> nth={i} >> button.action" for i in decorated[:3]] + \
        [f"#groups button.action >> nth={i}" for i in range(min(6, len(lines)))] + \
        [f"#board [data-card] >> nth={i}" for i in range(12)]
    for target in hovers:
        if not page.locator(target).count():
            continue
        page.locator(target).scroll_into_view_if_needed()
        page.locator(target).hover()
        if page.locator("#tip:not([hidden]) .sym-term").count():
            found += check_box(page, "#tip")
            break
    assert found, f"no explanation of {game} showed a symbol"
    assert any(href.startswith(f"{game}.svg#") for href, _word in found), found
    assert not errors, errors
    page.close()
