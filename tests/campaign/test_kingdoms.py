"""Kingdoms: founding, claiming, assigning, editing, and their crests."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from PIL import Image

from campaign.models import Event, Kingdom, Membership, Role
from tests.campaign.conftest import World, dump, error_text, image_bytes, named, noise_png
from tests.conftest import add_member, make_user


@pytest.fixture
def newcomer(world: World) -> Membership:
    """A player who has no kingdom yet."""
    return add_member(world.campaign, make_user("newcomer"), Role.PLAYER)


def newcomer_client(world: World, newcomer: Membership):
    client = world.client("anonymous")
    client.force_login(newcomer.user)
    return client


def create_url(world: World) -> str:
    return reverse("campaign:kingdom_create", args=[world.campaign.slug])


def last_event(world: World) -> Event:
    return Event.objects.filter(campaign=world.campaign).order_by("-seq").first()


def media_files() -> list[Path]:
    root = Path(django_settings.MEDIA_ROOT)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


# -- founding ---------------------------------------------------------------------------------


def test_player_founds_their_kingdom(world: World, newcomer: Membership) -> None:
    client = newcomer_client(world, newcomer)
    page = client.get(create_url(world))
    assert page.status_code == 200
    assert b'name="player"' not in page.content  # players found their own, for themselves

    response = client.post(create_url(world), {"name": "  Gold   Coast ", "colour": "#CCAA00"})
    kingdom = Kingdom.objects.get(campaign=world.campaign, name="Gold Coast")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:kingdom",
                                           args=[world.campaign.slug, kingdom.pk])
    assert kingdom.player == newcomer
    assert kingdom.colour == "#CCAA00"
    assert not kingdom.crest
    event = last_event(world)
    assert (event.kind, event.summary, event.actor) == (
        "kingdom.created", "Kingdom Gold Coast founded for newcomer.", newcomer.user
    )
    # Their "My kingdom" tab now points at it.
    detail = client.get(response["Location"])
    assert detail.status_code == 200
    assert f'href="/c/{world.campaign.slug}/kingdoms/{kingdom.pk}/" aria-current="page"' in (
        detail.content.decode()
    )


def test_player_cannot_found_a_second_kingdom(world: World, newcomer: Membership) -> None:
    client = newcomer_client(world, newcomer)
    assert client.post(create_url(world), {"name": "Gold", "colour": "#ccaa00"}).status_code == 302
    before = dump()
    for response in (client.get(create_url(world)),
                     client.post(create_url(world), {"name": "Silver", "colour": "#cccccc"})):
        assert response.status_code == 409
        assert "You already rule a kingdom in this campaign." in error_text(response)
    assert dump() == before


def test_player_cannot_found_a_kingdom_for_someone_else(world: World, newcomer: Membership) -> None:
    """A player's form has no player field: a posted one is ignored."""
    client = newcomer_client(world, newcomer)
    response = client.post(create_url(world), {
        "name": "Gold", "colour": "#ccaa00", "player": str(world.membership(world.player).pk)
    })
    assert response.status_code == 302
    assert Kingdom.objects.get(name="Gold").player == newcomer


def test_gm_founds_a_kingdom_for_a_player(world: World, newcomer: Membership) -> None:
    page = world.client("gm").get(create_url(world))
    assert b'name="player"' in page.content
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "player": str(newcomer.pk)}
    )
    assert response.status_code == 302
    kingdom = Kingdom.objects.get(name="Gold")
    assert kingdom.player == newcomer
    assert last_event(world).summary == "Kingdom Gold founded for newcomer."


def test_gm_founds_an_unclaimed_kingdom(world: World) -> None:
    response = world.client("gm").post(create_url(world), {"name": "Gold", "colour": "#ccaa00"})
    assert response.status_code == 302
    assert Kingdom.objects.get(name="Gold").player is None
    assert last_event(world).summary == "Kingdom Gold founded."


