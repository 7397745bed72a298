"""manage.py import_campaign FILE [--slug NEW] [--user USERNAME]: create a campaign from a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign import transfer


class Command(BaseCommand):
    help = (
        "Create a new campaign from a Hexkeep campaign file. The file is checked completely "
        "before anything is written; a refused file changes nothing. USERNAME (default: the "
        "first superuser) becomes the campaign's GM and only member: the people the file "
        "names are listed, to be invited again."
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

    def handle(self, *args: Any, **options: Any) -> None:
        user = self._user(options["user"])
        path = Path(options["file"])
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
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
