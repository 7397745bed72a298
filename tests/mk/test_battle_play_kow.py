"""The battle page beyond dice: Kings of War battles (MK-LAND-2, MK-BOARD, MK-DEF, MK-US) with
both sides' lists and the GM's one form for the result and every unit's rout events; the
artefacts of an army a battle destroys (MK-ART-5..7); slaughters decided by the slaughtered
kingdom's player (MK-LAND-4, MK-AMB-6); the mode chosen per battle (MK-AMB-30).

The summer scene (tests/mk/test_summer_scene.py): Red army #2 marches into Blue's village 0504,
where Blue army #1 stands; Red holds its capital 0303.
"""

from __future__ import annotations

import html
import re
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Event, Kingdom, Membership, Role
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import summer, summer_battles
from campaign.systems.mighty_kingdoms.models import Artefact
from tests.mk.test_quests import fixed_list, set_options
from tests.mk.test_summer_scene import DUMPED, Scene, army_key, campaign, scene  # noqa: F401

pytestmark = pytest.mark.django_db

Login = Callable[[User | None], Client]
MODELS = (*DUMPED, ArmyList, Unit, UnitStrengthEvent, Artefact, Event)


def dump() -> dict[str, list[dict[str, Any]]]:
    return {m._meta.label: list(m.objects.order_by("pk").values()) for m in MODELS}


def last_event(scene: Scene) -> Event:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()


def text(response: Any) -> str:
    """The page's words, tags dropped and entities read."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def kow(scene: Scene) -> Scene:
    """Kings of War, artefacts on. Red army #2 (Ironguard, Crossbows) marched into 0504; Blue
    army #1 (Spears, Garrek) defends there; Red army #1 (Reserve) stays home."""
    set_options(scene, battle_mode="kow", module_artefacts=True)
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue, number=1).update(defending=True)
    fixed_list(scene.get_army(scene.red, 1), ("Reserve", "regiment", 100, 2))
    fixed_list(scene.get_army(scene.red, 2), ("Ironguard", "regiment", 150, 2),
               ("Crossbows", "troop", 90, 1))
    fixed_list(scene.get_army(scene.blue, 1), ("Spears", "horde", 200, 3),
               ("Garrek", "hero", 100, 0))
    scene.at("C")
    return scene


def observer_of(scene: Scene) -> User:
    user = User.objects.create_user("watcher", password="pw-watcher")
    Membership.objects.create(campaign=scene.campaign, user=user, role=Role.OBSERVER)
    return user


def unit_pk(name: str) -> str:
    return str(Unit.objects.get(name=name).pk)


# -- the page (MK-LAND-2, MK-BOARD-1, MK-DEF-2/3, MK-SETUP-7) ----------------------------------


def test_mk_land_2_the_page_shows_the_board_the_defence_and_both_lists(kow: Scene,
                                                                       login: Login) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    url = scene.mk_url("battle_play", battle.pk)
    blue_page = text(login(scene.other).get(url))
    assert "Board 4'x4' (MK-BOARD-1, in feet: MK-AMB-26)" in blue_page
    assert ("Blue may add up to 1 blocking or difficult piece and up to 2 obstacles anywhere "
            "(MK-DEF-2)") in blue_page
    assert ('An obstacle is about 6" long (several may be joined); a blocking or difficult '
            'piece is about 6"x6" (several may be merged).') in blue_page
    # Both sides' lists are open to the players once the battle is chosen (MK-SETUP-7).
    for name in ("Ironguard", "Crossbows", "Spears", "Garrek"):
        assert name in blue_page
    assert "Reserve" not in blue_page  # Red army #1 does not fight here
    assert "Army #2 · Dwarfs · 240 pts" in blue_page and "Army #1 · Dwarfs · 300 pts" in blue_page
    assert "Enter the result" not in blue_page and "Then the GM enters the result here" in blue_page
    # The battle page is for the players and the GMs; observers follow the map and chronicle.
    assert login(observer_of(scene)).get(url).status_code == 403
    gm_page = login(scene.gm).get(url).content.decode()
    for name in ("Ironguard", "Crossbows", "Spears", "Garrek"):
        assert f'name="routed_{unit_pk(name)}"' in gm_page
        assert f'name="routed_enemy_{unit_pk(name)}"' in gm_page
    assert 'name="unit_results" value="1"' in gm_page


