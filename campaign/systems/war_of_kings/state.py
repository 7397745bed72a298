"""The board as the rules see it, read from the shared tables and written back.

:func:`load` reads a campaign in a fixed number of queries (campaign, kingdoms, tiles, armies,
balances) into the rules' :class:`GameState`: a territory is a ``Tile`` (emblem colour as its
terrain; primary and secondary resource, culture, fortification and the rounds things changed in
``data``), a road is the ``road`` feature on the border (either side), control is the tile's
controller or ``data["malador"]``, a culture is the seat number of its kingdom (or
``"malador"``), the stockpile is the ledger's balances. Kingdoms appear in the rules under their
names, so the rules' refusals read naturally.

:func:`apply` writes a new state back through the event's ``Recorder``: changed tiles, roads on
both sides of a border, armies, and the stockpile differences as ledger entries citing the rule
of the action. So every action is "load, call a pure rule, apply", and undo restores it exactly.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS
from django.db.models import TextField
from django.db.models.functions import Cast

from campaign import tile_versions
from campaign.chronicle import Recorder
from campaign.kept_sql import kept_rows, kept_values
from campaign.locking import lock_campaign, lock_kingdoms
from campaign.models import Campaign, Kingdom, Tile
from campaign.services import ServiceError
from campaign.systems.war_of_kings.models import Army
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import economy
from campaign.systems.war_of_kings.rules.achievements import Holders, strict_losses
from campaign.systems.war_of_kings.rules.options import Options, options_from
from ledger.models import Balance
from ledger.services import post

SETUP = "setup"
GAME_OVER = "game_over"
ROAD = "road"
STOCK_FIELDS = (wb.GOLD, *wb.RESOURCES)
SETTLEMENT_LEVEL = {"": 0, "village": wb.VILLAGE, "town": wb.TOWN, "city": wb.CITY}
LEVEL_SETTLEMENT = {v: k for k, v in SETTLEMENT_LEVEL.items()}
TERRAIN_KIND = {"peak": wb.WINTER_CENTER, "mountains": wb.IMPASSABLE}
_TILE_FIELDS = ("id", "label", "name", "terrain", "settlement", "controller_id", "adjacent",
                "edges", "data", "explored", "q", "r")


@dataclass(frozen=True)
class LedgerLine:
    """One ledger movement (``ledger.services.Line``)."""

    resource: str
    amount: int
    rule_id: str
    source: str


@dataclass
class Loaded:
    """A campaign read for the rules: the state and the rows behind it."""

    campaign: Campaign
    state: wb.GameState
    options: Options
    holders: Holders
    kingdoms: Mapping[int, Kingdom]
    tiles: dict[str, Tile]
    armies: dict[str, Army]
    by_name: Mapping[str, Kingdom] = field(default_factory=dict)
    #: The same board without armies, stockpiles, round or phase, shared by every read of the
    #: same tiles and kingdoms: what depends on the board alone is worked out on it once.
    public: wb.GameState | None = None
    #: What pages make of ``public`` (see :meth:`kept`), kept with it.
    figures: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    #: Each kingdom's name by id, in the order of ``kingdoms`` (read without making any
    #: kingdom a model instance).
    names: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.public is None:
            self.public = self.state
        if not self.names:
            self.names = {pk: k.name for pk, k in self.kingdoms.items()}

    def kept(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """``make()``, kept with the board under ``key``: a read of the same tile rows and
        kingdoms takes it from there. ``make`` must read only ``public`` and what ``key``
        names, and give what nobody changes (no model instance: they belong to one read)."""
        found = self.figures.get(key)
        if found is None:
            found = make()
            if len(self.figures) >= _FIGURES_KEPT:
                self.figures.clear()
            self.figures[key] = found
        return found

    def kingdom(self, name: str | None) -> Kingdom | None:
        return self.by_name.get(name) if name else None

    def name(self, kingdom: Kingdom | int) -> str:
        pk = kingdom if isinstance(kingdom, int) else kingdom.pk
        return self.kingdoms[pk].name

    @property
    def started(self) -> bool:
        return self.campaign.phase not in ("", SETUP)

    @property
    def over(self) -> bool:
        return self.campaign.phase == GAME_OVER

    def territory_name(self, code: str) -> str:
        tile = self.tiles.get(code)
        return tile.name or code if tile is not None else code


def holders_from(data: Mapping[str, Any], kingdoms: Mapping[int, Any]) -> Holders:
    """The holders of the exclusive cards as ``data`` stores them (by kingdom id), by name;
    ``kingdoms`` gives each kingdom (or its name) by id."""
    def name(pk: Any) -> str | None:
        if not isinstance(pk, int) or pk not in kingdoms:
            return None
        found = kingdoms[pk]
        return found if isinstance(found, str) else found.name

    return Holders(name(data.get("master_merchant")), name(data.get("warlord")))


def holders_json(holders: Holders, by_name: Mapping[str, Kingdom]) -> dict[str, int | None]:
    def pk(name: str | None) -> int | None:
        return by_name[name].pk if name in by_name else None

    return {"master_merchant": pk(holders.master_merchant), "warlord": pk(holders.warlord)}


def _culture_name(raw: Any, seats: Mapping[int, Kingdom]) -> str | None:
    """A settlement's culture is stored as its kingdom's seat number (fixed at setup, carried by
    campaign files as they are) or ``"malador"``."""
    if raw == "malador":
        return wb.MALADOR
    if isinstance(raw, int) and raw in seats:
        return seats[raw].name
    return None


def _territory(tile: Tile) -> wb.TerritoryDef:
    kind = TERRAIN_KIND.get(tile.terrain, wb.NORMAL)
    if kind != wb.NORMAL:
        return wb.TerritoryDef(tile.label, kind=kind, name=tile.name)
    data = tile.data or {}
    primary = data.get("primary") if data.get("primary") in wb.RESOURCES else None
    secondary = data.get("secondary") if data.get("secondary") in wb.RESOURCES else None
    color = tile.terrain if tile.terrain in wb.COLOURS else None
    return wb.TerritoryDef(tile.label, color, primary, secondary, wb.NORMAL, tile.name)


def _holding(tile: Tile, kingdoms: Mapping[int, Kingdom],
             seats: Mapping[int, Kingdom]) -> wb.Holding:
    data = tile.data or {}
    controller = None
    if tile.controller_id in kingdoms:
        controller = kingdoms[tile.controller_id].name
    elif data.get("malador"):
        controller = wb.MALADOR
    level = SETTLEMENT_LEVEL.get(tile.settlement, 0)
    culture = _culture_name(data.get("culture"), seats) if level else None
    if level and culture is None:
        culture = controller or wb.MALADOR
    return wb.Holding(controller, level, culture, int(data.get("fort", 0) or 0),
                      data.get("settlement_round"), data.get("fort_round"),
                      data.get("raised_round"), int(data.get("raised", 0) or 0))


def _holdings(tile_rows: Sequence[Any], kingdoms: Mapping[int, Kingdom],
              seats: Mapping[int, Kingdom]) -> dict[str, wb.Holding]:
    """Every tile's holding by label, as :func:`_holding` reads it. Holdings are immutable and
    compared by value, so tiles that hold the same (most hold nothing) share one; a tile with
    no controller, settlement or data is the empty holding at once."""
    names = {pk: k.name for pk, k in kingdoms.items()}
    made: dict[tuple[Any, ...], wb.Holding] = {}
    empty = wb.EMPTY_HOLDING
    found = {}
    for tile in tile_rows:
        data = tile.data
        controller_id = tile.controller_id
        if not data and not tile.settlement and controller_id not in names:
            found[tile.label] = empty
            continue
        data = data or {}
        if controller_id in names:
            controller = names[controller_id]
        elif data.get("malador"):
            controller = wb.MALADOR
        else:
            controller = None
        level = SETTLEMENT_LEVEL.get(tile.settlement, 0)
        culture = _culture_name(data.get("culture"), seats) if level else None
        if level and culture is None:
            culture = controller or wb.MALADOR
        values = (controller, level, culture, int(data.get("fort", 0) or 0),
                  data.get("settlement_round"), data.get("fort_round"),
                  data.get("raised_round"), int(data.get("raised", 0) or 0))
        try:
            holding = made.get(values)
            if holding is None:
                holding = made[values] = wb.Holding(*values)
        except TypeError:  # a value JSON made unhashable: this tile's own holding
            holding = wb.Holding(*values)
        found[tile.label] = holding
    return found


class _TileRow:
    """A tile as a read sees it: its id (``pk``), label, name, terrain, settlement, controller
    and ``data``, with ``adjacent`` and ``edges`` decoded from their JSON text only when asked
    for. (Where a tile lies and whether it is explored the rules never read: writes read whole
    tiles.)"""

    __slots__ = ("pk", "id", "label", "name", "terrain", "settlement", "controller_id", "data",
                 "adjacent_text", "edges_text")

    def __init__(self, pk: int, label: str, name: str, terrain: str, settlement: str,
                 controller_id: int | None, data: Any, adjacent_text: str,
                 edges_text: str) -> None:
        self.pk = self.id = pk
        self.label, self.name, self.terrain, self.settlement = label, name, terrain, settlement
        self.controller_id, self.data = controller_id, data
        self.adjacent_text, self.edges_text = adjacent_text, edges_text

    @property
    def adjacent(self) -> Any:
        return json.loads(self.adjacent_text)

    @property
    def edges(self) -> Any:
        return json.loads(self.edges_text)


def _board(tile_rows: Sequence[Any]) -> tuple[wb.MapDef, frozenset[wb.Road]]:
    """The map the tiles draw (territories in tile order, borders from each tile's adjacent
    labels) and the roads on it (the ``road`` feature on a border, either side)."""
    tiles = {t.label: t for t in tile_rows}
    borders = []
    for tile in tile_rows:
        for other in tile.adjacent or []:
            if other in tiles and tile.label < other:
                borders.append((tile.label, other))
    game_map = wb.make_map([_territory(t) for t in tile_rows], borders)
    roads = set()
    for tile in tile_rows:
        adjacent = tile.adjacent or []
        for other, features in (tile.edges or {}).items():
            if ROAD in features and other in tiles and other in adjacent:
                roads.add(wb.border(tile.label, other))
    return game_map, frozenset(roads)


@dataclass(frozen=True)
class _Board:
    """A board as the tiles draw it: the map, the roads, and each territory's road steps
    (``economy.road_neighbours``, which depend on nothing else), worked out once."""

    map: wb.MapDef
    roads: frozenset[wb.Road]
    road_steps: Mapping[tuple[str, ...], object]


def _made_board(tile_rows: Sequence[Any]) -> _Board:
    game_map, roads = _board(tile_rows)
    bare = wb.GameState(map=game_map, holdings={}, roads=roads, capitals={})
    for code in game_map.codes:
        economy.road_neighbours(bare, code)
    return _Board(game_map, roads, {k: v for k, v in bare.memo.items()
                                    if k[0] == "road_neighbours"})


# Boards already made in this process, by the exact text they are made from (see
# ``_read_board``), the latest used last; a few campaigns' boards are kept.
_BOARDS: OrderedDict[tuple[tuple[str, ...], ...], _Board] = OrderedDict()
_BOARDS_KEPT = 8
_BOARDS_LOCK = threading.Lock()


def _kept_board(tile_rows: Sequence[_TileRow]) -> _Board:
    """The map and roads of ``tile_rows``, kept under exactly what they are made of.

    The map and the roads depend only on each tile's label, name, terrain, primary and
    secondary resource, adjacent labels and edges, in tile order, and are immutable; so they are
    kept in this process under a key made of exactly those values (a tuple per tile, the JSON
    columns as their text), and tiles that give the same values take them from there instead of
    building the map again (and, as they depend on nothing else, each territory's road steps,
    which a read's state starts with). Any change to any of those (a road built, the map
    edited, a resource changed) changes the key, so a kept board is never stale."""
    key = tuple(
        (t.label, t.name, t.terrain, repr(d.get("primary")), repr(d.get("secondary")),
         t.adjacent_text, t.edges_text)
        for t in tile_rows for d in (t.data if isinstance(t.data, dict) else {},))
    with _BOARDS_LOCK:
        kept = _BOARDS.get(key)
        if kept is not None:
            _BOARDS.move_to_end(key)
    if kept is None:
        kept = _made_board(tile_rows)
        with _BOARDS_LOCK:
            _BOARDS[key] = kept
            while len(_BOARDS) > _BOARDS_KEPT:
                _BOARDS.popitem(last=False)
    return kept


@dataclass(frozen=True)
class _Seated:
    """What one set of kingdoms holds on one set of tile rows: ``public``, the board as the
    rules see it (every territory's holding, the capitals, the seats and who is out of the game)
    without armies or stockpiles, whose figures are kept with it, and ``figures``, what pages
    make of them (``Loaded.kept``)."""

    public: wb.GameState
    figures: dict[tuple[Any, ...], Any]


@dataclass
class _Read:
    """One exact set of tile rows as a read makes them: the rows (no model instances), by
    label and by id, and their board; and, for each set of kingdoms that read them, what those
    kingdoms hold there (``seated``, the latest used last)."""

    tile_rows: list[_TileRow]
    tiles: dict[str, _TileRow]
    by_id: dict[int, _TileRow]
    board: _Board
    seated: OrderedDict[tuple[Any, ...], _Seated] = field(default_factory=OrderedDict)

    def seated_for(self, facts: Sequence[_Facts]) -> _Seated:
        """What the kingdoms of ``facts`` (in seating order) hold on these tiles, kept under
        exactly the kingdoms' values it is made of (id, name, colour, seat, capital, out of the
        game): a renamed, recoloured, reseated or eliminated kingdom makes it anew."""
        key = tuple(facts)
        with _READS_LOCK:
            found = self.seated.get(key)
            if found is not None:
                self.seated.move_to_end(key)
                return found
        found = _seat(self, facts)
        with _READS_LOCK:
            self.seated[key] = found
            while len(self.seated) > _SEATED_KEPT:
                self.seated.popitem(last=False)
        return found


def _seat(read: _Read, facts: Sequence[_Facts]) -> _Seated:
    kingdoms = {k.pk: k for k in facts}
    seats = {k.order_position: k for k in facts
             if k.order_position is not None and k.capital_tile_id is not None}
    holdings = _holdings(read.tile_rows, kingdoms, seats)
    seated = [k for k in facts if k.capital_tile_id in read.by_id]
    board = read.board
    public = wb.GameState(map=board.map, holdings=holdings, roads=board.roads,
                          capitals={k.name: read.by_id[k.capital_tile_id].label for k in seated},
                          seats=tuple(k.name for k in seated),
                          eliminated=frozenset(k.name for k in seated if k.eliminated),
                          forfeited=frozenset(k.name for k in seated if k.forfeited))
    public.memo.update(board.road_steps)
    public.controlled("")  # who controls what, worked out once for every read of it
    return _Seated(public, {})


class _Facts(NamedTuple):
    """What the board of a read takes from a kingdom."""

    pk: int
    name: str
    colour: str
    order_position: int | None
    capital_tile_id: int | None
    eliminated: bool
    forfeited: bool

    @classmethod
    def of(cls, kingdom: Any) -> _Facts:
        data = kingdom.data or {}
        return cls(kingdom.pk, kingdom.name, kingdom.colour, kingdom.order_position,
                   kingdom.capital_tile_id, bool(data.get("eliminated")),
                   bool(data.get("forfeited")))


@cache
def _kingdom_columns() -> tuple[str, ...]:
    """Every column of a kingdom's row, as ``Kingdom.from_db`` takes them."""
    return tuple(f.attname for f in Kingdom._meta.concrete_fields)