def test_gm_cannot_give_a_player_a_second_kingdom(world: World) -> None:
    before = dump()
    response = world.client("gm").post(create_url(world), {
        "name": "Gold", "colour": "#ccaa00", "player": str(world.membership(world.player).pk)
    })
    assert response.status_code == 400
    assert "player already has a kingdom in this campaign." in error_text(response)
    assert dump() == before


@pytest.mark.parametrize("who", ["observer", "gm", "foreign"])
def test_gm_can_only_give_kingdoms_to_players_of_this_campaign(world: World, who: str) -> None:
    if who == "foreign":
        target = Membership.objects.get(campaign=world.elsewhere, role=Role.PLAYER)
    else:
        target = world.membership(world.user(who))
    before = dump()
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "player": str(target.pk)}
    )
    assert response.status_code == 400
    assert "Select a valid choice." in error_text(response)
    assert dump() == before


def test_observer_cannot_found_a_kingdom(world: World) -> None:
    before = dump()
    client = world.client("observer")
    assert client.get(create_url(world)).status_code == 403
    assert client.post(create_url(world), {"name": "Gold", "colour": "#ccaa00"}).status_code == 403
    assert dump() == before


@pytest.mark.parametrize("name", ["Red", "red", " RED "])
def test_duplicate_kingdom_name_is_refused(world: World, name: str) -> None:
    before = dump()
    response = world.client("gm").post(create_url(world), {"name": name, "colour": "#ccaa00"})
    assert response.status_code == 400
    assert f"There is already a kingdom called '{name.strip()}' in this campaign." in (
        error_text(response)
    )
    assert dump() == before


def test_same_name_in_another_campaign_is_fine(world: World) -> None:
    Kingdom.objects.create(campaign=world.elsewhere, name="Gold")
    response = world.client("gm").post(create_url(world), {"name": "Gold", "colour": "#ccaa00"})
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "Gold", "colour": "red"}, "Pick a colour as #rrggbb."),
        ({"name": "Gold", "colour": "#12345"}, "Pick a colour as #rrggbb."),
        ({"name": "Gold", "colour": "#ggg000"}, "Pick a colour as #rrggbb."),
        ({"name": "Gold", "colour": "#1234567"}, "Ensure this value has at most 7 characters"),
        ({"name": "Gold"}, "This field is required."),
        ({"name": "", "colour": "#ccaa00"}, "This field is required."),
        ({"name": "   ", "colour": "#ccaa00"}, "This field is required."),
        ({"name": "x" * 61, "colour": "#ccaa00"}, "Ensure this value has at most 60 characters"),
        ({}, "This field is required."),
    ],
)
def test_bad_kingdom_input_is_refused(world: World, data: dict[str, str], message: str) -> None:
    before = dump()
    response = world.client("gm").post(create_url(world), data)
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before


# -- claiming and assigning -------------------------------------------------------------------


def test_player_claims_an_unclaimed_kingdom(world: World, newcomer: Membership) -> None:
    client = newcomer_client(world, newcomer)
    overview = client.get(world.campaign.get_absolute_url()).content.decode()
    assert "Claim Green" in overview
    assert "Claim Red" not in overview
    args = [world.campaign.slug, world.green.pk]
    response = client.post(reverse("campaign:kingdom_claim", args=args))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:kingdom", args=args)
    world.green.refresh_from_db()
    assert world.green.player == newcomer
    assert (last_event(world).kind, last_event(world).summary) == (
        "kingdom.assigned", "newcomer now rules Green."
    )


def test_claiming_a_kingdom_with_a_player_is_refused(world: World, newcomer: Membership) -> None:
    before = dump()
    response = newcomer_client(world, newcomer).post(
        reverse("campaign:kingdom_claim", args=[world.campaign.slug, world.red.pk])
    )
    assert response.status_code == 409
    assert "Red already has a player." in error_text(response)
    assert dump() == before


def test_player_with_a_kingdom_cannot_claim_another(world: World) -> None:
    before = dump()
    response = world.client("player").post(
        reverse("campaign:kingdom_claim", args=[world.campaign.slug, world.green.pk])
    )
    assert response.status_code == 409
    assert "player already has a kingdom in this campaign." in error_text(response)
    assert dump() == before


