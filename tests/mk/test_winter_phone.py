"""At phone width (390 px), a player spends their winter gold with one thumb and reads "My
kingdom" and the ledger: no sideways scrolling, every button at least 44 px tall, the purchase
lands through htmx without leaving the page.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Purchase
from tests.mk.test_winter_world import build_tv3, plain_summer, to_phase  # noqa: F401
from tests.phone import fits_a_phone, on_a_phone, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_mk_buy_on_a_phone_and_read_my_kingdom(live_server: Any, gm: Any,
                                               plain_summer: None) -> None:
    w = build_tv3(gm, slug="phone-winter")
    to_phase(w, ws.BUY)
    username = w.users["Red"].username
    base = live_server.url
    village = f"Village at {w.t('E1')} · 1 gold"
    bought = f"Red: empty → village at {w.t('E1')}"
    fortress = f"Fortress at {w.t('V1')} · 2 gold"
    seen: dict[str, str] = {}

    def script(context: Any) -> None:
        page = context.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", f"pw-{username}")
        page.click("button[type=submit]")
        page.wait_for_url(f"{base}/")
        page.goto(f"{base}/c/phone-winter/play/")
        page.get_by_text("2. Build and recruit (MK-BUY)").wait_for()
        fits_a_phone(page)
        shot(page, "winter-01-buy-phone")

        stale = context.new_page()  # the same player, on a second tab opened before buying
        stale.goto(f"{base}/c/phone-winter/play/")
        page.get_by_role("button", name=village).tap()
        page.get_by_text(bought).wait_for()
        # Tapping on the out-of-date tab is refused, and the reason shows under that button.
        stale.get_by_role("button", name=fortress).tap()
        stale.get_by_text("It is Blue's turn (MK-BUY-1).").wait_for()
        seen["stale tab"] = stale.url
        fits_a_phone(stale)
        shot(stale, "winter-02b-refused-phone")
        seen["url after buying"] = page.url
        seen["turn"] = page.locator(".turn").inner_text()
        fits_a_phone(page)
        shot(page, "winter-02-bought-phone")

        page.click("nav.tabs >> text=My kingdom")
        page.get_by_text("What can I afford now?").wait_for()
        seen["kingdom"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "winter-03-my-kingdom-phone")

        page.click("text=Ledger >> nth=0")
        page.get_by_text("Ledger of Red").wait_for()
        seen["ledger"] = page.inner_text("main")
        fits_a_phone(page)
        shot(page, "winter-04-ledger-phone")

    on_a_phone(script)
    assert seen["url after buying"].endswith("/c/phone-winter/play/")
    assert seen["turn"] == "Blue to act."
    assert "3 gold · 3 food" in seen["kingdom"] and "Treasury" in seen["kingdom"]
    assert "MK-SETTLE-3" in seen["ledger"]
    assert seen["stale tab"].endswith("/c/phone-winter/play/")
    assert Purchase.objects.filter(kingdom=w.kingdoms["Red"]).count() == 1
