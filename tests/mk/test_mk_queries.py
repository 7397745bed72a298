"""Mighty Kingdoms actions cost the same as the map grows (MK-ORD-5, MK-RES-3).

Giving an order and resolving it read only the token's tile and the tiles around it, so a
10x10 map and a 60x50 map cost the same number of queries; and what the rules see around the
token is what they would see on the whole map. A player's phone pages (play, My kingdom) cost
the same queries with 2 kingdoms of 1 army and with 14 kingdoms of 6 armies, and count the other
kingdoms instead of listing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army
from campaign.models import Campaign, Event, Kingdom, Role, Tile
from campaign.systems.mighty_kingdoms import phases, summer_orders
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import add_member, make_campaign, make_user

pytestmark = pytest.mark.django_db

SIZES = [(10, 10), (60, 50)]


def build(slug: str, width: int, height: int, kingdoms: int = 2,
          per_kingdom: int = 1) -> dict[str, Any]:
    """Kingdoms with ``per_kingdom`` armies each on explored land (two kingdoms of one army, at
    opposite corners, by default), at summer month 1, A) Orders."""
    gm = make_user(f"{slug}-gm")
    campaign = make_campaign(gm, slug=slug, width=width, height=height, seed=3)
    Tile.objects.filter(map__campaign=campaign).update(terrain="plain", edges={}, features=[])
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    homes = ([tiles[width + 2], tiles[len(tiles) - width - 3]] if kingdoms == 2
             else tiles[width + 2::max(1, (len(tiles) - 2 * width) // kingdoms)][:kingdoms])
    armies = []
    players = []
    for n, tile in enumerate(homes):
        user = make_user(f"{slug}-p{n}")
        players.append(user)
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"K{n}", colour="#123456",
                                         player=add_member(campaign, user, Role.PLAYER),
                                         order_position=n + 1, start_tile=tile,
                                         capital_tile=tile)
        Tile.objects.filter(pk=tile.pk).update(controller=kingdom, explored=True,
                                               settlement="city")
        for number in range(1, per_kingdom + 1):
            armies.append(Army.objects.create(campaign=campaign, kingdom=kingdom,
                                              number=number, tile=tile))
    Campaign.objects.filter(pk=campaign.pk).update(season=mk.SUMMER, month=1, phase="A",
                                                   state={"races_revealed": True})
    campaign.refresh_from_db()
    return {"campaign": campaign, "gm": gm, "armies": armies, "players": players}


def count(fn: Any) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def play(world: dict[str, Any]) -> dict[str, int]:
    """Queries for loading the state, two orders and their resolution."""
    campaign, gm = world["campaign"], world["gm"]
    counts = {"load": count(lambda: load_state(campaign))}
    for n, army in enumerate(world["armies"]):
        state = load_state(campaign)
        mover = summer_orders.all_movers(state)[f"army:{army.pk}"]
        target = mk.legal_move_destinations(mover, state.map, state.options)[0]
        kingdom = state.kingdom_rows[army.kingdom_id]
        counts[f"order{n}"] = count(
            lambda: summer_orders.give_order(kingdom, gm, mover.key, mk.MOVE, target))
    phases.advance(campaign, gm)
    for n, army in enumerate(world["armies"]):
        state = load_state(campaign)
        order = summer_orders.unresolved(state)[army.kingdom_id][0]
        kingdom = state.kingdom_rows[army.kingdom_id]
        counts[f"resolve{n}"] = count(
            lambda: summer_orders.resolve(kingdom, gm, order.pk, dice=(4, 5), reroll=(1, 2)))
    return counts


def test_orders_and_resolution_cost_the_same_queries_on_a_larger_map() -> None:
    small, large = (play(build(f"q{w}x{h}", w, h)) for w, h in SIZES)
    assert small == large


def test_the_rules_see_the_same_tiles_around_a_token_as_on_the_whole_map() -> None:
    world = build("around", 12, 10)
    Tile.objects.filter(map__campaign=world["campaign"], label__in=["0303", "0404"]).update(
        terrain="marsh")
    state = load_state(world["campaign"])
    for mover in summer_orders.all_movers(state).values():
        around = state.map_around([mover.tile], 2)
        whole = load_state(world["campaign"]).map
        assert (mk.legal_move_destinations(mover, around, state.options)
                == mk.legal_move_destinations(mover, whole, state.options))
        for label in whole.tile(mover.tile).neighbours:
            assert around.tile(label) == whole.tile(label)


def phone_pages(world: dict[str, Any]) -> dict[str, int]:
    """Queries for the first player's play page and kingdom page, after one order."""
    campaign = world["campaign"]
    state = load_state(campaign)
    turn = phases.handler_for(campaign).turn(state)  # type: ignore[misc]
    mover = summer_orders.unordered(state)[turn][0]
    summer_orders.give_order(state.kingdom_rows[turn], world["gm"], mover.key, mk.DEFEND, None)
    client = Client()
    client.force_login(world["players"][0])
    kingdom = Kingdom.objects.get(player__user=world["players"][0])
    urls = {"play": reverse("campaign:play", args=[campaign.slug]),
            "kingdom": reverse("campaign:kingdom", args=[campaign.slug, kingdom.pk])}
    counts = {}
    for name, url in urls.items():
        assert client.get(url).status_code == 200
        counts[name] = count(lambda: client.get(url))
    return counts


