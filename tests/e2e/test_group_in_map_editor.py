"""The map editor's brushes where the thumb is: at 390 px a toolbar held at the bottom of the
screen under the map (it sat a screen above the map), one kind of brush at a time, worked from
the keyboard down to painting a tile; at 1280 px a column held beside the map. axe-core checks
the brushes in each state."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Tile
from tests.conftest import make_campaign, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import PHONE, shot
from tests.phone import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
TOOLBAR = "form#brush"


def visible_brushes(page: Any) -> list[str]:
    return [label.strip() for label in page.locator(
        f"{TOOLBAR} fieldset[data-kind] label.chip:visible").all_inner_texts()]


def test_brushes_under_the_thumb_at_390_px_by_keyboard(live_server: Any, browser: Any) -> None:
    gm = make_user("gm")
    # Tall enough that the map goes on below the toolbar.
    campaign = make_campaign(gm, slug="paint", name="Paint", width=8, height=16, seed=None)
    Tile.objects.filter(map=campaign.map).update(explored=True)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "gm")
        page.goto(f"{live_server.url}/c/paint/map/edit/")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        toolbar = page.locator(TOOLBAR).bounding_box()
        board = page.locator("#map").bounding_box()
        # On first sight: the toolbar at the bottom of the screen, over the map's lower part,
        # and the map starts above it (it used to be the other way round, a screen apart).
        assert board["y"] < toolbar["y"]
        assert abs(toolbar["y"] + toolbar["height"] - PHONE["height"]) <= 1
        assert toolbar["height"] <= 0.42 * PHONE["height"] + 1
        assert visible_brushes(page) == ["Plain", "Hills", "Forest", "Mountains", "Marsh",
                                         "Open water"]
        assert_accessible(page, TOOLBAR)
        shot(page, "group-in-map-editor-390")

        # Scrolled down the map, the toolbar stays at the bottom of the screen.
        page.evaluate("window.scrollBy(0, 250)")
        assert page.evaluate("window.scrollY") > 0
        held = page.locator(TOOLBAR).bounding_box()
        assert abs(held["y"] + held["height"] - PHONE["height"]) <= 1

        # Keyboard: the kinds are one radio group; the arrow picks Settlement, whose first
        # brush is then the one that paints.
        page.locator(f"{TOOLBAR} input[name=kind][value=terrain]").focus()
        page.keyboard.press("ArrowRight")
        assert page.locator(f"{TOOLBAR} input[name=kind]:checked").get_attribute(
            "value") == "settlement"
        assert visible_brushes(page) == ["Village", "City", "Fortress", "None"]
        assert page.locator(f"{TOOLBAR} input[name=brush]:checked").get_attribute(
            "value") == "settlement:village"
        # Tab goes on to the brushes; an arrow picks City.
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.value") == "settlement:village"
        page.keyboard.press("ArrowRight")
        assert page.locator(f"{TOOLBAR} input[name=brush]:checked").get_attribute(
            "value") == "settlement:city"
        assert_accessible(page, TOOLBAR)
        # Enter on a tile paints it.
        tile = page.locator('#map svg a.tile[data-tile="0302"]')
        tile.focus()
        with page.expect_response(lambda r: r.url.endswith("/c/paint/map/edit/paint/")) as done:
            page.keyboard.press("Enter")
        assert done.value.status == 200
        page.wait_for_selector('#map svg a.tile[data-tile="0302"]')
        assert Tile.objects.get(map=campaign.map, label="0302").settlement == "city"
        assert page.locator("#paint-error").inner_text() == ""
        shot(page, "group-in-map-editor-settlement-390")
    finally:
        context.close()


def test_brushes_beside_the_map_at_1280_px(live_server: Any, browser: Any) -> None:
    gm = make_user("gm")
    make_campaign(gm, slug="paint", name="Paint", width=12, height=24, seed=7)
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    try:
        log_in(page, live_server.url, "gm")
        page.goto(f"{live_server.url}/c/paint/map/edit/")
        toolbar = page.locator(TOOLBAR).bounding_box()
        board = page.locator("#map").bounding_box()
        assert toolbar["x"] >= board["x"] + board["width"]
        assert abs(toolbar["y"] - board["y"]) <= 1
        # Every kind of brush at once, under its heading; no kind switch.
        assert not page.locator(f"{TOOLBAR} .brush-kinds").is_visible()
        assert [t.strip() for t in page.locator(f"{TOOLBAR} fieldset[data-kind] > legend")
                .all_inner_texts()] == ["Terrain", "Settlement", "Edges", "Control"]
        assert "Village" in visible_brushes(page) and "Plain" in visible_brushes(page)
        # Held in view while the page scrolls.
        page.evaluate("window.scrollBy(0, 400)")
        assert page.evaluate("window.scrollY") > 0
        assert page.locator(TOOLBAR).bounding_box()["y"] >= 0
        assert_accessible(page, TOOLBAR)
        shot(page, "group-in-map-editor-1280")
    finally:
        context.close()
