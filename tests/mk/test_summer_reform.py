"""Summer D) Reform through the phase change (MK-REFORM-1..4, MK-AMB-7) and the new player
order (MK-PORDER-1/2), with the worked examples TV-MK-11 and TV-MK-9."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Kingdom
from campaign.systems.mighty_kingdoms import phases
from tests.mk.test_summer_scene import (  # noqa: F401
    Scene,
    army_key,
    campaign,
    fixed_dice,
    give_in_turn,
    resolve_in_turn,
    scene,
)

pytestmark = pytest.mark.django_db


def test_tv_mk_11_reform_terrain_on_real_tiles(scene: Scene, fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    river = {"features": ["river"], "controller": red, "explored": True}
    for label in ("0201", "0203"):
        scene.set_tile(label, controller=red, explored=True)
    for label in ("0202", "0103", "0104", "0105", "0106", "0203"):
        scene.set_tile(label, **river)
    scene.set_tile("0302", edges={"3": ["forest"]})      # 0302's side of its edge with 0303
    scene.set_tile("0403", edges={"0": ["mountain"]})    # 0403's side of its edge with 0402
    scene.army(red, 3, "0202")
    scene.army(red, 4, "0103")
    pair_army = scene.army(red, 5, "0105")
    ship = scene.ship(red, 1, "0105", paired_army=pair_army)
    scene.army(red, 6, "0203")
    give_in_turn(scene, {
        red: [(army_key(red, 1), "move", "0302"),    # none / forest
              (army_key(red, 2), "move", "0402"),    # mountains / none
              (army_key(red, 3), "move", "0201"),    # out of a river tile
              (army_key(red, 4), "move", "0104"),    # river to river
              (f"pair:{ship.pk}", "move", "0106"),   # a pair along the river
              (army_key(red, 6), "defend", None)],   # defends in a river tile
        blue: [(army_key(blue, 1), "defend", None)],
    })
    phases.advance(scene.campaign, scene.gm)
    resolve_in_turn(scene)
    phases.advance(scene.campaign, scene.gm)  # to C: nothing is contested
    phases.advance(scene.campaign, scene.gm)  # to D
    fixed_dice()  # nobody is tied: Red 6 armies, Blue 1
    event = phases.advance(scene.campaign, scene.gm)
    on_side = {a.number: a.on_side for a in Army.objects.filter(kingdom=red)}
    assert on_side == {1: True, 2: True, 3: False, 4: True, 5: False, 6: False}
    assert scene.refresh().clock_label() == "Year 1, summer month 2, A) Orders"
    assert event.summary == (
        "Year 1, summer month 1, D) Reform is over. Now: Year 1, summer month 2, A) Orders. "
        "Red's army #1 crossed forest between 0303 and 0302 and lies on its side (MK-REFORM-1). "
        "Red's army #2 crossed mountain between 0403 and 0402 and lies on its side "
        "(MK-REFORM-1). "
        "Red's army #4 moved into the river tile 0104 and lies on its side (MK-REFORM-1). "
        "Defend markers are taken away (MK-AMB-7). "
        "New player order by armies (MK-PORDER-1): Red (6), Blue (1)."
    )
    assert not Army.objects.filter(defending=True).exists()
    assert event.dice == []


def test_tv_mk_9_player_order_with_a_stored_tie_break(scene: Scene, fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    green = Kingdom.objects.create(campaign=scene.campaign, name="Green", order_position=3)
    gold = Kingdom.objects.create(campaign=scene.campaign, name="Gold", order_position=4)
    for label in ("0101", "0102", "0103", "0104", "0105", "0106", "0201"):
        scene.set_tile(label, explored=True)
    scene.army(red, 3, "0302")
    scene.army(red, 4, "0402")
    scene.army(blue, 2, "0604")
    for number, label in enumerate(("0101", "0102", "0103", "0104"), start=1):
        scene.army(green, number, label)
    scene.army(gold, 1, "0106")
    scene.at("D")
    dice = fixed_dice(3, 5)
    event = phases.advance(scene.campaign, scene.gm)
    assert dice.used == [3, 5]
    positions = {k.name: k.order_position for k in Kingdom.objects.filter(campaign=scene.campaign)}
    assert positions == {"Green": 1, "Red": 2, "Blue": 3, "Gold": 4}
    assert event.dice == [
        {"purpose": "player order tie-break: Red (MK-PORDER-1)", "values": [3],
         "source": "server"},
        {"purpose": "player order tie-break: Green (MK-PORDER-1)", "values": [5],
         "source": "server"},
    ]
    assert event.summary.endswith(
        "New player order by armies (MK-PORDER-1): Green (4), Red (4), Blue (2), Gold (1). "
        "Red and Green tied and rolled 3 and 5.")


def test_mk_porder_1_level_tie_breaks_are_rolled_again(scene: Scene, fixed_dice: Any) -> None:
    scene.army(scene.blue, 2, "0604")
    scene.at("D")
    fixed_dice(4, 4, 6, 2)
    event = phases.advance(scene.campaign, scene.gm)
    assert [d["values"] for d in event.dice] == [[4, 6], [4, 2]]
    assert Kingdom.objects.get(pk=scene.red.pk).order_position == 1
    assert "Red and Blue tied and rolled 4-6 and 4-2." in event.summary


def test_mk_reform_3_4_flip_back_ownership_and_defend_markers(scene: Scene,
                                                             fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    scene.set_tile("0504", data={"raze_pending": True})
    Army.objects.filter(kingdom=blue, number=1).update(defending=True)
    scene.army(red, 3, "0604")            # alone on Blue's tile
    scene.army(blue, 2, "0403", on_side=True)  # shares Red's fortress with Red army #2
    scene.at("D")
    fixed_dice()
    event = phases.advance(scene.campaign, scene.gm)
    assert scene.tile("0504").data == {}
    assert scene.tile("0604").controller_id == red.pk
    assert scene.tile("0403").controller_id == red.pk  # two kingdoms there: no change
    assert scene.get_army(blue, 1).defending is False
    assert ("The village on 0504 is turned back up (MK-REFORM-3). 0604 now belongs to Red: "
            "only its armies stand there (MK-REFORM-4). Defend markers are taken away "
            "(MK-AMB-7).") in event.summary


def test_mk_year_4_reform_of_month_6_leads_to_winter(scene: Scene, fixed_dice: Any) -> None:
    scene.at("D", month=6)
    fixed_dice()
    phases.advance(scene.campaign, scene.gm)
    assert scene.refresh().clock_label() == "Year 1, winter, A) Recall"
