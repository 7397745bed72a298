"""The first render of a player's phone pages (play, kingdom, map, overview) with no page cache:
the queries each page of each demo campaign takes, and no more in a campaign four times larger
(bench/grow.py): at most 10 queries each. Times are measured in bench/phone_pages.py, not
here."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches

from bench.grow import grow
from campaign.demo import load_demo
from campaign.models import Campaign
from tests.live.test_phone_page_queries import SYSTEMS, _pages, _player, _queries

TARGET = 10


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_phone_page_of_each_demo_player_renders_in_at_most_ten_queries_at_any_size(
        system: str, settings: Any, db: Any) -> None:
    settings.PAGE_CACHE = False
    caches["pages"].clear()
    load_demo(system)
    campaigns = list(Campaign.objects.filter(rule_system=system).order_by("pk"))
    assert campaigns
    for campaign in campaigns:
        kingdom, client = _player(campaign)
        pages = _pages(campaign, kingdom)
        client.get(pages["play"])  # the CSRF cookie a phone has after its first page
        first = {name: _queries(client, url, rendered=True) for name, url in pages.items()}
        # Asked again without a change: the page cache is off, so the same count again.
        again = {name: _queries(client, url, rendered=True) for name, url in pages.items()}
        assert again == first, campaign.slug
        for name, count in first.items():
            assert count <= TARGET, (campaign.slug, name, count)
        grow(campaign, 4)
        for name, url in pages.items():
            # Never more in the larger campaign (it may stand elsewhere in its turn: fewer is
            # fine).
            assert _queries(client, url, rendered=True) <= first[name], (campaign.slug, name)

