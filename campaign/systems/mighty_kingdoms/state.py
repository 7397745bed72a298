"""Load a Mighty Kingdoms campaign from the database into the rules' plain data.

The rules (campaign/rules/mighty_kingdoms.py, ledger/rules/, battles/rules/) never see a model:
services call ``load_state`` once, in a fixed number of queries, and pass its dataclasses on.
With ``lock=True`` the campaign row is locked first (``select_for_update``), so two requests that
change the same campaign run one after the other.

The map is read only as far as a service needs it, so that an action on one tile costs the same
on a small map and on a large one:

- ``state.map`` is the whole map, built on first use (phase changes, reform, income);
- ``state.map_around(labels)`` is the part of the map within a few steps of some tiles, enough
  for an order, its resolution or a token's choices (MK-ORD-5, MK-RES-3);
- ``state.holdings_map(kingdoms)`` is the tiles those kingdoms control, enough for the winter's
  purchases and deployment (MK-BUY, MK-DEPLOY);
- ``state.tile_rows`` gives the ``Tile`` rows to write, fetched by label when first asked for.

Kingdoms, armies and ships are read the same way: ``state.kingdoms``, ``state.armies`` and
``state.ships`` come from plain rows (no model instances); ``state.kingdom_rows`` makes a
``Kingdom`` instance when first asked for, and ``state.army_rows`` / ``state.ship_rows`` fetch
the ``Army`` and ``Ship`` rows to write by primary key when first asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, NamedTuple, TypeVar

from django.db import connection
from django.db.models import BooleanField, Count, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce

from battles.models import Army, Unit
from campaign import tile_versions
from campaign.bounded import keep
from campaign.kept_sql import kept_values, looked_up_row_by_row
from campaign.locking import lock_campaign
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.services import grid_for
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from ledger.models import Balance

WATER_TERRAINS = frozenset({"open_water"})
# Map kinds whose neighbours are fixed offsets of (q, r), each within one step on both axes.
OFFSET_GRIDS = frozenset({"hex", "square"})


class TileRec(NamedTuple):
    """What the rules need of a tile row, read without building a model instance."""

    pk: int
    q: int
    r: int
    label: str
    terrain: str
    features: list[str]
    edges: dict[str, list[str]]
    settlement: str
    controller_id: int | None
    explored: bool
    is_start: bool
    data: dict[str, Any]
    # The row as the database gave it (JSON as text), for a tile read by position: what the
    # rules' views of it are kept under (``_kept_state``, ``_kept_build``).
    raw: tuple[Any, ...] | None = None


REC_FIELDS = ("pk", "q", "r", "label", "terrain", "features", "edges", "settlement",
              "controller_id", "explored", "is_start", "data")

# What is made of the tiles read by position, kept in the process under the rows themselves
# (``TileRec.raw``): each row's record and its tile as the rules see it without edges, at most
# ``TILES_KEPT`` of each, and the views ``map_around`` builds of some of them, at most
# ``VIEWS_KEPT``; the oldest are forgotten first. A tile that changed is another row, so what was
# made of it before is never answered for it.
TILES_KEPT = 8192
VIEWS_KEPT = 256
_RECS: dict[tuple[Any, ...], TileRec] = {}
_STATES: dict[tuple[Any, ...], mk.TileState] = {}
_BUILT: dict[tuple[Any, ...], IndexedMapView] = {}


def _json(text: Any) -> Any:
    return json.loads(text) if isinstance(text, str) else text


def _rec_of(row: tuple[Any, ...]) -> TileRec:
    """The record of a tile row read as the database gives it (``REC_FIELDS``, JSON as text,
    flags as the database writes them), kept under the row (its JSON read only)."""
    found = _RECS.get(row)
    if found is None:
        pk, q, r, label, terrain, features, edges, settlement, controller, explored, start, \
            data = row
        found = keep(_RECS, TILES_KEPT, row, TileRec(
            pk, q, r, label, terrain, _json(features), _json(edges), settlement, controller,
            bool(explored), bool(start), _json(data), row))
    return found


def _kept_state(rec: TileRec) -> mk.TileState:
    """``tile_state(rec, ())``, kept under the tile's row when it was read by position."""
    if rec.raw is None:
        return tile_state(rec, ())
    found = _STATES.get(rec.raw)
    if found is None:
        found = keep(_STATES, TILES_KEPT, rec.raw, tile_state(rec, ()))
    return found


def _rec(tile: Tile) -> TileRec:
    return TileRec(*(getattr(tile, name) for name in REC_FIELDS))


class IndexedMapView(mk.MapView):
    """A ``MapView`` that keeps each kingdom's tiles at hand: ``controlled_by`` gives the same
    answer as the plain view (MK-GLOSS-3), without scanning the whole map on every call."""

    def __post_init__(self) -> None:
        super().__post_init__()
        index: dict[Any, list[mk.TileState]] = {}
        for tile in self.tiles:
            if tile.controller is not None:
                index.setdefault(tile.controller, []).append(tile)
        object.__setattr__(
            self, "_controlled",
            {k: tuple(sorted(ts, key=lambda t: t.label)) for k, ts in index.items()},
        )

    def controlled_by(self, kingdom: mk.KingdomId) -> tuple[mk.TileState, ...]:
        return self._controlled.get(kingdom, ())  # type: ignore[attr-defined,no-any-return]


class TileRows(Mapping[str, Tile]):
    """The campaign's ``Tile`` rows by label, fetched when first asked for (one query per batch).

    Iterating fetches them all. Rows are cached, so a row changed through ``Recorder.update`` is
    the same object the next time it is asked for.
    """

    def __init__(self, map_id: int) -> None:
        self._map_id = map_id
        self._rows: dict[str, Tile] = {}
        self._missing: set[str] = set()
        self._complete = False

    def fetch(self, labels: Iterable[str]) -> None:
        """Read the rows of ``labels`` not read yet, in one query."""
        wanted = {label for label in labels if label} - self._rows.keys() - self._missing
        if not wanted or self._complete:
            return
        for tile in Tile.objects.filter(map_id=self._map_id, label__in=wanted).order_by():
            self._rows[tile.label] = tile
        self._missing |= wanted - self._rows.keys()

    def _all(self) -> dict[str, Tile]:
        if not self._complete:
            for tile in Tile.objects.filter(map_id=self._map_id):
                self._rows.setdefault(tile.label, tile)
            self._complete = True
            self._missing.clear()
        return self._rows

    def __getitem__(self, label: str) -> Tile:
        if label not in self._rows:
            self.fetch([label])
        return self._rows[label]

    def __contains__(self, label: object) -> bool:
        if not isinstance(label, str):
            return False
        if label not in self._rows:
            self.fetch([label])
        return label in self._rows

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def by_pk(self, pk: int) -> Tile | None:
        found = next((t for t in self._rows.values() if t.pk == pk), None)
        if found is None and not self._complete:
            found = Tile.objects.filter(map_id=self._map_id, pk=pk).first()
            if found is not None:
                self._rows[found.label] = found
        return found


