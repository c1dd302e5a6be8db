"""The boards on a 390x844 phone, measured in Debian's Chromium through Playwright, for the
four games (a seated mid-game table, seat 0's turn) and Rift Domination's set-up and replay:

- every board object a legal action names (a tap target: planet, point, ship, sector, card,
  track cell) is at least 44x44 CSS px (its bounding box at the zoom the table opened at)
  and has a point where a tap reaches it (nothing drawn over it there);
- every text of the board is at least 11 px (computed font size times the SVG's scale);
- the zoom controls and the turn bar lie outside the board: none covers a target;
- on Rift Domination's map, the targets out of sight are all counted by the edge markers,
  and tapping a marker brings one of them into sight; the replay opens at the same scale.
"""

from __future__ import annotations

import pytest

from .conftest import CHROMIUM
from .test_browser_screens import DOCS_SHOTS, TABLES, new_page, seated_game
from .test_browser_screens import server as server  # noqa: F401  (the module's server)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

MIN_TARGET = 44
MIN_TEXT = 11

# What a player's finger and eyes meet: the live targets with their size, whether they are
# in sight (inside the map's box and the screen above the bottom sheet, away from the edge
# markers) and whether a tap reaches them; every shown text with its size in screen px;
# the controls that lie over the board; the counts the edge markers give.
MEASURE = """() => {
  const board = document.getElementById('board');
  const side = document.getElementById('side');
  let bottom = innerHeight;
  if (side && getComputedStyle(side).position === 'fixed') bottom = Math.min(bottom, side.getBoundingClientRect().top);
  const map = board.querySelector('svg.zoomable');
  const area = map ? map.getBoundingClientRect() : board.getBoundingClientRect();
  const win = { left: Math.max(area.left, 0) + 48, top: Math.max(area.top, 0) + 48,
    right: Math.min(area.right, innerWidth) - 48, bottom: Math.min(area.bottom, bottom) - 48 };
  const name = (n) => n.getAttribute('data-planet') || n.getAttribute('data-point') || n.getAttribute('data-ship')
    || n.getAttribute('data-sector') || n.getAttribute('data-card') || n.getAttribute('data-track') || n.getAttribute('data-object') || n.localName;
  const reach = (n, r) => {
    for (const fy of [0.5, 0.15, 0.3, 0.7, 0.85]) for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
      const x = r.left + fx * r.width, y = r.top + fy * r.height;
      if (x < 0 || y < 0 || x > innerWidth || y > bottom) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && n.contains(hit)) return true;
    }
    return false;
  };
  const targets = [...board.querySelectorAll('.live')].filter((n) => n.getClientRects().length).map((n) => {
    const r = n.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const sight = map ? x > win.left && x < win.right && y > win.top && y < win.bottom : true;
    return { name: name(n), w: r.width, h: r.height, sight, reach: sight && map ? reach(n, r) : null };
  });
  const texts = [];
  for (const n of board.querySelectorAll('*')) {
    const own = [...n.childNodes].filter((c) => c.nodeType === 3 && c.data.trim()).map((c) => c.data.trim()).join(' ');
    if (!own || !n.getClientRects().length) continue;
    const style = getComputedStyle(n);
    if (style.visibility === 'hidden' || style.display === 'none' || n.closest('title, [hidden]')) continue;
    const scale = n instanceof SVGElement ? n.getScreenCTM().a : 1;
    texts.push({ text: own.slice(0, 30), px: parseFloat(style.fontSize) * scale });
  }
  const over = [];
  const box = map ? map.getBoundingClientRect() : null;
  for (const c of document.querySelectorAll('.board-tools button, #turn-bar button')) {
    const r = c.getBoundingClientRect();
    if (!r.width || !box) continue;
    if (r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top) over.push(c.textContent.trim());
  }
  const marked = [...document.querySelectorAll('#edge-marks .edge-mark')]
    .reduce((n, m) => n + (Number((m.textContent.match(/\\d+/) || ['1'])[0])), 0);
  return { targets, texts, over, marked, scale: map ? Number(map.dataset.scale) : null };
}"""


def _open(browser, server, gid, token, board, errors):
    page = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(board)
    page.wait_for_selector("body[data-turn='yours']", state="attached", timeout=20_000)
    page.wait_for_timeout(300)
    return page


