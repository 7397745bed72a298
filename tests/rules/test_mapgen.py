"""Tests for campaign.rules.mapgen: seeded random maps."""

from __future__ import annotations

from collections import deque
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.geometry import HexGrid, SquareGrid
from campaign.rules.mapgen import (
    MIN_RIVER_LENGTH,
    MIN_START_SPACING,
    MapGenSpec,
    TileSpec,
    generate_map,
)

PROPS = settings(database=None, max_examples=40, deadline=None)
seeds = st.integers(min_value=-(2**40), max_value=2**40)

LAND = (("plain", 6), ("hills", 2), ("forest", 3), ("mountains", 2), ("marsh", 1))


def mk_spec(**overrides: object) -> MapGenSpec:
    base: dict[str, object] = dict(
        kind="hex",
        width=12,
        height=10,
        terrains=LAND,
        water_terrain="open_water",
        start_tiles=4,
        rivers=2,
        mountain_terrain="mountains",
        forest_terrain="forest",
    )
    base.update(overrides)
    return MapGenSpec(**base)  # type: ignore[arg-type]


def by_cell(tiles: list[TileSpec]) -> dict[tuple[int, int], TileSpec]:
    return {(t.q, t.r): t for t in tiles}


def check_features(spec: MapGenSpec, tiles: list[TileSpec]) -> None:
    """Coast, water and river features agree with the neighbours, on both sides of each edge."""
    grid = spec.grid()
    cells = by_cell(tiles)
    water = spec.water_terrain
    for t in tiles:
        is_water = t.terrain == water
        neighbours = dict(grid.edge_neighbours(t.q, t.r))
        wet = {d for d, n in neighbours.items() if cells[n].terrain == water}
        assert all(0 <= d < grid.edge_count and f for d, f in t.edges.items())
        if is_water:
            assert "coast" not in t.features and "river" not in t.features
            assert {d for d, f in t.edges.items() if "water" in f} == wet
        else:
            assert ("coast" in t.features) == bool(wet)
            assert {d for d, f in t.edges.items() if "coast" in f} == wet
            assert not any("water" in f for f in t.edges.values())
        for d, feats in t.edges.items():
            if "river" in feats:
                other = cells[neighbours[d]]
                assert "river" in t.features and "river" in other.features
                assert "river" in other.edges[grid.opposite(d)]
        if t.terrain == spec.mountain_terrain:
            assert all("mountain" in t.edges.get(d, ()) for d in range(grid.edge_count))
        if t.terrain == spec.forest_terrain:
            assert all("forest" in t.edges.get(d, ()) for d in range(grid.edge_count))


def test_same_seed_same_map_and_seeds_vary():
    spec = mk_spec()
    assert generate_map(spec, 42) == generate_map(spec, 42)
    maps = {tuple((t.terrain, t.is_start) for t in generate_map(spec, s)) for s in range(10)}
    assert len(maps) == 10


@PROPS
@given(seeds, st.sampled_from(["flat", "pointy"]))
def test_every_tile_once_with_its_label(seed, orientation):
    spec = mk_spec(orientation=orientation, width=9, height=7)
    grid = spec.grid()
    tiles = generate_map(spec, seed)
    assert [(t.q, t.r) for t in tiles] == grid.coords()
    assert [t.label for t in tiles] == [grid.label(t.q, t.r) for t in tiles]
    assert len({t.label for t in tiles}) == 63
    allowed = {slug for slug, _ in LAND} | {"open_water"}
    assert {t.terrain for t in tiles} <= allowed


@PROPS
@given(seeds)
def test_four_start_tiles_are_spread_out(seed):
    spec = mk_spec()
    grid = spec.grid()
    tiles = generate_map(spec, seed)
    cells = by_cell(tiles)
    starts = [t for t in tiles if t.is_start]
    assert len(starts) == 4
    for t in starts:
        assert t.terrain != "open_water"
        around = grid.neighbours(t.q, t.r)
        assert len(around) == 6
        assert all(cells[n].terrain != "open_water" for n in around)
    for a, b in combinations(starts, 2):
        assert grid.distance((a.q, a.r), (b.q, b.r)) >= 3


def test_start_tiles_prefer_the_first_land_terrain():
    spec = mk_spec(start_tiles=1, terrains=(("plain", 1), ("hills", 5)))
    grid = spec.grid()
    checked = 0
    for seed in range(30):
        tiles = generate_map(spec, seed)
        cells = by_cell(tiles)
        (start,) = [t for t in tiles if t.is_start]
        plain_spots = [
            t for t in tiles
            if t.terrain == "plain"
            and len(grid.neighbours(t.q, t.r)) == 6
            and all(cells[n].terrain != "open_water" for n in grid.neighbours(t.q, t.r))
        ]
        if plain_spots:
            checked += 1
            assert start.terrain == "plain"
    assert checked >= 15


def test_only_as_many_start_tiles_as_fit():
    # On a dry 4x4 flat map only the four middle hexes have six neighbours, and they touch.
    spec = mk_spec(width=4, height=4, water_terrain=None, start_tiles=5)
    grid = spec.grid()
    for seed in range(10):
        starts = [(t.q, t.r) for t in generate_map(spec, seed) if t.is_start]
        assert 1 <= len(starts) < 5
        assert all(len(grid.neighbours(*c)) == 6 for c in starts)
        assert all(grid.distance(a, b) >= MIN_START_SPACING for a, b in combinations(starts, 2))
    no_room = mk_spec(width=2, height=2, water_terrain=None, start_tiles=3)
    assert not any(t.is_start for t in generate_map(no_room, 1))


