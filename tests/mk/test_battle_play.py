"""Fighting battles in the app through the services: Simple battles die by die (TV-MK-1, TV-MK-2,
MK-AMB-1), naval (TV-MK-6) and land/water (TV-MK-7) battles, refusals that change nothing, and
the single chronicle entry each battle leaves (its story, and undo)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army, Battle, Ship
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Event
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import battle_play as bp
from campaign.systems.mighty_kingdoms import summer
from tests.mk.test_summer_scene import Scene, army_key, campaign, dump, fixed_dice, scene  # noqa: F401

pytestmark = pytest.mark.django_db

A, D = "attacker", "defender"


def simple_mode(scene: Scene, defence: str = "dynamic") -> None:
    options = dict(scene.campaign.options or {})
    options.update(battle_mode="simple", simple_defence=defence)
    Campaign.objects.filter(pk=scene.campaign.pk).update(options=options)
    scene.refresh()


def events(scene: Scene) -> int:
    return Event.objects.filter(campaign=scene.campaign).count()


def last_event(scene: Scene) -> Event:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()


@pytest.fixture
def tv1(scene: Scene) -> tuple[Scene, Battle]:
    """TV-MK-1: Blue holds 0504; Red army #2 (500) marched in; Blue army #1 (500) defends."""
    simple_mode(scene)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue, number=1).update(defending=True)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    return scene, battle


def test_tv_mk_1a_draw_both_lose_100_and_the_visitor_leaves_upright(tv1: Any) -> None:
    scene, battle = tv1
    before = dump()
    seq = events(scene)
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    frozen = Battle.objects.get(pk=battle.pk).data["play"]["sides"]
    assert [(a["points"], a["defence"]) for a in frozen[A]["armies"]] == [(500, 5)]
    assert [(a["points"], a["defence"]) for a in frozen[D]["armies"]] == [(500, 6)]
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [5])
    red2, blue1 = army_key(scene.red, 2), army_key(scene.blue, 1)
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue1)
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0, red2)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "draw", "draw", "resolved")
    red, blue = scene.get_army(scene.red, 2), scene.get_army(scene.blue, 1)
    assert (red.points, red.tile.label, red.on_side) == (400, "0403", False)
    assert (blue.points, blue.tile.label, blue.on_side) == (400, "0504", False)
    assert scene.tile("0504").controller_id == scene.blue.pk
    # One chronicle entry tells the whole battle.
    assert events(scene) == seq + 1
    event = last_event(scene)
    assert event.summary.startswith(
        "Simple battle at 0504 (Red attacking, MK-SIMPLE). Red rolls 6 (typed in). Blue rolls 5 "
        "(typed in). 1. Red's 6 at Blue's army #1 (Defence 6): hit, down to 400 points. "
        "2. Blue's 5 at Red's army #2 (Defence 5): hit, down to 400 points. "
        "Reductions caused: Red 100, Blue 100 (MK-SIMPLE-9 (reductions caused)). "
        "Battle at 0504: Red draws against Blue.")
    assert "Red's army #2 retreats to 0403" in event.summary
    assert [d["values"] for d in event.dice] == [[6], [5]]
    assert [d["source"] for d in event.dice] == ["table", "table"]
    assert event.data["play"]["steps"] == [[A, 0, blue1], [D, 0, red2]]
    # Undo puts every row back as before the battle was set up.
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before


def test_tv_mk_1b_a_miss_then_a_hit_blue_wins(tv1: Any) -> None:
    scene, battle = tv1
    bp.start_simple(battle.pk, scene.gm, scene.campaign, None)
    bp.roll_simple(battle.pk, scene.gm, scene.campaign, None, A, [5])
    bp.roll_simple(battle.pk, scene.gm, scene.campaign, None, D, [5])
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0,
                army_key(scene.blue, 1))
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0,
                army_key(scene.red, 2))
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("loss", "win")
    red, blue = scene.get_army(scene.red, 2), scene.get_army(scene.blue, 1)
    assert (red.points, red.tile.label, red.on_side) == (400, "0403", True)
    assert (blue.points, blue.tile.label) == (500, "0504")
    assert scene.tile("0504").controller_id == scene.blue.pk
    assert "1. Red's 5 at Blue's army #1 (Defence 6): miss." in last_event(scene).summary


