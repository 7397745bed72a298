"""Player-order tie-breaks with dice typed in from the table (DESIGN principle 5; spec section
12): at the close of Reform (MK-PORDER-1) and when Deploy opens (MK-DEPLOY-2). The GM's "Close
this phase" form asks for the dice only when kingdoms will be level; empty fields let the server
roll; bad dice are refused with the reason, a 409, and nothing changes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.chronicle import undo_latest
from campaign.models import Campaign, Kingdom
from campaign.systems.mighty_kingdoms import winter_services as ws
from tests.mk.test_summer_scene import Scene, campaign, fixed_dice, scene  # noqa: F401
from tests.mk.test_winter_world import (  # noqa: F401
    World,
    build_tv3,
    dump,
    plain_summer,
    settle,
    to_phase,
)
from tests.mk.test_winter_world import fixed_dice as winter_dice  # noqa: F401

pytestmark = pytest.mark.django_db


def gm_client(user: Any) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def close_phase(client: Client, slug: str, dice: dict[int, str]) -> Any:
    """Post the play page's "Close this phase" form with the given tie-break fields."""
    page = client.get(reverse("campaign:play", args=[slug])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    clock = re.search(r'name="clock" value="([^"]+)"', page).group(1)
    data = {"csrfmiddlewaretoken": token, "clock": clock,
            **{f"tiebreak_{pk}": value for pk, value in dice.items()}}
    return client.post(reverse("campaign:advance", args=[slug]), data)


def tie_inputs(client: Client, slug: str) -> list[str]:
    page = client.get(reverse("campaign:play", args=[slug])).content.decode()
    return re.findall(r'name="tiebreak_(\d+)"', page)


# --- Reform (MK-PORDER-1) ----------------------------------------------------------------------


@pytest.fixture
def level(scene: Scene) -> Scene:
    """Red and Blue both have 2 armies at Reform."""
    scene.army(scene.blue, 2, "0604")
    scene.at("D")
    return scene


def test_mk_porder_1_reform_asks_for_tie_break_dice_only_when_kingdoms_tie(
        scene: Scene, fixed_dice: Any) -> None:
    scene.at("D")  # Red 2 armies, Blue 1: nobody is level
    gm = gm_client(scene.gm)
    assert tie_inputs(gm, scene.campaign.slug) == []
    scene.army(scene.blue, 2, "0604")
    assert tie_inputs(gm, scene.campaign.slug) == [str(scene.red.pk), str(scene.blue.pk)]
    page = gm.get(scene.play_url()).content.decode()
    assert "Tie-break for the new player order (MK-PORDER-1)" in page
    assert "will have 2 armies each" in page
    # Players see the plan but no dice fields: the GM closes the phase.
    player = Client()
    player.force_login(scene.player)
    assert "tiebreak_" not in player.get(scene.play_url()).content.decode()


def test_mk_porder_1_table_dice_typed_in_at_reform(level: Scene, fixed_dice: Any) -> None:
    dice = fixed_dice()  # the server must not roll
    gm = gm_client(level.gm)
    response = close_phase(gm, level.campaign.slug, {level.red.pk: "2", level.blue.pk: "5"})
    assert response.status_code == 302
    assert dice.used == []
    assert {k.name: k.order_position for k in Kingdom.objects.all()} == {"Blue": 1, "Red": 2}
    event = level.refresh().events.order_by("-seq").first()
    assert event.dice == [
        {"purpose": "player order tie-break: Red (MK-PORDER-1)", "values": [2], "source": "table"},
        {"purpose": "player order tie-break: Blue (MK-PORDER-1)", "values": [5],
         "source": "table"}]
    assert event.summary.endswith("New player order by armies (MK-PORDER-1): Blue (2), Red (2). "
                                  "Red and Blue tied and rolled 2 and 5.")


def test_mk_porder_1_a_re_roll_goes_after_the_first_die(level: Scene, fixed_dice: Any) -> None:
    gm = gm_client(level.gm)
    response = close_phase(gm, level.campaign.slug, {level.red.pk: "4 6", level.blue.pk: "4,1"})
    assert response.status_code == 302
    assert {k.name: k.order_position for k in Kingdom.objects.all()} == {"Red": 1, "Blue": 2}
    event = level.refresh().events.order_by("-seq").first()
    assert [(d["values"], d["source"]) for d in event.dice] == [([4, 6], "table"),
                                                                ([4, 1], "table")]


def test_mk_porder_1_empty_dice_fields_let_the_server_roll(level: Scene, fixed_dice: Any) -> None:
    dice = fixed_dice(1, 6)
    response = close_phase(gm_client(level.gm), level.campaign.slug,
                           {level.red.pk: "", level.blue.pk: " "})
    assert response.status_code == 302
    assert dice.used == [1, 6]
    event = level.refresh().events.order_by("-seq").first()
    assert [d["source"] for d in event.dice] == ["server", "server"]


@pytest.mark.parametrize("typed, message", [
    ({"red": "7", "blue": "2"}, "Type in each tie-break die as a number from 1 to 6"),
    ({"red": "x", "blue": "2"}, "Type in each tie-break die as a number from 1 to 6"),
    ({"red": "4", "blue": "4"}, "Red and Blue are still level (4): they roll again, and the new "
                                "die goes after the first (MK-PORDER-1)."),
    ({"red": "4"}, "Red and Blue have 2 armies each: enter a tie-break die for Blue "
                   "(MK-PORDER-1)."),
])
def test_mk_porder_1_bad_tie_break_dice_are_refused_and_change_nothing(
        level: Scene, fixed_dice: Any, typed: dict[str, str], message: str) -> None:
    fixed_dice()
    pks = {"red": level.red.pk, "blue": level.blue.pk}
    before = (level.refresh().clock_label(), level.campaign.events.count(),
              sorted(Kingdom.objects.values_list("pk", "order_position")))
    response = close_phase(gm_client(level.gm), level.campaign.slug,
                           {pks[name]: value for name, value in typed.items()})
    assert response.status_code == 409
    assert message in response.content.decode()
    assert (level.refresh().clock_label(), level.campaign.events.count(),
            sorted(Kingdom.objects.values_list("pk", "order_position"))) == before


def test_mk_porder_1_typed_tie_break_is_undone_with_the_phase_change(level: Scene,
                                                                     fixed_dice: Any) -> None:
    before = sorted(Kingdom.objects.values_list("pk", "order_position"))
    close_phase(gm_client(level.gm), level.campaign.slug, {level.red.pk: "1", level.blue.pk: "3"})
    event = level.refresh().events.order_by("-seq").first()
    undo_latest(level.campaign, level.gm, expected_seq=event.seq)
    assert sorted(Kingdom.objects.values_list("pk", "order_position")) == before
    assert level.refresh().clock_label() == "Year 1, summer month 1, D) Reform"


# --- Deploy (MK-DEPLOY-2) ----------------------------------------------------------------------


@pytest.fixture
def fed(gm: Any, plain_summer: None) -> World:
    """TV-MK-3's world at Feed, every army fed: Red 3 armies, Blue and Green 1 each (level)."""
    w = build_tv3(gm)
    to_phase(w, ws.FEED)
    settle(w)
    return w


def test_mk_deploy_2_feed_page_asks_for_the_tie_break_dice(fed: World) -> None:
    gm = gm_client(fed.gm)
    blue, green = fed.kingdoms["Blue"].pk, fed.kingdoms["Green"].pk
    assert tie_inputs(gm, fed.campaign.slug) == [str(blue), str(green)]
    page = gm.get(reverse("campaign:play", args=[fed.campaign.slug])).content.decode()
    assert "Tie-break for the new player order (MK-DEPLOY-2)" in page
    assert "will have 1 army each" in page


def test_mk_deploy_2_the_count_after_feeding_decides_who_ties(gm: Any, plain_summer: None) -> None:
    """Green leaves its army unfed: it will have none, so nobody is level when Deploy opens."""
    w = build_tv3(gm)
    to_phase(w, ws.FEED)
    ws.feed(w.kingdoms["Green"], w.gm, [])
    settle(w)
    assert tie_inputs(gm_client(w.gm), w.campaign.slug) == []


def test_mk_deploy_2_table_dice_typed_in_when_deploy_opens(fed: World, winter_dice: Any) -> None:
    winter_dice()  # the server must not roll
    blue, green = fed.kingdoms["Blue"].pk, fed.kingdoms["Green"].pk
    response = close_phase(gm_client(fed.gm), fed.campaign.slug, {blue: "6", green: "3"})
    assert response.status_code == 302
    assert fed.phase() == ws.DEPLOY
    assert [fed.k(n).order_position for n in ("Red", "Blue", "Green")] == [1, 2, 3]
    event = Campaign.objects.get(pk=fed.campaign.pk).events.order_by("-seq").first()
    assert event.dice == [
        {"purpose": "player order tie-break: Blue", "values": [6], "source": "table"},
        {"purpose": "player order tie-break: Green", "values": [3], "source": "table"}]
    assert ws.winter_data(fed.fresh())["deploy"]["rolls"] == {str(blue): [6], str(green): [3]}
    assert "New player order (MK-DEPLOY-2): Red (3), Blue (1), Green (1)." in event.summary


def test_mk_deploy_2_bad_dice_refuse_the_phase_change(fed: World, winter_dice: Any) -> None:
    winter_dice()
    before = dump()
    blue, green = fed.kingdoms["Blue"].pk, fed.kingdoms["Green"].pk
    for typed, message in (({blue: "2", green: "2"}, "Blue and Green are still level (2)"),
                           ({blue: "0", green: "2"}, "from 1 to 6"),
                           ({green: "5"}, "Blue and Green have 1 army each: enter a tie-break "
                                          "die for Blue (MK-DEPLOY-2).")):
        response = close_phase(gm_client(fed.gm), fed.campaign.slug, typed)
        assert response.status_code == 409
        assert message in response.content.decode()
        assert dump() == before
