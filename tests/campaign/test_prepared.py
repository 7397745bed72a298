"""The cursor of the reads every page makes (campaign/prepared.py): on PostgreSQL its statements
are prepared on the connection and answer as Django's cursor does, each query counted and
logged with its values written in; ``prepare_threshold`` off sends them unprepared; on SQLite
it is Django's own cursor."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import prepared
from campaign.kept_sql import kept_values
from campaign.models import Tile
from tests.campaign.conftest import World
from tests.conftest import MIGHTY_KINGDOMS

SQL = 'SELECT "label", "terrain" FROM "campaign_tile" WHERE "map_id" = %s ORDER BY "label"'


def _prepared() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return {row[0] for row in cursor.fetchall()}


def _read(map_id: int, sql: str = SQL) -> tuple[list[tuple[str, str]], list[str]]:
    with CaptureQueriesContext(connection) as queries:
        with prepared.cursor() as cursor:
            cursor.execute(sql, [map_id])
            rows = cursor.fetchall()
    return rows, [q["sql"] for q in queries.captured_queries]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_read_answers_as_djangos_cursor_and_is_logged_with_its_values(world: World) -> None:
    game_map = world.campaign.map
    expected = list(Tile.objects.filter(map=game_map).order_by("label")
                    .values_list("label", "terrain"))
    for _ in range(3):
        rows, logged = _read(game_map.pk)
        assert [tuple(row) for row in rows] == expected and len(expected) > 10
        assert logged == [SQL.replace("%s", str(game_map.pk))]
    if connection.vendor != "postgresql":
        assert prepared.cursor().cursor.__class__ is connection.cursor().cursor.__class__
        return
    # Prepared the first time (DB_PREPARE_THRESHOLD's default 0), then only run again.
    assert settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"] == 0
    assert SQL.replace("%s", "$1") in _prepared()


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_pages_reads_are_prepared_and_a_changed_row_shows_at_once(world: World) -> None:
    """The kept statements of a page (kept_sql) go through the cursor: a second view asks the
    prepared statements, and a tile written between two reads is read as written."""
    game_map = world.campaign.map
    client = world.client("player")
    assert client.get(reverse("campaign:play", args=[world.campaign.slug])).status_code == 200

    def terrains() -> dict[str, str]:
        return dict(kept_values(("test-prepared", "terrains"),
                                lambda map_id: Tile.objects.filter(map_id=map_id)
                                .values_list("label", "terrain"), game_map.pk))

    before = terrains()
    Tile.objects.filter(map=game_map, label="0203").update(terrain="swamp")
    after = terrains()
    assert after["0203"] == "swamp" and {**before, "0203": "swamp"} == after
    if connection.vendor == "postgresql":
        statements = _prepared()
        assert any('"campaign_tile"."label"' in s and "$1" in s for s in statements)
        assert len(statements) >= 3  # the page's own reads too


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_off_sends_every_statement_unprepared(world: World) -> None:
    if connection.vendor != "postgresql":
        return
    connection.ensure_connection()
    raw = connection.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = None  # what DB_PREPARE_THRESHOLD=off gives
    unprepared = SQL.replace("SELECT", "SELECT /* off */", 1)
    try:
        for _ in range(3):
            rows, _logged = _read(world.campaign.map.pk, unprepared)
            assert rows
        assert "/* off */" not in " ".join(_prepared())
    finally:
        raw.prepare_threshold = threshold
