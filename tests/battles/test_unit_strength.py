"""Unit Strength on real rows: record_unit_results (MK-US-1..4, MK-AMB-31) and the Reform check
(MK-REFORM-5..7, MK-US-7), with the digest's worked example TV-MK-4."""

from __future__ import annotations

import pytest

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.models import Campaign, Event
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import forces as services
from campaign.systems.mighty_kingdoms.models import Ship
from tests.battles.conftest import World, dump, unit

pytestmark = pytest.mark.django_db


def status(world: World, name: str) -> services.UnitStatus:
    row = Unit.objects.get(name=name, army_list__army__campaign=world.campaign)
    return services.unit_statuses([row])[0]


@pytest.fixture
def lists(world: World) -> World:
    """Red army #1: a Regiment (base 2), a Horde (base 3) and a Hero (base 0); Blue army #1: ten
    troops (base 1) to be routed as the examples need."""
    world.write(world.get(world.red, 1), [unit("Ironguard", "regiment", 150, 2),
                                          unit("Shieldwall", "horde", 200, 3),
                                          unit("Garrek", "hero", 100, 0)])
    world.write(world.get(world.blue, 1),
                [unit(f"Troop {n}", "troop", 50, 1) for n in range(1, 11)])
    return world


def test_tv_mk_4a_a_regiment_routed_four_times_is_destroyed_at_reform(lists: World) -> None:
    world = lists
    fought_at, totals = [], []
    for n in range(4):
        fought_at.append(status(world, "Ironguard").in_battle)
        world.record(world.fight(), Ironguard=(False, True))
        totals.append(status(world, "Ironguard").total)
        if n < 3:
            assert world.reform()[0] == []  # -1 and above survive Reform (MK-US-7)
    assert totals == [1, 0, -1, -2]
    assert fought_at == [2, 1, 0, 0]  # battles 3 and 4 at US 0, clamped (MK-US-6)
    history = status(world, "Ironguard").history
    assert [(h.delta, h.total) for h in history] == [(-1, 1), (-1, 0), (-1, -1), (-1, -2)]
    assert history[0].label.startswith(f"Battle at {world.front.label}")
    notes, event = world.reform()
    assert notes == ["Red's army #1 loses Ironguard: Unit Strength -2 (MK-REFORM-5)."]
    assert notes[0] in event.summary
    ironguard = Unit.objects.get(name="Ironguard")
    assert (ironguard.destroyed_reason, ironguard.destroyed_year, ironguard.destroyed_month,
            ironguard.destroyed_season) == ("reform", 1, 1, "summer")
    # The army keeps its other units, and a destroyed unit is never destroyed twice.
    assert not services.is_removed(world.get(world.red, 1))
    assert world.reform()[0] == []


def test_tv_mk_4b_routing_an_enemy_then_being_routed_nets_zero(lists: World) -> None:
    world = lists
    world.record(world.fight(), Ironguard=(False, True))
    events = world.record(world.fight(), Ironguard=(True, True), **{"Troop 1": (False, True)})
    assert sorted((e.unit.name, e.delta, e.reason) for e in events) == [
        ("Ironguard", -1, "routed"), ("Ironguard", 1, "routed_enemy"),
        ("Troop 1", -1, "routed")]
    world.record(world.fight(), Ironguard=(False, True))
    world.record(world.fight(), Ironguard=(False, True))
    history = status(world, "Ironguard").history
    totals_after_each_battle = [history[0].total, history[2].total, history[3].total,
                                history[4].total]
    assert totals_after_each_battle == [1, 1, 0, -1]
    assert world.reform()[0] == []  # -1 > -2: not destroyed
    assert not Unit.objects.get(name="Ironguard").destroyed


def test_tv_mk_4c_totals_above_three_are_kept_but_fought_at_three(lists: World) -> None:
    world = lists
    fought_at = []
    for n in (1, 2):
        fought_at.append(status(world, "Shieldwall").in_battle)
        world.record(world.fight(), Shieldwall=(True, False), **{f"Troop {n}": (False, True)})
    fought_at.append(status(world, "Shieldwall").in_battle)
    assert status(world, "Shieldwall").total == 5
    assert [h.total for h in status(world, "Shieldwall").history] == [4, 5]
    assert fought_at == [3, 3, 3]  # battles 2 and 3 at US 3 (MK-US-6)
    for _ in range(6):
        world.record(world.fight(), Shieldwall=(False, True))
    assert status(world, "Shieldwall").total == -1
    assert world.reform()[0] == []
    world.record(world.fight(), Shieldwall=(False, True))
    assert status(world, "Shieldwall").total == -2
    notes, _ = world.reform()
    assert notes == ["Red's army #1 loses Shieldwall: Unit Strength -2 (MK-REFORM-5)."]


