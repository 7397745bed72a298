"""The table page on a phone: a kingdom with a Site, a Barracks standing with an upgrade, a
Farm foundation, a fire and a die timer reads at 390 px without sideways scrolling, every button
at least 44 px tall, and passes the accessibility check; a foundation laid through the form
lands through htmx. The GM's cost types page fits a phone too. The page at 1280 px is kept as a
screenshot."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.systems.swords_and_stones import buildings, costs, sites, table
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Game, Participant
from tests.e2e.axe import assert_accessible
from tests.phone import fits_a_phone, log_in, on_a_phone, shot
from tests.sns.conftest import Avalon, at

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _kingdom_at_the_table(avalon: Avalon) -> Game:
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    sns.set_up(avalon.campaign, avalon.gm, game, avalon.red, faction="avalonian",
               supply=[("0202", "WOOD"), ("0302", "FOOD")])
    sns.begin_game(avalon.campaign, avalon.gm, game)
    game = Game.objects.get(pk=game.pk)
    args = (avalon.campaign, avalon.gm, game, avalon.red)
    costs.set_cost_types(avalon.campaign, avalon.gm, "SNS-BLD-BARRACKS", ["wood", "stone"])
    for resource, amount in (("wood", 8), ("stone", 6), ("food", 3)):
        table.book_line(*args, resource, amount, "SNS-ECON-3", "start of the test")
    sites.record_site(*args, "Outcrop 1", "outcrop", 3, secondary="gold", threshold=3)
    sites.harvest_site(*args, 1, [2, 3, 6])
    table.next_phase(*args)
    table.compulsory(*args)
    table.next_phase(*args)
    buildings.lay_foundation(*args, "BARRACKS")
    buildings.lay_foundation(*args, "FARM")
    buildings.start_timer(*args, "Plague")
    buildings.damage(*args, 1, fire_die=2)
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    works = part.table["works"]
    works[1].update(bp=0, staffed=True)
    Participant.objects.filter(pk=part.pk).update(table={
        **part.table, "works": works,
        "upgrades": [{"code": "HUNTINGCABINS", "work": 1, "turn": 1}]})
    return game


def test_the_table_page_on_a_phone(live_server: Any, avalon: Avalon) -> None:
    """SNS-ECON-53, SNS-ECON-56, SNS-STATE-3, SNS-CBT-8, SNS-ECON-21 on the page."""
    game = _kingdom_at_the_table(avalon)
    base = live_server.url
    url = f"{base}/c/{avalon.campaign.slug}/sns/game/{game.number}/table/{avalon.red.pk}/"
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "player")
        page.goto(url)
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "sns-table-phone")
        page.get_by_text("Lay a foundation from the catalogue").tap()
        page.select_option("select[name=building]", "MILL")
        page.fill("form[hx-post$='/found/'] input[name=types]", "wood, stone")
        page.locator("form[hx-post$='/found/'] button").tap()
        page.get_by_text("the foundation of a Mill (3 BP)").wait_for()
        seen["after"] = page.inner_text("#table")
        fits_a_phone(page)
        gm = context.browser.new_context(viewport={"width": 390, "height": 844})
        gm_page = gm.new_page()
        log_in(gm_page, base, "gm")
        gm_page.goto(f"{base}/c/{avalon.campaign.slug}/sns/costs/")
        fits_a_phone(gm_page)
        assert_accessible(gm_page)
        shot(gm_page, "sns-costs-phone")
        gm.close()
        wide = context.browser.new_context(viewport={"width": 1280, "height": 900})
        desk = wide.new_page()
        log_in(desk, base, "player")
        desk.goto(url)
        shot(desk, "sns-table-desktop")
        wide.close()

    on_a_phone(script)
    assert "Upgrades: Hunting Cabins" in seen["after"]
    assert "Mill · foundation: 3 of 3 BP left" in seen["after"]
