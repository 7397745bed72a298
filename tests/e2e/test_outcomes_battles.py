"""Battles and purchases say what matters, in the browser (issue 17), on a phone (390 px) and a
laptop (1280 px): a Kings of War battle against an army with an empty list is warned where it is
chosen and on the battle page, for the players and the GM; the battle page says who chose the
battle and who defends the tile; a winter purchase that would leave armies unfed says so on the
purchase itself. Each state is checked with axe-core (WCAG 2.1 AA)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.models import Unit
from campaign.systems.mighty_kingdoms import winter_services as ws
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import shot
from tests.e2e.test_outcomes import no_sideways_scroll, signed_in
from tests.mk.test_battle_play_kow import kow  # noqa: F401 (fixture)
from tests.mk.test_outcomes_battles import EMPTY
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [390, 1280])
def test_an_empty_list_is_warned_where_chosen_and_shown(live_server: Any, browser: Any,
                                                        kow: Scene,  # noqa: F811
                                                        width: int) -> None:
    scene = kow
    Unit.objects.filter(army_list__army=scene.get_army(scene.blue, 1)).delete()
    play = f"{live_server.url}{reverse('campaign:play', args=[scene.campaign.slug])}"
    context, page = signed_in(browser, live_server, scene.player, width)
    try:
        page.goto(play)
        warning = page.locator("p.warning", has_text="no unit on its list")
        assert warning.first.inner_text() == EMPTY + " Write it on the Armies page before the game."
        assert_accessible(page)
        shot(page, f"17-battle-empty-list-choose-{width}")
        page.get_by_role("button", name="Fight Blue: land battle (Kings of War)").click()
        page.locator("#outcome").wait_for()
        assert "Blue's army #1 has no unit on its list" in page.locator("#phase").inner_text()
        page.get_by_role("link", name="Open the battle").click()
        page.locator("p.warning", has_text="no unit on its list").wait_for()
        words = page.locator("main").inner_text()
        assert "Red chose this battle against Blue: land battle (Kings of War)." in words
        assert "Blue defends the tile (MK-DEF-1)." in words
        assert "(attacker)" not in words
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-battle-empty-list-page-{width}")
    finally:
        context.close()
    for user in (scene.other, scene.gm):
        context, page = signed_in(browser, live_server, user, width)
        try:
            page.goto(play)
            assert page.locator("p.warning", has_text="no unit on its list").count() == 1
        finally:
            context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_purchase_form_warns_of_armies_left_unfed(live_server: Any, browser: Any, gm: Any,
                                                      plain_summer: None,  # noqa: F811
                                                      width: int) -> None:
    w = build_tv3(gm, slug="unfed-browser")
    to_phase(w, ws.BUY)
    context, page = signed_in(browser, live_server, w.users["Red"], width)
    try:
        page.goto(f"{live_server.url}{reverse('campaign:play', args=[w.campaign.slug])}")
        page.get_by_text("Armies (MK-RECRUIT)").click()
        recruit = page.get_by_role("button", name="Army at 0201 · 1 gold", exact=True)
        # The warning is the button's description, so a screen reader says it with the button.
        described = recruit.get_attribute("aria-describedby")
        assert described
        assert page.locator(f"#{described}").inner_text() == (
            "After this, 1 army of Red would go unfed at Feed armies and be removed "
            "(MK-WINTER-3).")
        village = page.get_by_role("button", name="Village at 0202 · 1 gold", exact=True)
        assert village.get_attribute("aria-describedby") is None
        no_sideways_scroll(page, width)
        assert_accessible(page)
        shot(page, f"17-buy-unfed-warning-{width}")
    finally:
        context.close()
