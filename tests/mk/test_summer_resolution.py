"""Summer B) Resolution through the services (MK-RES, MK-EXP, MK-WIZ): dice, control, raze."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army
from campaign.models import Event, Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import phases, summer
from campaign.systems.mighty_kingdoms.models import Order
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_summer_scene import Scene, campaign, dump, fixed_dice, scene  # noqa: F401

pytestmark = pytest.mark.django_db


def orders(scene: Scene, *plan: tuple[Kingdom, int, str, str | None]) -> dict[tuple, Order]:
    """Give the orders in the listed order (which must follow the turns), then go to B."""
    users = {scene.red.pk: scene.player, scene.blue.pk: scene.other}
    given = {}
    for kingdom, number, kind, target in plan:
        army = Army.objects.get(kingdom=kingdom, number=number)
        given[(kingdom.name, number)] = summer.give_order(
            kingdom, users[kingdom.pk], f"army:{army.pk}", kind, target)
    phases.advance(scene.campaign, scene.gm)
    scene.refresh()
    return given


def last_event(scene: Scene) -> Event:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()


def test_tv_mk_5_typed_dice_4_4_explore_a_village(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    given = orders(scene, (red, 1, "move", "0304"), (blue, 1, "defend", None),
                   (red, 2, "defend", None))
    summer.resolve(red, scene.player, given[("Red", 1)].pk, dice=(4, 4))
    tile = scene.tile("0304")
    assert (tile.explored, tile.settlement, tile.controller_id) == (True, "village", red.pk)
    assert scene.get_army(red, 1).tile.label == "0304"
    event = last_event(scene)
    assert event.summary == ("Red: Army #1 explores 0304 and finds a village; the tile joins "
                             "the kingdom.")
    assert event.dice == [{"purpose": "exploration of 0304 (MK-EXP-1)", "values": [4, 4],
                           "source": "table"}]
    order = Order.objects.get(pk=given[("Red", 1)].pk)
    assert order.resolved_seq == 1
    assert order.outcome["exploration"] == "village"
    assert order.outcome["origin"] == "0303" and order.outcome["tile"] == "0304"
    assert order.outcome["dice"] == [4, 4] and order.outcome["source"] == "table"


@pytest.mark.parametrize("dice, found", [((3, 4), ""), ((5, 5), "city"), ((6, 5), "fortress")])
def test_mk_exp_1_server_dice_are_stored_with_the_event(scene: Scene, fixed_dice: Any,
                                                         dice: tuple[int, int],
                                                         found: str) -> None:
    red, blue = scene.red, scene.blue
    given = orders(scene, (red, 1, "move", "0304"), (blue, 1, "defend", None),
                   (red, 2, "defend", None))
    fixed_dice(*dice)
    summer.resolve(red, scene.player, given[("Red", 1)].pk, source="server")
    tile = scene.tile("0304")
    assert (tile.settlement, tile.controller_id, tile.explored) == (found, red.pk, True)
    assert last_event(scene).dice == [{"purpose": "exploration of 0304 (MK-EXP-1)",
                                       "values": list(dice), "source": "server"}]


def test_tv_mk_5_wizard_towers_reroll_and_tower(scene: Scene, fixed_dice: Any) -> None:
    red, blue = scene.red, scene.blue
    scene.campaign.options = {**scene.campaign.options, "module_wizard_towers": True}
    scene.campaign.save()
    given = orders(scene, (red, 1, "move", "0304"), (blue, 1, "defend", None),
                   (red, 2, "move", "0404"))
    before = dump()
    with pytest.raises(ServiceError, match=r"4\+4 is a double: roll 2D6 again"):
        summer.resolve(red, scene.player, given[("Red", 1)].pk, dice=(4, 4))
    assert dump() == before
    summer.resolve(red, scene.player, given[("Red", 1)].pk, dice=(4, 4), reroll=(1, 3))
    assert scene.tile("0304").settlement == "village"
    assert [d["values"] for d in last_event(scene).dice] == [[4, 4], [1, 3]]
    summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    fixed_dice(5, 5, 2, 2)
    summer.resolve(red, scene.player, given[("Red", 2)].pk, source="server")
    tower = scene.tile("0404")
    assert (tower.explored, tower.controller_id, tower.settlement) == (True, None, "")
    assert tower.data == {"wizard_tower": True}
    assert scene.get_army(red, 2).tile.label == "0403"  # pushed back (MK-WIZ-2)
    event = last_event(scene)
    assert event.dice == [
        {"purpose": "exploration of 0404 (MK-EXP-1)", "values": [5, 5], "source": "server"},
        {"purpose": "Wizard's tower check at 0404 (MK-WIZ-1)", "values": [2, 2],
         "source": "server"},
    ]
    assert "A Wizard's Tower rises on 0404" in event.summary


def test_mk_res_5_control_changes_unless_an_enemy_army_stands_there(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    scene.army(red, 3, "0603")
    given = orders(scene, (red, 2, "move", "0504"), (blue, 1, "defend", None),
                   (red, 3, "move", "0604"), (red, 1, "defend", None))
    summer.resolve(red, scene.player, given[("Red", 2)].pk)
    assert scene.tile("0504").controller_id == blue.pk
    assert scene.get_army(red, 2).tile.label == "0504"
    assert last_event(scene).summary == (
        "Red: Army #2 moves into 0504; enemy armies hold it, so control does not change and a "
        "battle will follow.")
    summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    assert scene.get_army(blue, 1).defending is True  # MK-RES-8
    summer.resolve(red, scene.player, given[("Red", 3)].pk)
    assert scene.tile("0604").controller_id == red.pk
    assert last_event(scene).summary == (
        "Red: Army #3 moves into 0604; control of the tile passes to its kingdom (MK-RES-5).")


def test_mk_res_7_raze_succeeds_without_enemies_and_fails_with_them(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    scene.set_tile("0604", settlement="village")
    scene.army(red, 3, "0604")
    given = orders(scene, (red, 2, "move", "0504"), (blue, 1, "raze", None),
                   (red, 3, "raze", None), (red, 1, "defend", None))
    assert scene.tile("0504").data == {"raze_pending": True}
    assert scene.tile("0604").data == {"raze_pending": True}
    summer.resolve(red, scene.player, given[("Red", 2)].pk)
    summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    failed = scene.tile("0504")
    assert (failed.settlement, failed.data) == ("village", {"raze_pending": True})
    assert "Enemy tokens on 0504 stop the burning" in last_event(scene).summary
    summer.resolve(red, scene.player, given[("Red", 3)].pk)
    razed = scene.tile("0604")
    assert (razed.settlement, razed.controller_id, razed.data) == ("", blue.pk, {})
    assert last_event(scene).summary == ("Red: The village on 0604 is burnt to the ground; "
                                         "control does not change.")


def test_mk_res_7_razing_a_capital_leaves_its_kingdom_without_one(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    given = orders(scene, (red, 1, "raze", None), (blue, 1, "defend", None),
                   (red, 2, "defend", None))
    summer.resolve(red, scene.player, given[("Red", 1)].pk)
    assert scene.tile("0303").settlement == ""
    assert Kingdom.objects.get(pk=red.pk).capital_tile_id is None  # MK-AMB-8


def test_mk_res_6_regroup_stands_the_token_up(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    Army.objects.filter(kingdom=red, number=1).update(on_side=True)
    given = orders(scene, (red, 1, "regroup", None), (blue, 1, "defend", None),
                   (red, 2, "defend", None))
    summer.resolve(red, scene.player, given[("Red", 1)].pk)
    assert scene.get_army(red, 1).on_side is False
    assert last_event(scene).summary == "Red: Army #1 stands up again on 0303."


def test_mk_res_1_resolution_goes_round_in_player_order(scene: Scene) -> None:
    red, blue = scene.red, scene.blue
    given = orders(scene, (red, 1, "defend", None), (blue, 1, "defend", None),
                   (red, 2, "move", "0304"))
    state = load_state(scene.campaign)
    assert phases.handler_for(state.campaign).turn(state) == red.pk
    before = dump()
    with pytest.raises(ServiceError, match="It is Red's turn"):
        summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    with pytest.raises(ServiceError, match="That order belongs to another kingdom"):
        summer.resolve(red, scene.player, given[("Blue", 1)].pk)
    with pytest.raises(ServiceError, match=r"Type in the 2D6 rolled to explore 0304"):
        summer.resolve(red, scene.player, given[("Red", 2)].pk)
    assert dump() == before
    # Red picks which of its orders goes first (MK-RES-1).
    summer.resolve(red, scene.player, given[("Red", 2)].pk, dice=(2, 3))
    with pytest.raises(ServiceError, match="It is Blue's turn"):
        summer.resolve(red, scene.player, given[("Red", 1)].pk)
    with pytest.raises(ServiceError, match="not finished: Red: 1 order to resolve"):
        phases.advance(scene.campaign, scene.gm)
    summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    with pytest.raises(ServiceError, match="already been resolved"):
        summer.resolve(blue, scene.other, given[("Blue", 1)].pk)
    summer.resolve(red, scene.player, given[("Red", 1)].pk)
    event = phases.advance(scene.campaign, scene.gm)
    assert event.summary == ("Year 1, summer month 1, B) Resolution is over. Now: Year 1, "
                             "summer month 1, C) Battle.")
