"""The unit catalogue: who may read and keep it, imports refused whole with numbered lines,
every write an undoable event, and the MK list editor filling a unit from a profile."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from battles import catalogue
from battles.models import Unit, UnitProfile
from battles.rules.catalogue import ProfileEntry
from campaign.chronicle import snapshot, undo_latest
from campaign.models import Event
from tests.battles.conftest import World

pytestmark = pytest.mark.django_db

Login = Callable[[User | None], Client]
PERSONAS = ["anonymous", "outsider", "observer", "other", "player", "gm"]
IRONGUARD = ProfileEntry("Ironguard", "regiment", 145, 2, "Sp 4 Me 3+ De 5+", "Headstrong")


def user_of(world: World, persona: str) -> User | None:
    return None if persona == "anonymous" else getattr(world, persona)


def url(world: World, name: str, *args: Any) -> str:
    return reverse(f"campaign:catalogue:{name}", args=[world.campaign.slug, *args])


def profiles() -> list[dict[str, Any]]:
    return [snapshot(p) for p in UnitProfile.objects.order_by("pk")]


FORM = {"name": "Ironguard", "unit_type": "regiment", "points": "145", "base_us": "2",
        "stats": "Sp 4  Me 3+ De 5+", "special_rules": "Headstrong"}


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_member_reads_the_catalogue(world: World, login: Login, persona: str) -> None:
    catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    response = login(user_of(world, persona)).get(url(world, "index"))
    expected = {"anonymous": 302, "outsider": 404}.get(persona, 200)
    assert response.status_code == expected
    if expected == 200:
        text = response.content.decode()
        assert "Ironguard" in text and "Sp 4 Me 3+ De 5+" in text
        assert ("Add a profile" in text) == (persona == "gm")


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_gm_keeps_the_catalogue(world: World, login: Login, persona: str) -> None:
    profile = catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    client = login(user_of(world, persona))
    before = profiles()
    answers = [
        client.post(url(world, "add"), {**FORM, "name": "Spears"}).status_code,
        client.post(url(world, "edit", profile.pk), {**FORM, "points": "150"}).status_code,
        client.post(url(world, "import"), {"text": "Scouts, troop, 60"}).status_code,
        client.post(url(world, "remove", profile.pk)).status_code,
    ]
    if persona == "gm":
        assert answers == [302, 302, 302, 302]
        assert [(p.name, p.points) for p in UnitProfile.objects.all()] == [
            ("Scouts", 60), ("Spears", 145)]
    else:
        refused = {"anonymous": 302, "outsider": 404}.get(persona, 403)
        assert answers == [refused] * 4
        assert profiles() == before


def test_adding_tidies_the_fields_and_refuses_a_second_profile_of_the_same_name_and_type(
        world: World, login: Login) -> None:
    client = login(world.gm)
    assert client.post(url(world, "add"), FORM).status_code == 302
    profile = UnitProfile.objects.get()
    assert (profile.name, profile.unit_type, profile.points, profile.base_us, profile.stats,
            profile.special_rules) == ("Ironguard", "regiment", 145, 2, "Sp 4 Me 3+ De 5+",
                                       "Headstrong")
    again = client.post(url(world, "add"), {**FORM, "name": "ironguard", "unit_type": "Regiment"})
    assert again.status_code == 409
    assert "already has ironguard (Regiment)" in again.content.decode()
    assert UnitProfile.objects.count() == 1
    bad = client.post(url(world, "add"), {**FORM, "points": "٣"})
    assert bad.status_code == 400
    assert UnitProfile.objects.count() == 1


def test_an_import_with_one_bad_line_writes_nothing_and_lists_each_bad_line(
        world: World, login: Login) -> None:
    catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    before, events = profiles(), Event.objects.count()
    response = login(world.gm).post(url(world, "import"), {
        "text": "Spears, horde, 200; US 3\nOgres, horde\nScouts, troop, 60; US 7\n"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Nothing was imported." in text
    assert "Line 2: write it as: name, type, points" in text
    assert "Line 3: Unit Strength must be a whole number from 0 to 5, not &#x27;7&#x27;." in text
    assert profiles() == before and Event.objects.count() == events


def test_a_text_import_adds_new_profiles_and_changes_those_of_the_same_name_and_type(
        world: World, login: Login) -> None:
    catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    catalogue.add_profile(world.campaign, ProfileEntry("Scouts", "troop", 60, 1), world.gm)
    response = login(world.gm).post(url(world, "import"), {
        "text": "IRONGUARD, regiment, 150; US 2\nScouts, troop, 60; US 1\nSpears, horde, 200\n"})
    assert response.status_code == 302
    rows = {(p.name, p.unit_type): (p.points, p.base_us, p.stats)
            for p in UnitProfile.objects.all()}
    assert rows == {("IRONGUARD", "regiment"): (150, 2, ""), ("Scouts", "troop"): (60, 1, ""),
                    ("Spears", "horde"): (200, None, "")}
    event = Event.objects.filter(kind="catalogue.imported").get()
    assert event.summary == ("Unit catalogue imported: 1 added, 1 changed, 1 already as given.")
    assert event.visibility == "public"


def test_a_csv_file_imports_and_a_bad_row_is_named_by_its_line(world: World,
                                                                login: Login) -> None:
    client = login(world.gm)
    bad = SimpleUploadedFile("army.csv", b"name,type,points,us\nSpears,horde,200,3\n"
                                         b"Ogres,horde,-5,2\n", content_type="text/csv")
    response = client.post(url(world, "import"), {"file": bad})
    assert response.status_code == 400
    assert "Line 3: points must be a whole number, not &#x27;-5&#x27;." in (
        response.content.decode())
    assert UnitProfile.objects.count() == 0
    good = SimpleUploadedFile("army.csv", "\ufeffname,type,points,us,rules\n"
                              "Spears,horde,200,3,\"Phalanx, Shield Wall\"\n".encode(),
                              content_type="text/csv")
    assert client.post(url(world, "import"), {"file": good}).status_code == 302
    assert [(p.name, p.base_us, p.special_rules) for p in UnitProfile.objects.all()] == [
        ("Spears", 3, "Phalanx, Shield Wall")]


def test_an_import_that_changes_nothing_is_refused_without_an_event(world: World,
                                                                    login: Login) -> None:
    catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    events = Event.objects.count()
    response = login(world.gm).post(url(world, "import"), {
        "text": "Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ De 5+; rules Headstrong"})
    assert response.status_code == 409
    assert "Nothing to import" in response.content.decode()
    assert Event.objects.count() == events


@pytest.mark.parametrize("action", ["add", "change", "remove", "import"])
def test_every_catalogue_write_is_undone_exactly(world: World, action: str) -> None:
    profile = catalogue.add_profile(world.campaign, IRONGUARD, world.gm)
    before = profiles()
    if action == "add":
        catalogue.add_profile(world.campaign, ProfileEntry("Spears", "horde", 200), world.gm)
    elif action == "change":
        catalogue.update_profile(profile, ProfileEntry("Ironguard", "horde", 250, 3), world.gm)
    elif action == "remove":
        catalogue.remove_profile(profile, world.gm)
    else:
        catalogue.import_profiles(world.campaign, [
            ProfileEntry("Ironguard", "regiment", 150), ProfileEntry("Spears", "horde", 200)],
            world.gm)
    assert profiles() != before
    undo_latest(world.campaign, world.gm)
    assert profiles() == before


def test_the_list_editor_fills_a_unit_from_a_profile_and_keeps_it_editable(
        world: World, login: Login) -> None:
    profile = catalogue.add_profile(world.campaign, ProfileEntry(
        "Garrek", "hero (infantry)", 100, 1, "Sp 5 Me 3+", "Inspiring"), world.gm)
    army = world.get(world.red, 1)
    client = login(world.player)
    editor = reverse("mk:armies:edit", args=[world.campaign.slug, army.pk])
    page = client.get(editor).content.decode()
    assert "From the unit catalogue" in page and "Garrek (hero (infantry), 100 pts)" in page
    filled = client.get(editor, {"profile": profile.pk}, HTTP_HX_REQUEST="true")
    text = filled.content.decode()
    assert filled.status_code == 200
    assert 'id="id_name" name="name" value="Garrek"' in text
    assert 'value="100"' in text and 'value="Sp 5 Me 3+"' in text
    assert '<option value="hero (infantry)" selected>' in text
    assert '<option value="1" selected>' in text
    # The player changes the points before adding: the unit is theirs, not the profile's.
    response = client.post(reverse("mk:armies:save_unit", args=[world.campaign.slug, army.pk]), {
        "name": "Garrek", "unit_type": "hero (infantry)", "points": "110", "base_us": "1",
        "stats": "Sp 5 Me 3+", "special_rules": "Inspiring"})
    assert response.status_code == 302
    unit = Unit.objects.get(army_list__army=army)
    assert (unit.name, unit.unit_type, unit.points, unit.base_us, unit.stats,
            unit.special_rules) == ("Garrek", "hero (infantry)", 110, 1, "Sp 5 Me 3+",
                                    "Inspiring")
    assert UnitProfile.objects.get().points == 100


def test_the_editor_refuses_a_profile_of_another_campaign_or_no_id(world: World, login: Login,
                                                                   gm: User) -> None:
    from tests.conftest import make_campaign

    other = make_campaign(gm, slug="elsewhere")
    foreign = catalogue.add_profile(other, IRONGUARD, gm)
    editor = reverse("mk:armies:edit", args=[world.campaign.slug, world.get(world.red, 1).pk])
    client = login(world.player)
    assert client.get(editor, {"profile": foreign.pk}).status_code == 404
    assert client.get(editor, {"profile": "٣"}).status_code == 400