class _Kingdoms(Mapping[int, Kingdom]):
    """A read's kingdoms by id (in the order read), each made a model instance as the ORM makes
    it (``Kingdom.from_db``, from the row as a query set reads it) only when asked for: the
    board needs every kingdom's name and seat (``_Facts``), a page shows a few of them."""

    def __init__(self, rows: Sequence[tuple[Any, ...]]) -> None:
        columns = _kingdom_columns()
        self._rows = {row[columns.index("id")]: row for row in rows}
        self._made: dict[int, Kingdom] = {}

    def facts(self) -> list[_Facts]:
        columns = _kingdom_columns()
        at = {name: columns.index(name) for name in (
            "id", "name", "colour", "order_position", "capital_tile_id", "data")}
        facts = []
        for row in self._rows.values():
            data = row[at["data"]] or {}
            facts.append(_Facts(row[at["id"]], row[at["name"]], row[at["colour"]],
                                row[at["order_position"]], row[at["capital_tile_id"]],
                                bool(data.get("eliminated")), bool(data.get("forfeited"))))
        return facts

    def __getitem__(self, pk: int) -> Kingdom:
        found = self._made.get(pk)
        if found is None:
            found = self._made[pk] = Kingdom.from_db(DEFAULT_DB_ALIAS, _kingdom_columns(),
                                                     self._rows[pk])
        return found

    def __contains__(self, pk: object) -> bool:
        return pk in self._rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class _ByName(Mapping[str, Kingdom]):
    """:class:`_Kingdoms` by name."""

    def __init__(self, kingdoms: _Kingdoms, facts: Sequence[_Facts]) -> None:
        self._kingdoms = kingdoms
        self._pks = {k.name: k.pk for k in facts}

    def __getitem__(self, name: str) -> Kingdom:
        return self._kingdoms[self._pks[name]]

    def __contains__(self, name: object) -> bool:
        return name in self._pks

    def __iter__(self) -> Iterator[str]:
        return iter(self._pks)

    def __len__(self) -> int:
        return len(self._pks)


