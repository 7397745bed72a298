"""manage.py prune_media [--delete]: find crest and photo files nothing points to any more."""

from __future__ import annotations

from typing import Any, Iterator

from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandParser

from campaign.images import delete_files
from campaign.models import ChronicleEntry, Event, Kingdom, Photo

FOLDERS = ("crests", "photos")


def stored_files(folder: str) -> Iterator[str]:
    """Every file under ``folder`` of the media storage."""
    if not default_storage.exists(folder):
        return
    dirs, files = default_storage.listdir(folder)
    for name in files:
        yield f"{folder}/{name}"
    for sub in dirs:
        yield from stored_files(f"{folder}/{sub}")


def still_needed() -> set[str]:
    """Files a row points to, or that undoing an event still standing would put back."""
    needed: set[str] = set()
    for row in Kingdom.objects.values_list("crest", "crest_thumb"):
        needed.update(row)
    for row in Photo.objects.values_list("image", "thumbnail"):
        needed.update(row)
    for row in ChronicleEntry.objects.values_list("image", "thumbnail"):
        needed.update(row)
    standing = Event.objects.filter(reversible=True, undone_at__isnull=True)
    for changes in standing.values_list("changes", flat=True).iterator():
        for change in changes:
            for value in (change.get("fields") or {}).values():
                if isinstance(value, str) and value.startswith(tuple(f"{f}/" for f in FOLDERS)):
                    needed.add(value)
    needed.discard("")
    return needed


class Command(BaseCommand):
    help = (
        "List crest and table-photo files in MEDIA_ROOT that no kingdom, photo or chronicle "
        "entry points to and "
        "no undo could bring back (left by a hand edit in the admin, or a crashed process). "
        "With --delete, delete them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--delete", action="store_true", help="Delete the files listed.")

    def handle(self, *args: Any, **options: Any) -> None:
        needed = still_needed()
        orphans = sorted(name for folder in FOLDERS for name in stored_files(folder)
                         if name not in needed)
        for name in orphans:
            self.stdout.write(name)
        if options["delete"]:
            delete_files(orphans)
            self.stdout.write(self.style.SUCCESS(f"Deleted {len(orphans)} file(s)."))
        else:
            self.stdout.write(f"{len(orphans)} file(s) nothing needs; --delete deletes them.")