TokenRow = TypeVar("TokenRow", Army, Ship)


class TokenRows(Mapping[int, TokenRow], Generic[TokenRow]):
    """The campaign's ``Army`` or ``Ship`` rows on the map, by primary key, fetched when first
    asked for (one query per batch). Looking up a key reads at most that row; iterating, ``len``,
    ``values()`` and ``items()`` read every token of the campaign first (``every`` gives their
    keys).

    Rows are cached, so a row changed through ``Recorder.update`` is the same object the next
    time it is asked for.
    """

    def __init__(self, model: type[TokenRow], campaign_id: int,
                 every: Callable[[], list[int]]) -> None:
        self._model = model
        self._campaign_id = campaign_id
        self._every = every
        self._rows: dict[int, TokenRow] = {}
        self._absent: set[int] = set()

    def fetch(self, pks: Iterable[int | None]) -> None:
        """Read the rows of ``pks`` not read yet, in one query."""
        wanted = {pk for pk in pks if pk} - self._rows.keys() - self._absent
        if wanted:
            for row in self._model.objects.filter(
                    pk__in=wanted, campaign_id=self._campaign_id,
                    tile__isnull=False).order_by():
                self._rows[row.pk] = row
            self._absent |= wanted - self._rows.keys()

    def __getitem__(self, pk: int) -> TokenRow:
        if pk not in self._rows:
            self.fetch([pk])
        if pk not in self._rows:
            raise KeyError(pk)
        return self._rows[pk]

    def __contains__(self, pk: object) -> bool:
        if not isinstance(pk, int):
            return False
        if pk not in self._rows:
            self.fetch([pk])
        return pk in self._rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())

    def values(self) -> list[TokenRow]:  # type: ignore[override]
        pks = self._every()
        self.fetch(pks)
        return [self._rows[pk] for pk in pks if pk in self._rows]

    def items(self) -> list[tuple[int, TokenRow]]:  # type: ignore[override]
        pks = self._every()
        self.fetch(pks)
        return [(pk, self._rows[pk]) for pk in pks if pk in self._rows]


# A kingdom's columns read with every action; ``data`` and ``created_at`` (JSON and a timestamp,
# the costly ones to convert) are read when asked for.
LATER_FIELDS = ("data", "created_at")
KINGDOM_FIELDS = tuple(f.attname for f in Kingdom._meta.concrete_fields
                       if f.attname not in LATER_FIELDS)


_NAME_AT, _COLOUR_AT = KINGDOM_FIELDS.index("name"), KINGDOM_FIELDS.index("colour")


MAP_FIELDS = tuple(f.attname for f in Map._meta.concrete_fields)


class KingdomRows(Mapping[int, Kingdom]):
    """The campaign's ``Kingdom`` rows by primary key, in the model's order, read in one query
    as plain values and made into model instances when first asked for (then kept, so a row
    changed through ``Recorder.update`` is the same object the next time).

    ``data`` and ``created_at`` are not read with the rest: an instance loads them when one is
    used, and ``values_of`` reads one of them for several kingdoms in one query."""

    def __init__(self, values: Iterable[tuple[Any, ...]]) -> None:
        pk = KINGDOM_FIELDS.index("id")
        self._values = {row[pk]: row for row in values}
        self._rows: dict[int, Kingdom] = {}
        self._later: dict[str, dict[int, Any]] = {}

    def __getitem__(self, pk: int) -> Kingdom:
        row = self._rows.get(pk)
        if row is None:
            row = self._rows[pk] = Kingdom.from_db(Kingdom.objects.db, list(KINGDOM_FIELDS),
                                                   self._values[pk])
            for name, found in self._later.items():
                if pk in found:
                    setattr(row, name, found[pk])
        return row

    def looks(self, pk: int) -> tuple[str, str]:
        """A kingdom's name and colour, without making its instance (from the instance once
        made, which a write may have changed)."""
        row = self._rows.get(pk)
        if row is not None:
            return row.name, row.colour
        values = self._values[pk]
        return values[_NAME_AT], values[_COLOUR_AT]

    def value(self, pk: int, name: str) -> Any:
        """One field of a kingdom (by attribute name), without making its instance."""
        return self.values_of(name, [pk])[pk]

    def values_of(self, name: str, pks: Iterable[int]) -> dict[int, Any]:
        """One field of several kingdoms (one query at most, for ``data`` or ``created_at``)."""
        wanted = [pk for pk in pks if pk in self._values]
        if name not in LATER_FIELDS:
            at = KINGDOM_FIELDS.index(name)
            return {pk: getattr(self._rows[pk], name) if pk in self._rows
                    else self._values[pk][at] for pk in wanted}
        known = self._later.setdefault(name, {})
        missing = [pk for pk in wanted if pk not in known and (
            pk not in self._rows or name in self._rows[pk].get_deferred_fields())]
        if missing:
            known.update(Kingdom.objects.filter(pk__in=missing).values_list("pk", name))
            for pk in missing:
                if pk in self._rows:
                    setattr(self._rows[pk], name, known[pk])
        return {pk: getattr(self._rows[pk], name) if pk in self._rows else known[pk]
                for pk in wanted}

    def __contains__(self, pk: object) -> bool:
        return pk in self._values

    def __iter__(self) -> Iterator[int]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@dataclass
