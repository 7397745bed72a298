"""A map's tiles read again only when one was written (campaign/tile_versions.py): on PostgreSQL
the database replaces the map's ``tiles_version`` at every write of any of its tiles (insert,
update, delete; through the ORM or raw SQL; twice in one transaction), one query gives the
tiles and the token or only the token while it is the one held, and nothing Django saves puts
an old token back. Other databases keep no token: their callers read as usual."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from campaign import tile_versions
from campaign.models import Map, Tile
from tests.campaign.conftest import World
from tests.conftest import MIGHTY_KINGDOMS

SQL = tile_versions.statement("x.id, x.label, x.terrain", "m.id = %s", "t.label")


def _token(game_map: Map) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tiles_version FROM campaign_map WHERE id = %s", [game_map.pk])
        return cursor.fetchone()[0]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_tiles_come_again_only_after_one_of_them_was_written(world: World) -> None:
    if connection.vendor != "postgresql":
        assert tile_versions.versioned() is False
        return
    assert tile_versions.versioned() is True
    game_map = world.campaign.map
    expected = list(Tile.objects.filter(map=game_map).order_by("label")
                    .values_list("id", "label", "terrain"))
    rows, held = tile_versions.tiles_unless_held(SQL, [game_map.pk], None)
    assert rows == expected and held == _token(game_map) and len(held) == 36
    assert tile_versions.tiles_unless_held(SQL, [game_map.pk], held) == (None, held)
    assert tile_versions.tiles_unless_held(SQL, [game_map.pk], "another token")[0] == expected
    tokens = {held}
    with transaction.atomic():
        for terrain in ("mountains", "hills"):  # written twice in one transaction
            Tile.objects.filter(map=game_map, label="0203").update(terrain=terrain)
            rows, now = tile_versions.tiles_unless_held(SQL, [game_map.pk], held)
            assert rows is not None and now not in tokens
            assert ("0203", terrain) in [(label, kind) for _, label, kind in rows]
            tokens.add(now)
            held = now
    with connection.cursor() as cursor:  # a write Django does not see
        cursor.execute("UPDATE campaign_tile SET name = 'Ford' WHERE map_id = %s AND label = %s",
                       [game_map.pk, "0204"])
    rows, held = tile_versions.tiles_unless_held(SQL, [game_map.pk], held)
    assert rows is not None and held not in tokens
    tokens.add(held)
    Tile.objects.filter(map=game_map, label="0203").delete()
    rows, held = tile_versions.tiles_unless_held(SQL, [game_map.pk], held)
    assert rows is not None and len(rows) == len(expected) - 1 and held not in tokens
    tokens.add(held)
    Tile.objects.create(map=game_map, q=40, r=40, label="4040", terrain="plains")
    rows, held = tile_versions.tiles_unless_held(SQL, [game_map.pk], held)
    assert rows is not None and len(rows) == len(expected) and held not in tokens
    tokens.add(held)
    Tile.objects.filter(map=game_map).delete()
    rows, now = tile_versions.tiles_unless_held(SQL, [game_map.pk], held)
    assert rows == [] and now not in tokens
    assert tile_versions.tiles_unless_held(SQL, [game_map.pk], now) == (None, now)
    assert tile_versions.tiles_unless_held(SQL, [0], None) == ([], None)  # no such map


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_map_saved_after_its_tiles_were_written_keeps_the_new_token(world: World) -> None:
    """A map row read before its tiles changed and saved after (as the map generator does
    inside one event) does not put the old token back: Django does not know the column."""
    if connection.vendor != "postgresql":
        return
    game_map = Map.objects.get(pk=world.campaign.map.pk)
    before = _token(game_map)
    with transaction.atomic():
        Tile.objects.filter(map=game_map, label="0203").update(terrain="hills")
        written = _token(game_map)
        game_map.seed = 7
        game_map.save()
    assert written != before and _token(game_map) == written
    assert "tiles_version" not in {f.attname for f in Map._meta.concrete_fields}


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_each_map_has_a_token_of_its_own_and_a_write_changes_its_own_only(world: World) -> None:
    if connection.vendor != "postgresql":
        return
    here, elsewhere = world.campaign.map, world.elsewhere.map
    assert _token(here) != _token(elsewhere)
    kept = _token(elsewhere)
    before = _token(here)
    Tile.objects.filter(map=here).update(explored=True)
    assert _token(here) != before and _token(elsewhere) == kept


def _counted(campaign_id: int) -> dict[int, dict[str, int]]:
    counted: dict[int, dict[str, int]] = {}
    for tile in Tile.objects.filter(map__campaign_id=campaign_id, controller__isnull=False):
        by = counted.setdefault(tile.controller_id, {})
        by[tile.settlement] = by.get(tile.settlement, 0) + 1
    return counted


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_holdings_count_each_kingdoms_tiles_again_only_after_a_tile_was_written(
        world: World) -> None:
    campaign = world.campaign
    tiles = list(Tile.objects.filter(map__campaign=campaign).order_by("pk")[:3])
    Tile.objects.filter(pk__in=[t.pk for t in tiles]).update(controller=world.red,
                                                             settlement="")
    first = tile_versions.holdings(campaign.pk)
    assert first == _counted(campaign.pk) and first[world.red.pk][""] >= 3
    with CaptureQueriesContext(connection) as queries:
        again = tile_versions.holdings(campaign.pk)
    assert again == first and len(queries) == 1
    if connection.vendor == "postgresql":
        assert again is first  # the token held: nothing counted again
    Tile.objects.filter(pk=tiles[0].pk).update(settlement="city")
    Tile.objects.filter(pk=tiles[1].pk).update(controller=world.blue)
    now = tile_versions.holdings(campaign.pk)
    assert now == _counted(campaign.pk) and now != first
    assert now[world.red.pk]["city"] >= 1 and now[world.blue.pk][""] >= 1
    assert tile_versions.holdings(world.elsewhere.pk) == _counted(world.elsewhere.pk)
    assert tile_versions.holdings(0) == {}