def assign(world: World, kingdom: Kingdom, player: str, persona: str = "gm"):
    return world.client(persona).post(
        reverse("campaign:kingdom_assign", args=[world.campaign.slug, kingdom.pk]),
        {"player": player},
    )


def test_gm_assigns_and_frees_a_kingdom(world: World, newcomer: Membership) -> None:
    response = assign(world, world.green, str(newcomer.pk))
    assert response.status_code == 302
    world.green.refresh_from_db()
    assert world.green.player == newcomer
    assert last_event(world).summary == "newcomer now rules Green."

    response = assign(world, world.red, "")
    assert response.status_code == 302
    world.red.refresh_from_db()
    assert world.red.player is None
    assert last_event(world).summary == "Red no longer has a player."


def test_assign_refuses_a_player_who_has_a_kingdom(world: World) -> None:
    before = dump()
    response = assign(world, world.green, str(world.membership(world.player).pk))
    assert response.status_code == 409
    assert "player already has a kingdom in this campaign." in error_text(response)
    assert dump() == before


@pytest.mark.parametrize("value", ["abc", "999999", "observer", "foreign"])
def test_assign_refuses_anyone_but_a_player_of_this_campaign(world: World, value: str) -> None:
    if value == "observer":
        value = str(world.membership(world.observer).pk)
    elif value == "foreign":
        value = str(Membership.objects.get(campaign=world.elsewhere, role=Role.PLAYER).pk)
    before = dump()
    response = assign(world, world.green, value)
    assert response.status_code == 400
    assert "Choose one of this campaign's players." in error_text(response)
    assert dump() == before


def test_player_cannot_assign(world: World, newcomer: Membership) -> None:
    before = dump()
    assert assign(world, world.green, str(newcomer.pk), persona="player").status_code == 403
    assert dump() == before


def test_kingdom_of_another_campaign_is_404(world: World) -> None:
    far = Kingdom.objects.create(campaign=world.elsewhere, name="Far")
    slug = world.campaign.slug
    before = dump()
    client = world.client("gm")
    assert client.get(reverse("campaign:kingdom", args=[slug, far.pk])).status_code == 404
    assert client.get(reverse("campaign:kingdom_edit", args=[slug, far.pk])).status_code == 404
    assert client.post(reverse("campaign:kingdom_edit", args=[slug, far.pk]),
                       {"name": "Mine", "colour": "#000000"}).status_code == 404
    assert client.post(reverse("campaign:kingdom_assign", args=[slug, far.pk]),
                       {"player": ""}).status_code == 404
    newcomer = add_member(world.campaign, make_user("newcomer"), Role.PLAYER)
    claimer = world.client("anonymous")
    claimer.force_login(newcomer.user)
    assert claimer.post(reverse("campaign:kingdom_claim", args=[slug, far.pk])).status_code == 404
    assert dump() == {**before, "campaign.Membership": dump()["campaign.Membership"],
                      "auth.User": dump()["auth.User"]}
    assert Kingdom.objects.get(pk=far.pk).player is None


@pytest.mark.parametrize("path", ["kingdoms/abc/", "kingdoms/1e3/edit/", "kingdoms/-2/claim/",
                                  "kingdoms/99999999999999999999999/",
                                  "kingdoms/99999999999999999999999/edit/"])
def test_bad_kingdom_ids_in_urls_are_404(world: World, path: str) -> None:
    assert world.client("gm").get(f"/c/{world.campaign.slug}/{path}").status_code == 404


# -- editing ----------------------------------------------------------------------------------


def edit_url(world: World, kingdom: Kingdom) -> str:
    return reverse("campaign:kingdom_edit", args=[world.campaign.slug, kingdom.pk])