# Reads already made in this process, by the exact tile rows they were made from (see
# ``_read_board``), the latest used last; each keeps what a few sets of kingdoms hold there.
_READS: OrderedDict[tuple[tuple[Any, ...], ...], _Read] = OrderedDict()
_READS_KEPT = 8
_SEATED_KEPT = 4
_FIGURES_KEPT = 64
_READS_LOCK = threading.Lock()


def _tiles_query(campaign_id: int) -> Any:
    return Tile.objects.filter(map__campaign_id=campaign_id).order_by("pk").annotate(
        adjacent_text=Cast("adjacent", TextField()), edges_text=Cast("edges", TextField()),
        data_text=Cast("data", TextField()),
    ).values_list("id", "label", "name", "terrain", "settlement", "controller_id",
                  "adjacent_text", "edges_text", "data_text")


def _kingdoms_query(campaign_id: int) -> Any:
    return Kingdom.objects.filter(campaign_id=campaign_id).order_by(
        "order_position", "pk").values_list(*_kingdom_columns())


def _armies_query(campaign_id: int) -> Any:
    return Army.objects.filter(campaign_id=campaign_id).order_by("pk")


def _balances_query(campaign_id: int) -> Any:
    return Balance.objects.filter(kingdom__campaign_id=campaign_id).values_list(
        "kingdom_id", "resource", "amount")