class MKState:
    """One campaign as the rules see it, plus the rows it came from (for writing back).

    ``labels`` maps the primary keys of the tiles seen so far to their labels; ``label_of`` reads
    any other one. ``positions`` maps labels to (q, r) for the tiles seen so far.
    """

    campaign: Campaign
    options: mk.MKOptions
    clock: mk.Clock
    kingdoms: dict[int, mk.Kingdom]
    order: list[int]
    tile_rows: TileRows = field(repr=False)
    kingdom_rows: KingdomRows = field(repr=False)
    map_row: Map = field(repr=False)
    labels: dict[int, str] = field(default_factory=dict, repr=False)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _map: mk.MapView | None = field(default=None, repr=False)
    _views: dict[Any, mk.MapView] = field(default_factory=dict, repr=False)
    # Every token on the map, once read; before that, the tokens read per kingdom and per tile.
    _every: tuple[list[mk.Army], list[mk.Ship]] | None = field(default=None, repr=False)
    _of_kingdom: dict[int, tuple[list[mk.Army], list[mk.Ship]]] = field(
        default_factory=dict, repr=False)
    _at_tile: dict[str, tuple[list[mk.Army], list[mk.Ship]]] = field(
        default_factory=dict, repr=False)
    _ships_at: dict[str, list[mk.Ship]] = field(default_factory=dict, repr=False)
    # Tiles read by position for ``map_around``, and every position asked for (found or not).
    _tile_recs: dict[tuple[int, int], TileRec] = field(default_factory=dict, repr=False)
    _read_spots: set[tuple[int, int]] = field(default_factory=set, repr=False)
    _rank: dict[int, int] = field(default_factory=dict, repr=False)
    # Kingdoms whose tokens (and orders) are read along with any other kingdom's: a page sets
    # the kingdom whose turn it is and the viewer's, so that it reads them all in one go.
    focus: set[int] = field(default_factory=set, repr=False)
    # Each army's count of units on its list not destroyed, by primary key, when every token
    # was read with it (``read_every_token(living=True)``).
    living_units: dict[int, int] | None = field(default=None, repr=False)
    # Each kingdom's gold and food balances, when read with the kingdoms
    # (``load_state(stocks=True)``, see ``winter_services.stocks_of``).
    stocks: dict[int, tuple[int, int]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._rank = {pk: n for n, pk in enumerate(self.kingdom_rows)}
        self.army_rows: TokenRows[Army] = TokenRows(
            Army, self.campaign.pk, lambda: [a.id for a in self.armies])
        self.ship_rows: TokenRows[Ship] = TokenRows(
            Ship, self.campaign.pk, lambda: [s.id for s in self.ships])

    # -- tokens --------------------------------------------------------------------------------
    # A service acting for one kingdom reads that kingdom's tokens (``armies_of``, ``ships_of``,
    # ``movers_of``) and the tokens on the tiles it touches (``tokens_at``); only what looks at
    # the whole campaign (phase changes, the GM's pages) reads ``armies`` and ``ships``.

    @property
    def armies(self) -> list[mk.Army]:
        """Every army on the map, in the kingdoms' order, then by number (one query)."""
        return self._all_tokens()[0]

    @property
    def ships(self) -> list[mk.Ship]:
        """Every ship on the map, in the kingdoms' order, then by number (one query)."""
        return self._all_tokens()[1]

    @property
    def tokens_read(self) -> bool:
        """Whether every token has been read (``armies``/``ships`` cost no query now)."""
        return self._every is not None

    def _all_tokens(self) -> tuple[list[mk.Army], list[mk.Ship]]:
        if self._every is None:
            self._every = self._read_tokens(_campaign_scope(self.campaign.pk))
        return self._every

    def read_every_token(self, living: bool = False) -> None:
        """Read every token on the map now (one query, none once read); with ``living``, each
        army's count of units still on its list comes along (``living_units``)."""
        if self._every is None:
            found: dict[int, int] | None = {} if living else None
            self._every = self._read_tokens(_campaign_scope(self.campaign.pk), living=found)
            self.living_units = found

    def _read_tokens(self, scope: Scope, armies: bool = True,
                     army_rows: Iterable[Army] | None = None,
                     living: dict[int, int] | None = None,
                     ) -> tuple[list[mk.Army], list[mk.Ship]]:
        """The armies and ships on the map within ``scope`` (one query, a union; the ships
        alone without ``armies``, or with ``army_rows``, the armies of that scope already read
        with their tiles): the campaign, some of its kingdoms or some tiles of its map, each named
        alone so that the database looks the tokens up by that index. A pair's army and ship
        always share a kingdom and a tile, so a scope by kingdom or by tile has both. The
        query's text is kept under the scope's shape (``kept_values``)."""
        tile_fields = ("tile_id", "tile__label", "tile__q", "tile__r")
        rank, last = self._rank, len(self._rank)

        def by_kingdom(row: tuple[Any, ...]) -> tuple[int, int]:
            return rank.get(row[1], last), row[2]

        ship_fields = ("pk", "kingdom_id", "number", "on_side", "paired_army_id", *tile_fields)
        if army_rows is not None:
            army_values = sorted(((a.pk, a.kingdom_id, a.number, a.on_side, a.defending,
                                   a.points, a.is_allied, a.tile_id, a.tile.label, a.tile.q,
                                   a.tile.r) for a in army_rows if a.tile_id is not None),
                                 key=by_kingdom)
        elif armies:
            army_values, ships_read = _armies_and_ships(scope, living)
            army_values.sort(key=by_kingdom)
        else:
            army_values = []
        if army_rows is not None or not armies:
            ships_read = kept_values(
                ("mk", "ships", scope.shape),
                lambda *values: Ship.objects.filter(Q(tile__isnull=False) & scope.where(*values))
                .order_by().values_list(*ship_fields), *scope.values,
                rewrite=_ships_tiles_by_key)
        ship_values = sorted(ships_read, key=by_kingdom)
        for row in army_values:
            self.learn(*row[7:])
        for row in ship_values:
            self.learn(*row[5:])
        paired = {s[4]: s[0] for s in ship_values if s[4]}
        armies = [
            mk.Army(pk, kingdom, number, label, on_side=on_side, defending=defending,
                    paired_ship=paired.get(pk), points=points, is_allied=is_allied)
            for pk, kingdom, number, on_side, defending, points, is_allied, _, label, _, _
            in army_values
        ]
        ships = [
            mk.Ship(pk, kingdom, number, label, on_side=on_side, paired_army=paired_army)
            for pk, kingdom, number, on_side, paired_army, _, label, _, _ in ship_values
        ]
        return armies, ships

    def learn(self, pk: int | None, label: str | None, q: int | None, r: int | None) -> None:
        """Remember a tile's label and position, read with some other row."""
        if pk and label is not None:
            self.labels[pk] = label
            if q is not None and r is not None:
                self.positions[label] = (q, r)

    def _tokens_of(self, kingdom_id: int) -> tuple[list[mk.Army], list[mk.Ship]]:
        if self._every is None and kingdom_id in self._of_kingdom:
            return self._of_kingdom[kingdom_id]
        every = self._all_tokens()
        armies = self._by_kingdom("_armies_by", every[0]).get(kingdom_id, ())
        ships = self._by_kingdom("_ships_by", every[1]).get(kingdom_id, ())
        return list(armies), list(ships)

    def read_tokens_of(self, kingdom_ids: Iterable[int],
                       army_rows: Iterable[Army] | None = None,
                       ships_on: Iterable[Tile] = ()) -> None:
        """Read the tokens of some kingdoms only (one query): ``armies_of``, ``ships_of`` and
        ``movers_of`` then answer for them without reading every token. A service acting for
        one kingdom calls this first; any other kingdom asked for reads every token.

        ``army_rows`` are every army of these kingdoms still in play (not taken off for good:
        those have no tile), already read with their tiles: then only the ships are read.
        The ships of every kingdom on the tiles ``ships_on`` come in the same query (what
        ``ships_at`` then answers for them, such as the ships docked in a kingdom's cities)."""
        wanted = sorted((set(kingdom_ids) | self.focus) - self._of_kingdom.keys())
        if not wanted or self._every is not None:
            return
        if army_rows is not None and wanted != sorted(set(kingdom_ids)):
            army_rows = None
        on = {t.pk: t.label for t in ships_on} if army_rows is not None else {}
        armies, ships = self._read_tokens(_kingdoms_scope(wanted, sorted(on)),
                                          army_rows=army_rows)
        for label in on.values():
            self._ships_at[label] = [s for s in ships if s.tile == label]
        for pk in wanted:
            self._of_kingdom[pk] = ([a for a in armies if a.kingdom == pk],
                                    [s for s in ships if s.kingdom == pk])

    def armies_of(self, kingdom_id: int) -> list[mk.Army]:
        return list(self._tokens_of(kingdom_id)[0])

    def ships_of(self, kingdom_id: int) -> list[mk.Ship]:
        return list(self._tokens_of(kingdom_id)[1])

    def tokens_at(self, labels: Iterable[str]) -> tuple[list[mk.Army], list[mk.Ship]]:
        """The armies and ships of every kingdom standing on ``labels`` (one query at most)."""
        wanted = sorted({label for label in labels if label})
        if self._every is None:
            missing = [label for label in wanted if label not in self._at_tile]
            if missing:
                armies, ships = self._read_tokens(self._on_tiles(missing))
                for label in missing:
                    self._at_tile[label] = ([a for a in armies if a.tile == label],
                                            [s for s in ships if s.tile == label])
            found = [self._at_tile[label] for label in wanted]
            armies = sorted((a for pair in found for a in pair[0]), key=self._token_order)
            ships = sorted((s for pair in found for s in pair[1]), key=self._token_order)
            return armies, ships
        places = set(wanted)
        return ([a for a in self._every[0] if a.tile in places],
                [s for s in self._every[1] if s.tile in places])

    def ships_at(self, labels: Iterable[str]) -> list[mk.Ship]:
        """The ships of every kingdom on ``labels`` (one query at most; as seen by a ship, its
        army aboard is not read)."""
        wanted = sorted({label for label in labels if label})
        if self._every is not None or all(label in self._at_tile for label in wanted):
            return self.tokens_at(wanted)[1]
        missing = [label for label in wanted if label not in self._ships_at]
        if missing:
            _, ships = self._read_tokens(self._on_tiles(missing), armies=False)
            for label in missing:
                self._ships_at[label] = [s for s in ships if s.tile == label]
        return sorted((s for label in wanted for s in self._ships_at[label]),
                      key=self._token_order)

    def _on_tiles(self, labels: list[str]) -> Scope:
        """Tokens standing on ``labels`` of this map, found by their tile."""
        return _labels_scope(self.map_row.pk, labels)

    def _token_order(self, token: mk.Army | mk.Ship) -> tuple[int, int]:
        return self._rank.get(token.kingdom, len(self._rank)), token.number

    @property
    def map(self) -> mk.MapView:
        """The whole map, read on first use (one query)."""
        if self._map is None:
            recs = [TileRec(*row) for row in
                    Tile.objects.filter(map_id=self.map_row.pk).values_list(*REC_FIELDS)]
            self._remember(recs)
            if self.map_row.kind in OFFSET_GRIDS:
                self._map = _build(self.map_row, recs, recs)
            else:
                self._map = build_map(self.campaign, list(
                    Tile.objects.filter(map_id=self.map_row.pk)))
        return self._map

    def map_around(self, labels: Iterable[str], radius: int = 1) -> mk.MapView:
        """The tiles within ``radius`` steps of ``labels``, each with all its edges: enough for
        the rules about those tiles and their neighbours (MK-ORD-5/6, MK-RES-3, MK-SHIP-3/4).

        Two queries at most, whatever the size of the map; none for tiles an earlier call read
        (positions read are remembered, found or not); the whole map once it is loaded."""
        centres = sorted({label for label in labels if label})
        if self._map is not None or self.map_row.kind not in OFFSET_GRIDS:
            return self.map
        key = ("around", tuple(centres), radius)
        if key not in self._views:
            self.locate(centres)
            spots = [self.positions[label] for label in centres if label in self.positions]
            reach = radius + 1
            wanted = {(x, y) for q, r in spots for x in range(q - reach, q + reach + 1)
                      for y in range(r - reach, r + reach + 1)}
            self._read_positions(wanted)
            recs = sorted((self._tile_recs[p] for p in wanted if p in self._tile_recs),
                          key=lambda t: t.label)
            near = {(x, y) for q, r in spots for x in range(q - radius, q + radius + 1)
                    for y in range(r - radius, r + radius + 1)}
            inside = [t for t in recs if (t.q, t.r) in near]
            self._views[key] = _kept_build(self.map_row, inside, recs)
        return self._views[key]

    def tiles_alone(self, labels: Iterable[str]) -> mk.MapView:
        """The tiles ``labels`` as the rules see them, but without their edges: enough for what
        a tile's own terrain, settlement, controller, features or tower say, not for anything
        about its neighbours. None is read again (see ``read_around``); those not read yet come
        with their neighbours, as ``map_around(labels, 0)`` reads them, in one query, so that
        such a call after this one reads nothing more. From the whole map once it is read (or
        on a map whose neighbours are not fixed offsets)."""
        wanted = sorted({label for label in labels if label})
        if self._map is not None or self.map_row.kind not in OFFSET_GRIDS:
            whole = self.map
            return mk.MapView(tuple(whole.tile(label) for label in wanted if label in whole))
        self.locate(wanted)
        spots = {label: self.positions[label] for label in wanted if label in self.positions}
        self._read_positions({(x, y) for q, r in spots.values() if (q, r) not in self._read_spots
                              for x in range(q - 1, q + 2) for y in range(r - 1, r + 2)})
        recs = [self._tile_recs[spot] for spot in spots.values() if spot in self._tile_recs]
        return mk.MapView(tuple(_kept_state(rec) for rec in recs))

    def read_around(self, radii: Mapping[str, int], alone: Iterable[str] = ()) -> None:
        """Read at once (one query at most) what ``map_around([label], radius)`` reads for each
        label and its radius in ``radii``, and what ``tiles_alone`` reads of the tiles
        ``alone``: later calls of these on these labels, with these radii or less, read
        nothing more (and no call reads a tile twice). Nothing is read once the whole map is,
        or on a map whose neighbours are not fixed offsets."""
        if self._map is not None or self.map_row.kind not in OFFSET_GRIDS:
            return
        alone = list(alone)
        self.locate([*radii, *alone])
        wanted = {self.positions[label] for label in alone if label in self.positions}
        for label, radius in radii.items():
            if label in self.positions:
                q, r = self.positions[label]
                reach = radius + 1
                wanted.update((x, y) for x in range(q - reach, q + reach + 1)
                              for y in range(r - reach, r + reach + 1))
        self._read_positions(wanted)

    def _read_positions(self, wanted: set[tuple[int, int]]) -> None:
        """Read the tiles at the positions of ``wanted`` not asked for yet (one query)."""
        missing = wanted - self._read_spots
        if missing:
            found = _tiles_at(self.map_row.pk, missing)
            self._remember(found)
            self._tile_recs.update(((t.q, t.r), t) for t in found)
            self._read_spots |= missing

    def holdings_map(self, kingdoms: Iterable[int], extra: Iterable[str] = ()) -> mk.MapView:
        """The tiles ``kingdoms`` control, their capitals and the ``extra`` tiles (one query):
        enough for the rules that read a kingdom's holdings, such as income, purchases, recall
        and deployment (MK-WINTER-2, MK-BUY, MK-RECALL, MK-DEPLOY). Each tile lists its edges
        to the other tiles read; its own features (coast, river) are complete."""
        pks = sorted(set(kingdoms))
        wanted = sorted({label for label in extra if label})
        if self._map is not None:
            return self.map
        key = ("holdings", tuple(pks), tuple(wanted))
        for (kind, *parts), view in self._views.items():
            if (kind == "holdings" and set(pks) <= set(parts[0])
                    and all(label in view for label in wanted)):
                return view
        if key not in self._views:
            capitals = [self.kingdom_rows[pk].capital_tile_id for pk in pks
                        if pk in self.kingdom_rows]
            # Each branch is looked up by its own index (the controller's, the primary key,
            # the map's labels), not by scanning the map: the kingdoms' tiles and capitals are
            # on this campaign's map, so only the labels need the map named.
            query = (Q(controller_id__in=pks) | Q(pk__in=[c for c in capitals if c]))
            if wanted:
                query |= Q(map_id=self.map_row.pk, label__in=wanted)
            recs = sorted((TileRec(*row) for row in
                           Tile.objects.filter(query).order_by()
                           .values_list(*REC_FIELDS)), key=lambda t: t.label)
            self._remember(recs)
            self._views[key] = (_build(self.map_row, recs, recs)
                                if self.map_row.kind in OFFSET_GRIDS else self.map)
        return self._views[key]

    def know_holdings(self, pk: int, tiles: Iterable[Tile]) -> None:
        """Every tile kingdom ``pk`` controls, already read as whole rows: ``holdings_map([pk])``
        answers from them without a query when its capital is among them (or it has none)."""
        if (self._map is not None or self.map_row.kind not in OFFSET_GRIDS
                or pk not in self.kingdom_rows):
            return
        tiles = list(tiles)
        capital = self.kingdom_rows[pk].capital_tile_id
        if capital is not None and capital not in {t.pk for t in tiles}:
            return
        recs = sorted((_rec(t) for t in tiles), key=lambda t: t.label)
        self._remember(recs)
        self._views[("holdings", (pk,), ())] = _build(self.map_row, recs, recs)

    def locate(self, labels: Iterable[str]) -> None:
        """Learn the positions of ``labels`` not seen yet (one query)."""
        missing = {label for label in labels if label} - self.positions.keys()
        if missing:
            for pk, label, q, r in Tile.objects.filter(
                    map_id=self.map_row.pk, label__in=missing).order_by().values_list(
                        "pk", "label", "q", "r"):
                self.positions[label] = (q, r)
                self.labels[pk] = label

    def label_of(self, pk: int | None) -> str:
        """The label of the tile with primary key ``pk`` ("" for none)."""
        if not pk:
            return ""
        if pk not in self.labels:
            self.learn_labels([pk])
        return self.labels.get(pk, "")

    def learn_labels(self, pks: Iterable[int | None]) -> None:
        """Read the labels of tiles not seen yet (one query)."""
        missing = {pk for pk in pks if pk} - self.labels.keys()
        if missing:
            for pk, label, q, r in Tile.objects.filter(pk__in=missing).order_by().values_list(
                    "pk", "label", "q", "r"):
                self.labels[pk] = label
                self.positions[label] = (q, r)

    def _remember(self, recs: Iterable[TileRec]) -> None:
        for t in recs:
            self.labels[t.pk] = t.label
            self.positions[t.label] = (t.q, t.r)

    def _by_kingdom(self, name: str, tokens: list[Any]) -> dict[Any, list[Any]]:
        """Tokens by kingdom, built once per list (rebuilt if the list is replaced)."""
        cached = self.__dict__.get(name)
        if cached is None or cached[0] is not tokens or cached[1] != len(tokens):
            index: dict[Any, list[Any]] = {}
            for token in tokens:
                index.setdefault(token.kingdom, []).append(token)
            cached = self.__dict__[name] = (tokens, len(tokens), index)
        return cached[2]  # type: ignore[no-any-return]

    def movers_of(self, kingdom_id: int) -> tuple[mk.Mover, ...]:
        return mk.movers(self.armies_of(kingdom_id), self.ships_of(kingdom_id))

    def tile_by_pk(self, pk: int | None) -> Tile | None:
        if pk is None:
            return None
        return self.tile_rows.by_pk(pk)


def padded(values: list[Any]) -> list[Any]:
    """``values`` with the last repeated up to the next power of two (none for none): what an
    ``IN`` list asks for is the same, and the kept queries of such lists (``kept_values``)
    take a few shapes rather than one for every length."""
    if not values:
        return []
    size = 1 << (len(values) - 1).bit_length()
    return [*values, *[values[-1]] * (size - len(values))]


class Scope(NamedTuple):
    """Which tokens a read asks for: ``where(*values)`` is the condition, and ``shape`` names
    everything else that shapes it (the key its query's text is kept under)."""

    shape: tuple[Any, ...]
    values: tuple[Any, ...]
    where: Callable[..., Q]


def _in_campaign(campaign_id: int) -> Q:
    return Q(campaign_id=campaign_id)


def _campaign_scope(campaign_id: int) -> Scope:
    """Every token of the campaign."""
    return Scope(("campaign",), (campaign_id,), _in_campaign)


def _kingdoms_scope(kingdoms: list[int], tiles: list[int]) -> Scope:
    """The tokens of ``kingdoms``, and any on the tiles with primary keys ``tiles``."""
    pks, on = padded(kingdoms), padded(tiles)
    n = len(pks)

    def where(*values: int) -> Q:
        found = Q(kingdom_id__in=values[:n])
        return found | Q(tile_id__in=values[n:]) if len(values) > n else found

    return Scope(("kingdoms", n, len(on)), (*pks, *on), where)


def _labels_scope(map_id: int, labels: list[str]) -> Scope:
    """The tokens standing on the tiles ``labels`` of the map ``map_id``, found by their tile."""

    def where(map_pk: int, *names: str) -> Q:
        return Q(tile_id__in=Tile.objects.filter(map_id=map_pk, label__in=names).values("pk"))

    names = padded(labels)
    return Scope(("labels", len(names)), (map_id, *names), where)


def _ships_tiles_by_key(sql: str, vendor: str) -> str:
    """A query of ships with their tiles, each ship's tile looked up by its key
    (``kept_sql.looked_up_row_by_row``): at 16x PostgreSQL joined the campaign's 48 ships to
    the tiles by walking 2,300 entries of the tiles' key, 0.55 of the tokens' 0.73 ms."""
    return looked_up_row_by_row(sql, vendor, Ship._meta.db_table, "tile_id",
                                Tile._meta.db_table, ("label", "q", "r"))


def _armies_and_ships(scope: Scope, living: dict[int, int] | None = None,
                      ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The armies and the ships within ``scope`` in one query (a union of both tables, each
    row marked with its table): the armies' rows as ``_read_tokens`` reads them (primary key,
    kingdom, number, on its side, defending, points, allied, then the tile's primary key,
    label and position), the ships' likewise (primary key, kingdom, number, on its side,
    paired army, then the tile's). Columns one table lacks are blank in its rows. Given a
    ``living`` dict, each army's count of units on its list not destroyed comes along (a
    subquery per army) and is left there by the army's primary key. The query's text is kept
    under the scope's shape and whether ``living`` is asked for (``kept_values``)."""

    def query(*values: Any) -> Any:
        where = Q(tile__isnull=False) & scope.where(*values)
        tile_fields = ("tile_id", "tile__label", "tile__q", "tile__r")
        blank = Value(None, output_field=IntegerField())
        alive: Any = blank
        if living is not None:
            alive = Coalesce(Subquery(
                Unit.objects.filter(army_list__army_id=OuterRef("pk"), destroyed_reason="")
                .order_by().values("army_list__army_id").annotate(n=Count("pk")).values("n")),
                Value(0), output_field=IntegerField())
        armies = Army.objects.filter(where).order_by().values_list(
            Value(0, output_field=IntegerField()), "pk", "kingdom_id", "number", "on_side",
            "defending", "points", "is_allied", blank, alive, *tile_fields)
        ships = Ship.objects.filter(where).order_by().values_list(
            Value(1, output_field=IntegerField()), "pk", "kingdom_id", "number", "on_side",
            Value(False, output_field=BooleanField()), Value(0, output_field=IntegerField()),
            Value(False, output_field=BooleanField()), "paired_army_id", blank, *tile_fields)
        return armies.union(ships, all=True)

    army_values: list[tuple[Any, ...]] = []
    ship_values: list[tuple[Any, ...]] = []
    rows = kept_values(("mk", "tokens", scope.shape, living is not None), query, *scope.values,
                       rewrite=_ships_tiles_by_key)
    for kind, pk, kingdom, number, on_side, defending, points, allied, paired, n, *tile in rows:
        if kind == 0:
            army_values.append((pk, kingdom, number, on_side, defending, points, allied, *tile))
            if living is not None:
                living[pk] = n or 0
        else:
            ship_values.append((pk, kingdom, number, on_side, paired, *tile))
    return army_values, ship_values


