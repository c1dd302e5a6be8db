"""The four tables' boards from the keyboard, in Debian's Chromium through Playwright against
one ``starlanes serve`` for the module.

On each table (a game with seat 0 human, the others heuristic bots, a few decisions in):
every element of the board that has a click handler (found with the browser's own
DevTools listing of event listeners, the board's background "clear the selection" handler
aside) is a board object with the button role, and the board objects are exactly those;
from the object the board's single tab stop focuses, the arrow keys lead to every one of
them (where each arrow leads from each object is asked of the board's own key handler in
the page, then a walk of real key presses is checked against it);
Home and End go to the first and last; Enter on an object with actions opens them and
moves to the first; Escape there clears the selection and comes back to the object, and
Escape on the object keeps the focus on it. A screenshot of each table with a focused
object goes to ``docs/screenshots/keys-<game>.png``.
"""

from __future__ import annotations

import pytest

from .conftest import Server
from .test_browser import CHROMIUM
from .test_browser_screens import DOCS_SHOTS, TABLES, new_page, seated_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

MOVES = {"galactic-domination": 6, "rift-domination": 30, "interstellar-ambitions": 4,
         "galactic-empires": 6}
"""Seat 0's decisions taken before the test: units and cards on the board."""
ARROWS = ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp")

# A board object's name for the test, the same after a redraw: its tag and data-
# attributes, and its place among the objects alike ("g[data-unit=fighter][data-at=A1a]#0").
SIG = """(n) => {
  const own = (m) => m.localName + [...m.attributes].filter((a) => a.name.startsWith('data-')
    && a.name !== 'data-walk').map((a) => `[${a.name}=${a.value}]`).join('');
  const all = [...document.querySelectorAll('#board [role=button], #board button')]
    .filter((m) => m.getClientRects().length);
  const s = own(n);
  return `${s}#${all.filter((m) => own(m) === s).indexOf(n)}`;
}"""
# The board objects in document order, each named (data-walk) by SIG.
NUMBER = f"""() => {{
  const sig = {SIG};
  return [...document.querySelectorAll('#board [role=button], #board button')]
    .filter((n) => n.getClientRects().length)
    .map((n) => {{ n.setAttribute('data-walk', sig(n)); return n.getAttribute('data-walk'); }});
}}"""
FOCUSED = f"""() => {{
  const n = document.activeElement;
  return n && n.closest('#board') && n !== document.getElementById('board') ? ({SIG})(n) : null;
}}"""
FOCUS = f"""(name) => {{
  const sig = {SIG};
  const n = [...document.querySelectorAll('#board [role=button], #board button')]
    .find((m) => m.getClientRects().length && sig(m) === name);
  n.focus();
}}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('keys') / 'keys.db'}")
    s.start()
    yield s
    s.kill()


def clickable(page) -> set[str]:
    """The names (data-walk) of the board's elements with a click listener, through the
    DevTools protocol (the listeners are added with addEventListener, invisible to the
    page); the drawing's root (the board's background, which clears the selection) aside.
    An element with a listener but no name is reported by its tag and classes."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("Runtime.evaluate", {"expression": "document.getElementById('board')"})
        listeners = cdp.send("DOMDebugger.getEventListeners", {
            "objectId": root["result"]["objectId"], "depth": -1})["listeners"]
        out: set[str] = set()
        for backend in {x["backendNodeId"] for x in listeners if x["type"] == "click"}:
            node = cdp.send("DOM.describeNode", {"backendNodeId": backend})["node"]
            flat = node.get("attributes", [])
            attrs = dict(zip(flat[::2], flat[1::2], strict=True))
            if attrs.get("id") == "board":
                continue
            inner = cdp.send("DOM.resolveNode", {"backendNodeId": backend})["object"]["objectId"]
            if cdp.send("Runtime.callFunctionOn", {
                    "objectId": inner, "returnByValue": True,
                    "functionDeclaration": "function () { return this.parentNode.id; }"}
                    )["result"].get("value") == "board":
                continue  # the drawing's root: a click on the background
            out.add(attrs.get("data-walk") or f"{node['localName']}.{attrs.get('class')}")
        return out
    finally:
        cdp.detach()


# Where each arrow key leads from each object: the key is dispatched on the focused object
# in the page (the board's own keydown handler answers it), one object after another; objects
# are named by their signature, so a view redrawing the board meanwhile changes no name.
GRAPH = f"""(keys) => {{
  const sig = {SIG};
  const board = document.getElementById('board');
  const all = [...document.querySelectorAll('#board [role=button], #board button')]
    .filter((n) => n.getClientRects().length);
  const out = {{}};
  for (const n of all) {{
    out[sig(n)] = keys.map((key) => {{
      n.focus();
      n.dispatchEvent(new KeyboardEvent('keydown', {{ key, bubbles: true, cancelable: true }}));
      const a = document.activeElement;
      return a && a.closest('#board') && a !== board ? sig(a) : null;
    }});
  }}
  return out;
}}"""


