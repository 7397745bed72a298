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
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db.models import F, Q

from battles.models import Army, Ship
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.rules import mighty_kingdoms as mk
from campaign.services import grid_for

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


REC_FIELDS = ("pk", "q", "r", "label", "terrain", "features", "edges", "settlement",
              "controller_id", "explored", "is_start", "data")


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
        for tile in Tile.objects.filter(map_id=self._map_id, label__in=wanted):
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
    armies: list[mk.Army]
    ships: list[mk.Ship]
    order: list[int]
    tile_rows: TileRows = field(repr=False)
    kingdom_rows: dict[int, Kingdom] = field(repr=False)
    army_rows: dict[int, Army] = field(repr=False)
    ship_rows: dict[int, Ship] = field(repr=False)
    map_row: Map = field(repr=False)
    labels: dict[int, str] = field(default_factory=dict, repr=False)
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _map: mk.MapView | None = field(default=None, repr=False)
    _views: dict[Any, mk.MapView] = field(default_factory=dict, repr=False)

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

        Two queries at most, whatever the size of the map; the whole map once it is loaded.
        """
        centres = sorted({label for label in labels if label})
        if self._map is not None or self.map_row.kind not in OFFSET_GRIDS:
            return self.map
        key = ("around", tuple(centres), radius)
        if key not in self._views:
            self.locate(centres)
            spots = [self.positions[label] for label in centres if label in self.positions]
            reach = radius + 1
            query = Q()
            for q, r in spots:
                query |= Q(q__range=(q - reach, q + reach), r__range=(r - reach, r + reach))
            recs = []
            if spots:
                recs = [TileRec(*row) for row in
                        Tile.objects.filter(query, map_id=self.map_row.pk)
                        .values_list(*REC_FIELDS)]
            self._remember(recs)
            inside = [t for t in recs if any(abs(t.q - q) <= radius and abs(t.r - r) <= radius
                                             for q, r in spots)]
            self._views[key] = _build(self.map_row, inside, recs)
        return self._views[key]

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
            query = Q(controller_id__in=pks) | Q(pk__in=[c for c in capitals if c])
            if wanted:
                query |= Q(label__in=wanted)
            recs = [TileRec(*row) for row in
                    Tile.objects.filter(query, map_id=self.map_row.pk)
                    .values_list(*REC_FIELDS)]
            self._remember(recs)
            self._views[key] = (_build(self.map_row, recs, recs)
                                if self.map_row.kind in OFFSET_GRIDS else self.map)
        return self._views[key]

    def locate(self, labels: Iterable[str]) -> None:
        """Learn the positions of ``labels`` not seen yet (one query)."""
        missing = {label for label in labels if label} - self.positions.keys()
        if missing:
            for pk, label, q, r in Tile.objects.filter(
                    map_id=self.map_row.pk, label__in=missing).values_list("pk", "label", "q",
                                                                           "r"):
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
            for pk, label, q, r in Tile.objects.filter(pk__in=missing).values_list(
                    "pk", "label", "q", "r"):
                self.labels[pk] = label
                self.positions[label] = (q, r)

    def _remember(self, recs: Iterable[TileRec]) -> None:
        for t in recs:
            self.labels[t.pk] = t.label
            self.positions[t.label] = (t.q, t.r)

    def armies_of(self, kingdom_id: int) -> list[mk.Army]:
        return [a for a in self.armies if a.kingdom == kingdom_id]

    def ships_of(self, kingdom_id: int) -> list[mk.Ship]:
        return [s for s in self.ships if s.kingdom == kingdom_id]

    def movers_of(self, kingdom_id: int) -> tuple[mk.Mover, ...]:
        return mk.movers(self.armies_of(kingdom_id), self.ships_of(kingdom_id))

    def tile_by_pk(self, pk: int | None) -> Tile | None:
        if pk is None:
            return None
        return self.tile_rows.by_pk(pk)


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


def load_state(campaign: Campaign, *, lock: bool = False) -> MKState:
    """The campaign's kingdoms, armies and ships (one query each); the map is read when asked
    for (see ``MKState.map``, ``map_around`` and ``holdings_map``)."""
    if lock:
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    map_row = campaign.map
    labels: dict[int, str] = {}
    positions: dict[str, tuple[int, int]] = {}

    def seen(pk: int | None, label: str | None, q: int | None, r: int | None) -> None:
        if pk and label is not None:
            labels[pk] = label
            if q is not None and r is not None:
                positions[label] = (q, r)

    kingdom_rows = {
        k.pk: k for k in Kingdom.objects.filter(campaign=campaign).annotate(
            start_label=F("start_tile__label"), start_q=F("start_tile__q"),
            start_r=F("start_tile__r"), capital_label=F("capital_tile__label"),
            capital_q=F("capital_tile__q"), capital_r=F("capital_tile__r"))
    }
    for k in kingdom_rows.values():
        seen(k.start_tile_id, k.start_label, k.start_q, k.start_r)  # type: ignore[attr-defined]
        seen(k.capital_tile_id, k.capital_label,  # type: ignore[attr-defined]
             k.capital_q, k.capital_r)  # type: ignore[attr-defined]
    kingdoms = {
        k.pk: mk.Kingdom(k.pk, k.name, labels.get(k.start_tile_id, ""),
                         labels.get(k.capital_tile_id))
        for k in kingdom_rows.values()
    }
    tile_fields = {"tile_label": F("tile__label"), "tile_q": F("tile__q"), "tile_r": F("tile__r")}
    army_rows = {a.pk: a for a in Army.objects.filter(campaign=campaign, tile__isnull=False)
                 .annotate(**tile_fields)}
    ship_rows = {s.pk: s for s in Ship.objects.filter(campaign=campaign, tile__isnull=False)
                 .annotate(**tile_fields)}
    for token in (*army_rows.values(), *ship_rows.values()):
        seen(token.tile_id, token.tile_label,  # type: ignore[attr-defined]
             token.tile_q, token.tile_r)  # type: ignore[attr-defined]
    paired = {s.paired_army_id: s.pk for s in ship_rows.values() if s.paired_army_id}
    armies = [
        mk.Army(a.pk, a.kingdom_id, a.number, labels[a.tile_id], on_side=a.on_side,
                defending=a.defending, paired_ship=paired.get(a.pk), points=a.points,
                is_allied=a.is_allied)
        for a in army_rows.values()
    ]
    ships = [
        mk.Ship(s.pk, s.kingdom_id, s.number, labels[s.tile_id], on_side=s.on_side,
                paired_army=s.paired_army_id)
        for s in ship_rows.values()
    ]
    order = [k.pk for k in sorted(kingdom_rows.values(),
                                  key=lambda k: (k.order_position is None, k.order_position or 0,
                                                 k.name))]
    return MKState(
        campaign=campaign,
        options=mk.MKOptions.from_dict(campaign.options),
        clock=clock_of(campaign),
        kingdoms=kingdoms,
        armies=armies,
        ships=ships,
        order=order,
        tile_rows=TileRows(map_row.pk),
        kingdom_rows=kingdom_rows,
        army_rows=army_rows,
        ship_rows=ship_rows,
        map_row=map_row,
        labels=labels,
        positions=positions,
    )
