"""Map geometry shared by every map kind: hex grids, square grids and territory graphs.

The module-level ``hex_*`` functions work on unbounded axial hex coordinates ``(q, r)`` (cube
``s = -q - r``). The grid classes add the bounds, print labels and pixel layout of one map:

* ``HexGrid``: a rectangle of hexes, flat-top ("odd-q" offset, odd columns shifted down) or
  pointy-top ("odd-r" offset, odd rows shifted right). Cells are axial ``(q, r)``.
* ``SquareGrid``: a rectangle of squares. Cells are 0-based ``(x, y)``.
* ``TerritoryGraph``: named territories and their borders. Cells are the territory labels.

Hex directions are the same axial steps in both orientations, numbered clockwise:

====  ========  ===========  ============
 d    (dq, dr)  flat-top     pointy-top
====  ========  ===========  ============
 0    (0, -1)   north        north-west
 1    (+1, -1)  north-east   north-east
 2    (+1, 0)   south-east   east
 3    (0, +1)   south        south-east
 4    (-1, +1)  south-west   south-west
 5    (-1, 0)   north-west   west
====  ========  ===========  ============

Square directions are 0 north, 1 east, 2 south, 3 west. Pixel space has y pointing down and cell
``(0, 0)`` centred on the origin. ``corners`` are listed clockwise so that edge ``d`` runs from
corner ``d`` to corner ``d + 1``; it is the edge shared with the neighbour in direction ``d``.

Single-cell methods take the cell's parts: ``grid.neighbours(q, r)`` on hex and square grids,
``graph.neighbours(label)`` on territory graphs. Code written for any grid holds a cell ``c`` as
returned by ``coords()`` or ``parse_label()`` and calls ``grid.neighbours(*grid.unpack(c))``.
Methods about two cells (``distance``, ``direction_to``, ``line``, ``ring``) take whole cells.
``edge_neighbours`` pairs each neighbour with the key its shared edge has in tile edge data: the
direction on hex and square grids, the neighbour's label on territory graphs.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Iterable, Mapping, Protocol, runtime_checkable

Axial = tuple[int, int]
Point = tuple[float, float]

HEX_DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SQUARE_DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
ORIENTATIONS: tuple[str, ...] = ("flat", "pointy")
GRID_KINDS: tuple[str, ...] = ("hex", "square", "territory")
MAX_SIDE = 999
# Territory node radius in position units: nodes one unit apart just touch.
NODE_RADIUS = 0.45

_SQRT3 = math.sqrt(3.0)
_HEX_INDEX: dict[Axial, int] = {v: i for i, v in enumerate(HEX_DIRECTIONS)}
_SQUARE_INDEX: dict[Axial, int] = {v: i for i, v in enumerate(SQUARE_DIRECTIONS)}
# Corner i sits at angle base + 60i degrees (y down), which makes edge d face direction d.
_HEX_CORNER_UNITS: dict[str, tuple[Point, ...]] = {
    orientation: tuple(
        (math.cos(math.radians(base + 60 * i)), math.sin(math.radians(base + 60 * i)))
        for i in range(6)
    )
    for orientation, base in (("flat", 240.0), ("pointy", 210.0))
}
# Nudges the cube lerp off exact .5 ties so rounding never depends on float noise.
_EPSILON = 1e-6


def _check_direction(d: int, count: int) -> None:
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < count:
        raise ValueError(f"Direction must be a whole number from 0 to {count - 1}, got {d!r}.")


def opposite(d: int) -> int:
    """The hex direction pointing back along direction ``d``."""
    _check_direction(d, 6)
    return (d + 3) % 6


def hex_neighbour(q: int, r: int, d: int) -> Axial:
    """The hex next to ``(q, r)`` in direction ``d`` (0..5)."""
    _check_direction(d, 6)
    dq, dr = HEX_DIRECTIONS[d]
    return (q + dq, r + dr)


def hex_neighbours(q: int, r: int) -> list[Axial]:
    """The six hexes around ``(q, r)``, in direction order 0..5."""
    return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS]


def hex_distance(a: Axial, b: Axial) -> int:
    """Number of steps between two hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_ring(center: Axial, radius: int) -> list[Axial]:
    """The ``6 * radius`` hexes at exactly ``radius`` steps, clockwise from direction 0."""
    if radius < 0:
        raise ValueError(f"Ring radius must not be negative, got {radius}.")
    if radius == 0:
        return [center]
    q, r = center[0], center[1] - radius
    cells: list[Axial] = []
    for i in range(6):
        dq, dr = HEX_DIRECTIONS[(i + 2) % 6]
        for _ in range(radius):
            cells.append((q, r))
            q += dq
            r += dr
    return cells


