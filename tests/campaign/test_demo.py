"""manage.py load_demo: a fresh install gets a campaign in its second year, winter in progress."""

from __future__ import annotations

from collections import Counter
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from battles.models import Army, Ship
from campaign.models import Campaign, Event
from ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db

# The Ember Marches' battles waiting in C) Battle (the demo's seed decides them).
EMBER_BATTLE_KINDS = ["land", "land_water"]


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


def test_demo_has_kings_of_war_lists_and_a_simple_campaign_with_pending_battles(
        login: Any) -> None:
    """Issue scope for army lists and battles: Aldmark keeps Kings of War lists (fixed, secret to
    other players); the Ember Marches plays Simple battles and waits in C) Battle."""
    from django.urls import reverse

    from battles.models import ArmyList, Battle

    call_command("load_demo", stdout=StringIO())
    coast = Campaign.objects.get(slug="shattered-coast")
    lists = ArmyList.objects.filter(army__campaign=coast).select_related("army__kingdom")
    assert {(a.army.kingdom.name, a.army.number) for a in lists} == {
        ("Kingdom of Aldmark", 1), ("Kingdom of Aldmark", 2), ("Kingdom of Aldmark", 3)}
    points = {a.army.number: sum(u.points for u in a.units.all()) for a in lists}
    assert points == {1: 500, 2: 445, 3: 465}
    assert all(a.fixed_at is not None for a in lists)
    army = Army.objects.get(campaign=coast, kingdom__name="Kingdom of Aldmark", number=2)
    url = reverse("campaign:battles:army", args=[coast.slug, army.pk])
    alice, bob = (login(User.objects.get(username=n)) for n in ("alice", "bob"))
    page = alice.get(url)
    assert page.status_code == 200 and "High Paladin" in page.content.decode()
    assert bob.get(url).status_code == 403

    marches = Campaign.objects.get(slug="ember-marches")
    assert marches.options["battle_mode"] == "simple"
    assert (marches.year, marches.season, marches.phase) == (2, "summer", "C")
    assert marches.kingdoms.count() == 3
    battles = list(Battle.objects.filter(campaign=marches, year=2, month=6))
    assert all(b.mode == "simple" and b.status == "pending" and not b.result_chooser
               for b in battles)
    assert sorted(b.kind for b in battles) == EMBER_BATTLE_KINDS
    # Earlier months' battles were fought out on the battle page's services, dice recorded.
    fought = Battle.objects.filter(campaign=marches, status="resolved")
    assert fought.exists() and all(b.result_chooser for b in fought)
    play = login(User.objects.get(username="gm")).get(
        reverse("mk:battle_play", args=[marches.slug, battles[0].pk]))
    assert play.status_code == 200