def _tiles_at(map_id: int, positions: Iterable[tuple[int, int]]) -> list[TileRec]:
    """The tiles at ``positions`` (q, r), in one query on the (map, q, r) index, column by
    column: each column asks for its rows (a range where they run unbroken). The map is named
    in every column's condition so that the database looks each column up in that index rather
    than reading the whole map (SQLite otherwise takes the map's index and scans it).

    The condition is written out here (columns quoted by the database's own rules) rather than
    as one ``Q`` per column: a battle step's page asks for a hundred positions in some forty
    columns, and Django took longer to compile those ``Q`` objects than the database took to
    answer. Its values are whole numbers written into the text (``%d``) rather than parameters:
    the text is kept under the map and the positions (``kept_values``) whichever way, and the
    driver parses a statement of more than fifty parameters again at every ask (a quarter of a
    millisecond for a battle step's hundred), one without any only once."""
    wanted: dict[int, set[int]] = {}
    for x, y in positions:
        wanted.setdefault(x, set()).add(y)
    if not wanted:
        return []
    columns = tuple((x, tuple(sorted(wanted[x]))) for x in sorted(wanted))
    if tile_versions.versioned():
        return _tiles_at_since(map_id, columns)

    def query() -> Any:
        name = connection.ops.quote_name
        table = name(Tile._meta.db_table)
        where = _at_positions(f"{table}.", map_id, columns)
        return Tile.objects.filter(RawSQL(where, (), output_field=BooleanField())).order_by(
        ).values_list(*REC_FIELDS)

    # The query's text is kept under the map and the positions it asks for (``kept_values``):
    # a page drawn again while the tokens stand where they stood compiles nothing. The rows
    # come as the database gives them, each made into its record once (``_rec_of``).
    rows = kept_values(("tiles-at", map_id, columns), query, convert=False)
    return [_rec_of(tuple(row)) for row in rows]


