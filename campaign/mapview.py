"""Turn a campaign's map rows into the plain data the SVG renderer draws.

Everything is loaded in a fixed number of queries (tiles, kingdoms, armies, ships), however large
the map, so the map page's cost grows only with the drawing itself.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import ne
from typing import Any, Callable, NamedTuple

from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from campaign import mapsvg, tile_versions
from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.rules import geometry

TILE_SIZE = 30.0


class TileRow(NamedTuple):
    """What the map page needs of a tile besides its drawing."""

    label: str
    q: int
    r: int
    terrain: str
    adjacent: list[str]


@dataclass(frozen=True)
class LoadedMap:
    """A campaign's map as the pages draw it. A campaign without a map yet (made in the admin,
    or imported without one) loads as an empty, unsaved map in its system's style:
    ``exists`` is False. ``adjacent`` holds the borders of each tile that has any (territory
    maps)."""

    game_map: Map
    grid: geometry.Grid
    kingdoms: dict[int, Kingdom]
    views: list[mapsvg.TileView]
    adjacent: dict[str, list[str]] = field(default_factory=dict)
    # What ``render`` may reuse of earlier drawings of this map (``load_map(reuse=True)``).
    reuse: dict[Any, dict[int, tuple]] | None = field(default=None, repr=False, compare=False)
    # The views with what they were made of, as ``load_map(reuse=True)`` keeps them.
    kept: "_Kept | None" = field(default=None, repr=False, compare=False)

    @property
    def tiles(self) -> list[TileRow]:
        return [TileRow(v.label, v.q, v.r, v.terrain, list(self.adjacent.get(v.label, ())))
                for v in self.views]

    @property
    def exists(self) -> bool:
        return self.game_map.pk is not None

    def worked_out(self, key: tuple, make: Callable[[], Any]) -> Any:
        """``make()``, kept with views kept by ``load_map(reuse=True)`` under ``key``: what a
        caller works out of exactly these views and of nothing but ``key`` (kept as made: not
        to be changed)."""
        kept = self.kept
        if kept is None or kept.views is not self.views:
            return make()
        value = kept.worked_out.get(key)
        if value is None:
            if len(kept.worked_out) >= _SVGS_MOST:
                kept.worked_out.clear()
            value = kept.worked_out[key] = make()
        return value

    def shown(self) -> "Shown":
        """What appears on the map, for its legend (worked out once for views kept by
        ``load_map(reuse=True)``)."""
        kept = self.kept
        if kept is not None and kept.views is self.views:
            if not kept.shown:
                kept.shown.append(self._shown())
            return kept.shown[0].copy()
        return self._shown()

    def _shown(self) -> "Shown":
        views = self.views
        shown = Shown()
        shown.terrains = {view.terrain for view in views}
        shown.settlements = {view.settlement for view in views if view.settlement}
        # Views loaded together share their edges mappings (load_map): each looked at once.
        edges = {id(view.edges): view.edges for view in views if view.edges}
        for mapping in edges.values():
            for features in mapping.values():
                shown.edge_features.update(features)
        for view in views:
            if view.markers:
                shown.markers.update(m.kind for m in view.markers)
        shown.start = any(view.is_start for view in views)
        shown.unexplored = not all(view.explored for view in views)
        return shown


@dataclass
class Shown:
    terrains: set[str] = field(default_factory=set)
    settlements: set[str] = field(default_factory=set)
    edge_features: set[str] = field(default_factory=set)
    markers: set[str] = field(default_factory=set)
    start: bool = False
    unexplored: bool = False

    def copy(self) -> "Shown":
        return Shown(set(self.terrains), set(self.settlements), set(self.edge_features),
                     set(self.markers), self.start, self.unexplored)


def blank_map(campaign: Campaign) -> Map:
    """The unsaved stand-in for a campaign that has no map yet."""
    style = campaign.system.map_style
    return Map(campaign=campaign, kind=style.kind, orientation=style.orientation,
               width=style.width, height=style.height)


# The columns of a tile that its view is made of, as ``_read_tiles`` reads them (the JSON ones as
# their text).
_COLUMNS = ("id", "q", "r", "label", "terrain", Cast("features", TextField()),
            Cast("edges", TextField()), Cast("adjacent", TextField()), "settlement",
            "controller_id", "explored", "is_start")


def _read_tiles(game_map: Map) -> list[tuple]:
    """The map's tiles as plain rows (``_COLUMNS``, in the map's order), in one query.

    Plain rows, run on the cursor: building thousands of model instances, or even the ORM's
    rows, was the page's main cost. The rows are compared as read with the ones a kept drawing
    was made of, so nothing is converted here (SQLite answers the flags as 0 and 1:
    ``_Maker.view`` reads them as truth values)."""
    if game_map.pk is None:
        return []
    return kept_values(("mapview.tiles",), _tiles, game_map.pk, convert=False)


def _tiles(map_id: int) -> QuerySet[Any]:
    return Tile.objects.filter(map_id=map_id).values_list(*_COLUMNS)


# The map's tiles, in one query that returns them only when one was written since the kept
# views were read (PostgreSQL: campaign/tile_versions.py).
_TILES_SINCE_SQL = tile_versions.statement(
    "x.id, x.q, x.r, x.label, x.terrain, x.features::text, x.edges::text, x.adjacent::text, "
    "x.settlement, x.controller_id, x.explored, x.is_start", "m.id = %s", "t.label")


def _read_tiles_since(game_map: Map, base: "_Kept | None") -> tuple[list[tuple], str | None]:
    """The map's tiles as ``_read_tiles`` gives them, with the map's ``tiles_version``
    (PostgreSQL; None elsewhere), in one query: while no tile was written since ``base`` (views
    kept with that version) was read, ``base``'s rows, read no more."""
    if game_map.pk is None:
        return [], None
    if not tile_versions.versioned():
        return _read_tiles(game_map), None
    held = base.versions if base is not None else None
    rows, versions = tile_versions.tiles_unless_held(_TILES_SINCE_SQL, [game_map.pk], held)
    return (base.rows if rows is None else rows), versions


