"""A Grand Campaign read from the database as the pure rules see it, and its changes written
back: the lowest layer of the system's services.

``load`` reads the map's tiles, the kingdoms and their Kings, Titles and crate items in a fixed
number of queries and builds ``grand_campaign.CampaignState``: Territories are the land squares
(or the map types, SNS-GC-9), players are the kingdoms (their id the kingdom's primary key as a
string). ``write_changes`` and ``write_player`` put what the rules decided back on the tiles and
kingdoms through the event's ``Recorder``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeVar

from django.db import connection

from campaign import prepared, tile_versions
from campaign.bounded import keep
from campaign.chronicle import Recorder
from campaign.locking import lock_campaign
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.services import ServiceError
from campaign.systems.swords_and_stones.models import (
    CrateItem,
    Game,
    King,
    TerritoryRecord,
    TitleAward,
)
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt
from ledger.services import LedgerError, link_to_event

T = TypeVar("T")

WATER = "sea"
PLACEMENT = "placement"
CAMPAIGN = "campaign"


class SnsError(ServiceError):
    """A Grand Campaign action refused; nothing was written. The message says why."""


@dataclass(frozen=True)
class PointsLine:
    """One movement of one resource on the shared ledger: campaign points (SNS-PTS-2) or a
    Stockpile's resources during a game (SNS-ECON-2)."""

    resource: str
    amount: int
    rule_id: str
    source: str


def rules_check(fn: Callable[[], T]) -> T:
    """Call ``fn``; a rule's refusal (or the ledger's) becomes a service refusal, same words."""
    try:
        return fn()
    except SnsError:
        raise
    except (ValueError, LedgerError) as exc:  # the rules' RuleViolations are ValueErrors
        raise SnsError(str(exc)) from None


def options_of(campaign: Campaign) -> gc.Options:
    """The campaign's Grand Campaign options (SNS-GC-11); other stored options are the
    economy's and are not read here."""
    names = {spec.name for spec in gc.OPTIONS}
    return gc.Options.from_dict({k: v for k, v in (campaign.options or {}).items()
                                 if k in names})


def pid(kingdom: Kingdom) -> gc.PlayerId:
    """A kingdom as a player of the rules: by its name, so that the rules' messages read."""
    return kingdom.name


@dataclass
class SnsState:
    """One campaign's Grand Campaign as read: rows by key and the rules' state."""

    campaign: Campaign
    options: gc.Options
    # Whole rows when loaded with ``lock`` (``write_changes`` updates them), else the tiles'
    # ``TILE_COLUMNS`` as tuples.
    tiles: dict[str, list[Any]]
    kingdoms: dict[int, Kingdom]
    # Each kingdom's current King and its past Kings (oldest first) as read: their
    # ``_KING_FIELDS`` values, made into ``King`` rows only when asked for (``kings``,
    # ``past_kings``): a page asks mostly whether a kingdom has one (``has_king``).
    king_values: dict[int, tuple[Any, ...]]
    past_king_values: dict[int, list[tuple[Any, ...]]]
    state: gc.CampaignState
    terrain_labels: dict[str, str] = field(default_factory=dict)
    # Rows read once per request by several parts of a page (the open game, the last game).
    memo: dict[str, Any] = field(default_factory=dict)
    # Loaded ``held_only``: the map holds only the held Territories (``held_map``).
    partial: bool = False

    @property
    def map(self) -> gc.CampaignMap:
        return self.state.map

    @cached_property
    def kings(self) -> dict[int, King]:
        """Each kingdom's current King, by kingdom id."""
        alias = connection.alias
        return {pk: King.from_db(alias, _KING_FIELDS, values)
                for pk, values in self.king_values.items()}

    @cached_property
    def past_kings(self) -> dict[int, list[King]]:
        """Each kingdom's past Kings, oldest first, by kingdom id."""
        alias = connection.alias
        return {pk: [King.from_db(alias, _KING_FIELDS, values) for values in past]
                for pk, past in self.past_king_values.items()}

    def has_king(self, kingdom_id: int) -> bool:
        return kingdom_id in self.king_values

    def had_kings(self, kingdom_id: int) -> bool:
        return bool(self.past_king_values.get(kingdom_id))

    def kingdom(self, player: gc.PlayerId | None) -> Kingdom | None:
        """The kingdom a rules player id names (ids are kingdom names, unique per campaign)."""
        if player is None:
            return None
        return next((k for k in self.kingdoms.values() if k.name == player), None)

    def territory_name(self, territory: str) -> str:
        return self.state.map.name(territory)


