"""manage.py load_demo: create the demo users and campaigns (safe to run again).

Every registered rule system's demo campaigns load, or with ``--system SLUG`` only that
system's (see campaign.demo and ``RuleSystem.demo``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.demo import DEMO_PASSWORD, UnknownSystem, demo_systems, load_demo


class Command(BaseCommand):
    help = "Create demo users and campaigns. Running it again changes nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--on-a-live-site", action="store_true", dest="live",
            help="Load the demo even with DEBUG off: its logins, a site administrator among "
                 "them, all share a published password.")
        parser.add_argument(
            "--system", metavar="SLUG", default=None,
            help="Load only the demo campaigns of the rule system registered as SLUG "
                 "(default: every registered system's).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            demo_systems(options["system"])
        except UnknownSystem as exc:
            raise CommandError(str(exc)) from exc
        if not settings.DEBUG and not options["live"]:
            raise CommandError(
                f"The demo's logins, a site administrator among them, all use the published "
                f"password {DEMO_PASSWORD!r}: this site runs with DEBUG off, so nothing was "
                "loaded. Pass --on-a-live-site to load the demo here anyway.")
        logins, created = load_demo(options["system"])
        if created:
            self.stdout.write(self.style.SUCCESS(f"Demo campaigns created: {', '.join(created)}"))
        else:
            self.stdout.write("Demo campaigns already present; nothing changed.")
        self.stdout.write("Demo logins (open http://127.0.0.1:8000/):")
        for login in logins:
            self.stdout.write(f"  {login.username:<8} password {login.password:<14} {login.role}")
