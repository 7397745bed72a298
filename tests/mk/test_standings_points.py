"""MK-SETUP-6, MK-AMB-20: the army points the standings count, read in one query: a Kings of War
army with a fixed list counts its units still alive, any other army its roster points, and an
army off the map counts nothing."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.models import Army, ArmyList, Unit
from campaign.models import Kingdom, Tile
from campaign.systems.mighty_kingdoms.standings import army_points
from tests.conftest import make_campaign


def _units(army: Army, fixed: bool, points: list[tuple[int, str]]) -> None:
    army_list = ArmyList.objects.create(army=army, fixed_at=timezone.now() if fixed else None)
    for position, (value, reason) in enumerate(points, start=1):
        Unit.objects.create(army_list=army_list, position=position, name=f"Unit {position}",
                            unit_type="Infantry", points=value, destroyed_reason=reason)


def test_mk_setup_6_army_points_count_living_units_of_fixed_lists_in_one_query(gm: Any) -> None:
    campaign = make_campaign(gm)
    red = Kingdom.objects.create(campaign=campaign, name="Red")
    blue = Kingdom.objects.create(campaign=campaign, name="Blue")
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label")[:4])
    fixed = Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=tiles[0],
                                points=500)
    _units(fixed, True, [(120, ""), (90, "battle"), (200, "")])
    open_list = Army.objects.create(campaign=campaign, kingdom=red, number=2, tile=tiles[1],
                                    points=450)
    _units(open_list, False, [(300, "")])
    all_lost = Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=tiles[2],
                                   points=380)
    _units(all_lost, True, [(150, "battle")])
    Army.objects.create(campaign=campaign, kingdom=blue, number=2, tile=tiles[3], points=500)
    Army.objects.create(campaign=campaign, kingdom=blue, number=3, tile=None, points=500)
    with CaptureQueriesContext(connection) as queries:
        points = army_points(campaign)
    assert len(queries) == 1
    # A fixed list with every unit lost counts its roster points, as before the list was read.
    assert points == {red.pk: [320, 450], blue.pk: [380, 500]}


def test_mk_amb_20_the_standings_count_every_kingdom_in_two_queries(gm: Any) -> None:
    """The tallies (MK-AMB-20) read in two queries: each kingdom in the player order, its own
    capital while it holds it as a city (MK-AMB-8/36) and its armies' points by number
    (MK-SETUP-6) in one, its tiles by settlement in the other (``tile_versions.holdings``, which
    a page that counted them already passes on), a kingdom with nothing counted as nothing."""
    from campaign import tile_versions
    from campaign.systems.mighty_kingdoms.rules import campaign as mk
    from campaign.systems.mighty_kingdoms.standings import tallies

    campaign = make_campaign(gm)
    red = Kingdom.objects.create(campaign=campaign, name="Red", order_position=2)
    blue = Kingdom.objects.create(campaign=campaign, name="Blue", order_position=1)
    grey = Kingdom.objects.create(campaign=campaign, name="Grey")
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("label")[:6])
    for tile, owner, settlement in ((tiles[0], red, "city"), (tiles[1], red, "village"),
                                    (tiles[2], red, ""), (tiles[3], blue, "fortress"),
                                    (tiles[4], blue, "city")):
        Tile.objects.filter(pk=tile.pk).update(controller=owner, settlement=settlement)
    Kingdom.objects.filter(pk=red.pk).update(capital_tile=tiles[0])
    Kingdom.objects.filter(pk=blue.pk).update(capital_tile=tiles[0])  # held by Red
    fixed = Army.objects.create(campaign=campaign, kingdom=red, number=2, tile=tiles[0],
                                points=500)
    _units(fixed, True, [(120, ""), (90, "battle")])
    Army.objects.create(campaign=campaign, kingdom=red, number=1, tile=tiles[1], points=300)
    Army.objects.create(campaign=campaign, kingdom=blue, number=1, tile=None, points=900)
    with CaptureQueriesContext(connection) as queries:
        found = tallies(campaign)
    assert len(queries) == 2
    held = tile_versions.holdings(campaign.pk)
    with CaptureQueriesContext(connection) as queries:
        assert tallies(campaign, held) == found
    assert len(queries) == 1
    assert found == [
        mk.KingdomTally(blue.pk, "Blue", tiles=2, villages=0, cities=1, fortresses=1,
                        own_capital=False, army_points=()),
        mk.KingdomTally(red.pk, "Red", tiles=3, villages=1, cities=1, fortresses=0,
                        own_capital=True, army_points=(300, 120)),
        mk.KingdomTally(grey.pk, "Grey", tiles=0, villages=0, cities=0, fortresses=0,
                        own_capital=False, army_points=()),
    ]
