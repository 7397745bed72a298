"""At 360 px, the narrowest phone we support, the GM paints the map in the editor with a thumb:
pick a terrain brush, tap a tile, see it redrawn, and find it saved."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from campaign.models import Event, Tile
from tests.conftest import make_campaign, make_user
from tests.e2e.conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}


def test_gm_paints_a_terrain_at_360_px(live_server: Any, browser: Any) -> None:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="paint", name="Paint Test", width=8, height=6, seed=None)
    Tile.objects.filter(map=campaign.map).update(explored=True)
    assert Tile.objects.get(map=campaign.map, label="0302").terrain == "plain"

    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "gm")
        page.fill("#id_password", "pw-gm")
        page.click("button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/c/paint/map/edit/")
        page.evaluate("window.__hexkeepPage = 'editor'")
        # Usable at 360 px: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]

        page.get_by_label("Hills").check()
        tile = page.locator('#map svg a.tile[data-tile="0302"]')
        before = tile.locator("use").first.get_attribute("fill")
        with page.expect_response(lambda r: r.url.endswith("/c/paint/map/edit/paint/")) as done:
            tile.tap()
        assert done.value.status == 200
        # The map is redrawn in place with the tile in the hills' colour.
        hills = campaign.system.terrain("hills").colour
        redrawn = page.locator('#map svg a.tile[data-tile="0302"] use').first
        # The answer is in; htmx swaps it in a moment later.
        expect(redrawn).to_have_attribute("fill", hills)
        assert hills != before
        assert page.evaluate("window.__hexkeepPage") == "editor"
        assert page.locator("#paint-error").inner_text() == ""
        shot(page, "05-map-editor-360")

        # Saved: the database and a fresh page agree.
        assert Tile.objects.get(map=campaign.map, label="0302").terrain == "hills"
        event = Event.objects.filter(campaign=campaign).order_by("-seq").first()
        assert (event.kind, event.summary) == ("map.tile", "Tile 0302 edited: terrain hills.")
        page.reload()
        fill = page.locator('#map svg a.tile[data-tile="0302"] use').first.get_attribute("fill")
        assert fill == hills
    finally:
        context.close()
