"""Photos of the table: attached to the campaign clock, re-encoded, thumbnailed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from PIL import Image

from campaign.models import Campaign, Event, Photo
from tests.campaign.conftest import World, dump, error_text, image_bytes, named, noise_png
from tests.campaign.test_kingdoms import BAD_CRESTS


def photos_url(world: World) -> str:
    return reverse("campaign:photos", args=[world.campaign.slug])


def media_files() -> list[Path]:
    root = Path(django_settings.MEDIA_ROOT)
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


@pytest.mark.parametrize(("fmt", "size", "thumb"), [
    ("JPEG", (1200, 900), (320, 240)),
    ("PNG", (300, 2000), (48, 320)),
    ("WEBP", (100, 80), (100, 80)),
    ("JPEG", (2400, 1600), (320, 213)),
])
def test_player_uploads_a_photo(world: World, fmt: str, size: tuple[int, int],
                                thumb: tuple[int, int]) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(year=3, season="winter", month=None,
                                                         phase="B")
    response = world.client("player").post(
        photos_url(world), {"image": image_bytes(size, fmt), "caption": "Battle at the ford"}
    )
    assert response.status_code == 302
    assert response["Location"] == photos_url(world)
    photo = Photo.objects.get(campaign=world.campaign)
    assert (photo.year, photo.season, photo.month, photo.phase) == (3, "winter", None, "B")
    assert (photo.caption, photo.uploaded_by) == ("Battle at the ford", world.player)
    with Image.open(photo.image.path) as image:
        assert image.format == "JPEG"
        assert max(image.size) == min(max(size), 1600)
    with Image.open(photo.thumbnail.path) as small:
        assert small.format == "JPEG"
        assert small.size == thumb
        assert max(small.size) <= 320
    assert photo.image.name.startswith(f"photos/{world.campaign.pk}/")
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    assert (event.kind, event.summary, event.year, event.season) == (
        "photo.added", "player added a photo of the table: Battle at the ford", 3, "winter"
    )
    # Every member sees it, with the clock it belongs to.
    page = world.client("observer").get(photos_url(world)).content.decode()
    assert f'src="{photo.thumbnail.url}"' in page
    assert "Y3 Winter B · player" in error_text(world.client("observer").get(photos_url(world)))
    overview = world.client("observer").get(world.campaign.get_absolute_url()).content.decode()
    assert f'src="{photo.thumbnail.url}"' in overview


def test_gm_uploads_a_photo_without_caption(world: World) -> None:
    response = world.client("gm").post(photos_url(world), {"image": image_bytes((10, 10))})
    assert response.status_code == 302
    assert Event.objects.filter(campaign=world.campaign).order_by("-seq").first().summary == (
        "gm added a photo of the table."
    )


def test_photo_metadata_is_not_kept(world: World) -> None:
    source = Image.new("RGB", (64, 48), "green")
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x8825] = {2: (51.0, 30.0, 0.0)}  # GPS latitude
    import io

    buffer = io.BytesIO()
    source.save(buffer, format="JPEG", exif=exif.tobytes())
    buffer.seek(0)
    buffer.name = "phone.jpg"
    assert world.client("player").post(photos_url(world), {"image": buffer}).status_code == 302
    photo = Photo.objects.get()
    data = Path(photo.image.path).read_bytes()
    assert b"SecretCam" not in data
    with Image.open(photo.image.path) as image:
        assert dict(image.getexif()) == {}


def test_observer_sees_photos_but_cannot_upload(world: World) -> None:
    page = world.client("observer").get(photos_url(world))
    assert page.status_code == 200
    assert b'type="file"' not in page.content
    before = dump()
    response = world.client("observer").post(photos_url(world), {"image": image_bytes()})
    assert response.status_code == 403
    assert "Observers cannot add photos." in error_text(response)
    assert dump() == before
    assert media_files() == []


@pytest.mark.parametrize(("kind", "make", "message"), BAD_CRESTS, ids=[b[0] for b in BAD_CRESTS])
def test_bad_photo_is_refused(world: World, kind: str, make: Any, message: str) -> None:
    before = dump()
    response = world.client("player").post(photos_url(world), {"image": make(), "caption": "x"})
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before
    assert media_files() == []


def test_photo_without_a_file_is_refused(world: World) -> None:
    before = dump()
    for data in ({"caption": "no file"}, {}):
        response = world.client("player").post(photos_url(world), data)
        assert response.status_code == 400
        assert "This field is required." in error_text(response)
    assert dump() == before


def test_caption_too_long_is_refused(world: World) -> None:
    before = dump()
    response = world.client("player").post(photos_url(world),
                                            {"image": image_bytes(), "caption": "c" * 201})
    assert response.status_code == 400
    assert "Ensure this value has at most 200 characters" in error_text(response)
    assert dump() == before


def test_photo_limit_follows_the_setting(world: World, settings: Any) -> None:
    settings.MAX_IMAGE_UPLOAD_BYTES = 1024 * 1024
    before = dump()
    response = world.client("player").post(photos_url(world), {"image": noise_png(1024 * 1024 + 1)})
    assert response.status_code == 400
    assert "; the limit is 1 MB." in error_text(response)
    assert dump() == before


def test_decompression_bomb_is_refused(world: World) -> None:
    # A tiny file that decodes to a huge image (over 40 megapixels).
    import io

    buffer = io.BytesIO()
    Image.new("1", (8000, 6000)).save(buffer, format="PNG")
    upload = named(buffer.getvalue(), "bomb.png")
    before = dump()
    response = world.client("player").post(photos_url(world), {"image": upload})
    assert response.status_code == 400
    assert "The image has too many pixels" in error_text(response)
    assert dump() == before
