"""At phone width (390 px) a player writes an army list with one thumb: add a unit in a few
taps (type from a select, points on the number pad), copy it, fix the list; then reads the army
and the roster. The GM enters a battle's unit results. No sideways scrolling, every button at
least 44 px tall.

The browser runs in a thread of its own (Playwright's sync API keeps an event loop in the thread
that starts it).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battles.models import ArmyList, Unit, UnitStrengthEvent
from tests.battles.conftest import World, unit

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHROMIUM = os.environ.get("HEXKEEP_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
SMALL_BUTTONS = """() => [...document.querySelectorAll('button, a.button, summary')]
  .filter(b => b.offsetParent !== null)
  .map(b => [b.innerText.trim(), b.getBoundingClientRect().height])
  .filter(([text, h]) => h < 44)"""


def on_a_phone(script: Callable[[Any], None]) -> None:
    failures: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            if not Path(CHROMIUM).exists():
                raise AssertionError(f"Chromium not found at {CHROMIUM}: run `make test`.")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM,
                                            args=["--no-sandbox", "--disable-gpu",
                                                  "--no-first-run"])
                context = browser.new_context(viewport={"width": 390, "height": 844},
                                              device_scale_factor=2, is_mobile=True,
                                              has_touch=True)
                try:
                    script(context)
                finally:
                    browser.close()
        except BaseException as exc:
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    if failures:
        raise failures[0]


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits_a_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALL_BUTTONS) == []


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


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
        page.goto(f"{base}/c/{slug}/armies/{red1.pk}/list/")
        fits_a_phone(page)
        seen["points keypad"] = page.get_attribute("#id_points", "inputmode")
        page.fill("#id_name", "Ironguard")
        page.select_option("#id_unit_type", "regiment")
        page.fill("#id_points", "145")
        page.select_option("#id_base_us", "2")
        page.get_by_role("button", name="Add the unit").tap()
        page.get_by_text("145 of 500 points").wait_for()
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
        fits_a_phone(page)
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
        page.wait_for_url(f"{base}/c/{slug}/armies/{red1.pk}/")
        seen["army"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "armies-02-army-phone")
        page.goto(f"{base}/c/{slug}/armies/kingdom/{world.red.pk}/")
        seen["roster"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "armies-03-roster-phone")
        page.goto(f"{base}/c/{slug}/armies/{red1.pk}/list/paste/")
        fits_a_phone(page)

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
        page.goto(f"{base}/c/{world.campaign.slug}/armies/battle/{battle.pk}/")
        fits_a_phone(page)
        page.get_by_label("First to damage and rout an enemy").first.tap()
        page.get_by_label("Routed (−1, MK-US-2)").last.tap()
        page.get_by_role("button", name="Record Unit Strength").tap()
        page.get_by_text("routed an enemy (+1)").wait_for()
        fits_a_phone(page)
        shot(page, "armies-04-unit-results-phone")

    on_a_phone(script)
    assert sorted(UnitStrengthEvent.objects.values_list("unit__name", "delta")) == [
        ("Ironguard", 1), ("Spears", -1)]
