"""Army pages moved from /c/<slug>/armies/ to their system's /c/<slug>/mk/armies/: the old
addresses (printed QR codes, bookmarks) redirect for members and stay hidden from outsiders."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.battles.conftest import World

pytestmark = pytest.mark.django_db


def test_old_army_addresses_redirect_to_the_systems_pages(world: World) -> None:
    client = Client()
    client.force_login(world.player)
    army = world.get(world.red, 1)
    slug = world.campaign.slug
    response = client.get(f"/c/{slug}/armies/{army.pk}/list/?tab=units")
    assert response.status_code == 301
    assert response["Location"] == f"/c/{slug}/mk/armies/{army.pk}/list/?tab=units"
    assert client.get(response["Location"]).status_code == 200
    index = client.get(f"/c/{slug}/armies/")
    assert (index.status_code, index["Location"]) == (301, f"/c/{slug}/mk/armies/")


def test_old_army_addresses_reveal_nothing_to_outsiders(world: World) -> None:
    client = Client()
    client.force_login(world.outsider)
    assert client.get(f"/c/{world.campaign.slug}/armies/").status_code == 404