def test_mk_us_1_2_the_result_and_the_unit_results_are_one_entry(kow: Scene,
                                                                 login: Login) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    before, seq = dump(), last_event(scene).seq
    response = login(scene.gm).post(
        scene.mk_url("battle_kow_result", battle.pk),
        {"result": "win", "unit_results": "1",
         "units": [unit_pk(n) for n in ("Ironguard", "Crossbows", "Spears", "Garrek")],
         f"routed_enemy_{unit_pk('Ironguard')}": "on", f"routed_{unit_pk('Spears')}": "on",
         f"routed_{unit_pk('Crossbows')}": "on"},
        HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b"<html" not in response.content
    assert "routed an enemy (+1)" in text(response)
    event = last_event(scene)
    assert event.seq == seq + 1  # one entry tells the whole battle
    assert event.summary == (
        "Battle at 0504: Red wins against Blue. Unit Strength after the battle at 0504 "
        "(MK-US-1/2): Red's Ironguard +1 (now 3); Red's Crossbows -1 (now 0); Blue's Spears -1 "
        "(now 2). 0504 now belongs to Red (MK-RESULT-3). Blue's army #1 retreats to 0604, and "
        "lies on its side (MK-RESULT-1/2). Red may move one token on to an adjacent tile it "
        "controls (MK-RESULT-3).")
    assert sorted(UnitStrengthEvent.objects.values_list("unit__name", "delta", "battle")) == [
        ("Crossbows", -1, battle.pk), ("Ironguard", 1, battle.pk), ("Spears", -1, battle.pk)]
    assert Battle.objects.get(pk=battle.pk).data["unit_results"][unit_pk("Garrek")] == {
        "routed_enemy": False, "routed": False}
    undo_latest(scene.refresh(), scene.gm)
    after_undo = dump()
    assert after_undo.pop("campaign.Event")[:-2] == before.pop("campaign.Event")
    assert after_undo == before


@pytest.mark.parametrize("case, data, message", [
    ("no result", {"result": ""}, "Say whether the chooser won, lost or drew (MK-RESULT)."),
    ("a unit that did not fight", {"units": ["Reserve"], "routed_Reserve": "on"},
     "Only units of the armies that fought this battle can be entered."),
    ("a unit entered twice", {"units": ["Spears", "Spears"]}, "Each unit is entered once."),
    ("a malformed unit", {"units": ["x"]}, "The form names a unit that is not in this battle."),
    ("more credits than routs", {"units": ["Ironguard", "Crossbows"],
                                 "routed_enemy_Ironguard": "on", "routed_enemy_Crossbows": "on"},
     "Red: "),
])
def test_refused_results_change_nothing(kow: Scene, login: Login, case: str,
                                        data: dict[str, Any], message: str) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    names = {"Reserve", "Ironguard", "Crossbows", "Spears", "Garrek"}
    posted: dict[str, Any] = {"result": "win", "unit_results": "1"}
    for key, value in data.items():
        if key == "units":
            posted[key] = [unit_pk(v) if v in names else v for v in value]
        else:
            prefix, _, name = key.rpartition("_")
            posted[f"{prefix}_{unit_pk(name)}" if name in names else key] = value
    before = dump()
    response = login(scene.gm).post(scene.mk_url("battle_kow_result", battle.pk), posted,
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert message in text(response)
    assert dump() == before


def test_results_for_a_battle_that_is_not_pending_are_refused(kow: Scene, login: Login) -> None:
    scene = kow
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="draw", units=[])
    before = dump()
    gm = login(scene.gm)
    for address, data in (
        (scene.mk_url("battle_kow_result", battle.pk),
         {"result": "win", "unit_results": "1", "units": [unit_pk("Spears")],
          f"routed_{unit_pk('Spears')}": "on"}),
        (scene.mk_url("summer_battle_result", battle.pk), {"result": "loss"}),
    ):
        response = gm.post(address, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 409
        assert "This battle&#x27;s result has already been entered." in response.content.decode()
    assert dump() == before
    # A player may not enter results at all.
    assert login(scene.player).post(scene.mk_url("battle_kow_result", battle.pk),
                                    {"result": "win"}).status_code == 403


# -- the artefacts of a destroyed army (MK-ART-5..7) -------------------------------------------


@pytest.fixture
def cornered(kow: Scene) -> tuple[Scene, Artefact]:
    """Blue has nowhere to retreat from 0504 (0604 is Red's); Spears carries the Crown."""
    scene = kow
    scene.set_tile("0604", controller=scene.red)
    crown = Artefact.objects.create(campaign=scene.campaign, name="Crown of Ages", points=25,
                                    in_pool=False, holder_unit=Unit.objects.get(name="Spears"))
    Unit.objects.filter(name="Spears").update(artefact="Crown of Ages")
    return scene, crown


@pytest.mark.parametrize("red_capital", [True, False])
def test_mk_art_5_7_an_army_destroyed_in_a_lost_battle_loses_its_artefact_to_the_winner(
        cornered: tuple[Scene, Artefact], red_capital: bool) -> None:
    scene, crown = cornered
    if not red_capital:
        Kingdom.objects.filter(pk=scene.red.pk).update(capital_tile=None)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    before = dump()
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="win")
    blue1 = scene.get_army(scene.blue, 1)
    assert (blue1.tile, blue1.data["removed"]["reason"], blue1.data["removed"]["rule"]) == (
        None, "no retreat tile", "MK-RESULT-1")
    # The list and its units stay, for the record.
    assert list(Unit.objects.filter(army_list__army=blue1).values_list("name", "artefact")) == [
        ("Spears", ""), ("Garrek", "")]
    crown.refresh_from_db()
    summary = last_event(scene).summary
    if red_capital:
        assert (crown.in_pool, crown.held_by_capital_of_id, crown.captured_in_id) == (
            False, scene.red.pk, battle.pk)
        assert summary.endswith(
            "Spears falls with Blue's army #1: Red captures Crown of Ages, kept in its Capital "
            "City until given to a unit of the winning army (MK-ART-5/6, MK-AMB-37).")
    else:
        assert (crown.in_pool, crown.held_by_capital_of_id, crown.holder_unit_id) == (
            True, None, None)
        assert summary.endswith(
            "Spears falls with Blue's army #1: Crown of Ages is lost on the field, since Red "
            "holds no Capital City, and goes back to the pool (MK-ART-5/7).")
    undo_latest(scene.refresh(), scene.gm)
    after = dump()
    assert after.pop("campaign.Event")[:-2] == before.pop("campaign.Event")
    assert after == before


def test_mk_art_6_an_army_lost_without_a_defeat_sends_its_artefact_home(kow: Scene) -> None:
    """A draw: Red army #2, lost in the fighting, carried the Orb; nobody captures it, so it
    waits in Red's own Capital City until next winter."""
    scene = kow
    orb = Artefact.objects.create(campaign=scene.campaign, name="Orb of Night", points=40,
                                  in_pool=False, holder_unit=Unit.objects.get(name="Ironguard"))
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    summer.enter_result(battle.pk, scene.gm, scene.campaign, result="draw",
                        removed=[army_key(scene.red, 2)])
    orb.refresh_from_db()
    assert (orb.held_by_capital_of_id, orb.holder_unit_id, orb.captured_in_id) == (
        scene.red.pk, None, None)
    assert last_event(scene).summary.endswith(
        "Ironguard falls with Red's army #2: Orb of Night returns to Red's Capital City until "
        "next winter (MK-ART-6).")


# -- slaughter (MK-LAND-4, MK-AMB-6) ----------------------------------------------------------


@pytest.fixture
def slaughter(scene: Scene) -> tuple[Scene, Battle, Army]:
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    Army.objects.filter(kingdom=scene.blue, number=1).update(on_side=True)
    second = scene.army(scene.blue, 2, "0504", on_side=True)
    scene.at("C")
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert battle.kind == "slaughter"
    return scene, battle, second


def test_mk_amb_6_the_slaughtered_kingdoms_player_gives_up_the_token(
        slaughter: tuple[Scene, Battle, Army], login: Login) -> None:
    scene, battle, second = slaughter
    url = scene.mk_url("battle_slaughter", battle.pk)
    page = text(login(scene.other).get(scene.mk_url("battle_play", battle.pk)))
    assert "Which token is lost?" in page and "Blue's army #2" in page
    assert "Which token is lost?" not in text(login(scene.player).get(
        scene.mk_url("battle_play", battle.pk)))
    before = dump()
    refused = login(scene.player).post(url, {"slaughtered": f"army:{second.pk}"},
                                       HTTP_HX_REQUEST="true")
    assert refused.status_code == 409
    assert "Blue chooses which of its tokens is lost, not Red (MK-AMB-6)." in text(refused)
    assert login(observer_of(scene)).post(url, {"slaughtered": f"army:{second.pk}"}
                                          ).status_code == 403
    refused = login(scene.other).post(url, {"slaughtered": army_key(scene.red, 2)})
    assert refused.status_code == 409
    assert dump() == before
    response = login(scene.other).post(url, {"slaughtered": f"army:{second.pk}"})
    assert response.status_code == 302
    second.refresh_from_db()
    assert (second.tile, second.data["removed"]["rule"]) == (None, "MK-LAND-4")
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.result_chooser, battle.result_opponent) == ("win", "loss")
    assert last_event(scene).summary == (
        "Battle at 0504: Red wins against Blue. Blue's army #2 is lost in the fighting "
        "(MK-LAND-4). 0504 now belongs to Red (MK-RESULT-3). Blue's army #1 retreats to 0604, "
        "and lies on its side (MK-RESULT-1/2). Red may move one token on to an adjacent tile it "
        "controls (MK-RESULT-3).")


