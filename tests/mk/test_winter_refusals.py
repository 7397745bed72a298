"""Illegal winter actions through the views: a 4xx with the reason, and nothing changed
(MK-SETTLE-1, MK-BUY-1/3, MK-RECRUIT-7, MK-FEED-1, MK-DEPLOY-4, MK-TITHE-1/3)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Event
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.rules.ledger import Purchase as Buy
from tests.mk.test_winter_world import (  # noqa: F401 (fixtures)
    World,
    add_armies,
    dump,
    fixed_dice,
    grant,
    plain_summer,
    to_phase,
    tv3,
)

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()).replace(
        "&#x27;", "'")


def post(w: World, who: str, name: str, data: dict[str, Any], htmx: bool = False) -> Any:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    if who == "gm" and "kingdom" not in data:
        raise AssertionError("A GM names the kingdom.")
    return w.client(who).post(reverse(f"mk:{name}", args=[w.campaign.slug]), data, **headers)


def refused(w: World, who: str, name: str, data: dict[str, Any], message: str,
            status: int = 409, htmx: bool = False) -> str:
    before, events = dump(), Event.objects.count()
    response = post(w, who, name, data, htmx=htmx)
    assert response.status_code == status, text(response)
    body = text(response)
    assert message in body, body
    assert dump() == before
    assert Event.objects.count() == events
    return body


def test_mk_settle_1_building_on_an_enemy_tile_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.BUY)
    body = refused(tv3, "Red", "winter_buy",
                   {"kind": "settle", "tile": tv3.t("BV1"), "to": "city"},
                   f"You do not control {tv3.t('BV1')}: settlements go only in your own tiles "
                   "(MK-SETTLE-1).")
    assert "Nothing was changed." in body


def test_mk_buy_3_spending_what_you_do_not_have_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.BUY)
    red, blue, green = (tv3.kingdoms[n] for n in ("Red", "Blue", "Green"))
    ws.pass_turn(red, tv3.gm, "buy")
    ws.buy(blue, tv3.gm, Buy("settle", tv3.t("BV1"), "fortress"))
    ws.pass_turn(green, tv3.gm, "buy")
    ws.pass_turn(red, tv3.gm, "buy")
    assert tv3.stock("Blue") == (0, 2)
    refused(tv3, "Blue", "winter_buy", {"kind": "settle", "tile": tv3.t("BV2"), "to": "city"},
            "This costs 1 gold and 1 food; you have 2 food (MK-BUY-3).", htmx=True)


def test_mk_recruit_7_a_seventh_army_is_refused_and_disbanding_makes_room(tv3: World) -> None:
    add_armies(tv3, "Red", 4, 5, 6)
    to_phase(tv3, ws.BUY)
    refused(tv3, "Red", "winter_buy", {"kind": "recruit", "tile": tv3.t("F1")},
            "You already have 6 armies, the most allowed: disband one to make room "
            "(MK-RECRUIT-7, MK-RECRUIT-8).")
    response = post(tv3, "Red", "winter_buy",
                    {"kind": "recruit", "tile": tv3.t("F1"), "disband": "1"})
    assert response.status_code == 302
    assert tv3.army_numbers("Red") == [2, 3, 4, 5, 6, 7]
    event = Event.objects.order_by("-seq").first()
    assert event.summary == (f"Red recruits army #7 at {tv3.t('F1')}, disbanding army #1 to "
                             "make room (MK-RECRUIT-8) for 1 gold.")


def test_mk_feed_1_feeding_twice_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.FEED)
    response = post(tv3, "Red", "winter_feed", {"fed": ["1", "2"]})
    assert response.status_code == 302
    assert tv3.stock("Red") == (4, 1)
    refused(tv3, "Red", "winter_feed", {"fed": ["3"]},
            "Red has already fed its armies this winter: once per winter (MK-FEED-1).")


def test_mk_feed_1_feeding_more_armies_than_food_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.FEED)
    grant(tv3, "Green", food=0, gold=1)
    add_armies(tv3, "Green", 2, tile="G0")
    refused(tv3, "Green", "winter_feed", {"fed": ["1", "2"]},
            "You have 1 food: you can feed at most 1 army (MK-FEED-1).")


def test_mk_deploy_4_deploying_past_a_limit_is_refused(tv3: World, fixed_dice: Any) -> None:
    fixed_dice(5, 2)  # Blue and Green tie on one army: Blue goes first.
    to_phase(tv3, ws.DEPLOY)
    # Red (3 armies) deploys first: #1 on the village V1, then #2 on V1 again is one too many.
    assert post(tv3, "Red", "winter_deploy", {"army": "1", "tile": tv3.t("V1")}).status_code == 302
    for name in ("Blue", "Green"):
        state = tv3.state()
        pk = tv3.kingdoms[name].pk
        capital = state.kingdoms[pk].capital_tile
        ws.deploy_army(tv3.k(name), tv3.gm, 1, capital)
    refused(tv3, "Red", "winter_deploy", {"army": "2", "tile": tv3.t("V1")},
            f"A village takes at most 1 army at deployment: 2 planned at {tv3.t('V1')} "
            "(MK-DEPLOY-4).")
    refused(tv3, "Red", "winter_deploy", {"army": "2", "tile": tv3.t("E2")},
            f"{tv3.t('E2')} has no settlement: armies deploy on settlements (MK-DEPLOY-4).")
    refused(tv3, "Red", "winter_deploy", {"army": "2", "tile": tv3.t("B0")},
            f"{tv3.t('B0')} is not yours: deploy on your own settlements (MK-DEPLOY-4).")


@pytest.mark.parametrize(
    ("phase", "name", "data", "message"),
    [
        (ws.TITHE, "winter_buy", {"kind": "settle", "tile": "E1", "to": "village"},
         "purchases are made in winter C) 2. Build and recruit"),
        (ws.BUY, "winter_tithe", {"receiver": "Green", "gold": "1"},
         "tithes are given in winter C) 1. Tithe"),
        (ws.BUY, "winter_feed", {"fed": ["1"]}, "armies are fed in winter C) 3. Feed armies"),
        (ws.GATHER, "winter_recall", {"tile": "C0"}, "armies are recalled in winter A) Recall"),
        (ws.FEED, "winter_deploy", {"army": "1", "tile": "C0"},
         "armies are deployed in winter D) Deploy armies"),
        (ws.BUY, "winter_pass", {"sub": "tithe"}, "this pass was meant for Tithe"),
    ],
)
def test_mk_winter_1_acting_out_of_phase_is_refused(
    tv3: World, phase: tuple[str, str, str], name: str, data: dict[str, Any], message: str
) -> None:
    to_phase(tv3, phase)
    data = {k: (tv3.t(v) if k == "tile" else v) for k, v in data.items()}
    if data.get("receiver") == "Green":
        data["receiver"] = str(tv3.kingdoms["Green"].pk)
    body = refused(tv3, "Red", name, data, message)
    assert "Not now: the campaign is at Year 1, winter" in body


def test_mk_buy_1_acting_out_of_turn_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.BUY)
    refused(tv3, "Blue", "winter_buy", {"kind": "settle", "tile": tv3.t("BV1"), "to": "city"},
            "It is Red's turn (MK-BUY-1).")
    refused(tv3, "Blue", "winter_pass", {"sub": "buy"}, "It is Red's turn (MK-BUY-1).")
    # A GM acting for Blue is held to the same turn.
    refused(tv3, "gm", "winter_buy", {"kingdom": tv3.kingdoms["Blue"].pk, "kind": "settle",
                                      "tile": tv3.t("BV1"), "to": "city"},
            "It is Red's turn (MK-BUY-1).")


def test_mk_tithe_1_a_tithe_of_2_gold_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.TITHE)
    refused(tv3, "Red", "winter_tithe",
            {"receiver": tv3.kingdoms["Green"].pk, "gold": "2", "food": "0"},
            "A tithe is at most 1 gold and at most 1 food (MK-TITHE-1).")
    refused(tv3, "Red", "winter_tithe", {"receiver": tv3.kingdoms["Green"].pk},
            "A tithe of nothing is a pass: give 1 gold, 1 food or both (MK-AMB-32).")
    refused(tv3, "Red", "winter_tithe", {"receiver": tv3.kingdoms["Red"].pk, "gold": "1"},
            "A tithe goes to another player (MK-TITHE-1).")


def test_mk_tithe_3_a_second_tithe_to_the_same_player_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.TITHE)
    green = tv3.kingdoms["Green"]
    ok = post(tv3, "Red", "winter_tithe", {"receiver": green.pk, "gold": "1"})
    assert ok.status_code == 302
    ws.pass_turn(tv3.kingdoms["Blue"], tv3.gm, "tithe")
    ws.pass_turn(green, tv3.gm, "tithe")
    refused(tv3, "Red", "winter_tithe", {"receiver": green.pk, "food": "1"},
            "You already tithed to Green this winter: once per player (MK-TITHE-3).")
    assert tv3.stock("Red") == (3, 3)
    assert tv3.stock("Green") == (3, 1)


def test_mk_tithe_6_a_gift_beyond_the_stock_is_refused(tv3: World) -> None:
    to_phase(tv3, ws.TITHE)
    red, blue, green = (tv3.kingdoms[n] for n in ("Red", "Blue", "Green"))
    ws.pass_turn(red, tv3.gm, "tithe")
    ws.pass_turn(blue, tv3.gm, "tithe")
    ws.give_tithe(green, tv3.gm, red.pk, 0, 1)
    ws.pass_turn(red, tv3.gm, "tithe")
    ws.pass_turn(blue, tv3.gm, "tithe")
    assert tv3.stock("Green") == (2, 0)
    refused(tv3, "Green", "winter_tithe", {"receiver": blue.pk, "food": "1"},
            "You have 2 gold and 0 food, and this tithe is 1 food: you can only give what "
            "you have now (MK-TITHE-6).")


def test_mk_winter_bad_input_is_400_and_roles_are_checked(tv3: World, login: Any,
                                                         observer: Any, outsider: Any) -> None:
    to_phase(tv3, ws.TITHE)
    refused(tv3, "Red", "winter_tithe", {"receiver": "Green", "gold": "1"},
            "must be a whole number", status=400)
    refused(tv3, "Red", "winter_buy", {"kind": "castle", "tile": tv3.t("E1")},
            "Say what to buy and where.", status=400)
    url = reverse("mk:winter_pass", args=[tv3.campaign.slug])
    from campaign.models import Role
    from tests.conftest import add_member

    add_member(tv3.campaign, observer, Role.OBSERVER)
    before = dump()
    assert login(observer).post(url, {"sub": "tithe"}).status_code == 403
    assert login(outsider).post(url, {"sub": "tithe"}).status_code == 404
    assert login(None).post(url, {"sub": "tithe"}).status_code == 302
    assert tv3.client("Red").get(url).status_code == 405
    assert dump() == before


def test_mk_winter_a_player_cannot_act_for_another_kingdom(tv3: World) -> None:
    """A player's form naming another kingdom still acts for their own (acting_kingdom)."""
    to_phase(tv3, ws.TITHE)
    refused(tv3, "Blue", "winter_pass", {"kingdom": tv3.kingdoms["Red"].pk, "sub": "tithe"},
            "It is Red's turn (MK-TITHE-1).")
