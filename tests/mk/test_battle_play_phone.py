"""At phone width (390 px) a player fights a Simple battle against the GM die by die, each on a
phone of their own (two browser contexts): two dice a side, typed in from the table, allocated
in turn, attacker first (MK-SIMPLE-4/5, MK-AMB-3); hit or miss shown at once, htmx swapping the
battle in place; no sideways scrolling, every button big enough for a thumb. Screenshots go to
test-output/e2e/."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army, Battle
from campaign.models import Campaign, Event
from campaign.systems.mighty_kingdoms import summer
from tests.e2e.conftest import PHONE, shot
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401
from tests.phone import log_in, on_a_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    heights = page.evaluate(
        "[...document.querySelectorAll('#battle button')]"
        ".filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
    assert all(h >= 44 for h in heights)


def turn(page: Any) -> str:
    return page.locator("#bt-turn").inner_text()


def allocate(page: Any, side: str, die: str, target: str, step: str) -> None:
    """Tap one of ``side``'s dice showing ``die``, then the enemy army ``target``; wait for the
    step to be listed."""
    page.locator(f".bt-side[data-side={side}] .bt-die:not(.used)", has_text=die).first.tap()
    page.get_by_role("button", name=target).tap()
    page.locator(".bt-steps li", has_text=step).wait_for()


def test_a_player_and_the_gm_fight_a_simple_battle_die_by_die_on_phones(live_server: Any,
                                                                       scene: Scene) -> None:
    """Red (the player, attacker) brings armies #2 (500) and #3 (400) into Blue's 0504, held by
    Blue armies #1 (500) and #2 (300), whose dice the GM handles. Red rolls 6 5, Blue 4 3."""
    Campaign.objects.filter(pk=scene.campaign.pk).update(
        options={**(scene.campaign.options or {}), "battle_mode": "simple"})
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.army(scene.red, 3, "0504", points=400)
    scene.army(scene.blue, 2, "0504", points=300)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    events = Event.objects.count()
    base = live_server.url
    url = base + scene.mk_url("battle_play", battle.pk)

    def script(player_context: Any) -> None:
        player = player_context.new_page()
        gm_context = player_context.browser.new_context(viewport=PHONE, device_scale_factor=2,
                                                        is_mobile=True, has_touch=True)
        gm = gm_context.new_page()
        log_in(player, base, "player")
        log_in(gm, base, "gm")

        # The player opens the battle from the play page, sets it up and types in Red's dice.
        player.goto(base + scene.play_url())
        player.get_by_role("link", name="Open the battle").tap()
        player.wait_for_url(url)
        fits(player)
        player.get_by_role("button", name="Set up the battle").tap()
        player.locator("input[name=dice]").fill("6 5")
        player.get_by_role("button", name="Enter Red's dice").tap()
        player.locator("text=Waiting for Blue's dice.").wait_for()
        assert player.url == url  # swapped in place
        fits(player)
        shot(player, "battle-01-simple-dice-phone")

        # The GM, on a phone of their own, types in Blue's dice from the table.
        gm.goto(url)
        fits(gm)
        gm.locator(".bt-side[data-side=defender] input[name=dice]").fill("4 3")
        gm.get_by_role("button", name="Enter Blue's dice").tap()
        gm.locator("#bt-turn", has_text="Red to allocate a die").wait_for()
        # Red's turn: nothing to tap on Blue's side (a GM may act for either side).
        assert gm.locator(".bt-side[data-side=defender] form.bt-allocate").count() == 0

        # 1. Red's 6 at Blue's army #1 (Defence 5): hit.
        player.reload()
        assert turn(player) == "Red to allocate a die: tap a die, then an enemy army."
        fits(player)
        shot(player, "battle-02-simple-allocate-phone")
        allocate(player, "attacker", "6", "Blue's army #1 (Defence 5)",
                 "Red's 6 at Blue's army #1 (Defence 5): hit, 400 points left")
        assert turn(player) == "Blue to allocate a die."
        assert player.locator("form.bt-allocate").count() == 0
        fits(player)

        # 2. Blue's 4 at Red's army #3 (Defence 4): hit.
        gm.reload()
        assert turn(gm) == "Blue to allocate a die: tap a die, then an enemy army."
        allocate(gm, "defender", "4", "Red's army #3 (Defence 4)",
                 "Blue's 4 at Red's army #3 (Defence 4): hit, 300 points left")
        fits(gm)
        shot(gm, "battle-03-simple-gm-phone")

        # 3. Red's 5 at Blue's army #2 (Defence 3): hit.
        player.reload()
        allocate(player, "attacker", "5", "Blue's army #2 (Defence 3)",
                 "Red's 5 at Blue's army #2 (Defence 3): hit, 200 points left")
        assert player.locator(".bt-side[data-side=attacker] .bt-red").inner_text() == "200"

        # 4. Blue's 3 at Red's army #2 (Defence 5): miss. The battle is over: Red wins.
        gm.reload()
        allocate(gm, "defender", "3", "Red's army #2 (Defence 5)",
                 "Blue's 3 at Red's army #2 (Defence 5): miss")
        gm.locator(".bt-outcome").wait_for()
        assert "Red: win (200), Blue: loss (100)" in gm.locator(".bt-outcome").inner_text()
        fits(gm)
        player.reload()
        assert "The battle is over." in turn(player)
        assert [li.inner_text() for li in player.locator(".bt-steps li").all()] == [
            "Red's 6 at Blue's army #1 (Defence 5): hit, 400 points left",
            "Blue's 4 at Red's army #3 (Defence 4): hit, 300 points left",
            "Red's 5 at Blue's army #2 (Defence 3): hit, 200 points left",
            "Blue's 3 at Red's army #2 (Defence 5): miss",
        ]
        fits(player)
        shot(player, "battle-04-simple-outcome-phone")
        gm_context.close()

    on_a_phone(script)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "win", "loss", "resolved")
    points = {(a.kingdom.name, a.number): (a.points, a.tile.label, a.on_side)
              for a in Army.objects.filter(tile__label="0504") | Army.objects.filter(
                  kingdom=scene.blue)}
    assert points == {("Red", 2): (500, "0504", False), ("Red", 3): (300, "0504", False),
                      ("Blue", 1): (400, "0604", True), ("Blue", 2): (200, "0604", True)}
    # An entry per step (set-up, each side's dice, each allocation), the last allocation and
    # the outcome together.
    assert list(Event.objects.order_by("seq").values_list("kind", flat=True)[events:]) == [
        "summer.battle_step"] * 6 + ["summer.battle_result"]


