"""Turn a campaign's map rows into the plain data the SVG renderer draws.

Everything is loaded in a fixed number of queries (tiles, kingdoms, armies, ships), however large
the map, so the map page's cost grows only with the drawing itself.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from campaign import mapsvg
from campaign.models import Campaign, Kingdom, Map, Tile
from campaign.rules import geometry

TILE_SIZE = 30.0


@dataclass(frozen=True)
class TileRow:
    """What the map page needs of a tile besides its drawing."""

    label: str
    q: int
    r: int
    terrain: str
    adjacent: list[str]


@dataclass(frozen=True)
class LoadedMap:
    game_map: Map
    grid: geometry.Grid
    tiles: list[TileRow]
    kingdoms: dict[int, Kingdom]
    views: list[mapsvg.TileView]


def load_map(campaign: Campaign, *, selected: str | None = None) -> LoadedMap:
    from battles.models import Army, Ship  # battles builds on campaign, not the other way round

    game_map = Map.objects.get(campaign=campaign)
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)}
    capitals = {k.capital_tile_id for k in kingdoms.values() if k.capital_tile_id}
    # Plain rows, not model instances: building thousands of instances is the page's main cost.
    rows = list(
        Tile.objects.filter(map=game_map).values_list(
            "id", "q", "r", "label", "terrain", "features", "edges", "adjacent", "settlement",
            "controller_id", "explored", "is_start",
        )
    )
    markers: dict[int, list[mapsvg.Marker]] = defaultdict(list)
    for army in Army.objects.filter(campaign=campaign, tile__isnull=False).only(
        "number", "kingdom_id", "tile_id", "on_side"
    ):
        kingdom = kingdoms[army.kingdom_id]
        side = " (on its side)" if army.on_side else ""
        markers[army.tile_id].append(
            mapsvg.Marker(str(army.number), kingdom.colour, "army",
                          f"{kingdom.name} army {army.number}{side}")
        )
    for ship in Ship.objects.filter(campaign=campaign, tile__isnull=False).only(
        "number", "kingdom_id", "tile_id"
    ):
        kingdom = kingdoms[ship.kingdom_id]
        markers[ship.tile_id].append(
            mapsvg.Marker(f"S{ship.number}", kingdom.colour, "ship",
                          f"{kingdom.name} ship {ship.number}")
        )
    views = []
    tiles = []
    for (pk, q, r, label, terrain, features, edges, adjacent, settlement, controller_id,
         explored, is_start) in rows:
        controller = kingdoms.get(controller_id) if controller_id else None
        if pk in capitals and settlement == "city":
            settlement = "capital"
        tiles.append(TileRow(label, q, r, terrain, adjacent))
        views.append(
            mapsvg.TileView(
                label=label,
                q=q,
                r=r,
                terrain=terrain,
                features=frozenset(features),
                edges={int(d): frozenset(f) for d, f in edges.items() if d.isdigit()},
                settlement=settlement,
                controller_colour=controller.colour if controller else None,
                controller_name=controller.name if controller else "",
                explored=explored,
                is_start=is_start,
                markers=tuple(markers.get(pk, ())),
                selected=label == selected,
            )
        )
    from campaign.services import grid_for

    grid = grid_for(game_map, tiles)
    return LoadedMap(game_map, grid, tiles, kingdoms, views)


def render(campaign: Campaign, loaded: LoadedMap, *, tile_url: str | None, eco: bool = False,
           only: set[str] | None = None) -> str:
    return mapsvg.render_svg(
        loaded.grid,
        loaded.views,
        size=TILE_SIZE,
        palette=campaign.system.palette(),
        tile_url=tile_url,
        eco=eco,
        only=only,
        title=f"Map of {campaign.name}",
    )


def nearest_edge(grid: geometry.Grid, q: int, r: int, x: float, y: float) -> int | None:
    """The edge of tile (q, r) closest to the point (x, y) in SVG units, for the edge brush."""
    sides = 6 if isinstance(grid, geometry.HexGrid) else 4
    best, best_d = None, float("inf")
    for d in range(sides):
        (x1, y1), (x2, y2) = grid.edge_points(q, r, d, TILE_SIZE)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dist = (mx - x) ** 2 + (my - y) ** 2
        if dist < best_d:
            best, best_d = d, dist
    return best
