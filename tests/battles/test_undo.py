"""Every write of the armies code is one chronicle event that a GM can undo exactly: the rows
come back field for field."""

from __future__ import annotations

from typing import Callable

import pytest
from django.db import transaction

from battles.models import ArmyList, Unit, UnitStrengthEvent
from campaign.chronicle import Recorder, undo_latest
from campaign.models import Event
from campaign.systems.mighty_kingdoms import forces as services
from campaign.systems.mighty_kingdoms.models import Ship
from tests.battles.conftest import World, dump, set_options, unit

pytestmark = pytest.mark.django_db


def undone_exactly(world: World, write: Callable[[], object]) -> Event:
    before = dump()
    events = Event.objects.count()
    write()
    assert Event.objects.count() == events + 1
    assert dump() != before
    event = Event.objects.latest("seq")
    assert event.reversible
    undo_latest(world.campaign, world.gm)
    assert dump() == before
    return event


@pytest.fixture
def drafted(world: World) -> World:
    red1 = world.get(world.red, 1)
    services.add_unit(red1, unit("Ironguard", "regiment", 145, 2), world.player)
    services.add_unit(red1, unit("Spears", "horde", 200, 3, magic_item="Orb"), world.player)
    return world


def test_undo_each_draft_edit(drafted: World) -> None:
    world = drafted
    red1 = world.get(world.red, 1)
    spears = Unit.objects.get(name="Spears")
    undone_exactly(world, lambda: services.add_unit(world.get(world.red, 2), unit("New"),
                                                    world.player))
    undone_exactly(world, lambda: services.add_unit(red1, unit("More"), world.player))
    undone_exactly(world, lambda: services.update_unit(
        spears, unit("Pikes", "legion", 250, 3, keywords=frozenset({"phalanx"})), world.player))
    undone_exactly(world, lambda: services.copy_unit(spears, world.player))
    undone_exactly(world, lambda: services.remove_unit(spears, world.player))
    undone_exactly(world, lambda: services.set_list_details(red1, world.player, race="Dwarfs",
                                                            allied=True))


def test_undo_writing_pasting_and_fixing(drafted: World) -> None:
    world = drafted
    red1 = world.get(world.red, 1)
    undone_exactly(world, lambda: services.write_army_list(
        red1, [unit("Rangers", "troop", 80, 1)], world.player, race="Dwarfs", fix=True))
    undone_exactly(world, lambda: services.paste_army_list(
        red1, "Rangers, troop, 80; US 1\nGarrek [1], hero, 100; US 0", world.player))
    event = undone_exactly(world, lambda: services.fix_army_list(red1, world.player))
    assert event.kind == "army_list.fixed" and event.visibility == "kingdom"
    assert not ArmyList.objects.get(army=red1).is_fixed


def test_undo_an_artefact(drafted: World) -> None:
    world = drafted
    set_options(world.campaign, module_artefacts=True)
    services.fix_army_list(world.get(world.red, 1), world.player)
    undone_exactly(world, lambda: services.assign_artefact(Unit.objects.get(name="Ironguard"),
                                                           "Crown of Ages", world.player))


def test_undo_revealing_and_unit_results(drafted: World) -> None:
    world = drafted
    services.fix_army_list(world.get(world.red, 1), world.player)
    world.write(world.get(world.blue, 1), [unit("Troop", "troop", 50, 1)])
    battle = world.fight()
    undone_exactly(world, lambda: services.reveal_battle_lists(battle, world.gm))
    event = undone_exactly(world, lambda: world.record(
        battle, Ironguard=(True, True), Spears=(False, True), Troop=(False, True)))
    assert event.kind == "unit_strength.battle"
    assert not UnitStrengthEvent.objects.exists()
    world.record(battle, Ironguard=(True, False), Troop=(False, True))
    assert UnitStrengthEvent.objects.count() == 2


def test_undo_reform_losses(drafted: World) -> None:
    world = drafted
    red1 = world.get(world.red, 1)
    services.fix_army_list(red1, world.player)
    world.write(world.get(world.blue, 1), [unit("Troop", "troop", 50, 1)])
    Ship.objects.create(campaign=world.campaign, kingdom=world.red, number=1, tile=world.front,
                        paired_army=red1)
    for _ in range(4):
        world.record(world.fight(), Ironguard=(False, True))
    for _ in range(5):
        world.record(world.fight(), Spears=(False, True))
    event = undone_exactly(world, world.reform)
    assert "is removed (MK-REFORM-7)" in event.summary
    assert not services.is_removed(world.get(world.red, 1))
    assert Ship.objects.get(number=1, kingdom=world.red).paired_army_id == red1.pk


def test_reform_through_the_callers_recorder_is_one_event(drafted: World) -> None:
    world = drafted
    services.fix_army_list(world.get(world.red, 1), world.player)
    world.write(world.get(world.blue, 1), [unit("Troop", "troop", 50, 1)])
    for _ in range(4):
        world.record(world.fight(), Ironguard=(False, True))
    events = Event.objects.count()
    with transaction.atomic():
        rec = Recorder(world.campaign, world.gm, "phase.advanced", "Reform is over.")
        notes = services.reform_unit_strength(world.campaign, rec)
        assert rec.data["notes"] == notes
        rec.finish()
    assert Event.objects.count() == events + 1
    assert Unit.objects.get(name="Ironguard").destroyed
