"""Magical artefacts (MK-ART-1..8, MK-AMB-37): the pool, assignment at winter D) Deploy,
capture in a lost battle, capital holding, secrecy and undo.

The summer scene (tests/mk/test_summer_scene.py): Red's capital is the city 0303; Red army #2
has marched into Blue's village 0504, where Blue army #1 stands.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from battles.models import Army, Battle, Unit
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Event, Kingdom
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import advanced, summer
from campaign.systems.mighty_kingdoms import forces as battles
from campaign.systems.mighty_kingdoms.models import Artefact
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from tests.mk.test_quests import dump, fixed_list, set_options
from tests.mk.test_summer_scene import Scene, campaign, scene  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def art_scene(scene: Scene) -> Scene:
    set_options(scene, module_artefacts=True, battle_mode="kow")
    fixed_list(scene.get_army(scene.red, 1), ("Garrek", "hero", 150, 0))
    fixed_list(scene.get_army(scene.red, 2), ("Ironguard", "regiment", 120, 2))
    fixed_list(scene.get_army(scene.blue, 1), ("Spears", "regiment", 100, 2))
    return scene


def add(scene: Scene, name: str, points: int, **where: Any) -> Artefact:
    return Artefact.objects.create(campaign=scene.campaign, name=name, points=points,
                                   in_pool=not where, **where)


def to_deploy(scene: Scene) -> None:
    Campaign.objects.filter(pk=scene.campaign.pk).update(season="winter", phase="D",
                                                         sub_phase="", month=None)
    scene.refresh()


def carried_by(scene: Scene, artefact: Artefact, unit_name: str) -> None:
    unit = Unit.objects.get(name=unit_name)
    Artefact.objects.filter(pk=artefact.pk).update(in_pool=False, holder_unit=unit,
                                                   held_by_capital_of=None)
    Unit.objects.filter(pk=unit.pk).update(artefact=artefact.name)


def last_summary(scene: Scene) -> str:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first().summary


# --- the pool (MK-ART-1) ------------------------------------------------------------------


@pytest.mark.parametrize(("persona", "status"), [
    ("anonymous", 302), ("outsider", 404), ("observer", 403), ("other", 403), ("player", 403),
    ("gm", 302),
])
def test_only_a_gm_adds_to_the_pool(art_scene: Scene, login: Any, observer: Any, outsider: Any,
                                    persona: str, status: int) -> None:
    scene = art_scene
    users = {"anonymous": None, "outsider": outsider, "observer": observer,
             "other": scene.other, "player": scene.player, "gm": scene.gm}
    response = login(users[persona]).post(scene.mk_url("artefact_add"),
                                          {"name": "Crown of Ages", "points": "25"})
    assert response.status_code == status
    assert Artefact.objects.filter(name="Crown of Ages").exists() == (persona == "gm")


def test_mk_art_1_names_are_unique_across_the_campaign(art_scene: Scene) -> None:
    scene = art_scene
    crown = advanced.add_artefact(scene.campaign, scene.gm, "Crown  of Ages", 25)
    assert (crown.name, crown.points, crown.in_pool) == ("Crown of Ages", 25, True)
    before = dump()
    with pytest.raises(ServiceError, match=r"unique across the campaign \(MK-ART-1\)"):
        advanced.add_artefact(scene.campaign, scene.gm, "crown of ages", 10)
    with pytest.raises(ServiceError, match=r"1 to 999 points"):
        advanced.add_artefact(scene.campaign, scene.gm, "Orb", 0)
    assert dump() == before
    # Once a pool is in use, the free-text field of the army page gives way to it (MK-ART-2).
    with pytest.raises(ServiceError, match=r"come from its pool"):
        battles.assign_artefact(Unit.objects.get(name="Garrek"), "Orb", scene.player)
    advanced.remove_artefact(scene.campaign, scene.gm, crown.pk)
    assert not Artefact.objects.exists()
    undo_latest(scene.refresh(), scene.gm)
    assert Artefact.objects.get().name == "Crown of Ages"


def test_the_pool_needs_the_module(scene: Scene) -> None:
    with pytest.raises(ServiceError, match=r"not used in this campaign \(MK-CFG-3\)"):
        advanced.add_artefact(scene.campaign, scene.gm, "Crown of Ages", 25)


# --- assignment at winter D) Deploy (MK-ART-2/3/4) -----------------------------------------


def test_mk_art_2_assign_at_deploy_secretly(art_scene: Scene, login: Any) -> None:
    scene = art_scene
    crown = add(scene, "Crown of Ages", 25, held_by_capital_of=scene.red)
    garrek = Unit.objects.get(name="Garrek")
    with pytest.raises(ServiceError, match=r"given to units at winter D\) Deploy .*MK-ART-2"):
        advanced.assign_artefact(scene.red, scene.player, crown.pk, garrek.pk)
    to_deploy(scene)
    with pytest.raises(ServiceError, match=r"Blue does not hold that artefact \(MK-ART-1\)"):
        advanced.assign_artefact(scene.blue, scene.other, crown.pk,
                                 Unit.objects.get(name="Spears").pk)
    with pytest.raises(ServiceError, match=r"Pick a living unit of a fixed list of Red"):
        advanced.assign_artefact(scene.red, scene.player, crown.pk,
                                 Unit.objects.get(name="Spears").pk)
    before = dump()
    response = login(scene.player).post(scene.mk_url("artefact_assign"),
                                        {"artefact": str(crown.pk), "unit": str(garrek.pk)})
    assert response.status_code == 302
    crown.refresh_from_db()
    assert (crown.holder_unit_id, crown.held_by_capital_of_id, crown.in_pool) == (
        garrek.pk, None, False)
    assert Unit.objects.get(pk=garrek.pk).artefact == "Crown of Ages"
    event = Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()
    assert event.visibility == "kingdom" and event.kingdom_id == scene.red.pk
    red1 = scene.get_army(scene.red, 1)
    army_url = reverse("mk:armies:army", args=[scene.campaign.slug, red1.pk])
    assert "artefact: Crown of Ages" in login(scene.player).get(army_url).content.decode()
    assert login(scene.other).get(army_url).status_code == 403
    page = reverse("mk:advanced", args=[scene.campaign.slug])
    assert "Crown of Ages" not in login(scene.other).get(page).content.decode()
    # MK-ART-4: the list's points are the units' points alone.
    assert sum(u["points"] for u in battles.army_units(red1)) == 150
    undo_latest(scene.refresh(), scene.gm)
    assert dump() == before
    advanced.assign_artefact(scene.red, scene.gm, crown.pk, garrek.pk)
    advanced.assign_artefact(scene.red, scene.gm, crown.pk, None)
    assert Unit.objects.get(pk=garrek.pk).artefact == ""
    assert Artefact.objects.get(pk=crown.pk).held_by_capital_of_id == scene.red.pk


# --- capture (MK-ART-5..8, MK-AMB-37) -------------------------------------------------------


@pytest.fixture
def clash(art_scene: Scene) -> tuple[Scene, Battle, Artefact]:
    scene = art_scene
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.at("C")
    crown = add(scene, "Crown of Ages", 25)
    carried_by(scene, crown, "Spears")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    return scene, Battle.objects.get(pk=battle.pk), crown


def rout(battle: Battle, name: str, user: Any) -> None:
    unit = Unit.objects.get(name=name)
    battles.record_unit_results(battle, [mkb.UnitBattleRecord(str(unit.pk), routed=True)], user)


@pytest.mark.parametrize("results_first", [True, False])
def test_mk_art_5_6_routed_carrier_of_the_loser_is_captured(
        clash: tuple[Scene, Battle, Artefact], results_first: bool) -> None:
    scene, battle, crown = clash
    before = dump()
    if results_first:
        rout(battle, "Spears", scene.gm)
        assert Artefact.objects.get(pk=crown.pk).holder_unit.name == "Spears"
        summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    else:  # the battle page's one form: the result and the routed units together
        spears = Unit.objects.get(name="Spears")
        summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win",
                            units=[mkb.UnitBattleRecord(str(spears.pk), routed=True)])
    crown.refresh_from_db()
    assert (crown.held_by_capital_of_id, crown.holder_unit_id, crown.captured_in_id) == (
        scene.red.pk, None, battle.pk)
    assert Unit.objects.get(name="Spears").artefact == ""
    assert ("Spears was routed: Red captures Crown of Ages, kept in its Capital City until "
            "given to a unit of the winning army (MK-ART-5/6, MK-AMB-37).") in last_summary(scene)
    undo_latest(scene.refresh(), scene.gm)
    if not results_first:
        assert dump() == before
    assert Artefact.objects.get(pk=crown.pk).holder_unit.name == "Spears"


def test_mk_art_5_the_winner_gives_it_to_a_unit_that_fought(
        clash: tuple[Scene, Battle, Artefact], login: Any) -> None:
    scene, battle, crown = clash
    rout(battle, "Spears", scene.gm)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    garrek = Unit.objects.get(name="Garrek")  # Red army #1 did not fight at 0504
    ironguard = Unit.objects.get(name="Ironguard")
    before = dump()
    with pytest.raises(ServiceError, match=r"fought the battle at 0504 \(MK-ART-5/8\)"):
        advanced.claim_captured(scene.red, scene.player, crown.pk, garrek.pk)
    assert dump() == before
    page = login(scene.player).get(reverse("mk:advanced", args=[scene.campaign.slug]))
    assert "Give to this suitable unit (MK-ART-5)" in page.content.decode()
    response = login(scene.player).post(scene.mk_url("artefact_claim"),
                                        {"artefact": str(crown.pk), "unit": str(ironguard.pk)})
    assert response.status_code == 302
    crown.refresh_from_db()
    assert (crown.holder_unit_id, crown.captured_in_id) == (ironguard.pk, None)
    assert Unit.objects.get(pk=ironguard.pk).artefact == "Crown of Ages"
    undo_latest(scene.refresh(), scene.gm)
    assert dump() == before


def test_no_capture_without_a_rout_or_when_the_carrier_wins(
        clash: tuple[Scene, Battle, Artefact]) -> None:
    scene, battle, crown = clash
    rout(battle, "Spears", scene.gm)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="loss")
    assert Artefact.objects.get(pk=crown.pk).holder_unit.name == "Spears"


def test_mk_art_7_a_winner_without_a_capital_loses_it_to_the_pool(
        clash: tuple[Scene, Battle, Artefact]) -> None:
    scene, battle, crown = clash
    Kingdom.objects.filter(pk=scene.red.pk).update(capital_tile=None)
    rout(battle, "Spears", scene.gm)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    crown.refresh_from_db()
    assert (crown.in_pool, crown.held_by_capital_of_id, crown.holder_unit_id) == (
        True, None, None)
    assert "goes back to the pool (MK-ART-5/7)" in last_summary(scene)


@pytest.mark.parametrize("taker_has_capital", [True, False])
def test_mk_art_8_taking_a_capital_takes_its_artefacts(
        clash: tuple[Scene, Battle, Artefact], taker_has_capital: bool) -> None:
    scene, battle, _crown = clash
    scene.set_tile("0504", settlement="city")
    Kingdom.objects.filter(pk=scene.blue.pk).update(capital_tile=scene.tile("0504"))
    if not taker_has_capital:
        Kingdom.objects.filter(pk=scene.red.pk).update(capital_tile=None)
    orb = add(scene, "Orb of Night", 40, held_by_capital_of=scene.blue)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    orb.refresh_from_db()
    if taker_has_capital:
        assert (orb.held_by_capital_of_id, orb.captured_in_id) == (scene.red.pk, battle.pk)
        assert "now in Red's own capital (MK-ART-8, MK-AMB-37)" in last_summary(scene)
    else:
        assert orb.in_pool and orb.held_by_capital_of_id is None
        assert "go back to the pool" in last_summary(scene)


@pytest.fixture
def blue_capital(art_scene: Scene) -> tuple[Scene, Artefact]:
    """Blue's Capital City is the empty city 0604, where the Orb of Night is kept."""
    scene = art_scene
    scene.set_tile("0604", settlement="city")
    Kingdom.objects.filter(pk=scene.blue.pk).update(capital_tile=scene.tile("0604"))
    return scene, add(scene, "Orb of Night", 40, held_by_capital_of=scene.blue)