def test_mk_reform_7_an_army_whose_last_unit_is_destroyed_is_removed(lists: World) -> None:
    world = lists
    red1 = world.get(world.red, 1)
    ship = Ship.objects.create(campaign=world.campaign, kingdom=world.red, number=1,
                               tile=world.front, paired_army=red1)
    routs = {"Ironguard": (False, True), "Shieldwall": (False, True), "Garrek": (False, True)}
    for _ in range(2):
        world.record(world.fight(), **routs)
    notes, _ = world.reform()
    assert notes == ["Red's army #1 loses Garrek: Unit Strength -2 (MK-REFORM-5)."]
    for _ in range(2):
        world.record(world.fight(), Ironguard=(False, True))
    for _ in range(3):
        world.record(world.fight(), Shieldwall=(False, True))
    notes, event = world.reform()
    assert notes == [
        "Red's army #1 loses Ironguard: Unit Strength -2 (MK-REFORM-5).",
        "Red's army #1 loses Shieldwall: Unit Strength -2 (MK-REFORM-5).",
        "Red's army #1 has no unit left and is removed (MK-REFORM-7).",
    ]
    assert "is removed (MK-REFORM-7)" in event.summary
    red1 = world.get(world.red, 1)
    assert services.is_removed(red1) and red1.tile is None
    assert red1.data["removed"]["rule"] == "MK-REFORM-7"
    assert Ship.objects.get(pk=ship.pk).paired_army is None  # the ship sails on alone
    # Its list stays, every unit crossed off, and the number is not reused.
    assert all(u.destroyed for u in Unit.objects.filter(army_list__army=red1))
    assert world.reform()[0] == []


def test_mk_reform_8_simple_mode_has_no_unit_steps(lists: World) -> None:
    world = lists
    for _ in range(4):
        world.record(world.fight(), Ironguard=(False, True))
    from tests.battles.conftest import set_options

    set_options(world.campaign, battle_mode="simple")
    assert world.reform()[0] == []
    assert not Unit.objects.get(name="Ironguard").destroyed


def test_mk_us_3_no_more_credits_than_enemy_units_routed(lists: World) -> None:
    world = lists
    battle = world.fight()
    before = dump()
    with pytest.raises(ServiceError, match=r"Red: 2 units are credited .* only 1 enemy units"):
        world.record(battle, Ironguard=(True, False), Shieldwall=(True, False),
                     **{"Troop 1": (False, True)})
    with pytest.raises(ServiceError, match=r"Blue: 1 units are credited .* only 0"):
        world.record(battle, **{"Troop 1": (True, False)})
    assert dump() == before
    world.record(battle, Ironguard=(True, False), Shieldwall=(False, True),
                 **{"Troop 1": (False, True), "Troop 2": (True, False)})
    assert status(world, "Ironguard").total == 3
    assert status(world, "Shieldwall").total == 2
    assert status(world, "Troop 2").total == 2


def test_results_are_entered_once_and_only_for_kow_land_battles(lists: World) -> None:
    world = lists
    battle = world.fight()
    world.record(battle, Ironguard=(False, True))
    with pytest.raises(ServiceError, match="already in"):
        world.record(battle, Shieldwall=(False, True))
    simple = world.fight(mode="simple")
    with pytest.raises(ServiceError, match=r"Only Kings of War land battles .* \(MK-US-8\)"):
        world.record(simple, Ironguard=(False, True))
    naval = world.fight()
    Battle.objects.filter(pk=naval.pk).update(kind="naval")
    with pytest.raises(ServiceError, match="MK-US-8"):
        world.record(naval, Ironguard=(False, True))
    # A unit of an army that did not fight cannot be entered.
    world.write(world.get(world.red, 2), [unit("Reserve", points=100)])
    with pytest.raises(ServiceError, match="Only units of the armies that fought"):
        world.record(world.fight(), Reserve=(False, True))
    assert UnitStrengthEvent.objects.count() == 1


def test_a_result_with_no_change_is_still_entered_once(lists: World) -> None:
    world = lists
    battle = world.fight()
    assert world.record(battle, Ironguard=(False, False)) == []
    assert Battle.objects.get(pk=battle.pk).data["unit_results"] == {
        str(Unit.objects.get(name="Ironguard").pk): {"routed_enemy": False, "routed": False}}
    assert Event.objects.filter(kind="unit_strength.battle").latest("seq").summary == (
        f"Unit Strength after the battle at {world.front.label} (MK-US-1/2): no unit gains or "
        "loses.")
    with pytest.raises(ServiceError, match="already in"):
        world.record(battle, Ironguard=(False, True))


