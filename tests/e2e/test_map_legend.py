"""The map's legend, read at phone width (390 px) and on a desktop (1280 px): every kind of thing
on the map has its key, drawn as the map draws it, and nothing scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms.models import Ship
from tests.conftest import add_member, make_campaign, make_user
from tests.e2e.conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EXPECTED = ["Plain", "Hills", "Forest", "Unexplored", "Blue", "Red", "Village", "City",
            "Fortress", "Capital", "Start tile", "River edge", "Mountains edge", "Army", "Ship"]


def _campaign() -> None:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="legend", name="Legend Test", width=8, height=6, seed=None)
    tiles = Tile.objects.filter(map=campaign.map)
    tiles.update(explored=True)
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 player=add_member(campaign, make_user("pip"), Role.PLAYER))
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#1f4fbf")

    def tile(label: str, **values: Any) -> Tile:
        tiles.filter(label=label).update(**values)
        return tiles.get(label=label)

    tile("0101", settlement="village", controller=red.pk)
    tile("0201", settlement="city", terrain="hills")
    tile("0301", settlement="fortress", terrain="forest", controller=blue.pk)
    capital = tile("0202", settlement="city", controller=red.pk)
    Kingdom.objects.filter(pk=red.pk).update(capital_tile=capital)
    tile("0503", is_start=True)
    tile("0603", explored=False)
    tile("0302", edges={"1": ["river"], "3": ["mountain"]})
    Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=capital)
    Ship.objects.create(campaign=campaign, kingdom=blue, number=1, tile=tiles.get(label="0401"))


@pytest.mark.parametrize("width", [390, 1280])
def test_legend_keys_every_kind_of_thing_on_the_map(live_server: Any, browser: Any,
                                                    width: int) -> None:
    _campaign()
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  device_scale_factor=2, is_mobile=width < 600,
                                  has_touch=width < 600)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "pip")
        page.fill("#id_password", "pw-pip")
        page.click("button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/c/legend/map/")
        labels = page.locator("ul.legend > li > span:last-child")
        assert labels.all_inner_texts() == EXPECTED
        # Each settlement, edge and counter key is a drawing, and it has been laid out.
        for label in EXPECTED[6:]:
            key = page.locator("ul.legend > li", has_text=label).locator("svg.key")
            box = key.bounding_box()
            assert box is not None and box["width"] >= 20 and box["height"] >= 20, label
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator("section.legend-block").scroll_into_view_if_needed()
        shot(page, f"06-map-legend-{width}")
    finally:
        context.close()
