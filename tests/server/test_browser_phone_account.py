"""Sign-up on a phone: the log-in form opened at x = -191 px on a 390 px screen, so "log in"
and "register" were off-screen. At 360, 390 and 414 px the form lies on screen and both
buttons are clicked (no Enter shortcut)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, Server

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(f"sqlite:///{tmp_path_factory.mktemp('phone') / 'phone.db'}")
    s.start()
    yield s
    s.kill()


def _on_screen(page, selector: str, width: int) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


@pytest.mark.parametrize("width", [360, 390, 414])
def test_a_phone_user_can_register_and_log_in(browser, server, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url("/"))
    page.click("#account-box summary:has-text('log in / register')")
    for selector in ("#account-form", "#account-login", "#account-register",
                     "#account-form input[name='name']"):
        _on_screen(page, selector, width)
    name = f"Phone{width}"
    page.fill("#account-form input[name='name']", name)
    page.fill("#account-form input[name='password']", f"{name}-secret-pass")
    if width == 390:
        page.screenshot(path=str(SHOTS / "account-form-390.png"))
    page.click("#account-register")
    page.wait_for_selector(f"#account-name:has-text('{name}')")
    # log out, then log in again with the button
    page.click("#account-box :text('log out')")
    page.click("#account-box summary:has-text('log in / register')")
    _on_screen(page, "#account-login", width)
    page.fill("#account-form input[name='name']", name)
    page.fill("#account-form input[name='password']", f"{name}-secret-pass")
    page.click("#account-login")
    page.wait_for_selector(f"#account-name:has-text('{name}')")
    assert errors == []
    context.close()
