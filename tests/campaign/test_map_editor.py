"""The GM's map tools: the tile editor in the panel, the brush, and making a new map."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaign import services
from campaign.chronicle import undo_latest
from campaign.mapview import TILE_SIZE
from campaign.models import Event, Kingdom, Map, Tile
from tests.campaign.conftest import World, dump, error_text
from tests.conftest import MIGHTY_KINGDOMS

FEATURES = ("river", "mountain", "forest", "water", "coast")
SHARED = {"river", "water"}


def tile(world: World, label: str) -> Tile:
    return Tile.objects.get(map__campaign=world.campaign, label=label)


def tile_state(t: Tile) -> dict[str, Any]:
    return {
        "terrain": t.terrain, "settlement": t.settlement, "controller_id": t.controller_id,
        "explored": t.explored, "is_start": t.is_start, "name": t.name, "edges": t.edges,
        "features": t.features,
    }


def last_event(world: World) -> Event:
    return Event.objects.filter(campaign=world.campaign).order_by("-seq").first()


# -- the tile editor --------------------------------------------------------------------------


def edit_url(world: World, label: str) -> str:
    return reverse("campaign:tile_edit", args=[world.campaign.slug, label])


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_gm_edits_a_tile_without_javascript(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign, label="0302").update(edges={"1": ["forest"]})
    response = world.client("gm").post(edit_url(world, "0302"), {
        "terrain": "hills", "settlement": "city", "controller": str(world.red.pk),
        "explored": "on", "name": "Redhold", "edge_0": ["river", "mountain"], "edge_4": "coast",
    })
    assert response.status_code == 302
    assert response["Location"] == f"/c/{world.campaign.slug}/map/?tile=0302"
    assert tile_state(tile(world, "0302")) == {
        "terrain": "hills", "settlement": "city", "controller_id": world.red.pk,
        "explored": True, "is_start": False, "name": "Redhold",
        # The form holds every side: unticked sides are cleared.
        "edges": {"0": ["mountain", "river"], "4": ["coast"]},
        "features": tile(world, "0302").features,
    }
    event = last_event(world)
    assert (event.kind, event.visibility, event.actor) == ("map.tile", "gm", world.gm)
    assert event.summary.startswith("Tile 0302 edited: terrain hills, settlement city, "
                                    "controller Red, explored yes")
    assert event.reversible


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_tile_form_rivers_and_water_lie_on_both_sides_of_an_edge(world: World) -> None:
    """A river or water edge set in the tile form is set on the neighbour's facing side too,
    and taken off both; other features stay on the edited tile only. Undo restores both."""
    Tile.objects.filter(map__campaign=world.campaign).update(edges={})
    grid = services.grid_for(world.campaign.map)
    centre = tile(world, "0403")
    north = Tile.objects.get(map__campaign=world.campaign,
                             **dict(zip(("q", "r"), grid.step(centre.q, centre.r, 0))))
    south = Tile.objects.get(map__campaign=world.campaign,
                             **dict(zip(("q", "r"), grid.step(centre.q, centre.r, 3))))
    Tile.objects.filter(pk=north.pk).update(edges={"2": ["forest"]})
    before = [tile_state(t) for t in Tile.objects.filter(map__campaign=world.campaign)
              .order_by("pk")]
    client = world.client("gm")
    form = {"terrain": centre.terrain, "settlement": "", "edge_0": ["river", "mountain"],
            "edge_3": "water"}
    assert client.post(edit_url(world, "0403"), form).status_code == 302
    north.refresh_from_db()
    south.refresh_from_db()
    assert north.edges == {"2": ["forest"], str(grid.opposite(0)): ["river"]}
    assert south.edges == {str(grid.opposite(3)): ["water"]}
    # Unticking the river takes it off the neighbour too; the mountain stays one-sided.
    form = {"terrain": centre.terrain, "settlement": "", "edge_0": "mountain"}
    assert client.post(edit_url(world, "0403"), form).status_code == 302
    north.refresh_from_db()
    south.refresh_from_db()
    assert north.edges == {"2": ["forest"]}
    assert south.edges == {}
    undo_latest(world.campaign, world.gm)
    undo_latest(world.campaign, world.gm)
    assert [tile_state(t) for t in Tile.objects.filter(map__campaign=world.campaign)
            .order_by("pk")] == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_gm_edits_a_tile_with_htmx(world: World) -> None:
    response = world.client("gm").post(
        edit_url(world, "0405"),
        {"terrain": "marsh", "settlement": "", "controller": "", "edge_2": "water"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert response["HX-Trigger"] == "map-changed"
    body = response.content.decode()
    assert "<html" not in body
    assert "Saved." in body
    assert "Terrain</dt><dd>Marsh" in body
    t = tile(world, "0405")
    assert (t.terrain, t.settlement, t.controller_id, t.edges) == (
        "marsh", "", None, {"2": ["water"]}
    )
    assert last_event(world).kind == "map.tile"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"terrain": "lava"},
         "terrain: Select a valid choice. lava is not one of the available choices."),
        ({}, "terrain: This field is required."),
        ({"terrain": "hills", "settlement": "castle"},
         "settlement: Select a valid choice. castle is not one of the available choices."),
        ({"terrain": "hills", "controller": "abc"}, "controller: Select a valid choice."),
        ({"terrain": "hills", "controller": "999999"}, "controller: Select a valid choice."),
        ({"terrain": "hills", "controller": "FOREIGN"}, "controller: Select a valid choice."),
        ({"terrain": "hills", "edge_1": "lava"}, "Unknown edge feature(s): lava."),
        ({"terrain": "hills", "name": "n" * 61},
         "name: Ensure this value has at most 60 characters"),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_bad_tile_edit_is_refused(world: World, data: dict[str, str], message: str,
                                  htmx: bool) -> None:
    if data.get("controller") == "FOREIGN":
        far = Kingdom.objects.create(campaign=world.elsewhere, name="Far")
        data = {**data, "controller": str(far.pk)}
    before = dump()
    headers = {"HX-Request": "true"} if htmx else {}
    response = world.client("gm").post(edit_url(world, "0302"), data, headers=headers)
    assert response.status_code == 400
    assert message in error_text(response)
    if htmx:
        assert response.content.startswith(b'<p class="error" role="alert">')
    assert dump() == before


def test_tile_edit_of_unknown_tile_is_404(world: World) -> None:
    before = dump()
    assert world.client("gm").post(edit_url(world, "9999"), {"terrain": "hills"}).status_code == 404
    assert dump() == before


# -- the brush --------------------------------------------------------------------------------


def paint(world: World, data: dict[str, Any], htmx: bool = False, persona: str = "gm"):
    headers = {"HX-Request": "true"} if htmx else {}
    return world.client(persona).post(
        reverse("campaign:map_paint", args=[world.campaign.slug]), data, headers=headers
    )


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_terrain_brush(world: World) -> None:
    response = paint(world, {"tile": "0203", "tool": "terrain", "value": "mountains"})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:map_edit", args=[world.campaign.slug])
    assert tile(world, "0203").terrain == "mountains"
    event = last_event(world)
    assert (event.kind, event.summary, event.visibility) == (
        "map.tile", "Tile 0203 edited: terrain mountains.", "gm"
    )


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_settlement_brush_sets_and_clears(world: World) -> None:
    response = paint(world, {"tile": "0203", "tool": "settlement", "value": "fortress"})
    assert response.status_code == 302
    assert tile(world, "0203").settlement == "fortress"
    assert last_event(world).summary == "Tile 0203 edited: settlement fortress."
    assert paint(world, {"tile": "0203", "tool": "settlement", "value": ""}).status_code == 302
    assert tile(world, "0203").settlement == ""
    assert last_event(world).summary == "Tile 0203 edited: settlement none."


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_controller_brush_sets_explores_and_clears(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(explored=False)
    response = paint(world, {"tile": "0203", "tool": "controller", "value": str(world.blue.pk)})
    assert response.status_code == 302
    t = tile(world, "0203")
    assert (t.controller_id, t.explored) == (world.blue.pk, True)
    assert last_event(world).summary == "Tile 0203 edited: controller Blue, explored yes."
    assert paint(world, {"tile": "0203", "tool": "controller", "value": ""}).status_code == 302
    t = tile(world, "0203")
    assert (t.controller_id, t.explored) == (None, True)


@pytest.mark.grid_maps  # its tiles or the generator are a grid
@pytest.mark.parametrize(("tool", "field"), [("explored", "explored"), ("start", "is_start")])
def test_toggle_brushes(world: World, tool: str, field: str) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(explored=False, is_start=False)
    assert paint(world, {"tile": "0505", "tool": tool, "value": ""}).status_code == 302
    assert getattr(tile(world, "0505"), field) is True
    assert paint(world, {"tile": "0505", "tool": tool, "value": ""}).status_code == 302
    assert getattr(tile(world, "0505"), field) is False
    assert Event.objects.filter(campaign=world.campaign, kind="map.tile").count() == 2


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_brush_with_htmx_returns_the_redrawn_map(world: World) -> None:
    response = paint(world, {"tile": "0203", "tool": "settlement", "value": "city"}, htmx=True)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("<svg") and "<html" not in body
    assert len(re.findall(r'class="tile"', body)) == 48
    # The painted tile is drawn with its city and selected.
    assert re.search(r'data-tile="0203" class="tile"[^>]*>.*?class="sc".*?</a>', body, re.S)


def edge_tap(world: World, label: str, direction: int) -> tuple[float, float]:
    """A point just inside the middle of one edge of a tile, in SVG units."""
    t = tile(world, label)
    grid = services.grid_for(world.campaign.map)
    (x1, y1), (x2, y2) = grid.edge_points(t.q, t.r, direction, TILE_SIZE)
    cx, cy = grid.center(t.q, t.r, TILE_SIZE)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    return cx + 0.85 * (mx - cx), cy + 0.85 * (my - cy)


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_tile_centres_in_the_svg_match_the_grid(world: World) -> None:
    """The editor sends tap points in SVG units: the SVG must place tiles where the grid says."""
    url = reverse("campaign:map_edit", args=[world.campaign.slug])
    body = world.client("gm").get(url).content.decode()
    grid = services.grid_for(world.campaign.map)
    for label in ("0101", "0403", "0806"):
        t = tile(world, label)
        match = re.search(
            rf'data-tile="{label}" class="tile" transform="translate\(([-\d.]+) ([-\d.]+)\)"', body
        )
        assert match is not None
        cx, cy = grid.center(t.q, t.r, TILE_SIZE)
        assert (float(match.group(1)), float(match.group(2))) == pytest.approx((cx, cy), abs=0.06)


@pytest.mark.parametrize("feature", FEATURES)
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_edge_brush_on_every_side(world: World, feature: str) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(edges={})
    grid = services.grid_for(world.campaign.map)
    centre = tile(world, "0403")
    for direction in range(6):
        x, y = edge_tap(world, "0403", direction)
        nq, nr = grid.step(centre.q, centre.r, direction)
        neighbour = Tile.objects.get(map__campaign=world.campaign, q=nq, r=nr)
        opposite = str(grid.opposite(direction))
        before_neighbour = neighbour.edges

        response = paint(world, {"tile": "0403", "tool": "edge", "value": feature,
                                 "x": f"{x:.2f}", "y": f"{y:.2f}"})
        assert response.status_code == 302
        assert tile(world, "0403").edges[str(direction)] == [feature]
        neighbour.refresh_from_db()
        if feature in SHARED:
            assert neighbour.edges == {**before_neighbour, opposite: [feature]}
        else:
            assert neighbour.edges == before_neighbour
        event = last_event(world)
        assert (event.kind, event.summary) == (
            "map.edge", f"{feature.capitalize()} added to an edge of 0403."
        )
    assert tile(world, "0403").edges == {str(d): [feature] for d in range(6)}

    # A second tap on an edge takes the feature off again, on both sides.
    x, y = edge_tap(world, "0403", 2)
    assert paint(world, {"tile": "0403", "tool": "edge", "value": feature,
                         "x": str(x), "y": str(y)}).status_code == 302
    assert "2" not in tile(world, "0403").edges
    nq, nr = grid.step(centre.q, centre.r, 2)
    east = Tile.objects.get(map__campaign=world.campaign, q=nq, r=nr)
    assert str(grid.opposite(2)) not in east.edges
    assert last_event(world).summary == f"{feature.capitalize()} removed from an edge of 0403."


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_river_on_the_map_border_marks_only_this_tile(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(edges={})
    before = {t.label: t.edges for t in Tile.objects.filter(map__campaign=world.campaign)}
    x, y = edge_tap(world, "0101", 0)  # north edge of the top-left tile: nothing beyond
    assert paint(world, {"tile": "0101", "tool": "edge", "value": "river",
                         "x": str(x), "y": str(y)}).status_code == 302
    after = {t.label: t.edges for t in Tile.objects.filter(map__campaign=world.campaign)}
    assert after == {**before, "0101": {"0": ["river"]}}


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_edge_brush_keeps_other_features_on_that_edge(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(edges={})
    Tile.objects.filter(map__campaign=world.campaign, label="0403").update(edges={"3": ["forest"]})
    x, y = edge_tap(world, "0403", 3)
    assert paint(world, {"tile": "0403", "tool": "edge", "value": "river",
                         "x": str(x), "y": str(y)}).status_code == 302
    assert tile(world, "0403").edges == {"3": ["forest", "river"]}


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"tile": "0203", "tool": "terrain", "value": "lava"}, 400, "Unknown terrain 'lava'."),
        ({"tile": "0203", "tool": "terrain", "value": ""}, 400, "Unknown terrain ''."),
        ({"tile": "0203", "tool": "settlement", "value": "castle"}, 400,
         "Unknown settlement 'castle'."),
        ({"tile": "0203", "tool": "controller", "value": "abc"}, 400, "Not a valid kingdom."),
        ({"tile": "0203", "tool": "controller", "value": "999999"}, 400,
         "That kingdom is not part of this campaign."),
        ({"tile": "0203", "tool": "controller", "value": "FOREIGN"}, 400,
         "That kingdom is not part of this campaign."),
        ({"tile": "0203", "tool": "flood", "value": "x"}, 400, "Unknown editor tool 'flood'."),
        ({"tile": "0203", "tool": "", "value": ""}, 400, "Unknown editor tool ''."),
        ({"tile": "0203", "tool": "edge", "value": "river"}, 400,
         "Tap near the edge you want to change."),
        ({"tile": "0203", "tool": "edge", "value": "river", "x": "left", "y": "1"}, 400,
         "Tap near the edge you want to change."),
        ({"tile": "0203", "tool": "edge", "value": "river", "x": "nan", "y": "nan"}, 400,
         "Tap near the edge you want to change."),
        ({"tile": "0203", "tool": "edge", "value": "lava", "x": "1", "y": "1"}, 400,
         "Unknown edge feature 'lava'."),
        ({"tile": "9999", "tool": "terrain", "value": "hills"}, 404, ""),
        ({"tool": "terrain", "value": "hills"}, 404, ""),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_bad_brush_strokes_are_refused(world: World, data: dict[str, str], status: int,
                                       message: str, htmx: bool) -> None:
    if data.get("value") == "FOREIGN":
        far = Kingdom.objects.create(campaign=world.elsewhere, name="Far")
        data = {**data, "value": str(far.pk)}
    before = dump()
    response = paint(world, data, htmx=htmx)
    assert response.status_code == status
    assert message in error_text(response)
    assert dump() == before


# -- a new map --------------------------------------------------------------------------------


def tile_rows(world: World) -> list[tuple[Any, ...]]:
    return list(
        Tile.objects.filter(map__campaign=world.campaign).order_by("label").values_list(
            "label", "q", "r", "terrain", "features", "edges", "is_start", "settlement",
            "controller_id", "explored", "name",
        )
    )


def generate(world: World, **data: str):
    url = reverse("campaign:map_generate", args=[world.campaign.slug])
    return world.client("gm").post(url, data)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_same_seed_same_map(world: World) -> None:
    response = generate(world, width="10", height="7", orientation="flat", seed="4242")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:map_edit", args=[world.campaign.slug])
    first = tile_rows(world)
    assert len(first) == 70
    game_map = Map.objects.get(campaign=world.campaign)
    assert (game_map.width, game_map.height, game_map.orientation, game_map.seed) == (
        10, 7, "flat", 4242
    )
    event = last_event(world)
    assert (event.kind, event.summary, event.data, event.visibility) == (
        "map.generated", "New 10x7 map (from seed 4242).", {"seed": 4242}, "public"
    )
    # Some variety: a random map is not one terrain everywhere, and has starting tiles.
    assert len({row[3] for row in first}) > 2
    assert any(row[6] for row in first)

    same = generate(world, width="10", height="7", orientation="flat", seed="4242")
    assert same.status_code == 302
    assert tile_rows(world) == first
    other = generate(world, width="10", height="7", orientation="flat", seed="4243")
    assert other.status_code == 302
    assert tile_rows(world) != first
    assert Event.objects.filter(campaign=world.campaign, kind="map.generated").count() == 3
    # The chronicle shows it to everyone.
    chronicle = world.client("observer").get(
        reverse("campaign:chronicle", args=[world.campaign.slug])
    )
    assert "New 10x7 map (from seed 4242)." in chronicle.content.decode()


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_blank_map(world: World) -> None:
    response = generate(world, width="4", height="3", orientation="pointy", seed="5", blank="on")
    assert response.status_code == 302
    rows = tile_rows(world)
    assert [row[0] for row in rows] == [f"{c:02d}{r:02d}" for c in range(1, 5) for r in range(1, 4)]
    assert {row[3] for row in rows} == {"plain"}
    assert last_event(world).summary == "New 4x3 map (blank)."
    assert Map.objects.get(campaign=world.campaign).seed is None


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_generate_without_seed_picks_one(world: World) -> None:
    response = generate(world, width="5", height="5", orientation="flat")
    assert response.status_code == 302
    seed = Map.objects.get(campaign=world.campaign).seed
    assert seed is not None and 1 <= seed < 10**9
    assert last_event(world).data == {"seed": seed}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"width": "500", "height": "5", "orientation": "flat"},
         "width: Ensure this value is less than or equal to 100."),
        ({"width": "2", "height": "5", "orientation": "flat"},
         "width: Ensure this value is greater than or equal to 3."),
        ({"width": "5", "height": "x", "orientation": "flat"}, "height: Enter a whole number."),
        ({"width": "5", "height": "5", "orientation": "diagonal"},
         "orientation: Select a valid choice. diagonal is not one of the available choices."),
        ({"width": "5", "height": "5", "orientation": "flat", "seed": "-1"},
         "seed: Ensure this value is greater than or equal to 0."),
        ({}, "width: This field is required."),
    ],
)
def test_bad_generate_input_is_refused(world: World, data: dict[str, str], message: str) -> None:
    before = dump()
    response = generate(world, **data)
    assert response.status_code == 400
    assert "The map was not changed: " in error_text(response)
    assert message in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_editor_page_offers_every_brush(world: World) -> None:
    url = reverse("campaign:map_edit", args=[world.campaign.slug])
    body = world.client("gm").get(url).content.decode()
    for value in ("terrain:plain", "terrain:open_water", "settlement:village", "settlement:",
                  "edge:river", "edge:coast", f"controller:{world.red.pk}", "controller:",
                  "explored:", "start:"):
        assert f'value="{value}"' in body
    assert f'data-paint-url="/c/{world.campaign.slug}/map/edit/paint/"' in body
    assert 'id="map">' in body and body.count('class="tile"') == 48
