"""Keyboard focus that stays: a whole game of each of the four games played from the keyboard
alone, in Debian's Chromium through Playwright against one ``starlanes serve`` for the
module (seeded, heuristic bots in the other seats, the short options).

Each decision is chosen at random (seeded) among the legal actions and played the way a
keyboard player would: when the action names an object of the board, the arrow keys go to
it (the shortest way, worked out with the board's own key handling), Enter opens its
actions, Tab goes to the chosen one and Enter plays it; otherwise "/" opens the search, the
notation is typed and Enter plays it. Choosing (arrows, Enter, Tab among an object's
actions, the typed notation) is not counted; every other key press (Tab to reach the
board, Escape, "/") is, and must average at most 3 per decision. A sampler in the page
counts every time the focus falls to the page's body (or onto nothing shown): there must
be none, and at each decision the focus is on the board. On the way: an undo keeps the
focus on the board; Escape from the search comes back to the board; Tab from the search
goes to an action, never to a group's heading. A screenshot of each finished game goes to
``docs/screenshots/keys-whole-game-<game>.png``.
"""

from __future__ import annotations

import random

import pytest

from .conftest import Server
from .test_browser import CHROMIUM
from .test_browser_screens import DOCS_SHOTS, _changed, _legal, new_page, seated_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

GAMES = {  # players, seed, short options, the board's selector
    "galactic-domination": (2, 8, {"turn_limit": 1}, ".gd-board"),
    "rift-domination": (2, 5, {"round_limit": 1}, ".rd-board"),
    "interstellar-ambitions": (3, 4, {"round_limit": 1}, ".ia-table"),
    "galactic-empires": (2, 1, {"turn_cap": 2}, ".ge-table"),
}
MAX_OVERHEAD = 3.0
"""Key presses per decision, on average, beyond choosing the action."""

# Counts the times the focus falls: onto the body, onto nothing, or onto a node no longer
# shown, once the player has focused something on the page.
SAMPLER = """
window.__falls = 0;
window.__fallen = [];
(() => {
  let armed = false;
  let was = false;
  document.addEventListener('focusin', () => { armed = true; }, true);
  setInterval(() => {
    const a = document.activeElement;
    const lost = !a || a === document.body || !a.isConnected || !a.getClientRects().length;
    if (armed && lost && !was && !document.querySelector('dialog[open]')) {
      window.__falls += 1;
      window.__fallen.push(`at ${document.body.dataset.seq}: ${a ? a.outerHTML.slice(0, 80) : 'nothing'}`);
    }
    was = lost;
  }, 15);
})();
"""

# The keys that lead from the focused board object to the object `index` of the board's
# objects (NAV_SELECTOR, shown, in document order): a shortest path over the arrow keys
# and Home/End, asked of the board's own `nearest`; null when none leads there.
PATH = """async (index) => {
  const { nearest, NAV_SELECTOR } = await import('/static/boardkeys.js');
  const board = document.getElementById('board');
  const list = [...board.querySelectorAll(NAV_SELECTOR)].filter((n) => n.getClientRects().length);
  const from = document.activeElement.closest(NAV_SELECTOR);
  const start = list.indexOf(from);
  if (start < 0) return null;
  const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];
  const back = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const at = queue.shift();
    if (at === index) break;
    const steps = keys.map((k) => [k, list.indexOf(nearest(list[at], list, k))]);
    steps.push(['Home', 0], ['End', list.length - 1]);
    for (const [k, to] of steps) {
      if (to < 0 || back.has(to)) continue;
      back.set(to, [at, k]);
      queue.push(to);
    }
  }
  if (!back.has(index)) return null;
  const path = [];
  for (let at = index; back.get(at); at = back.get(at)[0]) path.unshift(back.get(at)[1]);
  return path;
}"""

# The index (among the board's shown objects) of the first object a notation's words name:
# by one of the naming attributes, or this seat's cell of an action track; null for none.
TARGET = """async ([notation, you]) => {
  const { NAV_SELECTOR, OBJECT_ATTRS } = await import('/static/boardkeys.js');
  const board = document.getElementById('board');
  const list = [...board.querySelectorAll(NAV_SELECTOR)].filter((n) => n.getClientRects().length);
  for (const word of notation.split(/[\\s@:]+/).slice(1)) {
    const i = list.findIndex((n) => OBJECT_ATTRS.some((a) => n.getAttribute(a) === word)
      || n.getAttribute('data-track') === `${you}:${word}`);
    if (i >= 0) return i;
  }
  return null;
}"""
ON_BOARD = """() => { const a = document.activeElement;
  return !!a && a !== document.getElementById('board') && !!a.closest('#board'); }"""
FOCUSED_NOTATION = "() => document.activeElement?.dataset?.notation ?? null"


class Keys:
    """The test's keyboard: every press is counted as choosing or as overhead."""

    def __init__(self, page):
        self.page = page
        self.choosing = 0
        self.overhead = 0

    def press(self, key: str, *, overhead: bool = False) -> None:
        self.page.keyboard.press(key)
        if overhead:
            self.overhead += 1
        else:
            self.choosing += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.choosing += len(text)


