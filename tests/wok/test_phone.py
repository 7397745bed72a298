"""At phone width (390 px) a player reads the standings and their ledger, taps a purchase and sees
it land through htmx: no sideways scrolling, every button at least 44 px tall. The same page at
1280 px is kept as a screenshot."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings.rules import board as wb
from tests.phone import fits_a_phone, log_in, on_a_phone, shot
from tests.wok.conftest import make_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_wok_cost_1_build_on_a_phone_and_read_the_ledger(live_server: Any) -> None:
    """WOK-COST-1, WOK-LEDGER-3, WOK-ECON-4: the construction step on a phone."""
    game = make_game("wok-phone")
    while game.loaded().state.phase != wb.CONSTRUCTION:
        services.advance(game.campaign, game.gm, dice=["red", "green", "yellow"])
    username = game.players["Red"].username
    base = live_server.url
    front = game.kingdoms["Red"].data["front"]
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, username)
        page.goto(f"{base}/c/wok-phone/play/")
        page.get_by_text("9 gold per round").wait_for()
        fits_a_phone(page)
        shot(page, "wok-01-construction-phone")
        page.get_by_role("button", name=f"Town · {front}").tap()
        page.get_by_text("Settlement in {} pays".format(front).replace("Settlement", "Town"))\
            .first.wait_for()
        seen["after"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "wok-02-built-phone")
        page.goto(f"{base}/c/wok-phone/wok/ledger/{game.kingdoms['Blue'].pk}/")
        fits_a_phone(page)
        shot(page, "wok-03-ledger-phone")
        wide = context.browser.new_context(viewport={"width": 1280, "height": 900})
        desk = wide.new_page()
        log_in(desk, base, username)
        desk.goto(f"{base}/c/wok-phone/play/")
        shot(desk, "wok-04-construction-desktop")
        desk.goto(f"{base}/c/wok-phone/map/")
        shot(desk, "wok-05-map-desktop")
        wide.close()

    on_a_phone(script)
    assert "Town in" in seen["after"]
    assert game.loaded().state.lvl(front) == wb.TOWN


def test_wok_event_5_cards_rebellion_and_culture_on_a_phone(live_server: Any) -> None:
    """WOK-EVENT-5, WOK-MAL-17, WOK-CULT-1 at 390 px: in Red's Event Die Phase the GM's play
    page offers "Carry out a card" and the Incite Revolt form; the GM books 2 stone to Red for
    a card from the phone and sees it land; the map's tile panel offers the culture picker. No
    sideways scrolling, tap targets of 44 px, no WCAG 2.1 AA finding by axe-core."""
    from tests.e2e.axe import assert_accessible

    game = make_game("wok-phone-cards")
    while game.loaded().state.phase != wb.EVENT_DIE:
        services.advance(game.campaign, game.gm, dice=["red", "green", "yellow"])
    stone = game.loaded().state.stock("Red").stone
    base = live_server.url
    front = game.kingdoms["Red"].data["front"]
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, game.gm.username)
        page.goto(f"{base}/c/wok-phone-cards/play/")
        page.get_by_text("Carry out a card (GM, WOK-EVENT-5)").tap()
        page.get_by_text("Marauder card “Incite Revolt”").tap()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "wok-06-cards-phone")
        form = page.locator("form", has=page.get_by_role("button", name="Apply to the stockpile"))
        form.get_by_label("Card").fill("Substantial Stone")
        form.get_by_label("Reason").fill("two stone from the card")
        form.get_by_label("stone").fill("2")
        form.get_by_role("button", name="Apply to the stockpile").tap()
        page.get_by_text("Substantial Stone: Red +2 stone").first.wait_for()
        seen["after"] = page.inner_text("main")
        page.goto(f"{base}/c/wok-phone-cards/map/?tile={front}")
        page.get_by_label("Culture of the settlement").wait_for()
        fits_a_phone(page)
        assert_accessible(page)
        shot(page, "wok-07-culture-phone")

    on_a_phone(script)
    assert game.loaded().state.stock("Red").stone == stone + 2