def _at_positions(prefix: str, map_id: int, columns: tuple[tuple[int, tuple[int, ...]], ...]
                  ) -> str:
    """``_tiles_at``'s condition, its columns named after ``prefix`` (a table's name and a dot)
    and quoted by the database's own rules, its values whole numbers written in."""
    name = connection.ops.quote_name
    map_col, q_col, r_col = (f"{prefix}{name(Tile._meta.get_field(f).column)}"
                             for f in ("map", "q", "r"))
    parts: list[str] = []
    for x, rows in columns:
        column = f"{map_col} = %d AND {q_col} = %d" % (map_id, x)
        if rows[-1] - rows[0] + 1 == len(rows):
            parts.append(f"({column} AND {r_col} BETWEEN %d AND %d)" % (rows[0], rows[-1]))
        else:
            marks = ", ".join("%d" % y for y in rows)
            parts.append(f"({column} AND {r_col} IN ({marks}))")
    return f"({' OR '.join(parts)})"


# PostgreSQL: the tiles at some positions, kept under the map and the positions with the map's
# ``tiles_version`` they were read at (campaign/tile_versions.py): while no tile of the map was
# written since, the same records come again and the query sends no row (a battle step's
# hundred tiles: 0.7 ms of PostgreSQL, 0.05 with the token). The statements' texts are kept
# under the same keys; at most ``_AT_KEPT`` of each, the oldest forgotten first.
_AT_KEPT = 256
_AT_SQL: dict[tuple[Any, ...], str] = {}
_AT: dict[tuple[Any, ...], tuple[str, list[TileRec]]] = {}
_AT_COLUMNS = ", ".join(f"x.{connection.ops.quote_name(Tile._meta.get_field(f).column)}"
                        for f in ("id", *REC_FIELDS[1:]))


