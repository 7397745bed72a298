"""The campaign overview's Kingdoms card at 1280 px: every column in sight (issue 16)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from campaign.models import Kingdom
from tests.conftest import add_member, make_campaign, make_user
from tests.phone import on_a_phone, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_kingdoms_card_shows_its_last_column_at_1280_px(live_server: Any) -> None:
    gm = User.objects.create_user("wide-gm", password="pw-wide-gm")
    campaign = make_campaign(gm, slug="wide-overview")
    for index, name in enumerate(("The Most Serene Kingdom of Aldmark", "Blue Reach",
                                  "Greenhold under the Mountain", "Goldcrest")):
        player = make_user(f"ruler{index}")
        Kingdom.objects.create(campaign=campaign, name=name, colour="#2e7d32",
                               player=add_member(campaign, player, "player"))

    def script(context: Any) -> None:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "wide-gm")
        page.fill("#id_password", "pw-wide-gm")
        page.click("button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        page.goto(f"{live_server.url}/c/wide-overview/")
        card = page.locator("section.card", has_text="Kingdoms").first
        widths = card.evaluate("""c => {
            const wrap = c.querySelector('.table-wrap');
            const last = c.querySelector('thead th:last-child').getBoundingClientRect();
            return [wrap.scrollWidth, wrap.clientWidth, last.right,
                    wrap.getBoundingClientRect().right];
        }""")
        scroll, client, last_right, wrap_right = widths
        assert scroll <= client, widths
        assert last_right <= wrap_right + 0.5, widths
        assert card.locator("thead th:last-child").inner_text().strip() == "Armies"
        shot(page, "overview-kingdoms-1280")

    on_a_phone(script)
