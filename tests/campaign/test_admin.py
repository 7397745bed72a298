"""The Django admin: site maintenance that still refuses what the site refuses.

A campaign added in the admin is set up as the site sets one up; a clock changed there must be
one its rule system can be at; crests and table photos uploaded there go through the same checks
and re-encoding as on the site; the chronicle cannot be written there.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from PIL import Image

from campaign.admin import CampaignAdminForm
from campaign.models import Campaign, Event, Kingdom, Map, Membership, Photo, Role, Tile
from tests.campaign.conftest import World, dump, error_text, image_bytes, media_files, named
from tests.conftest import MIGHTY_KINGDOMS


def admin_client(world: World) -> Client:
    return world.client("admin")


# -- campaigns ----------------------------------------------------------------------------------


def test_a_campaign_added_in_the_admin_is_set_up_like_one_made_on_the_site(world: World) -> None:
    client = admin_client(world)
    response = client.post(reverse("admin:campaign_campaign_add"), {
        "name": "Winter League", "slug": "winter-league", "rule_system": "mighty-kingdoms",
        "description": "", "_save": "Save"})
    assert response.status_code == 302, error_text(response)[:600]
    campaign = Campaign.objects.get(slug="winter-league")
    system = campaign.system
    assert (campaign.year, campaign.season, campaign.month, campaign.phase) == (
        1, "setup", None, "race")
    assert campaign.options == system.parse_options({})
    game_map = Map.objects.get(campaign=campaign)
    assert (game_map.kind, game_map.width, game_map.height) == (
        system.map_style.kind, system.map_style.width, system.map_style.height)
    assert Tile.objects.filter(map=game_map).count() == game_map.width * game_map.height
    assert list(campaign.memberships.values_list("user__username", "role")) == [
        ("admin", Role.GM)]
    (event,) = campaign.events.all()
    assert (event.kind, event.actor, event.reversible) == ("campaign.created", world.admin, False)
    # Every page of it opens.
    for name in ("detail", "map", "map_edit", "play", "chronicle", "members", "settings"):
        assert client.get(reverse(f"campaign:{name}", args=["winter-league"])).status_code == 200


@pytest.mark.parametrize(("data", "message"), [
    ({"slug": "import"}, "'import' is reserved; choose another address."),
    ({"slug": "test-campaign"}, "Campaign with this Slug already exists."),
    ({"rule_system": "dragon-wars"}, "Select a valid choice. dragon-wars is not one of the "
                                     "available choices."),
])
def test_admin_refuses_a_campaign_the_site_would_refuse(world: World, data: dict[str, str],
                                                        message: str) -> None:
    before = dump()
    response = admin_client(world).post(reverse("admin:campaign_campaign_add"), {
        "name": "X", "slug": "x", "rule_system": "mighty-kingdoms", "description": "", **data})
    assert response.status_code == 200
    assert message in error_text(response)
    assert dump() == before


def _change_data(campaign: Campaign, **changes: Any) -> dict[str, Any]:
    data = {
        "name": campaign.name, "slug": campaign.slug, "rule_system": campaign.rule_system,
        "options": json.dumps(campaign.options),
        "description": campaign.description, "year": campaign.year, "season": campaign.season,
        "month": campaign.month or "", "phase": campaign.phase, "sub_phase": campaign.sub_phase,
        "state": json.dumps(campaign.state), "paper_size": campaign.paper_size,
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(("changes", "message"), [
    ({"season": "", "phase": ""},
     "A Mighty Kingdoms campaign cannot be at this point: Phase '' does not exist: phases are A "
     "to D (MK-YEAR-2)."),
    ({"season": "summer", "month": "8", "phase": "A"},
     "A Mighty Kingdoms campaign cannot be at this point: A summer has months 1 to 6 "
     "(MK-YEAR-1)."),
])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_admin_refuses_a_clock_the_system_cannot_be_at(world: World, changes: dict[str, Any],
                                                       message: str) -> None:
    form = CampaignAdminForm(data=_change_data(world.campaign, **changes),
                             instance=world.campaign)
    assert not form.is_valid()
    assert message in form.errors["__all__"]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_admin_accepts_a_clock_the_system_can_be_at(world: World) -> None:
    form = CampaignAdminForm(data=_change_data(
        world.campaign, season="winter", month="", phase="C", sub_phase="buy"),
        instance=world.campaign)
    assert form.is_valid(), form.errors
    form.save()
    assert Campaign.objects.get(pk=world.campaign.pk).clock_label() == (
        "Year 1, winter, C) Spend resources: 2. Build and recruit")


def test_admin_refuses_options_the_system_does_not_know(world: World) -> None:
    form = CampaignAdminForm(data=_change_data(world.campaign, options='{"nonsense": 1}'),
                             instance=world.campaign)
    assert not form.is_valid()
    assert "Unknown option(s): nonsense" in " ".join(form.errors["options"])


# -- crests and photos --------------------------------------------------------------------------


def _kingdom_data(kingdom: Kingdom, **changes: Any) -> dict[str, Any]:
    data = {
        "campaign": kingdom.campaign_id, "player": kingdom.player_id or "",
        "name": kingdom.name, "colour": kingdom.colour, "order_position": "",
        "start_tile": "", "capital_tile": "", "data": json.dumps(kingdom.data), "_save": "Save",
    }
    data.update(changes)
    return data


def test_a_crest_uploaded_in_the_admin_is_checked_and_re_encoded(world: World) -> None:
    upload = image_bytes((300, 120), fmt="JPEG", colour="purple")
    original = upload.getvalue()
    url = reverse("admin:campaign_kingdom_change", args=[world.red.pk])
    response = admin_client(world).post(url, _kingdom_data(world.red, crest=upload))
    assert response.status_code == 302, error_text(response)[:600]
    red = Kingdom.objects.get(pk=world.red.pk)
    crest, thumb = Image.open(red.crest), Image.open(red.crest_thumb)
    assert (crest.format, crest.size) == ("PNG", (256, 256))
    assert (thumb.format, thumb.size) == ("PNG", (64, 64))
    red.crest.open()
    assert red.crest.read() != original
    assert red.crest.name.startswith("crests/") and red.crest.name.endswith(".png")


def _cut_jpeg() -> io.BytesIO:
    data = image_bytes((200, 200), fmt="JPEG").getvalue()
    return named(data[: len(data) // 2], "cut.jpg")


@pytest.mark.parametrize(("make", "message"), [
    (lambda: named(b"<html><script>alert(1)</script></html>", "crest.png"),
     "That file is not a readable PNG, JPEG or WebP image."),
    (lambda: image_bytes((20, 20), fmt="GIF", name="crest.gif"),
     "GIF files are not accepted: upload a PNG, JPEG or WebP image."),
    (_cut_jpeg, "That file is not a readable PNG, JPEG or WebP image."),
])
def test_admin_refuses_a_crest_the_site_would_refuse(world: World, make: Any,
                                                     message: str) -> None:
    before = dump()
    url = reverse("admin:campaign_kingdom_change", args=[world.red.pk])
    response = admin_client(world).post(url, _kingdom_data(world.red, crest=make()))
    assert response.status_code == 200
    assert message in error_text(response)
    assert dump() == before
    assert media_files() == []


def test_clearing_a_crest_in_the_admin_clears_its_thumbnail(world: World) -> None:
    client = admin_client(world)
    url = reverse("admin:campaign_kingdom_change", args=[world.red.pk])
    client.post(url, _kingdom_data(world.red, crest=image_bytes()))
    assert Kingdom.objects.get(pk=world.red.pk).crest_thumb
    response = client.post(url, _kingdom_data(world.red, **{"crest-clear": "on"}))
    assert response.status_code == 302
    red = Kingdom.objects.get(pk=world.red.pk)
    assert not red.crest and not red.crest_thumb


def _photo_data(campaign: Campaign, **changes: Any) -> dict[str, Any]:
    data = {"campaign": campaign.pk, "uploaded_by": "", "caption": "From the admin",
            "year": 1, "season": "", "month": "", "phase": "", "_save": "Save"}
    data.update(changes)
    return data


def test_a_photo_added_in_the_admin_is_checked_and_re_encoded(world: World) -> None:
    response = admin_client(world).post(
        reverse("admin:campaign_photo_add"),
        _photo_data(world.campaign, image=image_bytes((2000, 1000), fmt="PNG")))
    assert response.status_code == 302, error_text(response)[:600]
    photo = Photo.objects.get(campaign=world.campaign)
    assert Image.open(photo.image).format == "JPEG"
    assert Image.open(photo.image).size == (1600, 800)
    assert Image.open(photo.thumbnail).size == (320, 160)


def test_admin_refuses_a_photo_that_is_not_an_image(world: World) -> None:
    before = dump()
    response = admin_client(world).post(
        reverse("admin:campaign_photo_add"),
        _photo_data(world.campaign, image=named(b"#!/bin/sh\necho hi\n", "table.jpg")))
    assert response.status_code == 200
    assert "That file is not a readable PNG, JPEG or WebP image." in error_text(response)
    assert dump() == before
    assert media_files() == []


# -- the chronicle ------------------------------------------------------------------------------


def test_the_chronicle_is_read_only_in_the_admin(world: World) -> None:
    client = admin_client(world)
    event = world.undoable
    change = reverse("admin:campaign_event_change", args=[event.pk])
    page = client.get(change)
    assert page.status_code == 200
    assert 'name="summary"' not in page.content.decode()
    before = dump()
    assert client.post(change, {"summary": "Rewritten", "seq": event.seq}).status_code == 403
    assert client.get(reverse("admin:campaign_event_add")).status_code == 403
    assert dump() == before
    assert Event.objects.get(pk=event.pk).summary == event.summary


def test_membership_inline_still_edits_members(world: World) -> None:
    membership = Membership.objects.get(campaign=world.campaign, user=world.observer)
    response = admin_client(world).post(
        reverse("admin:campaign_membership_change", args=[membership.pk]),
        {"user": world.observer.pk, "campaign": world.campaign.pk, "role": "player",
         "_save": "Save"})
    assert response.status_code == 302
    assert Membership.objects.get(pk=membership.pk).role == "player"
    assert isinstance(User.objects.get(username="admin"), User)
