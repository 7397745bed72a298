"""manage.py load_demo: a fresh install gets a campaign in its second year, winter in progress."""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from battles.models import Army, Ship
from campaign.models import Campaign, Event
from ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db


def test_load_demo_twice_gives_one_demo_and_prints_the_logins() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Demo campaigns created: shattered-coast" in out.getvalue()
    assert "alice    password hexkeep-demo" in out.getvalue()
    counts = (User.objects.count(), Campaign.objects.count(), Event.objects.count(),
              LedgerEntry.objects.count(), Army.objects.count())
    again = StringIO()
    call_command("load_demo", stdout=again)
    assert "nothing changed" in again.getvalue()
    assert (User.objects.count(), Campaign.objects.count(), Event.objects.count(),
            LedgerEntry.objects.count(), Army.objects.count()) == counts

    campaign = Campaign.objects.get(slug="shattered-coast")
    assert (campaign.year, campaign.season, campaign.phase, campaign.sub_phase) == (
        2, "winter", "C", "buy")
    assert campaign.kingdoms.count() == 4
    tiles = list(campaign.map.tiles.all())
    assert len(tiles) == 60
    assert {t.terrain for t in tiles} == {t.slug for t in campaign.system.terrains}
    features = Counter(f for t in tiles for side in t.edges.values() for f in side)
    assert set(features) == {c.slug for c in campaign.system.edge_features}
    assert Ship.objects.filter(campaign=campaign, tile__isnull=False).count() >= 1
    assert LedgerEntry.objects.filter(campaign=campaign, year=2).exists()
