"""Image checks do not depend on Pillow's process-wide settings.

WeasyPrint turns on ``PIL.ImageFile.LOAD_TRUNCATED_IMAGES`` when it is imported, for the whole
process; a cut-off upload must still be refused after any PDF has been made, and the setting must
be left as WeasyPrint wants it.
"""

from __future__ import annotations

import io
import random
from typing import Any, Iterator

import pytest
from django.urls import reverse
from PIL import Image, ImageFile

from campaign.images import ImageRejected, process_crest, process_photo
from tests.campaign.conftest import World, dump, error_text, media_files


def _noise(fmt: str, side: int = 160) -> bytes:
    image = Image.frombytes("RGB", (side, side), random.Random(side).randbytes(side * side * 3))
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def cut(fmt: str) -> io.BytesIO:
    """A real image of ``fmt`` with its second half missing."""
    data = _noise(fmt)
    buffer = io.BytesIO(data[: len(data) // 2])
    buffer.name = f"cut.{fmt.lower()}"
    return buffer


@pytest.fixture
def weasyprint_loaded() -> Iterator[None]:
    """The process as it is after a PDF was rendered: WeasyPrint imported, setting on."""
    import weasyprint  # noqa: F401

    previous = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = True  # what importing weasyprint.images did
    yield
    ImageFile.LOAD_TRUNCATED_IMAGES = previous


def test_weasyprint_really_turns_the_setting_on() -> None:
    import weasyprint.images  # noqa: F401

    assert ImageFile.LOAD_TRUNCATED_IMAGES is True
    # With the setting on, Pillow itself accepts the cut-off JPEG: the check below matters.
    Image.open(cut("JPEG")).load()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
@pytest.mark.parametrize("process", [process_crest, process_photo],
                         ids=["crest", "photo"])
def test_truncated_images_are_refused_after_weasyprint(weasyprint_loaded: None, fmt: str,
                                                       process: Any) -> None:
    with pytest.raises(ImageRejected, match="That file is not a readable PNG, JPEG or WebP"):
        process(cut(fmt))
    # The setting is WeasyPrint's again afterwards.
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True


def test_whole_images_still_pass_after_weasyprint(weasyprint_loaded: None) -> None:
    buffer = io.BytesIO(_noise("JPEG"))
    crest, thumb = process_crest(buffer)
    assert Image.open(crest).size == (256, 256)
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True


def test_setting_is_restored_when_the_image_is_refused(weasyprint_loaded: None) -> None:
    with pytest.raises(ImageRejected):
        process_crest(io.BytesIO(b"not an image at all"))
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True


def test_truncated_crest_upload_after_a_pdf_is_refused(world: World,
                                                       weasyprint_loaded: None) -> None:
    before = dump()
    url = reverse("campaign:kingdom_edit", args=[world.campaign.slug, world.red.pk])
    response = world.client("player").post(
        url, {"name": "Red", "colour": "#aa0000", "crest": cut("JPEG")})
    assert response.status_code == 400
    assert "That file is not a readable PNG, JPEG or WebP image." in error_text(response)
    assert dump() == before
    assert media_files() == []