def _armies(campaign_id: int) -> QuerySet[Any]:
    from battles.models import Army

    return Army.objects.filter(campaign_id=campaign_id, tile__isnull=False).values_list(
        "number", "kingdom_id", "tile_id", "on_side", "defending")


@dataclass(eq=False)
class _Kept:
    """A map's views as last loaded with ``reuse``, with everything they were made of: the rows
    read (``rows``) and, for every tile, its owner's colour and name, its counters, whether it
    is a capital, and the tile selected (``context``). Never changed once made: a load that
    finds anything different makes a new one, sharing the views of the tiles it left alone.

    ``svgs``, ``shown`` and ``worked_out`` keep what was drawn and worked out of exactly these
    views (``render``, ``LoadedMap.shown``, ``LoadedMap.worked_out``)."""

    rows: list[tuple]
    context: tuple[dict, dict, frozenset, str | None]
    views: list[mapsvg.TileView]
    pks: list[int]
    controllers: list[int | None]
    labels: list[str]
    adjacency: dict[str, list[str]]
    grid: Any = None
    # The map's tiles_version the rows were read at (PostgreSQL, ``_read_tiles_since``): None
    # where not known.
    versions: str | None = None
    svgs: dict[tuple, str] = field(default_factory=dict)
    shown: list["Shown"] = field(default_factory=list)
    worked_out: dict[tuple, Any] = field(default_factory=dict)


# Per map (the last few loaded with ``reuse``): its views as last loaded without a tile selected
# ("plain") and with one ("selected"), and the tiles drawn, by view (mapsvg.render_svg's
# ``reuse``), by drawing ("drawings").
_REUSED: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
_REUSED_MOST = 8
_REUSED_LOCK = threading.Lock()
# How many whole drawings of one set of views are kept (``render``: the page, the download...).
_SVGS_MOST = 4


def _reused(key: tuple) -> dict[str, Any]:
    with _REUSED_LOCK:
        kept = _REUSED.get(key)
        if kept is None:
            kept = _REUSED[key] = {"drawings": {}, "plain": None, "selected": None}
        _REUSED.move_to_end(key)
        while len(_REUSED) > _REUSED_MOST:
            _REUSED.popitem(last=False)
    return kept


class _Maker:
    """Makes the view of a tile from its row and what the rest of the campaign says of it.
    Equal feature and edge texts decode once into one shared (read-only) value: views loaded
    together share their edges mappings (``LoadedMap.shown``, mapsvg.render_svg)."""

    def __init__(self, territory: bool, shapes: dict[str, str], owners: dict, markers: dict,
                 capitals: frozenset, selected: str | None) -> None:
        self.territory = territory
        self.shapes = shapes
        self.owners = owners
        self.markers = markers
        self.capitals = capitals
        self.selected = selected
        self.feature_sets: dict[str, frozenset[str]] = {}
        self.edge_maps: dict[str, dict[int | str, frozenset[str]]] = {}

    def view(self, row: tuple) -> mapsvg.TileView:
        (pk, q, r, label, terrain, features, edges, _adjacent, settlement, controller_id,
         explored, is_start) = row
        colour, name = self.owners.get(controller_id, _NO_OWNER) if controller_id else _NO_OWNER
        shape = self.shapes.get(settlement, "marker") if settlement else ""
        if settlement and pk in self.capitals:
            # A kingdom's capital shows the capital's star, whatever its settlement.
            settlement = mapsvg.CAPITAL
        feature_set = self.feature_sets.get(features)
        if feature_set is None:
            feature_set = self.feature_sets[features] = frozenset(json.loads(features))
        edge_map = self.edge_maps.get(edges)
        if edge_map is None:
            decoded = json.loads(edges)
            edge_map = self.edge_maps[edges] = (
                {d: frozenset(f) for d, f in decoded.items()} if self.territory else
                {int(d): frozenset(f) for d, f in decoded.items() if d.isdigit()})
        return mapsvg.tile_view(label, q, r, terrain, feature_set, edge_map, settlement, colour,
                                name, bool(explored), bool(is_start),
                                self.markers.get(pk, ()), label == self.selected, shape)