def test_recording_results_reveals_the_lists_and_tells_the_chronicle(lists: World) -> None:
    world = lists
    battle = world.fight()
    world.record(battle, Ironguard=(True, False), **{"Troop 3": (False, True)})
    revealed = ArmyList.objects.filter(revealed_at_battle=battle)
    assert {a.army.number for a in revealed} == {1}
    assert {a.army.kingdom.name for a in revealed} == {"Red", "Blue"}
    assert not ArmyList.objects.filter(army=world.get(world.red, 2)).exists()
    event = Event.objects.filter(kind="unit_strength.battle").latest("seq")
    assert event.summary == (
        f"Unit Strength after the battle at {world.front.label} (MK-US-1/2): Red's Ironguard +1 "
        "(now 3); Blue's Troop 3 -1 (now 0).")
    assert event.visibility == "public"
    assert set(UnitStrengthEvent.objects.values_list("event_id", flat=True)) == {event.pk}
    assert set(UnitStrengthEvent.objects.values_list("year", "month", "season", "phase")) == {
        (1, 1, "summer", "C")}


def test_army_units_gives_the_print_sheets_their_rows(lists: World) -> None:
    world = lists
    world.record(world.fight(), Ironguard=(True, False), **{"Troop 1": (False, True)})
    world.record(world.fight(), Ironguard=(False, True))
    rows = services.army_units(world.get(world.red, 1))
    assert [(r["name"], r["unit_type"], r["points"], r["unit_strength"], r["us_history"],
             r["in_battle"]) for r in rows] == [
        ("Ironguard", "regiment", 150, 2, [3, 2], 2),
        ("Shieldwall", "horde", 200, 3, [], 3),
        ("Garrek", "hero", 100, 0, [], 0),
    ]
    assert services.army_units(world.get(world.red, 2)) == []


def test_battle_armies_follow_the_fighting_tokens(world: World) -> None:
    ship = Ship.objects.create(campaign=world.campaign, kingdom=world.red, number=1,
                               tile=world.front, paired_army=world.get(world.red, 2))
    battle = Battle.objects.create(
        campaign=world.campaign, year=1, month=1, seq=1, tile=world.front, kind="land_water",
        chooser=world.red, opponent=world.blue,
        data={"chooser_fighters": [f"pair:{ship.pk}", "army:999999"],
              "opponent_fighters": [f"army:{world.get(world.blue, 1).pk}"]})
    assert [(a.kingdom.name, a.number) for a in services.battle_armies(battle)] == [
        ("Red", 2), ("Blue", 1)]
    # Without recorded fighters: every army of the two kingdoms on the tile.
    Battle.objects.filter(pk=battle.pk).update(data={})
    battle.refresh_from_db()
    assert sorted((a.kingdom.name, a.number) for a in services.battle_armies(battle)) == [
        ("Blue", 1), ("Red", 1)]
    assert Army.objects.count() == 3


def test_results_are_refused_for_a_battle_that_is_not_pending(lists: World) -> None:
    world = lists
    over = world.fight()
    Battle.objects.filter(pk=over.pk).update(result_chooser="win", result_opponent="loss",
                                             status=Battle.Status.RESOLVED)
    earlier = world.fight()
    before, events = dump(), Event.objects.count()
    with pytest.raises(ServiceError) as refused:
        world.record(over, Ironguard=(False, True))
    assert str(refused.value) == (
        f"The battle at {world.front.label} is over: its result is in, so nothing more can be "
        "entered for it (undo the result to enter it again).")
    Campaign.objects.filter(pk=world.campaign.pk).update(month=2)
    with pytest.raises(ServiceError) as refused:
        world.record(earlier, Ironguard=(False, True))
    assert str(refused.value) == (
        f"The battle at {world.front.label} belongs to year 1, month 1; results are entered "
        "only for this month's battles, in C) Battle.")
    assert dump() == before and Event.objects.count() == events


def test_mk_reform_5_checks_every_list_in_use_drafts_too(world: World) -> None:
    """A Hero of a draft list hurt twice on quests (MK-QUEST-4) is destroyed at Reform like any
    other unit, and the army with it when it was the last unit (MK-REFORM-7)."""
    army = world.get(world.red, 2)
    hero = services.add_unit(army, unit("Garrek", "hero", 100, 0), world.player)
    for _ in range(2):
        UnitStrengthEvent.objects.create(unit=hero, delta=-1, reason="quest")
    assert not ArmyList.objects.get(army=army).is_fixed
    notes, _ = world.reform()
    assert notes == ["Red's army #2 loses Garrek: Unit Strength -2 (MK-REFORM-5).",
                     "Red's army #2 has no unit left and is removed (MK-REFORM-7)."]
