"""Writing and fixing army lists through the services: the campaign's list rules (MK-SETUP-6,
MK-RECRUIT-4..6, MK-ADV-2..5, MK-ART-1), every problem listed, and nothing written on refusal."""

from __future__ import annotations

import pytest

from battles.models import ArmyList, Unit
from campaign.models import Event
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import forces as services
from tests.battles.conftest import World, dump, set_options, unit

pytestmark = pytest.mark.django_db

GOOD = [unit("Ironguard", "regiment", 145, 2), unit("Spears", "horde", 200, 3),
        unit("Garrek", "hero (infantry)", 150, 0, living_legend=True)]


def refused(world: World, army_number: int, entries: list, **kw: object) -> str:
    army = world.get(world.red, army_number)
    before = dump()
    events = Event.objects.count()
    with pytest.raises(services.ListRefused) as info:
        world.write(army, entries, **kw)  # type: ignore[arg-type]
    assert dump() == before and Event.objects.count() == events
    return str(info.value)


def test_mk_recruit_4_a_recruited_armys_list_is_fixed_under_its_own_rule(world: World) -> None:
    """The starting army's list is written at setup (MK-SETUP-6); a recruit's in winter, with
    the same 500 points (MK-RECRUIT-4): the chronicle cites the rule it was written under."""
    world.write(world.get(world.red, 2), GOOD)
    assert Event.objects.latest("seq").summary == (
        "Red writes and fixes the list of army #2: 3 units, 495 points (MK-RECRUIT-4).")


def test_a_500_point_list_is_fixed_and_locked(world: World) -> None:
    army = world.get(world.red, 1)
    army_list = world.write(army, GOOD + [unit("Scouts", "troop", 5, 1)])
    assert army_list.is_fixed and army_list.fixed_at is not None
    assert [(u.position, u.name, u.points) for u in Unit.objects.filter(army_list=army_list)] == [
        (1, "Ironguard", 145), (2, "Spears", 200), (3, "Garrek", 150), (4, "Scouts", 5)]
    event = Event.objects.latest("seq")
    assert event.summary == ("Red writes and fixes the list of army #1: 4 units, 500 points "
                             "(MK-SETUP-6).")
    assert (event.visibility, event.kingdom_id) == ("kingdom", world.red.pk)
    # MK-RECRUIT-6: only losses change it now.
    ironguard = Unit.objects.get(name="Ironguard")
    for change in (lambda: services.add_unit(army, unit("More"), world.player),
                   lambda: services.copy_unit(ironguard, world.player),
                   lambda: services.remove_unit(ironguard, world.player),
                   lambda: services.update_unit(ironguard, unit("Other"), world.player),
                   lambda: services.paste_army_list(army, "A, troop, 50; US 1", world.player),
                   lambda: services.fix_army_list(army, world.player)):
        with pytest.raises(ServiceError, match=r"is fixed: only losses change it now"):
            change()


def test_501_points_is_refused(world: World) -> None:
    message = refused(world, 1, GOOD + [unit("Scouts", "troop", 6, 1)])
    assert "The list totals 501 points; an army may have at most 500. (MK-SETUP-6)" in message


def test_an_allied_unit_in_the_starting_list_is_refused(world: World) -> None:
    message = refused(world, 1, [unit("Elf archers", "troop", 100, 1, allied=True)])
    assert ("Elf archers is an allied unit; allies come only as a whole allied army, never "
            "inside a list. (MK-SETUP-6)") in message
    assert "The starting army cannot be an allied army. (MK-SETUP-6)" in refused(
        world, 1, [unit("Elves", "troop", 100, 1)], allied=True)
    # Later armies may not take allied units either (MK-RECRUIT-4).
    assert "(MK-RECRUIT-4)" in refused(world, 2, [unit("Elves", "troop", 100, 1, allied=True)])


