"""Queue the daily digest (``campaign.notifications``): run once a day, e.g. from cron."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from campaign.notifications import send_digests


class Command(BaseCommand):
    help = ("Queue the daily digest of the chronicle for every member who asked for one; a "
            "worker (manage.py db_worker) sends them.")

    def handle(self, *args: Any, **options: Any) -> None:
        result = send_digests.enqueue()
        self.stdout.write(f"Digests queued as task {result.id}.")