def _read_board(campaign: Campaign) -> _Read:
    """The campaign's tiles for a read (in id order, no model instances) with their map and
    roads, kept in this process under the tile rows exactly as the database answered them
    (every column the read takes, the JSON columns as their text): a read whose rows are the
    same in every value takes everything made of them from there; any change to any tile (by
    an event, its undo or the admin) gives other rows and so a read of its own.

    A new read decodes the JSON columns once for all tiles (``data`` in one ``json.loads``,
    each distinct text once: tiles with the same text share its value, which nothing that reads
    a board changes) and takes the map from ``_kept_board``.

    On PostgreSQL the rows come with their map's ``tiles_version`` (``_tiles_since``): while
    no tile of the campaign was written since the read this process made last, that read is
    taken without the rows being sent again."""
    rows, versions, held = _tiles_since(campaign.pk)
    if held is not None:
        return held
    key = tuple(rows)
    with _READS_LOCK:
        read = _READS.get(key)
        if read is not None:
            _READS.move_to_end(key)
            _held(campaign.pk, versions, read)
            return read
    texts = list(dict.fromkeys(row[8] or "null" for row in rows))
    decoded = dict(zip(texts, json.loads("[" + ",".join(texts) + "]"), strict=True))
    tile_rows = [_TileRow(pk, label, name, terrain, settlement, controller_id,
                          decoded[d or "null"], a or "null", e or "null")
                 for (pk, label, name, terrain, settlement, controller_id, a, e, d) in rows]
    read = _Read(tile_rows, {t.label: t for t in tile_rows}, {t.pk: t for t in tile_rows},
                 _kept_board(tile_rows))
    with _READS_LOCK:
        _READS[key] = read
        while len(_READS) > _READS_KEPT:
            _READS.popitem(last=False)
        _held(campaign.pk, versions, read)
    return read