def test_every_problem_is_listed(world: World) -> None:
    army = world.get(world.red, 1)
    with pytest.raises(services.ListRefused) as info:
        world.write(army, [unit("Big", "horde", 480, 3), unit("Ally", "troop", 30, 1, allied=True),
                           unit("Nobody", "hero", 10, None)])
    assert [p.rule for p in info.value.problems] == ["MK-SETUP-6", "MK-SETUP-6", "MK-US-5"]
    assert "The list totals 520 points" in str(info.value)
    assert "Ally is an allied unit" in str(info.value)
    assert "Nobody: give its base Unit Strength" in str(info.value)


def _armies(world: World, *numbers: int, allied: tuple[int, ...] = ()) -> None:
    for n in numbers:
        army = world.get(world.red, n) if n <= 2 else world.army(world.red, n)
        world.write(army, [unit(f"Regiment {n}")], allied=n in allied)


def test_an_allied_army_needs_three_non_allied_armies(world: World) -> None:
    _armies(world, 1, 2)
    third = world.army(world.red, 3)
    message = refused(world, 3, [unit("Elves", "troop", 100, 1)], allied=True)
    assert ("An allied army needs 3 or more non-allied armies already; the kingdom has 2. "
            "(MK-RECRUIT-5)") in message
    assert third.pk
    _armies(world, 4)
    army_list = world.write(world.get(world.red, 3), [unit("Elves", "troop", 100, 1)],
                            allied=True)
    assert army_list.allied and world.get(world.red, 3).is_allied


def test_a_second_allied_army_is_refused(world: World) -> None:
    _armies(world, 1, 2, 3, 4, allied=(4,))
    world.army(world.red, 5)
    assert "The kingdom already has its one allied army. (MK-RECRUIT-5)" in refused(
        world, 5, [unit("Dwarves")], allied=True)
    # The recruit's own allied flag (set when it was bought) counts too.
    world.army(world.red, 6, is_allied=True)
    assert "already has its one allied army" in refused(world, 6, [unit("Dwarves")])


def test_living_legends_and_magic_items_are_unique_across_the_kingdom(world: World) -> None:
    world.write(world.get(world.red, 1), [
        unit("Garrek", "hero", 150, 0, living_legend=True),
        unit("Ironguard", "regiment", 145, 2, magic_item="Blessing of the Gods")])
    message = refused(world, 2, [unit("garrek", "hero", 150, 0, living_legend=True),
                                 unit("Spears", "horde", 200, 3,
                                      magic_item="blessing of the gods")])
    assert ("garrek is a Living Legend already in army #1; each appears once per kingdom. "
            "(MK-RECRUIT-4)") in message
    assert ("blessing of the gods is already carried in army #1; magic items are unique across "
            "the kingdom. (MK-RECRUIT-4)") in message
    # Twice in one list is refused too; another kingdom may have its own.
    assert "appears twice in this list" in refused(
        world, 2, [unit("A", magic_item="Orb"), unit("B", magic_item="Orb")])
    world.write(world.get(world.blue, 1), [unit("Garrek", "hero", 150, 0, living_legend=True,
                                                magic_item="Blessing of the Gods")])


def test_a_destroyed_living_legend_no_longer_counts(world: World) -> None:
    world.write(world.get(world.red, 1), [unit("Garrek", "hero", 150, 0, living_legend=True),
                                          unit("Ironguard")])
    Unit.objects.filter(name="Garrek").update(destroyed_reason="quest")
    world.write(world.get(world.red, 2), [unit("Garrek", "hero", 150, 0, living_legend=True)])


def test_artefacts_are_unique_across_the_campaign(world: World) -> None:
    world.write(world.get(world.red, 1), [unit("Ironguard")])
    world.write(world.get(world.blue, 1), [unit("Spears")])
    ironguard, spears = Unit.objects.get(name="Ironguard"), Unit.objects.get(name="Spears")
    with pytest.raises(ServiceError, match=r"not used in this campaign \(MK-CFG-3\)"):
        services.assign_artefact(ironguard, "Crown of Ages", world.player)
    set_options(world.campaign, module_artefacts=True)
    services.assign_artefact(ironguard, "Crown of Ages", world.player)
    before = dump()
    with pytest.raises(ServiceError, match=r"crown of ages is already held by another unit; each "
                                           r"artefact is unique across the campaign \(MK-ART-1\)"):
        services.assign_artefact(spears, "crown of ages", world.other)
    assert dump() == before
    services.assign_artefact(ironguard, "", world.player)
    services.assign_artefact(spears, "Crown of Ages", world.other)
    assert Unit.objects.get(name="Spears").artefact == "Crown of Ages"
    # Artefacts never count for points (MK-ART-4): the list is still 100 points.
    assert services.army_units(world.get(world.blue, 1))[0]["points"] == 100


