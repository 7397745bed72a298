"""The unit catalogue in the browser (issue 17, "what users of similar tools expect"): on a
phone (390 px) the GM imports a catalogue as text, is shown each bad line by its number with
nothing imported, then imports it; a player writing a list picks a profile and the unit's fields
fill in, still theirs to change (390 and 1280 px). Each state is checked with axe-core."""

from __future__ import annotations

from typing import Any

import pytest

from battles import catalogue
from battles.models import Army, Unit, UnitProfile
from battles.rules.catalogue import ProfileEntry
from campaign.models import Campaign, Kingdom, Role
from tests.conftest import add_member, make_campaign, make_user
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import shot
from tests.e2e.test_outcomes import no_sideways_scroll, signed_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BAD = ("Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ De 5+ Att 12 Ne 14/16; rules Headstrong\n"
       "Ogres, horde\n"
       "Greatbow Volley, troop, 90; US 7\n")
GOOD = ("Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ De 5+ Att 12 Ne 14/16; rules Headstrong\n"
        "Ogres, horde, 230; US 3\n"
        "Greatbow Volley, troop, 90; US 1; rules Piercing (1)\n")


def _world() -> dict[str, Any]:
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="catalogue", width=8, height=6, seed=7)
    Campaign.objects.filter(pk=campaign.pk).update(season="summer", year=1, month=1, phase="C")
    red_user = make_user("red")
    red = Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                                 player=add_member(campaign, red_user, Role.PLAYER))
    army = Army.objects.create(campaign=campaign, kingdom=red, number=1,
                               tile=campaign.map.tiles.order_by("label").first())
    return {"campaign": campaign, "gm": gm, "red": red_user, "army": army}


def test_the_gm_imports_a_catalogue_and_bad_lines_are_named(live_server: Any,
                                                             browser: Any) -> None:
    world = _world()
    context, page = signed_in(browser, live_server, world["gm"], 390)
    try:
        page.goto(f"{live_server.url}/c/catalogue/catalogue/")
        assert "No profile yet." in page.locator("main").inner_text()
        page.get_by_role("link", name="Import profiles (text or CSV)").click()
        page.get_by_label("Profiles, one per line, or CSV").fill(BAD)
        page.get_by_role("button", name="Import").click()
        errors = page.locator("#line-errors")
        errors.wait_for()
        assert errors.locator("li").all_inner_texts() == [
            "Line 2: write it as: name, type, points (then ; US 2; stats ...; rules ...).",
            "Line 3: Unit Strength must be a whole number from 0 to 5, not '7'.",
        ]
        assert "Nothing was imported." in errors.inner_text()
        assert UnitProfile.objects.count() == 0
        # What was typed stays, to be corrected.
        assert page.get_by_label("Profiles, one per line, or CSV").input_value() == BAD
        no_sideways_scroll(page, 390)
        assert_accessible(page)
        shot(page, "17-catalogue-import-refused-390")
        page.get_by_label("Profiles, one per line, or CSV").fill(GOOD)
        page.get_by_role("button", name="Import").click()
        page.wait_for_url(f"{live_server.url}/c/catalogue/catalogue/")
        main = page.locator("main").inner_text()
        assert "Catalogue imported: 3 profiles added, 0 changed." in main
        assert page.locator("ul.catalogue > li .unit-name").all_inner_texts() == [
            "Greatbow Volley", "Ironguard", "Ogres"]
        no_sideways_scroll(page, 390)
        assert_accessible(page)
        shot(page, "17-catalogue-390")
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_player_fills_a_unit_from_the_catalogue(live_server: Any, browser: Any,
                                                  width: int) -> None:
    world = _world()
    catalogue.add_profile(world["campaign"], ProfileEntry(
        "Ironguard", "regiment", 145, 2, "Sp 4 Me 3+ De 5+ Att 12 Ne 14/16", "Headstrong"),
        world["gm"])
    catalogue.add_profile(world["campaign"], ProfileEntry("Ogres", "horde", 230, 3),
                          world["gm"])
    context, page = signed_in(browser, live_server, world["red"], width)
    try:
        page.goto(f"{live_server.url}/c/catalogue/mk/armies/{world['army'].pk}/list/")
        page.get_by_label("From the unit catalogue").select_option(
            label="Ironguard (regiment, 145 pts)")
        page.get_by_role("button", name="Fill in").click()
        page.locator("#picked").wait_for()
        assert page.locator("#id_name").input_value() == "Ironguard"
        assert page.locator("#id_points").input_value() == "145"
        assert page.locator("#id_base_us").input_value() == "2"
        assert page.locator("#id_unit_type").input_value() == "regiment"
        assert page.locator("#id_stats").input_value() == "Sp 4 Me 3+ De 5+ Att 12 Ne 14/16"
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-catalogue-pick-{width}")
        # Still the player's to change: a bigger unit than the profile's.
        page.locator("#id_points").fill("160")
        page.get_by_role("button", name="Add the unit").click()
        page.locator("#unit-list, ol.units > li").first.wait_for()
        unit = Unit.objects.get(army_list__army=world["army"])
        assert (unit.name, unit.points, unit.base_us, unit.special_rules) == (
            "Ironguard", 160, 2, "Headstrong")
        assert "160 of 500 points" in page.locator("#draft").inner_text()
    finally:
        context.close()
