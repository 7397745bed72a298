"""Summer A) Orders through the services (MK-ORD, MK-SHIP): turn order, legality, sealing."""

from __future__ import annotations

import pytest

from campaign.models import Event, Visibility
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import phases, summer
from campaign.systems.mighty_kingdoms.models import Order, Ship
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_summer_scene import Scene, campaign, dump, scene  # noqa: F401

pytestmark = pytest.mark.django_db


def key(scene: Scene, kingdom, number: int) -> str:
    return f"army:{scene.get_army(kingdom, number).pk}"


def turn(scene: Scene) -> int | None:
    state = load_state(scene.campaign)
    return phases.handler_for(state.campaign).turn(state)


def test_mk_ord_1_orders_go_round_the_table_one_token_at_a_time(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    assert turn(scene) == red.pk
    order = summer.give_order(red, scene.player, key(scene, red, 1), "defend", None)
    assert (order.kind, order.given_seq, order.year, order.month) == ("defend", 1, 1, 1)
    assert order.from_tile.label == "0303" and order.target is None
    assert turn(scene) == blue.pk
    with pytest.raises(ServiceError, match="It is Blue's turn"):
        summer.give_order(red, scene.player, key(scene, red, 2), "defend", None)
    summer.give_order(blue, scene.other, key(scene, blue, 1), "move", "0503")
    # MK-ORD-3: Blue has nothing left, so Red gives its second order straight away.
    assert turn(scene) == red.pk
    second = summer.give_order(red, scene.player, key(scene, red, 2), "move", "0504")
    assert (second.given_seq, second.target.label) == (3, "0504")
    assert turn(scene) is None
    assert phases.blockers(load_state(scene.campaign)) == []


def test_mk_ord_3_advance_is_refused_while_tokens_lack_orders(scene: Scene) -> None:
    summer.give_order(scene.red, scene.player, key(scene, scene.red, 1), "defend", None)
    with pytest.raises(ServiceError) as refused:
        phases.advance(scene.campaign, scene.gm)
    assert str(refused.value) == (
        "Year 1, summer month 1, A) Orders is not finished: Red: army #2 without an order "
        "(MK-ORD-1). Blue: army #1 without an order (MK-ORD-1)."
    )
    assert scene.refresh().phase == "A"


@pytest.mark.parametrize("case, message", [
    ("someone else's army", "Blue's army #1 is not yours"),
    ("two tiles away", "0505 is not next to 0403: a Move goes to an adjacent tile (MK-ORD-5)."),
    ("marsh", "0404 is a marsh: armies cannot enter marsh tiles (MK-ORD-6)."),
    ("water edge", "The edge between 0403 and 0304 is all water: an army needs a ship"),
    ("raze off a settlement", "There is no settlement on 0303 to raze (MK-ORD-8)."),
    ("defend with a ship", "Ships and ship/army pairs cannot Defend (MK-ORD-7)."),
    ("regroup upright", "Army #1 is upright: Regroup is only for a token lying on its side"),
    ("out of phase", "Not now: this is done in A) Orders, and the campaign is at Year 1, "
                     "summer month 1, B) Resolution."),
    ("twice", "Army #1 already has its order: an order once given cannot be changed (MK-ORD-2)."),
])
def test_mk_ord_illegal_orders_are_refused_and_change_nothing(scene: Scene, case: str,
                                                               message: str) -> None:
    red, blue = scene.red, scene.blue
    scene.set_tile("0404", terrain="marsh")
    scene.set_tile("0403", edges={"4": ["water"]})  # its south-west edge, towards 0304
    scene.set_tile("0303", settlement="")
    ship = scene.ship(red, 1, "0403")
    token, kind, target = key(scene, red, 2), "move", None
    if case == "twice":
        summer.give_order(red, scene.player, key(scene, red, 1), "defend", None)
        summer.give_order(blue, scene.other, key(scene, blue, 1), "defend", None)
        token, kind = key(scene, red, 1), "defend"
    elif case == "someone else's army":
        token, kind = key(scene, blue, 1), "defend"
    elif case == "two tiles away":
        target = "0505"
    elif case == "marsh":
        target = "0404"
    elif case == "water edge":
        target = "0304"
    elif case == "raze off a settlement":
        token, kind = key(scene, red, 1), "raze"
    elif case == "defend with a ship":
        token, kind = f"ship:{ship.pk}", "defend"
    elif case == "regroup upright":
        token, kind = key(scene, red, 1), "regroup"
    elif case == "out of phase":
        scene.at("B")
        token, kind = key(scene, red, 1), "defend"
    before = dump()
    with pytest.raises(ServiceError) as refused:
        summer.give_order(red, scene.player, token, kind, target)
    assert message in str(refused.value)
    assert dump() == before


def test_mk_ord_4_a_token_on_its_side_may_only_regroup(scene: Scene) -> None:
    army = scene.get_army(scene.red, 1)
    army.on_side = True
    army.save()
    with pytest.raises(ServiceError, match=r"lies on its side: it can only Regroup \(MK-ORD-4\)"):
        summer.give_order(scene.red, scene.player, f"army:{army.pk}", "move", "0302")
    order = summer.give_order(scene.red, scene.player, f"army:{army.pk}", "regroup", None)
    assert order.kind == "regroup"


def test_mk_ord_sealed_order_event_is_for_the_kingdom_only(scene: Scene) -> None:
    summer.give_order(scene.red, scene.player, key(scene, scene.red, 2), "move", "0504")
    event = Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()
    assert event.kind == "summer.order"
    assert (event.visibility, event.kingdom_id) == (Visibility.KINGDOM, scene.red.pk)
    assert event.summary == ("Red orders army #2 on 0403: Move to 0504. Sealed until the "
                             "Orders phase ends.")


def test_mk_ord_open_orders_are_public_when_sealing_is_off(scene: Scene) -> None:
    scene.campaign.options = {**scene.campaign.options, "sealed_orders": False}
    scene.campaign.save()
    summer.give_order(scene.red, scene.player, key(scene, scene.red, 2), "move", "0504")
    event = Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()
    assert (event.visibility, event.kingdom_id) == (Visibility.PUBLIC, None)


def test_mk_ord_closing_the_phase_reveals_orders_and_marks_razes(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    summer.give_order(red, scene.player, key(scene, red, 1), "defend", None)
    summer.give_order(blue, scene.other, key(scene, blue, 1), "raze", None)
    summer.give_order(red, scene.player, key(scene, red, 2), "move", "0504")
    event = phases.advance(scene.campaign, scene.gm)
    assert event.visibility == Visibility.PUBLIC
    assert event.summary == (
        "Year 1, summer month 1, A) Orders is over. Now: Year 1, summer month 1, B) Resolution. "
        "Orders revealed: Red's army #1 on 0303: Defend; Blue's army #1 on 0504: Raze; "
        "Red's army #2 on 0403: Move to 0504. The village on 0504 is turned upside down: Blue "
        "means to raze it (MK-ORD-8)."
    )
    assert scene.tile("0504").data == {"raze_pending": True}


def test_mk_ship_2_3_board_and_leave_a_ship(scene: Scene) -> None:
    red = scene.red
    ship = scene.ship(red, 1, "0403")
    army = scene.get_army(red, 2)
    summer.pair_tokens(red, scene.player, army.pk, ship.pk)
    assert Ship.objects.get(pk=ship.pk).paired_army_id == army.pk
    state = load_state(scene.campaign)
    assert sorted(m.name for m in state.movers_of(red.pk)) == [
        "army #1", "ship #1 carrying army #2"]
    third = scene.army(red, 3, "0403")
    with pytest.raises(ServiceError, match="already carries an army: one per ship"):
        summer.pair_tokens(red, scene.player, third.pk, ship.pk)
    summer.unpair_tokens(red, scene.player, ship.pk)
    assert Ship.objects.get(pk=ship.pk).paired_army_id is None


def test_mk_ship_3_no_splitting_on_open_ocean_nor_after_the_order(scene: Scene) -> None:
    red = scene.red
    scene.set_tile("0402", terrain="open_water", controller=None, settlement="")
    army = scene.army(red, 3, "0402")
    ship = scene.ship(red, 1, "0402", paired_army=army)
    before = dump()
    with pytest.raises(ServiceError, match=r"0402 is open ocean: the army cannot leave its ship"):
        summer.unpair_tokens(red, scene.player, ship.pk)
    assert dump() == before
    scene.set_tile("0402", terrain="plain", features=["coast"])
    scene.set_tile("0302", features=["coast"])
    summer.give_order(red, scene.player, f"pair:{ship.pk}", "move", "0302")
    with pytest.raises(ServiceError, match="already has its order"):
        summer.unpair_tokens(red, scene.player, ship.pk)


def test_mk_ship_2_boarding_someone_elses_ship_is_refused(scene: Scene) -> None:
    ship = scene.ship(scene.blue, 1, "0403")
    before = dump()
    with pytest.raises(ServiceError, match="is not yours"):
        summer.pair_tokens(scene.red, scene.player, scene.get_army(scene.red, 2).pk, ship.pk)
    assert dump() == before


def test_mk_ord_orders_of_a_pair_name_both_tokens(scene: Scene) -> None:
    red = scene.red
    scene.set_tile("0302", features=["coast"])
    ship = scene.ship(red, 1, "0303", paired_army=scene.get_army(red, 1))
    order = summer.give_order(red, scene.player, f"pair:{ship.pk}", "move", "0302")
    stored = Order.objects.get(pk=order.pk)
    assert (stored.army_id, stored.ship_id) == (scene.get_army(red, 1).pk, ship.pk)
    assert stored.outcome == {"token_name": "ship #1 carrying army #1"}