# The campaign's tiles (the columns of ``_tiles_query``, in id order), in one query that returns
# them only when one was written since the kept read was made (PostgreSQL:
# campaign/tile_versions.py, as the map page reads its tiles).
_TILES_SINCE_SQL = tile_versions.statement(
    "x.id, x.label, x.name, x.terrain, x.settlement, x.controller_id, x.adjacent::text, "
    "x.edges::text, x.data::text", "m.campaign_id = %s", "t.id")

# The read each campaign's tiles made last in this process, with the map's tiles_version it
# was made at (PostgreSQL; ``_tiles_since``).
_SINCE: dict[int, tuple[str, _Read]] = {}
_SINCE_KEPT = 64


def _tiles_since(campaign_id: int) -> tuple[list[tuple[Any, ...]], str | None, _Read | None]:
    """The campaign's tile rows as ``_tiles_query`` gives them, with their map's
    ``tiles_version`` (None where it is not known: not PostgreSQL, or no map); or, when the
    version is the one of the read kept in ``_SINCE`` (no tile written since), no rows and
    that read."""
    if not tile_versions.versioned():
        return kept_values(("wok.tiles",), _tiles_query, campaign_id), None, None
    with _READS_LOCK:
        held = _SINCE.get(campaign_id)
    rows, versions = tile_versions.tiles_unless_held(
        _TILES_SINCE_SQL, [campaign_id], held[0] if held is not None else None)
    if rows is None:
        return [], versions, held[1]  # type: ignore[index]
    return rows, versions, None