def test_winter_recruits_follow_the_terrain_module(world: World) -> None:
    """MK-ADV-2..5: with the module on, army #2 (a winter recruit) may take no monster away from
    mountains or marsh, no war engine away from forest, and never a magic item; the starting
    army is free of it (MK-AMB-24)."""
    set_options(world.campaign, module_terrain_recruit=True)
    army = world.get(world.red, 2)
    message = refused(world, 2, [unit("Drake", "monster", 200, 1),
                                 unit("Bolt thrower", "war engine", 100, 0),
                                 unit("Knights", "regiment", 100, 2, magic_item="Orb")])
    assert "(MK-ADV-3)" in message and "(MK-ADV-4)" in message and "(MK-ADV-5)" in message
    tile = army.tile
    tile.settlement, tile.controller, tile.terrain = "fortress", world.red, "mountains"
    tile.save()
    message = refused(world, 2, [unit("Drake", "monster", 200, 1),
                                 unit("Bolt thrower", "war engine", 100, 0)])
    assert "(MK-ADV-3)" not in message and "(MK-ADV-4)" in message
    world.write(world.get(world.red, 1), [unit("Drake", "monster", 200, 1, magic_item="Orb")])


def test_the_draft_is_built_unit_by_unit(world: World) -> None:
    army = world.get(world.red, 1)
    a = services.add_unit(army, unit("Ironguard", "regiment", 145, 2, magic_item="Orb"),
                          world.player)
    copy = services.copy_unit(a, world.player)
    assert (copy.name, copy.position, copy.magic_item, copy.points) == ("Ironguard", 2, "", 145)
    b = services.add_unit(army, unit("Spears", "horde", 200, None), world.player)
    with pytest.raises(services.ListRefused, match="Spears: give its base Unit Strength"):
        services.fix_army_list(army, world.player)
    services.update_unit(b, unit("Spears", "horde", 200, 3), world.player)
    services.remove_unit(copy, world.player)
    services.set_list_details(army, world.player, race="Dwarfs", allied=False)
    army_list = services.fix_army_list(army, world.player)
    assert army_list.is_fixed and army_list.race == "Dwarfs"
    assert [(u.position, u.name, u.base_us) for u in army_list.units.all()] == [
        (1, "Ironguard", 2), (3, "Spears", 3)]
    assert [e.summary for e in Event.objects.order_by("seq")][-7:] == [
        "Red adds Ironguard (regiment, 145 pts) to the draft list of army #1.",
        "Red copies Ironguard in the draft list of army #1.",
        "Red adds Spears (horde, 200 pts) to the draft list of army #1.",
        "Red changes Spears to Spears (horde, 200 pts) in the draft list of army #1.",
        "Red removes Ironguard from the draft list of army #1.",
        "Red names the list of army #1.",
        "Red fixes the list of army #1: 2 units, 345 points (MK-SETUP-6).",
    ]


def test_bad_units_and_empty_lists_are_refused(world: World) -> None:
    army = world.get(world.red, 1)
    for bad, message in [(unit("", points=10), "Give the unit a name."),
                         (unit("A", "", 10), "Say what type of unit it is."),
                         (unit("A", points=0), "Points are a whole number from 1 to 2000."),
                         (unit("A", base_us=11), "Base Unit Strength is a whole number")]:
        with pytest.raises(ServiceError, match=message):
            services.add_unit(army, bad, world.player)
    with pytest.raises(services.ListRefused, match="An army list needs at least one unit"):
        services.fix_army_list(army, world.player)
    with pytest.raises(ServiceError, match="The list has no units"):
        services.write_army_list(army, [], world.player)
    assert not ArmyList.objects.exists()


