"""Wizard's quests through the services and views (MK-QUEST-1..7, MK-AMB-22, TV-MK-10).

The summer scene (tests/mk/test_summer_scene.py) moved to winter C) 2. Build and recruit, with a
Wizard's Tower at 0404 (next to Red's fortress 0403 and Blue's village 0504) and one at 0304
(next to Red only). Red army #1 has a fixed list: the Hero Garrek and the regiment Ironguard.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models import Army, ArmyList, Unit, UnitStrengthEvent
from campaign.chronicle import undo_latest
from campaign.models import Campaign, Event, Kingdom, Tile
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import advanced
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.models import Artefact, Purchase, WizardQuest
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_summer_scene import FixedDice, Scene, campaign, scene  # noqa: F401

pytestmark = pytest.mark.django_db

DUMPED = (Tile, Army, ArmyList, Unit, UnitStrengthEvent, Artefact, WizardQuest, Purchase,
          Kingdom, Campaign)
POOL = (("Amulet of Dawn", 10), ("Crown of Ages", 25), ("Orb of Night", 40),
        ("Ring of Storms", 45))


def dump() -> dict[str, list[dict[str, Any]]]:
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in DUMPED}


def set_options(scene: Scene, **options: Any) -> None:
    Campaign.objects.filter(pk=scene.campaign.pk).update(
        options={**scene.campaign.options, **options})
    scene.refresh()


def to_buy(scene: Scene) -> None:
    Campaign.objects.filter(pk=scene.campaign.pk).update(season="winter", year=1, month=None,
                                                         phase="C", sub_phase=mk.SUB_BUY)
    scene.refresh()


def fixed_list(army: Army, *units: tuple[str, str, int, int | None]) -> list[Unit]:
    army_list = ArmyList.objects.create(army=army, race="Dwarfs", fixed_at=timezone.now())
    return [Unit.objects.create(army_list=army_list, position=n, name=name, unit_type=kind,
                                points=points, base_us=base_us)
            for n, (name, kind, points, base_us) in enumerate(units, start=1)]


@pytest.fixture
def quest_scene(scene: Scene) -> Scene:
    set_options(scene, module_wizard_towers=True, module_artefacts=True, battle_mode="kow")
    for label in ("0404", "0304"):
        scene.set_tile(label, explored=True, data={"wizard_tower": True})
    fixed_list(scene.get_army(scene.red, 1), ("Garrek", "hero", 150, 0),
               ("Ironguard", "regiment", 120, 2))
    fixed_list(scene.get_army(scene.blue, 1), ("Thane", "hero", 100, 0),
               ("Spears", "regiment", 100, 2))
    for name, points in POOL:
        Artefact.objects.create(campaign=scene.campaign, name=name, points=points)
    to_buy(scene)
    return scene


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    def install(*values: int) -> FixedDice:
        rolled = FixedDice(*values)
        monkeypatch.setattr(advanced, "RNG", rolled)
        return rolled

    return install


def hero(name: str) -> Unit:
    return Unit.objects.get(name=name)


def last_event(scene: Scene) -> Event:
    return Event.objects.filter(campaign=scene.campaign).order_by("-seq").first()


def turn(scene: Scene) -> int | None:
    return ws.cycle(load_state(scene.refresh()), mk.SUB_BUY)[1]


# --- TV-MK-10 and each row of the table (MK-QUEST-3/4/6) -----------------------------------


@pytest.mark.parametrize(("cost", "die", "modifier", "total", "result"), [
    (95, 1, 0, 1, "hero_lost"),
    (150, 5, 1, 6, "rare_artefact"),
    (100, 1, 1, 2, "injured"),
    (250, 1, 2, 3, "nothing"),
    (199, 3, 1, 4, "artefact"),
])
def test_tv_mk_10_quest_rows_through_the_service(quest_scene: Scene, dice: Any, cost: int,
                                                  die: int, modifier: int, total: int,
                                                  result: str) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=cost)
    dice(1)
    advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=hero("Garrek").pk,
                        die=die)
    quest = WizardQuest.objects.get()
    assert (quest.die, quest.modifier, quest.total, quest.result) == (die, modifier, total,
                                                                      result)
    assert quest.year == 1 and quest.tower.label == "0404" and quest.kingdom_id == scene.red.pk
    event = last_event(scene)
    assert event.kind == "winter.quest" and event.dice[0] == {
        "purpose": "quest", "values": [die], "source": "table"}
    assert event.summary.startswith(
        f"Red sends Garrek ({cost} points) to the Wizard's Tower at 0404: "
        f"{die} + {modifier} = {total}, ")
    # MK-AMB-22: the quest is Red's purchase turn, free; Blue is next.
    purchase = Purchase.objects.get()
    assert (purchase.kind, purchase.tile_label, purchase.gold, purchase.food) == (
        "quest", "0404", 0, 0)
    assert turn(scene) == scene.blue.pk


def test_mk_quest_4_result_1_crosses_the_hero_off(quest_scene: Scene) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=95)
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=1)
    garrek = hero("Garrek")
    assert garrek.destroyed_reason == Unit.Reason.QUEST and garrek.destroyed_year == 1
    assert "Garrek is crossed off army #1's list (MK-QUEST-4)." in summary
    assert scene.get_army(scene.red, 1).tile is not None


def test_mk_quest_4_last_unit_lost_removes_the_army(quest_scene: Scene) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Ironguard").update(destroyed_reason="battle")
    Unit.objects.filter(name="Garrek").update(points=60)
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=1)
    army = scene.get_army(scene.red, 1)
    assert army.tile is None and army.data["removed"]["rule"] == "MK-REFORM-7"
    assert "Army #1 has no unit left and is removed (MK-REFORM-7)." in summary


def test_mk_quest_4_result_2_injures_and_checks_destruction(quest_scene: Scene) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=100)
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=1)
    (event,) = UnitStrengthEvent.objects.all()
    assert (event.unit.name, event.delta, event.reason, event.battle) == (
        "Garrek", -1, "quest", None)
    assert event.event_id == last_event(scene).pk
    assert not hero("Garrek").destroyed
    assert "Garrek loses 1 Unit Strength, now -1 (MK-QUEST-4)." in summary


def test_mk_reform_5_an_injury_to_minus_2_destroys_at_once(quest_scene: Scene) -> None:
    scene = quest_scene
    garrek = hero("Garrek")
    Unit.objects.filter(pk=garrek.pk).update(points=100)
    UnitStrengthEvent.objects.create(unit=garrek, delta=-1, reason="routed")
    summary = advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=garrek.pk,
                                  die=1)
    assert hero("Garrek").destroyed_reason == Unit.Reason.REFORM
    assert "now -2 (MK-QUEST-4). At -2 it is destroyed (MK-REFORM-5)." in summary


def test_mk_quest_4_result_3_changes_nothing_but_the_turn(quest_scene: Scene) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=250)
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=1)
    assert summary == ("Red sends Garrek (250 points) to the Wizard's Tower at 0404: 1 + 2 = 3, "
                       "the Hero comes back with nothing (MK-QUEST-3/4).")
    assert not UnitStrengthEvent.objects.exists() and not hero("Garrek").destroyed
    assert Artefact.objects.filter(in_pool=True).count() == 4


@pytest.mark.parametrize(("die", "pick", "won"), [
    (3, 1, "Amulet of Dawn"),  # 3 + 1 = 4: 5-15 points, the only one
    (4, 1, "Crown of Ages"),  # 5: 20-30 points
    (5, 2, "Ring of Storms"),  # 6+: 35-50, Orb or Ring, the second
])
def test_mk_quest_4_artefacts_are_drawn_from_the_band(quest_scene: Scene, dice: Any, die: int,
                                                      pick: int, won: str) -> None:
    scene = quest_scene
    rolled = dice(pick)
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=die)
    assert rolled.used == [pick]
    artefact = Artefact.objects.get(name=won)
    assert (artefact.in_pool, artefact.held_by_capital_of_id, artefact.holder_unit_id) == (
        False, scene.red.pk, None)
    assert WizardQuest.objects.get().artefact == artefact
    assert last_event(scene).dice[1]["purpose"].startswith("artefact draw among")
    assert won not in summary  # the chronicle is public: the card stays secret
    assert "keeps the artefact in its Capital City until winter D) Deploy" in summary


def test_mk_quest_6_a_500_point_hero_always_scores_6(quest_scene: Scene, dice: Any) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=500)
    dice(1, 1)
    advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=hero("Garrek").pk)
    quest = WizardQuest.objects.get()
    assert (quest.die, quest.total, quest.result) == (1, 6, "rare_artefact")
    assert last_event(scene).dice[0]["source"] == "server"


def test_a_gm_records_a_physical_draw(quest_scene: Scene) -> None:
    scene = quest_scene
    orb = Artefact.objects.get(name="Orb of Night")
    crown = Artefact.objects.get(name="Crown of Ages")
    before = dump()
    with pytest.raises(ServiceError, match=r"not in the pool's 35-50 points band "
                                           r"\(MK-QUEST-4, MK-ART-1\)"):
        advanced.send_quest(scene.red, scene.gm, tower="0404", hero_id=hero("Garrek").pk,
                            die=5, artefact_id=crown.pk, gm=True)
    with pytest.raises(ServiceError, match=r"Only a GM records a physical artefact draw"):
        advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=hero("Garrek").pk,
                            die=5, artefact_id=orb.pk)
    assert dump() == before
    advanced.send_quest(scene.red, scene.gm, tower="0404", hero_id=hero("Garrek").pk, die=5,
                        artefact_id=orb.pk, gm=True)
    assert Artefact.objects.get(pk=orb.pk).held_by_capital_of_id == scene.red.pk


def test_an_empty_band_brings_nothing_back(quest_scene: Scene) -> None:
    scene = quest_scene
    Artefact.objects.filter(points__gte=35).delete()
    summary = advanced.send_quest(scene.red, scene.player, tower="0404",
                                  hero_id=hero("Garrek").pk, die=5)
    assert "The pool has no artefact of 35-50 points left" in summary
    assert WizardQuest.objects.get().artefact is None


# --- eligibility (MK-QUEST-1/2/3/7, MK-AMB-22, MK-BUY-1) ------------------------------------


def refused(call: Any, match: str) -> None:
    before = dump()
    with pytest.raises((ServiceError, mk.RuleViolation), match=match):
        call()
    assert dump() == before


def test_quest_refusals_change_nothing(quest_scene: Scene) -> None:
    scene = quest_scene
    garrek, thane = hero("Garrek"), hero("Thane")
    refused(lambda: advanced.send_quest(scene.blue, scene.other, tower="0404", hero_id=thane.pk,
                                        die=3), r"It is Red's turn \(MK-BUY-1\)")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=hero("Ironguard").pk, die=3),
            r"Ironguard is not a Hero; only Heroes go on quests \(MK-QUEST-3\)")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=thane.pk,
                                        die=3), r"Pick a Hero of a fixed army list of Red")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0303",
                                        hero_id=garrek.pk, die=3),
            r"There is no Wizard's Tower at 0303")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=garrek.pk, die=7), r"MK-QUEST-3")
    scene.set_tile("0106", explored=True, data={"wizard_tower": True})
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0106",
                                        hero_id=garrek.pk, die=3),
            r"Your kingdom controls no tile next to the tower at 0106 \(MK-QUEST-1\)")
    set_options(scene, battle_mode="simple")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=garrek.pk, die=3),
            r"only in Kings of War mode \(MK-QUEST-7, MK-AMB-22\)")
    set_options(scene, battle_mode="kow", module_wizard_towers=False)
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=garrek.pk, die=3),
            r"need the Wizard's towers module \(MK-CFG-3, MK-WIZ-5\)")
    set_options(scene, module_wizard_towers=True)
    Campaign.objects.filter(pk=scene.campaign.pk).update(sub_phase=mk.SUB_TITHE)
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=garrek.pk, die=3),
            r"a quest is a purchase of winter C\) 2. Build and recruit \(MK-AMB-22\)")


def test_mk_quest_1_2_one_hero_per_tower_one_quest_per_hero(quest_scene: Scene) -> None:
    scene = quest_scene
    red1 = scene.get_army(scene.red, 1)
    second = Unit.objects.create(army_list=red1.army_list, position=3, name="Brokk",
                                 unit_type="hero (infantry)", points=80, base_us=0)
    advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=hero("Garrek").pk, die=3)
    # Heroes of other kingdoms may quest at the same tower (MK-QUEST-2).
    advanced.send_quest(scene.blue, scene.other, tower="0404", hero_id=hero("Thane").pk, die=3)
    assert turn(scene) == scene.red.pk
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0304",
                                        hero_id=hero("Garrek").pk, die=3),
            r"Garrek has already been on a quest this winter \(MK-QUEST-2\)")
    refused(lambda: advanced.send_quest(scene.red, scene.player, tower="0404",
                                        hero_id=second.pk, die=3),
            r"already sent a Hero to the tower at 0404 this winter \(MK-QUEST-1\)")
    choice = advanced.quest_choice(load_state(scene.refresh()), scene.red)
    assert choice.eligible and choice.towers == ["0304"]
    assert [u.name for u in choice.heroes] == ["Brokk"]
    advanced.send_quest(scene.red, scene.player, tower="0304", hero_id=second.pk, die=3)
    assert WizardQuest.objects.count() == 3


def test_quest_choice_gives_the_reason(quest_scene: Scene) -> None:
    scene = quest_scene
    state = load_state(scene.campaign)
    assert advanced.quest_choice(state, scene.red).eligible
    assert advanced.quest_choice(state, scene.blue).reason == (
        "It is Red's turn: one purchase or quest per turn (MK-BUY-1, MK-AMB-22).")
    scene.set_tile("0304", data={})
    scene.set_tile("0404", data={})
    assert advanced.quest_choice(load_state(scene.campaign), scene.red).reason == (
        "Your kingdom controls no tile next to a Wizard's Tower (MK-QUEST-1).")


# --- undo -------------------------------------------------------------------------------


@pytest.mark.parametrize(("cost", "die"), [(95, 1), (100, 1), (250, 1), (150, 5)])
def test_undo_restores_a_quest_exactly(quest_scene: Scene, dice: Any, cost: int,
                                       die: int) -> None:
    scene = quest_scene
    Unit.objects.filter(name="Garrek").update(points=cost)
    Unit.objects.filter(name="Ironguard").update(destroyed_reason="battle")
    dice(1)
    before = dump()
    advanced.send_quest(scene.red, scene.player, tower="0404", hero_id=hero("Garrek").pk,
                        die=die)
    assert dump() != before
    undo_latest(scene.refresh(), scene.gm)
    assert dump() == before
    assert turn(scene) == scene.red.pk


# --- views and access ----------------------------------------------------------------------


def client_for(scene: Scene, persona: str, login: Any, observer: Any, outsider: Any) -> Client:
    users = {"anonymous": None, "outsider": outsider, "observer": observer,
             "other": scene.other, "player": scene.player, "gm": scene.gm}
    return login(users[persona])


@pytest.mark.parametrize(("persona", "status"), [
    ("anonymous", 302), ("outsider", 404), ("observer", 403), ("other", 409), ("player", 302),
    ("gm", 302),
])
def test_quest_view_access(quest_scene: Scene, login: Any, observer: Any, outsider: Any,
                           persona: str, status: int) -> None:
    scene = quest_scene
    client = client_for(scene, persona, login, observer, outsider)
    data = {"kingdom": str(scene.red.pk), "tower": "0404", "hero": str(hero("Garrek").pk),
            "die": "2"}
    if persona == "other":
        data["hero"] = str(hero("Thane").pk)
    response = client.post(scene.mk_url("quest"), data)
    assert response.status_code == status
    assert WizardQuest.objects.count() == (1 if persona in ("player", "gm") else 0)
    if persona == "other":
        assert "It is Red&#x27;s turn (MK-BUY-1)." in response.content.decode()


def test_quest_from_the_play_page_with_htmx(quest_scene: Scene, login: Any) -> None:
    scene = quest_scene
    client = login(scene.player)
    page = client.get(scene.play_url()).content.decode()
    assert "Wizard's quest (MK-QUEST)" in page and 'name="hero"' in page
    other_page = login(scene.other).get(scene.play_url()).content.decode()
    assert "It is Red&#x27;s turn: one purchase or quest per turn" in other_page
    assert 'action="' + scene.mk_url("quest") not in other_page
    response = client.post(scene.mk_url("quest"),
                           {"tower": "0404", "hero": str(hero("Garrek").pk), "die": "2",
                            "back": "play"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Wizard's quest at 0404" in body and "(free)" in body
    refused_response = client.post(scene.mk_url("quest"), {"tower": "0404", "hero": "x"},
                                   HTTP_HX_REQUEST="true")
    assert refused_response.status_code == 400


@pytest.mark.parametrize(("persona", "status"), [
    ("anonymous", 302), ("outsider", 404), ("observer", 200), ("other", 200), ("player", 200),
    ("gm", 200),
])
def test_page_access_and_secrets(quest_scene: Scene, login: Any, observer: Any, outsider: Any,
                                 persona: str, status: int) -> None:
    scene = quest_scene
    Artefact.objects.filter(name="Crown of Ages").update(in_pool=False,
                                                         held_by_capital_of=scene.red)
    client = client_for(scene, persona, login, observer, outsider)
    response = client.get(reverse("mk:advanced", args=[scene.campaign.slug]))
    assert response.status_code == status
    if status != 200:
        return
    body = response.content.decode()
    assert "Amulet of Dawn" in body  # the pool is public
    assert ("Crown of Ages" in body) == (persona in ("player", "gm"))
    assert ("Send the Hero" in body) == (persona in ("player", "gm"))
    assert ("Add to the pool" in body) == (persona == "gm")
