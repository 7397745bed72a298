"""The map sheet: cutting a large map into pages, cut marks, the overview, legend and eco mode."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from campaign import mapview, pdf
from campaign.models import Tile
from campaign.systems.mighty_kingdoms import sheets
from tests.conftest import make_campaign
from tests.print.conftest import SheetsWorld, read_pdf

SQRT3 = math.sqrt(3)


def _offsets(campaign: Any) -> dict[str, tuple[int, int]]:
    """0-based (column, row) of every tile, read from its label ("0305": column 3, row 5)."""
    labels = Tile.objects.filter(map__campaign=campaign).values_list("label", flat=True)
    return {label: (int(label[:2]) - 1, int(label[2:]) - 1) for label in labels}


def _expected_fit(options: pdf.PrintOptions, tile_mm: float) -> tuple[int, int]:
    """Flat-top hex columns and rows that fit one page with tiles ``tile_mm`` wide: k columns
    span (0.75 (k - 1) + 1) tiles, m rows (odd columns half a row down) (m + 0.5) tile heights."""
    width, height = pdf.text_area_mm(options)
    room_w = width - 2 * pdf.CUT_MARGIN_MM
    room_h = height - sheets.MAP_PAGE_TITLE_MM - 2 * pdf.CUT_MARGIN_MM
    columns = math.floor((room_w / tile_mm - 1) / 0.75 + 1e-9) + 1
    rows = math.floor(room_h / (tile_mm * SQRT3 / 2) - 0.5 + 1e-9)
    return columns, rows


@pytest.mark.parametrize(("width", "height"), [(24, 16), (40, 30)])
@pytest.mark.parametrize("paper_options", [("a4", True), ("a4", False), ("letter", True),
                                           ("letter", False)])
def test_a_cut_map_tiles_the_map_sharing_one_column_and_row(
        gm: Any, width: int, height: int, paper_options: tuple[str, bool]) -> None:
    campaign = make_campaign(gm, slug=f"cut-{width}x{height}", width=width, height=height,
                             seed=5)
    options = pdf.PrintOptions(paper_options[0], landscape=paper_options[1])
    paper = sheets.map_context(pdf.access_for_user(campaign, gm), None, options)["paper"]
    offsets = _offsets(campaign)
    assert paper.split
    # One legible tile size on every page, the largest that needs no more pages.
    assert pdf.MIN_TILE_MM <= paper.tile_mm <= pdf.MAX_TILE_MM
    columns_fit, rows_fit = _expected_fit(options, paper.tile_mm)
    assert (paper.columns_fit, paper.rows_fit) == (columns_fit, rows_fit)
    across = 1 if width <= columns_fit else math.ceil((width - 1) / (columns_fit - 1))
    down = 1 if height <= rows_fit else math.ceil((height - 1) / (rows_fit - 1))
    assert len(paper.pages) == across * down
    larger = _expected_fit(options, paper.tile_mm * 1.02)
    assert (math.ceil((width - 1) / max(larger[0] - 1, 1))
            * math.ceil((height - 1) / max(larger[1] - 1, 1))) > len(paper.pages)
    grid = {(p.row, p.col): p for p in paper.pages}
    assert set(grid) == {(r, c) for r in range(down) for c in range(across)}
    seen: set[str] = set()
    for page in paper.pages:
        first_col, last_col = page.columns
        first_row, last_row = page.rows
        assert last_col - first_col + 1 <= columns_fit and last_row - first_row + 1 <= rows_fit
        # A page holds exactly the tiles of its columns and rows.
        assert page.labels == {label for label, (col, row) in offsets.items()
                               if first_col <= col <= last_col and first_row <= row <= last_row}
        seen |= page.labels
        # The same scale everywhere: the frame is its tiles plus the margin for the cut labels.
        spanned = last_col - first_col + 1
        frame = paper.tile_mm * (0.75 * (spanned - 1) + 1) + 2 * pdf.CUT_MARGIN_MM
        assert page.width_mm == pytest.approx(frame, abs=0.05)
        right = grid.get((page.row, page.col + 1))
        if right is not None:
            assert right.columns[0] == last_col  # one shared column
            shared = page.labels & right.labels
            assert {offsets[label][0] for label in shared} == {last_col}
            assert len(shared) == last_row - first_row + 1
        below = grid.get((page.row + 1, page.col))
        if below is not None:
            assert below.rows[0] == last_row  # one shared row
            shared = page.labels & below.labels
            assert {offsets[label][1] for label in shared} == {last_row}
            assert len(shared) == last_col - first_col + 1
    assert seen == set(offsets)
    assert paper.pages[0].columns[0] == 0 and paper.pages[-1].columns[1] == width - 1
    assert paper.pages[-1].rows[1] == height - 1


def test_cut_map_pdf_pages(gm: Any) -> None:
    """Read back from the PDF: an overview, then one page per part, each with all its tiles
    and the cut marks of its neighbours on white boxes."""
    campaign = make_campaign(gm, slug="cut-pdf", width=24, height=16, seed=5)
    access = pdf.access_for_user(campaign, gm)
    options = pdf.PrintOptions("a4", landscape=True)
    paper = sheets.map_context(access, None, options)["paper"]
    reader = read_pdf(sheets.map_pdf(access, None, options))
    texts = [" ".join((page.extract_text() or "").split()) for page in reader.pages]
    assert len(texts) == len(paper.pages) + 1
    assert f"overview of {len(paper.pages)} map pages" in texts[0]
    for page, text in zip(paper.pages, texts[1:]):
        assert f"Map page {page.number} of {len(paper.pages)}" in text
        assert page.labels <= set(re.findall(r"\b\d{4}\b", text))
        for side, number in page.neighbours:
            words = {"right": f"page {number} →", "left": f"← page {number}",
                     "below": f"page {number} →", "above": f"← page {number}"}[side]
            # Turned text comes back without its spaces.
            assert words.replace(" ", "") in text.replace(" ", ""), (page.number, side)
    # No halo WeasyPrint cannot draw: labels and frame numbers sit on white boxes.
    for svg in [p.svg for p in paper.pages] + [paper.overview]:
        assert "paint-order" not in svg.split("</defs>", 1)[1].split('class="cuts"')[-1]
    overlay = paper.pages[0].svg.split('class="cuts"', 1)[1]
    assert overlay.count("<text") == overlay.count('fill="#fff" stroke="none"/><text')
    frames = paper.overview.split('class="frames"', 1)[1]
    assert frames.count("<rect") == 2 * len(paper.pages)  # a frame and a number box each
    assert frames.count('fill="#fff" stroke="none"/><text') == len(paper.pages)


def test_legend_keys_are_drawn_at_the_maps_scale(sheets_world: SheetsWorld) -> None:
    world = sheets_world
    access = world.access("gm")
    paper = sheets.map_context(access, None, pdf.PrintOptions("a4", landscape=True))["paper"]
    loaded = mapview.load_map(world.campaign)
    labels = [item.label for item in paper.legend]
    assert labels == pdf.legend_labels(world.campaign, loaded,
                                       sheets._battle_tiles(world.campaign))
    assert labels[-1] == "Battle waiting"
    for word in ("Village", "City", "Fortress", "Capital", "Army token"):
        assert word in labels
    features = {f for v in loaded.views for edge in v.edges.values() for f in edge}
    for feature in world.campaign.system.edge_features:
        assert (f"{feature.label.split(' (')[0]} edge" in labels) == (feature.slug in features)
    key_w, _key_h = pdf.LEGEND_KEY_MM
    for item in paper.legend:
        box = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+" width="([\d.]+)mm"',
                        item.svg)
        assert box is not None
        window, width = float(box.group(1)), float(box.group(2))
        assert width == key_w
        if item.label in ("Start tile", "Capital"):
            # A ring or star wider than the key is drawn whole instead, never larger.
            assert width / window <= paper.scale_mm * 1.01
            continue
        # One SVG unit is as long in the key as on the map: a village is as large in both.
        assert width / window == pytest.approx(paper.scale_mm, rel=0.01)


def test_eco_terrains_differ_by_pattern(sheets_world: SheetsWorld) -> None:
    """In black and white, plain, hills, marsh and open water must not be four near-equal
    greys: each terrain gets its own pattern, on the map and in the legend alike."""
    world = sheets_world
    system = world.campaign.system
    patterns = pdf.eco_patterns(system.terrains)
    assert len(set(patterns.values())) == len(system.terrains)
    assert patterns["plain"] == "" and patterns["open_water"] == "water"
    assert {patterns[t] for t in ("hills", "marsh", "forest", "mountains")} == {
        "hills", "marsh", "forest", "mountains"}
    access = world.access("gm")
    paper = sheets.map_context(access, None, pdf.PrintOptions("a4", landscape=True,
                                                             eco=True))["paper"]
    fills = {}
    for item in paper.legend:
        terrain = next((t for t in system.terrains if t.label == item.label), None)
        if terrain is not None:
            fill = re.search(r'data-tile="" class="tile"[^>]*><title>[^<]*</title>'
                             r'<use href="#[^"]+" fill="([^"]+)"', item.svg).group(1)
            fills[terrain.slug] = fill
            assert fill == (f"url(#hkpat-{patterns[terrain.slug]})" if patterns[terrain.slug]
                            else "#fff")
    assert len(set(fills.values())) == len(fills) >= 2
    svg = paper.pages[0].svg
    loaded = mapview.load_map(world.campaign)
    for view in loaded.views:
        if view.explored:
            name = patterns[view.terrain]
            paint = f"url(#hkpat-{name})" if name else "#fff"
            assert re.search(rf'data-tile="{view.label}" class="tile"[^>]*><title>[^<]*'
                             rf'</title><use href="#[^"]+" fill="{re.escape(paint)}"', svg)
    for name in {patterns[v.terrain] for v in loaded.views if v.explored} - {""}:
        assert f'<pattern id="hkpat-{name}"' in svg


@pytest.mark.parametrize("eco", [False, True])
def test_a_territory_map_prints_with_rims_weasyprint_draws(gm: Any, eco: bool) -> None:
    """A territory map's names sit where the links run: each has a white-stroked copy drawn
    under it (no paint-order, which WeasyPrint draws as a stroke over the letters). The sheet
    counts territories, not a grid of numbered tiles."""
    from campaign.models import Map

    campaign = make_campaign(gm, slug="lands", seed=None, width=3, height=3)
    game_map = Map.objects.get(campaign=campaign)
    Tile.objects.filter(map=game_map).delete()
    Map.objects.filter(pk=game_map.pk).update(kind="territory", width=0, height=0)
    for q, label, adjacent, terrain in ((0, "North", ["Bad Lands"], "hills"),
                                        (2, "Bad Lands", ["North", "Crowfen"], "plain"),
                                        (4, "Crowfen", ["Bad Lands"], "marsh")):
        Tile.objects.create(map=game_map, q=q, r=0, label=label, terrain=terrain,
                            adjacent=adjacent)
    access = pdf.access_for_user(campaign, gm)
    options = pdf.PrintOptions("a4", eco=eco)
    context = sheets.map_context(access, None, options)
    svg = context["paper"].pages[0].svg
    assert "paint-order" not in svg
    for name in ("North", "Bad Lands", "Crowfen"):
        assert re.search(rf'<text y="[\d.]+" fill="#fff" stroke="#fff" stroke-width="[\d.]+" '
                         rf'stroke-linejoin="round" aria-hidden="true">{name}</text>'
                         rf'<text y="[\d.]+">{name}</text>', svg), name
    text = " ".join(read_pdf(sheets.map_pdf(access, None, options)).pages[0]
                    .extract_text().split())
    assert "3 territories." in text and "Tile labels give column" not in text
    assert all(name in text for name in ("North", "Bad Lands", "Crowfen"))
