"""Fighting battles in the app through the services: Simple battles die by die (TV-MK-1, TV-MK-2,
MK-AMB-1), naval (TV-MK-6) and land/water (TV-MK-7) battles, refusals that change nothing, and
the chronicle entries each battle leaves: one per step (set-up, each roll, each allocation or
choice of losses), the last step and the outcome together, so undoing the result returns to the
moment before the last step and undoing every step to the moment before the set-up."""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Army, Battle
from campaign.chronicle import latest_standing, undo_latest
from campaign.models import Campaign, Event
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import battle_play as bp
from campaign.systems.mighty_kingdoms import summer
from campaign.systems.mighty_kingdoms.models import Ship
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


def undo_back_to(scene: Scene, seq: int) -> int:
    """Undo, latest first, every event after ``seq``; how many were undone."""
    undone = 0
    while (latest := latest_standing(scene.campaign)) is not None and latest.seq > seq:
        undo_latest(scene.campaign, scene.gm, expected_seq=latest.seq)
        undone += 1
    return undone


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
    start_seq = last_event(scene).seq
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    frozen = Battle.objects.get(pk=battle.pk).data["play"]["sides"]
    assert [(a["points"], a["defence"]) for a in frozen[A]["armies"]] == [(500, 5)]
    assert [(a["points"], a["defence"]) for a in frozen[D]["armies"]] == [(500, 6)]
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [5])
    red2, blue1 = army_key(scene.red, 2), army_key(scene.blue, 1)
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue1)
    before_last = dump()
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0, red2)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "draw", "draw", "resolved")
    red, blue = scene.get_army(scene.red, 2), scene.get_army(scene.blue, 1)
    assert (red.points, red.tile.label, red.on_side) == (400, "0403", False)
    assert (blue.points, blue.tile.label, blue.on_side) == (400, "0504", False)
    assert scene.tile("0504").controller_id == scene.blue.pk
    # An entry per step (set-up, two rolls, the first allocation); the last allocation and the
    # outcome are one entry, which tells the whole battle.
    assert events(scene) == seq + 5
    steps = Event.objects.filter(campaign=scene.campaign, seq__gt=start_seq).order_by("seq")
    assert [(e.kind, e.summary, e.dice) for e in steps[:4]] == [
        ("summer.battle_step", "Battle at 0504: Simple battle set up, Red attacking Blue "
         "(MK-SIMPLE-1).", []),
        ("summer.battle_step", "Battle at 0504: Red rolls 6 (typed in, MK-SIMPLE-4).",
         [{"purpose": "Red's battle dice", "values": [6], "source": "table"}]),
        ("summer.battle_step", "Battle at 0504: Blue rolls 5 (typed in, MK-SIMPLE-4).",
         [{"purpose": "Blue's battle dice", "values": [5], "source": "table"}]),
        ("summer.battle_step", "Battle at 0504: Red puts a 6 on Blue's army #1 (MK-SIMPLE-5).",
         []),
    ]
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
    # Undoing the result returns to the moment before the last allocation; undoing every step
    # puts every row back as before the battle was set up.
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before_last
    assert undo_back_to(scene, start_seq) == 4
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


