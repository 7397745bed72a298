"""Chromium at phone size for the browser tests that drive a live server.

Playwright's sync API keeps an event loop in the thread that starts it, so each run gets a thread
of its own and does not clash with the session browser of tests/e2e or with the test's database
calls. A missing Chromium fails the test: `make test` installs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import CHROMIUM, PHONE, shot

__all__ = ["fits_a_phone", "log_in", "on_a_phone", "shot"]

SMALL_TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(b => b.offsetParent !== null)
  .map(b => [b.innerText.trim(), b.getBoundingClientRect().height])
  .filter(([text, h]) => h < 44)"""


def on_a_phone(script: Callable[[Any], None]) -> None:
    """Run ``script(context)`` in a fresh Chromium context of 390 x 844 (touch, 2x pixels) on a
    thread of its own; its failure is raised again here."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it.")
    errors: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM,
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--disable-component-update", "--no-first-run"])
                context = browser.new_context(viewport=PHONE, device_scale_factor=2,
                                              is_mobile=True, has_touch=True)
                try:
                    script(context)
                finally:
                    browser.close()
        except BaseException as exc:  # handed back to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the browser steps did not finish"
    if errors:
        raise errors[0]


def fits_a_phone(page: Any, targets: str = "button, a.button") -> None:
    """No sideways scrolling at 390 px, every visible tap target at least 44 px tall, and no
    WCAG 2.1 A/AA violation axe-core finds on the page as it stands."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(SMALL_TARGETS, targets) == []
    assert_accessible(page)


def log_in(page: Any, base: str, username: str) -> None:
    """Log in through the form as a test user (password ``pw-<username>``, see tests/conftest)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
