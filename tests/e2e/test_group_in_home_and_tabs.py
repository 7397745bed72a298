"""The home page's "Your turn" flag, and every campaign tab on screen, at 390 and 1280 px.

On a phone the later tabs (Armies, Print, Chronicle, Members, Notifications) sat off-screen in a
sideways-scrolling row with no cue; now they are under "More", opened and walked from the
keyboard. axe-core checks each page, the menu open included."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import notifications
from tests.campaign.test_home import summer_scene
from tests.conftest import make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE, shot
from tests.phone import fits_a_phone, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
FIRST = ["Overview", "Play", "Map", "My kingdom"]
LATER = ["Armies", "Print", "Chronicle", "Members", "Notifications"]


def within(box: dict[str, float], viewport: dict[str, int]) -> bool:
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            and box["y"] + box["height"] <= viewport["height"])


def seen(page: Any, name: str) -> dict[str, float]:
    """The one link of the campaign tabs called ``name`` that is displayed, and its box."""
    links = page.locator("nav.tabs").get_by_role("link", name=name, exact=True)
    assert links.count() == 1, name  # the copy not displayed is not in the accessibility tree
    assert links.is_visible(), name
    return links.bounding_box()


@pytest.fixture
def scene(db: Any) -> Any:
    people = {name: make_user(name) for name in ("gm", "rhoda", "bram")}
    s = summer_scene(people["gm"], "red-hills", people["rhoda"], people["bram"])
    notifications.process_campaign(s.campaign.pk)
    return s


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["390", "1280"])
def test_your_turn_is_flagged_on_the_home_page(live_server: Any, browser: Any, scene: Any,
                                               viewport: dict[str, int]) -> None:
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "rhoda")
        card = page.locator("a.campaign-card", has_text="Red Hills")
        flag = card.locator(".badge-turn")
        assert flag.inner_text() == "Your turn"
        assert within(flag.bounding_box(), viewport)
        assert "Player 2 kingdoms, 3 members" in card.inner_text()
        if phone:
            fits_a_phone(page)
        assert_accessible(page)
        shot(page, f"group-in-home-your-turn-{viewport['width']}")
        # The other player sees who is to act instead of a flag.
        page.context.clear_cookies()
        log_in(page, live_server.url, "bram")
        card = page.locator("a.campaign-card", has_text="Red Hills")
        assert card.locator(".badge-turn").count() == 0
        assert "Red of red-hills to act" in card.inner_text()
    finally:
        context.close()


def test_every_tab_is_on_screen_at_390_px_and_more_works_by_keyboard(
        live_server: Any, browser: Any, scene: Any) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "rhoda")
        page.goto(f"{live_server.url}/c/red-hills/")
        fits_a_phone(page)
        for name in FIRST:
            assert within(seen(page, name), PHONE), name
        more = page.locator("#tabs-more > summary")
        assert more.is_visible() and more.text_content() == "More pages"
        assert within(more.bounding_box(), PHONE)
        assert more.get_attribute("class") is None  # this page is not among them
        for name in LATER:
            assert not page.locator("#tabs-more").get_by_role("link", name=name).is_visible()

        # From "My kingdom", Tab reaches "More"; Enter opens it; Tab walks into it.
        page.locator("nav.tabs").get_by_role("link", name="My kingdom").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
        page.keyboard.press("Enter")
        assert page.locator("#tabs-more").get_attribute("open") == ""
        for name in LATER:
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.textContent") == name
            assert within(seen(page, name), PHONE), name
        assert_accessible(page)
        shot(page, "group-in-tabs-more-open-390")
        # Escape closes it and leaves the focus on "More".
        page.keyboard.press("Escape")
        assert page.locator("#tabs-more").get_attribute("open") is None
        assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

        # A tap on a tab in the menu opens that page, and "More" shows it holds the page.
        more.tap()
        page.locator("#tabs-more").get_by_role("link", name="Members").tap()
        page.wait_for_url(f"{live_server.url}/c/red-hills/members/")
        assert page.locator("#tabs-more > summary").get_attribute("class") == "current"
        assert page.locator("#tabs-more > summary").evaluate(
            "s => s.textContent") == "More pages, this page among them"
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "group-in-tabs-members-390")
    finally:
        context.close()


def test_every_tab_in_one_row_at_1280_px(live_server: Any, browser: Any, scene: Any) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "rhoda")
        page.goto(f"{live_server.url}/c/red-hills/chronicle/")
        boxes = [seen(page, name) for name in FIRST + LATER]
        assert all(within(box, WIDE) for box in boxes)
        assert len({round(box["y"]) for box in boxes}) == 1  # one row
        assert [box["x"] for box in boxes] == sorted(box["x"] for box in boxes)
        assert not page.locator("#tabs-more").is_visible()
        assert_accessible(page)
        shot(page, "group-in-tabs-1280")
    finally:
        context.close()


def test_more_stays_on_screen_on_the_narrowest_phone(live_server: Any, browser: Any,
                                                     scene: Any) -> None:
    """At 320 px the first tabs and "More" take two rows rather than run off the side, and the
    open menu stays on the screen."""
    narrow = {"width": 320, "height": 640}
    context = browser.new_context(viewport=narrow, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "rhoda")
        page.goto(f"{live_server.url}/c/red-hills/")
        assert page.evaluate("document.documentElement.scrollWidth") <= narrow["width"]
        for name in FIRST:
            assert within(seen(page, name), narrow), name
        page.locator("#tabs-more > summary").tap()
        for name in LATER:
            assert within(seen(page, name), narrow), name
        shot(page, "group-in-tabs-more-open-320")
    finally:
        context.close()
