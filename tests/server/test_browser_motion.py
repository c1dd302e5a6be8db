"""Motion where it explains, in a real browser (Playwright, Debian's Chromium) against
``starlanes serve``: a Rift Domination unit's move slides from its old place to its new one
(a running animation on the moved chip, starting at the old place's offset); with
``prefers-reduced-motion: reduce`` nothing slides; a battle's lines come one at a time in
the overlay over the board and a click shows them all at once; Escape too.
"""

from __future__ import annotations

import time
from itertools import pairwise

import httpx
import pytest

from .conftest import Server
from .test_browser import CHROMIUM
from .test_browser_screens import _changed, new_page, seated_game

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

# Every animation an element starts is kept as it starts, so that a slide is seen even when
# a loaded machine runs the test's next line after the slide's 300 ms are over.
KEEP_ANIMATIONS = """(() => {
  const animate = Element.prototype.animate;
  window.__animations = [];
  Element.prototype.animate = function (...args) {
    const a = animate.apply(this, args);
    window.__animations.push(a);
    return a;
  };
})();"""

# The slides started on the board (running or done): the moved node's place and the
# animation's first frame.
SLIDES = """() => window.__animations.filter((a) => a.id === 'move')
  .map((a) => ({ at: a.effect.target.dataset.at ?? null, unit: a.effect.target.dataset.unit ?? null,
                 from: a.effect.getKeyframes()[0].transform }))"""

# The slides running now.
RUNNING = """() => document.getAnimations().filter((a) => a.id === 'move' && a.playState === 'running').length"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('motion') / 'motion.db'}")
    s.start()
    yield s
    s.kill()


def _to_first_move(server, gid: str, token: str) -> None:
    """Seat 0's setup taken through the API (its last legal choice) until a move of its
    units is one of its legal actions."""
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        v = httpx.get(server.url(f"/api/games/{gid}/view"), headers=auth).json()
        if not v["your_turn"]:
            time.sleep(0.05)
            continue
        if any(a["notation"].startswith("move ") for a in v["legal"]):
            return
        httpx.post(server.url(f"/api/games/{gid}/actions"), headers=auth,
                   json={"seq": v["seq"], "action": v["legal"][-1]["notation"]})
    raise AssertionError("no move became legal")


def _table(browser, server, reduced: str, errors: list[str]):
    gid, token = seated_game(server, "rift-domination", 2, 5)
    _to_first_move(server, gid, token)
    page = new_page(browser, errors, 1400, 950, reduced_motion=reduced)
    page.add_init_script(KEEP_ANIMATIONS)
    page.goto(server.url(f"/games/{gid}?token={token}"))
    page.wait_for_selector(".rd-board")
    page.wait_for_selector("body[data-turn='yours']", state="attached")
    return page


def _move(page) -> str:
    """Play the first "move FROM TO" action by typing it, as a player does; its source."""
    move = page.evaluate("() => [...document.querySelectorAll('#groups button.action')]"
                         ".map((b) => b.dataset.notation).find((n) => /^move \\S+ \\S+$/.test(n))")
    seq = page.locator("body").get_attribute("data-seq")
    page.fill("#search", move)
    page.press("#search", "Enter")
    _changed(page, seq)
    return move


@pytest.mark.parametrize("reduced", ["no-preference", "reduce"])
def test_a_units_move_slides_from_its_old_place_unless_motion_is_reduced(browser, server, reduced):
    errors: list[str] = []
    page = _table(browser, server, reduced, errors)
    move = _move(page)
    _, src, dst = move.split()
    if reduced != "reduce":
        page.wait_for_function("() => window.__animations.some((a) => a.id === 'move')",
                               timeout=10_000)
    slides = page.evaluate(SLIDES)
    if reduced == "reduce":
        page.wait_for_timeout(100)
        assert page.evaluate(SLIDES) == [] and slides == [], slides
        assert page.evaluate(RUNNING) == 0
        assert not page.locator("#board .moving").count()
    else:
        # the chip drawn at the destination starts at the source's offset and slides home
        assert slides, f"no slide after {move}"
        assert any(s["at"] == dst for s in slides), (move, slides)
        first = next(s for s in slides if s["at"] == dst)
        assert first["from"] not in ("none", "translate(0px, 0px)"), first
        # the actions and the board answer at once, while it runs
        assert page.locator("#groups button.action").first.is_enabled()
        # about 300 ms, then nothing runs (the wait is long for a loaded machine)
        page.wait_for_function(f"() => ({RUNNING})() === 0", timeout=10_000)
    assert not errors, errors
    page.close()


BATTLE = ["P1 (Xith Swarm) moves 10 unit(s) B2 -> B3",
          "space battle at B3: P1 (Xith Swarm) attacks P0 (Nyx Reavers)",
          "P1 (Xith Swarm) rolls [6, 5, 2]: 2 hit(s)",
          "P0 (Nyx Reavers)'s Fighter is destroyed",
          "P0 (Nyx Reavers) rolls [1, 4]: 0 hit(s)",
          "P1 (Xith Swarm) recruits"]


# The steps of the overlay as a view's new lines start it: motion() as the table wires it
# (on the table's board and box), given the view before and the view with the battle's
# lines; every 100 ms the number of lines shown, until a click.
STEPS = """async (lines) => {
  const { motion } = await import('/static/motion.js');
  const m = motion({ board: document.getElementById('board'), box: document.getElementById('board-box') });
  m.beforeDraw({ seq: 1000, log_total: 100, log: [] });
  m.beforeDraw({ seq: 1001, log_total: 100 + lines.length, log: lines });
  const box = m.overlay;
  const seen = [];
  for (let i = 0; i < 9; i += 1) {
    seen.push(box.hidden ? 0 : box.querySelectorAll('li').length);
    await new Promise((r) => setTimeout(r, 100));
  }
  box.click();
  return { seen, after: box.querySelectorAll('li').length, text: [...box.querySelectorAll('li')].map((li) => li.textContent) };
}"""


def test_a_battles_lines_come_one_at_a_time_and_a_click_shows_them_all(browser, server):
    errors: list[str] = []
    page = _table(browser, server, "no-preference", errors)
    out = page.evaluate(STEPS, BATTLE)
    seen = out["seen"]
    # one line at first, then one more about every 400 ms, never all at once
    assert seen[0] == 1, seen
    assert seen == sorted(seen) and all(b - a <= 1 for a, b in pairwise(seen)), seen
    assert 2 <= seen[-1] <= 3, seen
    # the click shows the battle's four lines (the move and the recruiting are no battle)
    assert out["after"] == 4 and out["text"] == BATTLE[1:5], out
    assert not errors, errors
    page.close()


def test_a_battle_is_not_stepped_with_reduced_motion(browser, server):
    errors: list[str] = []
    page = _table(browser, server, "reduce", errors)
    out = page.evaluate(STEPS, BATTLE)
    assert set(out["seen"]) == {0} and out["after"] == 0, out
    assert not errors, errors
    page.close()