def hex_spiral(center: Axial, radius: int) -> list[Axial]:
    """All hexes within ``radius`` steps: the centre, then ring 1, ring 2, ..."""
    if radius < 0:
        raise ValueError(f"Spiral radius must not be negative, got {radius}.")
    cells = [center]
    for k in range(1, radius + 1):
        cells.extend(hex_ring(center, k))
    return cells


def _cube_round(fq: float, fr: float, fs: float) -> Axial:
    rq, rr, rs = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(rq - fq), abs(rr - fr), abs(rs - fs)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def _hex_line(a: Axial, b: Axial, sign: float) -> list[Axial]:
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    e = sign * _EPSILON
    aq, ar = a[0] + e, a[1] + e
    bq, br = b[0] + e, b[1] + e
    a_s, b_s = -a[0] - a[1] - 2 * e, -b[0] - b[1] - 2 * e
    cells = []
    for i in range(n + 1):
        t = i / n
        cells.append(_cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, a_s + (b_s - a_s) * t))
    return cells


def hex_line(a: Axial, b: Axial) -> list[Axial]:
    """The straight line of hexes from ``a`` to ``b`` inclusive (``distance + 1`` cells)."""
    return _hex_line(a, b, 1.0)


def _check_side(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"Map {name} must be a whole number, got {value!r}.")
    if not 1 <= value <= MAX_SIDE:
        raise ValueError(f"Map {name} must be between 1 and {MAX_SIDE}, got {value}.")
    return value


def _check_radius(radius: int) -> None:
    if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
        raise ValueError(f"Ring radius must be a whole number >= 0, got {radius!r}.")


@runtime_checkable
class Grid(Protocol):
    """What every map kind offers; see the module docstring for how cells are passed."""

    kind: ClassVar[str]
    edge_count: ClassVar[int]

    def coords(self) -> list[Any]: ...
    def unpack(self, cell: Any) -> tuple[Any, ...]: ...
    def contains(self, *args: Any, **kwargs: Any) -> bool: ...
    def neighbours(self, *args: Any, **kwargs: Any) -> list[Any]: ...
    def edge_neighbours(self, *args: Any, **kwargs: Any) -> list[tuple[Any, Any]]: ...
    def direction_to(self, a: Any, b: Any) -> int | None: ...
    def distance(self, a: Any, b: Any) -> int | None: ...
    def ring(self, center: Any, radius: int) -> list[Any]: ...
    def line(self, a: Any, b: Any) -> list[Any]: ...
    def label(self, *args: Any, **kwargs: Any) -> str: ...
    def parse_label(self, label: str) -> Any: ...
    def center(self, *args: Any, **kwargs: Any) -> Point: ...
    def corners(self, *args: Any, **kwargs: Any) -> list[Point]: ...
    def edge_points(self, *args: Any, **kwargs: Any) -> tuple[Point, Point]: ...
    def pixel_bounds(self, size: float) -> tuple[float, float, float, float]: ...


class _RectLabels:
    """Print labels "CCRR" shared by the rectangular grids (1-based column, then row)."""

    width: int
    height: int

    @property
    def label_digits(self) -> int:
        """Digits per label part: 2, or 3 when the map has more than 99 columns or rows."""
        return 3 if max(self.width, self.height) > 99 else 2

    def _format_label(self, col: int, row: int) -> str:
        w = self.label_digits
        return f"{col + 1:0{w}d}{row + 1:0{w}d}"

    def _parse_offset(self, label: str) -> tuple[int, int]:
        w = self.label_digits
        example = self._format_label(0, 0)
        if not isinstance(label, str) or len(label) != 2 * w or not (
            label.isascii() and label.isdigit()
        ):
            raise ValueError(
                f"Malformed map label {label!r}: expected {2 * w} digits, column then row "
                f"(e.g. {example!r})."
            )
        col, row = int(label[:w]), int(label[w:])
        if not (1 <= col <= self.width and 1 <= row <= self.height):
            raise ValueError(
                f"Map label {label!r} is off the map: column must be 1-{self.width} and row "
                f"1-{self.height}."
            )
        return col - 1, row - 1