def _held(campaign_id: int, versions: str | None, read: _Read) -> None:
    """Keep ``read`` as the campaign's, made from rows read at its map's ``tiles_version``
    ``versions`` (called with ``_READS_LOCK`` held)."""
    if versions is None:
        return
    if len(_SINCE) >= _SINCE_KEPT and campaign_id not in _SINCE:
        _SINCE.clear()
    _SINCE[campaign_id] = (versions, read)


def army_id(number: int) -> str:
    return f"A{number}"


def _seating_order(kingdoms: Sequence[Kingdom]) -> list[Kingdom]:
    return sorted(kingdoms, key=lambda k: (k.order_position is None, k.order_position or 0,
                                           k.pk))


def load(campaign: Campaign, *, lock: bool = False,
         read_kingdoms: Sequence[Kingdom] | None = None, board_only: bool = False) -> Loaded:
    """The campaign's board as a ``GameState``; with ``lock`` every row a write may change is
    locked first, in the documented order (campaign, kingdoms by id, tiles, armies). A read may
    pass the campaign's kingdoms its page has already read (any order), saving a query; with
    ``board_only`` it reads no armies and no stockpiles (a page that shows only what the board
    gives: the standings)."""
    if lock:
        return _load_locked(campaign)
    kingdoms: Mapping[int, Kingdom]
    by_name: Mapping[str, Kingdom]
    if read_kingdoms is not None:
        kingdom_rows = _seating_order(read_kingdoms)
        facts = [_Facts.of(k) for k in kingdom_rows]
        kingdoms = {k.pk: k for k in kingdom_rows}
        by_name = {k.name: k for k in kingdom_rows}
    else:
        lazy = _Kingdoms(kept_values(("wok.kingdoms",), _kingdoms_query, campaign.pk))
        facts = lazy.facts()
        kingdoms, by_name = lazy, _ByName(lazy, facts)
    read = _read_board(campaign)
    seated = read.seated_for(facts)
    names = {k.pk: k.name for k in facts}
    army_rows = [] if board_only else kept_rows(("wok.armies",), _armies_query, campaign.pk)
    balances = [] if board_only else kept_values(("wok.balances",), _balances_query,
                                                 campaign.pk)
    armies, army_map = _armies(army_rows, names, read.by_id)
    run = campaign.state or {}
    state = seated.public.with_turn(
        stockpiles=_stockpiles(balances, names), armies=armies,
        round=campaign.year, phase=campaign.phase if campaign.phase else SETUP,
        lead=names[run["lead"]] if run.get("lead") in names else None,
        active=names[run["active"]] if run.get("active") in names else None,
    )
    state.memo.update(read.board.road_steps)
    return Loaded(campaign, state, _options(campaign),
                  holders_from(run.get("holders", {}), names), kingdoms, dict(read.tiles),
                  army_map, by_name, seated.public, seated.figures, names)


