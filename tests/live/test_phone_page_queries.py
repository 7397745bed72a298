"""The phone's pages of a player in every demo campaign: the play, kingdom, map and overview
pages answer in two queries (one on PostgreSQL: the session with the viewer's version) while
nothing the player may read has changed (the page cache of campaign.live), and rendering one
takes no more queries in a campaign four times larger (bench/grow.py) than in the demo itself.
Times are measured in bench/phone_pages.py, not here."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench.grow import grow
from campaign.demo import load_demo
from campaign.models import Campaign, Kingdom
from tests.live.conftest import KEPT_QUERIES

SYSTEMS = ("mighty-kingdoms", "middle-sea", "war-of-kings", "swords-and-stones")


def _pages(campaign: Campaign, kingdom: Kingdom) -> dict[str, str]:
    base = f"/c/{campaign.slug}/"
    return {"play": base + "play/", "kingdom": base + f"kingdoms/{kingdom.pk}/",
            "map": base + "map/", "overview": base}


def _queries(client: Client, url: str, *, rendered: bool) -> int:
    if rendered:
        caches["pages"].clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(queries)


def _player(campaign: Campaign) -> tuple[Kingdom, Client]:
    kingdom = (Kingdom.objects.filter(campaign=campaign, player__isnull=False)
               .select_related("player__user").order_by("pk").first())
    assert kingdom is not None, campaign.slug
    client = Client()
    client.force_login(kingdom.player.user)
    return kingdom, client


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_phone_page_of_each_demo_player_is_answered_in_one_or_two_queries(
        system: str, settings: Any, db: Any) -> None:
    settings.PAGE_CACHE = True
    caches["pages"].clear()
    load_demo(system)
    campaigns = list(Campaign.objects.filter(rule_system=system).order_by("pk"))
    assert campaigns
    for campaign in campaigns:
        kingdom, client = _player(campaign)
        pages = _pages(campaign, kingdom)
        client.get(pages["play"])  # the CSRF cookie a phone has after its first page
        rendered = {}
        for name, url in pages.items():
            rendered[name] = _queries(client, url, rendered=True)
            assert rendered[name] > 2, (campaign.slug, name)
            # Asked again: the session and the viewer's version, nothing else.
            assert _queries(client, url, rendered=False) == KEPT_QUERIES, (campaign.slug,
                                                                          name)
        grow(campaign, 4)
        for name, url in pages.items():
            # Never more (a grown campaign may stand elsewhere in its turn: fewer is fine).
            assert _queries(client, url, rendered=True) <= rendered[name], (campaign.slug, name)
            assert _queries(client, url, rendered=False) == KEPT_QUERIES, (campaign.slug,
                                                                          name)
