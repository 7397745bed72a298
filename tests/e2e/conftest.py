"""Browser tests: Debian's Chromium driven by Playwright, against pytest-django's live server.

They fail (never skip) when Chromium is missing: CI must not pass without them.
Screenshots are kept under test-output/e2e/ for people to look at.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = os.environ.get("HEXKEEP_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
PHONE = {"width": 390, "height": 844}


def require_chromium() -> None:
    """Fail the test (never skip it) when Debian's Chromium or Playwright is missing."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        pytest.fail(f"Playwright is not installed ({exc}): run `make test`, which installs it.")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make test`, which installs it.")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code, so Django's async guard is lifted for the browser tests.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