# The columns of a tile the rules read, in this order: a read (``load`` without ``lock``) takes
# them as plain tuples, without the tile's JSON columns and without a model instance each (a
# 16x map has thousands of tiles); only a locked load, which writes, reads whole ``Tile`` rows.
TILE_COLUMNS = ("q", "r", "label", "terrain", "settlement", "controller_id")
_Q, _R, _LABEL, _TERRAIN, _SETTLEMENT, _CONTROLLER = range(len(TILE_COLUMNS))

# A tile as a tuple that starts with its ``TILE_COLUMNS`` (a read's rows carry more after them).
TileValues = tuple[Any, ...]


def tile_values(tile: Tile) -> TileValues:
    return (tile.q, tile.r, tile.label, tile.terrain, tile.settlement, tile.controller_id)


def territory_of(tile: Tile, options: gc.Options) -> str:
    return tile.label if options.territory_granularity == gc.BY_SQUARE else tile.terrain


def _holding(row: TileValues, names: Mapping[int, str]) -> gc.Holding:
    state = row[_SETTLEMENT] if row[_SETTLEMENT] in gc.STATES else gc.UNCLAIMED
    controller = row[_CONTROLLER]
    if state == gc.UNCLAIMED or controller not in names:
        return gc.FREE
    return gc.Holding(state, names[controller])


# Territories, borders and names of the maps read lately, keyed by everything they are worked
# out from (below): a pure function's results kept for the next request. Any change to the
# map's size, its land tiles' places, labels or map types, or the granularity option, makes a
# new key, so nothing stale is ever served; holdings, which every challenge changes, are not
# kept. At most _LAYOUTS_KEPT maps, the oldest forgotten first (campaign.bounded).
_LAYOUTS: dict[tuple[Any, ...], gc.CampaignMap] = {}
_LAYOUTS_KEPT = 16


def _layout(size: tuple[int, int], land: Sequence[TileValues], options: gc.Options,
            labels: Mapping[str, str]) -> gc.CampaignMap:
    """SNS-GC-9: the Territories of the land tiles (in map order), their borders and names,
    every one unclaimed."""
    key = (size, options.territory_granularity, tuple(sorted(labels.items())),
           tuple((t[_Q], t[_R], t[_LABEL], t[_TERRAIN]) for t in land))
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    cmap = gc.map_from_squares(size[0], size[1], {(t[_Q], t[_R]): t[_TERRAIN] for t in land},
                               options)
    if options.territory_granularity == gc.BY_SQUARE:
        names = {}
        for t in land:
            names.setdefault(t[_LABEL], f"{t[_LABEL]} {labels.get(t[_TERRAIN], t[_TERRAIN])}")
    else:
        names = {t[_TERRAIN]: labels.get(t[_TERRAIN], t[_TERRAIN]) for t in land}
    cmap = replace(cmap, names=names)
    return keep(_LAYOUTS, _LAYOUTS_KEPT, key, cmap)


# Whole maps read lately, holdings and each Territory's tiles included, keyed by everything
# they are built from: the rows as read (every column, so any change to a tile's place, label,
# map type, state or holder makes a new key), the kingdoms' names by primary key, the map
# types' names and the granularity option. A read that finds its key reuses the map, and with
# it the map's list of each holder's land (``CampaignMap._by_owner``). Kept only for reads
# (``load`` without ``lock``), whose tiles are immutable tuples; the maps of the held land alone
# (``held_map``) are kept here too, under keys of their own. At most _MAPS_KEPT maps, the oldest
# forgotten first (campaign.bounded).
_MAPS: dict[tuple[Any, ...], tuple[gc.CampaignMap, dict[str, list[Any]]]] = {}
_MAPS_KEPT = 16


def read_map(size: tuple[int, int], rows: Sequence[TileValues], options: gc.Options,
             labels: Mapping[str, str], names_by_pk: Mapping[int, str]
             ) -> tuple[gc.CampaignMap, dict[str, list[Any]]]:
    """``build_map`` for a read whose rows are tuples, reused while nothing it depends on has
    changed (``_MAPS``); the caller gets its own dict of each Territory's tiles."""
    key = (size, options.territory_granularity, tuple(labels.items()),
           tuple(names_by_pk.items()), tuple(rows))
    found = _MAPS.get(key)
    if found is None:
        found = build_map(size, rows, options, labels, names_by_pk)
        keep(_MAPS, _MAPS_KEPT, key, found)
    return found[0], dict(found[1])


