"""Turn a campaign's map rows into the plain data the SVG renderer draws.

Everything is loaded in a fixed number of queries (tiles, kingdoms, armies, ships), however large
the map, so the map page's cost grows only with the drawing itself.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from django.db.models import TextField
from django.db.models.functions import Cast

from campaign import mapsvg
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

    @property
    def tiles(self) -> list[TileRow]:
        return [TileRow(v.label, v.q, v.r, v.terrain, list(self.adjacent.get(v.label, ())))
                for v in self.views]

    @property
    def exists(self) -> bool:
        return self.game_map.pk is not None

    def shown(self) -> "Shown":
        """What appears on the map, for its legend."""
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


def blank_map(campaign: Campaign) -> Map:
    """The unsaved stand-in for a campaign that has no map yet."""
    style = campaign.system.map_style
    return Map(campaign=campaign, kind=style.kind, orientation=style.orientation,
               width=style.width, height=style.height)


# Per map (the last few loaded with ``reuse``): the views made, by everything each was made
# of, and the tiles drawn, by view (mapsvg.render_svg's ``reuse``), by drawing.
_REUSED: OrderedDict[tuple, tuple[dict[tuple, mapsvg.TileView], dict[Any, dict[int, tuple]]]] \
    = OrderedDict()
_REUSED_MOST = 8
_REUSED_LOCK = threading.Lock()


def _reused(key: tuple, tiles: int) -> tuple[dict[tuple, mapsvg.TileView],
                                             dict[Any, dict[int, tuple]]]:
    with _REUSED_LOCK:
        kept = _REUSED.get(key)
        if kept is None:
            kept = _REUSED[key] = ({}, {})
        _REUSED.move_to_end(key)
        while len(_REUSED) > _REUSED_MOST:
            _REUSED.popitem(last=False)
    if len(kept[0]) > 2 * tiles + 64:
        kept[0].clear()  # mostly views of tiles as they were: made again as needed
    return kept


def load_map(campaign: Campaign, *, selected: str | None = None,
             game_map: Map | None = None, reuse: bool = False) -> LoadedMap:
    """The campaign's map, with ``selected`` (a tile label) ringed. ``game_map``: its map row
    (or ``blank_map``) when the caller has read it already.

    ``reuse`` (the map pages): a tile's view is made once for everything it is made of (its
    row as read, its owner's colour and name, its counters, whether it is a capital and
    selected) and reused by later loads of the same map in this worker while all of that is
    unchanged, and so is its drawing (``render``): a page drawn again after an event draws
    only the tiles the event changed. Keyed by content, not by time: a change made anywhere
    (an event, the admin) is drawn at once."""
    from battles.models import Army

    if game_map is None:
        game_map = Map.objects.filter(campaign=campaign).first() or blank_map(campaign)
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)}
    capitals = {k.capital_tile_id for k in kingdoms.values() if k.capital_tile_id}
    # Plain rows, not model instances: building thousands of instances is the page's main cost.
    # The JSON columns come as their text, decoded once per distinct text: most tiles share a
    # handful of them ("[]", "{}", a coast on one side...).
    rows = [] if game_map.pk is None else list(
        Tile.objects.filter(map=game_map).values_list(
            "id", "q", "r", "label", "terrain", Cast("features", TextField()),
            Cast("edges", TextField()), Cast("adjacent", TextField()), "settlement",
            "controller_id", "explored", "is_start",
        )
    )
    found: dict[int, list[mapsvg.Marker]] = defaultdict(list)
    for army in Army.objects.filter(campaign=campaign, tile__isnull=False).only(
        "number", "kingdom_id", "tile_id", "on_side", "defending"
    ):
        kingdom = kingdoms[army.kingdom_id]
        side = " (on its side)" if army.on_side else ""
        found[army.tile_id].append(
            mapsvg.Marker(str(army.number), kingdom.colour, "army",
                          f"{kingdom.name} army {army.number}{side}", on_side=army.on_side,
                          defending=army.defending)
        )
    # Counters only one system has (ships, say) come from its shell (RuleSystem.shell).
    extra_markers = campaign.system.hook("map_markers")
    if extra_markers is not None:
        for tile_id, marker in extra_markers(campaign, kingdoms):
            found[tile_id].append(marker)
    markers = {pk: tuple(items) for pk, items in found.items()}
    views = []
    # Grids key edges by direction, territory maps by the neighbour's label.
    territory = game_map.kind == "territory"
    system = campaign.system
    kept_views: dict[tuple, mapsvg.TileView] | None = None
    drawings = None
    if reuse and game_map.pk is not None:
        kept_views, drawings = _reused(
            (campaign.pk, system.slug, game_map.pk, game_map.kind, game_map.orientation,
             game_map.width, game_map.height), len(rows))
    shapes = {c.slug: system.settlement_shape(c.slug) for c in system.settlements}
    feature_sets: dict[str, frozenset[str]] = {}
    edge_maps: dict[str, dict[int | str, frozenset[str]]] = {}
    owners = {pk: (k.colour, k.name) for pk, k in kingdoms.items()}
    no_owner = (None, "")
    view_of = mapsvg.tile_view
    adjacency: dict[str, list[str]] = {}
    for row in rows:
        (pk, q, r, label, terrain, features, edges, adjacent, settlement, controller_id,
         explored, is_start) = row
        owner = owners.get(controller_id, no_owner) if controller_id else no_owner
        if adjacent != "[]":
            adjacency[label] = json.loads(adjacent)
        if kept_views is not None:
            key = (row, owner, markers.get(pk, ()), pk in capitals, label == selected)
            view = kept_views.get(key)
            if view is not None:
                views.append(view)
                continue
        colour, name = owner
        shape = shapes.get(settlement, "marker") if settlement else ""
        if settlement and pk in capitals:
            # A kingdom's capital shows the capital's star, whatever its settlement.
            settlement = mapsvg.CAPITAL
        feature_set = feature_sets.get(features)
        if feature_set is None:
            feature_set = feature_sets[features] = frozenset(json.loads(features))
        edge_map = edge_maps.get(edges)
        if edge_map is None:
            decoded = json.loads(edges)
            edge_map = edge_maps[edges] = (
                {d: frozenset(f) for d, f in decoded.items()} if territory else
                {int(d): frozenset(f) for d, f in decoded.items() if d.isdigit()})
        # Views with the same edges share one (read-only) mapping.
        view = view_of(label, q, r, terrain, feature_set, edge_map, settlement, colour, name,
                       explored, is_start, markers.get(pk, ()), label == selected, shape)
        views.append(view)
        if kept_views is not None:
            kept_views[key] = view
    from campaign.services import grid_for

    loaded = LoadedMap(game_map, None, kingdoms, views, adjacency,  # type: ignore[arg-type]
                       drawings)
    grid = grid_for(game_map, loaded.tiles if territory else ())
    return replace(loaded, grid=grid)


def render(campaign: Campaign, loaded: LoadedMap, *, tile_url: str | None, eco: bool = False,
           only: set[str] | None = None) -> str:
    reuse = None
    if loaded.reuse is not None:
        reuse = loaded.reuse.setdefault((tile_url, eco, campaign.name), {})
        if len(reuse) > 2 * len(loaded.views) + 64:
            reuse.clear()
    return mapsvg.render_svg(
        loaded.grid,
        loaded.views,
        size=TILE_SIZE,
        palette=campaign.system.palette(),
        tile_url=tile_url,
        eco=eco,
        only=only,
        title=f"Map of {campaign.name}",
        reuse=reuse,
    )


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