@dataclass(frozen=True)
class HexGrid(_RectLabels):
    """A ``width`` x ``height`` rectangle of hexes; cells are axial ``(q, r)``.

    ``coords()`` lists cells column by column (column 1 rows 1..height, then column 2, ...),
    which is also the sort order of their labels.
    """

    width: int
    height: int
    orientation: str = "flat"

    kind: ClassVar[str] = "hex"
    edge_count: ClassVar[int] = 6

    def __post_init__(self) -> None:
        _check_side("width", self.width)
        _check_side("height", self.height)
        if self.orientation not in ORIENTATIONS:
            raise ValueError(
                f"Hex orientation must be 'flat' or 'pointy', got {self.orientation!r}."
            )

    # Offset coordinates: flat is "odd-q" (odd columns down), pointy is "odd-r" (odd rows right).
    def offset(self, q: int, r: int) -> tuple[int, int]:
        """0-based (column, row) of an axial cell."""
        if self.orientation == "flat":
            return q, r + (q - (q & 1)) // 2
        return q + (r - (r & 1)) // 2, r

    def from_offset(self, col: int, row: int) -> Axial:
        """Axial cell of a 0-based (column, row)."""
        if self.orientation == "flat":
            return col, row - (col - (col & 1)) // 2
        return col - (row - (row & 1)) // 2, row

    @cached_property
    def _coords(self) -> tuple[Axial, ...]:
        return tuple(
            self.from_offset(col, row) for col in range(self.width) for row in range(self.height)
        )

    @cached_property
    def _cellset(self) -> frozenset[Axial]:
        return frozenset(self._coords)

    def coords(self) -> list[Axial]:
        """Every cell, column-major (label order)."""
        return list(self._coords)

    def unpack(self, cell: Axial) -> tuple[int, int]:
        return (cell[0], cell[1])

    def contains(self, q: int, r: int) -> bool:
        col, row = self.offset(q, r)
        return 0 <= col < self.width and 0 <= row < self.height

    def step(self, q: int, r: int, d: int) -> Axial:
        """The cell in direction ``d``, whether or not it is on the map."""
        return hex_neighbour(q, r, d)

    def opposite(self, d: int) -> int:
        return opposite(d)

    def neighbours(self, q: int, r: int) -> list[Axial]:
        """On-map neighbours in direction order."""
        cells = self._cellset
        return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in cells]

    def edge_neighbours(self, q: int, r: int) -> list[tuple[int, Axial]]:
        """``(direction, cell)`` for each on-map neighbour, in direction order."""
        cells = self._cellset
        return [
            (d, (q + dq, r + dr))
            for d, (dq, dr) in enumerate(HEX_DIRECTIONS)
            if (q + dq, r + dr) in cells
        ]

    def direction_to(self, a: Axial, b: Axial) -> int | None:
        return _HEX_INDEX.get((b[0] - a[0], b[1] - a[1]))

    def distance(self, a: Axial, b: Axial) -> int:
        return hex_distance(a, b)

    def ring(self, center: Axial, radius: int) -> list[Axial]:
        _check_radius(radius)
        cells = self._cellset
        return [c for c in hex_ring(center, radius) if c in cells]

    def line(self, a: Axial, b: Axial) -> list[Axial]:
        """``hex_line``, nudged the other way if that keeps a border line on the map."""
        cells = _hex_line(a, b, 1.0)
        if all(self.contains(*c) for c in cells):
            return cells
        other = _hex_line(a, b, -1.0)
        return other if all(self.contains(*c) for c in other) else cells

    def label(self, q: int, r: int) -> str:
        """Print label "CCRR" (1-based column, then row)."""
        col, row = self.offset(q, r)
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"Hex ({q}, {r}) is off the map.")
        return self._format_label(col, row)

    def parse_label(self, label: str) -> Axial:
        col, row = self._parse_offset(label)
        return self.from_offset(col, row)

    def center(self, q: int, r: int, size: float) -> Point:
        """Pixel centre for hexes of circumradius ``size``."""
        if self.orientation == "flat":
            return (size * 1.5 * q, size * _SQRT3 * (r + q / 2))
        return (size * _SQRT3 * (q + r / 2), size * 1.5 * r)

    def corners(self, q: int, r: int, size: float) -> list[Point]:
        cx, cy = self.center(q, r, size)
        return [(cx + size * ux, cy + size * uy) for ux, uy in _HEX_CORNER_UNITS[self.orientation]]

    def edge_points(self, q: int, r: int, d: int, size: float) -> tuple[Point, Point]:
        """The two corners of the edge facing ``hex_neighbour(q, r, d)``."""
        _check_direction(d, 6)
        pts = self.corners(q, r, size)
        return pts[d], pts[(d + 1) % 6]

    def pixel_bounds(self, size: float) -> tuple[float, float, float, float]:
        w, h = self.width, self.height
        half_short = size * _SQRT3 / 2
        if self.orientation == "flat":
            max_x = 1.5 * size * (w - 1)
            max_y = _SQRT3 * size * ((h - 1) + (0.5 if w > 1 else 0.0))
            return (-size, -half_short, max_x + size, max_y + half_short)
        max_x = _SQRT3 * size * ((w - 1) + (0.5 if h > 1 else 0.0))
        max_y = 1.5 * size * (h - 1)
        return (-half_short, -size, max_x + half_short, max_y + size)