def test_a_players_phone_pages_cost_the_same_queries_in_a_larger_campaign() -> None:
    small = phone_pages(build("phone-small", 12, 10))
    large = phone_pages(build("phone-large", 30, 24, kingdoms=14, per_kingdom=6))
    assert small == large


def test_a_players_play_page_counts_the_other_kingdoms_in_a_large_campaign() -> None:
    world = build("phone-count", 30, 24, kingdoms=14, per_kingdom=6)
    phone_pages(world)
    campaign = world["campaign"]
    client = Client()
    client.force_login(world["players"][0])
    page = client.get(reverse("campaign:play", args=[campaign.slug])).content.decode()
    assert "0 of 14 kingdoms have given all their orders." in page
    assert ", and 2 more; you are number 1 of 14" in page
    assert "Given so far:" not in page
    client.force_login(world["gm"])
    page = client.get(reverse("campaign:play", args=[campaign.slug])).content.decode()
    assert "Given so far: K0 1, K1 0," in page and "K13 0." in page


def phone_pages_through_the_year(world: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The last summer month and the winter played by ``autoplay``; at each phase (as it opens,
    halfway through orders, resolution and deployment, and on the player's first turn and
    another's in each step) the queries of the first player's play page and kingdom page."""
    import random

    from campaign.systems.mighty_kingdoms import autoplay

    campaign, gm = world["campaign"], world["gm"]
    # Villages around each capital feed the armies through the winter, and give them room.
    for kingdom in Kingdom.objects.filter(campaign=campaign).select_related("capital_tile"):
        home = kingdom.capital_tile
        Tile.objects.filter(map=home.map, q__range=(home.q - 1, home.q + 1),
                            r__range=(home.r - 1, home.r + 1)).exclude(pk=home.pk).update(
            controller=kingdom, explored=True, settlement="village")
    Campaign.objects.filter(pk=campaign.pk).update(month=6)
    campaign.refresh_from_db()
    client = Client()
    client.force_login(world["players"][0])
    kingdom = Kingdom.objects.get(player__user=world["players"][0])
    urls = [reverse("campaign:play", args=[campaign.slug]),
            reverse("campaign:kingdom", args=[campaign.slug, kingdom.pk])]
    seen: list[tuple[str, int, int]] = []

    def watch() -> None:
        campaign.refresh_from_db()
        for url in urls:
            assert client.get(url).status_code == 200
        seen.append((phases.label(campaign), *(count(lambda u=u: client.get(u)) for u in urls)))

    watch.mine = kingdom.pk  # type: ignore[attr-defined]  # its turns and others' are seen

    autoplay.play_summer_month(campaign, gm, random.Random(5), watch=watch)
    autoplay.play_winter(campaign, gm, watch=watch)
    # The kingdoms fed their armies and deployed them one by one (those at the map's edge
    # have fewer villages to feed them).
    kingdoms = Kingdom.objects.filter(campaign=campaign).count()
    assert Event.objects.filter(campaign=campaign, kind="winter.deploy").count() >= 5 * kingdoms
    return seen


def test_a_players_phone_pages_cost_the_same_queries_at_every_phase_in_a_larger_campaign(
        ) -> None:
    """Orders, resolution, battle, reform, and every winter step: the same queries with 14
    kingdoms of 6 armies as with 28, each phase at its worst (the page when the player is to
    act, and when not)."""
    def worst(seen: list[tuple[str, int, int]]) -> dict[str, tuple[int, int]]:
        by_phase: dict[str, tuple[int, int]] = {}
        for where, play, kingdom in seen:
            was = by_phase.get(where, (0, 0))
            by_phase[where] = (max(was[0], play), max(was[1], kingdom))
        return by_phase

    large = worst(phone_pages_through_the_year(build("year-14", 30, 24, kingdoms=14,
                                                     per_kingdom=6)))
    larger = worst(phone_pages_through_the_year(build("year-28", 42, 34, kingdoms=28,
                                                      per_kingdom=6)))
    assert len(large) == 10  # A) to D), then recall, gather, tithe, buy, feed, deploy
    assert large == larger