def test_mk_simple_7_a_destroyed_armys_unused_die_is_still_allocated(scene: Scene) -> None:
    """Red army #2 (500) attacks Blue army #1, down to 100 points. Red's 6 destroys Blue #1
    before Blue allocated its die; Blue's 6 stays in Blue's pool and still hits (MK-SIMPLE-7).
    Blue has no army left, so Red wins (MK-SIMPLE-9), and Blue army #1 leaves play with its
    row kept (MK-SIMPLE-6)."""
    simple_mode(scene)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue, number=1).update(points=100)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    before, start_seq = dump(), last_event(scene).seq
    bp.start_simple(battle.pk, scene.gm, scene.campaign, None)
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [6])
    red2, blue1 = army_key(scene.red, 2), army_key(scene.blue, 1)
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0, blue1)
    view = bp.simple_view(Battle.objects.get(pk=battle.pk).data["play"])
    assert [a["destroyed"] for a in view["sides"][D]["armies"]] == [True]
    assert (view["turn"], view["sides"][D]["pool"]) == (D, [{"index": 0, "value": 6,
                                                             "used": False}])
    before_last = dump()
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0, red2)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "win", "loss", "resolved")
    assert battle.data["removed"] == ["Blue's army #1"]
    red, blue = scene.get_army(scene.red, 2), scene.get_army(scene.blue, 1)
    assert (red.points, red.tile.label) == (400, "0504")
    assert (blue.points, blue.tile, blue.on_side, blue.data["removed"]) == (0, None, False, {
        "year": 1, "season": "summer", "month": 1, "phase": "C", "sub_phase": "",
        "reason": "destroyed at 0 points", "rule": "MK-SIMPLE-6"})
    assert scene.tile("0504").controller_id == scene.red.pk
    assert last_event(scene).summary == (
        "Simple battle at 0504 (Red attacking, MK-SIMPLE). Red rolls 6 (typed in). Blue rolls 6 "
        "(typed in). 1. Red's 6 at Blue's army #1 (Defence 1): hit, destroyed. 2. Blue's 6 at "
        "Red's army #2 (Defence 5): hit, down to 400 points. Reductions caused: Red 100, Blue "
        "100 (MK-SIMPLE-9 (only one side has armies left)). Battle at 0504: Red wins against "
        "Blue. Blue's army #1 is lost in the fighting. 0504 now belongs to Red (MK-RESULT-3). "
        "Red may move one token on to an adjacent tile it controls (MK-RESULT-3).")
    # Its number is never given again: the next recruit of Blue is army #2.
    from campaign.systems.mighty_kingdoms.winter_services import last_army_number
    assert last_army_number(scene.blue.pk) == 1
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before_last
    assert undo_back_to(scene, start_seq) == 4
    assert dump() == before


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
    before, seq = dump(), events(scene)
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
    before, start_seq = dump(), last_event(scene).seq
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
    before_last = dump()
    bp.choose_naval_losses(battle.pk, scene.other, scene.campaign, scene.blue, D,
                           [f"ship:{t1.pk}"])
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent, battle.status) == (
        "win", "loss", "resolved")
    # Sunk ships leave the map but keep their rows (numbers are never reused).
    sunk = {"year": 1, "season": "summer", "month": 1, "phase": "C", "sub_phase": "",
            "reason": "sunk", "rule": "MK-NAVAL-3"}
    for ship in Ship.objects.filter(pk__in=[s2.pk, t1.pk]):
        assert (ship.tile, ship.paired_army, ship.data["removed"]) == (None, None, sunk)
    assert Ship.objects.get(pk=s1.pk).paired_army_id == red2.pk
    assert last_event(scene).summary == (
        "Naval battle at 0505 (Red attacking, MK-NAVAL). Round 1: Red rolls Red's ship #1 "
        "carrying army #2 3+1 hit, Red's ship #2 2 miss; Blue rolls Blue's ship #1 4 hit. Red "
        "loses Red's ship #2; Blue loses Blue's ship #1 (the owner's choice, MK-NAVAL-3). "
        "Tokens sunk: Red 1, Blue 1 (MK-NAVAL-4 (no enemy ships left)). Battle at 0505: Red "
        "wins against Blue. Red's ship #2 is lost in the fighting. Blue's ship #1 is lost in "
        "the fighting.")
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before_last
    assert undo_back_to(scene, start_seq) == 3
    assert dump() == before


def test_mk_naval_4_mk_amb_12_concessions_are_offered_chooser_first(scene: Scene) -> None:
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
    play = Battle.objects.get(pk=battle.pk).data["play"]
    assert bp.naval_offer(play) == A
    before, seq = dump(), events(scene)
    chooser_first = ("Red chose this battle, so Red answers first after round 1: concede, or "
                     "fight on by rolling the next round's dice (MK-AMB-12).")
    for attempt in (lambda: bp.concede_naval(battle.pk, scene.other, scene.campaign,
                                             scene.blue, D),
                    lambda: bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue,
                                          D, [6])):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert str(refused.value) == chooser_first
        assert dump() == before and events(scene) == seq
    # Red fights on by rolling round 2; now Blue may concede, and Red may not.
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [5])
    assert bp.naval_offer(Battle.objects.get(pk=battle.pk).data["play"]) == D
    with pytest.raises(ServiceError, match="Red chose to fight on after round 1"):
        bp.concede_naval(battle.pk, scene.player, scene.campaign, scene.red, A)
    bp.concede_naval(battle.pk, scene.other, scene.campaign, scene.blue, D)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("win", "loss")
    assert len(battle.data["play"]["rounds"]) == 1  # Red's unused round-2 die is dropped
    summary = last_event(scene).summary
    assert summary.startswith(
        "Naval battle at 0505 (Red attacking, MK-NAVAL). Round 1: Red rolls Red's ship #1 1 "
        "miss; Blue rolls Blue's ship #1 2 miss. Nothing sinks. Blue concedes (MK-NAVAL-4). "
        "Tokens sunk: Red 0, Blue 0 (MK-NAVAL-4 (concession)).")


