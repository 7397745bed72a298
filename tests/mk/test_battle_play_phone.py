"""At phone width (390 px) a player fights a Simple battle against the GM die by die: tap a die,
tap an enemy army, see hit or miss, htmx swapping the battle in place; no sideways scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army, Battle
from campaign.models import Campaign
from campaign.systems.mighty_kingdoms import battle_play as bp
from campaign.systems.mighty_kingdoms import summer
from tests.e2e.conftest import shot
from tests.mk.test_summer_phone import browse
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.phone import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    heights = page.evaluate(
        "[...document.querySelectorAll('#battle button')]"
        ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
    assert all(h >= 44 for h in heights)


def test_a_player_fights_a_simple_battle_die_by_die_on_a_phone(live_server: Any,
                                                               scene: Scene) -> None:
    Campaign.objects.filter(pk=scene.campaign.pk).update(
        options={**(scene.campaign.options or {}), "battle_mode": "simple"})
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    url = live_server.url + scene.mk_url("battle_play", battle.pk)

    def set_up_and_roll(page: Any) -> None:
        log_in(page, live_server.url, "player")
        page.goto(live_server.url + scene.play_url())
        page.get_by_role("link", name="Open the battle").tap()
        page.wait_for_url(url)
        fits(page)
        page.get_by_role("button", name="Set up the battle").tap()
        page.locator("input[name=dice]").fill("6")
        page.get_by_role("button", name="Enter Red's dice").tap()
        page.locator("text=Waiting for Blue's dice.").wait_for()
        assert page.url == url
        fits(page)

    browse(set_up_and_roll)
    # The GM, at the table, types in Blue's die.
    bp.roll_simple(battle.pk, scene.gm, scene.campaign, None, "defender", [5])

    def allocate(page: Any) -> None:
        log_in(page, live_server.url, "player")
        page.goto(url)
        assert "Red to allocate a die" in page.locator("#bt-turn").inner_text()
        fits(page)
        shot(page, "battle-01-simple-phone")
        page.locator(".bt-die", has_text="6").first.tap()
        page.get_by_role("button", name="Blue's army #1 (Defence 5)").tap()
        page.locator(".bt-steps li",
                     has_text="Red's 6 at Blue's army #1 (Defence 5): hit").wait_for()
        assert "Blue to allocate a die" in page.locator("#bt-turn").inner_text()
        assert page.locator("[data-army] >> text=400 pts").count() == 1
        fits(page)
        # Not Red's turn: no dice to tap.
        assert page.locator("form.bt-allocate").count() == 0

    browse(allocate)

    def gm_allocates(page: Any) -> None:
        log_in(page, live_server.url, "gm")
        page.goto(url)
        fits(page)
        page.locator(".bt-side[data-side=defender] .bt-die", has_text="5").first.tap()
        page.get_by_role("button", name="Red's army #2 (Defence 5)").tap()
        page.locator(".bt-outcome").wait_for()
        assert "Red: draw (100), Blue: draw (100)" in page.locator(".bt-outcome").inner_text()
        fits(page)
        shot(page, "battle-02-simple-outcome-phone")

    browse(gm_allocates)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.status) == ("draw", "resolved")
    assert scene.get_army(scene.red, 2).points == 400
    assert scene.get_army(scene.blue, 1).points == 400
