"""manage.py load_demo: create the demo users and campaigns (safe to run again)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from campaign.demo import load_demo


class Command(BaseCommand):
    help = "Create demo users and campaigns. Running it again changes nothing."

    def handle(self, *args: Any, **options: Any) -> None:
        logins, created = load_demo()
        if created:
            self.stdout.write(self.style.SUCCESS(f"Demo campaigns created: {', '.join(created)}"))
        else:
            self.stdout.write("Demo campaigns already present; nothing changed.")
        self.stdout.write("Demo logins (open http://127.0.0.1:8000/):")
        for login in logins:
            self.stdout.write(f"  {login.username:<8} password {login.password:<14} {login.role}")
