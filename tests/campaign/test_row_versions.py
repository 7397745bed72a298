"""Rows read again only when they changed (campaign/row_versions.py): on PostgreSQL one query
gives the rows and the sum of their versions, or only the sum while it is the one held; any
write, insert or delete among the rows changes the sum, even twice in one transaction. Other
databases keep no row versions: their callers read as usual."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from campaign import row_versions
from campaign.models import Tile
from tests.campaign.conftest import World
from tests.conftest import MIGHTY_KINGDOMS

SQL = row_versions.statement("x.id, x.label, x.terrain", '"campaign_tile" x', "x.map_id = %s",
                             "t.label")


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_rows_come_again_only_after_one_of_them_was_written(world: World) -> None:
    if connection.vendor != "postgresql":
        assert row_versions.versioned() is False
        return
    assert row_versions.versioned() is True
    game_map = world.campaign.map
    expected = list(Tile.objects.filter(map=game_map).order_by("label")
                    .values_list("id", "label", "terrain"))
    rows, held = row_versions.rows_unless_held(SQL, [game_map.pk], None)
    assert rows == expected and held is not None and len(held) == 32
    assert row_versions.rows_unless_held(SQL, [game_map.pk], held) == (None, held)
    assert row_versions.rows_unless_held(SQL, [game_map.pk], "another sum")[0] == expected
    sums = {held}
    with transaction.atomic():
        for terrain in ("mountains", "hills"):  # written twice in one transaction
            Tile.objects.filter(map=game_map, label="0203").update(terrain=terrain)
            rows, now = row_versions.rows_unless_held(SQL, [game_map.pk], held)
            assert rows is not None and now not in sums
            assert ("0203", terrain) in [(label, kind) for _, label, kind in rows]
            sums.add(now)
            held = now
    Tile.objects.filter(map=game_map, label="0203").delete()
    rows, held = row_versions.rows_unless_held(SQL, [game_map.pk], held)
    assert rows is not None and len(rows) == len(expected) - 1 and held not in sums
    Tile.objects.filter(map=game_map).delete()
    assert row_versions.rows_unless_held(SQL, [game_map.pk], held) == ([], None)
    assert row_versions.rows_unless_held(SQL, [game_map.pk], None) == ([], None)