def _tiles_at_since(map_id: int, columns: tuple[tuple[int, tuple[int, ...]], ...]
                    ) -> list[TileRec]:
    key = (map_id, columns)
    sql = _AT_SQL.get(key)
    if sql is None:
        sql = keep(_AT_SQL, _AT_KEPT, key, tile_versions.statement(
            _AT_COLUMNS, "m.id = %d" % map_id, tiles_where=_at_positions("x.", map_id, columns)))
    recs = tile_versions.kept_unless_written(
        _AT, _AT_KEPT, key, sql, (), lambda rows: [_rec_of(tuple(row)) for row in rows])
    return list(recs)


def clock_of(campaign: Campaign) -> mk.Clock:
    """The rules' clock; during setup, the first clock of play that setup leads into."""
    if campaign.season == "setup":
        return mk.initial_clock()
    return mk.Clock(campaign.year, campaign.season or mk.SUMMER, campaign.month,
                    campaign.phase or "A", campaign.sub_phase or "")


def tile_state(tile: Tile | TileRec, edges: tuple[mk.EdgeView, ...]) -> mk.TileState:
    features = tile.features
    sides = {f for feats in tile.edges.values() for f in feats}
    data = tile.data or {}
    terrain = tile.terrain
    return mk.TileState(
        label=tile.label,
        terrain=terrain,
        settlement=tile.settlement,
        controller=tile.controller_id,
        explored=tile.explored,
        is_start=tile.is_start,
        has_river="river" in features or "river" in sides,
        is_coastal="coast" in features or "coast" in sides,
        is_open_water=terrain in WATER_TERRAINS,
        is_marsh=terrain == "marsh",
        has_forest=terrain == "forest",
        has_mountains=terrain == "mountains",
        wizard_tower=bool(data.get("wizard_tower")),
        raze_pending=bool(data.get("raze_pending")),
        edges=edges,
    )


