"""Undo of every summer event puts the database back exactly: tiles, armies, ships, orders,
battles, kingdoms and the campaign, compared row by row before the event and after its undo."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from battles.models import Army, Battle
from campaign.chronicle import undo_latest
from campaign.models import Event
from campaign.systems.mighty_kingdoms import phases, summer
from campaign.systems.mighty_kingdoms.models import Order
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    dump,
    fixed_dice,
    give_in_turn,
    resolve_in_turn,
    scene,
)

pytestmark = pytest.mark.django_db


def undo_restores(scene: Scene, action: Callable[[], Any]) -> Event:
    before = dump()
    action()
    assert dump() != before
    event = Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()
    undo_latest(scene.campaign, scene.gm, expected_seq=event.seq)
    assert dump() == before
    action()  # and it can be done again, to carry on
    scene.refresh()
    return event


def test_undo_each_summer_event_of_a_month(scene: Scene, fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    scene.set_tile("0604", settlement="village")
    scene.army(red, 3, "0603")
    ship = scene.ship(red, 1, "0303")
    scene.set_tile("0304", edges={"0": ["forest"]})  # on 0304's side of its edge with 0303
    gm = scene.gm
    advance: Callable[[], Any] = lambda: phases.advance(scene.refresh(), gm)  # noqa: E731

    # A) Orders: boarding, leaving, and each order.
    undo_restores(scene, lambda: summer.pair_tokens(red, scene.player,
                                                    scene.get_army(red, 1).pk, ship.pk))
    undo_restores(scene, lambda: summer.unpair_tokens(red, scene.player, ship.pk))
    event = undo_restores(scene, lambda: summer.give_order(
        red, scene.player, army_key(red, 2), "move", "0504"))
    assert event.kind == "summer.order"
    undo_restores(scene, lambda: summer.give_order(blue, scene.other, army_key(blue, 1),
                                                   "raze", None))
    give_in_turn(scene, {red: [(army_key(red, 3), "move", "0604"),
                               (army_key(red, 1), "move", "0304"),
                               (f"ship:{ship.pk}", "raze", None)]})
    undo_restores(scene, advance)  # reveal, raze marker on 0504
    assert scene.campaign.phase == "B"

    # B) Resolution: a blocked move, a failed raze, a control change, an exploration.
    orders = {o.token: o.pk for o in Order.objects.all()}
    undo_restores(scene, lambda: summer.resolve(red, scene.player, orders[army_key(red, 2)]))
    undo_restores(scene, lambda: summer.resolve(blue, scene.other, orders[army_key(blue, 1)]))
    undo_restores(scene, lambda: summer.resolve(red, scene.player, orders[army_key(red, 3)]))
    undo_restores(scene, lambda: summer.resolve(red, scene.player, orders[army_key(red, 1)],
                                                dice=(5, 5)))
    undo_restores(scene, lambda: summer.resolve(red, scene.player, orders[f"ship:{ship.pk}"]))
    assert scene.tile("0303").settlement == ""  # Red burnt its own capital
    undo_restores(scene, advance)

    # C) Battle: choice, a result that destroys a token and takes the tile.
    scene.set_tile("0604", controller=red)  # Blue has nowhere left to go
    undo_restores(scene, lambda: summer.choose_battle(red, scene.player, "0504", blue.pk))
    battle = Battle.objects.get()
    undo_restores(scene, lambda: summer.enter_result(battle.pk, gm, scene.campaign,
                                                     result="win"))
    assert not Army.objects.filter(kingdom=blue, tile__isnull=False).exists()
    undo_restores(scene, advance)

    # D) Reform: terrain, flip-back, ownership, defend markers, player order with a tie roll.
    fixed_dice(2, 5, 2, 5)
    for number, label in ((2, "0605"), (3, "0606"), (4, "0606")):
        scene.army(blue, number, label)  # three each: the order needs a tie-break roll
    event = undo_restores(scene, advance)
    assert "Red's army #1 crossed forest between 0303 and 0304" in event.summary
    assert event.dice[0]["purpose"] == "player order tie-break: Red (MK-PORDER-1)"
    assert scene.campaign.clock_label() == "Year 1, summer month 2, A) Orders"


def test_undo_a_retreat_and_a_slaughter(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    Army.objects.filter(kingdom=red, number=2).update(tile=scene.tile("0504"))
    scene.set_tile("0505", controller=blue, explored=True)
    second = scene.army(blue, 2, "0605", on_side=True)
    scene.army(red, 3, "0605")
    scene.at("C")
    battle = summer.choose_battle(red, scene.player, "0504", blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    key = army_key(blue, 1)
    undo_restores(scene, lambda: summer.choose_retreats(blue, scene.other, battle.pk,
                                                        {key: "0505"}))
    slaughter = summer.choose_battle(red, scene.player, "0605", blue.pk)
    assert slaughter.kind == "slaughter"
    undo_restores(scene, lambda: summer.enter_result(slaughter.pk, scene.gm, scene.campaign,
                                                     slaughtered=f"army:{second.pk}"))
    assert Army.objects.get(pk=second.pk).tile is None
