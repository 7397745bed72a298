"""Uploaded images: kingdom crests and photos of the table.

Only real PNG, JPEG and WebP images up to 5 MB are accepted. Each is decoded by Pillow and
re-encoded, so nothing of the uploaded file (metadata, trailing data, scripts) is ever served.

A truncated file is refused whatever the rest of the process has set: WeasyPrint sets
Pillow's process-wide ``ImageFile.LOAD_TRUNCATED_IMAGES`` to True when it is imported (so a PDF
survives a damaged picture), which would let a cut-off JPEG through as a crest after the first
PDF. ``_strict_decoding`` turns the setting off while an upload is checked and decoded.
"""

from __future__ import annotations

import io
import threading
import warnings
from contextlib import contextmanager
from typing import IO, Iterator

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageFile, ImageOps

ALLOWED_FORMATS = {"PNG", "JPEG", "WEBP"}
MAX_PIXELS = 40_000_000  # a 40-megapixel phone photo is fine; a decompression bomb is not
CREST_SIZE = 256
CREST_THUMB_SIZE = 64
PHOTO_MAX = 1600
PHOTO_THUMB = 320


class ImageRejected(ValueError):
    """The upload is not an acceptable image; the message says why."""


_STRICT_LOCK = threading.RLock()


@contextmanager
def _strict_decoding() -> Iterator[None]:
    """Decode with Pillow refusing truncated files, then put the process-wide setting back.

    The lock keeps two uploads checked at once in one process from restoring each other's value.
    """
    with _STRICT_LOCK:
        previous = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = previous


def _open(upload: IO[bytes]) -> Image.Image:
    size = getattr(upload, "size", None)
    if size is None:
        upload.seek(0, io.SEEK_END)
        size = upload.tell()
    if size > settings.MAX_IMAGE_UPLOAD_BYTES:
        raise ImageRejected(
            f"The image is {size / 1024 / 1024:.1f} MB; the limit is "
            f"{settings.MAX_IMAGE_UPLOAD_BYTES // (1024 * 1024)} MB."
        )
    if size == 0:
        raise ImageRejected("The file is empty.")
    try:
        upload.seek(0)
        with warnings.catch_warnings(), _strict_decoding():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(upload)
            if probe.format not in ALLOWED_FORMATS:
                raise ImageRejected(
                    f"{probe.format or 'This'} files are not accepted: "
                    "upload a PNG, JPEG or WebP image."
                )
            if probe.width * probe.height > MAX_PIXELS:
                raise ImageRejected("The image has too many pixels (over 40 megapixels).")
            probe.verify()
            upload.seek(0)
            image = Image.open(upload)
            # A full decode: verify() alone does not read a JPEG's image data.
            image.load()
    except ImageRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected("The image has too many pixels.") from None
    except Exception:
        raise ImageRejected("That file is not a readable PNG, JPEG or WebP image.") from None
    return ImageOps.exif_transpose(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, format="JPEG", quality=82, optimize=True)
    return out.getvalue()


def _square(image: Image.Image, size: int) -> Image.Image:
    """Fit inside a transparent square, keeping the proportions."""
    image = image.convert("RGBA")
    image.thumbnail((size, size), Image.Resampling.LANCZOS)
    canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    canvas.paste(image, ((size - image.width) // 2, (size - image.height) // 2), image)
    return canvas


def process_crest(upload: IO[bytes]) -> tuple[ContentFile, ContentFile]:
    """The crest (256 px square PNG) and its thumbnail (64 px)."""
    image = _open(upload)
    crest = _square(image, CREST_SIZE)
    thumb = _square(image, CREST_THUMB_SIZE)
    return ContentFile(_png(crest), name="crest.png"), ContentFile(_png(thumb), name="crest.png")


def process_photo(upload: IO[bytes]) -> tuple[ContentFile, ContentFile]:
    """The photo (longest side 1600 px, JPEG) and its thumbnail (320 px)."""
    image = _open(upload)
    photo = image.copy()
    photo.thumbnail((PHOTO_MAX, PHOTO_MAX), Image.Resampling.LANCZOS)
    thumb = image.copy()
    thumb.thumbnail((PHOTO_THUMB, PHOTO_THUMB), Image.Resampling.LANCZOS)
    return ContentFile(_jpeg(photo), name="photo.jpg"), ContentFile(_jpeg(thumb), name="thumb.jpg")


def delete_files(names: list[str]) -> None:
    """Delete stored files (crests, photos) that nothing points to any more; a file already gone
    is fine."""
    for name in names:
        if not name:
            continue
        try:
            default_storage.delete(name)
        except OSError:
            pass