def focused(page) -> str | None:
    return page.evaluate(FOCUSED)


def reachable(graph: dict[str, list[str | None]], start: str) -> set[str]:
    """The objects the arrow keys lead to from ``start``, step after step."""
    reached = {start}
    queue = [start]
    while queue:
        for there in graph[queue.pop()]:
            assert there is not None, "an arrow key left the board"
            if there not in reached:
                reached.add(there)
                queue.append(there)
    return reached


@pytest.fixture(scope="module")
def tables(server):
    """One seated game of each table for the module: game -> (id, seat 0's token)."""
    return {game: seated_game(server, game, players, seed, moves=MOVES[game])
            for game, (players, seed, _board, _moves) in TABLES.items()}


def open_table(browser, server, tables, game, errors):
    board = TABLES[game][2]
    gid, token = tables[game]
    page = new_page(browser, errors, 1366, 900)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
    return page


@pytest.mark.parametrize("game", list(TABLES))
def test_the_arrow_keys_reach_every_clickable_board_object(browser, server, tables, game):
    errors: list[str] = []
    page = open_table(browser, server, tables, game, errors)
    # the board objects are exactly the board's clickable elements (numbered again when
    # the board was redrawn between numbering and listing: a view may arrive meanwhile)
    for _ in range(3):
        names = page.evaluate(NUMBER)
        found = clickable(page)
        if not found - set(names):  # nothing unnamed: no redraw came in between
            break
    assert len(names) > 3 and len(set(names)) == len(names)
    everything = set(names)
    assert found == everything
    # one tab stop: Tab from the top of the page lands on the board's first object
    assert page.locator("#board [tabindex='0']").count() == 1
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board')"):
            break
    start = focused(page)
    assert start is not None
    graph = page.evaluate(GRAPH, list(ARROWS))
    assert reachable(graph, start) == everything
    # real key presses go where the graph says: a walk of some forty presses
    page.evaluate(FOCUS, start)
    here = start
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown", "ArrowUp") * 8:
        page.keyboard.press(key)
        there = focused(page)
        assert there == graph[here][ARROWS.index(key)], (here, key)
        here = there
    page.keyboard.press("End")
    assert focused(page) == names[-1]
    page.keyboard.press("Home")
    assert focused(page) == names[0]
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("game", list(TABLES))
def test_enter_opens_an_objects_actions_and_escape_comes_back_to_it(browser, server, tables, game):
    errors: list[str] = []
    page = open_table(browser, server, tables, game, errors)
    legal = page.locator("#groups button.action").evaluate_all(
        "(bs) => bs.map((b) => b.dataset.notation)")
    # an object named by a legal action: its actions are offered on Enter (numbered and
    # looked up in one call: a view arriving between two calls redraws the board and
    # takes the numbers away)
    words = {w for n in legal for w in n.replace("@", " ").split()}
    name = page.evaluate(f"""(words) => {{
      ({NUMBER})();
      const attrs = ['data-ship', 'data-sector', 'data-planet', 'data-point', 'data-card', 'data-track'];
      for (const n of document.querySelectorAll('#board [data-walk]')) {{
        for (const a of attrs) {{
          const v = n.getAttribute(a);
          if (v !== null && (words.includes(v) || (a === 'data-track' && words.includes(v.split(':')[1]))
              ) && (a !== 'data-track' || v.startsWith('0:'))) return n.dataset.walk;
        }}
      }}
      return null;
    }}""", sorted(words))
    assert name is not None, legal
    page.evaluate(FOCUS, name)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")  # a key press first: the focus ring of the keyboard
    page.evaluate(FOCUS, name)
    page.keyboard.press("Enter")
    page.wait_for_selector("#selection:not([hidden])")
    # the first of them takes the focus (a button of the board after its own click)
    page.wait_for_selector("#selection-list button.action:focus", timeout=5_000)
    page.keyboard.press("Escape")
    page.wait_for_selector("#selection", state="hidden")
    back = page.evaluate("() => document.activeElement.closest('#board') !== null")
    assert back
    # Escape on the object itself: nothing selected, the focus stays on it
    here = focused(page)
    page.keyboard.press("ArrowDown")
    moved = focused(page)
    assert moved is not None and here is not None
    page.keyboard.press("Escape")
    assert focused(page) == moved
    DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=DOCS_SHOTS / f"keys-{game}.png")
    assert not errors, errors
    page.close()