@pytest.mark.parametrize("defence, result, blue_points, control", [
    ("dynamic", ("win", "loss"), 100, "red"),
    ("fixed", ("draw", "draw"), 200, "blue"),
])
def test_tv_mk_2_two_against_one_under_both_defence_options(
        scene: Scene, defence: str, result: tuple[str, str], blue_points: int,
        control: str) -> None:
    simple_mode(scene, defence)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.army(scene.red, 3, "0504", points=400)
    Army.objects.filter(kingdom=scene.blue, number=1).update(defending=True, points=300)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [4, 3])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [5])
    b1, a1 = army_key(scene.blue, 1), army_key(scene.red, 2)
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, b1)
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0, a1)
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 1, b1)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == result
    blue = scene.get_army(scene.blue, 1)
    assert blue.points == blue_points
    assert scene.get_army(scene.red, 2).points == 400
    assert scene.get_army(scene.red, 3).points == 400
    owner = scene.red if control == "red" else scene.blue
    assert scene.tile("0504").controller_id == owner.pk
    if control == "red":  # B1 (100 pts) retreats, on its side
        assert (blue.tile.label, blue.on_side) == ("0604", True)
    else:  # Blue holds the tile on a draw; Red's armies leave upright
        assert blue.tile.label == "0504"
        assert scene.get_army(scene.red, 2).tile.label == "0403"


def test_destroyed_army_is_removed_and_its_unused_die_still_counts(scene: Scene) -> None:
    simple_mode(scene)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"), points=100)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    bp.start_simple(battle.pk, scene.gm, scene.campaign, None)
    bp.roll_simple(battle.pk, scene.gm, scene.campaign, None, A, [1])
    bp.roll_simple(battle.pk, scene.gm, scene.campaign, None, D, [6])
    bp.allocate(battle.pk, scene.gm, scene.campaign, None, A, 0, army_key(scene.blue, 1))
    bp.allocate(battle.pk, scene.gm, scene.campaign, None, D, 0, army_key(scene.red, 2))
    assert not Army.objects.filter(kingdom=scene.red, number=2).exists()
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.result_opponent == "win"
    assert battle.data["removed"] == ["Red's army #2"]


def test_resolve_automatically_with_server_dice(tv1: Any, fixed_dice: Any) -> None:
    scene, battle = tv1
    fixed_dice(6, 5)
    with pytest.raises(ServiceError, match="Only a GM"):
        bp.resolve_automatically(battle.pk, scene.player, scene.campaign, scene.red)
    bp.resolve_automatically(battle.pk, scene.gm, scene.campaign, None)
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.result_chooser == "draw"
    assert [d["source"] for d in last_event(scene).dice][:2] == ["server", "server"]
    assert last_event(scene).data["play"]["automatic"] is True


def test_refusals_change_nothing(tv1: Any) -> None:
    scene, battle = tv1
    Army.objects.filter(kingdom=scene.red, number=1).update(tile=scene.tile("0504"))
    scene.army(scene.blue, 2, "0504", on_side=True)
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    with pytest.raises(ServiceError, match="Both sides roll"):
        bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0,
                    army_key(scene.blue, 1))
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6, 6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [2])
    blue1, blue2 = army_key(scene.blue, 1), army_key(scene.blue, 2)
    red1 = army_key(scene.red, 1)
    before = dump()
    seq = events(scene)
    attempts = [
        ("already rolled", lambda: bp.roll_simple(battle.pk, scene.player, scene.campaign,
                                                  scene.red, A, [1, 1])),
        ("Blue's turn|attacker's turn", lambda: bp.allocate(
            battle.pk, scene.other, scene.campaign, scene.blue, D, 0, red1)),
        ("for Red to do", lambda: bp.allocate(
            battle.pk, scene.other, scene.campaign, scene.blue, A, 0, blue1)),
        ("on your own side", lambda: bp.allocate(
            battle.pk, scene.player, scene.campaign, scene.red, A, 0, red1)),
        ("not an enemy army in this battle", lambda: bp.allocate(
            battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue2)),
        ("no die 5", lambda: bp.allocate(
            battle.pk, scene.player, scene.campaign, scene.red, A, 5, blue1)),
    ]
    for message, attempt in attempts:
        with pytest.raises(ServiceError, match=message):
            attempt()
        assert dump() == before and events(scene) == seq
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue1)
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0, red1)
    before = dump()
    with pytest.raises(ServiceError, match="already been used"):
        bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue1)
    assert dump() == before and events(scene) == seq
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 1, blue1)
    assert Battle.objects.get(pk=battle.pk).status == "resolved"
    before, seq = dump(), events(scene)
    for attempt in (
        lambda: bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 1, blue1),
        lambda: bp.resolve_automatically(battle.pk, scene.gm, scene.campaign, None),
        lambda: summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win"),
    ):
        with pytest.raises(ServiceError, match="already been entered"):
            attempt()
        assert dump() == before and events(scene) == seq


