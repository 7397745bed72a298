"""At phone width (390 px), a player spends their winter gold with one thumb and reads "My
kingdom" and the ledger: no sideways scrolling, every button at least 44 px tall, the purchase
lands through htmx without leaving the page.

The browser runs in a thread of its own (Playwright's sync API keeps an event loop in the thread
that starts it), so this test does not depend on, or clash with, the browser of tests/e2e.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from campaign.systems.mighty_kingdoms import winter_services as ws
from ledger.models import Purchase
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHROMIUM = os.environ.get("HEXKEEP_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
SMALL_BUTTONS = """() => [...document.querySelectorAll('button, a.button')]
  .filter(b => b.offsetParent !== null)
  .map(b => [b.innerText.trim(), b.getBoundingClientRect().height])
  .filter(([text, h]) => h < 44)"""


def on_a_phone(script: Callable[[Any], None]) -> None:
    """Run ``script(context)`` in Chromium at 390 x 844 (a phone's browser context), in its own
    thread; re-raise its failure."""
    failures: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            if not Path(CHROMIUM).exists():
                raise AssertionError(f"Chromium not found at {CHROMIUM}: run `make test`.")
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM,
                    args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              device_scale_factor=2, is_mobile=True,
                                              has_touch=True)
                try:
                    script(context)
                finally:
                    browser.close()
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    if failures:
        raise failures[0]


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits_a_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_BUTTONS) == []


def test_mk_buy_on_a_phone_and_read_my_kingdom(live_server: Any, gm: Any,
                                               plain_summer: None) -> None:
    w = build_tv3(gm, slug="phone-winter")
    to_phase(w, ws.BUY)
    username = w.users["Red"].username
    base = live_server.url
    village = f"Village at {w.t('E1')} · 1 gold"
    bought = f"Red: empty → village at {w.t('E1')}"
    fortress = f"Fortress at {w.t('V1')} · 2 gold"
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", f"pw-{username}")
        page.click("button[type=submit]")
        page.wait_for_url(f"{base}/")
        page.goto(f"{base}/c/phone-winter/play/")
        page.get_by_text("2. Build and recruit (MK-BUY)").wait_for()
        fits_a_phone(page)
        shot(page, "winter-01-buy-phone")

        stale = context.new_page()  # the same player, on a second tab opened before buying
        stale.goto(f"{base}/c/phone-winter/play/")
        page.get_by_role("button", name=village).tap()
        page.get_by_text(bought).wait_for()
        # Tapping on the out-of-date tab is refused, and the reason shows under that button.
        stale.get_by_role("button", name=fortress).tap()
        stale.get_by_text("It is Blue's turn (MK-BUY-1).").wait_for()
        seen["stale tab"] = stale.url
        fits_a_phone(stale)
        shot(stale, "winter-02b-refused-phone")
        seen["url after buying"] = page.url
        seen["turn"] = page.locator(".turn").inner_text()
        fits_a_phone(page)
        shot(page, "winter-02-bought-phone")

        page.click("nav.tabs >> text=My kingdom")
        page.get_by_text("What can I afford now?").wait_for()
        seen["kingdom"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "winter-03-my-kingdom-phone")

        page.click("text=Ledger >> nth=0")
        page.get_by_text("Ledger of Red").wait_for()
        seen["ledger"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "winter-04-ledger-phone")

    on_a_phone(script)
    assert seen["url after buying"].endswith("/c/phone-winter/play/")
    assert seen["turn"] == "Blue to act."
    assert "3 gold · 3 food" in seen["kingdom"] and "Treasury" in seen["kingdom"]
    assert "MK-SETTLE-3" in seen["ledger"]
    assert seen["stale tab"].endswith("/c/phone-winter/play/")
    assert Purchase.objects.filter(kingdom=w.kingdoms["Red"]).count() == 1