def test_player_edits_their_kingdom(world: World) -> None:
    page = world.client("player").get(edit_url(world, world.red))
    assert page.status_code == 200
    assert b'value="Red"' in page.content
    response = world.client("player").post(edit_url(world, world.red),
                                           {"name": "Crimson", "colour": "#990000"})
    assert response.status_code == 302
    world.red.refresh_from_db()
    assert (world.red.name, world.red.colour) == ("Crimson", "#990000")
    assert last_event(world).summary == "Kingdom Red updated (now Crimson)."


def test_player_cannot_edit_another_players_kingdom(world: World) -> None:
    before = dump()
    client = world.client("other_player")
    assert client.get(edit_url(world, world.red)).status_code == 403
    response = client.post(edit_url(world, world.red), {"name": "Mine", "colour": "#000000"})
    assert response.status_code == 403
    assert "Only its player or a GM may change this kingdom." in error_text(response)
    assert dump() == before


def test_edit_keeps_own_name_but_refuses_anothers(world: World) -> None:
    client = world.client("player")
    response = client.post(edit_url(world, world.red), {"name": "Red", "colour": "#123456"})
    assert response.status_code == 302
    before = dump()
    response = client.post(edit_url(world, world.red), {"name": "BLUE", "colour": "#123456"})
    assert response.status_code == 400
    assert "There is already a kingdom called 'BLUE' in this campaign." in error_text(response)
    assert dump() == before


def test_edit_refuses_bad_colour(world: World) -> None:
    before = dump()
    response = world.client("gm").post(edit_url(world, world.red),
                                       {"name": "Red", "colour": "blue"})
    assert response.status_code == 400
    assert "Pick a colour as #rrggbb." in error_text(response)
    assert dump() == before


# -- crests -----------------------------------------------------------------------------------


def assert_crest(kingdom: Kingdom) -> None:
    with Image.open(kingdom.crest.path) as crest:
        assert (crest.format, crest.size, crest.mode) == ("PNG", (256, 256), "RGBA")
    with Image.open(kingdom.crest_thumb.path) as thumb:
        assert (thumb.format, thumb.size) == ("PNG", (64, 64))
    assert kingdom.crest.name.startswith("crests/") and kingdom.crest.name.endswith(".png")
    assert kingdom.crest_thumb.name.startswith("crests/thumbs/")


@pytest.mark.parametrize(("fmt", "size"), [("PNG", (40, 30)), ("JPEG", (600, 300)),
                                           ("WEBP", (100, 400))])
def test_crest_is_reencoded_to_png_square_and_thumbnail(world: World, fmt: str,
                                                        size: tuple[int, int]) -> None:
    upload = image_bytes(size, fmt=fmt, colour="blue")
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "crest": upload}
    )
    assert response.status_code == 302
    kingdom = Kingdom.objects.get(name="Gold")
    assert_crest(kingdom)
    # The proportions are kept: the image is centred on a transparent square.
    with Image.open(kingdom.crest.path) as crest:
        scale = 256 / max(size)
        inner_w, inner_h = round(size[0] * scale), round(size[1] * scale)
        assert crest.getpixel((128, 128))[3] == 255
        if inner_w < 256:
            assert crest.getpixel((0, 128))[3] == 0
        if inner_h < 256:
            assert crest.getpixel((128, 0))[3] == 0
    # The crest is shown on the kingdom's page and its thumbnail on the overview.
    page = world.client("gm").get(
        reverse("campaign:kingdom", args=[world.campaign.slug, kingdom.pk])
    )
    assert f'src="{kingdom.crest.url}"' in page.content.decode()
    overview = world.client("observer").get(world.campaign.get_absolute_url())
    assert f'src="{kingdom.crest_thumb.url}"' in overview.content.decode()