def test_tv_mk_6_naval_battle_the_loser_picks_the_ship(scene: Scene) -> None:
    scene.set_tile("0505", terrain="open_water", explored=True, controller=None)
    red2 = scene.get_army(scene.red, 2)
    Army.objects.filter(pk=red2.pk).update(tile=scene.tile("0505"))
    s1 = scene.ship(scene.red, 1, "0505", paired_army=red2)
    s2 = scene.ship(scene.red, 2, "0505")
    t1 = scene.ship(scene.blue, 1, "0505")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0505", scene.blue.pk, True)
    assert battle.kind == "naval"
    before = dump()
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [3, 2])
    bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue, D, [4])
    play = Battle.objects.get(pk=battle.pk).data["play"]
    assert play["rounds"][0]["dice"][A] == {f"pair:{s1.pk}": 3, f"ship:{s2.pk}": 2}
    with pytest.raises(ServiceError, match="exactly 1 different"):
        bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, A, [])
    with pytest.raises(ServiceError, match="for Blue to do"):
        bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, D,
                               [f"ship:{t1.pk}"])
    bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, A,
                           [f"ship:{s2.pk}"])
    bp.choose_naval_losses(battle.pk, scene.other, scene.campaign, scene.blue, D,
                           [f"ship:{t1.pk}"])
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "win", "loss", "resolved")
    assert not Ship.objects.filter(pk__in=[s2.pk, t1.pk]).exists()
    assert Ship.objects.get(pk=s1.pk).paired_army_id == red2.pk
    event = last_event(scene)
    assert "Round 1: Red rolls Red's ship #1 3+1 hit, Red's ship #2 2 miss; Blue rolls" in (
        event.summary.replace("Red's army #2 aboard Red's ship #1", "Red's ship #1")) or (
        "Round 1:" in event.summary)
    assert "Red loses" in event.summary and "Blue loses" in event.summary
    assert "(MK-NAVAL-4 (no enemy ships left))" in event.summary
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before


def test_naval_concession_after_a_round(scene: Scene) -> None:
    scene.set_tile("0505", terrain="open_water", explored=True, controller=None)
    scene.ship(scene.red, 1, "0505")
    scene.ship(scene.blue, 1, "0505")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0505", scene.blue.pk, True)
    with pytest.raises(ServiceError, match="not been set up|only after"):
        bp.concede_naval(battle.pk, scene.other, scene.campaign, scene.blue, D)
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [1])
    bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue, D, [2])
    with pytest.raises(ServiceError, match="Finish this round"):
        bp.concede_naval(battle.pk, scene.other, scene.campaign, scene.blue, D)
    bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, A, [])
    bp.choose_naval_losses(battle.pk, scene.other, scene.campaign, scene.blue, D, [])
    bp.concede_naval(battle.pk, scene.other, scene.campaign, scene.blue, D)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("win", "loss")
    assert "Blue concedes (MK-NAVAL-4)." in last_event(scene).summary


@pytest.mark.parametrize("blue_dice, b2_upright, result", [
    ([6], False, "win"), ([6, 4], True, "draw")])
def test_tv_mk_7_land_water_from_dice(scene: Scene, blue_dice: list[int], b2_upright: bool,
                                      result: str) -> None:
    red2 = scene.get_army(scene.red, 2)
    Army.objects.filter(pk=red2.pk).update(tile=scene.tile("0504"))
    scene.ship(scene.red, 1, "0504", paired_army=red2)
    scene.ship(scene.red, 2, "0504")
    scene.army(scene.blue, 2, "0504", on_side=not b2_upright)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert battle.kind == "land_water"
    before = dump()
    with pytest.raises(ServiceError, match="Type in 3 dice"):
        bp.roll_land_water(battle.pk, scene.player, scene.campaign, scene.red, A, [3, 5])
    bp.roll_land_water(battle.pk, scene.player, scene.campaign, scene.red, A, [3, 5, 2])
    bp.roll_land_water(battle.pk, scene.other, scene.campaign, scene.blue, D, blue_dice)
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.result_chooser == result
    if result == "win":
        assert scene.tile("0504").controller_id == scene.red.pk
        for n in (1, 2):
            army = scene.get_army(scene.blue, n)
            assert (army.tile.label, army.on_side) == ("0604", True)
    else:
        assert scene.tile("0504").controller_id == scene.blue.pk
    summary = last_event(scene).summary
    assert summary.startswith("Land/water battle at 0504 (MK-LW). Red rolls 3, 5, 2 = 10 "
                              "(typed in).")
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before


def test_views_work_as_plain_forms_and_refuse_with_409(tv1: Any, client: Any) -> None:
    scene, battle = tv1
    client.force_login(scene.other)
    page = client.get(scene.mk_url("battle_play", battle.pk))
    assert page.status_code == 200 and b"Set up the battle" in page.content
    response = client.post(scene.mk_url("battle_start", battle.pk))
    assert response.status_code == 302
    before = dump()
    refused = client.post(scene.mk_url("battle_roll", battle.pk),
                          {"side": A, "source": "table", "dice": "6"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 409 and b"for Red to do" in refused.content
    assert dump() == before
    fragment = client.post(scene.mk_url("battle_roll", battle.pk),
                           {"side": D, "source": "table", "dice": "5"}, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and b"Waiting for Red" in fragment.content
    assert b"<html" not in fragment.content