def test_mk_amb_12_the_chooser_may_concede_first(scene: Scene) -> None:
    scene.set_tile("0505", terrain="open_water", explored=True, controller=None)
    scene.ship(scene.red, 1, "0505")
    scene.ship(scene.blue, 1, "0505")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0505", scene.blue.pk, True)
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [1])
    bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue, D, [1])
    bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, A, [])
    bp.choose_naval_losses(battle.pk, scene.other, scene.campaign, scene.blue, D, [])
    bp.concede_naval(battle.pk, scene.player, scene.campaign, scene.red, A)
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("loss", "win")
    assert "Red concedes (MK-NAVAL-4)." in last_event(scene).summary


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
    before, start_seq = dump(), last_event(scene).seq
    with pytest.raises(ServiceError, match="Type in 3 dice"):
        bp.roll_land_water(battle.pk, scene.player, scene.campaign, scene.red, A, [3, 5])
    bp.roll_land_water(battle.pk, scene.player, scene.campaign, scene.red, A, [3, 5, 2])
    before_last = dump()
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
    # The first roll is an entry of its own: undoing the result leaves it.
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before_last
    play = Battle.objects.get(pk=battle.pk).data["play"]
    assert (play["dice"], play["source"]) == ({A: [3, 5, 2], D: None}, {A: "table", D: None})
    assert undo_back_to(scene, start_seq) == 1
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


# -- rules checked by name through the services ------------------------------------------------


def test_mk_land_1_mk_land_3_every_army_fights_one_simple_battle(scene: Scene) -> None:
    """In Simple mode a land battle is fought die by die (MK-LAND-3), and every upright army
    of both kingdoms on the tile takes part in it (MK-LAND-1); an army on its side does not
    (MK-SIMPLE-1, MK-AMB-5)."""
    simple_mode(scene)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.army(scene.red, 3, "0504", points=300)
    scene.army(scene.blue, 2, "0504", points=200)
    scene.army(scene.blue, 3, "0504", on_side=True)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert bp.play_type(battle) == bp.SIMPLE
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    sides = Battle.objects.get(pk=battle.pk).data["play"]["sides"]
    assert [(a["name"], a["points"], a["defence"]) for a in sides[A]["armies"]] == [
        ("Red's army #2", 500, 5), ("Red's army #3", 300, 3)]
    assert [(a["name"], a["points"], a["defence"]) for a in sides[D]["armies"]] == [
        ("Blue's army #1", 500, 5), ("Blue's army #2", 200, 2)]


def test_mk_bsel_6_mk_amb_3_the_chooser_is_the_attacker_and_allocates_first(
        scene: Scene) -> None:
    """Blue chooses the second battle (at 0303, after Red chose 0504), so Blue attacks there."""
    simple_mode(scene)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.army(scene.blue, 2, "0303")
    scene.at("C")
    summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    battle = summer.choose_battle(scene.blue, scene.other, "0303", scene.red.pk)
    bp.start_simple(battle.pk, scene.other, scene.campaign, scene.blue)
    play = Battle.objects.get(pk=battle.pk).data["play"]
    assert (play["sides"][A]["kingdom"], play["sides"][D]["kingdom"]) == (scene.blue.pk,
                                                                          scene.red.pk)
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, D, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, A, [6])
    before = dump()
    with pytest.raises(ServiceError, match="attacker"):
        bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, D, 0,
                    army_key(scene.blue, 2))
    assert dump() == before
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, A, 0,
                army_key(scene.red, 1))
    step = bp.simple_view(Battle.objects.get(pk=battle.pk).data["play"])["steps"][0]
    assert (step["side"], step["die"], step["target"], step["hit"]) == (
        A, 6, "Red's army #1", True)


def test_mk_amb_5_an_army_on_its_side_sits_out_and_follows_the_result(tv1: Any) -> None:
    scene, battle = tv1
    scene.army(scene.blue, 2, "0504", on_side=True)
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    sides = Battle.objects.get(pk=battle.pk).data["play"]["sides"]
    assert [a["name"] for a in sides[D]["armies"]] == ["Blue's army #1"]
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [1])
    with pytest.raises(ServiceError, match="not an enemy army in this battle"):
        bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0,
                    army_key(scene.blue, 2))
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0,
                army_key(scene.blue, 1))
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0,
                army_key(scene.red, 2))
    assert Battle.objects.get(pk=battle.pk).result_chooser == "win"
    on_side = scene.get_army(scene.blue, 2)
    assert (on_side.points, on_side.tile.label, on_side.on_side) == (500, "0604", True)