def test_mk_art_8_a_capital_taken_at_reform_passes_its_artefacts(
        blue_capital: tuple[Scene, Artefact]) -> None:
    from campaign.systems.mighty_kingdoms import phases

    scene, orb = blue_capital
    scene.army(scene.red, 3, "0604")  # alone in Blue's capital (MK-REFORM-4)
    scene.at("D")
    before = dump()
    event = phases.advance(scene.campaign, scene.gm)
    orb.refresh_from_db()
    assert scene.tile("0604").controller_id == scene.red.pk
    assert (orb.held_by_capital_of_id, orb.in_pool, orb.captured_in_id) == (
        scene.red.pk, False, None)
    assert ("Red takes Blue's Capital City and the 1 artefact kept there, now in Red's own "
            "capital (MK-ART-8, MK-AMB-37).") in event.summary
    undo_latest(scene.campaign, scene.gm)
    assert dump() == before
    assert Artefact.objects.get(pk=orb.pk).held_by_capital_of_id == scene.blue.pk


def test_mk_art_8_marching_into_an_empty_capital_takes_its_artefacts(
        blue_capital: tuple[Scene, Artefact]) -> None:
    from campaign.systems.mighty_kingdoms.state import load_state
    from tests.mk.test_summer_scene import army_key, give_in_turn, resolve_in_turn

    scene, orb = blue_capital
    start = next(label for label in load_state(scene.campaign).map.tile("0604").neighbours
                 if label not in ("0504",) and not scene.tile(label).terrain == "open_water")
    scene.set_tile(start, controller=scene.red, explored=True)
    scene.army(scene.red, 3, start)
    give_in_turn(scene, {
        scene.red: [(army_key(scene.red, 1), "defend", None),
                    (army_key(scene.red, 2), "defend", None),
                    (army_key(scene.red, 3), "move", "0604")],
        scene.blue: [(army_key(scene.blue, 1), "defend", None)],
    })
    scene.at("B")
    resolve_in_turn(scene)
    orb.refresh_from_db()
    assert scene.tile("0604").controller_id == scene.red.pk
    assert orb.held_by_capital_of_id == scene.red.pk
    summaries = Event.objects.filter(campaign=scene.campaign, kind="summer.resolve")
    assert [s for s in summaries.values_list("summary", flat=True)
            if "Capital City" in s] == [
        "Red: Army #3 moves into 0604; control of the tile passes to its kingdom (MK-RES-5). "
        "Red takes Blue's Capital City and the 1 "
        "artefact kept there, now in Red's own capital (MK-ART-8, MK-AMB-37)."]
