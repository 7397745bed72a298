"""At phone width, a player logs in, opens the campaign and its map, and taps a tile."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Kingdom, Role
from tests.conftest import add_member, make_campaign, make_user
from tests.e2e.conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_taps_a_tile_and_sees_its_panel(live_server: Any, phone: Any) -> None:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="phone-test", name="Phone Test", width=8, height=6, seed=3)
    player = make_user("pip")
    membership = add_member(campaign, player, Role.PLAYER)
    Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000", player=membership)
    tile = campaign.map.tiles.get(label="0403")

    page = phone
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "pip")
    page.fill("#id_password", "pw-pip")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    shot(page, "01-home-phone")

    page.click("text=Phone Test")
    page.wait_for_url("**/c/phone-test/")
    shot(page, "02-campaign-phone")

    page.click("nav.tabs >> text=Map")
    page.wait_for_url("**/c/phone-test/map/")
    assert page.locator("svg a.tile").count() == 48
    page.locator("#tile-panel").get_by_text("Tap a tile").wait_for()

    # Prove the panel comes by an htmx swap into this page, not by loading another: a marker
    # set on this page's window must survive the tap, htmx must report a swap into the panel,
    # and the only request is htmx's for the tile (no document is loaded).
    page.evaluate("""() => {
        window.__hexkeepPage = "map";
        window.__swaps = [];
        document.body.addEventListener("htmx:afterSwap",
            (event) => window.__swaps.push(event.detail.target.id));
    }""")
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.locator('svg a.tile[data-tile="0403"]').tap()
    heading = page.locator("#tile-panel h2")
    heading.wait_for()
    assert heading.inner_text().startswith("Tile 0403")
    assert page.evaluate("window.__hexkeepPage") == "map"
    assert page.evaluate("window.__swaps") == ["tile-panel"]
    assert [r.resource_type for r in requests if r.resource_type == "document"] == []
    tile_requests = [r for r in requests if r.url.endswith("/c/phone-test/map/tiles/0403/")]
    assert len(tile_requests) == 1
    assert tile_requests[0].headers.get("hx-request") == "true"
    # The address names the tile (replaced, not pushed), so a reload opens on it.
    assert page.url == f"{live_server.url}/c/phone-test/map/tiles/0403/"
    assert page.locator("#map svg").count() == 1
    terrain = campaign.system.terrain(tile.terrain)
    assert terrain.label in page.locator("#tile-panel").inner_text()
    # Usable with one thumb: the page does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "03-map-tile-panel-phone")
