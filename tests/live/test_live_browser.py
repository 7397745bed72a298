"""In a real browser under the Content-Security-Policy: a player's page follows the game
without a reload, keeps what the player is typing, shows nothing of another kingdom's secrets,
and nothing on the page is refused by the policy."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Kingdom, Role, Visibility
from tests.conftest import add_member, make_campaign, make_user
from tests.phone import log_in, on_a_phone, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _record(campaign: Any, user: Any, summary: str, **kwargs: Any) -> None:
    with transaction.atomic():
        with Recorder(campaign, user, "test.live", summary, **kwargs):
            pass


def test_the_chronicle_follows_the_game_and_keeps_the_typing(live_server: Any,
                                                            monkeypatch: Any) -> None:
    # The script writes events from the browser's thread, where Playwright runs its event loop;
    # those writes are plain synchronous code, so Django's async guard is lifted for them.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    gm = make_user("gm")
    campaign = make_campaign(gm, slug="live-test", name="Live Test", width=6, height=5, seed=3)
    player = make_user("pip")
    Kingdom.objects.create(campaign=campaign, name="Red", colour="#aa0000",
                           player=add_member(campaign, player, Role.PLAYER))
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", colour="#0000aa",
                                  player=add_member(campaign, make_user("bo"), Role.PLAYER))

    # The browser runs on a thread of its own (tests.phone.on_a_phone), away from any event
    # loop a test before this one left in the test's thread.
    def script(context: Any) -> None:
        page = context.new_page()
        refused: list[str] = []
        page.on("console", lambda m: refused.append(m.text)
                if "Content Security Policy" in m.text else None)
        log_in(page, live_server.url, "pip")

        # Swatches take their colour from data-c under the policy.
        page.goto(f"{live_server.url}/c/live-test/")
        colour = page.evaluate("""() => getComputedStyle(
            document.querySelector('.swatch[data-c="#aa0000"]')).getPropertyValue('--c')""")
        assert colour.strip() == "#aa0000"

        page.goto(f"{live_server.url}/c/live-test/chronicle/")
        page.evaluate("""() => {
            window.__samePage = true;
            window.__polls = [];
            document.addEventListener("htmx:afterRequest", (e) => {
                if (e.detail.elt.id === "live") window.__polls.push(e.detail.xhr.status);
            });
        }""")
        year = page.locator("input[name=year]")
        year.click()
        year.type("12")
        # Another kingdom's secret is not news for Red: the page stays as it is.
        _record(campaign, gm, "Blue buries its treasure under the oak.",
                visibility=Visibility.KINGDOM, kingdom=blue)
        for _ in range(60):  # (wait_for_function would evaluate a string: the policy refuses it)
            if len(page.evaluate("window.__polls")) >= 2:
                break
            page.wait_for_timeout(250)
        assert set(page.evaluate("window.__polls")) == {200, 304}
        _record(campaign, gm, "The harvest comes in early this year.")
        page.get_by_text("The harvest comes in early this year.").wait_for(timeout=15000)
        assert page.evaluate("window.__samePage") is True  # no reload
        assert year.input_value() == "12"
        assert page.evaluate("document.activeElement.name") == "year"
        assert page.get_by_text("Blue buries its treasure").count() == 0
        shot(page, "live-chronicle-phone")
        assert refused == []

    on_a_phone(script)