_EMPTY: frozenset[str] = frozenset()
_SIDE_CACHE: dict[tuple[str, ...], frozenset[str]] = {}


def _side(features: list[str] | None) -> frozenset[str]:
    """The rules' features of one side of an edge (shared frozensets: most sides are alike)."""
    if not features:
        return _EMPTY
    key = tuple(features)
    found = _SIDE_CACHE.get(key)
    if found is None:
        found = _SIDE_CACHE[key] = frozenset(features) & mk.EDGE_FEATURES
    return found


def _build(game_map: Map, tiles: Iterable[Tile | TileRec],
           known: Iterable[Tile | TileRec]) -> IndexedMapView:
    """``tiles`` with their shared edges, each side's features seen from both tiles; neighbours
    are looked up among ``known`` (which holds ``tiles``)."""
    grid = grid_for(game_map)
    by_pos = {(t.q, t.r): t for t in known}
    sides = 6 if game_map.kind == "hex" else 4
    # Direction offsets and opposites once per map, not once per edge.
    steps = [grid.step(0, 0, d) for d in range(sides)]
    opposite = [str(grid.opposite(d)) for d in range(sides)]
    empty = _EMPTY
    states = []
    for tile in tiles:
        edges = []
        tile_edges = tile.edges
        q, r = tile.q, tile.r
        for d, (dq, dr) in enumerate(steps):
            neighbour = by_pos.get((q + dq, r + dr))
            if neighbour is None:
                continue
            this_side = tile_edges.get(str(d))
            other_side = neighbour.edges.get(opposite[d])
            edges.append(mk.EdgeView(
                neighbour.label,
                _side(this_side) if this_side else empty,
                _side(other_side) if other_side else empty,
            ))
        states.append(tile_state(tile, tuple(edges)))
    return IndexedMapView(tuple(states))


