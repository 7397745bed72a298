"""A summer month played from phones: two players and the GM post to the summer views.

Covers what each persona sees (sealed orders, MK-ORD-1), the refusals (4xx, nothing changed),
htmx fragments, the GM's advance button, and a play page whose query count does not grow with
the campaign."""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army, Battle
from campaign.models import Event, Role
from campaign.systems.mighty_kingdoms.models import Order
from tests.conftest import add_member, make_user
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    dump,
    fixed_dice,
    scene,
)

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    """The page as plain text, tags dropped and entities for quotes undone."""
    body = response.content.decode()
    body = re.sub(r"<[^>]+>", " ", body).replace("&#x27;", "'").replace("&quot;", '"')
    return " ".join(body.split())


def advance(scene: Scene, gm: Client) -> Any:
    return gm.post(reverse("campaign:advance", args=[scene.campaign.slug]),
                   {"clock": scene.refresh().clock_label()})


@pytest.fixture
def clients(scene: Scene, login: Callable[..., Client]) -> dict[str, Client]:
    return {"red": login(scene.player), "blue": login(scene.other), "gm": login(scene.gm)}


def test_mk_summer_month_through_the_views(scene: Scene, clients: dict[str, Client],
                                           fixed_dice: Any) -> None:
    red, blue, gm = clients["red"], clients["blue"], clients["gm"]
    play = scene.play_url()
    order_url = scene.mk_url("summer_order")

    # A) Orders. Red's phone offers army #1's legal orders, and nothing illegal.
    scene.set_tile("0202", terrain="marsh")
    page = red.get(play)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Your turn." in body
    army_form = body.split(f'value="{army_key(scene.red, 1)}"')[1].split("</form>")[0]
    destinations = re.findall(r'<option value="(\d{4})">', army_form)
    assert destinations == ["0203", "0302", "0304", "0402", "0403"]  # not the marsh 0202
    assert ">Defend</button>" in body and ">Raze</button>" in body
    assert ">Regroup</button>" not in body
    assert "Red to act." in text(blue.get(play))
    assert 'name="token"' not in blue.get(play).content.decode()

    response = red.post(order_url, {"token": army_key(scene.red, 2), "kind": "move",
                                    "target": "0504"})
    assert response.status_code == 302
    sealed = "army #2 on 0403: Move to 0504"
    assert sealed in text(red.get(play))
    assert sealed in text(gm.get(play))
    assert sealed not in text(blue.get(play))
    chronicle = reverse("campaign:chronicle", args=[scene.campaign.slug])
    assert "Move to 0504" in text(red.get(chronicle))
    assert "Move to 0504" in text(gm.get(chronicle))
    assert "Move to 0504" not in text(blue.get(chronicle))
    red_page = reverse("campaign:kingdom", args=[scene.campaign.slug, scene.red.pk])
    assert "Order: Move to 0504" in text(red.get(red_page))
    assert "Order: Move to 0504" in text(gm.get(red_page))
    blue_view = text(blue.get(red_page))
    assert "Move to 0504" not in blue_view
    assert "Orders are sealed until the Orders phase closes." in blue_view

    # The GM cannot close the phase yet, and is told why.
    refused = advance(scene, gm)
    assert refused.status_code == 409
    assert "Red: army #1 without an order (MK-ORD-1). Blue: army #1 without an order" in text(
        refused)

    # Blue's turn, from an htmx phone: the fragment comes back.
    response = blue.post(order_url, {"token": army_key(scene.blue, 1), "kind": "defend"},
                         HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert response["HX-Trigger"] == "campaign-changed"
    # The GM gives Red's last order for it.
    response = gm.post(order_url, {"kingdom": scene.red.pk, "token": army_key(scene.red, 1),
                                   "kind": "move", "target": "0304"})
    assert response.status_code == 302
    assert Order.objects.count() == 3
    assert advance(scene, gm).status_code == 302
    assert "army #2 on 0403: Move to 0504" in text(blue.get(play))  # revealed
    assert "Red's army #2 on 0403: Move to 0504" in text(blue.get(chronicle))

    # B) Resolution: Red first, then Blue, then Red with typed-in dice.
    resolve_url = scene.mk_url("summer_resolve")
    orders = {o.token: o for o in Order.objects.all()}
    response = red.post(resolve_url, {"order": orders[army_key(scene.red, 2)].pk})
    assert response.status_code == 302
    assert scene.tile("0504").controller_id == scene.blue.pk  # MK-RES-5: Blue's army holds it
    assert blue.post(resolve_url, {"order": orders[army_key(scene.blue, 1)].pk}).status_code == 302
    page = red.get(play).content.decode()
    assert ">Roll for me</button>" in page
    response = red.post(resolve_url, {"order": orders[army_key(scene.red, 1)].pk,
                                      "source": "table", "d1": "4", "d2": "4"})
    assert response.status_code == 302
    assert scene.tile("0304").settlement == "village"
    assert advance(scene, gm).status_code == 302

    # C) Battle: Red chooses, the GM enters the result.
    page = text(red.get(play))
    assert "Fight Blue: land battle (Kings of War)" in page
    assert red.post(scene.mk_url("summer_battle"),
                    {"tile": "0504", "opponent": scene.blue.pk}).status_code == 302
    battle = Battle.objects.get()
    assert "4'x4'" in text(blue.get(play))
    result_url = scene.mk_url("summer_battle_result", battle.pk)
    assert red.post(result_url, {"result": "win"}).status_code == 403
    assert gm.post(result_url, {"result": "win"}).status_code == 302
    assert scene.tile("0504").controller_id == scene.red.pk
    loser = scene.get_army(scene.blue, 1)
    assert (loser.tile.label, loser.on_side) == ("0604", True)
    # MK-RESULT-3: Red's phone offers the winner's move; Blue's does not, and Blue may not post it.
    move_url = scene.mk_url("summer_winner_move", battle.pk)
    assert "The winner may move one token on" in text(red.get(play))
    assert "The winner may move one token on" not in text(blue.get(play))
    key = army_key(scene.red, 2)
    before = dump()
    assert blue.post(move_url, {"token": key, f"to_{key}": "0403"}).status_code == 409
    assert red.post(move_url, {"token": key, f"to_{key}": "0604"},
                    HTTP_HX_REQUEST="true").status_code == 409
    assert dump() == before
    assert red.post(move_url, {"token": key, f"to_{key}": "0403", "stay": "1"}).status_code == 302
    assert scene.get_army(scene.red, 2).tile.label == "0504"
    assert "The winner kept its tokens in place." in text(red.get(play))
    assert advance(scene, gm).status_code == 302

    # D) Reform, and on to month 2.
    assert "Red: 2 armies" in text(red.get(play))
    assert advance(scene, gm).status_code == 302
    assert scene.refresh().clock_label() == "Year 1, summer month 2, A) Orders"


@pytest.mark.parametrize("case, status, message", [
    ("someone else's army", 409, "Blue's army #1 is not yours"),
    ("two tiles away", 409, "0505 is not next to 0403"),
    ("marsh", 409, "0404 is a marsh: armies cannot enter marsh tiles (MK-ORD-6)."),
    ("water edge", 409, "The edge between 0403 and 0304 is all water"),
    ("raze off a settlement", 409, "There is no settlement on 0402 to raze (MK-ORD-8)."),
    ("defend with a ship", 409, "Ships and ship/army pairs cannot Defend (MK-ORD-7)."),
    ("out of turn", 409, "It is Red's turn"),
    ("out of phase", 409, "Not now: this is done in A) Orders"),
    ("twice", 409, "already has its order"),
    ("observer", 403, ""),
    ("outsider", 404, ""),
])
def test_mk_ord_refused_posts_change_nothing(scene: Scene, clients: dict[str, Client],
                                             login: Callable[..., Client], case: str,
                                             status: int, message: str) -> None:
    client = clients["red"]
    data: dict[str, Any] = {"token": army_key(scene.red, 2), "kind": "move", "target": "0504"}
    if case == "someone else's army":
        data = {"token": army_key(scene.blue, 1), "kind": "defend"}
    elif case == "two tiles away":
        data["target"] = "0505"
    elif case == "marsh":
        scene.set_tile("0404", terrain="marsh")
        data["target"] = "0404"
    elif case == "water edge":
        scene.set_tile("0403", edges={"4": ["water"]})
        data["target"] = "0304"
    elif case == "raze off a settlement":
        Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0402"))
        data = {"token": army_key(scene.red, 2), "kind": "raze"}
    elif case == "defend with a ship":
        data = {"token": f"ship:{scene.ship(scene.red, 1, '0403').pk}", "kind": "defend"}
    elif case == "out of turn":
        client, data = clients["blue"], {"token": army_key(scene.blue, 1), "kind": "defend"}
    elif case == "out of phase":
        scene.at("B")
    elif case == "twice":
        client.post(scene.mk_url("summer_order"), data)
        clients["blue"].post(scene.mk_url("summer_order"),
                             {"token": army_key(scene.blue, 1), "kind": "defend"})
    elif case == "observer":
        observer = make_user("watcher")
        add_member(scene.campaign, observer, Role.OBSERVER)
        client = login(observer)
    elif case == "outsider":
        client = login(make_user("stranger"))
    before = dump()
    events = Event.objects.count()
    response = client.post(scene.mk_url("summer_order"), data)
    assert response.status_code == status
    if message:
        assert message in text(response)
        assert "Nothing was changed." in text(response)
    assert dump() == before
    assert Event.objects.count() == events


def test_mk_ord_refusal_to_htmx_is_a_short_error(scene: Scene, clients: dict[str, Client]) -> None:
    response = clients["blue"].post(scene.mk_url("summer_order"),
                                    {"token": army_key(scene.blue, 1), "kind": "defend"},
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert response.content.decode().startswith('<p class="error" role="alert">It is Red')


def test_mk_exp_roll_for_me_through_the_view(scene: Scene, clients: dict[str, Client],
                                             fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    clients["red"].post(scene.mk_url("summer_order"),
                        {"token": army_key(red, 1), "kind": "move", "target": "0304"})
    clients["blue"].post(scene.mk_url("summer_order"),
                         {"token": army_key(blue, 1), "kind": "defend"})
    clients["red"].post(scene.mk_url("summer_order"),
                        {"token": army_key(red, 2), "kind": "defend"})
    advance(scene, clients["gm"])
    order = Order.objects.get(token=army_key(red, 1))
    fixed_dice(6, 5)
    response = clients["red"].post(scene.mk_url("summer_resolve"),
                                   {"order": order.pk, "source": "server"})
    assert response.status_code == 302
    assert scene.tile("0304").settlement == "fortress"
    event = Event.objects.filter(kind="summer.resolve").get()
    assert event.dice == [{"purpose": "exploration of 0304 (MK-EXP-1)", "values": [6, 5],
                           "source": "server"}]
    page = text(clients["blue"].get(scene.play_url()))
    assert "Dice 6+5 (rolled by the server)" in page
    bad = clients["blue"].post(scene.mk_url("summer_resolve"),
                               {"order": Order.objects.get(token=army_key(blue, 1)).pk,
                                "source": "table", "d1": "7", "d2": "1"})
    assert bad.status_code == 400
    assert "Type in both dice, each 1 to 6." in text(bad)


def play_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("phase", ["A", "B", "C", "D"])
def test_play_page_queries_do_not_grow_with_the_campaign(scene: Scene,
                                                         clients: dict[str, Client],
                                                         phase: str) -> None:
    scene.army(scene.blue, 11, "0403")  # one contested tile already: Red's fortress
    scene.at(phase)
    url = scene.play_url()
    small = {who: play_queries(client, url) for who, client in clients.items()}
    for number in range(3, 11):
        scene.army(scene.red, number, "0402")
        scene.ship(scene.red, number, "0302")
        scene.army(scene.blue, number, "0604")
    Army.objects.filter(kingdom=scene.blue, number=5).update(tile=scene.tile("0402"))
    for army in Army.objects.filter(kingdom=scene.red)[:4]:
        Order.objects.create(campaign=scene.campaign, kingdom=scene.red, year=1, month=1,
                             token=f"army:{army.pk}", army=army, kind="defend",
                             from_tile=army.tile, given_seq=army.number)
    large = {who: play_queries(client, url) for who, client in clients.items()}
    assert large == small


def test_mk_ord_an_observer_sees_whose_turn_but_no_sealed_order(
        scene: Scene, clients: dict[str, Client], login: Callable[..., Client]) -> None:
    observer = make_user("watcher")
    add_member(scene.campaign, observer, Role.OBSERVER)
    clients["red"].post(scene.mk_url("summer_order"),
                        {"token": army_key(scene.red, 2), "kind": "move", "target": "0504"})
    client = login(observer)
    page = text(client.get(scene.play_url()))
    assert "Blue to act." in page
    assert "Move to 0504" not in page
    assert "Given so far: Red 1, Blue 0." in page
    red_page = text(client.get(reverse("campaign:kingdom",
                                       args=[scene.campaign.slug, scene.red.pk])))
    assert "Army #2 on 0403" in red_page and "Move to 0504" not in red_page