def _check(m: dict, game: str) -> None:
    print(f"{game}: {len(m['targets'])} targets ({sum(not t['sight'] for t in m['targets'])} out of "
          f"sight, {m['marked']} counted by edge markers), smallest "
          f"{min((min(t['w'], t['h']) for t in m['targets']), default=0):.0f} px; "
          f"{len(m['texts'])} texts, smallest {min((t['px'] for t in m['texts']), default=0):.1f} px; "
          f"scale {m['scale']}")
    small = [t for t in m["targets"] if t["w"] < MIN_TARGET - 0.5 or t["h"] < MIN_TARGET - 0.5]
    assert not small, (game, small)
    unreachable = [t for t in m["targets"] if t["reach"] is False]
    assert not unreachable, (game, unreachable)
    tiny = [t for t in m["texts"] if t["px"] < MIN_TEXT - 0.05]
    assert not tiny, (game, tiny[:10])
    assert m["texts"], game
    assert not m["over"], (game, m["over"])


@pytest.mark.parametrize("game", list(TABLES))
def test_every_target_and_label_of_a_phone_board_can_be_tapped_and_read(browser, server, game):  # noqa: F811
    players, seed, board, moves = TABLES[game]
    gid, token = seated_game(server, game, players, seed, moves=moves)
    errors: list[str] = []
    page = _open(browser, server, gid, token, board, errors)
    m = page.evaluate(MEASURE)
    assert m["targets"], game
    _check(m, game)
    if game == "rift-domination":
        out = [t for t in m["targets"] if not t["sight"]]
        assert m["marked"] == len(out), (m["marked"], out)
        if out:  # a marker pans the map to a target out of sight
            seen = sum(t["sight"] for t in m["targets"])
            page.locator("#edge-marks .edge-mark").first.tap()
            again = page.evaluate(MEASURE)
            _check(again, game)
            assert sum(t["sight"] for t in again["targets"]) >= 1
            assert again["targets"] != m["targets"] or seen == 0
    # a tap on a target in sight opens its actions beside it, inside the screen
    first = page.locator("#board .live").first
    first.scroll_into_view_if_needed()
    first.tap(position=None)
    page.wait_for_selector("#board-pop:not([hidden])")
    pop = page.locator("#board-pop").bounding_box()
    assert pop["x"] >= 0 and pop["x"] + pop["width"] <= 390 + 0.5, pop
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=DOCS_SHOTS / f"{game}-390-popover.png")
    assert not errors, errors
    page.close()


def test_rift_dominations_set_up_and_replay_open_at_a_size_to_tap_and_read(browser, server):  # noqa: F811
    """At set-up (the home planet to choose, far apart on the map) the map opens at its
    playing scale with the labels readable and the other choices pointed at; the replay
    of the game opens at the same scale, its controls above the map."""
    gid, token = seated_game(server, "rift-domination", 2, 5, moves=0)
    errors: list[str] = []
    page = _open(browser, server, gid, token, ".rd-board", errors)
    m = page.evaluate(MEASURE)
    _check(m, "rift-domination set-up")
    assert m["scale"] >= 0.9, m["scale"]
    assert m["marked"] == len([t for t in m["targets"] if not t["sight"]])
    page.screenshot(path=DOCS_SHOTS / "rift-domination-390-setup.png")
    # the fitted whole map hides labels too small to read
    page.locator("#zoom-reset").tap()
    fitted = page.evaluate(MEASURE)
    assert fitted["scale"] < 0.5 and not [t for t in fitted["texts"] if t["px"] < MIN_TEXT - 0.05]
    page.close()
    replay = new_page(browser, errors, 390, 844, has_touch=True, is_mobile=True)
    replay.goto(server.url(f"/replay?game={gid}"))
    replay.wait_for_selector(".rd-board")
    replay.wait_for_timeout(300)
    r = replay.evaluate(MEASURE)
    assert r["scale"] >= 0.9, r["scale"]
    assert not [t for t in r["texts"] if t["px"] < MIN_TEXT - 0.05], r["texts"][:5]
    assert not r["over"], r["over"]
    replay.screenshot(path=DOCS_SHOTS / "replay-viewer-390.png")
    assert not errors, errors
    replay.close()