_NO_OWNER = (None, "")


def _made(rows: list[tuple], maker: _Maker, context: tuple) -> _Kept:
    """Every tile's view made afresh."""
    view = maker.view
    views = [view(row) for row in rows]
    adjacency = {row[3]: json.loads(row[7]) for row in rows if row[7] != "[]"}
    return _Kept(rows, context, views, [row[0] for row in rows], [row[9] for row in rows],
                 [row[3] for row in rows], adjacency)


def _changed(before: dict, after: dict) -> set:
    """The keys whose values differ between two mappings (present in one only included)."""
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def _remade(base: _Kept | None, rows: list[tuple], maker: _Maker, context: tuple,
            versions: str | None = None) -> _Kept:
    """The views of ``rows`` (read at the map's ``tiles_version`` ``versions``) in
    ``context``: ``base`` itself when nothing it was made of changed, else a new ``_Kept`` that
    remakes only the views of the tiles whose row, owner, counters, capital or selection
    changed."""
    if base is None or len(base.rows) != len(rows):
        return replace(_made(rows, maker, context), versions=versions)
    count = len(rows)
    changed: set[int] = set()
    if rows != base.rows:
        changed.update(compress(range(count), map(ne, rows, base.rows)))
    else:
        rows = base.rows
    owners, markers, capitals, selected = context
    was_owners, was_markers, was_capitals, was_selected = base.context
    if owners != was_owners:
        moved = _changed(was_owners, owners)
        changed.update(compress(range(count), map(moved.__contains__, base.controllers)))
    tiles = set()
    if markers != was_markers:
        tiles |= _changed(was_markers, markers)
    if capitals != was_capitals:
        tiles |= capitals ^ was_capitals
    if tiles:
        changed.update(compress(range(count), map(tiles.__contains__, base.pks)))
    if selected != was_selected:
        ringed = {selected, was_selected} - {None}
        changed.update(compress(range(count), map(ringed.__contains__, base.labels)))
    if not changed:
        if versions != base.versions:
            # The same rows, written again (or read at another moment): the same views.
            return replace(base, versions=versions)
        return base
    views, pks = base.views.copy(), base.pks.copy()
    controllers, labels = base.controllers.copy(), base.labels.copy()
    adjacency = base.adjacency.copy()
    for i in changed:
        adjacency.pop(labels[i], None)
    view = maker.view
    for i in sorted(changed):
        row = rows[i]
        views[i] = view(row)
        pks[i], labels[i], controllers[i] = row[0], row[3], row[9]
        if row[7] != "[]":
            adjacency[row[3]] = json.loads(row[7])
    return _Kept(rows, context, views, pks, controllers, labels, adjacency, versions=versions)


def _kingdoms(campaign_id: int) -> QuerySet[Kingdom]:
    return Kingdom.objects.filter(campaign_id=campaign_id)