def test_mk_amb_6_a_gm_may_give_up_the_token_for_its_player(
        slaughter: tuple[Scene, Battle, Army]) -> None:
    scene, battle, second = slaughter
    summer_battles.give_up_token(None, scene.gm, scene.campaign, battle.pk, f"army:{second.pk}")
    assert scene.get_army(scene.blue, 2).tile is None
    with pytest.raises(ServiceError, match="already been entered"):
        summer_battles.give_up_token(None, scene.gm, scene.campaign, battle.pk,
                                     army_key(scene.blue, 1))


# -- the mode per battle (MK-AMB-30) ----------------------------------------------------------


@pytest.fixture
def clash(scene: Scene) -> Scene:
    Army.objects.filter(kingdom=scene.red, number=2).update(tile=scene.tile("0504"))
    scene.at("C")
    return scene


def test_mk_amb_30_one_mode_per_campaign_by_default(clash: Scene, login: Login) -> None:
    scene = clash
    before = dump()
    with pytest.raises(ServiceError) as refused:
        summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk, mode="simple")
    assert str(refused.value) == (
        "This campaign fights every land battle as Kings of War (MK-CFG-1); the mode is chosen "
        "per battle only with that house rule on (MK-AMB-30).")
    response = login(scene.player).post(scene.mk_url("summer_battle"),
                                        {"tile": "0504", "opponent": scene.blue.pk,
                                         "mode": "simple"})
    assert response.status_code == 409
    assert dump() == before
    page = text(login(scene.player).get(scene.play_url()))
    assert "Fight Blue: land battle (Kings of War)" in page and 'name="mode"' not in page


