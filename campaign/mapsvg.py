"""Server-side SVG rendering of a campaign map (hex, square or territory).

``render_svg`` returns one self-contained ``<svg>`` string. Tiles share shapes defined once in
``<defs>`` and placed with ``<use>`` (about 260 bytes per tile). Every tile is a group (or a
link, when ``tile_url`` is given) carrying ``data-tile="LABEL"`` and ``class="tile"``, translated
to the tile centre. On hex and square maps everything a tile draws stays inside its own outline
(edge features sit on this tile's side of the edge), so tiles never paint over each other.

Ids in ``<defs>`` are derived from the drawing parameters (kind, orientation, size, eco), so two
maps inlined in one page either use different ids or define identical shapes under the same id.

Text and attribute values are HTML-escaped; colours must be ``#rgb`` or ``#rrggbb`` and anything
else falls back to grey, so user-chosen names and colours cannot inject markup.

Everything is drawn with plain fills and strokes that WeasyPrint draws too (no ``paint-order``):
a label that needs a white rim gets a white-stroked copy underneath, and a label on a patterned
tile a white box.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html import escape
from typing import Callable, Collection, Mapping, Sequence
from urllib.parse import quote

from campaign.rules.geometry import NODE_RADIUS, Grid, HexGrid, SquareGrid, TerritoryGraph

FALLBACK_FILL = "#b4b4b4"
_COLOUR_RE = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})\Z")
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

EDGE_COLOURS: dict[str, str] = {
    "water": "#1d3f8f",
    "coast": "#a9d8f5",
    "forest": "#1f5a2a",
    "mountain": "#7a4a21",
    "river": "#2f7fd8",
}
# Greys and dashes keep edge features apart when printing in black and white.
ECO_EDGE_STYLES: dict[str, str] = {
    "water": ' stroke="#777"',
    "coast": ' stroke="#bbb"',
    "forest": ' stroke="#555" stroke-dasharray="2 2"',
    "mountain": ' stroke="#222" stroke-dasharray="5 2"',
    "river": ' stroke="#000"',
}
OTHER_EDGE_COLOUR = "#666"
# Drawn from the edge inwards in this order; unknown features follow, sorted.
EDGE_ORDER: tuple[str, ...] = ("water", "coast", "forest", "mountain", "river")
ECO_DASHES: tuple[str, ...] = ("", "6 3", "2 2", "8 2 2 2", "1 3", "4 4")
# A kingdom's line style on printed maps (``line_style``): a dash pattern, alone or with a thin
# solid line inside it. Nine patterns, single and double: 18 kingdoms told apart without
# colour, and kingdoms whose colours print as one grey still differ.
LINE_DASHES: tuple[str, ...] = ("", "9 3", "3 3", "9 2.5 2 2.5", "1 2.5", "14 4",
                                "9 2 2 2 2 2", "5 1.5", "16 2.5 4 2.5")


@dataclass(frozen=True)
class LineStyle:
    """How a kingdom's ring and tokens are outlined on paper: ``dash`` (map units of a 30-unit
    tile; empty: solid) and ``double`` (a thin solid line inside the dashed one)."""

    dash: str
    double: bool

    def scaled(self, factor: float) -> str:
        """The dash pattern multiplied by ``factor`` (for smaller or larger drawings)."""
        return " ".join(_n(float(part) * factor) for part in self.dash.split())


def line_style(index: int) -> LineStyle:
    """The line style of the ``index``-th kingdom (0-based): every pattern single first, then
    every pattern double; after ``2 * len(LINE_DASHES)`` kingdoms the styles repeat."""
    index %= 2 * len(LINE_DASHES)
    return LineStyle(LINE_DASHES[index % len(LINE_DASHES)], index >= len(LINE_DASHES))

# Settlement symbols by generic name, each the id of its shape in <defs>. Which settlement kind
# gets which shape is the rule system's to say (RuleSystem.settlement_shape); a kingdom's capital
# shows the star whatever its settlement; a kind with no shape gets the small marker.
SHAPE_IDS: dict[str, str] = {
    "circle": "v",
    "square": "c",
    "triangle": "f",
    "diamond": "m",
    "star": "k",
    "marker": "d",
}
# The settlement a view of a kingdom's capital tile shows (see mapview.load_map).
CAPITAL = "capital"
# The width of a text in ems when the caller cannot measure it in the font the map is shown in:
# about an average letter of a sans-serif font, a little generous.
TEXT_EM = 0.6


@dataclass(frozen=True)
class Pattern:
    """A fill that repeats a small drawing: ``drawing`` is SVG markup in a ``width`` x ``height``
    box of map units (a hex tile of size 30 is 60 wide), laid on white. ``name`` (letters,
    digits and hyphens) identifies the drawing: the pattern's id is ``hkpat-<name>``, so maps
    inlined in one page must give one name one drawing."""

    name: str
    width: float
    height: float
    drawing: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Za-z0-9-]+", self.name):
            raise ValueError(f"A pattern's name is letters, digits and hyphens: {self.name!r}.")

    @property
    def paint(self) -> str:
        return f"url(#hkpat-{self.name})"

    def render(self) -> str:
        return (f'<pattern id="hkpat-{self.name}" width="{_n(self.width)}" '
                f'height="{_n(self.height)}" patternUnits="userSpaceOnUse"><rect '
                f'width="{_n(self.width)}" height="{_n(self.height)}" fill="#fff"/>'
                f'{self.drawing}</pattern>')


@dataclass(frozen=True)
class Marker:
    """A counter drawn on a tile, e.g. army "3" or ship "S1".

    The pill is filled with ``colour``, else the tile controller's colour, else white. ``kind``
    "army" draws a rounded box, "ship" a capsule, anything else a dashed box.
    """

    text: str
    colour: str = ""
    kind: str = "army"
    title: str = ""
    on_side: bool = False  # drawn lying, turned a quarter
    defending: bool = False  # drawn with a shield at its corner


@dataclass(frozen=True)
class TileView:
    """What the map shows of one tile.

    ``edges`` maps an edge key to the features on this tile's side of that edge: a direction
    (0..5 for hexes, 0..3 for squares) or, on territory maps, the neighbour's label.
    ``settlement`` is the settlement kind (``CAPITAL`` on a kingdom's capital) and ``shape`` its
    symbol, one of ``SHAPE_IDS`` (empty: from ``render_svg``'s ``settlement_shapes``).
    """

    label: str
    q: int
    r: int
    terrain: str
    features: frozenset[str] = frozenset()
    edges: Mapping[int | str, frozenset[str]] = field(default_factory=dict, hash=False)
    settlement: str = ""
    controller_colour: str | None = None
    controller_name: str = ""
    explored: bool = True
    is_start: bool = False
    markers: tuple[Marker, ...] = ()
    selected: bool = False
    shape: str = ""
    battle: bool = False  # a battle waits here: crossed swords on a disc


# Any character ``_esc`` changes: most texts (tile labels, terrain names) hold none.
_ESCAPED = re.compile(r"[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# What ``quote(text, safe="")`` leaves as it is.
_URL_PLAIN = re.compile(r"[A-Za-z0-9_.~-]*\Z")


def tile_view(label: str, q: int, r: int, terrain: str, features: frozenset[str],
              edges: Mapping[int | str, frozenset[str]], settlement: str,
              controller_colour: str | None, controller_name: str, explored: bool,
              is_start: bool, markers: tuple[Marker, ...], selected: bool,
              shape: str) -> TileView:
    """``TileView(label, q, r, ...)`` (no battle), made without the frozen dataclass's checks
    field by field: a large map makes thousands (``mapview.load_map``)."""
    view = _new_object(TileView)
    _set_attribute(view, "__dict__", {
        "label": label, "q": q, "r": r, "terrain": terrain, "features": features,
        "edges": edges, "settlement": settlement, "controller_colour": controller_colour,
        "controller_name": controller_name, "explored": explored, "is_start": is_start,
        "markers": markers, "selected": selected, "shape": shape, "battle": False,
    })
    return view


_new_object = object.__new__
_set_attribute = object.__setattr__


def _esc(text: str) -> str:
    """Escape for XML text and attributes, dropping characters XML cannot carry at all."""
    if _ESCAPED.search(text) is None:
        return text
    return escape(_XML_INVALID.sub("", text))


def _url_part(text: str) -> str:
    """``text`` quoted as one part of a URL path (after dropping what XML cannot carry)."""
    if _URL_PLAIN.match(text):
        return text
    return quote(_XML_INVALID.sub("", text), safe="")


def safe_colour(value: object, fallback: str = FALLBACK_FILL) -> str:
    """``value`` if it is ``#rgb``/``#rrggbb``, else ``fallback``; always lower case."""
    if isinstance(value, str) and _COLOUR_RE.match(value):
        return value.lower()
    return fallback


def _rgb(colour: str) -> tuple[int, int, int]:
    h = colour[1:]
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(r: float, g: float, b: float) -> str:
    return "#%02x%02x%02x" % (round(r), round(g), round(b))


def _luminance(colour: str) -> float:
    r, g, b = _rgb(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def _pale(colour: str) -> str:
    r, g, b = _rgb(colour)
    return _hex(r + (255 - r) * 0.55, g + (255 - g) * 0.55, b + (255 - b) * 0.55)


def _grey(colour: str, low: float = 0.78) -> str:
    """A light grey keeping the colour's relative brightness, for eco prints."""
    v = 255 * (low + (1 - low) * _luminance(colour))
    return _hex(v, v, v)


def _n(v: float) -> str:
    s = "%.1f" % v
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _points(pts: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


@dataclass(frozen=True)
class _Layout:
    """Per-kind placement of labels, symbols and markers, in tile-local pixels."""

    label_y: float
    font: float
    symbol: float
    marker_y: float
    marker_h: float
    marker_room: float
    half_w: float
    half_h: float


def _layout(grid: Grid, size: float, min_font: float = 0.0) -> _Layout:
    """The placement of a tile's label, symbol and tokens; ``min_font`` (map units) enlarges the
    label and the tokens' text up to half as much again (printed maps keep text legible)."""
    lay = _base_layout(grid, size)
    if min_font <= 0:
        return lay
    font = max(lay.font, min(min_font, lay.font * 1.5))
    marker_h = max(lay.marker_h, min(min_font / 0.72, lay.marker_h * 1.6))
    grow = font - lay.font
    label_y = lay.label_y
    if isinstance(grid, SquareGrid) or (isinstance(grid, HexGrid)
                                        and grid.orientation == "flat"):
        label_y += grow * 0.8  # its top stays where it was
    marker_y = lay.marker_y
    if not isinstance(grid, TerritoryGraph):
        marker_y = min(lay.half_h * 0.93 - marker_h / 2,
                       lay.marker_y + (marker_h - lay.marker_h) / 2)
    return _Layout(label_y, font, lay.symbol, marker_y, marker_h, lay.marker_room,
                   lay.half_w, lay.half_h)


def _base_layout(grid: Grid, size: float) -> _Layout:
    if isinstance(grid, HexGrid):
        flat = grid.orientation == "flat"
        font = size * 0.27
        short = size * math.sqrt(3) / 2
        half_w, half_h = (size, short) if flat else (short, size)
        return _Layout(
            label_y=(-half_h + size * 0.17 + font * 0.8) if flat else (-size * 0.42),
            font=font,
            symbol=size,
            marker_y=size * 0.45,
            marker_h=size * 0.3,
            marker_room=size * 1.3,
            half_w=half_w,
            half_h=half_h,
        )
    if isinstance(grid, SquareGrid):
        font = size * 0.22
        return _Layout(
            label_y=-size / 2 + size * 0.17 + font * 0.8,
            font=font,
            symbol=size * 0.55,
            marker_y=size * 0.3,
            marker_h=size * 0.22,
            marker_room=size * 0.92,
            half_w=size / 2,
            half_h=size / 2,
        )
    rad = NODE_RADIUS * size
    font = size * 0.3
    return _Layout(
        label_y=rad + font * 1.05,
        font=font,
        symbol=size * 0.8,
        marker_y=rad + font * 1.25 + size * 0.15,
        marker_h=size * 0.3,
        marker_room=size * 2.4,
        half_w=rad,
        half_h=rad,
    )


def _star(radius: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rad = radius if i % 2 == 0 else radius * 0.42
        a = math.radians(-90 + 36 * i)
        pts.append((rad * math.cos(a), rad * math.sin(a)))
    return pts


class _Defs:
    """Shared shapes, emitted once; edge strokes only for the edge slots actually used."""

    def __init__(self, grid: Grid, size: float, eco: bool) -> None:
        self.grid = grid
        self.size = size
        self.eco = eco
        if isinstance(grid, HexGrid):
            tag = "h" + grid.orientation[0]
        elif isinstance(grid, SquareGrid):
            tag = "s"
        else:
            tag = "n"
        self.prefix = f"hk{tag}{_n(size).replace('.', '_')}{'e' if eco else ''}-"
        self.edge_width = max(size * 0.1, 1.0)
        self.used_edges: dict[tuple[int, int], str] = {}
        if isinstance(grid, (HexGrid, SquareGrid)):
            self.local_corners = [(x, y) for x, y in grid.corners(0, 0, size)]
        else:
            self.local_corners = []

    def ref(self, name: str) -> str:
        return f'href="#{self.prefix}{name}"'

    def edge_ref(self, d: int, level: int) -> str:
        """Reference to the stroke of edge ``d`` (-1: every edge) at inset ``level``."""
        key = (d, level)
        ref = self.used_edges.get(key)
        if ref is None:
            ref = self.used_edges[key] = self.ref(f"e{'a' if d < 0 else d}{level}")
        return ref

    def _segment(self, d: int, level: int) -> str:
        corners = self.local_corners
        (x1, y1), (x2, y2) = corners[d], corners[(d + 1) % len(corners)]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        apothem = math.hypot(mx, my)
        # Inset so the stroke lies on this tile's side; each further feature sits one width in.
        inset = self.edge_width * (0.5 + level) / apothem
        trim = 0.14
        ax, ay = x1 + (x2 - x1) * trim, y1 + (y2 - y1) * trim
        bx, by = x1 + (x2 - x1) * (1 - trim), y1 + (y2 - y1) * (1 - trim)
        ax, ay, bx, by = ax * (1 - inset), ay * (1 - inset), bx * (1 - inset), by * (1 - inset)
        return f"M{_n(ax)} {_n(ay)}L{_n(bx)} {_n(by)}"

    def _edge_path(self, d: int, level: int) -> str:
        if d < 0:
            path = "".join(self._segment(i, level) for i in range(len(self.local_corners)))
        else:
            path = self._segment(d, level)
        return (
            f'<path id="{self.prefix}e{"a" if d < 0 else d}{level}" d="{path}" '
            f'stroke-width="{_n(self.edge_width)}" stroke-linecap="round" fill="none"/>'
        )

    def render(self, extra: str = "") -> str:
        """The ``<defs>`` element, with ``extra`` definitions (patterns) first."""
        p, s, eco = self.prefix, self.size, self.eco
        line = "#000" if eco else "#444"
        thin = _n(max(s * 0.03, 0.5))
        out = ["<defs>", extra]
        if isinstance(self.grid, TerritoryGraph):
            rad = NODE_RADIUS * s
            out.append(f'<circle id="{p}t" r="{_n(rad)}" stroke="{line}" stroke-width="{thin}"/>')
            out.append(
                f'<circle id="{p}i" r="{_n(rad * 0.78)}" fill="none" '
                f'stroke-width="{_n(s * 0.09)}"/>'
            )
            out.append(
                f'<circle id="{p}j" r="{_n(rad * 0.62)}" fill="none" '
                f'stroke-width="{_n(s * 0.03)}"/>'
            )
            # Where a chosen token may go (static/js/map-play.js): styled by the page's CSS.
            out.append(f'<circle id="{p}h" r="{_n(rad * 0.9)}"/>')
            out.append(
                f'<circle id="{p}q" r="{_n(rad * 1.12)}" fill="none" '
                f'stroke="{"#000" if eco else "#ff2d95"}" stroke-width="{_n(s * 0.1)}"/>'
            )
        else:
            pts = self.local_corners
            (x1, y1), (x2, y2) = pts[0], pts[1]
            apothem = math.hypot((x1 + x2) / 2, (y1 + y2) / 2)
            # The controller ring sits just inside the first row of edge strokes.
            shrink = 1 - (self.edge_width + s * 0.035) / apothem
            inner = [(x * shrink, y * shrink) for x, y in pts]
            # The thin line of a double line style, inside the ring.
            within = 1 - (self.edge_width + s * 0.155) / apothem
            second = [(x * within, y * within) for x, y in pts]
            sel = [(x * 0.93, y * 0.93) for x, y in pts]
            out.append(
                f'<polygon id="{p}t" points="{_points(pts)}" stroke="{line}" '
                f'stroke-width="{thin}"/>'
            )
            out.append(
                f'<polygon id="{p}i" points="{_points(inner)}" fill="none" '
                f'stroke-width="{_n(s * 0.07)}"/>'
            )
            out.append(
                f'<polygon id="{p}j" points="{_points(second)}" fill="none" '
                f'stroke-width="{_n(s * 0.03)}"/>'
            )
            # Where a chosen token may go (static/js/map-play.js): styled by the page's CSS.
            marked = [(x * 0.8, y * 0.8) for x, y in pts]
            out.append(f'<polygon id="{p}h" points="{_points(marked)}"/>')
            out.append(
                f'<polygon id="{p}q" points="{_points(sel)}" fill="none" '
                f'stroke="{"#000" if eco else "#ff2d95"}" stroke-width="{_n(s * 0.1)}"/>'
            )
        gap = _n(max(s * 0.2, 3))
        out.append(
            f'<pattern id="{p}x" width="{gap}" height="{gap}" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><path d="M0 0V{gap}" stroke="#000" '
            f'stroke-opacity=".35" stroke-width="{_n(max(s * 0.04, 0.6))}"/></pattern>'
        )
        k = _layout(self.grid, s).symbol
        out.append(
            f'<circle id="{p}s" r="{_n(k * 0.3)}" fill="#fff" stroke="#000" '
            f'stroke-width="{_n(max(k * 0.04, 0.6))}"/>'
        )
        for sid in SHAPE_IDS.values():
            out.append(_symbol(sid, k, eco, f' id="{p}{sid}"'))
        for d, level in sorted(self.used_edges):
            out.append(self._edge_path(d, level))
        out.append("</defs>")
        return "".join(out)


def _symbol(sid: str, k: float, eco: bool, attrs: str = "") -> str:
    """One settlement symbol (``SHAPE_IDS`` value ``sid``) for symbol size ``k``, centred on 0."""
    dark, rim = "#222", "#fff"
    rw = _n(max(k * 0.035, 0.5))
    paint = f'fill="{dark}" stroke="{rim}" stroke-width="{rw}"'
    if sid == "v":
        return f'<circle{attrs} r="{_n(k * 0.11)}" {paint}/>'
    if sid == "c":
        c = k * 0.13
        return (f'<rect{attrs} x="{_n(-c)}" y="{_n(-c)}" width="{_n(2 * c)}" '
                f'height="{_n(2 * c)}" {paint}/>')
    if sid == "f":
        t = k * 0.17
        triangle = _points([(0, -t), (t, t * 0.8), (-t, t * 0.8)])
        return f'<polygon{attrs} points="{triangle}" {paint}/>'
    if sid == "k":
        return (f'<polygon{attrs} points="{_points(_star(k * 0.22))}" '
                f'fill="{"#fff" if eco else "#f2c200"}" stroke="#000" stroke-width="{rw}"/>')
    if sid == "m":
        m = k * 0.16
        return (f'<polygon{attrs} points="{_points([(0, -m), (m, 0), (0, m), (-m, 0)])}" '
                f'{paint}/>')
    return f'<circle{attrs} r="{_n(k * 0.08)}" fill="{dark}"/>'


# -- legend keys: small stand-alone drawings of what the map shows ----------------------------

_KEY = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-12 -12 24 24" width="24" ' \
    'height="24" aria-hidden="true" class="key">{}</svg>'


def legend_settlement(shape: str) -> str:
    """The symbol of a settlement shape (a ``SHAPE_IDS`` name), as on a 30-unit map."""
    return _KEY.format(_symbol(SHAPE_IDS.get(shape, "d"), 30 * 1.4, False))


def legend_start() -> str:
    return _KEY.format('<circle r="8" fill="#fff" stroke="#000" stroke-width="1.6"/>')


def legend_edge(feature: str) -> str:
    """An edge feature's stroke, across the key."""
    colour = EDGE_COLOURS.get(feature, OTHER_EDGE_COLOUR)
    return _KEY.format(f'<path d="M-10 0H10" stroke="{colour}" stroke-width="4" '
                       'stroke-linecap="round"/>')


def legend_marker(kind: str) -> str:
    """An army ("army") or ship ("ship") counter, as the map draws them."""
    if kind == "ship":
        shape = '<rect x="-11" y="-6" width="22" height="12" rx="6"'
        text = "S1"
    else:
        shape = '<rect x="-8" y="-6" width="16" height="12" rx="2.6"'
        text = "1"
    return _KEY.format(f'{shape} fill="#fff" stroke="#000" stroke-width=".8"/><text y="3.2" '
                       'font-size="8.5" font-family="sans-serif" text-anchor="middle">'
                       f'{text}</text>')


def legend_unexplored() -> str:
    return _KEY.format(
        '<defs><pattern id="hk-key-x" width="4" height="4" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><path d="M0 0V4" stroke="#000" stroke-opacity=".35"/>'
        '</pattern></defs><rect x="-9" y="-9" width="18" height="18" fill="#eee"/>'
        '<rect x="-9" y="-9" width="18" height="18" fill="url(#hk-key-x)"/>')


def settlement_shape(view: TileView, shapes: Mapping[str, str] | None = None) -> str:
    """The symbol a view's settlement shows: the star on a capital, else its own shape, else
    the one ``shapes`` gives its kind (the rule system's), else the small marker."""
    if view.settlement == CAPITAL:
        return "star"
    if view.shape:
        return view.shape
    return (shapes or {}).get(view.settlement, "marker")


def _room(grid: Grid, size: float, lay: _Layout) -> Callable[[float, float], float]:
    """The width a row of tokens may take between heights ``top`` and ``bottom`` of a tile
    (tile-local units), keeping clear of the tile's outline."""
    if isinstance(grid, HexGrid):
        flat = grid.orientation == "flat"
        half_w, half_h = lay.half_w, lay.half_h

        def half_at(y: float) -> float:
            y = min(abs(y), half_h)
            if flat:
                return size - y / half_h * size / 2
            return half_w if y <= size / 2 else half_w * (size - y) / (size / 2)

        return lambda top, bottom: 2 * min(half_at(top), half_at(bottom)) - size * 0.16
    if isinstance(grid, SquareGrid):
        return lambda top, bottom: size * 0.92
    return lambda top, bottom: lay.marker_room


def _shield(x: float, y: float, s: float) -> str:
    """A small black shield with its top left corner at ``x, y``: a defending token."""
    return (f'<path d="M{_n(x)} {_n(y)}h{_n(s)}v{_n(s * 0.5)}q0 {_n(s * 0.4)} {_n(-s / 2)} '
            f'{_n(s * 0.62)}q{_n(-s / 2)} {_n(-s * 0.22)} {_n(-s / 2)} {_n(-s * 0.62)}z" '
            f'fill="#000" stroke="#fff" stroke-width="{_n(s * 0.12)}"/>')


def _marker_svg(
    markers: Sequence[Marker],
    controller: str | None,
    lay: _Layout,
    eco: bool,
    *,
    styles: Mapping[str, LineStyle] | None = None,
    room: Callable[[float, float], float] | None = None,
) -> str:
    """A tile's tokens. Without ``room`` they sit in one row and what does not fit is summed up
    as a "+N" token; with it (paper) every token is drawn, in as many rows as they need, rows
    added upwards, each as wide as the tile allows. ``styles`` outlines each kingdom's tokens
    in its line style (by colour). A token on its side lies turned a quarter; a defending
    token carries a shield."""
    h = lay.marker_h
    font = h * 0.72
    gap = h * 0.15
    stroke = h * 0.11 if styles is not None else 0.6

    def natural(m: Marker) -> float:
        return max(h * 1.1, font * 0.62 * len(m.text) + h * 0.45)

    widths = [h if m.on_side else natural(m) for m in markers]
    more_w = h * 1.3

    def row_width(items: Sequence[float]) -> float:
        return sum(items) + gap * max(len(items) - 1, 0)

    rows: list[list[int]] = []
    pitch = max([h, *(natural(m) for m in markers if m.on_side)]) + gap
    extra: Sequence[Marker] = ()
    if room is None:
        shown = len(markers)
        if row_width(widths) > lay.marker_room:
            shown -= 1
            while shown > 0 and row_width([*widths[:shown], more_w]) > lay.marker_room:
                shown -= 1
        rows = [list(range(shown))]
        extra = markers[shown:]
    else:
        current: list[int] = []
        for index, width in enumerate(widths):
            centre = lay.marker_y - len(rows) * pitch
            if current and row_width([*(widths[i] for i in current), width]) > room(
                    centre - h / 2, centre + h / 2):
                rows.append(current)
                current = []
            current.append(index)
        rows.append(current)
    out = []
    for row_index, row in enumerate(rows):
        centre_y = lay.marker_y - row_index * pitch  # later rows go above the first
        items = [(markers[i], widths[i]) for i in row]
        if extra:
            tip = ", ".join(m.title or m.text for m in extra)
            items.append((Marker(f"+{len(extra)}", "", "more", tip), more_w))
        total = row_width([w for _m, w in items])
        x = -total / 2
        for marker, w in items:
            out.append(_token(marker, x, centre_y, w, h, font, controller, eco, styles, stroke))
            x += w + gap
    return "".join(out)


def _token(marker: Marker, x: float, centre_y: float, w: float, h: float, font: float,
           controller: str | None, eco: bool, styles: Mapping[str, LineStyle] | None,
           stroke: float) -> str:
    """One token whose footprint starts at ``x``, centred on ``centre_y``."""
    colour = safe_colour(marker.colour, controller or "")
    if marker.kind == "more":
        colour = ""
    if eco or not colour:
        fill, ink = "#fff", "#000"
    else:
        fill = colour
        ink = "#000" if _luminance(colour) > 0.55 else "#fff"
    style = styles.get(colour) if styles is not None and colour else None
    if marker.kind == "ship":
        cls, rounding = "ms", 0.5
    elif marker.kind == "army":
        cls, rounding = "ma", 0.22
    else:
        cls, rounding = "mo", 0.22
    length = max(h * 1.1, font * 0.62 * len(marker.text) + h * 0.45) if marker.on_side else w
    # Drawn upright about the origin, then turned (on its side) and moved into place.
    dash = ""
    if cls == "mo":
        dash = ' stroke-dasharray="2 1"'
    elif style is not None and style.dash:
        dash = f' stroke-dasharray="{style.scaled(h / 10)}"'
    body = [f'<rect x="{_n(-length / 2)}" y="{_n(-h / 2)}" width="{_n(length)}" '
            f'height="{_n(h)}" rx="{_n(h * rounding)}" fill="{fill}" stroke="#000" '
            f'stroke-width="{_n(stroke)}"{dash}/>']
    if style is not None and style.double:
        inset = stroke * 1.9
        body.append(f'<rect x="{_n(-length / 2 + inset)}" y="{_n(-h / 2 + inset)}" '
                    f'width="{_n(length - 2 * inset)}" height="{_n(h - 2 * inset)}" '
                    f'rx="{_n(max(h * rounding - inset, 0))}" fill="none" stroke="{ink}" '
                    f'stroke-width="{_n(stroke * 0.55)}"/>')
    body.append(f'<text y="{_n(font * 0.36)}" font-size="{_n(font)}" fill="{ink}">'
                f'{_esc(marker.text)}</text>')
    turn = " rotate(-90)" if marker.on_side else ""
    shield = ""
    if marker.defending:
        # At the token's top right corner as the page shows it, whichever way the token lies.
        s = h * 0.62
        half_w, half_h = (h / 2, length / 2) if marker.on_side else (length / 2, h / 2)
        shield = _shield(half_w - s * 0.55, -half_h - s * 0.45, s)
        if marker.on_side:
            shield = f'<g transform="rotate(90)">{shield}</g>'
    return (f'<g class="{cls}" transform="translate({_n(x + w / 2)} {_n(centre_y)}){turn}">'
            f'<title>{_esc(marker.title or marker.text)}</title>{"".join(body)}{shield}</g>')


def _battle_mark(x: float, y: float, r: float, eco: bool) -> str:
    """Crossed swords on a disc: a battle waits on this tile."""
    disc = "#fff" if eco else "#c62828"
    ink = "#000" if eco else "#fff"
    a = r * 0.62
    return (f'<g class="battle"><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{disc}" '
            f'stroke="#000" stroke-width="{_n(r * 0.12)}"/><path d="M{_n(x - a)} {_n(y - a)}'
            f'L{_n(x + a)} {_n(y + a)}M{_n(x + a)} {_n(y - a)}L{_n(x - a)} {_n(y + a)}'
            f'M{_n(x - a * 0.15)} {_n(y + a * 0.55)}l{_n(-a * 0.5)} {_n(-a * 0.5)}'
            f'M{_n(x + a * 0.15)} {_n(y + a * 0.55)}l{_n(a * 0.5)} {_n(-a * 0.5)}" '
            f'stroke="{ink}" stroke-width="{_n(r * 0.22)}" stroke-linecap="round" '
            f'fill="none"/></g>')


def render_svg(
    grid: Grid,
    tiles: Sequence[TileView],
    *,
    size: float = 30,
    palette: Mapping[str, str],
    tile_url: str | None = None,
    show_labels: bool = True,
    eco: bool = False,
    only: Collection[str] | None = None,
    title: str = "",
    settlement_shapes: Mapping[str, str] | None = None,
    terrain_patterns: Mapping[str, Pattern | None] | None = None,
    text_width: Callable[[str], float] | None = None,
    line_styles: Mapping[str, LineStyle] | None = None,
    min_font: float = 0.0,
    all_tokens: bool = False,
    reuse: dict[int, tuple] | None = None,
) -> str:
    """Draw ``tiles`` on ``grid`` as one SVG string.

    ``palette`` maps terrain slugs to fill colours. ``tile_url`` is a URL containing
    ``{label}``; each tile then becomes a link. ``only`` restricts drawing (and the view box) to
    those labels. ``eco`` draws in white and greys for cheap printing. Hex and square tiles are
    placed by ``q, r``; territory tiles by the graph's position for their label.
    ``settlement_shapes`` gives the symbol of each settlement kind for views without a shape.

    ``terrain_patterns`` fills the explored tiles of a terrain with a ``Pattern`` instead of its
    colour (``None``: plain white), e.g. to tell terrains apart in black and white; every tile
    label then sits on a white box. ``text_width`` gives a label's width in ems in the font the
    map will be shown in, to size those boxes (without it, ``TEXT_EM`` per character).

    For paper: ``line_styles`` gives each controller colour a ``LineStyle`` for its ring and
    its tokens' outline, in colour as in black and white (without it, eco maps hand out
    ``ECO_DASHES`` in the order they meet kingdoms); ``min_font`` is the smallest text in map
    units (labels and tokens grow towards it); ``all_tokens`` draws every token of a tile, in
    rows, instead of summing the ones that do not fit as "+N".

    ``reuse`` keeps each hex or square tile drawn, by its view's identity (the view kept
    with it), for the next drawing of the same views with the same arguments: pass the same
    dict only while ``grid`` and every argument but ``tiles``, ``only`` and ``title`` stay
    the same (``mapview.load_map`` keeps the views of unchanged tiles between loads). It is
    ignored where a tile's drawing depends on other tiles or on the order they are drawn in
    (territory maps, ``eco``, ``terrain_patterns``, ``line_styles``).
    """
    if not (isinstance(size, (int, float)) and math.isfinite(size) and size > 0):
        raise ValueError(f"Tile size must be a positive number, got {size!r}.")
    if tile_url is not None and "{label}" not in tile_url:
        raise ValueError("tile_url must contain '{label}'.")
    territory = isinstance(grid, TerritoryGraph)
    if only is not None:
        wanted = set(only)
        tiles = [t for t in tiles if t.label in wanted]
    defs = _Defs(grid, size, eco)
    lay = _layout(grid, size, min_font)
    room = _room(grid, size, lay) if all_tokens else None
    p = defs.prefix
    tile_ref = defs.ref("t")
    edge_count = grid.edge_count

    fills: dict[str, tuple[str, str, str]] = {}
    patterns = terrain_patterns or {}
    used_patterns: dict[str, Pattern] = {}

    def fill_for(terrain: str) -> tuple[str, str, str]:
        """(fill, pale fill, label ink) of a terrain."""
        got = fills.get(terrain)
        if got is None:
            colour = safe_colour(palette.get(terrain))
            if eco:
                colour = _grey(colour)
            ink = ' fill="#fff"' if _luminance(colour) < 0.45 else ""
            fill = colour
            if terrain in patterns:
                pattern = patterns[terrain]
                fill, ink = (pattern.paint, "") if pattern is not None else ("#fff", "")
                if pattern is not None:
                    used_patterns[pattern.name] = pattern
            got = fills[terrain] = (fill, _pale(colour), ink)
        return got

    def label_box(text: str) -> str:
        """A white box behind a tile label (centred on 0, at the label's line)."""
        ems = text_width(text) if text_width is not None else TEXT_EM * len(text)
        width = ems * lay.font + lay.font * 0.3
        return (f'<rect x="{_n(-width / 2)}" y="{_n(lay.label_y - lay.font * 0.8)}" '
                f'width="{_n(width)}" height="{_n(lay.font * 0.98)}" fill="#fff"/>')

    controller_styles: dict[str, str] = {}

    def controller_attr(colour: str) -> str:
        got = controller_styles.get(colour)
        if got is None and line_styles is not None:
            style = line_styles.get(colour, LineStyle("", False))
            ink = "#000" if eco else colour
            got = f' stroke="{ink}"' + (f' stroke-dasharray="{style.dash}"' if style.dash
                                        else "")
            if style.double:
                got += f'/><use {defs.ref("j")} stroke="{ink}"'
            controller_styles[colour] = got
        elif got is None:
            if eco:
                dash = ECO_DASHES[len(controller_styles) % len(ECO_DASHES)]
                got = ' stroke="#000"' + (f' stroke-dasharray="{dash}"' if dash else "")
            else:
                got = f' stroke="{colour}"'
            controller_styles[colour] = got
        return got

    def edge_style(feature: str) -> str:
        if eco:
            return ECO_EDGE_STYLES.get(feature, ' stroke="#666"')
        return f' stroke="{EDGE_COLOURS.get(feature, OTHER_EDGE_COLOUR)}"'

    edge_rank = {f: i for i, f in enumerate(EDGE_ORDER)}
    # Edge feature sets repeat across the map ({"coast"}, {"mountain"}, ...): sort each once.
    orders: dict[frozenset[str], list[tuple[int, str, str]]] = {}

    def ordered(features: frozenset[str]) -> list[tuple[int, str, str]]:
        """(level, feature, stroke attributes) from the edge inwards."""
        got = orders.get(features)
        if got is None:
            ranked = sorted(features, key=lambda f: (edge_rank.get(f, len(EDGE_ORDER)), f))
            got = orders[features] = [(i, f, edge_style(f)) for i, f in enumerate(ranked)]
        return got

    label_attr = f' y="{_n(lay.label_y)}"'
    # Territory names sit on the background where links run: a white-stroked copy underneath
    # gives them a white rim.
    halo = (f' fill="#fff" stroke="#fff" stroke-width="{_n(lay.font * 0.3)}" '
            'stroke-linejoin="round" aria-hidden="true"')
    body: list[str] = []
    min_x = min_y = math.inf
    max_x = max_y = -math.inf
    half_w, half_h = lay.half_w, lay.half_h
    bottom = half_h
    centres: dict[str, tuple[float, float]] = {}

    # Strings that repeat from tile to tile, made once: numbers, colours, symbols, edge sets.
    numbers: dict[float, str] = {}
    controllers: dict[str, str] = {}
    terrain_words: dict[str, str] = {}
    symbols: dict[tuple[str, str], str] = {}
    edge_blocks: dict[int, tuple[object, str, tuple[tuple[int, int], ...]]] = {}
    ring_ref, start_use, selected_use = defs.ref("i"), f'<use {defs.ref("s")}/>', \
        f'<use {defs.ref("q")}/>'
    if tile_url is not None:
        url_parts = [_esc(part) for part in tile_url.split("{label}")]
    unexplored_fill = f'"/><use {tile_ref} fill="url(#{p}x)'

    def grid_edges(edges: Mapping[int | str, frozenset[str]]
                   ) -> tuple[object, str, tuple[tuple[int, int], ...]]:
        """The edge strokes of a hex or square tile, and the strokes of ``defs`` they use."""
        slots: dict[tuple[int, str], list[int]] = {}
        for d in sorted(k for k in edges if type(k) is int and 0 <= k < edge_count):
            for slot in ordered(frozenset(edges[d])):
                slots.setdefault(slot[::2], []).append(d)
        out: list[str] = []
        used: list[tuple[int, int]] = []
        for (level, style), dirs in slots.items():
            # A feature on every edge (mountains, forests, open sea) is one ring.
            if len(dirs) == edge_count:
                out.append(f"<use {defs.edge_ref(-1, level)}{style}/>")
                used.append((-1, level))
            else:
                for d in dirs:
                    out.append(f"<use {defs.edge_ref(d, level)}{style}/>")
                    used.append((d, level))
        return edges, "".join(out), tuple(used)

    if territory or eco or patterns or line_styles is not None:
        reuse = None  # their tiles' drawings depend on other tiles or on the order drawn
    used: tuple[tuple[int, int], ...] = ()
    start = 0
    for t in tiles:
        if reuse is not None:
            kept_tile = reuse.get(id(t))
            if kept_tile is not None and kept_tile[0] is t:
                _view, fragment, cx, cy, used = kept_tile
                if cx - half_w < min_x:
                    min_x = cx - half_w
                if cx + half_w > max_x:
                    max_x = cx + half_w
                if cy - half_h < min_y:
                    min_y = cy - half_h
                if cy + half_h > max_y:
                    max_y = cy + half_h
                for d, level in used:
                    defs.edge_ref(d, level)
                body.append(fragment)
                continue
            start = len(body)
            used = ()
        if territory:
            if not grid.contains(t.label):
                raise ValueError(f"Tile {t.label!r} is not a territory of this map.")
            cx, cy = grid.center(t.label, size)
            centres[t.label] = (cx, cy)
            label_half = len(t.label) * lay.font * 0.3 if show_labels else 0.0
            w = max(half_w, label_half, lay.marker_room / 2 if t.markers else 0.0)
            if t.markers:
                bottom = lay.marker_y + lay.marker_h / 2
            elif show_labels:
                bottom = lay.label_y + lay.font * 0.3
            else:
                bottom = half_h
        else:
            cx, cy = grid.center(t.q, t.r, size)
            w = half_w
        if cx - w < min_x:
            min_x = cx - w
        if cx + w > max_x:
            max_x = cx + w
        if cy - half_h < min_y:
            min_y = cy - half_h
        if cy + bottom > max_y:
            max_y = cy + bottom

        label = _esc(t.label)
        terrain = t.terrain
        fill, pale, ink = fills.get(terrain) or fill_for(terrain)
        colour = t.controller_colour
        if colour:
            controller = controllers.get(colour)
            if controller is None:
                controller = controllers[colour] = safe_colour(colour, "")
        else:
            controller = ""
        words = terrain_words.get(terrain)
        if words is None:
            words = terrain_words[terrain] = terrain.replace("_", " ")
        tip = f"{t.label}, {words}"
        if t.controller_name:
            tip += f", {t.controller_name}"
        if t.settlement:
            tip += f", {t.settlement}"
        if not t.explored:
            tip += ", unexplored"
        ncx = numbers.get(cx)
        if ncx is None:
            ncx = numbers[cx] = _n(cx)
        ncy = numbers.get(cy)
        if ncy is None:
            ncy = numbers[cy] = _n(cy)
        if tile_url is not None:
            href = _url_part(t.label).join(url_parts)
            close = "</a>"
            body.append(f'<a href="{href}" data-tile="{label}" class="tile" transform="translate('
                        f'{ncx} {ncy})"><title>{_esc(tip)}</title><use {tile_ref} fill="'
                        f'{fill if t.explored else pale + unexplored_fill}"/>')
        else:
            close = "</g>"
            body.append(f'<g data-tile="{label}" class="tile" transform="translate('
                        f'{ncx} {ncy})"><title>{_esc(tip)}</title><use {tile_ref} fill="'
                        f'{fill if t.explored else pale + unexplored_fill}"/>')
        if controller:
            body.append(f"<use {ring_ref}{controller_attr(controller)}/>")
        if t.edges:
            if territory:
                for key in sorted(k for k in t.edges if isinstance(k, str)):
                    if key not in grid.neighbours(t.label):
                        continue
                    (x1, y1), (x2, y2) = grid.edge_points(t.label, key, size)
                    for level, _, style in ordered(frozenset(t.edges[key])):
                        # Later features sit further along the link, away from the node.
                        shift_x = (x1 + x2) / 2 - cx
                        shift_y = (y1 + y2) / 2 - cy
                        norm = math.hypot(shift_x, shift_y) or 1.0
                        off = level * defs.edge_width * 1.2
                        ox, oy = shift_x / norm * off - cx, shift_y / norm * off - cy
                        body.append(
                            f'<path d="M{_n(x1 + ox)} {_n(y1 + oy)}L{_n(x2 + ox)} {_n(y2 + oy)}"'
                            f'{style} stroke-width="{_n(defs.edge_width)}" '
                            f'stroke-linecap="round"/>'
                        )
            else:
                # Views often share one edges mapping (mapview.load_map): drawn once each.
                kept = edge_blocks.get(id(t.edges))
                if kept is None or kept[0] is not t.edges:
                    kept = edge_blocks[id(t.edges)] = grid_edges(t.edges)
                body.append(kept[1])
                used = kept[2]
        if t.is_start:
            body.append(start_use)
        if t.settlement:
            symbol = symbols.get((t.settlement, t.shape))
            if symbol is None:
                shape = SHAPE_IDS.get(settlement_shape(t, settlement_shapes), "d")
                symbol = symbols[(t.settlement, t.shape)] = \
                    f'<use {defs.ref(shape)} class="s{shape}"/>'
            body.append(symbol)
        if t.markers:
            body.append(_marker_svg(t.markers, controller or None, lay, eco,
                                    styles=line_styles, room=room))
        if show_labels:
            if territory:
                body.append(f"<text{label_attr}{halo}>{label}</text><text{label_attr}>{label}"
                            "</text>")
            else:
                if patterns:
                    body.append(label_box(t.label))  # clear of the patterns and the hatching
                body.append(f"<text{label_attr}{ink}>{label}</text>")
        if t.battle:
            # As large as the text at least, so it shows on a small overview too.
            body.append(_battle_mark(lay.half_w * 0.58, -lay.half_h * 0.05,
                                     max(size * 0.17, lay.font * 0.75), eco))
        if t.selected:
            body.append(selected_use)
        body.append(close)
        if reuse is not None:
            reuse[id(t)] = (t, "".join(body[start:]), cx, cy, used)

    if not tiles:
        min_x, min_y, max_x, max_y = 0.0, 0.0, float(size), float(size)
    pad = max(size * 0.08, 1.0)
    vb = (
        f"{_n(min_x - pad)} {_n(min_y - pad)} {_n(max_x - min_x + 2 * pad)} "
        f"{_n(max_y - min_y + 2 * pad)}"
    )
    out = [
        # A map of links is a group of them (a picture may hold nothing to tab to).
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vb}" width="100%" '
        f'role="{"group" if tile_url is not None else "img"}" '
        f'class="hkmap" font-family="sans-serif" text-anchor="middle">',
        f"<title>{_esc(_XML_INVALID.sub('', title).strip() or 'Map')}</title>",
        defs.render(extra="".join(used_patterns[name].render()
                                  for name in sorted(used_patterns))),
    ]
    if territory and centres:
        links = []
        for a in sorted(centres):
            ax, ay = centres[a]
            for b in grid.neighbours(a):
                if b > a and b in centres:
                    bx, by = centres[b]
                    links.append(f'<line x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}"/>')
        if links:
            out.append(
                f'<g class="links" stroke="{"#000" if eco else "#8a8a8a"}" '
                f'stroke-width="{_n(max(size * 0.06, 1))}">'
            )
            out.extend(links)
            out.append("</g>")
    out.append(f'<g font-size="{_n(lay.font)}">')
    out.extend(body)
    out.append("</g></svg>")
    return "".join(out)