def read_held_map(rows: Sequence[TileValues], labels: Mapping[str, str],
                  names_by_pk: Mapping[int, str]
                  ) -> tuple[gc.CampaignMap, dict[str, list[Any]]]:
    """``held_map``, reused while nothing it depends on has changed (kept with the whole maps
    in ``_MAPS``, under its own kind of key); the caller gets its own dict of each Territory's
    tiles."""
    key = ("held", tuple(labels.items()), tuple(names_by_pk.items()), tuple(rows))
    found = _MAPS.get(key)
    if found is None:
        found = held_map(rows, labels, names_by_pk)
        keep(_MAPS, _MAPS_KEPT, key, found)
    return found[0], dict(found[1])


def build_map(size: tuple[int, int], rows: Sequence[TileValues], options: gc.Options,
              labels: Mapping[str, str], names_by_pk: Mapping[int, str],
              tiles: Sequence[Tile] | None = None
              ) -> tuple[gc.CampaignMap, dict[str, list[Any]]]:
    """SNS-GC-9, SNS-GC-12: the Territories of the map's land tiles and their holdings, from
    the tiles' ``TILE_COLUMNS`` in map order; ``size`` is the map's width and height. Each
    Territory lists its tiles: ``tiles`` (the rows' ``Tile`` instances, same order) when given,
    else the rows."""
    by_square = options.territory_granularity == gc.BY_SQUARE
    key = _LABEL if by_square else _TERRAIN
    land = []
    by_territory: dict[str, list[Any]] = {}
    first: dict[str, TileValues] = {}
    for i, row in enumerate(rows):
        if row[_TERRAIN] == WATER:
            continue
        land.append(row)
        territory = row[key]
        if territory not in first:
            first[territory] = row
            by_territory[territory] = []
        by_territory[territory].append(tiles[i] if tiles is not None else row)
    cmap = _layout(size, land, options, labels)
    holdings = {tid: _holding(row, names_by_pk) for tid, row in first.items()}
    return replace(cmap, holdings=holdings), by_territory


def held_map(rows: Sequence[TileValues], labels: Mapping[str, str],
             names_by_pk: Mapping[int, str]) -> tuple[gc.CampaignMap, dict[str, list[Any]]]:
    """SNS-GC-9, SNS-GC-12, by square: a map of the held Territories alone, from their tiles'
    ``TILE_COLUMNS`` in map order, each named and held as on the whole map (``build_map``: by
    square a Territory is one tile, its label unique on the map), with no borders and no
    unclaimed land. It answers what a player holds (``owned_by``, ``holding_count``,
    ``supply_slots``) as the whole map does, and nothing else."""
    territories = []
    holdings: dict[str, gc.Holding] = {}
    names: dict[str, str] = {}
    by_territory: dict[str, list[Any]] = {}
    for row in rows:
        holding = _holding(row, names_by_pk)
        if holding.owner is None:
            continue
        label = row[_LABEL]
        territories.append(label)
        holdings[label] = holding
        names[label] = f"{label} {labels.get(row[_TERRAIN], row[_TERRAIN])}"
        by_territory[label] = [row]
    return gc.CampaignMap(tuple(territories), {}, holdings, names), by_territory


# The reads of ``load`` written out as SQL: Django takes longer to compile them (and to build a
# row for each of a 16x map's thousand tiles) than the database takes to answer them. The tiles
# come in no order and are put in map order here (``_in_map_order``): PostgreSQL walks the
# map's tiles by the map's index and then sorts them, which takes it longer than Python takes
# to sort the rows it got (0.5 ms of a 16x map's land).
_TILE = Tile._meta.db_table
_MAP = Map._meta.db_table
_TILE_SELECT = ", ".join(f't."{Tile._meta.get_field(c).column}"' for c in TILE_COLUMNS)
# The land tiles (the sea is no Territory, SNS-GC-9), each row ending with the map's width and
# height after the ``TILE_COLUMNS``.
_LAND_SQL = (f'SELECT {_TILE_SELECT}, m."width", m."height" FROM "{_TILE}" t '
             f'JOIN "{_MAP}" m ON m."id" = t."map_id" '
             f'WHERE m."campaign_id" = %s AND NOT (t."terrain" = %s)')
