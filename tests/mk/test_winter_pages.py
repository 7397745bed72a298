"""The winter on the play page and "My kingdom": who sees what, the htmx fragment after an
action, and a constant number of SQL queries as the campaign grows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army
from campaign.models import Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from tests.conftest import add_member, make_user
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    build_tv3,
    fixed_dice,
    plain_summer,
    to_phase,
    tv3,
)

pytestmark = pytest.mark.django_db

PHASES = [ws.RECALL, ws.GATHER, ws.TITHE, ws.BUY, ws.FEED, ws.DEPLOY]


def text(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()).replace(
        "&#x27;", "'")


def play(w: World, who: str, **headers: Any) -> Any:
    return w.client(who).get(reverse("campaign:play", args=[w.campaign.slug]), **headers)


def kingdom_page(w: World, who: str, name: str = "Red") -> Any:
    return w.client(who).get(reverse("campaign:kingdom",
                                     args=[w.campaign.slug, w.kingdoms[name].pk]))


def test_mk_winter_play_page_in_every_phase(tv3: World, fixed_dice: Any) -> None:
    fixed_dice(5, 1)
    seen = {}
    for key in PHASES:
        to_phase(tv3, key)
        for who in ("Red", "Blue", "gm"):
            response = play(tv3, who)
            assert response.status_code == 200
            seen[(key, who)] = text(response)
    red_recall = seen[(ws.RECALL, "Red")]
    assert "Recall (MK-RECALL)" in red_recall and "Confirm Red's recall" in red_recall
    assert "Confirm Red's recall" not in seen[(ws.RECALL, "Blue")]
    assert "Confirm Red's recall" in seen[(ws.RECALL, "gm")]
    assert "Red: 4 gold and 3 food" in seen[(ws.GATHER, "Red")]
    assert "Red: 4 gold and 3 food" not in seen[(ws.GATHER, "Blue")]  # private
    assert "Blue: 2 gold and 2 food" in seen[(ws.GATHER, "gm")]
    assert "Red gives to" in seen[(ws.TITHE, "Red")]
    assert "Red gives to" not in seen[(ws.TITHE, "Blue")]
    assert "Your turn." in seen[(ws.TITHE, "Red")]
    assert "Pass for Red" in seen[(ws.TITHE, "gm")]
    buy = seen[(ws.BUY, "Red")]
    assert f"Village at {tv3.t('E1')} · 1 gold" in buy and "Army at" in buy
    assert "Red has 4 gold and 3 food · 3 of 6 armies." in buy
    assert "Feed the ticked armies" in seen[(ws.FEED, "Red")]
    assert seen[(ws.FEED, "gm")].count("Feed the ticked armies") == 3
    assert "Red's army" in seen[(ws.DEPLOY, "Red")] and "Deploy this army" in seen[
        (ws.DEPLOY, "Red")]
    assert "Tie-break rolls (MK-DEPLOY-2): Blue 5; Green 1." in seen[(ws.DEPLOY, "Blue")]


def test_mk_winter_observer_sees_the_public_side_only(tv3: World) -> None:
    from django.test import Client

    watcher = make_user("watcher")
    add_member(tv3.campaign, watcher, Role.OBSERVER)
    client = Client()
    client.force_login(watcher)
    to_phase(tv3, ws.TITHE)
    ws.give_tithe(tv3.kingdoms["Red"], tv3.gm, tv3.kingdoms["Green"].pk, 1, 0)
    body = text(client.get(reverse("campaign:play", args=[tv3.campaign.slug])))
    assert "Red → Green: 1 gold" in body
    assert "treasury" not in body.lower() and "gives to" not in body
    fragment = client.get(reverse("campaign:play", args=[tv3.campaign.slug]),
                          HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
    page = client.get(reverse("campaign:kingdom", args=[tv3.campaign.slug,
                                                        tv3.kingdoms["Red"].pk]))
    assert "Treasury" not in text(page)


def test_mk_winter_htmx_action_returns_the_phase_fragment(tv3: World) -> None:
    to_phase(tv3, ws.BUY)
    response = tv3.client("Red").post(
        reverse("mk:winter_buy", args=[tv3.campaign.slug]),
        {"kind": "settle", "tile": tv3.t("E1"), "to": "village"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Trigger"] == "campaign-changed"
    body = text(response)
    assert "<html" not in response.content.decode()
    assert f"Red: empty → village at {tv3.t('E1')} (1 gold)" in body
    assert "Blue to act." in body


def test_mk_winter_plain_post_redirects_with_the_summary(tv3: World) -> None:
    to_phase(tv3, ws.TITHE)
    response = tv3.client("Red").post(
        reverse("mk:winter_tithe", args=[tv3.campaign.slug]),
        {"receiver": tv3.kingdoms["Green"].pk, "gold": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("campaign:play", args=[tv3.campaign.slug])
    assert "Red tithes 1 gold to Green (MK-TITHE-1)." in text(response)


def test_my_kingdom_shows_treasury_forecast_affordability_and_ledger(tv3: World) -> None:
    to_phase(tv3, ws.BUY)
    body = text(kingdom_page(tv3, "Red"))
    assert "Treasury 4 gold · 3 food" in body
    assert "Next winter's income: 4 gold and 3 food" in body
    assert f"+1 gold · own capital at {tv3.t('C0')} (MK-WINTER-2)" in body
    assert f"+1 food · village at {tv3.t('V1')} (MK-WINTER-2)" in body
    assert "What can I afford now?" in body
    assert f"Fortress at {tv3.t('V1')} · 2 gold · affordable (MK-SETTLE-3)" in body
    assert f"Ship at {tv3.t('C1')} · 1 gold · affordable (MK-SHIPYARD-1)" in body
    assert f"Ship at {tv3.t('C0')}" not in body  # S1 is docked there (MK-SHIPYARD-2)
    assert "Village → City · 1 gold and 1 food (MK-SETTLE-3)" in body
    assert f"{tv3.t('C0')} · Capital City · gives 2 gold · deploys up to 3 · ship docked" in body
    html = kingdom_page(tv3, "Red").content.decode()
    slug, pk = tv3.campaign.slug, tv3.kingdoms["Red"].pk
    assert f'href="/c/{slug}/ledger/{pk}/"' in html
    assert f'href="/c/{slug}/ledger/{pk}/csv/"' in html
    # Only Red's player and the GM see Red's treasury.
    assert "Treasury" in text(kingdom_page(tv3, "gm"))
    other = text(kingdom_page(tv3, "Blue"))
    assert "Treasury" not in other and "What can I afford" not in other


def test_my_kingdom_in_summer_forecasts_next_winter(tv3: World) -> None:
    body = text(kingdom_page(tv3, "Red"))
    assert "Next winter's income: 4 gold and 3 food" in body
    assert "What can I afford next winter?" in body
    assert "With 4 gold and 3 food, counting the income above." in body
    assert "3 armies eat 3 food at Feed armies (MK-WINTER-3)." in body


def test_my_kingdom_before_gather_says_when_it_is_booked(tv3: World) -> None:
    to_phase(tv3, ws.GATHER)
    body = text(kingdom_page(tv3, "Red"))
    assert "This winter's income: 4 gold and 3 food" in body
    assert "Booked in your ledger when B) Gather resources closes (MK-WINTER-2)." in body
    assert "What can I afford after Gather?" in body


def grow(w: World) -> None:
    """More of everything a page might loop over: tiles, settlements, armies, ships, kingdoms,
    ledger entries, purchases."""
    red = w.kingdoms["Red"]
    spare = list(Tile.objects.filter(map__campaign=w.campaign, controller__isnull=True)
                 .exclude(label__in=[w.t("SEA"), w.t("X1")]).order_by("label")[:12])
    for tile in spare[:8]:
        tile.controller, tile.settlement, tile.terrain = red, "village", "plain"
        tile.save()
    gold = Kingdom.objects.create(campaign=w.campaign, name="Gold", colour="#aaaa00",
                                  player=add_member(w.campaign, make_user("gold"), Role.PLAYER),
                                  order_position=4, start_tile=spare[8], capital_tile=spare[8])
    for tile, kind in ((spare[8], "city"), (spare[9], "village")):
        tile.controller, tile.settlement, tile.terrain = gold, kind, "plain"
        tile.save()
    Army.objects.create(campaign=w.campaign, kingdom=gold, number=1, tile=spare[8])
    for number in (4, 5, 6):
        Army.objects.create(campaign=w.campaign, kingdom=red, number=number, tile=spare[0])
    sea = Tile.objects.get(map__campaign=w.campaign, label=w.t("SEA"))
    Ship.objects.create(campaign=w.campaign, kingdom=w.kingdoms["Blue"], number=1, tile=sea)


def queries(w: World, phase: tuple[str, str, str]) -> dict[str, int]:
    to_phase(w, phase)
    if phase == ws.BUY:
        ws.buy(w.kingdoms["Red"], w.gm, Buy("settle", w.t("E1"), "village"))
    counts = {}
    for who in ("Red", "gm"):
        for page, fetch in (("play", lambda: play(w, who)),
                            ("kingdom", lambda: kingdom_page(w, who))):
            fetch()  # warm the session and caches
            with CaptureQueriesContext(connection) as ctx:
                assert fetch().status_code == 200
            counts[f"{page}-{who}"] = len(ctx.captured_queries)
    return counts


@pytest.mark.parametrize("phase", PHASES)
def test_mk_winter_pages_use_a_constant_number_of_queries(gm: Any, plain_summer: None,
                                                          fixed_dice: Any,
                                                          phase: tuple[str, str, str]) -> None:
    fixed_dice(*[4, 2, 6, 1, 3, 5] * 4)
    small = build_tv3(gm, slug="small")
    big = build_tv3(gm, slug="big")
    grow(big)
    assert queries(small, phase) == queries(big, phase)
