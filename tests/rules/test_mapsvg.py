"""Tests for campaign.mapsvg: the server-side SVG map."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.mapsvg import FALLBACK_FILL, Marker, TileView, render_svg, safe_colour
from campaign.rules.geometry import HexGrid, SquareGrid, TerritoryGraph

SVG_NS = "{http://www.w3.org/2000/svg}"
PALETTE = {
    "plain": "#cfe3a0",
    "forest": "#4f8a3c",
    "mountains": "#8f8275",
    "open_water": "#3b6fb6",
}
TERRAINS = list(PALETTE)


def views(grid: HexGrid | SquareGrid, **extra: object) -> list[TileView]:
    out = []
    for i, (q, r) in enumerate(grid.coords()):
        out.append(
            TileView(
                label=grid.label(q, r),
                q=q,
                r=r,
                terrain=TERRAINS[i % len(TERRAINS)],
                **extra,  # type: ignore[arg-type]
            )
        )
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def viewbox(svg: str) -> tuple[float, ...]:
    return tuple(float(v) for v in parse(svg).get("viewBox", "").split())


def tile_groups(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("class") == "tile"]


def test_one_group_and_one_use_per_tile_with_a_shared_shape():
    grid = HexGrid(7, 5)
    svg = render_svg(grid, views(grid), palette=PALETTE)
    root = parse(svg)
    assert root.tag == SVG_NS + "svg"
    assert root.get("width") == "100%" and root.get("role") == "img"
    groups = tile_groups(root)
    assert len(groups) == 35
    labels = sorted(grid.label(*c) for c in grid.coords())
    assert sorted(g.get("data-tile") for g in groups) == labels
    # One tile shape in <defs>, reused by every tile.
    shapes = [el for el in root.iter(SVG_NS + "polygon") if (el.get("id") or "").endswith("-t")]
    assert len(shapes) == 1 and len(shapes[0].get("points", "").split()) == 6
    shape_ref = "#" + shapes[0].get("id")
    uses = [el for el in root.iter(SVG_NS + "use") if el.get("href") == shape_ref]
    assert len(uses) == 35
    assert svg.count("<svg") == 1


def test_every_tile_has_a_title_with_label_terrain_and_controller():
    grid = HexGrid(2, 1)
    tiles = [
        TileView("0101", 0, 0, "forest", controller_colour="#aa0000", controller_name="Redmark"),
        TileView("0201", 1, 0, "open_water"),
    ]
    root = parse(render_svg(grid, tiles, palette=PALETTE, title="Campaign map"))
    assert root.find(SVG_NS + "title").text == "Campaign map"
    titles = [g.find(SVG_NS + "title").text for g in tile_groups(root)]
    assert titles == ["0101, forest, Redmark", "0201, open water"]


def test_terrain_fill_comes_from_the_palette_with_grey_fallback():
    grid = HexGrid(3, 1)
    tiles = [
        TileView("0101", 0, 0, "forest"),
        TileView("0201", 1, 0, "lava"),
        TileView("0301", 2, 0, "bad"),
    ]
    svg = render_svg(grid, tiles, palette={**PALETTE, "bad": "red"})
    fills = [g.find(SVG_NS + "use").get("fill") for g in tile_groups(parse(svg))]
    assert fills == ["#4f8a3c", FALLBACK_FILL, FALLBACK_FILL]


HOSTILE = [
    "<script>alert(1)</script>",
    '"><script>alert(1)</script>',
    "Tom & Jerry's <b>",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("nasty", HOSTILE)
def test_names_and_texts_are_escaped(nasty):
    grid = HexGrid(2, 2)
    tiles = [
        TileView(
            "0101", 0, 0, nasty,
            controller_colour="#123456",
            controller_name=nasty,
            settlement=nasty,
            markers=(Marker(nasty, "#00ff00", nasty, nasty),),
        ),
        TileView("0102", 0, 1, "plain"),
    ]
    svg = render_svg(grid, tiles, palette=PALETTE, title=nasty, tile_url="/t/{label}/")
    assert "<script" not in svg
    assert "<b>" not in svg
    root = parse(svg)  # still well-formed XML
    assert root.find(SVG_NS + "title").text == nasty
    texts = "".join(root.itertext())
    assert nasty in texts


@pytest.mark.parametrize(
    "colour",
    [
        'red"/><script>alert(1)</script>',
        "#12345",
        "#1234567",
        "url(#x)",
        "#ggg",
        "red",
        "#fff;fill:red",
        "",
        None,
    ],
)
def test_invalid_colours_never_reach_the_output(colour):
    grid = HexGrid(1, 1)
    tiles = [
        TileView(
            "0101", 0, 0, "plain",
            controller_colour=colour,
            controller_name="X",
            markers=(Marker("1", colour or "", "army", "a"),),
        )
    ]
    svg = render_svg(grid, tiles, palette={"plain": colour})  # type: ignore[dict-item]
    parse(svg)
    assert "<script" not in svg
    if colour:
        assert colour not in svg
    for value in re.findall(r'(?:fill|stroke)="([^"]*)"', svg):
        assert value in ("none", "url(#hkhf30-x)") or re.fullmatch(r"#[0-9a-f]{3,6}", value)


def test_safe_colour():
    assert safe_colour("#ABC") == "#abc"
    assert safe_colour("#A1b2C3") == "#a1b2c3"
    assert safe_colour("#A1b2C3\n") == FALLBACK_FILL
    assert safe_colour("blue", "") == ""


@settings(database=None, max_examples=80, deadline=None)
@given(st.text(max_size=30), st.text(max_size=12), st.text(max_size=30))
def test_any_text_keeps_the_svg_well_formed(name, marker, terrain):
    grid = HexGrid(1, 1)
    tile = TileView(
        "0101", 0, 0, terrain, controller_colour="#fff", controller_name=name,
        markers=(Marker(marker, "#000", "ship", name),),
    )
    root = parse(render_svg(grid, [tile], palette=PALETTE, title=name, tile_url="/{label}"))
    assert root.find(SVG_NS + "title").text  # falls back to "Map" when nothing printable is left


def test_control_characters_are_dropped():
    grid = HexGrid(1, 1)
    tile = TileView(
        "0101", 0, 0, "plain", controller_colour="#fff", controller_name="Red\x00\x1bmark"
    )
    svg = render_svg(grid, [tile], palette=PALETTE)
    assert "Redmark" in svg and "\x00" not in svg


def test_only_crops_the_view_box_and_the_tiles():
    grid = HexGrid(20, 15)
    tiles = views(grid)
    full = render_svg(grid, tiles, palette=PALETTE)
    part = render_svg(grid, tiles, palette=PALETTE, only={"0101", "0202"})
    fx, fy, fw, fh = viewbox(full)
    px, py, pw, ph = viewbox(part)
    assert len(tile_groups(parse(part))) == 2
    assert pw < fw / 5 and ph < fh / 5
    # The crop still holds both tiles: hex 0202 is centred at (45, 78) with size 30.
    assert px <= -30 and py <= -26 and px + pw >= 75 and py + ph >= 78 + 26
    # The full map's box holds the whole map.
    min_x, min_y, max_x, max_y = grid.pixel_bounds(30)
    assert fx <= min_x and fy <= min_y and fx + fw >= max_x and fy + fh >= max_y


def test_eco_mode_uses_only_greys():
    grid = HexGrid(6, 4)
    tiles = views(
        grid,
        controller_colour="#c0392b",
        controller_name="Red",
        edges={0: frozenset({"river"}), 2: frozenset({"coast", "mountain"})},
        markers=(Marker("3", "#2e86de", "army", "Blue army"),),
        explored=False,
        settlement="capital",
        is_start=True,
        selected=True,
    )
    svg = render_svg(grid, tiles, palette=PALETTE, eco=True)
    parse(svg)
    for colour in list(PALETTE.values()) + ["#c0392b", "#2e86de"]:
        assert colour not in svg
    colours = re.findall(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b", svg)
    assert colours
    for c in colours:
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:])
        assert h[0:2] == h[2:4] == h[4:6], c
    # Controllers and edges are still told apart by dashes.
    assert "stroke-dasharray" in svg


def test_tile_url_wraps_tiles_in_links():
    grid = HexGrid(3, 2)
    svg = render_svg(grid, views(grid), palette=PALETTE, tile_url="/c/7/tiles/{label}/?panel=1&x=2")
    root = parse(svg)
    links = list(root.iter(SVG_NS + "a"))
    assert len(links) == 6
    for a in links:
        assert a.get("class") == "tile"
        assert a.get("href") == f"/c/7/tiles/{a.get('data-tile')}/?panel=1&x=2"
    assert 'data-tile="0302"' in svg
    assert "&amp;x=2" in svg
    with pytest.raises(ValueError):
        render_svg(grid, views(grid), palette=PALETTE, tile_url="/tiles/")


SHAPES = {"village": "circle", "city": "square", "fortress": "triangle"}


@pytest.mark.parametrize(
    "settlement, shapes, css",
    [("village", SHAPES, "sv"), ("city", SHAPES, "sc"), ("fortress", SHAPES, "sf"),
     ("capital", SHAPES, "sk"), ("port", SHAPES, "sd"),
     # Without the rule system's shapes a kind has no shape of its own: the small marker.
     ("village", None, "sd"), ("capital", None, "sk")],
)
def test_each_settlement_kind_has_its_symbol(settlement, shapes, css):
    grid = HexGrid(1, 1)
    tile = TileView("0101", 0, 0, "plain", settlement=settlement)
    svg = render_svg(grid, [tile], palette=PALETTE, settlement_shapes=shapes)
    root = parse(svg)
    symbols = [el for el in root.iter(SVG_NS + "use") if el.get("class", "").startswith("s")]
    assert [el.get("class") for el in symbols] == [css]
    target = symbols[0].get("href")[1:]
    assert any(el.get("id") == target for el in root.iter())


def test_settlement_symbols_are_distinct_shapes():
    grid = HexGrid(1, 1)
    root = parse(render_svg(grid, [TileView("0101", 0, 0, "plain")], palette=PALETTE))
    defs = {el.get("id")[-1]: el for el in root.find(SVG_NS + "defs") if el.get("id")}
    assert defs["v"].tag.endswith("circle") and defs["c"].tag.endswith("rect")
    assert len(defs["f"].get("points").split()) == 3  # tower / triangle
    assert len(defs["k"].get("points").split()) == 10  # five-pointed star


def test_start_unexplored_controller_selection_and_labels():
    grid = HexGrid(2, 1)
    tiles = [
        TileView("0101", 0, 0, "plain", is_start=True, controller_colour="#AA0000",
                 explored=False, selected=True),
        TileView("0201", 1, 0, "plain"),
    ]
    svg = render_svg(grid, tiles, palette=PALETTE)
    first, second = tile_groups(parse(svg))
    refs = [u.get("href")[-2:] for u in first.iter(SVG_NS + "use")]
    assert refs == ["-t", "-t", "-i", "-s", "-q"]  # pale fill, hatch, ring, start, selection
    fills = [u.get("fill") for u in first.iter(SVG_NS + "use")][:2]
    assert fills[0] != PALETTE["plain"] and fills[1].startswith("url(#")
    assert [u.get("stroke") for u in first.iter(SVG_NS + "use")][2] == "#aa0000"
    assert [u.get("href")[-2:] for u in second.iter(SVG_NS + "use")] == ["-t"]
    assert first.find(SVG_NS + "text").text == "0101"
    quiet = render_svg(grid, tiles, palette=PALETTE, show_labels=False)
    assert "<text" not in quiet


def test_edge_features_are_strokes_on_their_edge():
    grid = HexGrid(3, 3)
    tiles = [
        TileView("0202", 1, 0, "mountains",
                 edges={**{d: frozenset({"mountain"}) for d in range(6)},
                        2: frozenset({"mountain", "river"})}),
        TileView("0101", 0, 0, "plain", edges={3: frozenset({"coast"}), 9: frozenset({"x"})}),
    ]
    svg = render_svg(grid, tiles, palette=PALETTE)
    root = parse(svg)
    mountain, plain = tile_groups(root)
    def strokes_of(group: ET.Element) -> list[tuple[str, str | None]]:
        uses = list(group.iter(SVG_NS + "use"))[1:]  # the first one is the tile itself
        return [(u.get("href", "").split("-")[-1], u.get("stroke")) for u in uses]

    strokes = strokes_of(mountain)
    # Mountains on every edge are drawn as one ring; the river sits one row further in.
    assert strokes == [("ea0", "#7a4a21"), ("e21", "#2f7fd8")]
    strokes = strokes_of(plain)
    assert strokes == [("e30", "#a9d8f5")]  # the out-of-range edge 9 is ignored
    ids = {el.get("id", "").split("-")[-1] for el in root.find(SVG_NS + "defs")}
    assert {"ea0", "e21", "e30"} <= ids


def test_markers_are_pills_and_overflow_is_summarised():
    grid = HexGrid(1, 1)
    markers = (
        Marker("3", "#2e86de", "army", "Blue army 3"),
        Marker("S1", "#2e86de", "ship", "Blue ship 1"),
        Marker("12", "#ffee00", "army", "Yellow army 12"),
        Marker("4", "#c0392b", "army", "Red army 4"),
        Marker("5", "#c0392b", "army", "Red army 5"),
    )
    svg = render_svg(grid, [TileView("0101", 0, 0, "plain", markers=markers)], palette=PALETTE)
    root = parse(svg)
    pills = [g for g in root.iter(SVG_NS + "g") if g.get("class") in ("ma", "ms", "mo")]
    texts = [p.find(SVG_NS + "text").text for p in pills]
    assert texts[0] == "3" and texts[-1].startswith("+")
    assert int(texts[-1][1:]) == len(markers) - (len(texts) - 1)
    assert pills[1].get("class") == "ms"
    assert pills[0].find(SVG_NS + "rect").get("fill") == "#2e86de"
    assert pills[0].find(SVG_NS + "title").text == "Blue army 3"
    # Light pills get dark text, dark pills light text.
    yellow = TileView("0101", 0, 0, "plain", markers=markers[2:3])
    light = render_svg(grid, [yellow], palette=PALETTE)
    assert [t.get("fill") for t in parse(light).iter(SVG_NS + "text")][0] == "#000"
    assert pills[0].find(SVG_NS + "text").get("fill") == "#fff"


def test_square_grid():
    grid = SquareGrid(4, 3)
    svg = render_svg(grid, views(grid, edges={1: frozenset({"river"})}), palette=PALETTE)
    root = parse(svg)
    assert len(tile_groups(root)) == 12
    shape = next(el for el in root.iter(SVG_NS + "polygon") if el.get("id", "").endswith("-t"))
    assert len(shape.get("points").split()) == 4
    assert viewbox(svg)[2] >= 4 * 30


def test_territory_map_draws_nodes_and_links():
    grid = TerritoryGraph(
        {"North": ["East", "West"], "East": ["North", "West"], "West": ["North", "East"],
         "Isle": []},
        positions={"North": (2, 0), "East": (4, 2), "West": (0, 2), "Isle": (2, 4)},
    )
    tiles = [
        TileView(
            label, 0, 0, "plain",
            edges={"East": frozenset({"river"}), "Nowhere": frozenset({"x"})},
        )
        for label in grid.coords()
    ]
    svg = render_svg(grid, tiles, palette=PALETTE, tile_url="/t/{label}/")
    root = parse(svg)
    assert len(tile_groups(root)) == 4
    assert len(list(root.iter(SVG_NS + "line"))) == 3
    assert root.find(SVG_NS + "defs").find(SVG_NS + "circle").get("id").endswith("-t")
    texts = list(root.iter(SVG_NS + "text"))
    labels = [t.text for t in texts if t.get("aria-hidden") is None]
    assert labels == sorted(grid.coords())
    # Each name has a white rim for the links running under it: a white-stroked copy drawn
    # first, since WeasyPrint draws no paint-order (its stroke would cover the letters).
    assert "paint-order" not in svg
    for rim, name in zip(texts[::2], texts[1::2]):
        assert (rim.text, rim.get("aria-hidden"), rim.get("stroke"), rim.get("fill")) == (
            name.text, "true", "#fff", "#fff")
        assert name.get("stroke") is None and name.get("y") == rim.get("y")
    assert svg.count('stroke="#2f7fd8"') == 2  # North and West border East
    cropped = render_svg(grid, tiles, palette=PALETTE, only={"North", "East"})
    assert len(list(parse(cropped).iter(SVG_NS + "line"))) == 1


def test_territory_labels_are_quoted_in_links():
    grid = TerritoryGraph({'Bad "Lands"': ["<Mire>"], "<Mire>": ['Bad "Lands"']})
    tiles = [TileView(label, 0, 0, "plain") for label in grid.coords()]
    svg = render_svg(grid, tiles, palette=PALETTE, tile_url="/t/{label}/")
    root = parse(svg)
    hrefs = sorted(a.get("href") for a in root.iter(SVG_NS + "a"))
    assert hrefs == ["/t/%3CMire%3E/", "/t/Bad%20%22Lands%22/"]
    assert {a.get("data-tile") for a in root.iter(SVG_NS + "a")} == set(grid.coords())


def test_empty_map_and_bad_size():
    svg = render_svg(HexGrid(2, 2), [], palette=PALETTE)
    assert parse(svg).get("viewBox")
    with pytest.raises(ValueError):
        render_svg(HexGrid(2, 2), [], palette=PALETTE, size=0)


def test_output_is_compact():
    grid = HexGrid(40, 25)
    svg = render_svg(grid, views(grid), palette=PALETTE)
    assert len(svg) / 1000 < 220  # bytes per plain tile, labels and titles included
    assert not re.search(r"\d\.\d\d", svg)  # coordinates keep one decimal at most


def test_rendering_is_deterministic():
    grid = HexGrid(5, 5, "pointy")
    tiles = views(grid, controller_colour="#123", markers=(Marker("1", "#fff"),))
    assert render_svg(grid, tiles, palette=PALETTE) == render_svg(grid, tiles, palette=PALETTE)


def test_terrain_patterns_fill_explored_tiles_and_box_the_labels():
    """A terrain may be filled with a pattern (black and white paper): explored tiles of it
    take the pattern, defined once; a terrain patterned with None is plain white; unexplored
    tiles keep their hatching; every label sits on a white box as wide as ``text_width``
    says."""
    from campaign.mapsvg import Pattern

    grid = HexGrid(3, 1)
    tiles = [TileView("0101", 0, 0, "forest"), TileView("0201", 1, 0, "plain"),
             TileView("0301", 2, 0, "forest", explored=False)]
    rings = Pattern("rings", 14, 12, '<circle cx="4" cy="4" r="2.3" fill="none" stroke="#555"/>')
    svg = render_svg(grid, tiles, palette=PALETTE, eco=True,
                     terrain_patterns={"forest": rings, "plain": None},
                     text_width=lambda text: 2.0)
    root = parse(svg)
    defs = root.find(SVG_NS + "defs")
    ids = [el.get("id") for el in defs.iter(SVG_NS + "pattern")]
    assert ids.count("hkpat-rings") == 1 and len(ids) == 2  # and the unexplored hatching
    forest, plain, hidden = tile_groups(root)
    assert next(forest.iter(SVG_NS + "use")).get("fill") == "url(#hkpat-rings)"
    assert next(plain.iter(SVG_NS + "use")).get("fill") == "#fff"
    assert "url(#hk" in [u.get("fill") for u in hidden.iter(SVG_NS + "use")][1]  # hatching
    font = float(root.find(SVG_NS + "g").get("font-size"))
    for group in (forest, plain, hidden):
        box = group.find(SVG_NS + "rect")
        assert float(box.get("width")) == pytest.approx(2.3 * font, abs=0.1)
        assert box.get("fill") == "#fff"
    assert svg.index("<rect") < svg.index("<text")  # the box under the label
    plain_svg = render_svg(grid, tiles, palette=PALETTE, eco=True)
    assert "hkpat-" not in plain_svg
    assert all(g.find(SVG_NS + "rect") is None for g in tile_groups(parse(plain_svg)))
    with pytest.raises(ValueError):
        Pattern('x"/><script>', 1, 1, "")

