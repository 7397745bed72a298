"""A map's tiles read again only when one of them was written (PostgreSQL).

Each map row carries ``tiles_version``, a random token that the database itself replaces
whenever a tile of that map is added, changed or removed: statement-level triggers on the
tile table (migration ``0009_map_tiles_version``), so a write of any kind (a service, an undo,
the admin, a raw ``UPDATE``) changes it in the same transaction, and nothing written by
Django ever sets it (the column is not a model field: ``save`` of a map read earlier cannot
put an old token back). A token is never used twice, even after a database is restored.

``tiles_unless_held`` reads a map's tiles in one statement that looks at the token first and
returns the tiles only when it is not the one the caller holds (the token it was given with
tiles read earlier, and kept with what it made of them); otherwise one row of nothing but the
token. Seeing the token costs one row of the map table however large the map, where summing
up the tiles' own row versions (as this did before) read every tile: 2.4 ms for the 6,144
tiles of a 16x map. Other databases have no such triggers here: the callers read their tiles
as usual there (``versioned`` says which).

``kept_unless_written`` keeps what a caller makes of such a read under the token, made again
only after a tile was written; ``holdings`` is one: the tiles each kingdom holds by settlement,
which the overview and a rule system's standings count.

Writing a tile therefore also writes its map's row, after the tile's own lock: see
docs/architecture.md, "Locking order".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Count

from campaign import prepared
from campaign.bounded import keep

T = TypeVar("T")


def versioned() -> bool:
    """Whether the database keeps the maps' ``tiles_version`` (``tiles_unless_held``)."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


def statement(columns: str, map_where: str, order: str = "", tiles_where: str = "",
              map_columns: str = "", group: str = "") -> str:
    """The SQL of ``tiles_unless_held``: ``columns`` of the tiles (named ``x``) of the map
    (named ``m``) that matches ``map_where``, those matching ``tiles_where`` alone when given,
    grouped by ``group`` when given, in ``order`` when given (in the result's terms:
    ``t.label`` for the column ``x.label``), each row ending with the map's ``map_columns``
    (when given) and its token. ``OFFSET 0`` keeps the tiles' part a subquery of its own, so
    that the token's test is made once, before any tile is read (a one-time filter), instead
    of being folded into a join that looks at every tile."""
    tiles = f"AND ({tiles_where}) " if tiles_where else ""
    map_part = f"{map_columns}, " if map_columns else ""
    grouped = f"GROUP BY {group} " if group else ""
    return (
        f'SELECT t.*, {map_part}m.tiles_version FROM "campaign_map" m LEFT JOIN LATERAL '
        f'(SELECT {columns} FROM "campaign_tile" x WHERE x.map_id = m.id {tiles}'
        f"AND m.tiles_version IS DISTINCT FROM %s {grouped}OFFSET 0) t ON true "
        f"WHERE {map_where}" + (f" ORDER BY {order}" if order else ""))


def tiles_unless_held(sql: str, values: Sequence[Any], held: str | None,
                      tile_values: Sequence[Any] = ()
                      ) -> tuple[list[tuple[Any, ...]] | None, str | None]:
    """Run ``sql`` (made by ``statement`` without ``map_columns``; ``tile_values`` fill its
    ``tiles_where``, ``values`` its ``map_where``): the tiles and the map's token, or None and
    the token when it is ``held`` (no tile written since). No map gives no tiles and no token;
    a map without tiles, no tiles and its token."""
    rows, version, _ = tiles_and_map_unless_held(sql, values, held, tile_values, 0)
    return rows, version


def tiles_and_map_unless_held(sql: str, values: Sequence[Any], held: str | None,
                              tile_values: Sequence[Any] = (), map_columns: int = 0
                              ) -> tuple[list[tuple[Any, ...]] | None, str | None,
                                         tuple[Any, ...] | None]:
    """``tiles_unless_held`` for a statement with ``map_columns`` columns of the map, whose
    values come third (read every time: None when there is no map)."""
    with prepared.cursor() as cursor:
        cursor.execute(sql, [*tile_values, held, *values])
        found = cursor.fetchall()
    if not found:
        return [], None, None
    first = found[0]
    version, tail = first[-1], -1 - map_columns
    map_values = tuple(first[tail:-1])
    if first[0] is None:  # the token held, or no tiles at all
        return (None if held is not None and version == held else []), version, map_values
    return [row[:tail] for row in found], version, map_values


# What the kingdoms of each campaign hold, as last counted here, with the token counted at.
_HOLDINGS_SQL = statement(
    "x.controller_id, x.settlement, count(*)", "m.campaign_id = %s",
    # A holder asked for as a value the controller's index cannot answer: PostgreSQL would
    # otherwise walk that index over the held tiles of every campaign.
    tiles_where="COALESCE(x.controller_id, 0) <> 0", group="x.controller_id, x.settlement")
_HOLDINGS: dict[int, tuple[str, dict[int, dict[str, int]]]] = {}
_HOLDINGS_KEPT = 64


def holdings(campaign_id: int) -> dict[int, dict[str, int]]:
    """How many tiles each kingdom of the campaign holds, by settlement ("" for none), in one
    query that counts them only when a tile was written since this process counted them last
    (PostgreSQL; elsewhere counted every time). Never changed once made: callers read it."""
    from campaign.models import Tile

    if not versioned():
        return _counted(list(Tile.objects.filter(controller__campaign_id=campaign_id)
                             .order_by().values_list("controller_id", "settlement")
                             .annotate(n=Count("pk"))))
    return kept_unless_written(_HOLDINGS, _HOLDINGS_KEPT, campaign_id, _HOLDINGS_SQL,
                               [campaign_id], _counted)


def _counted(rows: list[tuple[Any, ...]]) -> dict[int, dict[str, int]]:
    counted: dict[int, dict[str, int]] = {}
    for kingdom, settlement, n in rows:
        counted.setdefault(kingdom, {})[settlement] = n
    return counted


def kept_unless_written(store: dict[Any, tuple[str, T]], limit: int, key: Hashable, sql: str,
                        values: Sequence[Any], make: Callable[[list[tuple[Any, ...]]], T],
                        tile_values: Sequence[Any] = ()) -> T:
    """What ``make`` makes of the tiles ``sql`` reads (``statement``, without ``map_columns``;
    ``values`` and ``tile_values`` as for ``tiles_unless_held``), kept in ``store`` under
    ``key`` with the map's token (at most ``limit`` keys, the oldest forgotten first): while no
    tile was written since, the kept result, and the query sends no tile. Callers only read
    the result (it is shared). PostgreSQL only (``versioned``)."""
    kept = store.get(key)
    rows, version = tiles_unless_held(sql, values, kept[0] if kept is not None else None,
                                      tile_values)
    if rows is None:
        return kept[1]  # type: ignore[index]
    made = make(rows)
    if version is not None:
        keep(store, limit, key, (version, made))
    return made
