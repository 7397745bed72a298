"""At phone width (390 px), a player gives an order with one thumb and the GM enters a battle
result: big enough buttons, no sideways scrolling, htmx swapping the phase in place.

The browser runs in a thread of its own with its own Playwright: the browser tests under
tests/e2e keep a session-wide Playwright on the main thread, and two sync Playwrights cannot
share one thread. Database work stays on the test's thread, between the browser steps.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from battles.models import Army
from campaign.systems.mighty_kingdoms import summer
from campaign.systems.mighty_kingdoms.models import Order
from tests.e2e.conftest import shot
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.phone import log_in, on_a_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def browse(steps: Callable[[Any], None]) -> None:
    """Run ``steps(page)`` in a fresh phone-sized Chromium (``tests.phone.on_a_phone``)."""
    on_a_phone(lambda context: steps(context.new_page()))


def fits_a_phone(page: Any, buttons: bool = True) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    heights = page.evaluate(
        "[...document.querySelectorAll('#phase button')]"
        ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
    assert bool(heights) == buttons
    assert all(h >= 44 for h in heights)


def test_a_player_orders_and_the_gm_enters_a_result_on_a_phone(live_server: Any,
                                                               scene: Scene) -> None:
    play = live_server.url + scene.play_url()

    def give_an_order(page: Any) -> None:
        log_in(page, live_server.url, "player")
        page.goto(play)
        assert page.locator("p.turn").inner_text() == "Your turn."
        fits_a_phone(page)
        shot(page, "summer-01-orders-phone")
        army = page.locator("article.token", has=page.locator("h3", has_text="Army #2"))
        army.locator("select[name=target]").select_option("0504")
        army.get_by_role("button", name="Move").tap()
        page.locator(".summer-orders", has_text="Move to 0504").wait_for()
        assert page.url == play  # swapped in place by htmx
        assert "Blue to act." in page.locator("p.turn").inner_text()
        # Nothing to tap while Blue gives its order but taking the order back (issue 17).
        assert "Red orders army #2 on" in page.locator("#outcome").inner_text()
        assert page.locator("#phase button").all_inner_texts() == ["Take it back"]
        fits_a_phone(page)

    browse(give_an_order)
    assert Order.objects.get().target.label == "0504"

    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Order.objects.all().delete()
    scene.at("C")
    summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)

    def enter_the_result(page: Any) -> None:
        log_in(page, live_server.url, "gm")
        page.goto(play)
        fits_a_phone(page)
        page.get_by_label("Win").check()
        page.get_by_role("button", name="Enter the result").tap()
        page.locator("dd", has_text="Red: win, Blue: loss").wait_for()
        fits_a_phone(page)
        shot(page, "summer-02-battle-result-phone")

    browse(enter_the_result)
    assert scene.tile("0504").controller_id == scene.red.pk
    assert (scene.get_army(scene.blue, 1).on_side, scene.get_army(scene.blue, 1).tile.label) == (
        True, "0604")
