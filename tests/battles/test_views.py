"""The armies pages for every persona: anonymous, outsider, observer, another player, the
army's player and the GM; list secrecy until a battle reveals it (MK-SETUP-7); the phone editor
with and without htmx; pasting; the GM's one form for a Kings of War result and its unit
results."""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import ArmyList, Battle, Unit, UnitStrengthEvent
from campaign.models import Event
from campaign.systems.mighty_kingdoms import forces as services
from campaign.systems.mighty_kingdoms.models import Ship
from tests.battles.conftest import World, dump, set_options, unit

pytestmark = pytest.mark.django_db

Login = Callable[[User | None], Client]
PERSONAS = ["anonymous", "outsider", "observer", "other", "player", "gm"]


def user_of(world: World, persona: str) -> User | None:
    return None if persona == "anonymous" else getattr(world, persona)


def url(world: World, name: str, *args: Any) -> str:
    return reverse(f"mk:armies:{name}", args=[world.campaign.slug, *args])


def kow_result_url(world: World, battle: Battle) -> str:
    return reverse("mk:battle_kow_result", args=[world.campaign.slug, battle.pk])


@pytest.fixture
def red_list(world: World) -> World:
    world.write(world.get(world.red, 1), [unit("Ironguard", "regiment", 145, 2,
                                               magic_item="Blessing of the Gods"),
                                          unit("Garrek", "hero", 150, 0, living_legend=True)])
    world.write(world.get(world.blue, 1), [unit("Spears", "horde", 200, 3)])
    return world


def draft(world: World) -> Unit:
    return services.add_unit(world.get(world.red, 2), unit("Scouts", "troop", 60, 1),
                             world.player)


# -- who may do what ----------------------------------------------------------------------------

READ = {"anonymous": 302, "outsider": 404, "observer": 200, "other": 200, "player": 200,
        "gm": 200}
SECRET = {"anonymous": 302, "outsider": 404, "observer": 403, "other": 403, "player": 200,
          "gm": 200}
OWNER = {"anonymous": 302, "outsider": 404, "observer": 403, "other": 403, "player": 302,
         "gm": 302}
GM = {"anonymous": 302, "outsider": 404, "observer": 403, "other": 403, "player": 403,
      "gm": 200}


@pytest.mark.parametrize("persona", PERSONAS)
def test_reading_pages(red_list: World, login: Login, persona: str) -> None:
    world = red_list
    client = login(user_of(world, persona))
    red1 = world.get(world.red, 1)
    assert client.get(url(world, "index")).status_code == READ[persona]
    assert client.get(url(world, "roster", world.red.pk)).status_code == READ[persona]
    assert client.get(url(world, "army", red1.pk)).status_code == SECRET[persona]
    editor = {**SECRET, "player": 200, "gm": 200}
    assert client.get(url(world, "edit", world.get(world.red, 2).pk)).status_code == \
        editor[persona]
    assert client.get(url(world, "paste", world.get(world.red, 2).pk)).status_code == \
        editor[persona]
    battle = world.fight()
    assert client.get(url(world, "battle", battle.pk)).status_code == GM[persona]


