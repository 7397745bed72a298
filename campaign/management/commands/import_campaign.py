"""manage.py import_campaign FILE [--slug NEW] [--user USERNAME] [--max-bytes N]: create a
campaign from a campaign file (docs/campaign-file.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign import transfer


class Command(BaseCommand):
    help = (
        "Create a new campaign from a Hexkeep campaign file. The file is checked completely "
        "before anything is written; a refused file changes nothing. USERNAME (default: the "
        "first superuser) becomes the campaign's GM and only member: the people the file "
        "names are listed, to be invited again. A file larger than the web import's limit "
        "(MAX_CAMPAIGN_IMPORT_BYTES, 50 MB) is refused unless --max-bytes raises it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="A campaign file (.json) exported by Hexkeep.")
        parser.add_argument(
            "--slug", help="Import under this address instead of the one in the file."
        )
        parser.add_argument(
            "--user", metavar="USERNAME",
            help="The user who imports (and becomes the GM); default the first superuser.",
        )
        parser.add_argument(
            "--max-bytes", type=int, metavar="N", default=None,
            help="Accept files up to N bytes (default: the web import's limit, "
                 f"{settings.MAX_CAMPAIGN_IMPORT_BYTES} bytes).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = self._user(options["user"])
        path = Path(options["file"])
        limit = options["max_bytes"]
        if limit is None:
            limit = settings.MAX_CAMPAIGN_IMPORT_BYTES
        elif limit < 1:
            raise CommandError(f"--max-bytes must be a positive number of bytes, not {limit}.")
        try:
            size = path.stat().st_size
            if size > limit:
                raise CommandError(
                    f"{path} is {size} bytes, larger than the limit of {limit} bytes: nothing "
                    "was imported. Pass --max-bytes N to accept a larger file."
                )
            # Read at most one byte past the limit, in case the file grew since.
            with path.open("rb") as handle:
                text = handle.read(limit + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        if len(text) > limit:
            raise CommandError(
                f"{path} is larger than the limit of {limit} bytes: nothing was imported. "
                "Pass --max-bytes N to accept a larger file."
            )
        try:
            data = transfer.loads(text)
        except transfer.ImportRefused as exc:
            raise CommandError(f"{path}: {exc}") from None
        try:
            campaign = transfer.import_campaign(data, user, slug=options["slug"] or None)
        except transfer.ImportRefused as exc:
            raise CommandError(f"Import refused: {exc}") from None
        self.stdout.write(
            self.style.SUCCESS(f"{campaign.name} imported as /c/{campaign.slug}/.")
        )
        for note in transfer.import_notes(campaign):
            self.stdout.write(note)

    def _user(self, username: str | None) -> Any:
        users = get_user_model()._default_manager
        if username:
            user = users.filter(username=username).first()
            if user is None:
                raise CommandError(f"There is no user called {username!r}.")
            return user
        user = users.filter(is_superuser=True).order_by("pk").first()
        if user is None:
            raise CommandError(
                "There is no superuser to become the campaign's GM: pass --user USERNAME "
                "(or create one with createsuperuser)."
            )
        return user