# The held land tiles, their ``TILE_COLUMNS``. Read through the map's tiles: a holder is asked
# for as a value the controller's index cannot answer, or PostgreSQL would walk that index over
# the held tiles of every campaign (three times as long at 16x).
_HELD_SQL = (f'SELECT {_TILE_SELECT} FROM "{_TILE}" t JOIN "{_MAP}" m ON m."id" = t."map_id" '
             f'WHERE m."campaign_id" = %s AND COALESCE(t."controller_id", 0) <> 0 '
             f'AND NOT (t."terrain" = %s)')
_KING = King._meta.db_table
_KING_FIELDS = ("id", "campaign_id", "kingdom_id", "name", "reign", "crowned_before",
                "died_in_id", "current")
_KING_ID, _KING_KINGDOM, _KING_NAME, _KING_REIGN, _KING_CURRENT = (
    _KING_FIELDS.index(name) for name in ("id", "kingdom_id", "name", "reign", "current"))
_KING_SELECT = ", ".join(f'k."{c}"' for c in _KING_FIELDS)
_TITLE = TitleAward._meta.db_table
_CRATE = CrateItem._meta.db_table
# Every King with the code of each Title he holds (a row per Title, or one row without).
_KINGS_SQL = (f'SELECT {_KING_SELECT}, a."code" FROM "{_KING}" k '
              f'LEFT OUTER JOIN "{_TITLE}" a ON a."king_id" = k."id" '
              f'WHERE k."campaign_id" = %s ORDER BY k."kingdom_id", k."reign", a."id"')
# The same with each crate item he holds: a row per Title and item.
_KINGS_ITEMS_SQL = (f'SELECT {_KING_SELECT}, a."code", i."id", i."name", i."kind", i."effect", '
                    f'i."game_id" FROM "{_KING}" k '
                    f'LEFT OUTER JOIN "{_TITLE}" a ON a."king_id" = k."id" '
                    f'LEFT OUTER JOIN "{_CRATE}" i ON i."king_id" = k."id" AND i."status" = %s '
                    f'WHERE k."campaign_id" = %s '
                    f'ORDER BY k."kingdom_id", k."reign", a."id", i."id"')


# On PostgreSQL the same reads come through the map's ``tiles_version``
# (campaign/tile_versions.py): while no tile of the campaign was written since this process
# read them last, the rows it kept (already in map order) are taken again without being sent.
# The land's rows are the same as ``_LAND_SQL``'s, the map's width and height read each time.
_TILE_X_SELECT = ", ".join(f'x."{Tile._meta.get_field(c).column}"' for c in TILE_COLUMNS)
_LAND_SINCE_SQL = tile_versions.statement(
    f'{_TILE_X_SELECT}, m."width", m."height"', 'm."campaign_id" = %s',
    tiles_where='NOT (x."terrain" = %s)', map_columns='m."width", m."height"')
_HELD_SINCE_SQL = tile_versions.statement(
    _TILE_X_SELECT, 'm."campaign_id" = %s',
    tiles_where='COALESCE(x."controller_id", 0) <> 0 AND NOT (x."terrain" = %s)')
# Each campaign's land and held land as last read here, with the token they were read at.
_LAND: dict[int, tuple[str, list[tuple[Any, ...]]]] = {}
_HELD: dict[int, tuple[str, list[tuple[Any, ...]]]] = {}
_ROWS_KEPT = 32


def _land(campaign_id: int) -> tuple[list[tuple[Any, ...]], tuple[int, int]]:
    """The campaign's land tiles in map order (``_LAND_SQL``'s rows) and the map's size."""
    if not tile_versions.versioned():
        rows = _in_map_order(_LAND_SQL, (campaign_id, WATER))
        return rows, ((rows[0][6], rows[0][7]) if rows else (0, 0))
    kept = _LAND.get(campaign_id)
    rows, version, size = tile_versions.tiles_and_map_unless_held(
        _LAND_SINCE_SQL, [campaign_id], kept[0] if kept is not None else None, [WATER], 2)
    if rows is None:
        rows = kept[1]  # type: ignore[index]
    else:
        rows.sort()
        if version is not None:
            keep(_LAND, _ROWS_KEPT, campaign_id, (version, rows))
    return rows, ((size[0], size[1]) if rows and size else (0, 0))


def _held_land(campaign_id: int) -> list[tuple[Any, ...]]:
    """The campaign's held land tiles in map order (``_HELD_SQL``'s rows)."""
    if not tile_versions.versioned():
        return _in_map_order(_HELD_SQL, (campaign_id, WATER))
    return tile_versions.kept_unless_written(_HELD, _ROWS_KEPT, campaign_id, _HELD_SINCE_SQL,
                                             [campaign_id], _sorted, [WATER])