def _load_locked(campaign: Campaign) -> Loaded:
    campaign = lock_campaign(campaign)
    kingdom_rows = _seating_order(lock_kingdoms(campaign).values())
    tile_rows = list(Tile.objects.select_for_update().filter(map__campaign=campaign)
                     .only(*_TILE_FIELDS).order_by("pk"))
    army_rows = list(Army.objects.select_for_update().filter(campaign=campaign).order_by("pk"))
    game_map, roads = _board(tile_rows)
    kingdoms = {k.pk: k for k in kingdom_rows}
    by_id = {t.pk: t for t in tile_rows}
    seats = {k.order_position: k for k in kingdom_rows
             if k.order_position is not None and k.capital_tile_id is not None}
    seated = [k for k in kingdom_rows if k.capital_tile_id in by_id]
    names = {k.pk: k.name for k in kingdom_rows}
    armies, army_map = _armies(army_rows, names, by_id)
    balances = Balance.objects.filter(kingdom__campaign=campaign).values_list(
        "kingdom_id", "resource", "amount")
    run = campaign.state or {}
    state = wb.GameState(
        map=game_map, holdings=_holdings(tile_rows, kingdoms, seats), roads=roads,
        capitals={k.name: by_id[k.capital_tile_id].label for k in seated},
        stockpiles=_stockpiles(balances, names),
        armies=armies, seats=tuple(k.name for k in seated), round=campaign.year,
        phase=campaign.phase if campaign.phase else SETUP,
        lead=kingdoms[run["lead"]].name if run.get("lead") in kingdoms else None,
        active=kingdoms[run["active"]].name if run.get("active") in kingdoms else None,
        eliminated=frozenset(k.name for k in seated if (k.data or {}).get("eliminated")),
        forfeited=frozenset(k.name for k in seated if (k.data or {}).get("forfeited")),
    )
    return Loaded(campaign, state, _options(campaign),
                  holders_from(run.get("holders", {}), kingdoms), kingdoms,
                  {t.label: t for t in tile_rows}, army_map, {k.name: k for k in kingdom_rows})


def _armies(army_rows: Sequence[Army], names: Mapping[int, str],
            by_id: Mapping[int, Any]) -> tuple[tuple[wb.Army, ...], dict[str, Army]]:
    armies = []
    army_map = {}
    for row in army_rows:
        owner = names[row.owner_id] if row.owner_id in names else wb.MALADOR
        culture = names[row.culture_id] if row.culture_id in names else wb.MALADOR
        ident = army_id(row.number)
        armies.append(wb.Army(ident, owner, by_id[row.tile_id].label, row.damage, row.ready,
                              row.raised_round, culture,
                              by_id[row.came_from_id].label if row.came_from_id in by_id
                              else None))
        army_map[ident] = row
    return tuple(armies), army_map


def _stockpiles(balances: Any, names: Mapping[int, str]) -> dict[str, wb.Stock]:
    """Every kingdom's stockpile (``names``: each kingdom's name by id, in seating order)."""
    stock: dict[str, dict[str, int]] = {name: {} for name in names.values()}
    for kingdom_id, resource, amount in balances:
        if kingdom_id in names and resource in STOCK_FIELDS:
            stock[names[kingdom_id]][resource] = amount
    return {name: wb.Stock(**s) for name, s in stock.items()}


def _options(campaign: Campaign) -> Options:
    try:
        return options_from(campaign.options)
    except ValueError as exc:
        raise ServiceError(f"This campaign's options cannot be read: {exc}") from None


# --- writing ----------------------------------------------------------------------------------

def _tile_values(loaded: Loaded, tile: Tile, holding: wb.Holding) -> dict[str, Any]:
    data = dict(tile.data or {})
    controller = loaded.kingdom(holding.controller)
    data.pop("malador", None)
    if holding.controller == wb.MALADOR:
        data["malador"] = True
    if holding.level:
        culture = loaded.kingdom(holding.culture)
        data["culture"] = culture.order_position if culture is not None else "malador"
    else:
        data.pop("culture", None)
    for key, value in (("fort", holding.fort), ("settlement_round", holding.settlement_round),
                       ("fort_round", holding.fort_round), ("raised_round", holding.raised_round),
                       ("raised", holding.raised)):
        if value:
            data[key] = value
        else:
            data.pop(key, None)
    return {"controller": controller, "settlement": LEVEL_SETTLEMENT[holding.level],
            "data": data, "explored": tile.explored or holding.controller is not None}


