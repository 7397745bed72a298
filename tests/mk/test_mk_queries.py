"""Mighty Kingdoms actions cost the same as the map grows (MK-ORD-5, MK-RES-3).

Giving an order and resolving it read only the token's tile and the tiles around it, so a
10x10 map and a 60x50 map cost the same number of queries; and what the rules see around the
token is what they would see on the whole map.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Army
from campaign.models import Campaign, Kingdom, Role, Tile
from campaign.rules import mighty_kingdoms as mk
from campaign.systems.mighty_kingdoms import phases, summer_orders
from campaign.systems.mighty_kingdoms.state import load_state
from tests.conftest import add_member, make_campaign, make_user

pytestmark = pytest.mark.django_db

SIZES = [(10, 10), (60, 50)]


def build(slug: str, width: int, height: int) -> dict[str, Any]:
    """Two kingdoms with an army each on explored land, at summer month 1, A) Orders."""
    gm = make_user(f"{slug}-gm")
    campaign = make_campaign(gm, slug=slug, width=width, height=height, seed=3)
    Tile.objects.filter(map__campaign=campaign).update(terrain="plain", edges={}, features=[])
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label"))
    armies = []
    for n, tile in enumerate((tiles[width + 2], tiles[len(tiles) - width - 3])):
        user = make_user(f"{slug}-p{n}")
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"K{n}", colour="#123456",
                                         player=add_member(campaign, user, Role.PLAYER),
                                         order_position=n + 1, start_tile=tile,
                                         capital_tile=tile)
        Tile.objects.filter(pk=tile.pk).update(controller=kingdom, explored=True,
                                               settlement="city")
        armies.append(Army.objects.create(campaign=campaign, kingdom=kingdom, number=1,
                                          tile=tile))
    Campaign.objects.filter(pk=campaign.pk).update(season=mk.SUMMER, month=1, phase="A",
                                                   state={"races_revealed": True})
    campaign.refresh_from_db()
    return {"campaign": campaign, "gm": gm, "armies": armies}


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
