"""The guided first games ("Learn to play" in the lobby), in Debian's Chromium through
Playwright against one ``starlanes serve`` for the module.

For each of the four games the learner starts the guided game from the lobby and follows
it: on each decision the test works out, from the guide file and the legal actions, which
lesson is due (the first not learnt; an optional one whose situation is not here is passed
over) and checks that the table shows exactly that one when its situation arises (its
hint, its rule and its actions outlined in the list, and for Interstellar Ambitions' "tap a
cell of the track" the seat's cell of the track outlined on the board), and nothing when
it does not. The learner plays an outlined action when there is one. At the end every
lesson that is not optional was shown, in the guide's order, and the guide says it is done.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Server, open_groups
from .test_browser import CHROMIUM
from .test_browser_screens import TABLES, _changed, _legal, _wait_turn, new_page

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install "
                                "Debian's 'chromium' package or set STARLANES_CHROMIUM)")

GUIDES = Path(__file__).resolve().parents[2] / "src" / "starlanes" / "web" / "guides"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('guides') / 'guides.db'}")
    s.start()
    yield s
    s.kill()


def _kind(notation: str) -> str:
    return notation.split()[0]


def due(steps: list[dict], learnt: int, legal: list[str]) -> tuple[int | None, list[str]]:
    """The lesson the guide must show for these legal actions after ``learnt`` lessons
    (None: none now) and the actions it teaches; the guide file's own rule, worked out
    here apart from the page."""
    kinds = {_kind(n) for n in legal}
    for i in range(learnt, len(steps)):
        step = steps[i]
        here = any(k in kinds for k in step.get("when", step["kinds"]))
        picks = [n for n in legal if _kind(n) in step["kinds"]] if here else []
        if picks:
            return i, picks
        if not step.get("optional"):
            return None, []
    return None, []


@pytest.mark.parametrize("game", list(TABLES))
def test_each_lesson_is_shown_in_order_when_its_situation_arises(browser, server, game):
    steps = json.loads((GUIDES / f"{game}.json").read_text())["steps"]
    errors: list[str] = []
    page = new_page(browser, errors, 1366, 900)
    page.goto(server.url("/"))
    page.fill("#name", "Ann")
    page.click(f'#learn-games button[data-guide="{game}"]')
    page.wait_for_selector(TABLES[game][2])
    page.wait_for_selector("#guide:not([hidden])", state="attached")
    learnt = 0
    shown: list[int] = []
    spots = 0
    for _ in range(300):
        if _wait_turn(page) == "over" or all(s.get("optional") for s in steps[learnt:]):
            break
        seq = page.locator("body").get_attribute("data-seq")
        legal = _legal(page)
        want, picks = due(steps, learnt, legal)
        on = page.locator("body").get_attribute("data-guide-shown")
        outlined = sorted(page.locator("#groups button.guide-pick").evaluate_all(
            "(bs) => bs.map((b) => b.dataset.notation)"))
        if want is None:
            assert on == "" and outlined == [], (legal, on, learnt)
            choice = legal[-1]
        else:
            assert on == str(want), (f"lesson {want} is due but {on or 'none'} is shown", legal)
            assert page.locator("#guide .guide-hint").inner_text() == steps[want]["hint"]
            assert page.locator("#guide .rule-id").inner_text() == f"rule {steps[want]['rule']}"
            assert f"step {want + 1} of {len(steps)}" in page.locator("#guide h2").inner_text()
            assert outlined == sorted(picks)
            if not shown or shown[-1] != want:
                shown.append(want)
            if game == "interstellar-ambitions" and steps[want]["kinds"] == ["place"]:
                # "tap a cell of the track": the seat's cell of the first action's track
                cell = f'0:{picks[0].split()[1]}'
                assert page.locator(f'#board [data-track="{cell}"].guide-spot').count() == 1
                spots += 1
            choice = picks[0]
            learnt = want + 1
        open_groups(page)
        page.locator(f'#groups button.action[data-notation="{choice}"]').first.click()
        _changed(page, seq)
    page.wait_for_selector("body[data-guide='done']", state="attached")
    assert "Guided game: done" in page.locator("#guide").inner_text()
    assert shown == sorted(shown), shown
    assert {i for i, s in enumerate(steps) if not s.get("optional")} <= set(shown), shown
    if game == "galactic-empires":  # the card lessons, in order, before the draw
        assert shown[:3] == [0, 1, 2], shown
    if game == "interstellar-ambitions":
        assert spots > 0
    assert not errors, errors
    page.close()
