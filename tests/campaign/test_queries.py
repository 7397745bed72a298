"""Query counts stay flat as the map grows: a 10x10 map and a 50x40 map cost the same.

Each page loads what it shows in a fixed number of queries (tiles, kingdoms, armies and ships in
one query each), so a bigger map, more kingdoms or a longer chronicle cost no extra queries.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army
from campaign import services
from campaign.chronicle import Recorder
from campaign.models import Kingdom, Role, Tile, Visibility
from campaign.systems.mighty_kingdoms.models import Ship
from tests.conftest import MIGHTY_KINGDOMS, add_member, make_campaign_of, make_user

SIZES = [(10, 10), (50, 40)]

# Measured counts (GM, the larger of GM and player where they differ). They include the session
# and user lookups of every logged-in request.
BOUNDS = {
    "map": 10,
    "map_svg": 10,
    "map_edit": 11,
    "tile_htmx": 12,
    "tile_page": 17,
    "overview": 8,
    "chronicle": 9,
    "chronicle_htmx": 9,
    "members": 8,
    "kingdom": 18,
}
GM_ONLY = {"map_edit"}


def build_campaign(slug: str, width: int, height: int, players: int = 4) -> dict[str, Any]:
    """A campaign with kingdoms holding land, settlements, armies, ships, invitations and events."""
    gm = make_user(f"{slug}-gm")
    campaign = make_campaign_of(MIGHTY_KINGDOMS, gm, slug=slug, width=width, height=height,
                                seed=5)
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    kingdoms: list[Kingdom] = []
    users = []
    for n in range(players):
        user = make_user(f"{slug}-player{n}")
        users.append(user)
        membership = add_member(campaign, user, Role.PLAYER)
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"Kingdom {n}",
                                         colour=f"#{n:02x}{n:02x}aa", player=membership)
        kingdoms.append(kingdom)
        owned = tiles[n::players][: max(len(tiles) // (players + 1), 8)]
        Tile.objects.filter(pk__in=[t.pk for t in owned]).update(controller=kingdom, explored=True)
        Tile.objects.filter(pk__in=[t.pk for t in owned[:5]]).update(settlement="village")
        Tile.objects.filter(pk=owned[6].pk).update(settlement="city")
        kingdom.capital_tile = owned[6]
        kingdom.save()
        for number in range(1, 4):
            Army.objects.create(campaign=campaign, kingdom=kingdom, number=number,
                                tile=owned[number], on_side=number == 2)
        Ship.objects.create(campaign=campaign, kingdom=kingdom, number=1, tile=owned[7])
    Kingdom.objects.create(campaign=campaign, name="Unclaimed", colour="#00aa00")
    add_member(campaign, make_user(f"{slug}-observer"), Role.OBSERVER)
    for _ in range(3):
        services.create_invitation(campaign, gm, role=Role.PLAYER, single_use=True)
    visibilities = [Visibility.PUBLIC, Visibility.KINGDOM, Visibility.GM]
    for n in range(40):
        with transaction.atomic():
            with Recorder(campaign, users[n % players], f"story.n{n % 5}", f"Event {n}.",
                          visibility=visibilities[n % 3], kingdom=kingdoms[n % players]) as rec:
                rec.roll("test", [n % 6 + 1, 3])
    services.edit_tile(tiles[0], gm, changes={"terrain": "hills"})
    return {"campaign": campaign, "gm": gm, "player": users[0], "kingdom": kingdoms[0],
            "label": Tile.objects.filter(controller=kingdoms[0]).order_by("label")[1].label}


def page_urls(built: dict[str, Any]) -> dict[str, tuple[str, dict[str, str]]]:
    slug = built["campaign"].slug
    htmx = {"HX-Request": "true"}
    tile = reverse("campaign:tile", args=[slug, built["label"]])
    return {
        "map": (reverse("campaign:map", args=[slug]), {}),
        "map_svg": (reverse("campaign:map_svg", args=[slug]), {}),
        "map_edit": (reverse("campaign:map_edit", args=[slug]), {}),
        "tile_htmx": (tile, htmx),
        "tile_page": (tile, {}),
        "overview": (reverse("campaign:detail", args=[slug]), {}),
        "chronicle": (reverse("campaign:chronicle", args=[slug]), {}),
        "chronicle_htmx": (reverse("campaign:chronicle", args=[slug]) + "?kind=story", htmx),
        "members": (reverse("campaign:members", args=[slug]), {}),
        "kingdom": (reverse("campaign:kingdom", args=[slug, built["kingdom"].pk]), {}),
    }


def count_queries(user: Any, url: str, headers: dict[str, str]) -> int:
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.mark.parametrize("persona", ["gm", "player"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_page_query_bounds(db: Any, django_assert_max_num_queries: Callable[..., Any],
                           size: tuple[int, int], persona: str) -> None:
    built = build_campaign("big", *size)
    assert Tile.objects.filter(map__campaign=built["campaign"]).count() == size[0] * size[1]
    for page, (url, headers) in page_urls(built).items():
        if persona != "gm" and page in GM_ONLY:
            continue
        client = Client()
        client.force_login(built[persona])
        with django_assert_max_num_queries(BOUNDS[page], info=page):
            response = client.get(url, headers=headers)
        assert response.status_code == 200, page
        if page == "map":
            assert response.content.decode().count('class="tile"') == size[0] * size[1]


def test_counts_do_not_grow_with_the_map(db: Any) -> None:
    small = build_campaign("small", 10, 10)
    large = build_campaign("large", 50, 40)
    for persona in ("gm", "player"):
        small_urls, large_urls = page_urls(small), page_urls(large)
        for page in BOUNDS:
            if persona != "gm" and page in GM_ONLY:
                continue
            counts = (count_queries(small[persona], *small_urls[page]),
                      count_queries(large[persona], *large_urls[page]))
            assert counts[0] == counts[1], (persona, page, counts)


def test_counts_do_not_grow_with_players(db: Any) -> None:
    few = build_campaign("few", 10, 10, players=2)
    many = build_campaign("many", 10, 10, players=8)
    for persona in ("gm", "player"):
        few_urls, many_urls = page_urls(few), page_urls(many)
        for page in BOUNDS:
            if persona != "gm" and page in GM_ONLY:
                continue
            counts = (count_queries(few[persona], *few_urls[page]),
                      count_queries(many[persona], *many_urls[page]))
            assert counts[0] == counts[1], (persona, page, counts)