def test_player_replaces_their_crest(world: World) -> None:
    client = world.client("player")
    response = client.post(edit_url(world, world.red), {
        "name": "Red", "colour": "#aa0000", "crest": image_bytes((90, 90), "JPEG"),
    })
    assert response.status_code == 302
    world.red.refresh_from_db()
    assert_crest(world.red)
    first = world.red.crest.name
    response = client.post(edit_url(world, world.red),
                           {"name": "Red", "colour": "#aa0000", "crest": image_bytes((9, 9))})
    assert response.status_code == 302
    world.red.refresh_from_db()
    assert world.red.crest.name != first
    assert_crest(world.red)
    # Saving without a file keeps the crest.
    name = world.red.crest.name
    response = client.post(edit_url(world, world.red), {"name": "Red", "colour": "#aa0000"})
    assert response.status_code == 302
    world.red.refresh_from_db()
    assert world.red.crest.name == name


def gif() -> io.BytesIO:
    return image_bytes((20, 20), fmt="GIF")


def truncated_png() -> io.BytesIO:
    data = noise_png(30_000).getvalue()
    return named(data[: len(data) // 2], "cut.png")


BAD_CRESTS: list[tuple[str, Any, str]] = [
    ("text", lambda: named(b"just some text, not an image\n" * 10, "crest.png"),
     "That file is not a readable PNG, JPEG or WebP image."),
    ("gif", gif, "GIF files are not accepted: upload a PNG, JPEG or WebP image."),
    ("bmp", lambda: image_bytes((20, 20), fmt="BMP", name="crest.png"),
     "BMP files are not accepted: upload a PNG, JPEG or WebP image."),
    ("truncated", truncated_png, "That file is not a readable PNG, JPEG or WebP image."),
    ("html", lambda: named(b"<html><script>alert(1)</script></html>", "crest.webp"),
     "That file is not a readable PNG, JPEG or WebP image."),
    ("empty", lambda: named(b"", "crest.png"), "The submitted file is empty."),
    ("too big", lambda: noise_png(5 * 1024 * 1024 + 1000),
     "; the limit is 5 MB."),
]


@pytest.mark.parametrize(("kind", "make", "message"), BAD_CRESTS, ids=[b[0] for b in BAD_CRESTS])
def test_bad_crest_on_create_is_refused(world: World, kind: str, make: Any, message: str) -> None:
    before = dump()
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "crest": make()}
    )
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before
    assert media_files() == []


@pytest.mark.parametrize(("kind", "make", "message"), BAD_CRESTS, ids=[b[0] for b in BAD_CRESTS])
def test_bad_crest_on_edit_is_refused(world: World, kind: str, make: Any, message: str) -> None:
    before = dump()
    response = world.client("player").post(
        edit_url(world, world.red), {"name": "Renamed", "colour": "#000000", "crest": make()}
    )
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before
    assert media_files() == []


def test_size_limit_follows_the_setting(world: World, settings: Any) -> None:
    settings.MAX_IMAGE_UPLOAD_BYTES = 2 * 1024 * 1024
    upload = noise_png(2 * 1024 * 1024 + 10)
    before = dump()
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "crest": upload}
    )
    assert response.status_code == 400
    assert "; the limit is 2 MB." in error_text(response)
    assert dump() == before
    # Just under the limit is fine.
    response = world.client("gm").post(
        create_url(world), {"name": "Gold", "colour": "#ccaa00", "crest": noise_png(100_000)}
    )
    assert response.status_code == 302
    assert_crest(Kingdom.objects.get(name="Gold"))


def test_kingdom_page_lists_lands_and_armies(world: World) -> None:
    from battles.models import Army
    from campaign.models import Tile

    tiles = list(Tile.objects.filter(map__campaign=world.campaign).order_by("label")[:3])
    Tile.objects.filter(pk__in=[t.pk for t in tiles]).update(controller=world.red)
    Tile.objects.filter(pk=tiles[0].pk).update(settlement="city")
    Army.objects.create(campaign=world.campaign, kingdom=world.red, number=2, tile=tiles[1])
    body = error_text(world.client("observer").get(
        reverse("campaign:kingdom", args=[world.campaign.slug, world.red.pk])
    ))
    assert "3 tiles · 1 city" in body
    assert f"#2 at {tiles[1].label}" in body
    assert "ruled by player" in body
    # Only the owner and GMs see the edit button.
    assert "Edit name, colour and crest" not in body
