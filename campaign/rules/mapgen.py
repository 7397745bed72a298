"""Seeded random maps for hex and square grids.

``generate_map(spec, seed)`` is a pure function: the same spec and seed always give the same
tiles, in label order. The steps are:

1. Water grows as one body from a border cell on a random side, preferring cells near the map
   border, until it covers ``water_share`` of the map (rounded to whole tiles).
2. Land terrains grow as clusters from random seed tiles; each cluster's terrain is drawn by
   weight, so weights set the expected share of land.
3. Rivers walk downhill from inland tiles to the tile next to water (or the map border when
   there is no water), joining an earlier river if they meet it.
4. Features are derived from the terrain: coast, water, river, mountain and forest (see
   ``TileSpec``).
5. Start tiles go on land whose neighbours are all on the map and on land, as far apart as
   possible: picked farthest-first, then moved one at a time while that increases a start's
   distance to its nearest other start. The first land terrain is preferred when it costs at
   most ``START_TERRAIN_SLACK`` steps of spacing.
"""

from __future__ import annotations

import heapq
import math
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Mapping

from campaign.rules.geometry import HexGrid, SquareGrid

Cell = tuple[int, int]

# Start tiles never touch each other, even when the map is too small to spread them out.
MIN_START_SPACING = 2
# The preferred start terrain wins over a spot at most this many steps further from the others.
START_TERRAIN_SLACK = 1
_FAR = 10**9
# Average land cluster size in tiles; smaller gives a patchier map.
CLUSTER_SIZE = 7
# A river needs this many tiles between its source and the water to be worth drawing.
MIN_RIVER_LENGTH = 3


@dataclass(frozen=True)
class MapGenSpec:
    """What to generate. ``terrains`` are (slug, weight) pairs for land."""

    kind: str
    width: int
    height: int
    terrains: tuple[tuple[str, int], ...]
    orientation: str = "flat"
    water_terrain: str | None = None
    water_share: float = 0.2
    start_tiles: int = 0
    rivers: int = 1
    mountain_terrain: str | None = None
    forest_terrain: str | None = None
    edge_features: bool = True

    def __post_init__(self) -> None:
        if self.kind not in ("hex", "square"):
            raise ValueError(f"Random maps are 'hex' or 'square', not {self.kind!r}.")
        self.grid()  # validates width, height and orientation
        if isinstance(self.terrains, (str, bytes)) or not self.terrains:
            raise ValueError("At least one land terrain is needed, as (slug, weight) pairs.")
        seen: set[str] = set()
        for item in self.terrains:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                raise ValueError(f"Terrains are (slug, weight) pairs, got {item!r}.")
            slug, weight = item
            if not isinstance(slug, str) or not slug:
                raise ValueError(f"Terrain slugs must be non-empty strings, got {slug!r}.")
            if slug in seen:
                raise ValueError(f"Terrain {slug!r} is listed twice.")
            if isinstance(weight, bool) or not isinstance(weight, int) or weight < 1:
                raise ValueError(f"Weight of {slug!r} must be a whole number >= 1, got {weight!r}.")
            seen.add(slug)
        # Specs often come from JSON, where pairs arrive as lists; keep the dataclass hashable.
        object.__setattr__(self, "terrains", tuple((slug, w) for slug, w in self.terrains))
        if self.water_terrain is not None:
            if not isinstance(self.water_terrain, str) or not self.water_terrain:
                raise ValueError("The water terrain must be a non-empty slug or None.")
            if self.water_terrain in seen:
                raise ValueError(f"{self.water_terrain!r} cannot be both water and land.")
        share = self.water_share
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise ValueError(f"Water share must be between 0 and 1, got {share!r}.")
        for name in ("start_tiles", "rivers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {value!r}.")

    def grid(self) -> HexGrid | SquareGrid:
        """The grid the map is generated on."""
        if self.kind == "hex":
            return HexGrid(self.width, self.height, self.orientation)
        return SquareGrid(self.width, self.height)


@dataclass(frozen=True)
class TileSpec:
    """One generated tile.

    ``features`` are tile-level ("coast", "river"). ``edges`` maps a direction to the features
    on this tile's side of that edge ("coast", "water", "river", "mountain", "forest"); only
    non-empty entries are present. Treat it as read-only.
    """

    q: int
    r: int
    label: str
    terrain: str
    features: frozenset[str] = frozenset()
    edges: Mapping[int, frozenset[str]] = field(default_factory=dict, hash=False)
    is_start: bool = False


def _neighbour_table(
    grid: HexGrid | SquareGrid, cells: list[Cell]
) -> dict[Cell, list[tuple[int, Cell]]]:
    """For each cell, its on-map neighbours with their directions."""
    return {c: grid.edge_neighbours(c[0], c[1]) for c in cells}


def _border_depth(grid: HexGrid | SquareGrid, c: Cell) -> int:
    col, row = grid.offset(*c) if isinstance(grid, HexGrid) else c
    return min(col, row, grid.width - 1 - col, grid.height - 1 - row)


