"""manage.py export_campaign SLUG [-o FILE]: write a campaign file (docs/campaign-file.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign import transfer
from campaign.models import Campaign


class Command(BaseCommand):
    help = (
        "Export a whole campaign as a versioned JSON campaign file, to standard output or to "
        "FILE with -o. Invitations and undo data are not included (see docs/campaign-file.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The campaign's address, as in /c/SLUG/.")
        parser.add_argument(
            "-o", "--output", metavar="FILE", help="Write to FILE instead of standard output."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(f"There is no campaign with the slug {options['slug']!r}.")
        text = transfer.dumps(transfer.export_campaign(campaign))
        if options["output"]:
            path = Path(options["output"])
            try:
                path.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"Cannot write {path}: {exc}") from exc
            self.stderr.write(f"{campaign.name} exported to {path}.")
        else:
            self.stdout.write(text, ending="")