@dataclass(frozen=True)
class SquareGrid(_RectLabels):
    """A ``width`` x ``height`` rectangle of squares; cells are 0-based ``(x, y)``.

    ``coords()`` is column-major like ``HexGrid``. Distances are Manhattan (4-neighbour) steps.
    """

    width: int
    height: int

    kind: ClassVar[str] = "square"
    edge_count: ClassVar[int] = 4

    def __post_init__(self) -> None:
        _check_side("width", self.width)
        _check_side("height", self.height)

    def coords(self) -> list[Axial]:
        return [(x, y) for x in range(self.width) for y in range(self.height)]

    def unpack(self, cell: Axial) -> tuple[int, int]:
        return (cell[0], cell[1])

    def contains(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def step(self, x: int, y: int, d: int) -> Axial:
        """The cell in direction ``d``, whether or not it is on the map."""
        _check_direction(d, 4)
        dx, dy = SQUARE_DIRECTIONS[d]
        return (x + dx, y + dy)

    def opposite(self, d: int) -> int:
        _check_direction(d, 4)
        return (d + 2) % 4

    def neighbours(self, x: int, y: int) -> list[Axial]:
        """On-map neighbours in direction order (N, E, S, W)."""
        return [
            (x + dx, y + dy) for dx, dy in SQUARE_DIRECTIONS if self.contains(x + dx, y + dy)
        ]

    def edge_neighbours(self, x: int, y: int) -> list[tuple[int, Axial]]:
        """``(direction, cell)`` for each on-map neighbour, in direction order."""
        return [
            (d, (x + dx, y + dy))
            for d, (dx, dy) in enumerate(SQUARE_DIRECTIONS)
            if self.contains(x + dx, y + dy)
        ]

    def direction_to(self, a: Axial, b: Axial) -> int | None:
        return _SQUARE_INDEX.get((b[0] - a[0], b[1] - a[1]))

    def distance(self, a: Axial, b: Axial) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def ring(self, center: Axial, radius: int) -> list[Axial]:
        """On-map cells at Manhattan distance ``radius``, clockwise from north."""
        _check_radius(radius)
        if radius == 0:
            return [center] if self.contains(*center) else []
        x, y = center[0], center[1] - radius
        cells = []
        for dx, dy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
            for _ in range(radius):
                if self.contains(x, y):
                    cells.append((x, y))
                x += dx
                y += dy
        return cells

    def line(self, a: Axial, b: Axial) -> list[Axial]:
        """A 4-connected line from ``a`` to ``b`` hugging the straight segment."""
        x, y = a
        dx, dy = abs(b[0] - x), abs(b[1] - y)
        sx = 1 if b[0] >= x else -1
        sy = 1 if b[1] >= y else -1
        cells = [(x, y)]
        ix = iy = 0
        while ix < dx or iy < dy:
            # Step along x while its next half-cell mark comes before y's (integer compare).
            if ix < dx and (1 + 2 * ix) * dy < (1 + 2 * iy) * dx:
                x += sx
                ix += 1
            else:
                y += sy
                iy += 1
            cells.append((x, y))
        return cells

    def label(self, x: int, y: int) -> str:
        """Print label "CCRR" (1-based column, then row)."""
        if not self.contains(x, y):
            raise ValueError(f"Square ({x}, {y}) is off the map.")
        return self._format_label(x, y)

    def parse_label(self, label: str) -> Axial:
        return self._parse_offset(label)

    def center(self, x: int, y: int, size: float) -> Point:
        """Pixel centre for squares of side ``size``."""
        return (x * size, y * size)

    def corners(self, x: int, y: int, size: float) -> list[Point]:
        """Top-left, top-right, bottom-right, bottom-left."""
        cx, cy = x * size, y * size
        h = size / 2
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    def edge_points(self, x: int, y: int, d: int, size: float) -> tuple[Point, Point]:
        _check_direction(d, 4)
        pts = self.corners(x, y, size)
        return pts[d], pts[(d + 1) % 4]

    def pixel_bounds(self, size: float) -> tuple[float, float, float, float]:
        h = size / 2
        return (-h, -h, (self.width - 1) * size + h, (self.height - 1) * size + h)


class TerritoryGraph:
    """Named territories joined by borders; cells are the territory labels.

    Territories have no numbered edges: ``direction_to`` is always ``None`` and edge features of
    a territory are keyed by the neighbour's label, which is also what ``edge_points`` takes.
    ``positions`` are in node units (pixel centre = position x ``size``); without them the
    territories are laid out on a circle in label order. A graph may be empty: a territory map
    the GM has not drawn yet.
    """

    kind: ClassVar[str] = "territory"
    edge_count: ClassVar[int] = 0

    def __init__(
        self,
        adjacency: Mapping[str, Iterable[str]],
        positions: Mapping[str, tuple[float, float]] | None = None,
    ) -> None:
        if not isinstance(adjacency, Mapping):
            raise ValueError("A territory map needs an adjacency mapping.")
        links: dict[str, set[str]] = {}
        for label, neighbours in adjacency.items():
            if not isinstance(label, str) or not label:
                raise ValueError(f"Territory labels must be non-empty strings, got {label!r}.")
            if isinstance(neighbours, (str, bytes)):
                raise ValueError(
                    f"Neighbours of {label!r} must be a collection of labels, not one string."
                )
            found = set()
            for other in neighbours:
                if not isinstance(other, str) or not other:
                    raise ValueError(
                        f"Territory {label!r} has a neighbour that is not a label: {other!r}."
                    )
                if other == label:
                    raise ValueError(f"Territory {label!r} is listed as its own neighbour.")
                found.add(other)
            links[label] = found
        for a in sorted(links):
            for b in sorted(links[a]):
                if a not in links.get(b, ()):
                    raise ValueError(
                        f"Adjacency is not symmetric: {a!r} lists {b!r} but {b!r} does not "
                        f"list {a!r}."
                    )
        self._labels: tuple[str, ...] = tuple(sorted(links))
        self._adj: dict[str, tuple[str, ...]] = {k: tuple(sorted(v)) for k, v in links.items()}
        self._positions = self._check_positions(positions)

    def _check_positions(
        self, positions: Mapping[str, tuple[float, float]] | None
    ) -> dict[str, Point]:
        if positions is None:
            n = len(self._labels)
            if n == 1:
                return {self._labels[0]: (0.0, 0.0)}
            # Neighbouring nodes on the circle end up 1.5 units apart.
            radius = max(1.0, 1.5 * n / (2 * math.pi))
            return {
                label: (
                    radius * math.cos(2 * math.pi * i / n - math.pi / 2),
                    radius * math.sin(2 * math.pi * i / n - math.pi / 2),
                )
                for i, label in enumerate(self._labels)
            }
        unknown = sorted(set(positions) - set(self._labels), key=str)
        if unknown:
            raise ValueError(f"Positions given for unknown territories: {', '.join(unknown)}.")
        missing = [label for label in self._labels if label not in positions]
        if missing:
            raise ValueError(f"Positions missing for territories: {', '.join(missing)}.")
        checked: dict[str, Point] = {}
        for label in self._labels:
            pos = positions[label]
            try:
                x, y = float(pos[0]), float(pos[1])
                if len(pos) != 2:
                    raise ValueError
            except (TypeError, ValueError, IndexError):
                raise ValueError(
                    f"Position of {label!r} must be a pair of numbers, got {pos!r}."
                ) from None
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError(f"Position of {label!r} must be finite, got {pos!r}.")
            checked[label] = (x, y)
        return checked

    def __repr__(self) -> str:
        return f"TerritoryGraph({len(self._labels)} territories)"

    def _known(self, label: str) -> str:
        if label not in self._adj:
            raise ValueError(f"Unknown territory {label!r}.")
        return label

    @property
    def positions(self) -> dict[str, Point]:
        """Node positions (a copy), in node units."""
        return dict(self._positions)

    def coords(self) -> list[str]:
        """Every territory label, sorted."""
        return list(self._labels)

    def unpack(self, cell: str) -> tuple[str]:
        return (cell,)

    def contains(self, label: str) -> bool:
        return label in self._adj

    def neighbours(self, label: str) -> list[str]:
        """Bordering territories, sorted."""
        return list(self._adj[self._known(label)])

    def edge_neighbours(self, label: str) -> list[tuple[str, str]]:
        """``(edge key, cell)`` per neighbour; a territory's edge key is the neighbour label."""
        return [(n, n) for n in self._adj[self._known(label)]]

    def direction_to(self, a: str, b: str) -> None:
        """Always ``None``: territory borders are keyed by neighbour label, not direction."""
        return None

    def _layers(self, start: str) -> dict[str, int]:
        dist = {self._known(start): 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self._adj[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def distance(self, a: str, b: str) -> int | None:
        """Fewest border crossings from ``a`` to ``b``; ``None`` if unreachable."""
        self._known(b)
        return self._layers(a).get(b)

    def ring(self, center: str, radius: int) -> list[str]:
        """Territories exactly ``radius`` crossings away, sorted."""
        _check_radius(radius)
        return sorted(k for k, v in self._layers(center).items() if v == radius)

    def line(self, a: str, b: str) -> list[str]:
        """The lexicographically smallest shortest path; ``[]`` if ``b`` is unreachable."""
        self._known(a)
        to_b = self._layers(b)
        if a not in to_b:
            return []
        path = [a]
        here = a
        while here != b:
            # Neighbours are sorted, so the first one closer to b gives the smallest path.
            here = next(n for n in self._adj[here] if to_b.get(n) == to_b[here] - 1)
            path.append(here)
        return path

    def label(self, label: str) -> str:
        return self._known(label)

    def parse_label(self, label: str) -> str:
        if not isinstance(label, str) or label not in self._adj:
            raise ValueError(f"{label!r} is not a territory of this map.")
        return label

    def center(self, label: str, size: float) -> Point:
        x, y = self._positions[self._known(label)]
        return (x * size, y * size)

    def corners(self, label: str, size: float) -> list[Point]:
        """A flat hexagon approximating the node's circle."""
        cx, cy = self.center(label, size)
        rad = NODE_RADIUS * size
        return [(cx + rad * ux, cy + rad * uy) for ux, uy in _HEX_CORNER_UNITS["flat"]]

    def edge_points(self, label: str, neighbour: str, size: float) -> tuple[Point, Point]:
        """A short bar across the border link, on ``label``'s side of it."""
        if neighbour not in self._adj[self._known(label)]:
            raise ValueError(f"{neighbour!r} does not border {label!r}.")
        ax, ay = self.center(label, size)
        bx, by = self.center(neighbour, size)
        length = math.hypot(bx - ax, by - ay)
        if length == 0:
            ux, uy = 1.0, 0.0
        else:
            ux, uy = (bx - ax) / length, (by - ay) / length
        # Clear of the node and its label, but never past the middle of the link.
        along = min(max(NODE_RADIUS * size * 1.35, length * 0.3), length / 2)
        mx, my = ax + ux * along, ay + uy * along
        half = NODE_RADIUS * size * 0.6
        return ((mx - uy * half, my + ux * half), (mx + uy * half, my - ux * half))

    def pixel_bounds(self, size: float) -> tuple[float, float, float, float]:
        if not self._positions:
            return (0.0, 0.0, 0.0, 0.0)
        xs = [x * size for x, _ in self._positions.values()]
        ys = [y * size for _, y in self._positions.values()]
        rad = NODE_RADIUS * size
        return (min(xs) - rad, min(ys) - rad, max(xs) + rad, max(ys) + rad)


def make_grid(
    kind: str,
    width: int,
    height: int,
    orientation: str = "flat",
    adjacency: Mapping[str, Iterable[str]] | None = None,
    positions: Mapping[str, tuple[float, float]] | None = None,
) -> HexGrid | SquareGrid | TerritoryGraph:
    """Build the grid of a map. Square grids ignore ``orientation``; territory maps ignore the
    size and need ``adjacency``."""
    if kind == "hex":
        return HexGrid(width, height, orientation)
    if kind == "square":
        return SquareGrid(width, height)
    if kind == "territory":
        if adjacency is None:
            raise ValueError("A territory map needs an adjacency mapping.")
        return TerritoryGraph(adjacency, positions)
    raise ValueError(f"Unknown map kind {kind!r}; expected one of {', '.join(GRID_KINDS)}.")
