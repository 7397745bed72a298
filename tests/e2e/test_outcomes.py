"""See what happened, in the browser (issue 17): on a phone (390 px) and a laptop (1280 px) a
player places the first settlements and the page says where, with the form gone and no
refusal-looking lines; "Take it back" puts the step back in their hands. A GM seals a named
kingdom's race; a campaign with too few kingdoms links to founding one; counts read as English.
Each state is checked with axe-core (WCAG 2.1 AA)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import Campaign, Kingdom, Role, Tile
from tests.conftest import add_member, make_campaign, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import shot
from tests.mk.test_outcomes import settle_form, to_settle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def signed_in(browser: Any, live_server: Any, user: Any, width: int) -> tuple[Any, Any]:
    """A browser context at ``width`` px, signed in as ``user`` (a session made by Django's
    test client, handed to the browser as its cookie)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  device_scale_factor=2, is_mobile=width < 600,
                                  has_touch=width < 600)
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "domain": host, "path": "/"}])
    return context, context.new_page()


def two_kingdoms() -> dict[str, Any]:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="mk-setup", width=12, height=10, seed=11)
    world: dict[str, Any] = {"campaign": campaign, "gm": gm}
    for name, colour in (("Red", "#aa0000"), ("Blue", "#0000aa")):
        user = make_user(name.lower())
        kingdom = Kingdom.objects.create(campaign=campaign, name=name, colour=colour,
                                         player=add_member(campaign, user, Role.PLAYER))
        world[name] = (user, kingdom)
    return world


def no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [390, 1280])
def test_placing_settlements_says_where_and_can_be_taken_back(live_server: Any, browser: Any,
                                                              width: int) -> None:
    world = two_kingdoms()
    campaign = to_settle(world)
    red_user, red = world["Red"]
    tiles = settle_form(campaign, red)["tiles"]
    context, page = signed_in(browser, live_server, red_user, width)
    try:
        page.goto(f"{live_server.url}/c/mk-setup/play/")
        page.get_by_role("button", name="Place them").click()
        outcome = page.locator("#outcome")
        outcome.wait_for()
        said = outcome.inner_text()
        assert said.startswith(f"Placed Red's settlements: a city at {tiles[0]}, a fortress at "
                               f"{tiles[1]}, villages at")
        body = page.locator("#phase").inner_text()
        assert "already claimed" not in body
        assert page.get_by_role("button", name="Place them").count() == 0
        assert "Your first settlements are placed" in body
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-outcome-settled-{width}")
        # The statement stays when the page is loaded again (as the live poll does).
        page.reload()
        assert page.locator("#outcome").inner_text().startswith("Placed Red's settlements")
        page.get_by_role("button", name="Take it back").click()
        page.get_by_role("button", name="Place them").wait_for()
        assert page.locator("#outcome").inner_text().startswith(
            "Taken back: Red settles the land around")
        assert page.get_by_role("button", name="Take it back").count() == 0
        assert Campaign.objects.get(pk=campaign.pk).state.get(f"settled:{red.pk}") is None
        assert_accessible(page)
        shot(page, f"17-outcome-taken-back-{width}")
    finally:
        context.close()


def test_take_back_refused_after_someone_acted_says_why(live_server: Any, browser: Any) -> None:
    world = two_kingdoms()
    campaign = to_settle(world)
    red_user, red = world["Red"]
    blue_user, blue = world["Blue"]
    context, page = signed_in(browser, live_server, red_user, 390)
    try:
        page.goto(f"{live_server.url}/c/mk-setup/play/")
        page.get_by_role("button", name="Place them").click()
        page.get_by_role("button", name="Take it back").wait_for()
        # Blue acts before Red taps "Take it back" on the page still open.
        other = Client()
        other.force_login(blue_user)
        form = settle_form(Campaign.objects.get(pk=campaign.pk), blue)
        assert other.post("/c/mk-setup/mk/setup/settle/", form).status_code == 302
        page.get_by_role("button", name="Take it back").click()
        refusal = page.locator("[data-refusal]")
        refusal.wait_for()
        assert "someone acted after it" in refusal.inner_text()
        assert_accessible(page)
        shot(page, "17-outcome-take-back-refused-390")
    finally:
        context.close()


def test_a_gm_seals_a_named_kingdoms_race(live_server: Any, browser: Any) -> None:
    world = two_kingdoms()
    context, page = signed_in(browser, live_server, world["gm"], 390)
    try:
        page.goto(f"{live_server.url}/c/mk-setup/play/")
        assert page.get_by_role("button", name="Seal my choice").count() == 0
        page.get_by_label("Main race (army list) of Red").fill("Dwarfs")
        page.get_by_role("button", name="Seal Red's choice").click()
        page.locator("#outcome").wait_for()
        assert "Red's race is sealed: Dwarfs." in page.locator("#outcome").inner_text()
        assert page.get_by_role("button", name="Change Red's choice").count() == 1
        assert page.get_by_role("button", name="Seal Blue's choice").count() == 1
        no_sideways_scroll(page, 390)
        assert_accessible(page)
        shot(page, "17-setup-gm-seals-390")
    finally:
        context.close()


def test_too_few_kingdoms_links_to_founding_one(live_server: Any, browser: Any) -> None:
    gm = make_user("gm")
    make_campaign(gm, slug="mk-empty", width=8, height=6, seed=3)
    context, page = signed_in(browser, live_server, gm, 390)
    try:
        page.goto(f"{live_server.url}/c/mk-empty/play/")
        assert "Found at least two kingdoms first." in page.locator("#phase").inner_text()
        assert_accessible(page)
        shot(page, "17-setup-too-few-390")
        page.get_by_role("link", name="Found a kingdom").click()
        page.wait_for_url(f"{live_server.url}/c/mk-empty/kingdoms/new/")
    finally:
        context.close()


def test_counts_read_as_english(live_server: Any, browser: Any) -> None:
    world = two_kingdoms()
    campaign, (red_user, red) = world["campaign"], world["Red"]
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("pk")[:4])
    for tile, settlement in zip(tiles, ["city", "city", "fortress", "fortress"]):
        Tile.objects.filter(pk=tile.pk).update(settlement=settlement, controller=red)
    context, page = signed_in(browser, live_server, red_user, 390)
    try:
        page.goto(f"{live_server.url}/c/mk-setup/kingdoms/{red.pk}/")
        words = page.locator("main").inner_text()
        assert "2 cities" in words and "2 fortresses" in words
        assert "citys" not in words
        assert_accessible(page)
    finally:
        context.close()