def to_board(page, keys: Keys) -> None:
    """Tab until the focus is on the board (overhead)."""
    for _ in range(80):
        if page.evaluate(ON_BOARD):
            return
        keys.press("Tab", overhead=True)
    raise AssertionError("Tab never reached the board")


def go_to(page, keys: Keys, index: int) -> bool:
    """Arrow keys to the board's object ``index``; False when no key leads there."""
    for _ in range(3):  # a redraw meanwhile: work the way out again
        path = page.evaluate(PATH, index)
        if path is None:
            return False
        for key in path:
            keys.press(key)
        here = page.evaluate("""async (index) => {
          const { NAV_SELECTOR } = await import('/static/boardkeys.js');
          const list = [...document.getElementById('board').querySelectorAll(NAV_SELECTOR)]
            .filter((n) => n.getClientRects().length);
          return list.indexOf(document.activeElement.closest(NAV_SELECTOR)) === index;
        }""", index)
        if here:
            return True
    return False


def by_search(page, keys: Keys, choice: str) -> None:
    keys.press("/", overhead=True)
    keys.type(choice)
    keys.press("Enter")


def by_board(page, keys: Keys, choice: str, you: int) -> bool:
    """Play ``choice`` through the board object it names; False when it names none (or its
    object does not offer it), nothing played."""
    index = page.evaluate(TARGET, [choice, you])
    if index is None or not go_to(page, keys, index):
        return False
    keys.press("Enter")
    option = page.locator(f'#selection-list button[data-notation="{choice}"]')
    try:
        page.wait_for_selector("#selection:not([hidden])", timeout=3000)
    except Exception:  # noqa: BLE001 - the object opened nothing: no action of it
        return False
    if not option.count():
        keys.press("Escape", overhead=True)  # back to the board
        return False
    for _ in range(60):
        if page.evaluate(FOCUSED_NOTATION) == choice:
            keys.press("Enter")
            return True
        keys.press("Tab")
    raise AssertionError(f"Tab never reached {choice} among the object's actions")


def wait_decision(page) -> str:
    page.wait_for_selector("body[data-turn]:not([data-turn='waiting'])", state="attached",
                           timeout=60_000)
    page.wait_for_timeout(60)  # the sampler sees a fall that lasts
    return page.locator("body").get_attribute("data-turn")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('focus') / 'focus.db'}")
    s.start()
    yield s
    s.kill()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_from_the_keyboard_keeps_the_focus_on_the_board(browser, server, game):
    players, seed, options, board = GAMES[game]
    gid, token = seated_game(server, game, players, seed, options=options)
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 900)
    page.add_init_script(SAMPLER)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    keys = Keys(page)
    rng = random.Random(seed)
    decisions = 0
    undone = escaped = on_board = 0
    assert wait_decision(page) == "yours"
    to_board(page, keys)  # from the top of the page: the board's one tab stop
    while wait_decision(page) == "yours":
        # the focus is on the board at every decision: it never fell
        assert page.evaluate(ON_BOARD), (decisions, page.evaluate("window.__fallen"))
        seq = page.locator("body").get_attribute("data-seq")
        if not escaped and decisions == 2:
            # the search: Tab goes to an action, Escape comes back to the board
            keys.press("/", overhead=True)
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.matches('#groups button.action')")
            keys.press("Escape", overhead=True)
            assert page.evaluate(ON_BOARD)
            escaped += 1
        if page.locator("#confirm-order").count():  # the secret combat order: confirm it
            index = page.evaluate("""async () => {
              const { NAV_SELECTOR } = await import('/static/boardkeys.js');
              const list = [...document.getElementById('board').querySelectorAll(NAV_SELECTOR)]
                .filter((n) => n.getClientRects().length);
              return list.indexOf(document.getElementById('confirm-order'));
            }""")
            assert go_to(page, keys, index)
            keys.press("Enter")
        else:
            choice = rng.choice(_legal(page))
            if by_board(page, keys, choice, 0):
                on_board += 1
            else:
                by_search(page, keys, choice)
        _changed(page, seq)
        decisions += 1
        if not undone and decisions >= 3 and wait_decision(page) == "yours" \
                and page.locator("#undo:not([hidden])").count():
            seq = page.locator("body").get_attribute("data-seq")
            keys.press("u", overhead=True)  # undo: the focus stays on the board
            _changed(page, seq)
            wait_decision(page)
            assert page.evaluate(ON_BOARD)
            undone += 1
        assert decisions < 400
    page.wait_for_selector("#gameover[open]")
    page.screenshot(path=DOCS_SHOTS / f"keys-whole-game-{game}.png")
    falls = page.evaluate("window.__falls")
    per_decision = keys.overhead / decisions
    print(f"{game}: {decisions} decisions, {keys.choosing} keys choosing, {keys.overhead} "
          f"other keys ({per_decision:.2f} a decision), {falls} focus falls")
    assert falls == 0, page.evaluate("window.__fallen")
    assert per_decision <= MAX_OVERHEAD
    assert decisions > 5 and escaped and on_board > 3
    assert not errors, errors
    page.close()