def load_map(campaign: Campaign, *, selected: str | None = None,
             game_map: Map | None = None, reuse: bool = False) -> LoadedMap:
    """The campaign's map, with ``selected`` (a tile label) ringed. ``game_map``: its map row
    (or ``blank_map``) when the caller has read it already.

    ``reuse`` (the map pages): the views are kept with everything they were made of (each
    tile's row as read, its owner's colour and name, its counters, whether it is a capital
    and selected) and reused by later loads of the same map in this worker: a tile's view is
    made again only when something it is made of changed, and so is its drawing (``render``);
    when nothing did, the whole drawing and its legend's contents are reused (``render``,
    ``LoadedMap.shown``). A page drawn again after an event draws only the tiles the event
    changed. Keyed by content, not by time: a change made anywhere (an event, the admin) is
    drawn at once."""
    if game_map is None:
        game_map = Map.objects.filter(campaign=campaign).first() or blank_map(campaign)
    kingdoms = {k.pk: k for k in kept_rows(("mapview.kingdoms",), _kingdoms, campaign.pk)}
    capitals = frozenset(k.capital_tile_id for k in kingdoms.values() if k.capital_tile_id)
    slot = base = None
    if reuse and game_map.pk is not None:
        slot = _reused((campaign.pk, campaign.system.slug, game_map.pk, game_map.kind,
                        game_map.orientation, game_map.width, game_map.height))
        which, other = ("plain", "selected") if selected is None else ("selected", "plain")
        base = slot[which] or slot[other]
        rows, versions = _read_tiles_since(game_map, base)
    else:
        rows, versions = _read_tiles(game_map), None
    found: dict[int, list[mapsvg.Marker]] = defaultdict(list)
    armies = kept_values(("mapview.armies",), _armies, campaign.pk)
    for number, kingdom_id, tile_id, on_side, defending in armies:
        kingdom = kingdoms[kingdom_id]
        side = " (on its side)" if on_side else ""
        found[tile_id].append(
            mapsvg.Marker(str(number), kingdom.colour, "army",
                          f"{kingdom.name} army {number}{side}", on_side=bool(on_side),
                          defending=bool(defending))
        )
    # Counters only one system has (ships, say) come from its shell (RuleSystem.shell).
    extra_markers = campaign.system.hook("map_markers")
    if extra_markers is not None:
        for tile_id, marker in extra_markers(campaign, kingdoms):
            found[tile_id].append(marker)
    markers = {pk: tuple(items) for pk, items in found.items()}
    # Grids key edges by direction, territory maps by the neighbour's label.
    territory = game_map.kind == "territory"
    system = campaign.system
    owners = {pk: (k.colour, k.name) for pk, k in kingdoms.items()}
    shapes = {c.slug: system.settlement_shape(c.slug) for c in system.settlements}
    maker = _Maker(territory, shapes, owners, markers, capitals, selected)
    context = (owners, markers, capitals, selected)
    drawings = None
    if slot is not None:
        kept = _remade(base, rows, maker, context, versions)
        slot[which] = kept
        drawings = slot["drawings"]
    else:
        kept = _made(rows, maker, context)
    loaded = LoadedMap(game_map, None, kingdoms, kept.views,  # type: ignore[arg-type]
                       kept.adjacency, drawings, kept if drawings is not None else None)
    grid = kept.grid
    if grid is None:
        from campaign.services import grid_for

        grid = grid_for(game_map, loaded.tiles if territory else ())
        if territory:
            kept.grid = grid  # made of the tiles' rows: kept with them
    return replace(loaded, grid=grid)


def render(campaign: Campaign, loaded: LoadedMap, *, tile_url: str | None, eco: bool = False,
           only: set[str] | None = None) -> str:
    """The map's SVG (mapsvg.render_svg). Views kept by ``load_map(reuse=True)`` keep their
    drawings: drawn again with the same arguments (address, paint, name, palette, ``only``),
    the same views give the same drawing, answered as it was made."""
    palette = campaign.system.palette()
    kept = loaded.kept if loaded.kept is not None and loaded.kept.views is loaded.views else None
    key = (tile_url, eco, campaign.name, None if only is None else frozenset(only),
           tuple(palette.items()))
    if kept is not None:
        svg = kept.svgs.get(key)
        if svg is not None:
            return svg
    reuse = None
    if loaded.reuse is not None:
        if len(loaded.reuse) > _SVGS_MOST * 2:
            loaded.reuse.clear()
        reuse = loaded.reuse.setdefault((tile_url, eco, campaign.name), {})
        if len(reuse) > 2 * len(loaded.views) + 64:
            reuse.clear()
    svg = mapsvg.render_svg(
        loaded.grid,
        loaded.views,
        size=TILE_SIZE,
        palette=palette,
        tile_url=tile_url,
        eco=eco,
        only=only,
        title=f"Map of {campaign.name}",
        reuse=reuse,
    )
    if kept is not None:
        if len(kept.svgs) >= _SVGS_MOST:
            kept.svgs.clear()
        kept.svgs[key] = svg
    return svg


def nearest_edge(grid: geometry.Grid, q: int, r: int, x: float, y: float,
                 label: str = "") -> int | str | None:
    """The edge of tile (q, r) closest to the point (x, y) in SVG units, for the edge brush: a
    direction on grids; on territory maps (where ``label`` names the tile) the neighbour's label,
    or None when the territory has no border to pick."""
    if isinstance(grid, geometry.TerritoryGraph):
        keys: list[int | str] = list(grid.neighbours(label)) if grid.contains(label) else []
    else:
        keys = list(range(6 if isinstance(grid, geometry.HexGrid) else 4))
    best, best_d = None, float("inf")
    for d in keys:
        if isinstance(grid, geometry.TerritoryGraph):
            (x1, y1), (x2, y2) = grid.edge_points(label, d, TILE_SIZE)
        else:
            (x1, y1), (x2, y2) = grid.edge_points(q, r, d, TILE_SIZE)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dist = (mx - x) ** 2 + (my - y) ** 2
        if dist < best_d:
            best, best_d = d, dist
    return best
