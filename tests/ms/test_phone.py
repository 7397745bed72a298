"""In a real browser at phone width: the player to act opens the play page of a Middle Sea
game, sees the table and the standings without sideways scrolling, ends their control turn and
explores a city with a thumb; the page swaps in place (htmx). The GM's view at desktop width is
photographed too."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Kingdom, Role
from campaign.systems.middle_sea import services as ms
from campaign.systems.middle_sea.game import Acting, read_game
from tests.conftest import add_member, make_campaign_of, make_user
from tests.phone import fits_a_phone, log_in, on_a_phone, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_ms_round_2_player_builds_on_a_phone(live_server: Any) -> None:
    """MS-ROUND-2, MS-BUILD-2: the player in 1st ends the control turn, then (after the others)
    explores a city onto their continent from the build form."""
    gm = make_user("gm")
    campaign = make_campaign_of("middle-sea", gm, slug="phone-sea", name="Phone Sea")
    kingdoms = {}
    for name, colour in (("Red", "#aa2222"), ("Blue", "#2244aa"), ("Gold", "#aa8811")):
        user = make_user(name.lower())
        kingdoms[name] = Kingdom.objects.create(
            campaign=campaign, name=name, colour=colour,
            player=add_member(campaign, user, Role.PLAYER))
    ms.setup_game(campaign, Acting(gm, True, None),
                  [(kingdoms["Red"].pk, "suns"), (kingdoms["Blue"].pk, "moons"),
                   (kingdoms["Gold"].pk, "crowns")],
                  {kingdoms["Red"].pk: [5], kingdoms["Blue"].pk: [2],
                   kingdoms["Gold"].pk: [1]})
    base = live_server.url

    def control(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "red")
        page.goto(f"{base}/c/phone-sea/play/")
        page.get_by_text("Your turn.").wait_for()
        fits_a_phone(page)
        shot(page, "ms-01-control-phone")
        page.get_by_role("button", name="End my control turn").tap()
        page.locator("p.turn", has_text="Blue to act").wait_for()

    on_a_phone(control)
    for _ in ("Blue", "Gold"):
        ms.end_turn(campaign, Acting(gm, True, None))

    def build(context: Any) -> None:
        page = context.new_page()
        log_in(page, base, "red")
        page.goto(f"{base}/c/phone-sea/play/")
        page.get_by_role("heading", name="Build (MS-BUILD)").wait_for()
        fits_a_phone(page)
        shot(page, "ms-02-build-phone")
        page.select_option("select[name=suit]", "moons")
        page.select_option("select[name=place]", "N-FM")
        page.get_by_role("button", name="Explore").tap()
        page.locator('svg.msboard g[data-space="N-FM"] text', has_text="temple").wait_for()
        shot(page, "ms-03-explored-phone")

    on_a_phone(build)
    state = read_game(campaign).state  # type: ignore[union-attr]
    assert [(s.space, s.city.label) for s in state.sites] == [("N-FM", "1-temple")]
    assert (state.players[0].goods, state.players[0].gold) == (4, 4)

    def desktop(context: Any) -> None:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 900})
        log_in(page, base, "gm")
        page.goto(f"{base}/c/phone-sea/play/")
        page.get_by_role("heading", name="Game master").wait_for()
        shot(page, "ms-04-gm-desktop")
        page.goto(f"{base}/c/phone-sea/map/")
        shot(page, "ms-05-map-desktop")

    on_a_phone(desktop)