@pytest.mark.parametrize("persona", PERSONAS)
def test_writing_the_list(red_list: World, login: Login, persona: str) -> None:
    world = red_list
    client = login(user_of(world, persona))
    red2 = world.get(world.red, 2)
    scouts = draft(world)
    before = dump()
    expected = OWNER[persona]
    posts = [
        (url(world, "save_unit", red2.pk), {"name": "Knights", "unit_type": "regiment",
                                            "points": "150", "base_us": "2"}),
        (url(world, "copy_unit", red2.pk, scouts.pk), {}),
        (url(world, "details", red2.pk), {"race": "Dwarfs"}),
        (url(world, "remove_unit", red2.pk, scouts.pk), {}),
        (url(world, "paste", red2.pk), {"text": "Rangers, troop, 80; US 1"}),
        (url(world, "fix", red2.pk), {}),
    ]
    for address, data in posts:
        response = client.post(address, data)
        assert response.status_code == expected, (address, response.status_code)
    if persona not in ("player", "gm"):
        assert dump() == before
    else:
        army_list = ArmyList.objects.get(army=red2)
        assert army_list.is_fixed and army_list.race == "Dwarfs"
        assert list(army_list.units.values_list("name", flat=True)) == ["Rangers"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_artefacts_and_battle_actions(red_list: World, login: Login, persona: str) -> None:
    world = red_list
    set_options(world.campaign, module_artefacts=True)
    client = login(user_of(world, persona))
    red1 = world.get(world.red, 1)
    ironguard = Unit.objects.get(name="Ironguard")
    response = client.post(url(world, "artefact", red1.pk, ironguard.pk),
                           {"artefact": "Crown of Ages"})
    assert response.status_code == OWNER[persona]
    assert (Unit.objects.get(pk=ironguard.pk).artefact == "Crown of Ages") == (
        persona in ("player", "gm"))
    battle = world.fight()
    expected = {**GM, "gm": 302}[persona]
    assert client.post(url(world, "reveal", battle.pk)).status_code == expected
    spears = Unit.objects.get(name="Spears")
    # The result and the unit results go together, on the battle page, for the GM only.
    response = client.post(kow_result_url(world, battle),
                           {"result": "win", "unit_results": "1",
                            "units": [str(ironguard.pk), str(spears.pk)],
                            f"routed_{spears.pk}": "on"})
    assert response.status_code == expected
    assert UnitStrengthEvent.objects.count() == (1 if persona == "gm" else 0)
    assert (Battle.objects.get(pk=battle.pk).result_chooser == "win") == (persona == "gm")


# -- secrecy (MK-SETUP-7) ---------------------------------------------------------------------


def test_a_list_is_secret_until_a_battle_reveals_it(red_list: World, login: Login) -> None:
    world = red_list
    red1, red2 = world.get(world.red, 1), world.get(world.red, 2)
    other, observer = login(world.other), login(world.observer)
    roster = other.get(url(world, "roster", world.red.pk)).content.decode()
    assert "Ironguard" not in roster and "295 points" not in roster
    assert "Secret until it fights (MK-SETUP-7)" in roster
    assert other.get(url(world, "army", red1.pk)).status_code == 403
    battle = world.fight()
    assert other.get(url(world, "army", red1.pk)).status_code == 403  # chosen, not yet revealed
    services.reveal_battle_lists(battle, world.gm)
    page = other.get(url(world, "army", red1.pk))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ironguard" in text and "Blessing of the Gods" in text and "LL [1]" in text
    assert "295 points" in other.get(url(world, "roster", world.red.pk)).content.decode()
    # The player's own list of the other side is readable too; observers still see none of it.
    assert login(world.player).get(url(world, "army", world.get(world.blue, 1).pk)
                                   ).status_code == 200
    assert observer.get(url(world, "army", red1.pk)).status_code == 403
    # Red army #2 did not fight: still secret.
    assert other.get(url(world, "army", red2.pk)).status_code == 403
    assert Event.objects.latest("seq").summary == (
        f"The battle at {world.front.label} reveals the lists of Red's army #1 and Blue's army "
        "#1 to every player (MK-SETUP-7).")


def test_roster_visible_decides_for_every_persona(red_list: World) -> None:
    from campaign.access import Access
    from campaign.models import Membership, Role

    world = red_list
    red1 = world.get(world.red, 1)

    def access(user: User) -> Access:
        membership = Membership.objects.get(campaign=world.campaign, user=user)
        kingdom = membership.kingdoms.first()
        return Access(world.campaign, membership, membership.role, kingdom)

    seen = {name: services.roster_visible(access(getattr(world, name)), red1)
            for name in ("gm", "player", "other", "observer")}
    assert seen == {"gm": True, "player": True, "other": False, "observer": False}
    with pytest.raises(Membership.DoesNotExist):
        access(world.outsider)
    services.reveal_battle_lists(world.fight(), world.gm)
    red1 = world.get(world.red, 1)
    assert services.roster_visible(access(world.other), red1)
    assert not services.roster_visible(access(world.observer), red1)
    assert Role.GM == "gm"


# -- the roster page ----------------------------------------------------------------------------


def test_roster_shows_tokens_ships_and_simple_boxes(world: World, login: Login) -> None:
    set_options(world.campaign, battle_mode="simple")
    red1 = world.get(world.red, 1)
    red1.points, red1.defending = 340, True
    red1.save()
    Ship.objects.create(campaign=world.campaign, kingdom=world.red, number=3, tile=world.front,
                        paired_army=red1)
    world.get(world.red, 2).__class__.objects.filter(pk=world.get(world.red, 2).pk).update(
        on_side=True)
    text = login(world.player).get(url(world, "roster", world.red.pk)).content.decode()
    assert "<strong>340</strong> of 500" in text
    assert 'class="full">100</li>' in text and ">40</li>" in text and 'class="empty">100' in text
    assert "carried by ship #3" in text and "defending" in text and "On its side" in text
    assert "Write the list" not in text  # Simple battles have no lists
    hidden = login(world.other).get(url(world, "roster", world.red.pk)).content.decode()
    # Without the page's random tokens (CSRF) and moments (the live poll's, to the
    # microsecond), which may hold any three digits.
    hidden = re.sub(r"[A-Za-z0-9]{32,}|\d{4}-\d\d-\d\d[ T][\d:.]+(?:[+-]\d\d:\d\d|Z)?", "",
                    hidden)
    assert "340" not in hidden and "carried by ship #3" in hidden


def test_roster_page_queries_stay_flat(world: World, login: Login) -> None:
    def count(client: Client) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(world, "roster", world.red.pk)).status_code == 200
        return len(queries)

    world.write(world.get(world.red, 1), [unit("A"), unit("B")])
    clients = [login(world.gm), login(world.player), login(world.other)]
    small = [count(c) for c in clients]
    for n in range(3, 13):
        army = world.army(world.red, n)
        world.write(army, [unit(f"Unit {n}"), unit(f"Other {n}")])
        if n % 2:
            Ship.objects.create(campaign=world.campaign, kingdom=world.red, number=n,
                                tile=army.tile, paired_army=army)
    services.reveal_battle_lists(world.fight(), world.gm)
    assert world.red.armies.count() == 12
    assert [count(c) for c in clients] == small