@PROPS
@given(seeds, st.sampled_from(["flat", "pointy"]))
def test_coast_water_and_river_features_are_consistent(seed, orientation):
    spec = mk_spec(orientation=orientation, width=16, height=12, rivers=3)
    check_features(spec, generate_map(spec, seed))


def test_rivers_run_from_inland_to_the_coast():
    spec = mk_spec(width=20, height=16, rivers=1, water_share=0.25)
    grid = spec.grid()
    with_river = 0
    for seed in range(30):
        tiles = generate_map(spec, seed)
        river = {(t.q, t.r): t for t in tiles if "river" in t.features}
        if not river:
            continue
        with_river += 1
        assert len(river) >= MIN_RIVER_LENGTH
        assert all(t.terrain != "open_water" for t in river.values())
        # One connected walk, ending next to the water.
        start = next(iter(river))
        seen, queue = {start}, deque([start])
        while queue:
            here = queue.popleft()
            for d, feats in river[here].edges.items():
                if "river" in feats:
                    nxt = grid.step(*here, d)
                    if nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
        assert seen == set(river)
        assert any("coast" in t.features for t in river.values())
    assert with_river >= 25


@PROPS
@given(seeds, st.floats(min_value=0, max_value=1), st.sampled_from(["hex", "square"]))
def test_water_share_is_respected(seed, share, kind):
    # Water is grown to exactly round(share x tiles) and nothing turns it back into land, so the
    # only slack is the rounding to whole tiles: half a tile, well within one tile.
    spec = mk_spec(kind=kind, water_share=share, width=14, height=11)
    tiles = generate_map(spec, seed)
    water = sum(t.terrain == "open_water" for t in tiles)
    assert abs(water - share * len(tiles)) <= 1


@PROPS
@given(seeds)
def test_water_is_one_body_touching_the_border(seed):
    spec = mk_spec(width=16, height=12, water_share=0.3)
    grid = spec.grid()
    tiles = generate_map(spec, seed)
    water = {(t.q, t.r) for t in tiles if t.terrain == "open_water"}
    start = next(iter(water))
    seen, queue = {start}, deque([start])
    while queue:
        for n in grid.neighbours(*queue.popleft()):
            if n in water and n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == water
    assert any(len(grid.neighbours(*c)) < 6 for c in water)


def test_land_grows_in_clusters():
    # Three equally weighted terrains scattered at random would match a neighbour a third of the
    # time; grown clusters match far more often.
    spec = mk_spec(
        width=30, height=24, terrains=(("a", 1), ("b", 1), ("c", 1)), water_terrain=None,
        rivers=0, start_tiles=0,
    )
    grid = spec.grid()
    for seed in range(5):
        cells = by_cell(generate_map(spec, seed))
        pairs = [(c, n) for c in cells for n in grid.neighbours(*c)]
        same = sum(cells[c].terrain == cells[n].terrain for c, n in pairs)
        assert same / len(pairs) > 0.6
        assert {t.terrain for t in cells.values()} == {"a", "b", "c"}


def test_edge_features_can_be_switched_off():
    spec = mk_spec(edge_features=False)
    tiles = generate_map(spec, 3)
    assert all(t.edges == {} for t in tiles)
    assert any("coast" in t.features for t in tiles)


def test_square_maps():
    spec = mk_spec(kind="square", width=15, height=11, rivers=2)
    grid = spec.grid()
    assert isinstance(grid, SquareGrid)
    for seed in range(8):
        tiles = generate_map(spec, seed)
        assert [(t.q, t.r) for t in tiles] == grid.coords()
        assert all(d in range(4) for t in tiles for d in t.edges)
        check_features(spec, tiles)
        starts = [(t.q, t.r) for t in tiles if t.is_start]
        assert len(starts) == 4
        assert all(len(grid.neighbours(*c)) == 4 for c in starts)


def test_all_water_and_all_land_maps():
    wet = generate_map(mk_spec(water_share=1.0), 1)
    assert all(t.terrain == "open_water" for t in wet)
    assert not any(t.is_start or t.features for t in wet)
    dry = generate_map(mk_spec(water_terrain=None, rivers=3), 1)
    assert all(t.terrain != "open_water" and "coast" not in t.features for t in dry)
    assert any("river" in t.features for t in dry)


def test_large_map_is_generated():
    spec = mk_spec(width=60, height=40, start_tiles=8, rivers=4)
    tiles = generate_map(spec, 5)
    assert len(tiles) == 2400
    assert sum(t.is_start for t in tiles) == 8


def test_pairs_given_as_lists_are_accepted():
    spec = mk_spec(terrains=[["plain", 2], ["hills", 1]])
    assert spec.terrains == (("plain", 2), ("hills", 1))
    hash(spec)


@pytest.mark.parametrize(
    "overrides",
    [
        {"kind": "territory"},
        {"width": 0},
        {"orientation": "diagonal"},
        {"terrains": ()},
        {"terrains": (("plain", 0),)},
        {"terrains": (("plain", 1), ("plain", 2))},
        {"terrains": (("", 1),)},
        {"water_terrain": "plain", "terrains": (("plain", 1),)},
        {"water_share": 1.5},
        {"water_share": -0.1},
        {"start_tiles": -1},
        {"rivers": True},
    ],
)
def test_bad_specs_are_rejected(overrides):
    with pytest.raises(ValueError):
        mk_spec(**overrides)


def test_bad_seed_is_rejected():
    with pytest.raises(ValueError):
        generate_map(mk_spec(), "7")  # type: ignore[arg-type]


def test_grid_matches_the_spec():
    assert mk_spec(orientation="pointy").grid() == HexGrid(12, 10, "pointy")
