"""At phone width (390 px) a player writes an army list with one thumb: add a unit in a few
taps (type from a select, points on the number pad), copy it, fix the list; then reads the army
and the roster. The GM enters a battle's unit results. No sideways scrolling, every button at
least 44 px tall.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import ArmyList, Unit, UnitStrengthEvent
from tests.battles.conftest import World, unit
from tests.phone import fits_a_phone, log_in, on_a_phone, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TARGETS = "button, a.button, summary"


def test_writing_a_list_on_a_phone(live_server: Any, world: World) -> None:
    base = live_server.url
    slug = world.campaign.slug
    red1 = world.get(world.red, 1)
    world.write(world.get(world.blue, 1), [unit("Spears", "horde", 200, 3)])
    seen: dict[str, Any] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        log_in(page, base, world.player.username)
        page.goto(f"{base}/c/{slug}/mk/armies/{red1.pk}/list/")
        fits_a_phone(page, TARGETS)
        seen["points keypad"] = page.get_attribute("#id_points", "inputmode")
        page.fill("#id_name", "Ironguard")
        page.select_option("#id_unit_type", "regiment")
        page.fill("#id_points", "145")
        page.select_option("#id_base_us", "2")
        page.get_by_role("button", name="Add the unit").tap()
        page.get_by_text("145 of 500 points").wait_for()
        # htmx moves the focus once the new form has settled, a moment after the total shows.
        page.wait_for_function("document.activeElement && document.activeElement.id === 'id_name'")
        seen["focused"] = page.evaluate("document.activeElement.id")
        page.get_by_role("button", name="Copy").first.tap()
        page.get_by_text("290 of 500 points").wait_for()
        # Going over 500 points is allowed while drafting; the editor says what stands in the
        # way of fixing the list.
        page.fill("#id_name", "Giant")
        page.select_option("#id_unit_type", "monster")
        page.fill("#id_points", "300")
        page.select_option("#id_base_us", "1")
        page.get_by_role("button", name="Add the unit").tap()
        page.get_by_text("590 of 500 points").wait_for()
        page.get_by_text("The list totals 590 points").wait_for()
        fits_a_phone(page, TARGETS)
        shot(page, "armies-01-editor-phone")
        # A refused form (400) comes back into the page with its reasons.
        page.evaluate("document.getElementById('id_name').removeAttribute('required')")
        page.fill("#id_points", "5")
        page.select_option("#id_base_us", "1")
        page.get_by_role("button", name="Add the unit").tap()
        page.get_by_text("This field is required.").wait_for()
        seen["kept"] = page.input_value("#id_points")
        page.get_by_role("button", name="Remove").last.tap()
        page.get_by_text("290 of 500 points").wait_for()
        page.get_by_role("button", name="Fix the list").tap()
        page.wait_for_url(f"{base}/c/{slug}/mk/armies/{red1.pk}/")
        seen["army"] = page.inner_text("main")
        fits_a_phone(page, TARGETS)
        shot(page, "armies-02-army-phone")
        page.goto(f"{base}/c/{slug}/mk/armies/kingdom/{world.red.pk}/")
        seen["roster"] = page.inner_text("main")
        fits_a_phone(page, TARGETS)
        shot(page, "armies-03-roster-phone")
        page.goto(f"{base}/c/{slug}/mk/armies/{red1.pk}/list/paste/")
        fits_a_phone(page, TARGETS)

    on_a_phone(script)
    assert seen["points keypad"] == "numeric"
    assert seen["focused"] == "id_name"  # ready for the next unit
    assert seen["kept"] == "5"
    assert "Fixed" in seen["army"] and "Ironguard" in seen["army"]
    assert "2 units, 290 points · fixed" in seen["roster"]
    assert ArmyList.objects.get(army=red1).is_fixed
    assert list(Unit.objects.filter(army_list__army=red1).values_list("name", flat=True)) == [
        "Ironguard", "Ironguard"]


def test_gm_enters_unit_results_on_a_phone(live_server: Any, world: World) -> None:
    base = live_server.url
    world.write(world.get(world.red, 1), [unit("Ironguard", "regiment", 145, 2)])
    world.write(world.get(world.blue, 1), [unit("Spears", "horde", 200, 3)])
    battle = world.fight()

    def script(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, world.gm.username)
        page.goto(f"{base}/c/{world.campaign.slug}/mk/armies/battle/{battle.pk}/")
        page.get_by_role("link", name="Enter the result").tap()
        page.wait_for_url(f"**/mk/summer/battle/{battle.pk}/play/")
        fits_a_phone(page, TARGETS)
        # One form: the result and each unit's rout events (MK-RESULT, MK-US-1..3).
        page.get_by_label("Win").check()
        page.get_by_label("First to damage and rout an enemy").first.tap()
        page.get_by_label("Routed (−1)").last.tap()
        page.get_by_role("button", name="Enter the result").tap()
        page.get_by_text("routed an enemy (+1)").wait_for()
        fits_a_phone(page, TARGETS)
        shot(page, "armies-04-unit-results-phone")

    on_a_phone(script)
    assert sorted(UnitStrengthEvent.objects.values_list("unit__name", "delta")) == [
        ("Ironguard", 1), ("Spears", -1)]