# -- the editor ---------------------------------------------------------------------------------


def test_adding_a_unit_with_htmx_returns_the_editor(world: World, login: Login) -> None:
    client = login(world.player)
    red1 = world.get(world.red, 1)
    page = client.get(url(world, "edit", red1.pk)).content.decode()
    assert 'inputmode="numeric"' in page and 'name="viewport"' in page
    response = client.post(url(world, "save_unit", red1.pk),
                           {"name": "Ironguard", "unit_type": "regiment", "points": "145",
                            "base_us": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="editor"') and "<html" not in text
    assert "Ironguard" in text and "145 of 500 points" in text and " autofocus" in text
    bad = client.post(url(world, "save_unit", red1.pk),
                      {"name": "", "unit_type": "", "points": "abc"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400
    assert "Say what type of unit it is." in bad.content.decode()
    assert Unit.objects.count() == 1
    # Another type typed in, a Living Legend, and a change through ?unit=.
    client.post(url(world, "save_unit", red1.pk),
                {"name": "Garrek", "unit_type": "", "other_type": "hero (infantry)",
                 "points": "100", "base_us": "0", "living_legend": "on",
                 "keywords": "hero, inspiring"})
    garrek = Unit.objects.get(name="Garrek")
    assert (garrek.unit_type, garrek.living_legend, garrek.keywords) == (
        "hero (infantry)", True, ["hero", "inspiring"])
    form = client.get(url(world, "edit", red1.pk) + f"?unit={garrek.pk}").content.decode()
    assert '<option value="hero (infantry)" selected>' in form and "Change Garrek" in form
    response = client.post(url(world, "save_unit", red1.pk),
                           {"unit": str(garrek.pk), "name": "Garrek", "unit_type": "hero",
                            "points": "120", "base_us": "0"})
    assert response.status_code == 302
    assert Unit.objects.get(pk=garrek.pk).points == 120
    assert client.post(url(world, "copy_unit", red1.pk, garrek.pk),
                       HTTP_HX_REQUEST="true").status_code == 200
    assert Unit.objects.filter(name="Garrek").count() == 2


def test_fixing_a_bad_list_shows_every_problem(world: World, login: Login) -> None:
    client = login(world.player)
    red1 = world.get(world.red, 1)
    for name, points in (("Big", 400), ("Bigger", 101)):
        services.add_unit(red1, unit(name, points=points), world.player)
    services.add_unit(red1, unit("Ally", points=1, allied=True), world.player)
    page = client.get(url(world, "edit", red1.pk)).content.decode()
    assert "Before the list can be fixed" in page and "502 points" in page
    before = dump()
    response = client.post(url(world, "fix", red1.pk))
    assert response.status_code == 409
    text = response.content.decode()
    assert "The list totals 502 points" in text and "Ally is an allied unit" in text
    assert dump() == before
    Unit.objects.filter(name__in=["Ally", "Bigger"]).delete()
    response = client.post(url(world, "fix", red1.pk))
    assert response.status_code == 302
    assert response["Location"] == url(world, "army", red1.pk)
    # A fixed list's editor sends you to the army page.
    assert client.get(url(world, "edit", red1.pk))["Location"] == url(world, "army", red1.pk)
    assert client.post(url(world, "save_unit", red1.pk),
                       {"name": "X", "unit_type": "troop", "points": "5", "base_us": "1"}
                       ).status_code == 409


def test_paste_with_a_malformed_line(world: World, login: Login) -> None:
    client = login(world.player)
    red1 = world.get(world.red, 1)
    before, events = dump(), Event.objects.count()
    response = client.post(url(world, "paste", red1.pk), {
        "text": "Ironguard, regiment, 145; US 2\nSpears, horde\nGarrek, hero, 100; US 0",
        "fix": "on"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Line 2: Write each unit as: name, type, points." in text
    assert "Nothing was saved" in text and "Garrek, hero, 100; US 0" in text  # kept to fix
    assert dump() == before and Event.objects.count() == events
    response = client.post(url(world, "paste", red1.pk), {
        "text": "Ironguard, regiment, 145; US 2\nSpears, horde, 400; US 3", "fix": "on"})
    assert response.status_code == 409
    assert "The list totals 545 points" in response.content.decode()
    assert dump() == before
    response = client.post(url(world, "paste", red1.pk), {
        "text": "Ironguard, regiment, 145; US 2\nSpears, horde, 200; US 3", "race": "Dwarfs"})
    assert response["Location"] == url(world, "edit", red1.pk)
    response = client.post(url(world, "paste", red1.pk), {
        "text": "Ironguard, regiment, 145; US 2", "fix": "on"})
    assert response["Location"] == url(world, "army", red1.pk)
    assert client.post(url(world, "paste", red1.pk), {"text": "A, troop, 5"}).status_code == 409
    assert client.post(url(world, "paste", world.get(world.red, 2).pk), {"text": ""}
                       ).status_code == 400


def test_simple_campaigns_have_no_editor(world: World, login: Login) -> None:
    set_options(world.campaign, battle_mode="simple")
    client = login(world.player)
    red1 = world.get(world.red, 1)
    assert client.get(url(world, "edit", red1.pk)).status_code == 404
    assert client.get(url(world, "army", red1.pk)).status_code == 200


def test_other_systems_and_other_campaigns_404(world: World, login: Login) -> None:
    from tests.conftest import make_campaign

    elsewhere = make_campaign(world.gm, slug="elsewhere")
    client = login(world.gm)
    red1 = world.get(world.red, 1)
    assert client.get(reverse("mk:armies:army", args=["elsewhere", red1.pk])
                      ).status_code == 404
    assert client.get(reverse("mk:armies:edit", args=["elsewhere", red1.pk])
                      ).status_code == 404
    assert elsewhere.pk


# -- the GM's unit results ----------------------------------------------------------------------


def test_gm_enters_a_kow_result_with_its_unit_results_in_one_form(red_list: World,
                                                                    login: Login) -> None:
    world = red_list
    client = login(world.gm)
    battle = world.fight()
    ironguard, garrek, spears = (Unit.objects.get(name=n) for n in ("Ironguard", "Garrek",
                                                                      "Spears"))
    page = client.get(url(world, "battle", battle.pk)).content.decode()
    assert "Reveal the lists to every player" in page and "Enter the result" in page
    play = client.get(reverse("mk:battle_play", args=[world.campaign.slug, battle.pk]))
    assert f'name="routed_enemy_{ironguard.pk}"' in play.content.decode()
    assert f'name="routed_{spears.pk}"' in play.content.decode()
    # The Armies page only shows the battle: results are entered on the battle page.
    assert client.post(url(world, "battle", battle.pk), {"units": []}).status_code == 405
    units = [str(u.pk) for u in (ironguard, garrek, spears)]
    before, events = dump(), Event.objects.count()
    refused = client.post(kow_result_url(world, battle),
                          {"result": "win", "unit_results": "1", "units": units,
                           f"routed_enemy_{ironguard.pk}": "on",
                           f"routed_enemy_{garrek.pk}": "on", f"routed_{spears.pk}": "on"})
    assert refused.status_code == 409
    assert "Red: 2 units are credited" in refused.content.decode()
    for data in ({"result": "win", "units": ["x"]}, {"result": "", "units": units},
                 {"result": "win", "units": units + units}):
        assert client.post(kow_result_url(world, battle), data).status_code == 409
    assert dump() == before and Event.objects.count() == events
    response = client.post(kow_result_url(world, battle),
                           {"result": "win", "unit_results": "1", "units": units,
                            f"routed_enemy_{ironguard.pk}": "on",
                            f"routed_{spears.pk}": "on", f"routed_{garrek.pk}": "on"})
    assert response.status_code == 302
    assert Event.objects.count() == events + 1  # one chronicle entry for the whole battle
    page = client.get(url(world, "battle", battle.pk)).content.decode()
    assert "routed an enemy (+1)" in page and "now 3, fights at 3" in page
    assert "Every player may read the lists" in page
    assert sorted(UnitStrengthEvent.objects.values_list("unit__name", "delta")) == [
        ("Garrek", -1), ("Ironguard", 1), ("Spears", -1)]
    army_page = client.get(url(world, "army", world.get(world.red, 1).pk)).content.decode()
    assert "Pencil marks (1)" in army_page and "fights at <strong>0</strong>" in army_page
    # The index lists it for the GM.
    assert "results in" in client.get(url(world, "index")).content.decode()
    simple = world.fight(mode="simple")
    refused = client.post(kow_result_url(world, simple),
                          {"result": "win", "units": [str(ironguard.pk)]})
    assert refused.status_code == 409 and b"(MK-US-8)" in refused.content
    assert "does not change" in client.get(url(world, "battle", simple.pk)).content.decode()
    assert client.get(url(world, "battle", 999999)).status_code == 404
    assert Battle.objects.count() == 2
