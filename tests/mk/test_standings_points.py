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
