"""Crest and photo files follow the rows that point to them.

Uploads are served to anyone with their address, so a file no row points to must not linger: a
write that fails deletes the files it had saved, and an undo deletes, once it is committed, the
files of the rows it took away. Files an undo may still need (an older crest a newer one
replaced) stay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.urls import reverse

from campaign import chronicle, services
from campaign.chronicle import Recorder
from campaign.models import Event, Kingdom, Photo
from tests.campaign.conftest import World, dump, image_bytes, media_files


def stored(*names: str) -> list[Path]:
    return sorted(Path(settings.MEDIA_ROOT) / name for name in names)


# -- undo ---------------------------------------------------------------------------------------


def test_undoing_a_photo_deletes_its_files(world: World,
                                           django_capture_on_commit_callbacks: Any) -> None:
    photo = services.add_photo(world.campaign, world.player, image_bytes(fmt="JPEG"), "Turn 1")
    assert media_files() == stored(photo.image.name, photo.thumbnail.name)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        chronicle.undo_latest(world.campaign, world.gm)
    assert len(callbacks) == 1
    assert not Photo.objects.exists()
    assert media_files() == []


def test_undoing_a_new_crest_deletes_it_and_keeps_the_old_one(
        world: World, django_capture_on_commit_callbacks: Any) -> None:
    services.update_kingdom(world.red, world.gm, name="Red", colour="#aa0000",
                            crest=image_bytes(colour="red"))
    old = Kingdom.objects.get(pk=world.red.pk)
    services.update_kingdom(world.red, world.gm, name="Red", colour="#aa0000",
                            crest=image_bytes(colour="blue"))
    new = Kingdom.objects.get(pk=world.red.pk)
    assert len(media_files()) == 4
    with django_capture_on_commit_callbacks(execute=True):
        chronicle.undo_latest(world.campaign, world.gm)
    red = Kingdom.objects.get(pk=world.red.pk)
    assert (red.crest.name, red.crest_thumb.name) == (old.crest.name, old.crest_thumb.name)
    assert media_files() == stored(old.crest.name, old.crest_thumb.name)
    assert new.crest.name != old.crest.name
    # And the first crest goes too when its own event is undone.
    with django_capture_on_commit_callbacks(execute=True):
        chronicle.undo_latest(world.campaign, world.gm)
    assert media_files() == []
    assert not Kingdom.objects.get(pk=world.red.pk).crest


def test_undoing_a_renaming_keeps_the_crest(world: World,
                                            django_capture_on_commit_callbacks: Any) -> None:
    services.update_kingdom(world.red, world.gm, name="Red", colour="#aa0000",
                            crest=image_bytes())
    files = media_files()
    services.update_kingdom(world.red, world.gm, name="Crimson", colour="#aa0000")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        chronicle.undo_latest(world.campaign, world.gm)
    assert callbacks == []  # nothing to delete: the crest is the same
    assert media_files() == files


def test_undoing_a_founding_deletes_the_crest(world: World,
                                              django_capture_on_commit_callbacks: Any) -> None:
    services.create_kingdom(world.campaign, world.gm, name="Gold", colour="#ccaa00",
                            player=None, crest=image_bytes())
    assert len(media_files()) == 2
    with django_capture_on_commit_callbacks(execute=True):
        chronicle.undo_latest(world.campaign, world.gm)
    assert not Kingdom.objects.filter(name="Gold").exists()
    assert media_files() == []


def test_undo_button_deletes_the_files(world: World,
                                       django_capture_on_commit_callbacks: Any) -> None:
    photo = services.add_photo(world.campaign, world.player, image_bytes(fmt="PNG"), "")
    event = Event.objects.filter(campaign=world.campaign).order_by("-seq").first()
    url = reverse("campaign:undo", args=[world.campaign.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = world.client("gm").post(url, {"seq": str(event.seq)})
    assert response.status_code == 302
    assert not Photo.objects.filter(pk=photo.pk).exists()
    assert media_files() == []


def test_an_undo_that_rolls_back_deletes_nothing(world: World,
                                                 django_capture_on_commit_callbacks: Any) -> None:
    services.add_photo(world.campaign, world.player, image_bytes(fmt="JPEG"), "")
    files = media_files()
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            chronicle.undo_latest(world.campaign, world.gm)
            transaction.set_rollback(True)
    assert Photo.objects.count() == 1
    assert media_files() == files


def test_a_file_another_row_points_to_is_kept(world: World,
                                              django_capture_on_commit_callbacks: Any) -> None:
    services.create_kingdom(world.campaign, world.gm, name="Gold", colour="#ccaa00",
                            player=None, crest=image_bytes())
    gold = Kingdom.objects.get(name="Gold")
    # A maintainer pointed Green at the same files in the admin.
    Kingdom.objects.filter(pk=world.green.pk).update(crest=gold.crest.name,
                                                     crest_thumb=gold.crest_thumb.name)
    with django_capture_on_commit_callbacks(execute=True):
        chronicle.undo_latest(world.campaign, world.gm)
    assert media_files() == stored(gold.crest.name, gold.crest_thumb.name)


# -- writes that fail ---------------------------------------------------------------------------


@pytest.fixture
def failing_chronicle(monkeypatch: Any) -> None:
    """The chronicle event cannot be written: the whole write rolls back."""

    def finish(self: Recorder) -> Event:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Recorder, "finish", finish)


WRITES = {
    "found a kingdom": lambda w: services.create_kingdom(
        w.campaign, w.gm, name="Gold", colour="#ccaa00", player=None, crest=image_bytes()),
    "change a crest": lambda w: services.update_kingdom(
        w.red, w.gm, name="Red", colour="#aa0000", crest=image_bytes()),
    "add a photo": lambda w: services.add_photo(w.campaign, w.player, image_bytes(), "x"),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=list(WRITES))
def test_a_write_that_fails_leaves_no_file(world: World, failing_chronicle: None,
                                           write: Any) -> None:
    before = dump()
    with pytest.raises(RuntimeError, match="the database went away"):
        write(world)
    assert dump() == before
    assert media_files() == []


def test_a_refused_crest_change_leaves_no_file(world: World) -> None:
    before = dump()
    with pytest.raises(services.ServiceError, match="There is already a kingdom called 'Blue'"):
        services.update_kingdom(world.red, world.gm, name="Blue", colour="#aa0000",
                                crest=image_bytes())
    assert dump() == before
    assert media_files() == []


# -- the sweep for files left behind ----------------------------------------------------------


def test_prune_media_finds_only_what_nothing_needs(world: World) -> None:
    import io

    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage
    from django.core.management import call_command

    services.update_kingdom(world.red, world.gm, name="Red", colour="#aa0000",
                            crest=image_bytes(colour="red"))
    first = Kingdom.objects.get(pk=world.red.pk)
    # A newer crest: the first one is no row's now, but undoing the change would bring it back.
    services.update_kingdom(world.red, world.gm, name="Red", colour="#aa0000",
                            crest=image_bytes(colour="blue"))
    photo = services.add_photo(world.campaign, world.player, image_bytes(fmt="JPEG"), "")
    stray = default_storage.save("crests/stray.png", ContentFile(b"left by a crash"))
    out = io.StringIO()
    call_command("prune_media", stdout=out)
    assert out.getvalue().splitlines() == [
        stray, "1 file(s) nothing needs; --delete deletes them."]
    call_command("prune_media", "--delete", stdout=io.StringIO())
    assert not default_storage.exists(stray)
    assert default_storage.exists(first.crest.name) and default_storage.exists(photo.image.name)
    # Once the change can no longer be undone, the first crest is stray too.
    Event.objects.filter(campaign=world.campaign).update(reversible=False)
    out = io.StringIO()
    call_command("prune_media", "--delete", stdout=out)
    assert sorted(out.getvalue().splitlines()[:-1]) == sorted(
        [first.crest.name, first.crest_thumb.name])
    assert Kingdom.objects.get(pk=world.red.pk).crest.storage.exists(
        Kingdom.objects.get(pk=world.red.pk).crest.name)
