"""At phone width (390 px) a player reads the standings, opens the points and taps a spend that
lands through htmx; the GM's play page and the report form fit too. No sideways scrolling,
every button at least 44 px tall; the pages at 1280 px are kept as screenshots."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Spend
from tests.phone import fits_a_phone, log_in, on_a_phone, shot
from tests.sns.conftest import Avalon, at

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sns_vp_empire_bought_on_a_phone(live_server: Any, avalon: Avalon) -> None:
    """SNS-PTS-3, SNS-VP-EMPIRE, SNS-GC-5, SNS-ECON-11: Red's player spends the point won in
    game 1 and, in game 2, moves its Stockpile on to the compulsory phase."""
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    base = live_server.url
    stockpile = f"{base}/c/{avalon.campaign.slug}/sns/game/2/table/{avalon.red.pk}/"
    play = f"{base}/c/{avalon.campaign.slug}/play/"
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "player")
        page.goto(play)
        page.get_by_text("Red: 1 VP · 0 Ven").wait_for()
        fits_a_phone(page)
        shot(page, "sns-01-play-phone")
        page.get_by_text("Spend points (SNS-PTS-3)").tap()
        page.locator("form:has(input[value=EMPIRE]) button").tap()
        page.get_by_text("Red: 0 VP · 0 Ven").wait_for()
        seen["after"] = page.inner_text("main")
        fits_a_phone(page)
        page.goto(f"{base}/c/{avalon.campaign.slug}/sns/game/1/report/{avalon.red.pk}/")
        fits_a_phone(page)
        shot(page, "sns-02-report-phone")
        gm = context.browser.new_context(viewport={"width": 390, "height": 844})
        gm_page = gm.new_page()
        log_in(gm_page, base, "gm")
        gm_page.goto(play)
        fits_a_phone(gm_page)
        gm.close()

        wide = context.browser.new_context(viewport={"width": 1280, "height": 900})
        desk = wide.new_page()
        log_in(desk, base, "player")
        desk.goto(play)
        shot(desk, "sns-03-play-desktop")
        desk.goto(f"{base}/c/{avalon.campaign.slug}/map/")
        shot(desk, "sns-04-map-desktop")
        wide.close()

    on_a_phone(script)
    assert "Empires Advantage" in seen["after"]
    assert Spend.objects.get().code == "EMPIRE"
    second = sns.challenge(avalon.campaign, avalon.gm, avalon.blue, at(3, 3), avalon.red)
    sns.begin_game(avalon.campaign, avalon.gm, second)
    assert Spend.objects.get().game == second

    def at_the_table(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "player")
        page.goto(stockpile)
        page.get_by_role("heading", name="Red: game 2, turn 1, harvest").wait_for()
        fits_a_phone(page)
        page.get_by_role("button", name="Next phase").tap()
        page.get_by_role("heading", name="Red: game 2, turn 1, compulsory").wait_for()
        fits_a_phone(page)
        shot(page, "sns-05-stockpile-phone")

    on_a_phone(at_the_table)