def test_mk_amb_30_the_chooser_picks_the_mode_of_each_battle(clash: Scene,
                                                             login: Login) -> None:
    scene = clash
    set_options(scene, allow_mode_per_battle=True)
    page = login(scene.player).get(scene.play_url()).content.decode()
    assert 'name="mode" value="kow"' in page and 'name="mode" value="simple"' in page
    assert "Fight Blue: Kings of War</button>" in page
    assert "Fight Blue: Simple battle</button>" in page
    with pytest.raises(ServiceError, match=r"Kings of War or as a Simple battle \(MK-CFG-1\)"):
        summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk, mode="chess")
    response = login(scene.player).post(scene.mk_url("summer_battle"),
                                        {"tile": "0504", "opponent": scene.blue.pk,
                                         "mode": "simple"})
    assert response.status_code == 302
    battle = Battle.objects.get()
    assert (battle.kind, battle.mode, "board" in battle.data) == ("land", "simple", False)
    assert last_event(scene).summary == (
        "Red chooses to fight Blue at 0504: a land battle (Simple battle) (MK-BSEL-2, "
        "MK-BTYPE-1).")
    # Fought die by die, with roster points (MK-AMB-30: no Unit Strength).
    page = text(login(scene.player).get(scene.mk_url("battle_play", battle.pk)))
    assert "Set up the battle" in page


