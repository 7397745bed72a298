"""Bad input never changes anything and never breaks a page: missing or garbage form fields get a
4xx with a message, ids that are not ours or not numbers get a 404, and CSRF is enforced."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Event
from tests.campaign.conftest import World, dump, error_text, image_bytes
from tests.conftest import MIGHTY_KINGDOMS

# (url name, extra url args, posted data, status, message shown). Garbage and missing fields.
BAD_POSTS: list[tuple[str, list[Any], dict[str, Any], int, str]] = [
    ("settings", [], {}, 400, "This field is required."),
    ("settings", [], {"name": "X", "paper_size": "a3", "opt_battle_mode": "kow",
                      "opt_max_armies": "6", "opt_simple_defence": "dynamic",
                      "opt_deploy_surplus": "owner", "opt_dock_surplus": "owner"},
     400, "Select a valid choice. a3 is not one of the available choices."),
    ("settings", [], {"name": "X", "paper_size": "a4", "opt_max_armies": "lots"}, 400,
     "Enter a whole number."),
    ("settings", [], {"name": "X", "paper_size": "a4", "opt_max_armies": "99"}, 400,
     "Ensure this value is less than or equal to 20."),
    ("settings", [], {"name": "X", "paper_size": "a4", "opt_battle_mode": "chess"}, 400,
     "Select a valid choice. chess is not one of the available choices."),
    ("invite", [], {}, 400, "This field is required."),
    ("invite", [], {"role": "emperor"}, 400, "Select a valid choice."),
    ("invite", [], {"role": "player", "note": "n" * 101}, 400,
     "Ensure this value has at most 100 characters"),
    ("change_role", ["OBSERVER"], {}, 400, "Choose GM, player or observer."),
    ("change_role", ["OBSERVER"], {"role": ["gm", "x"]}, 400, "Choose GM, player or observer."),
    ("kingdom_create", [], {}, 400, "This field is required."),
    ("kingdom_create", [], {"name": "Gold", "colour": "#ccaa00", "player": "abc"}, 400,
     "Select a valid choice."),
    ("kingdom_edit", ["RED"], {}, 400, "This field is required."),
    ("kingdom_assign", ["GREEN"], {"player": "abc"}, 400, "Choose one of this campaign's players."),
    ("map_paint", [], {}, 404, "Say which tile."),
    ("map_paint", [], {"tile": "0101"}, 400, "Unknown editor tool ''."),
    ("map_generate", [], {}, 400, "The map was not changed: width: This field is required."),
    ("tile_edit", ["0101"], {}, 400, "The tile was not changed: terrain: This field is required."),
    ("undo", [], {}, 400, "Say which event to undo."),
    ("undo", [], {"seq": "latest"}, 400, "Say which event to undo."),
    ("photos", [], {}, 400, "This field is required."),
    ("photos", [], {"image": "not a file"}, 400, "This field is required."),
]


def resolve(world: World, args: list[Any]) -> list[Any]:
    table = {"OBSERVER": world.membership(world.observer).pk, "RED": world.red.pk,
             "GREEN": world.green.pk}
    return [table.get(a, a) for a in args]


@pytest.mark.parametrize(("name", "args", "data", "status", "message"), BAD_POSTS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD_POSTS)])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_bad_posts_change_nothing(world: World, name: str, args: list[Any],
                                  data: dict[str, Any], status: int, message: str) -> None:
    url = reverse(f"campaign:{name}", args=[world.campaign.slug, *resolve(world, args)])
    before = dump()
    events = Event.objects.count()
    response = world.client("gm").post(url, data)
    assert response.status_code == status
    assert message in error_text(response)
    assert Event.objects.count() == events
    assert dump() == before


@pytest.mark.parametrize(("name", "data", "message"), [
    ("campaign:create", {}, "This field is required."),
    ("campaign:create", {"name": "X", "rule_system": "mighty-kingdoms", "width": "1000",
                         "height": "5", "orientation": "flat"},
     "Ensure this value is less than or equal to 100."),
    ("campaign:create", {"name": "!!!", "rule_system": "mighty-kingdoms", "width": "5",
                         "height": "5", "orientation": "flat"},
     "Give the campaign an address made of letters and digits."),
    ("campaign:create", {"name": "X", "slug": "Not A Slug!", "rule_system": "mighty-kingdoms",
                         "width": "5", "height": "5", "orientation": "flat"},
     "Enter a valid “slug”"),
    ("signup", {}, "This field is required."),
])
def test_bad_posts_outside_campaigns(world: World, name: str, data: dict[str, str],
                                     message: str) -> None:
    before = dump()
    response = world.client("outsider").post(reverse(name), data)
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before


# URL with an id -> the methods it answers.
ID_URLS = {
    "members/{id}/role/": {"post"},
    "members/{id}/remove/": {"post"},
    "members/invitations/{id}/revoke/": {"post"},
    "kingdoms/{id}/": {"get"},
    "kingdoms/{id}/edit/": {"get", "post"},
    "kingdoms/{id}/claim/": {"post"},
    "kingdoms/{id}/assign/": {"post"},
}
BAD_IDS = ["abc", "1.5", "-1", "0x1", "1e2", "%20", "99999999999999999999999", "0"]


@pytest.mark.parametrize("template", sorted(ID_URLS))
@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_bad_ids_in_urls_are_404(world: World, template: str, bad: str, method: str) -> None:
    url = f"/c/{world.campaign.slug}/" + template.format(id=bad)
    before = dump()
    data = {"role": "player"} if method == "post" else {}
    response = getattr(world.client("gm"), method)(url, data)
    # Ids that are no number never match a URL: 404. Numbers that are no id of this campaign
    # reach the view: 404 too, unless the view does not take this method at all (405).
    parses = bad in ("0", "99999999999999999999999")
    expected = 405 if parses and method not in ID_URLS[template] else 404
    assert response.status_code == expected
    assert dump() == before


@pytest.mark.parametrize("name", ["kingdom", "kingdom_edit"])
def test_foreign_kingdom_id_is_404_for_players_too(world: World, name: str) -> None:
    from campaign.models import Kingdom

    far = Kingdom.objects.create(campaign=world.elsewhere, name="Far")
    url = reverse(f"campaign:{name}", args=[world.campaign.slug, far.pk])
    response = world.client("player").get(url)
    assert response.status_code == 404


# -- CSRF -------------------------------------------------------------------------------------


def csrf_client(world: World, persona: str) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.user(persona))
    return client


@pytest.mark.parametrize(("name", "args", "data"), [
    ("campaign:invite", ["SLUG"], {"role": "player"}),
    ("campaign:tile_edit", ["SLUG", "0101"], {"terrain": "hills"}),
    ("campaign:map_paint", ["SLUG"], {"tile": "0101", "tool": "terrain", "value": "hills"}),
    ("campaign:undo", ["SLUG"], {"seq": "2"}),
    ("campaign:remove_member", ["SLUG", "OBSERVER"], {}),
    ("logout", [], {}),
])
def test_post_without_csrf_token_is_refused(world: World, name: str, args: list[Any],
                                            data: dict[str, str]) -> None:
    args = [world.campaign.slug if a == "SLUG" else a for a in resolve(world, args)]
    client = csrf_client(world, "gm")
    before = dump()
    response = client.post(reverse(name, args=args), data)
    assert response.status_code == 403
    assert dump() == before
    # The same with htmx's header but a wrong token.
    response = client.post(reverse(name, args=args), data,
                           headers={"HX-Request": "true", "X-CSRFToken": "x" * 32})
    assert response.status_code == 403
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_htmx_post_with_the_token_from_the_page_works(world: World) -> None:
    client = csrf_client(world, "gm")
    page = client.get(reverse("campaign:map", args=[world.campaign.slug])).content.decode()
    match = re.search(r"""<body hx-headers='\{"X-CSRFToken": "([^"]+)"\}'>""", page)
    assert match is not None
    response = client.post(
        reverse("campaign:tile_edit", args=[world.campaign.slug, "0101"]),
        {"terrain": "hills", "settlement": "village"},
        headers={"HX-Request": "true", "X-CSRFToken": match.group(1)},
    )
    assert response.status_code == 200
    assert "Saved." in response.content.decode()
    from campaign.models import Tile

    tile = Tile.objects.get(map__campaign=world.campaign, label="0101")
    assert (tile.terrain, tile.settlement) == ("hills", "village")


def test_plain_form_post_with_its_token_works(world: World) -> None:
    client = csrf_client(world, "gm")
    page = client.get(reverse("campaign:members", args=[world.campaign.slug])).content.decode()
    action = reverse("campaign:invite", args=[world.campaign.slug])
    form = page[page.index(f'action="{action}"'):]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = client.post(action, {"csrfmiddlewaretoken": token, "role": "observer"})
    assert response.status_code == 302
    assert Event.objects.filter(campaign=world.campaign).order_by("-seq").first().kind == (
        "invitation.created"
    )


def test_photo_upload_needs_csrf_too(world: World) -> None:
    client = csrf_client(world, "player")
    before = dump()
    response = client.post(reverse("campaign:photos", args=[world.campaign.slug]),
                           {"image": image_bytes()})
    assert response.status_code == 403
    assert dump() == before


def test_join_needs_csrf(world: World) -> None:
    client = csrf_client(world, "outsider")
    before = dump()
    response = client.post(reverse("join", args=[world.invitation.token]))
    assert response.status_code == 403
    assert dump() == before
