"""Playing from the board on a phone: a scripted player on a 390x844 touch screen plays a
short game of each of the four games against heuristic bots, choosing each decision at
random among the legal actions (a fixed seed) and taking it the way a player would with
the board:

- an action that names a drawn object (a planet, point, ship, sector, card or track cell):
  tap the object (on Rift Domination's map, tapping the edge markers first while it is
  out of sight), then the action in the popover beside it; a move or an attack: tap the
  unit, then its highlighted destination (the one action there is made at once; several
  are listed in the popover);
- an action that names nothing drawn: its button in the turn bar above the board;
- otherwise, the complete action list of the decision panel.

The share of decisions taken from the board (objects and turn bar) must be at least 80%
in every game; the shares per game are printed (``-s``) and written to
``docs/screenshots/board-play-shares.txt``. Every popover the player opens lists only
legal actions, each reading its label in words with its notation below.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from starlanes.engine.explain import label_fault

from .conftest import CHROMIUM, open_groups
from .test_browser_screens import DOCS_SHOTS, new_page, seated_game
from .test_browser_screens import server as server  # noqa: F401  (the module's server)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

GAMES = {  # players, seed, board selector, options of a short game, decisions at most
    "rift-domination": (2, 11, ".rd-board", {"round_limit": 1}, 160),
    "galactic-domination": (2, 7, ".gd-board", {"turn_limit": 1}, 160),
    "interstellar-ambitions": (3, 4, ".ia-table", {"round_limit": 1}, 160),
    "galactic-empires": (2, 1, ".ge-table", {"turn_cap": 3}, 160),
}
SHARE = 0.8
VERB_OBJECTS = {"draw": "deck", "celebrate": "deck"}
"""Board objects that take actions by their verb (Galactic Empires' draw deck)."""
ATTRS = ("data-planet", "data-point", "data-ship", "data-sector", "data-card")

# Is the element's centre where a finger can reach it: inside the screen above the phone's
# bottom sheet and, on a zoomable map, inside the map's box away from its edge markers?
IN_SIGHT = """(n) => {
  const side = document.getElementById('side');
  let bottom = innerHeight;
  if (side && getComputedStyle(side).position === 'fixed') bottom = Math.min(bottom, side.getBoundingClientRect().top);
  const r = n.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const map = n.closest('svg.zoomable');
  let box = { left: 0, top: 0, right: innerWidth, bottom };
  if (map) {
    const m = map.getBoundingClientRect();
    box = { left: Math.max(m.left, 0) + 48, top: Math.max(m.top, 0) + 48, right: Math.min(m.right, innerWidth) - 48, bottom: Math.min(m.bottom, bottom) - 48 };
  }
  return x > box.left && x < box.right && y > box.top && y < box.bottom;
}"""
# The edge marker pointing the nearest way to the element: its index, or -1.
MARKER = """(n) => {
  const r = n.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const marks = [...document.querySelectorAll('#edge-marks .edge-mark')];
  let best = -1, score = Infinity;
  marks.forEach((m, i) => {
    const b = m.getBoundingClientRect();
    const d = Math.hypot(b.left + b.width / 2 - x, b.top + b.height / 2 - y);
    if (d < score) { score = d; best = i; }
  });
  return best;
}"""


def _words(notation: str) -> list[str]:
    return [w for w in re.split(r"[\s@:.\[\]]+", notation) if w]


def _object(page, word: str):
    """The drawn board object a notation's word names, or None."""
    selectors = [f'#board [{a}="{word}"]' for a in ATTRS] + [f'#board [data-track="0:{word}"]']
    for sel in selectors:
        found = page.locator(sel)
        for i in range(found.count()):
            if found.nth(i).evaluate("(n) => n.getClientRects().length > 0"):
                return found.nth(i)
    return None


def _bring(page, node, touch: bool = True) -> bool:
    """Bring a board object where a finger (a pointer when not ``touch``) reaches it: on a
    zoomable map by tapping (clicking) the edge marker that points its way (the map pans),
    else by scrolling the page."""
    page.evaluate("window.scrollTo(0, 0)")
    for _ in range(10):
        if node.evaluate(IN_SIGHT):
            return True
        if not node.evaluate("(n) => !!n.closest('svg.zoomable')"):
            # the page scrolls: the object to the middle of the screen above the sheet
            node.evaluate("""(n) => {
              n.scrollIntoView({ block: 'center' });
              const side = document.getElementById('side');
              if (side && getComputedStyle(side).position === 'fixed') scrollBy(0, side.getBoundingClientRect().height / 2);
            }""")
            return bool(node.evaluate(IN_SIGHT))
        i = node.evaluate(MARKER)
        if i < 0:
            return False
        mark = page.locator("#edge-marks .edge-mark").nth(i)
        mark.tap() if touch else mark.click()
    return bool(node.evaluate(IN_SIGHT))


# A point of the element (relative to its box) where a tap reaches the element itself and
# not something drawn over it (a ship in a sector, the popover): null when there is none.
FREE_POINT = """(n) => {
  const r = n.getBoundingClientRect();
  for (const fy of [0.5, 0.15, 0.3, 0.7, 0.85]) for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
    const x = r.left + fx * r.width, y = r.top + fy * r.height;
    const hit = document.elementFromPoint(x, y);
    if (hit && n.contains(hit)) return { x: fx * r.width, y: fy * r.height };
  }
  return null;
}"""


def _tap(page, node) -> bool:
    try:
        point = node.evaluate(FREE_POINT)
        if point is None:
            return False
        node.tap(position=point, timeout=3000)
        return True
    except Exception:  # noqa: BLE001 - covered or gone: the list will do
        return False


def _changed(page, seq: str) -> bool:
    return page.locator("body").get_attribute("data-seq") != seq


def _wait_changed(page, seq: str) -> None:
    page.wait_for_selector(f"body[data-seq]:not([data-seq='{seq}'])", state="attached")


def _from_popover(page, choice: str, checked: list[tuple[str, str]]) -> bool:
    pop = page.locator("#board-pop:not([hidden])")
    if not pop.count():
        return False
    for b in pop.locator("button.pop-action").all():
        label = b.locator(".label").text_content() or ""
        checked.append((b.get_attribute("data-notation"), label))
    fold = pop.locator("details.pop-more:not([open]) > summary")
    option = pop.locator(f'button.pop-action[data-notation="{choice}"]')
    if not option.count():
        return False
    if fold.count():
        fold.first.tap()
    return _tap(page, option.first)


def _decide(page, choice: str, checked: list[tuple[str, str]]) -> str:
    """Take the decision ``choice``; returns how: "board", "bar" or "list"."""
    seq = page.locator("body").get_attribute("data-seq")
    bar = page.locator(f'#turn-bar button[data-notation="{choice}"]')
    if bar.count() and bar.first.is_visible():
        page.evaluate("window.scrollTo(0, 0)")
        if _tap(page, bar.first):
            _wait_changed(page, seq)
            return "bar"
    words = _words(choice)
    for k, word in enumerate(words[1:], start=1):
        node = _object(page, word)
        if node is None and k == 1 and words[0] in VERB_OBJECTS:  # the deck for a draw
            node = page.locator(f'#board [data-object="{VERB_OBJECTS[words[0]]}"]').first
        if node is None or not _bring(page, node) or not _tap(page, node):
            continue
        if _from_popover(page, choice, checked):
            _wait_changed(page, seq)
            return "board"
        # a move or an attack: the destination is lit on the board
        for later in words[k + 1:]:
            target = page.locator(f'#board .target[data-planet="{later}"], #board .target[data-point="{later}"], '
                                  f'#board .target[data-sector="{later}"], #board .target[data-ship="{later}"]')
            if not target.count() or not _bring(page, target.first) or not _tap(page, target.first):
                continue
            page.wait_for_timeout(150)
            if _changed(page, seq) or _from_popover(page, choice, checked):
                _wait_changed(page, seq)
                return "board"
        break
    # the complete list in the decision panel
    page.evaluate("window.scrollTo(0, 0)")
    if page.locator("#side:not(.open)").count():
        page.tap("#sheet-handle")
    if page.locator("#selection:not([hidden])").count():
        page.locator("#clear-selection").tap()
    open_groups(page, tap=True)
    page.locator(f'#groups button[data-notation="{choice}"]').first.tap()
    _wait_changed(page, seq)
    if page.locator("#side.open").count() and not page.locator("#gameover[open]").count():
        page.tap("#sheet-handle", timeout=5000)
    return "list"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_game_is_played_mostly_from_the_board(browser, server, game):  # noqa: F811
    players, seed, board, options, most = GAMES[game]
    gid, token = seated_game(server, game, players, seed, options=options)
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    rng = random.Random(seed)
    counts = {"board": 0, "bar": 0, "list": 0}
    checked: list[tuple[str, str]] = []
    listed: list[str] = []
    barred: list[str] = []
    for _ in range(most):
        page.wait_for_selector("body[data-turn]:not([data-turn='waiting'])", state="attached",
                               timeout=60_000)
        if page.locator("body").get_attribute("data-turn") == "over":
            break
        seq = page.locator("body").get_attribute("data-seq")
        if page.locator("#confirm-order").count():  # the secret combat order, on the board
            page.locator("#confirm-order").tap()
            _wait_changed(page, seq)
            counts["board"] += 1
            continue
        legal = page.locator("#groups button.action").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.notation)")
        choice = rng.choice(legal)
        how = _decide(page, choice, checked)
        counts[how] += 1
        if how == "list":
            listed.append(choice)
        if how == "bar":
            barred.append(choice)
        if sum(counts.values()) == 12:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=DOCS_SHOTS / f"{game}-390-board-play.png")
    total = sum(counts.values())
    share = (counts["board"] + counts["bar"]) / total
    line = (f"{game}: {total} decisions, {counts['board']} by tapping board objects, "
            f"{counts['bar']} in the turn bar, {counts['list']} in the action list; "
            f"{100 * share:.0f}% from the board")
    print(line)
    print("  in the turn bar:", sorted(set(barred)), "\n  in the list:", listed)
    shares = Path(DOCS_SHOTS / "board-play-shares.txt")
    kept = [x for x in (shares.read_text().splitlines() if shares.exists() else [])
            if not x.startswith(f"{game}:")]
    shares.write_text("\n".join(sorted([*kept, line])) + "\n")
    assert total >= 10, line
    assert share >= SHARE, (line, listed)
    # every popover listed legal actions by their labels in words
    assert checked, "no popover was opened"
    faults = [(n, label) for n, label in checked if label_fault(label, n)]
    assert not faults, faults
    assert not errors, errors
    page.close()