def test_mk_simple_10_11_no_unit_strength_and_points_stay_lost(tv1: Any) -> None:
    """A Simple battle changes no Unit Strength (MK-SIMPLE-10); the 100 points each side lost
    stay lost, so the next month's battle starts from 400 (MK-SIMPLE-11)."""
    from battles.models import UnitStrengthEvent
    from campaign.systems.mighty_kingdoms.rules import battles as mkb

    scene, battle = tv1
    with pytest.raises(ServiceError, match=r"Only Kings of War land battles change Unit "
                                           r"Strength \(MK-US-8\)"):
        summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win",
                            units=[mkb.UnitBattleRecord("1", routed=True)])
    bp.start_simple(battle.pk, scene.player, scene.campaign, scene.red)
    bp.roll_simple(battle.pk, scene.player, scene.campaign, scene.red, A, [6])
    bp.roll_simple(battle.pk, scene.other, scene.campaign, scene.blue, D, [5])
    bp.allocate(battle.pk, scene.player, scene.campaign, scene.red, A, 0,
                army_key(scene.blue, 1))
    bp.allocate(battle.pk, scene.other, scene.campaign, scene.blue, D, 0,
                army_key(scene.red, 2))
    assert not UnitStrengthEvent.objects.exists()
    assert "Unit Strength" not in last_event(scene).summary
    # Next month Red marches back in: both armies start from 400 points, Defence 4.
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue).update(defending=False)  # gone at Reform (MK-AMB-7)
    scene.at("C", month=2)
    again = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    bp.start_simple(again.pk, scene.player, scene.campaign, scene.red)
    sides = Battle.objects.get(pk=again.pk).data["play"]["sides"]
    assert [(a["points"], a["defence"]) for s in (A, D) for a in sides[s]["armies"]] == [
        (400, 4), (400, 4)]


def test_mk_naval_6_the_results_table_follows_a_naval_battle(scene: Scene) -> None:
    """Blue concedes with two ships afloat: as losers they must leave 0505 for the open water
    of 0506 (no adjacent tile of Blue's takes a ship) and lie on their side (MK-RESULT-1,
    MK-AMB-15)."""
    for label in ("0505", "0506"):
        scene.set_tile(label, terrain="open_water", explored=True, controller=None)
    scene.ship(scene.red, 1, "0505")
    scene.ship(scene.blue, 1, "0505")
    scene.ship(scene.blue, 2, "0505")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0505", scene.blue.pk)
    assert battle.kind == "naval"
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [1])
    bp.roll_naval(battle.pk, scene.other, scene.campaign, scene.blue, D, [1, 1])
    bp.choose_naval_losses(battle.pk, scene.player, scene.campaign, scene.red, A, [])
    bp.choose_naval_losses(battle.pk, scene.other, scene.campaign, scene.blue, D, [])
    bp.roll_naval(battle.pk, scene.player, scene.campaign, scene.red, A, [2])  # fights on
    bp.concede_naval(battle.pk, scene.other, scene.campaign, scene.blue, D)
    ships = {s.number: (s.tile.label, s.on_side) for s in Ship.objects.filter(kingdom=scene.blue)}
    assert ships == {1: ("0506", True), 2: ("0506", True)}
    red_ship = Ship.objects.get(kingdom=scene.red)
    assert (red_ship.tile.label, red_ship.on_side) == ("0505", False)
    assert Battle.objects.get(pk=battle.pk).data["control"] == [None, None]  # open water


def test_mk_lw_3_the_roll_damages_nothing_only_the_result_does(scene: Scene) -> None:
    """Red's ship loses the land/water roll at 0504 and keeps every token; had Red no way out,
    the ship would be destroyed by the result (MK-RESULT-1), not by the dice."""
    scene.set_tile("0504", features=["coast"])
    scene.set_tile("0505", terrain="open_water", explored=True, controller=None)
    ship = scene.ship(scene.red, 1, "0504")
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert battle.kind == "land_water"
    bp.roll_land_water(battle.pk, scene.player, scene.campaign, scene.red, A, [1])
    bp.roll_land_water(battle.pk, scene.other, scene.campaign, scene.blue, D, [6])
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.data["removed"], battle.data["destroyed"]) == (
        "loss", [], [])
    ship.refresh_from_db()
    assert (ship.tile.label, ship.on_side) == ("0505", True)
    assert scene.get_army(scene.blue, 1).tile.label == "0504"