def test_simple_campaigns_have_no_lists(world: World) -> None:
    set_options(world.campaign, battle_mode="simple")
    with pytest.raises(ServiceError, match=r"Simple battles: armies have points rosters"):
        services.add_unit(world.get(world.red, 1), unit("A"), world.player)
    set_options(world.campaign, allow_mode_per_battle=True)
    services.add_unit(world.get(world.red, 1), unit("A"), world.player)


def test_paste_keeps_the_documented_format_and_refuses_malformed_lines(world: World) -> None:
    army = world.get(world.red, 1)
    text = ("# Dwarfs\nIronguard, regiment, 145; US 2\n\n"
            "Garrek [1], hero (infantry), 100 pts; US 0; item Blessing of the Gods\n")
    army_list = services.paste_army_list(army, text, world.player, race="Dwarfs")
    assert not army_list.is_fixed and army_list.race == "Dwarfs"
    rows = list(army_list.units.values_list("name", "unit_type", "points", "base_us",
                                            "living_legend", "magic_item"))
    assert rows == [("Ironguard", "regiment", 145, 2, False, ""),
                    ("Garrek", "hero (infantry)", 100, 0, True, "Blessing of the Gods")]
    before = dump()
    with pytest.raises(services.PasteRefused) as info:
        services.paste_army_list(army, "Ironguard, regiment, 145\nSpears horde 200\n"
                                       "Bad, troop, lots", world.player)
    assert info.value.errors == ((2, "Write each unit as: name, type, points."),
                                 (3, "'lots' is not a points value."))
    assert dump() == before
    # Pasting again replaces the draft's units; with fix it is checked and locked at once.
    services.paste_army_list(army, "Spears, horde, 200; US 3", world.player, fix=True)
    assert list(army_list.units.values_list("name", flat=True)) == ["Spears"]
    assert ArmyList.objects.get(pk=army_list.pk).is_fixed


def test_mk_recruit_5_a_draft_marked_allied_is_not_the_allied_army_until_fixed(
        world: World) -> None:
    _armies(world, 1, 2, 3)
    fourth = world.army(world.red, 4)
    services.add_unit(fourth, unit("Elves", "troop", 100, 1), world.player)
    services.set_list_details(fourth, world.player, race="Elves", allied=True)
    fourth = world.get(world.red, 4)
    assert fourth.army_list.allied and not fourth.is_allied  # a plan, not yet the allied army
    # So army #5 may still become the kingdom's one allied army: 4 non-allied armies stand.
    world.write(world.army(world.red, 5), [unit("Dwarves")], allied=True)
    assert world.get(world.red, 5).is_allied
    before, events = dump(), Event.objects.count()
    with pytest.raises(services.ListRefused) as info:
        services.fix_army_list(world.get(world.red, 4), world.player)
    assert str(info.value) == ("The list of army #4 cannot be fixed: The kingdom already has "
                               "its one allied army. (MK-RECRUIT-5)")
    assert dump() == before and Event.objects.count() == events
    # Unmarked, it is fixed as an ordinary army.
    services.set_list_details(world.get(world.red, 4), world.player, race="Elves",
                              allied=False)
    assert services.fix_army_list(world.get(world.red, 4), world.player).is_fixed
    assert not world.get(world.red, 4).is_allied


def test_mk_recruit_9_the_terrain_module_restricts_winter_recruits_only_when_on(
        world: World) -> None:
    """MK-RECRUIT-9, MK-ADV-2..4: army #2 (a winter recruit) on a plain tile may take a monster
    and a war engine with the module off; with it on, the same list is refused."""
    entries = [unit("Drake", "monster", 200, 1), unit("Bolt thrower", "war engine", 100, 0)]
    army = world.get(world.red, 2)
    assert services.list_problems(army, entries, allied=False) == ()
    set_options(world.campaign, module_terrain_recruit=True)
    army = world.get(world.red, 2)
    assert [(p.rule, p.unit) for p in services.list_problems(army, entries, allied=False)] == [
        ("MK-ADV-3", 0), ("MK-ADV-4", 1)]