def _grow_water(
    grid: HexGrid | SquareGrid,
    cells: list[Cell],
    table: dict[Cell, list[tuple[int, Cell]]],
    target: int,
    rng: random.Random,
) -> set[Cell]:
    if target <= 0:
        return set()
    if target >= len(cells):
        return set(cells)
    # The sea leans towards a random side; noise keeps the coastline ragged.
    angle = rng.uniform(0, 2 * math.pi)
    ux, uy = math.cos(angle), math.sin(angle)
    span = max(grid.width, grid.height)
    priority: dict[Cell, float] = {}
    for c in cells:
        col, row = grid.offset(*c) if isinstance(grid, HexGrid) else c
        lean = ((col - grid.width / 2) * ux + (row - grid.height / 2) * uy) / span
        priority[c] = _border_depth(grid, c) - 3.0 * lean + 2.0 * rng.random()
    border = [c for c in cells if _border_depth(grid, c) == 0]
    start = min(border, key=lambda c: (priority[c], c))
    water: set[Cell] = set()
    heap = [(priority[start], start)]
    queued = {start}
    while heap and len(water) < target:
        _, c = heapq.heappop(heap)
        water.add(c)
        for _, n in table[c]:
            if n not in queued:
                queued.add(n)
                heapq.heappush(heap, (priority[n], n))
    return water


def _grow_land(
    cells: list[Cell],
    table: dict[Cell, list[tuple[int, Cell]]],
    water: set[Cell],
    terrains: tuple[tuple[str, int], ...],
    rng: random.Random,
) -> dict[Cell, str]:
    land = [c for c in cells if c not in water]
    slugs = [slug for slug, _ in terrains]
    weights = [weight for _, weight in terrains]
    terrain: dict[Cell, str] = {}
    if not land:
        return terrain
    seeds = rng.sample(land, max(1, min(len(land), round(len(land) / CLUSTER_SIZE))))
    regions: list[tuple[str, list[Cell]]] = [(rng.choices(slugs, weights)[0], [c]) for c in seeds]
    while True:
        # Clusters take turns claiming one tile each, so no cluster swallows the map.
        while regions:
            still_growing = []
            for slug, frontier in regions:
                while frontier:
                    i = rng.randrange(len(frontier))
                    frontier[i], frontier[-1] = frontier[-1], frontier[i]
                    c = frontier.pop()
                    if c not in terrain:
                        terrain[c] = slug
                        frontier.extend(
                            n for _, n in table[c] if n not in water and n not in terrain
                        )
                        break
                if frontier:
                    still_growing.append((slug, frontier))
            regions = still_growing
        if len(terrain) == len(land):
            return terrain
        # Land cut off from every seed by water (an island) gets a cluster of its own.
        rest = [c for c in land if c not in terrain]
        regions = [(rng.choices(slugs, weights)[0], [rng.choice(rest)])]


def _distance_to_outlet(
    grid: HexGrid | SquareGrid,
    cells: list[Cell],
    table: dict[Cell, list[tuple[int, Cell]]],
    water: set[Cell],
) -> dict[Cell, int]:
    """Steps from each land tile to the water (water is 0), or to the border if dry."""
    if water:
        sources = [c for c in cells if c in water]
        dist = {c: 0 for c in sources}
    else:
        sources = [c for c in cells if len(table[c]) < grid.edge_count]
        dist = {c: 1 for c in sources}
    queue = deque(sources)
    while queue:
        c = queue.popleft()
        for _, n in table[c]:
            if n not in dist:
                dist[n] = dist[c] + 1
                queue.append(n)
    return dist


def _rivers(
    grid: HexGrid | SquareGrid,
    cells: list[Cell],
    table: dict[Cell, list[tuple[int, Cell]]],
    water: set[Cell],
    count: int,
    rng: random.Random,
) -> tuple[set[Cell], set[tuple[Cell, Cell]]]:
    river_tiles: set[Cell] = set()
    links: set[tuple[Cell, Cell]] = set()
    if count <= 0:
        return river_tiles, links
    dist = _distance_to_outlet(grid, cells, table, water)
    land = [c for c in cells if c not in water and c in dist]
    if not land:
        return river_tiles, links
    deepest = max(dist[c] for c in land)
    floor = max(MIN_RIVER_LENGTH, math.ceil(deepest * 0.6))
    for _ in range(count):
        sources = [
            c for c in land
            if dist[c] >= floor and c not in river_tiles
            and not any(n in river_tiles for _, n in table[c])
        ]
        if not sources:
            break
        here = rng.choice(sources)
        river_tiles.add(here)
        while dist[here] > 1:
            downhill = [n for _, n in table[here] if dist.get(n, 0) == dist[here] - 1]
            nxt = rng.choice(downhill)
            links.add((here, nxt) if here < nxt else (nxt, here))
            if nxt in river_tiles:
                break  # joined an earlier river
            river_tiles.add(nxt)
            here = nxt
    return river_tiles, links


