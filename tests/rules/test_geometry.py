"""Tests for campaign.rules.geometry: hex maths, rectangular grids and territory graphs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.geometry import (
    Grid,
    HexGrid,
    SquareGrid,
    TerritoryGraph,
    hex_distance,
    hex_line,
    hex_neighbour,
    hex_neighbours,
    hex_ring,
    hex_spiral,
    make_grid,
    opposite,
)

PROPS = settings(database=None, max_examples=150, deadline=None)

coord = st.integers(min_value=-60, max_value=60)
axial = st.tuples(coord, coord)
direction = st.integers(min_value=0, max_value=5)
orientation = st.sampled_from(["flat", "pointy"])


@st.composite
def hex_map_and_cells(draw: st.DrawFn, count: int = 2) -> tuple[HexGrid, list[tuple[int, int]]]:
    grid = HexGrid(
        draw(st.integers(1, 130)), draw(st.integers(1, 130)), draw(orientation)
    )
    cells = []
    for _ in range(count):
        col = draw(st.integers(0, grid.width - 1))
        row = draw(st.integers(0, grid.height - 1))
        cells.append(grid.from_offset(col, row))
    return grid, cells


def close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return math.isclose(a[0], b[0], abs_tol=1e-9) and math.isclose(a[1], b[1], abs_tol=1e-9)


# --- unbounded hex functions -------------------------------------------------------------


@PROPS
@given(axial, axial)
def test_distance_is_symmetric_and_zero_only_for_equal(a, b):
    assert hex_distance(a, b) == hex_distance(b, a)
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, b) >= 0


@PROPS
@given(axial, axial, axial)
def test_distance_triangle_inequality(a, b, c):
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@PROPS
@given(axial)
def test_every_neighbour_is_one_step_away(a):
    around = hex_neighbours(*a)
    assert len(around) == 6 and len(set(around)) == 6
    assert all(hex_distance(a, n) == 1 for n in around)
    assert around == [hex_neighbour(a[0], a[1], d) for d in range(6)]


@PROPS
@given(axial, direction)
def test_opposite_direction_steps_back(a, d):
    n = hex_neighbour(a[0], a[1], d)
    assert hex_neighbour(n[0], n[1], opposite(d)) == a
    assert opposite(opposite(d)) == d
    assert opposite(d) != d


@PROPS
@given(axial, st.integers(0, 12))
def test_ring_has_six_n_cells_at_distance_n(center, radius):
    ring = hex_ring(center, radius)
    if radius == 0:
        assert ring == [center]
        return
    assert len(ring) == 6 * radius
    assert len(set(ring)) == len(ring)
    assert all(hex_distance(center, c) == radius for c in ring)
    # Walking the ring moves one step at a time and closes the loop.
    for a, b in zip(ring, ring[1:] + ring[:1]):
        assert hex_distance(a, b) == 1


@PROPS
@given(axial, st.integers(0, 6))
def test_spiral_covers_the_whole_disc(center, radius):
    cells = hex_spiral(center, radius)
    assert len(cells) == 1 + 3 * radius * (radius + 1)
    assert len(set(cells)) == len(cells)
    assert cells[0] == center
    assert max(hex_distance(center, c) for c in cells) == radius


@PROPS
@given(axial, axial)
def test_line_is_connected_and_has_distance_plus_one_cells(a, b):
    line = hex_line(a, b)
    assert len(line) == hex_distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    for x, y in zip(line, line[1:]):
        assert hex_distance(x, y) == 1


def test_line_is_deterministic_on_ties():
    # (0,0)->(2,-1) passes exactly between two hexes; the nudge must always pick the same one.
    assert hex_line((0, 0), (2, -1)) == hex_line((0, 0), (2, -1)) == [(0, 0), (1, 0), (2, -1)]


def test_ring_order_starts_north_and_runs_clockwise():
    assert hex_ring((0, 0), 1) == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def test_bad_directions_and_radii_are_rejected():
    with pytest.raises(ValueError):
        hex_neighbour(0, 0, 6)
    with pytest.raises(ValueError):
        opposite(-1)
    with pytest.raises(ValueError):
        hex_ring((0, 0), -1)


# --- HexGrid -------------------------------------------------------------------------------


def test_flat_column_three_row_five_is_0305():
    grid = HexGrid(12, 10, "flat")
    cell = grid.from_offset(2, 4)
    assert grid.label(*cell) == "0305"
    assert grid.parse_label("0305") == cell


def test_labels_use_three_digits_on_large_maps():
    grid = HexGrid(120, 40)
    assert grid.label(*grid.from_offset(2, 4)) == "003005"
    assert grid.label(*grid.from_offset(119, 39)) == "120040"


@PROPS
@given(hex_map_and_cells(count=1))
def test_label_round_trip(data):
    grid, (cell,) = data
    label = grid.label(*cell)
    assert grid.parse_label(label) == cell
    assert grid.contains(*cell)


@pytest.mark.parametrize(
    "label", ["", "305", "03055", "ab05", "0000", "1301", "0311", "03 5", "０３０５", None]
)
def test_malformed_or_off_map_labels_raise(label):
    with pytest.raises(ValueError):
        HexGrid(12, 10).parse_label(label)


def test_coords_are_in_label_order_and_complete():
    for orient in ("flat", "pointy"):
        grid = HexGrid(7, 5, orient)
        coords = grid.coords()
        labels = [grid.label(*c) for c in coords]
        assert labels == sorted(labels)
        assert len(set(coords)) == 35
        assert all(grid.contains(*c) for c in coords)


@pytest.mark.parametrize(
    "orient, cell, expected",
    [
        # Flat "odd-q": even columns sit higher than their odd neighbours.
        ("flat", (0, 0), 2),  # top-left corner
        ("flat", (5, 0), 3),  # top-right corner (odd column, shifted down)
        ("flat", (0, 4), 3),  # bottom-left corner
        ("flat", (5, 4), 2),  # bottom-right corner
        ("flat", (2, 0), 3),  # top edge, even column
        ("flat", (3, 0), 5),  # top edge, odd column
        ("flat", (0, 2), 4),  # left edge
        ("flat", (2, 2), 6),  # interior
        # Pointy "odd-r": odd rows are shifted right.
        ("pointy", (0, 0), 2),
        ("pointy", (5, 0), 3),
        ("pointy", (0, 1), 5),
        ("pointy", (5, 1), 3),
        ("pointy", (2, 2), 6),
    ],
)
def test_on_map_neighbour_counts(orient, cell, expected):
    grid = HexGrid(6, 5, orient)
    q, r = grid.from_offset(*cell)
    found = grid.neighbours(q, r)
    assert len(found) == expected
    assert all(grid.contains(*n) and grid.distance((q, r), n) == 1 for n in found)
    # Direction order is kept.
    dirs = [grid.direction_to((q, r), n) for n in found]
    assert dirs == sorted(dirs)
    assert [c for _, c in grid.edge_neighbours(q, r)] == found


def test_neighbour_counts_over_a_whole_map():
    grid = HexGrid(6, 5)
    counts = sorted(len(grid.neighbours(*c)) for c in grid.coords())
    # Only the 4x3 interior has all six; every adjacency is seen from both sides.
    assert counts.count(6) == 12
    pairs = sum(1 for a in grid.coords() for b in grid.coords() if grid.distance(a, b) == 1)
    assert sum(counts) == pairs


@PROPS
@given(axial, direction, orientation)
def test_direction_to_matches_hex_neighbour(a, d, orient):
    grid = HexGrid(10, 10, orient)
    b = hex_neighbour(a[0], a[1], d)
    assert grid.direction_to(a, b) == d
    assert grid.direction_to(b, a) == opposite(d)
    assert grid.direction_to(a, a) is None
    assert grid.direction_to(a, (a[0] + 2, a[1])) is None


@PROPS
@given(hex_map_and_cells(count=2))
def test_grid_line_and_distance(data):
    grid, (a, b) = data
    line = grid.line(a, b)
    assert len(line) == grid.distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    for x, y in zip(line, line[1:]):
        assert grid.direction_to(x, y) is not None


@PROPS
@given(hex_map_and_cells(count=1), st.integers(0, 5))
def test_grid_ring_is_the_on_map_part(data, radius):
    grid, (c,) = data
    expected = [x for x in hex_ring(c, radius) if grid.contains(*x)]
    assert grid.ring(c, radius) == expected


@PROPS
@given(axial, direction, orientation, st.floats(1, 100))
def test_edge_points_face_the_neighbour(a, d, orient, size):
    grid = HexGrid(10, 10, orient)
    p1, p2 = grid.edge_points(a[0], a[1], d, size)
    b = hex_neighbour(a[0], a[1], d)
    ca, cb = grid.center(*a, size), grid.center(*b, size)
    mid = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
    assert math.isclose(mid[0], (ca[0] + cb[0]) / 2, abs_tol=1e-6)
    assert math.isclose(mid[1], (ca[1] + cb[1]) / 2, abs_tol=1e-6)
    assert math.isclose(math.dist(p1, p2), size, rel_tol=1e-9)
    # The neighbour sees the same edge from its side.
    q1, q2 = grid.edge_points(b[0], b[1], opposite(d), size)
    assert close(p1, q2) and close(p2, q1)


def test_flat_and_pointy_direction_zero_points_up():
    flat, pointy = HexGrid(3, 3, "flat"), HexGrid(3, 3, "pointy")
    x, y = flat.center(*hex_neighbour(0, 0, 0), 10)
    assert math.isclose(x, 0, abs_tol=1e-9) and y < 0  # north
    x, y = pointy.center(*hex_neighbour(0, 0, 0), 10)
    assert x < 0 and y < 0  # north-west
    x, y = pointy.center(*hex_neighbour(0, 0, 2), 10)
    assert x > 0 and math.isclose(y, 0, abs_tol=1e-9)  # east


@pytest.mark.parametrize("orient", ["flat", "pointy"])
@pytest.mark.parametrize("w, h", [(1, 1), (1, 4), (4, 1), (7, 5)])
def test_pixel_bounds_hold_every_corner(orient, w, h):
    grid = HexGrid(w, h, orient)
    pts = [p for c in grid.coords() for p in grid.corners(*c, 20)]
    bounds = (
        min(x for x, _ in pts),
        min(y for _, y in pts),
        max(x for x, _ in pts),
        max(y for _, y in pts),
    )
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(grid.pixel_bounds(20), bounds))


def test_off_map_labels_and_bad_sizes_raise():
    grid = HexGrid(4, 4)
    with pytest.raises(ValueError):
        grid.label(-1, 0)
    for bad in (0, -3, 1000, 2.5, True):
        with pytest.raises(ValueError):
            HexGrid(bad, 4)
    with pytest.raises(ValueError):
        HexGrid(4, 4, "sideways")


# --- SquareGrid ----------------------------------------------------------------------------


square_cells = st.tuples(st.integers(0, 29), st.integers(0, 19))


@PROPS
@given(square_cells, square_cells, square_cells)
def test_square_distance_is_a_metric(a, b, c):
    grid = SquareGrid(30, 20)
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@PROPS
@given(square_cells, square_cells)
def test_square_line_is_4_connected(a, b):
    grid = SquareGrid(30, 20)
    line = grid.line(a, b)
    assert len(line) == grid.distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    for x, y in zip(line, line[1:]):
        assert grid.direction_to(x, y) is not None
    assert all(grid.contains(*c) for c in line)


@PROPS
@given(square_cells, st.integers(1, 8))
def test_square_ring_is_the_manhattan_diamond(center, radius):
    grid = SquareGrid(30, 20)
    ring = grid.ring(center, radius)
    assert len(set(ring)) == len(ring)
    assert all(grid.distance(center, c) == radius for c in ring)
    expected = {
        (x, y)
        for x in range(30)
        for y in range(20)
        if abs(x - center[0]) + abs(y - center[1]) == radius
    }
    assert set(ring) == expected


@PROPS
@given(square_cells, st.integers(0, 3))
def test_square_directions_and_edges(a, d):
    grid = SquareGrid(30, 20)
    b = grid.step(a[0], a[1], d)
    assert grid.direction_to(a, b) == d
    assert grid.direction_to(b, a) == grid.opposite(d)
    p1, p2 = grid.edge_points(a[0], a[1], d, 10)
    ca, cb = grid.center(*a, 10), grid.center(*b, 10)
    edge_mid = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
    assert close(edge_mid, ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2))


@PROPS
@given(square_cells)
def test_square_label_round_trip(a):
    grid = SquareGrid(30, 20)
    assert grid.parse_label(grid.label(*a)) == a


def test_square_labels_neighbours_and_bounds():
    grid = SquareGrid(5, 4)
    assert grid.label(2, 4 - 1) == "0304"
    assert grid.neighbours(0, 0) == [(1, 0), (0, 1)]  # east, south
    assert len(grid.neighbours(2, 0)) == 3
    assert grid.neighbours(2, 2) == [(2, 1), (3, 2), (2, 3), (1, 2)]
    assert grid.pixel_bounds(10) == (-5, -5, 45, 35)
    with pytest.raises(ValueError):
        grid.parse_label("0605")


# --- TerritoryGraph ------------------------------------------------------------------------

RING = {
    "Aland": ["Brae", "Fen"],
    "Brae": ["Aland", "Cairn"],
    "Cairn": ["Brae", "Dun"],
    "Dun": ["Cairn", "Eyot"],
    "Eyot": ["Dun", "Fen"],
    "Fen": ["Aland", "Eyot"],
    "Isle": [],
}


def test_territory_neighbours_distance_ring_and_line():
    g = TerritoryGraph(RING)
    assert g.coords() == sorted(RING)
    assert g.neighbours("Aland") == ["Brae", "Fen"]
    assert g.distance("Aland", "Dun") == 3
    assert g.distance("Aland", "Aland") == 0
    assert g.distance("Aland", "Isle") is None
    assert g.ring("Aland", 2) == ["Cairn", "Eyot"]
    # Two shortest paths reach Dun; the lexicographically smaller one goes through Brae.
    assert g.line("Aland", "Dun") == ["Aland", "Brae", "Cairn", "Dun"]
    assert g.line("Dun", "Aland") == ["Dun", "Cairn", "Brae", "Aland"]
    assert g.line("Aland", "Isle") == []
    assert g.direction_to("Aland", "Brae") is None
    assert g.label("Fen") == "Fen" and g.parse_label("Fen") == "Fen"
    assert g.edge_neighbours("Aland") == [("Brae", "Brae"), ("Fen", "Fen")]
    with pytest.raises(ValueError):
        g.parse_label("Atlantis")


@PROPS
@given(st.sampled_from(sorted(RING)), st.sampled_from(sorted(RING)), st.sampled_from(sorted(RING)))
def test_territory_distance_is_a_metric(a, b, c):
    g = TerritoryGraph(RING)
    ab, bc, ac = g.distance(a, b), g.distance(b, c), g.distance(a, c)
    assert ab == g.distance(b, a)
    assert (ab == 0) == (a == b)
    if ab is not None and bc is not None:
        assert ac is not None and ac <= ab + bc
    line = g.line(a, b)
    if ab is not None:
        assert len(line) == ab + 1 and line[0] == a and line[-1] == b
        assert all(y in g.neighbours(x) for x, y in zip(line, line[1:]))


def test_asymmetric_adjacency_names_the_pair():
    with pytest.raises(ValueError, match="'North'.*'South'"):
        TerritoryGraph({"North": ["South"], "South": []})
    with pytest.raises(ValueError, match="'North'.*'Nowhere'"):
        TerritoryGraph({"North": ["Nowhere"]})


def test_self_links_and_bad_positions_are_rejected():
    with pytest.raises(ValueError, match="own neighbour"):
        TerritoryGraph({"A": ["A"]})
    with pytest.raises(ValueError, match="one string"):
        TerritoryGraph({"A": "B", "B": "A"})
    with pytest.raises(ValueError, match="missing"):
        TerritoryGraph({"A": ["B"], "B": ["A"]}, positions={"A": (0, 0)})
    with pytest.raises(ValueError, match="unknown"):
        TerritoryGraph({"A": []}, positions={"A": (0, 0), "Z": (1, 1)})
    with pytest.raises(ValueError):
        TerritoryGraph({"A": []}, positions={"A": (0, float("nan"))})


def test_territory_pixels():
    g = TerritoryGraph({"A": ["B"], "B": ["A"]}, positions={"A": (0, 0), "B": (3, 0)})
    assert g.center("B", 10) == (30, 0)
    (x1, y1), (x2, y2) = g.edge_points("A", "B", 10)
    assert x1 == x2 and 0 < x1 < 15  # a bar across the link, on A's half
    assert g.pixel_bounds(10) == pytest.approx((-4.5, -4.5, 34.5, 4.5))
    with pytest.raises(ValueError):
        g.edge_points("A", "A", 10)


def test_default_layout_gives_every_territory_a_distinct_position():
    g = TerritoryGraph(RING)
    assert len(set(g.positions.values())) == len(RING)


# --- factory and protocol -------------------------------------------------------------------


def test_make_grid():
    assert make_grid("hex", 4, 3, "pointy") == HexGrid(4, 3, "pointy")
    assert make_grid("square", 4, 3) == SquareGrid(4, 3)
    assert isinstance(make_grid("territory", 0, 0, adjacency={"A": []}), TerritoryGraph)
    for grid in (HexGrid(2, 2), SquareGrid(2, 2), TerritoryGraph({"A": []})):
        assert isinstance(grid, Grid)
    with pytest.raises(ValueError, match="Unknown map kind"):
        make_grid("octagon", 4, 4)
    with pytest.raises(ValueError, match="adjacency"):
        make_grid("territory", 4, 4)
    with pytest.raises(ValueError):
        make_grid("hex", 0, 4)


@pytest.mark.parametrize(
    "grid", [HexGrid(5, 4), HexGrid(5, 4, "pointy"), SquareGrid(5, 4), TerritoryGraph(RING)]
)
def test_generic_code_works_on_every_grid(grid):
    for cell in grid.coords():
        parts = grid.unpack(cell)
        assert grid.contains(*parts)
        assert grid.parse_label(grid.label(*parts)) == cell
        for key, other in grid.edge_neighbours(*parts):
            assert grid.distance(cell, other) == 1
            grid.edge_points(*parts, key, 10)
        assert grid.ring(cell, 0) == [cell]


def test_an_empty_territory_graph_is_a_map_not_drawn_yet():
    g = TerritoryGraph({})
    assert g.coords() == [] and g.positions == {}
    assert not g.contains("A")
    assert g.pixel_bounds(10) == (0.0, 0.0, 0.0, 0.0)
    assert isinstance(make_grid("territory", 0, 0, adjacency={}), TerritoryGraph)
    with pytest.raises(ValueError, match="adjacency mapping"):
        TerritoryGraph(["A", "B"])  # type: ignore[arg-type]