def _sorted(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    rows.sort()
    return rows


def _fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with prepared.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _in_map_order(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The tile rows ``sql`` reads, in map order (``Tile.objects.order_by("q", "r")``): sorted
    as they are, since each row starts with its place, and no two tiles of the campaign's one
    map share a place."""
    rows = _fetch(sql, params)
    rows.sort()
    return rows


def load(campaign: Campaign, *, lock: bool = False, kings: bool = True, crates: bool = True,
         read_kingdoms: Sequence[Kingdom] | None = None, held_only: bool = False,
         read_tiles: Sequence[Tile] | None = None) -> SnsState:
    """The campaign as the rules see it; with ``lock`` the campaign row is locked first and
    then the kingdoms by id (the documented locking order). A read may pass the campaign's
    kingdoms its page has already read (any order), and one that looks only at the map
    and the kingdoms may skip the Kings, their Titles and crate items (``kings=False``: the
    players then have no King), or their crate items (``crates=False``: the Kings hold none);
    each saves queries. The Kings come with their Titles and held crate items in one query.

    A read that asks only what each player holds (the standings, a kingdom's page) may say
    ``held_only``: by square, the map is then only the held Territories (``held_map``, marked
    ``partial``), read from the held tiles, or from ``read_tiles`` when the page has read every
    tile the kingdoms of ``read_kingdoms`` hold; by map type the whole map is read as usual."""
    if lock:
        campaign = lock_campaign(campaign)
    options = options_of(campaign)
    held = held_only and not lock and options.territory_granularity == gc.BY_SQUARE
    tiles: list[Tile] | None = None
    rows: Sequence[TileValues]
    size = (0, 0)
    if held and read_tiles is not None:
        rows = sorted((tile_values(t) for t in read_tiles if t.terrain != WATER),
                      key=lambda row: (row[_Q], row[_R]))
    elif held:
        rows = _held_land(campaign.pk)
    elif lock:
        tiles = list(Tile.objects.filter(map__campaign=campaign).select_related("map")
                     .order_by("q", "r"))
        rows = [tile_values(t) for t in tiles]
        if tiles:
            campaign.map = tiles[0].map  # type: ignore[misc]
            size = (campaign.map.width, campaign.map.height)
    else:
        rows, size = _land(campaign.pk)
    # The kingdoms' query is built only when it is read: compiling it costs as much as a
    # page's own work when the page has already read the kingdoms.
    if lock:
        kingdom_rows = (Kingdom.objects.filter(campaign=campaign)
                        .select_for_update(no_key=True))
        kingdoms_by_pk = {k.pk: k for k in kingdom_rows.order_by("pk")}
        kingdoms = {k.pk: k for k in sorted(kingdoms_by_pk.values(),
                                           key=lambda k: (k.order_position is None,
                                                          k.order_position or 0, k.pk))}
    elif read_kingdoms is not None:
        kingdoms = {k.id: k for k in sorted(
            read_kingdoms, key=lambda k: (k.order_position is None, k.order_position or 0,
                                          k.id))}
    else:
        kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)
                    .order_by("order_position", "pk")}
    current: dict[int, tuple[Any, ...]] = {}
    past: dict[int, list[tuple[Any, ...]]] = {}
    titles: dict[int, set[str]] = {}
    items: dict[int, list[tt.CrateItem]] = {}
    held_items: dict[int, list[CrateItem]] = {}
    # Every King with the code of each Title he holds and, with ``crates``, each crate item he
    # holds, in one query (a row per Title and item, or one row with neither); only a current
    # King's Titles and items count.
    with_items = kings and crates
    if not kings:
        king_rows: list[tuple[Any, ...]] = []
    elif with_items:
        king_rows = _fetch(_KINGS_ITEMS_SQL, (CrateItem.Status.HELD.value, campaign.pk))
    else:
        king_rows = _fetch(_KINGS_SQL, (campaign.pk,))
    width = len(_KING_FIELDS)
    seen_items: set[int] = set()
    king: tuple[Any, ...] | None = None  # a King's ``_KING_FIELDS`` values
    for row in king_rows:
        if king is None or king[_KING_ID] != row[_KING_ID]:
            king = (*row[:width - 1], bool(row[width - 1]))
        king_id, kingdom_id = king[_KING_ID], king[_KING_KINGDOM]
        title_code = row[width]
        if king[_KING_CURRENT]:
            current.setdefault(kingdom_id, king)
            if title_code is not None:
                titles.setdefault(king_id, set()).add(title_code)
            item_pk, item_name, item_kind, item_effect, item_game = (
                row[width + 1:] if with_items else (None,) * 5)
            if with_items and item_pk is not None and item_pk not in seen_items:
                seen_items.add(item_pk)
                held_items.setdefault(kingdom_id, []).append(CrateItem(
                    id=item_pk, king_id=king_id, name=item_name, kind=item_kind,
                    effect=item_effect, status=CrateItem.Status.HELD, game_id=item_game))
                items.setdefault(king_id, []).append(tt.CrateItem(
                    item_name, item_kind if item_kind in tt.CRATE_ITEM_KINDS else tt.GENERAL,
                    item_effect))
        elif not past.get(kingdom_id) or past[kingdom_id][-1][_KING_ID] != king_id:
            past.setdefault(kingdom_id, []).append(king)
    labels = {t.slug: t.label for t in campaign.system.terrains}
    names_by_pk = {pk: k.name for pk, k in kingdoms.items()}
    if held:
        cmap, by_territory = read_held_map(rows, labels, names_by_pk)
    elif rows and tiles is None:
        cmap, by_territory = read_map(size, rows, options, labels, names_by_pk)
    elif rows:
        cmap, by_territory = build_map(size, rows, options, labels, names_by_pk, tiles)
    else:
        cmap, by_territory = gc.CampaignMap((), {}, {}), {}
    players = []
    for pk, k in kingdoms.items():
        king = current.get(pk)
        players.append(gc.Player(
            id=pid(k),
            name=k.name,
            kingdom_name=k.name,
            is_ai=bool(k.data.get("is_ai")),
            king=gc.King(king[_KING_NAME], king[_KING_REIGN],
                         frozenset(titles.get(king[_KING_ID], ())),
                         tuple(items.get(king[_KING_ID], ()))) if king else None,
            past_kings=tuple(x[_KING_NAME] for x in past.get(pk, [])),
            capital_fortified=bool(k.data.get("capital_fortified", True)),
            eliminated=bool(k.data.get("eliminated", False)),
        ))
    return SnsState(campaign, options, by_territory, kingdoms, current, past,
                    gc.CampaignState(cmap, tuple(players)), labels,
                    {"held_items": held_items} if kings and crates else {}, partial=held)


def write_changes(rec: Recorder, st: SnsState, changes: Iterable[gc.TerritoryChange],
                  game: Game | None = None) -> list[TerritoryRecord]:
    """Put Territory changes on the tiles (every tile of a map-type Territory) and keep each in
    the Territory's history. A Capital is a tile's settlement (drawn as the star), not the
    kingdom's ``capital_tile``, which would draw a second star with its own legend line."""
    records = []
    for change in changes:
        after_owner = st.kingdom(change.after.owner)
        before_owner = st.kingdom(change.before.owner)
        owner = after_owner.pk if after_owner is not None else None
        settlement = "" if change.after.state == gc.UNCLAIMED else change.after.state
        for tile in st.tiles[change.territory]:
            if tile.settlement != settlement or tile.controller_id != owner:
                rec.update(tile, settlement=settlement, controller_id=owner)
        records.append(rec.create(TerritoryRecord(
            campaign=st.campaign, territory=change.territory, game=game,
            before_state=change.before.state,
            before_owner_id=before_owner.pk if before_owner is not None else None,
            after_state=change.after.state, after_owner_id=owner, cause=change.cause,
            rule_id=change.rule_id,
        )))
    link_to_event(rec, records)
    st.state = st.state.with_map(st.state.map.with_holdings(
        {c.territory: c.after for c in changes}))
    return records


def write_player(rec: Recorder, st: SnsState, player: gc.Player) -> None:
    """Keep a player's Capital flag (SNS-CAP-3) and departure (SNS-CAP-4) on its kingdom."""
    kingdom = st.kingdom(player.id)
    assert kingdom is not None
    data: dict[str, Any] = dict(kingdom.data)
    wanted = {"capital_fortified": player.capital_fortified, "eliminated": player.eliminated}
    if any(bool(data.get(k, default)) != v for (k, v), default
           in zip(wanted.items(), (True, False), strict=True)):
        data.update(wanted)
        rec.update(kingdom, data=data)
    st.state = st.state.with_player(player)


def games(campaign: Campaign) -> list[Game]:
    return list(Game.objects.filter(campaign=campaign).order_by("number"))


def pending_game(campaign: Campaign) -> Game | None:
    return (Game.objects.filter(campaign=campaign, status=Game.Status.SETUP)
            .order_by("-number").first())