def _kept_build(game_map: Map, tiles: list[TileRec], known: list[TileRec]) -> IndexedMapView:
    """``_build(game_map, tiles, known)``, kept under the grid and the rows of the tiles when
    every one was read by position (see ``TileRec.raw``)."""
    if any(t.raw is None for t in known):
        return _build(game_map, tiles, known)
    key = (game_map.kind, game_map.width, game_map.height, game_map.orientation,
           tuple(t.raw for t in tiles), tuple(t.raw for t in known))
    found = _BUILT.get(key)
    if found is None:
        found = keep(_BUILT, VIEWS_KEPT, key, _build(game_map, tiles, known))
    return found


def build_map(campaign: Campaign, tiles: list[Tile]) -> mk.MapView:
    """Tiles with their shared edges: each side's features, seen from both tiles."""
    game_map = campaign.map
    if game_map.kind in OFFSET_GRIDS:
        return _build(game_map, tiles, tiles)
    grid = grid_for(game_map, tiles)
    by_pos = {(t.q, t.r): t for t in tiles}
    sides = 6 if game_map.kind == "hex" else 4
    steps = [grid.step(0, 0, d) for d in range(sides)]
    opposite = [str(grid.opposite(d)) for d in range(sides)]
    states = []
    for tile in tiles:
        edges = []
        for d, (dq, dr) in enumerate(steps):
            neighbour = by_pos.get((tile.q + dq, tile.r + dr))
            if neighbour is None:
                continue
            edges.append(mk.EdgeView(neighbour.label,
                                     _side(tile.edges.get(str(d))),
                                     _side(neighbour.edges.get(opposite[d]))))
        states.append(tile_state(tile, tuple(edges)))
    return IndexedMapView(tuple(states))


def _balance(resource: str) -> Any:
    """A kingdom's cached balance of ``resource`` (0 where nothing was ever booked)."""
    return Coalesce(Subquery(Balance.objects.filter(kingdom_id=OuterRef("pk"), resource=resource)
                             .values("amount")[:1]), Value(0), output_field=IntegerField())


def load_state(campaign: Campaign, *, lock: bool = False, data: bool = False,
               stocks: bool = False) -> MKState:
    """The campaign's kingdoms and its map's row (one query); tokens and tiles are read when
    asked for. With ``data``, every kingdom's ``data`` comes with them (what a page showing
    each kingdom's race reads anyway, see ``KingdomRows.values_of``); with ``stocks``, each
    kingdom's gold and food (``MKState.stocks``, for a page that shows them: a service reads
    them when it needs them, after what it wrote).

    Armies and ships come as plain rows, their models read when written (see ``TokenRows``):
    ``armies_of``/``ships_of``/``movers_of`` read one kingdom's, ``tokens_at`` those on some
    tiles, ``armies``/``ships`` every one. The map likewise: ``MKState.map``, ``map_around``
    and ``holdings_map``."""
    if lock:
        campaign = lock_campaign(campaign.pk)
    labels: dict[int, str] = {}
    positions: dict[str, tuple[int, int]] = {}

    def seen(pk: int | None, label: str | None, q: int | None, r: int | None) -> None:
        if pk and label is not None:
            labels[pk] = label
            if q is not None and r is not None:
                positions[label] = (q, r)

    width = len(KINGDOM_FIELDS)
    # The map's row comes along with each kingdom's (unless the campaign already holds it).
    map_known = Campaign.map.is_cached(campaign)  # type: ignore[attr-defined]
    map_fields = () if map_known else tuple(f"campaign__map__{name}" for name in MAP_FIELDS)
    extra = ("data",) if data else ()
    balances = ("mk_gold", "mk_food") if stocks else ()
    # The query's text is kept (``kept_values``): it depends on the campaign and on these columns.
    kingdom_values = kept_values(
        ("kingdoms", campaign.pk, bool(extra), bool(map_fields), stocks),
        lambda: Kingdom.objects.filter(campaign=campaign).annotate(
            **({"mk_gold": _balance(eco.GOLD), "mk_food": _balance(eco.FOOD)} if stocks else {}),
        ).values_list(
            *KINGDOM_FIELDS, "start_tile__label", "start_tile__q", "start_tile__r",
            "capital_tile__label", "capital_tile__q", "capital_tile__r", *extra, *balances,
            *map_fields))
    if map_known or not kingdom_values or kingdom_values[0][-len(MAP_FIELDS)] is None:
        map_row = campaign.map  # read here when the campaign has no kingdom yet (or no map)
    else:
        map_row = Map.from_db(Map.objects.db, list(MAP_FIELDS),
                              kingdom_values[0][-len(MAP_FIELDS):])
        Campaign.map.related.set_cached_value(campaign, map_row)  # type: ignore[attr-defined]
    kingdom_rows = KingdomRows(row[:width] for row in kingdom_values)
    if data:
        pk_at = KINGDOM_FIELDS.index("id")
        kingdom_rows._later["data"] = {row[pk_at]: row[width + 6] for row in kingdom_values}
    at = {name: n for n, name in enumerate(KINGDOM_FIELDS)}
    for row in kingdom_values:
        seen(row[at["start_tile_id"]], *row[width:width + 3])
        seen(row[at["capital_tile_id"]], *row[width + 3:width + 6])
    kingdoms = {
        row[at["id"]]: mk.Kingdom(row[at["id"]], row[at["name"]],
                                  labels.get(row[at["start_tile_id"]], ""),
                                  labels.get(row[at["capital_tile_id"]]))
        for row in kingdom_values
    }
    position, name = at["order_position"], at["name"]
    order = [row[at["id"]] for row in sorted(
        kingdom_values, key=lambda row: (row[position] is None, row[position] or 0, row[name]))]
    gold = width + 6 + len(extra)
    return MKState(
        campaign=campaign,
        options=mk.MKOptions.from_dict(campaign.options),
        clock=clock_of(campaign),
        kingdoms=kingdoms,
        order=order,
        tile_rows=TileRows(map_row.pk),
        kingdom_rows=kingdom_rows,
        map_row=map_row,
        labels=labels,
        positions=positions,
        stocks={row[at["id"]]: (row[gold], row[gold + 1]) for row in kingdom_values}
        if stocks else None,
    )