def test_mk_amb_30_a_kow_battle_in_a_simple_campaign(clash: Scene) -> None:
    scene = clash
    set_options(scene, battle_mode="simple", allow_mode_per_battle=True)
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk, mode="kow")
    battle = Battle.objects.get(pk=battle.pk)
    assert (battle.mode, battle.data["board"]) == ("kow", "4'x4'")
    assert Campaign.objects.get(pk=scene.campaign.pk).options["battle_mode"] == "simple"


# -- lists are fixed when their army fights (MK-RECRUIT-6, MK-SETUP-7) --------------------------


def test_mk_recruit_6_choosing_a_battle_fixes_the_draft_lists_of_its_armies(
        clash: Scene, login: Login) -> None:
    from campaign.systems.mighty_kingdoms import forces as lists
    from campaign.systems.mighty_kingdoms.rules import battles as mkb

    scene = clash
    red2 = scene.get_army(scene.red, 2)
    knights = lists.add_unit(red2, mkb.UnitEntry("Knights", "regiment", 150, 2), scene.player)
    before_choice = dump()
    battle = summer.choose_battle(scene.red, scene.player, "0504", scene.blue.pk)
    assert last_event(scene).summary == (
        "Red chooses to fight Blue at 0504: a land battle (Kings of War) (MK-BSEL-2, "
        "MK-BTYPE-1). Board 4'x4' (MK-BOARD-1). The draft list of Red's army #2 is fixed as "
        "written, since the army now fights (MK-RECRUIT-6).")
    red_list, blue_list = (ArmyList.objects.get(army__kingdom=k) for k in (scene.red,
                                                                           scene.blue))
    assert red_list.is_fixed and red_list.revealed_at_battle_id == battle.pk
    assert blue_list.is_fixed and not blue_list.units.exists()  # fought without a list
    red2 = scene.get_army(scene.red, 2)
    before = dump()
    message = ("Army #2 has fought: its list was revealed and fixed with the battle, and only "
               "losses change it now (MK-SETUP-7, MK-RECRUIT-6).")
    for attempt in (
        lambda: lists.add_unit(red2, mkb.UnitEntry("Scouts", "troop", 60, 1), scene.player),
        lambda: lists.update_unit(knights, mkb.UnitEntry("Knights", "horde", 250, 3),
                                  scene.player),
        lambda: lists.copy_unit(knights, scene.player),
        lambda: lists.remove_unit(knights, scene.player),
        lambda: lists.set_list_details(red2, scene.player, race="Elves", allied=False),
        lambda: lists.paste_army_list(red2, "Scouts, troop, 60; US 1", scene.player),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert str(refused.value) == message
    client = login(scene.player)
    edit = reverse("mk:armies:edit", args=[scene.campaign.slug, red2.pk])
    assert client.get(edit).status_code == 302
    save = reverse("mk:armies:save_unit", args=[scene.campaign.slug, red2.pk])
    response = client.post(save, {"name": "Scouts", "unit_type": "troop", "points": "60",
                                  "base_us": "1"})
    assert response.status_code == 409
    paste = reverse("mk:armies:paste", args=[scene.campaign.slug, red2.pk])
    assert client.post(paste, {"text": "Scouts, troop, 60; US 1"}).status_code == 409
    assert dump() == before
    # Undoing the choice gives the draft back.
    undo_latest(scene.refresh(), scene.gm)
    after = dump()
    assert after.pop("campaign.Event")[:-2] == before_choice.pop("campaign.Event")
    assert after == before_choice
    lists.add_unit(scene.get_army(scene.red, 2), mkb.UnitEntry("Scouts", "troop", 60, 1),
                   scene.player)