def _pick_starts(
    grid: HexGrid | SquareGrid,
    cells: list[Cell],
    table: dict[Cell, list[tuple[int, Cell]]],
    water: set[Cell],
    terrain: dict[Cell, str],
    preferred: str,
    count: int,
    rng: random.Random,
) -> list[Cell]:
    if count <= 0:
        return []
    candidates = [
        c for c in cells
        if c not in water
        and len(table[c]) == grid.edge_count
        and all(n not in water for _, n in table[c])
    ]
    if not candidates:
        return []
    n = len(candidates)
    # Random tie-breaks, fixed per cell, so equal picks still vary with the seed.
    tiebreak = [rng.random() for _ in candidates]
    bonus = [START_TERRAIN_SLACK if terrain[c] == preferred else 0 for c in candidates]
    hexes = isinstance(grid, HexGrid)

    def distances(i: int) -> list[int]:
        """Distance from candidate ``i`` to every candidate (inlined: this is the hot loop)."""
        sq, sr = candidates[i]
        if hexes:
            return [(abs(q - sq) + abs(r - sr) + abs(q + r - sq - sr)) >> 1 for q, r in candidates]
        return [abs(q - sq) + abs(r - sr) for q, r in candidates]

    def best_spot(away: list[int], taken: list[int]) -> int | None:
        """Index of the best free candidate, scored by spacing plus the terrain bonus."""
        scores = [a + b if a >= MIN_START_SPACING else -1 for a, b in zip(away, bonus)]
        for x in taken:
            scores[x] = -1
        top = max(scores)
        if top < 0:
            return None
        return max(
            (x for x in range(n) if scores[x] == top), key=lambda x: (away[x], tiebreak[x])
        )

    # Farthest-first: each start goes where it is farthest from those already placed.
    chosen: list[int] = []
    columns: list[list[int]] = []
    nearest = [_FAR] * n
    while len(chosen) < count:
        pick = best_spot(nearest, chosen)
        if pick is None:
            break
        chosen.append(pick)
        columns.append(distances(pick))
        nearest = list(map(min, nearest, columns[-1]))
    # Then move single starts while that pushes one further from the rest. A move only happens
    # when it increases that start's distance to its nearest other start, so spacing never drops.
    k = len(chosen)
    for _ in range(2 * k if k > 1 else 0):
        moved = False
        for i in range(k):
            others = [columns[j] for j in range(k) if j != i]
            away = list(map(min, *others)) if len(others) > 1 else others[0]
            here = chosen[i]
            pick = best_spot(away, chosen)
            if pick is not None and away[pick] + bonus[pick] > away[here] + bonus[here]:
                chosen[i] = pick
                columns[i] = distances(pick)
                moved = True
        if not moved:
            break
    return [candidates[x] for x in chosen]


def generate_map(spec: MapGenSpec, seed: int) -> list[TileSpec]:
    """Generate every tile of the map, in label order."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"The map seed must be a whole number, got {seed!r}.")
    rng = random.Random(seed)
    grid = spec.grid()
    cells = grid.coords()
    table = _neighbour_table(grid, cells)
    water: set[Cell] = set()
    if spec.water_terrain is not None:
        water = _grow_water(grid, cells, table, round(spec.water_share * len(cells)), rng)
    terrain = _grow_land(cells, table, water, spec.terrains, rng)
    for c in water:
        terrain[c] = spec.water_terrain  # type: ignore[assignment]
    river_tiles, river_links = _rivers(grid, cells, table, water, spec.rivers, rng)
    starts = set(
        _pick_starts(
            grid, cells, table, water, terrain, spec.terrains[0][0], spec.start_tiles, rng
        )
    )
    river_dirs: dict[Cell, set[int]] = {}
    for a, b in river_links:
        river_dirs.setdefault(a, set()).add(grid.direction_to(a, b))  # type: ignore[arg-type]
        river_dirs.setdefault(b, set()).add(grid.direction_to(b, a))  # type: ignore[arg-type]

    all_edges_for: dict[str, str] = {}
    if spec.mountain_terrain:
        all_edges_for[spec.mountain_terrain] = "mountain"
    if spec.forest_terrain:
        all_edges_for[spec.forest_terrain] = "forest"

    tiles: list[TileSpec] = []
    for c in cells:
        features: set[str] = set()
        edges: dict[int, set[str]] = {}
        if c in water:
            for d, n in table[c]:
                if n in water:
                    edges.setdefault(d, set()).add("water")
        else:
            for d, n in table[c]:
                if n in water:
                    features.add("coast")
                    edges.setdefault(d, set()).add("coast")
            if c in river_tiles:
                features.add("river")
            for d in river_dirs.get(c, ()):
                edges.setdefault(d, set()).add("river")
            whole = all_edges_for.get(terrain[c])
            if whole:
                for d in range(grid.edge_count):
                    edges.setdefault(d, set()).add(whole)
        tiles.append(
            TileSpec(
                q=c[0],
                r=c[1],
                label=grid.label(*c),
                terrain=terrain[c],
                features=frozenset(features),
                edges=(
                    {d: frozenset(edges[d]) for d in sorted(edges)} if spec.edge_features else {}
                ),
                is_start=c in starts,
            )
        )
    return tiles
