"""A form that creates something applies once (DESIGN principle 11, issue 19): the form carries a
one-time token made when it is rendered; the same form sent again (a double tap, a phone
resending) is sent to what the first one made instead of creating a second time, and a form
that was refused leaves its token free for the corrected one."""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from battles.models import Unit
from campaign.models import (
    Campaign,
    Event,
    Invitation,
    Kingdom,
    Membership,
    Photo,
    Role,
    UsedFormToken,
)
from campaign.once import ALREADY
from campaign.systems.mighty_kingdoms import forces
from tests.battles.conftest import World, unit, world  # noqa: F401 (fixture)
from tests.conftest import MIGHTY_KINGDOMS, make_png, make_user

pytestmark = pytest.mark.django_db

Login = Callable[[User | None], Client]


def token_of(page: Any, action: str = "") -> str:
    """The one-time token of the form on ``page`` (the one posting to ``action`` if given)."""
    html = page.content.decode()
    if action:
        html = html[html.index(f'action="{action}"'):]
    found = re.search(r'name="once" value="([0-9a-f]{32})"', html)
    assert found is not None, "the form has no one-time token"
    return found.group(1)


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


def test_creating_a_campaign_twice_with_one_form_creates_one(gm: User, login: Login) -> None:
    client = login(gm)
    token = token_of(client.get(reverse("campaign:create")))
    form = {"name": "Twice", "slug": "twice", "rule_system": "mighty-kingdoms", "width": "6",
            "height": "5", "orientation": "flat", "once": token}
    first = client.post(reverse("campaign:create"), form)
    assert (first.status_code, first["Location"]) == (302, "/c/twice/members/")
    # The same form again, even with another name: the first one's result, nothing new.
    again = client.post(reverse("campaign:create"), {**form, "name": "Thrice", "slug": "thrice"},
                        follow=True)
    assert again.redirect_chain == [("/c/twice/members/", 302)]
    assert ALREADY in again.content.decode()
    assert list(Campaign.objects.values_list("slug", flat=True)) == ["twice"]
    assert UsedFormToken.objects.get(token=token).location == "/c/twice/members/"
    # A fresh rendering of the form has a fresh token, which creates again.
    fresh = token_of(client.get(reverse("campaign:create")))
    assert fresh != token
    assert client.post(reverse("campaign:create"), {**form, "name": "Thrice", "slug": "thrice",
                                                    "once": fresh}).status_code == 302
    assert Campaign.objects.count() == 2


def test_a_refused_form_leaves_its_token_for_the_corrected_one(gm: User, login: Login) -> None:
    client = login(gm)
    token = token_of(client.get(reverse("campaign:create")))
    form = {"name": "Fixed", "slug": "new", "rule_system": "mighty-kingdoms", "width": "6",
            "height": "5", "orientation": "flat", "once": token}
    assert client.post(reverse("campaign:create"), {**form, "width": "0"}).status_code == 400
    assert not UsedFormToken.objects.exists() and not Campaign.objects.exists()
    assert client.post(reverse("campaign:create"), {**form, "slug": "fixed"}).status_code == 302
    assert list(Campaign.objects.values_list("slug", flat=True)) == ["fixed"]


def test_founding_a_kingdom_twice_founds_one(campaign: Campaign, login: Login) -> None:
    user = make_user("newcomer")
    Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
    client = login(user)
    address = reverse("campaign:kingdom_create", args=[campaign.slug])
    data = {"name": "Green", "colour": "#00aa00", "once": token_of(client.get(address))}
    first = client.post(address, data)
    assert first.status_code == 302
    again = client.post(address, data)
    assert (again.status_code, again["Location"]) == (302, first["Location"])
    assert ALREADY in messages_of(again)
    assert list(Kingdom.objects.filter(campaign=campaign).values_list("name", flat=True)) == [
        "Green"]


def test_an_invitation_sent_twice_is_made_once(campaign: Campaign, gm: User,
                                               login: Login) -> None:
    client = login(gm)
    members = reverse("campaign:members", args=[campaign.slug])
    address = reverse("campaign:invite", args=[campaign.slug])
    data = {"role": Role.PLAYER, "single_use": "on", "note": "for Ann",
            "once": token_of(client.get(members), address)}
    first = client.post(address, data)
    again = client.post(address, data)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Invitation.objects.filter(campaign=campaign).count() == 1
    assert Event.objects.filter(campaign=campaign, kind="invitation.created").count() == 1


def test_a_photo_uploaded_twice_is_kept_once(campaign: Campaign, player: User,
                                             login: Login) -> None:
    client = login(player)
    address = reverse("campaign:photos", args=[campaign.slug])
    token = token_of(client.get(address))
    for _ in range(2):
        response = client.post(address, {"image": make_png(), "caption": "Turn 1",
                                         "once": token})
        assert (response.status_code, response["Location"]) == (302, address)
    assert Photo.objects.filter(campaign=campaign).count() == 1


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_adding_copying_and_pasting_units_twice_applies_once(world: World,  # noqa: F811
                                                             login: Login) -> None:
    client = login(world.player)
    red2 = world.get(world.red, 2)
    edit = reverse("mk:armies:edit", args=[world.campaign.slug, red2.pk])
    save = reverse("mk:armies:save_unit", args=[world.campaign.slug, red2.pk])
    data = {"name": "Knights", "unit_type": "regiment", "points": "150", "base_us": "2",
            "once": token_of(client.get(edit), save)}
    # A double tap through htmx: the second is sent to the editor page, nothing added twice.
    first = client.post(save, data, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=edit)
    assert first.status_code == 200
    again = client.post(save, data, HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=edit)
    assert (again.status_code, again["HX-Redirect"]) == (200, edit)
    assert list(Unit.objects.filter(army_list__army=red2).values_list("name", flat=True)) == [
        "Knights"]
    knights = Unit.objects.get(army_list__army=red2, name="Knights")
    copy = reverse("mk:armies:copy_unit", args=[world.campaign.slug, red2.pk, knights.pk])
    copy_token = token_of(client.get(edit), copy)
    for _ in range(2):
        assert client.post(copy, {"once": copy_token}).status_code == 302
    assert Unit.objects.filter(army_list__army=red2, name="Knights").count() == 2
    paste = reverse("mk:armies:paste", args=[world.campaign.slug, red2.pk])
    paste_data = {"text": "Rangers, troop, 80; US 1", "once": token_of(client.get(paste))}
    for _ in range(2):
        assert client.post(paste, paste_data).status_code == 302
    assert sorted(Unit.objects.filter(army_list__army=red2).values_list("name", flat=True)) == [
        "Rangers"]
    # Without a token (an older page) a form is applied as it always was.
    forces.add_unit(red2, unit("Scouts", points=50), world.player)
    assert Unit.objects.filter(army_list__army=red2).count() == 2


def test_someone_elses_token_shows_nothing_of_theirs(campaign: Campaign, gm: User,
                                                     other_player: User, player: User,
                                                     login: Login) -> None:
    address = reverse("campaign:photos", args=[campaign.slug])
    token = token_of(login(player).get(address))
    login(player).post(address, {"image": make_png(), "caption": "", "once": token})
    stolen = login(other_player).post(address, {"image": make_png(), "caption": "",
                                                "once": token})
    assert stolen.status_code == 409
    assert "This form was already sent" in stolen.content.decode()
    assert Photo.objects.filter(campaign=campaign).count() == 1