def apply(rec: Recorder, loaded: Loaded, new: wb.GameState, *, rule_id: str, source: str,
          lines: list[tuple[Kingdom, LedgerLine]] | None = None,
          run: dict[str, Any] | None = None) -> None:
    """Write ``new`` over ``loaded.state``: every change through ``rec``. Stockpile changes are
    booked as ledger entries citing ``rule_id`` and ``source`` (or as ``lines``, which must add
    up to the same change: what is shown is what is booked). ``run`` replaces keys of the
    campaign's running state; the holders follow WOK-AMB-3 when the timing is strict."""
    old = loaded.state
    for code, holding in new.holdings.items():
        if old.holding(code) != holding:
            tile = loaded.tiles[code]
            values = _tile_values(loaded, tile, holding)
            changed = {k: v for k, v in values.items()
                       if (getattr(tile, k) if k != "controller" else tile.controller_id)
                       != (v if k != "controller" else (v.pk if v else None))}
            if changed:
                rec.update(tile, **changed)
    for pair in new.roads - old.roads:
        a, b = sorted(pair)
        for here, there in ((a, b), (b, a)):
            tile = loaded.tiles[here]
            edges = {k: list(v) for k, v in (tile.edges or {}).items()}
            features = set(edges.get(there, []))
            if ROAD not in features:
                edges[there] = sorted(features | {ROAD})
                rec.update(tile, edges=edges)
    _apply_armies(rec, loaded, new)
    for name in (new.eliminated ^ old.eliminated) | (new.forfeited ^ old.forfeited):
        kingdom = loaded.by_name[name]
        data = dict(kingdom.data or {})
        for key, names in (("eliminated", new.eliminated), ("forfeited", new.forfeited)):
            if name in names:
                data[key] = True
            else:
                data.pop(key, None)
        rec.update(kingdom, data=data)
    diff: dict[tuple[int, str], int] = {}
    for name in set(new.stockpiles) | set(old.stockpiles):
        before, after = old.stock(name), new.stock(name)
        for resource in STOCK_FIELDS:
            delta = after.amount(resource) - before.amount(resource)
            if delta:
                diff[(loaded.by_name[name].pk, resource)] = delta
    if lines is None:
        lines = [(loaded.kingdoms[pk], LedgerLine(resource, amount, rule_id, source))
                 for (pk, resource), amount in sorted(diff.items())]
    else:
        booked: dict[tuple[int, str], int] = {}
        for kingdom, line in lines:
            key = (kingdom.pk, line.resource)
            booked[key] = booked.get(key, 0) + line.amount
        if {k: v for k, v in booked.items() if v} != diff:
            raise AssertionError("The ledger lines do not add up to the change of stockpiles.")
    post(rec, lines)
    campaign = loaded.campaign
    state = dict(campaign.state or {})
    state.update(run or {})
    lead, active = loaded.kingdom(new.lead), loaded.kingdom(new.active)
    state["lead"] = lead.pk if lead else None
    state["active"] = active.pk if active else None
    holders = holders_from(state.get("holders", {}), loaded.kingdoms)
    strict = strict_losses(new, holders, loaded.options)
    if strict != holders:
        state["holders"] = holders_json(strict, loaded.by_name)
    values: dict[str, Any] = {}
    if state != (campaign.state or {}):
        values["state"] = state
    if new.round != campaign.year:
        values["year"] = new.round
    if new.phase != campaign.phase and new.phase != SETUP:
        values["phase"] = new.phase
    if values:
        rec.update(campaign, **values)


def _apply_armies(rec: Recorder, loaded: Loaded, new: wb.GameState) -> None:
    old_ids = {a.id: a for a in loaded.state.armies}
    new_ids = {a.id: a for a in new.armies}
    tiles = loaded.tiles
    for ident in sorted(set(old_ids) - set(new_ids)):
        rec.delete(loaded.armies[ident])
    for ident, army in new_ids.items():
        values = {
            "owner": loaded.kingdom(army.owner), "culture": loaded.kingdom(army.culture),
            "tile": tiles[army.territory], "damage": army.damage, "ready": army.ready,
            "raised_round": army.raised_round,
            "came_from": tiles[army.came_from] if army.came_from else None,
        }
        if ident not in old_ids:
            rec.create(Army(campaign=loaded.campaign, number=int(ident[1:]), **values))
        elif old_ids[ident] != army:
            row = loaded.armies[ident]
            rec.update(row, **values)


def next_army_number(loaded: Loaded) -> int:
    return max((row.number for row in loaded.armies.values()), default=0) + 1


def with_phase(state: wb.GameState, phase: str) -> wb.GameState:
    return replace(state, phase=phase)