DESK = {"width": 1280, "height": 900}


def test_a_kings_of_war_battle_and_a_slaughter_on_a_phone_and_at_a_desk(
        live_server: Any, scene: Scene) -> None:
    """The GM enters a Kings of War result with its unit results in one form on a phone; the
    player reads both lists, board and defended-tile allowance; at 0303 Blue, on its side,
    gives up a token of a slaughter on its own phone. Each page also at 1280 px."""
    from battles.models import ArmyList, Unit, UnitStrengthEvent
    from tests.mk.test_quests import fixed_list

    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue, number=1).update(defending=True)
    fixed_list(scene.get_army(scene.red, 2), ("Ironguard", "regiment", 150, 2),
               ("Crossbows", "troop", 90, 1))
    fixed_list(scene.get_army(scene.blue, 1), ("Spears", "horde", 200, 3),
               ("Garrek", "hero", 100, 0))
    scene.army(scene.blue, 2, "0303", on_side=True)
    scene.at("C")
    kow = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    # Blue has nothing upright at 0303, so Red chooses again: a slaughter (MK-LAND-4).
    slaughter = summer.choose_battle(scene.red, scene.player, "0303", scene.blue.pk)
    assert slaughter.kind == "slaughter"
    base = live_server.url
    kow_url = base + scene.mk_url("battle_play", kow.pk)
    slaughter_url = base + scene.mk_url("battle_play", slaughter.pk)

    def script(context: Any) -> None:
        # One browser context per person (each keeps its own login).
        desk = context.browser.new_context(viewport=DESK)
        gm_phone = context.browser.new_context(viewport=PHONE, device_scale_factor=2,
                                               is_mobile=True, has_touch=True)
        blue_phone = context.browser.new_context(viewport=PHONE, device_scale_factor=2,
                                                 is_mobile=True, has_touch=True)
        player, gm, gm_desk = context.new_page(), gm_phone.new_page(), desk.new_page()
        blue = blue_phone.new_page()
        log_in(player, base, "player")
        log_in(gm, base, "gm")
        log_in(gm_desk, base, "gm")
        log_in(blue, base, "other")
        player.goto(kow_url)
        text = player.locator("#battle").inner_text()
        assert "Board" in text and "4'x4'" in text and "Spears" in text and "Ironguard" in text
        assert "Blue may add up to 1 blocking or difficult piece" in text
        assert player.locator("form.kow-result").count() == 0
        fits(player)
        shot(player, "battle-05-kow-player-phone")
        gm_desk.goto(kow_url)
        shot(gm_desk, "battle-06-kow-gm-desk")
        gm.goto(kow_url)
        fits(gm)
        gm.get_by_label("Win").check()
        gm.locator(".kow-unit", has_text="Ironguard").get_by_label(
            "First to damage and rout an enemy").check()
        gm.locator(".kow-unit", has_text="Spears").get_by_label("Routed").check()
        shot(gm, "battle-07-kow-gm-form-phone")
        gm.get_by_role("button", name="Enter the result").tap()
        gm.locator(".badge", has_text="Over: Red win, Blue loss").wait_for()
        assert "routed an enemy (+1)" in gm.locator("#battle").inner_text()
        fits(gm)
        shot(gm, "battle-08-kow-entered-phone")
        gm_desk.goto(kow_url)
        shot(gm_desk, "battle-09-kow-entered-desk")

        # The slaughter: Blue's player picks the token it gives up.
        blue.goto(base + scene.play_url())
        blue.locator("article.battle", has_text="0303").get_by_role(
            "link", name="Open the battle").tap()
        blue.wait_for_url(slaughter_url)
        fits(blue)
        shot(blue, "battle-10-slaughter-owner-phone")
        gm_desk.goto(slaughter_url)
        shot(gm_desk, "battle-11-slaughter-desk")
        blue.get_by_label("Blue's army #2").check()
        blue.get_by_role("button", name="Give it up").tap()
        blue.locator(".badge", has_text="Over: Red win, Blue loss").wait_for()
        fits(blue)
        for other in (desk, gm_phone, blue_phone):
            other.close()

    on_a_phone(script)
    assert sorted(UnitStrengthEvent.objects.values_list("unit__name", "delta")) == [
        ("Ironguard", 1), ("Spears", -1)]
    assert ArmyList.objects.filter(revealed_at_battle=kow).count() == 2
    assert Unit.objects.count() == 4
    gone = Army.objects.get(kingdom=scene.blue, number=2)
    assert (gone.tile, gone.data["removed"]["rule"]) == (None, "MK-LAND-4")
