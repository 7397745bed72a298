"""Maps that are not a ready hex grid: a campaign without a map yet, and territory maps.

A campaign can be without a map (one made in the admin before maps were made there, or a file of
a rule system that does not need one): every map page opens and says so, and "Make a new map"
makes its first one. Territory maps key edges by the neighbour's label, their borders are edited
by hand (both ways at once), and the grid generator never replaces them.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaign import mapview, services
from campaign.chronicle import undo_latest
from campaign.mapview import TILE_SIZE
from campaign.models import Campaign, Event, Map, Tile
from campaign.rules.geometry import TerritoryGraph
from campaign.rulesystems import REGISTRY, get_system
from tests.campaign.conftest import World, dump, error_text
from tests.conftest import MIGHTY_KINGDOMS, make_campaign_of

WITH_EDGE_FEATURES = [slug for slug in REGISTRY if get_system(slug).edge_features]


def url(name: str, campaign: Campaign, *args: Any) -> str:
    return reverse(f"campaign:{name}", args=[campaign.slug, *args])


# -- a campaign without a map -----------------------------------------------------------------


@pytest.fixture
def mapless(world: World) -> Campaign:
    Map.objects.filter(campaign=world.campaign).delete()
    return world.campaign


@pytest.mark.parametrize(("persona", "text"), [
    ("gm", "This campaign has no map yet. Make one in the map editor."),
    ("player", "This campaign has no map yet. The GM has not made it."),
    ("observer", "This campaign has no map yet. The GM has not made it."),
])
def test_map_page_says_there_is_no_map(world: World, mapless: Campaign, persona: str,
                                       text: str) -> None:
    response = world.client(persona).get(url("map", mapless))
    assert response.status_code == 200
    assert text in error_text(response)
    assert "<svg" not in response.content.decode()


def test_map_svg_of_a_campaign_without_a_map_is_404(world: World, mapless: Campaign) -> None:
    response = world.client("gm").get(url("map_svg", mapless))
    assert response.status_code == 404
    assert "This campaign has no map yet." in error_text(response)


def test_tile_and_brush_of_a_campaign_without_a_map_are_404(world: World,
                                                           mapless: Campaign) -> None:
    before = dump()
    client = world.client("gm")
    assert client.get(url("tile", mapless, "0101")).status_code == 404
    assert client.post(url("tile_edit", mapless, "0101"), {"terrain": "plain"}).status_code == 404
    assert client.post(url("map_paint", mapless),
                       {"tile": "0101", "tool": "terrain", "value": "hills"}).status_code == 404
    assert dump() == before


def test_editor_offers_to_make_the_first_map(world: World, mapless: Campaign) -> None:
    response = world.client("gm").get(url("map_edit", mapless))
    assert response.status_code == 200
    page = error_text(response)
    assert ("This campaign has no map yet. Make one below: a random map from a seed, or a blank "
            "one to paint.") in page
    assert "Make a new map" in page and 'id="brush"' not in response.content.decode()
    # The form starts from the system's own map size.
    style = mapless.system.map_style
    body = response.content.decode()
    assert f'name="width" value="{style.width}"' in body
    assert f'name="height" value="{style.height}"' in body


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_make_a_new_map_makes_the_first_one_and_undo_takes_it_away(world: World,
                                                                  mapless: Campaign) -> None:
    response = world.client("gm").post(url("map_generate", mapless), {
        "width": "5", "height": "4", "orientation": "pointy", "seed": "9"})
    assert response.status_code == 302
    game_map = Map.objects.get(campaign=mapless)
    kind = mapless.system.map_style.kind
    assert (game_map.kind, game_map.width, game_map.height, game_map.seed) == (kind, 5, 4, 9)
    if kind == "hex":  # only a hex grid has an orientation to choose
        assert game_map.orientation == "pointy"
    assert Tile.objects.filter(map=game_map).count() == 20
    event = Event.objects.filter(campaign=mapless).order_by("-seq").first()
    assert (event.kind, event.summary) == ("map.generated", "New 5x4 map (from seed 9).")
    assert world.client("player").get(url("map", mapless)).status_code == 200
    undo_latest(mapless, world.gm)
    assert not Map.objects.filter(campaign=mapless).exists()
    assert not Tile.objects.filter(map__campaign=mapless).exists()
    assert world.client("gm").get(url("map", mapless)).status_code == 200


def test_loading_a_campaign_without_a_map_gives_an_empty_stand_in(mapless: Campaign) -> None:
    loaded = mapview.load_map(mapless)
    assert not loaded.exists and loaded.views == [] and loaded.tiles == []
    assert loaded.game_map.kind == mapless.system.map_style.kind
    svg = mapview.render(mapless, loaded, tile_url=None)
    assert svg.startswith("<svg") and 'class="tile"' not in svg


# -- territory maps ---------------------------------------------------------------------------


@pytest.fixture
def lands(gm: User, system: str) -> Campaign:
    """A campaign whose map is three territories in a row: A - B - C (made directly: no rule
    system plays on territories yet)."""
    campaign = make_campaign_of(system, gm, slug="lands", seed=None, width=3, height=3)
    game_map = Map.objects.get(campaign=campaign)
    Tile.objects.filter(map=game_map).delete()
    Map.objects.filter(pk=game_map.pk).update(kind="territory", width=0, height=0)
    for q, label, adjacent in ((0, "A", ["B"]), (2, "B", ["A", "C"]), (4, "C", ["B"])):
        Tile.objects.create(map=game_map, q=q, r=0, label=label, terrain="plain",
                            adjacent=adjacent)
    return campaign


def gm_client(campaign: Campaign) -> Client:
    client = Client()
    client.force_login(User.objects.get(username="gm"))
    return client


def rows(campaign: Campaign) -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    return {t.label: (t.adjacent, t.edges)
            for t in Tile.objects.filter(map__campaign=campaign).order_by("label")}


@pytest.mark.system(*WITH_EDGE_FEATURES)  # the border rows list the system's edge features
def test_tile_form_of_a_territory_offers_its_borders(lands: Campaign) -> None:
    response = gm_client(lands).get(url("tile", lands, "B"), HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    # Edge rows are the borders, keyed by the neighbour's label, not numbered sides.
    assert 'name="edge_A"' in body and 'name="edge_C"' in body
    assert 'name="edge_0"' not in body
    assert "Borders" in error_text(response)
    assert 'name="adjacent" value="A" id="id_adjacent_0" checked' in body
    assert 'name="adjacent" value="C" id="id_adjacent_1" checked' in body


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_territory_edges_are_keyed_by_the_neighbour(lands: Campaign) -> None:
    client = gm_client(lands)
    response = client.post(url("tile_edit", lands, "B"), {
        "terrain": "plain", "adjacent": ["A", "C"], "edge_A": ["river", "forest"],
        "edge_0": "mountain"})
    assert response.status_code == 302, error_text(response)
    assert rows(lands) == {
        "A": (["B"], {"B": ["river"]}),  # a river lies on both sides of the border
        "B": (["A", "C"], {"A": ["forest", "river"]}),
        "C": (["B"], {}),
    }
    # The map draws the border's features (keyed by label) on a territory map.
    loaded = mapview.load_map(lands)
    assert {v.label: dict(v.edges) for v in loaded.views}["B"] == {
        "A": frozenset({"forest", "river"})}
    svg = gm_client(lands).get(url("map_svg", lands)).content.decode()
    assert svg.count('stroke="#2f7fd8"') == 2  # the river, on each side of the A-B border


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_borders_are_edited_both_ways(lands: Campaign) -> None:
    Tile.objects.filter(map__campaign=lands, label="B").update(edges={"A": ["river"]})
    Tile.objects.filter(map__campaign=lands, label="A").update(edges={"B": ["river"]})
    before = rows(lands)
    client = gm_client(lands)
    # A loses its border with B and gains one with C.
    response = client.post(url("tile_edit", lands, "A"), {"terrain": "plain",
                                                          "adjacent": ["C"]})
    assert response.status_code == 302, error_text(response)
    assert rows(lands) == {
        "A": (["C"], {}),
        "B": (["C"], {}),  # its side of the old border went with it
        "C": (["A", "B"], {}),
    }
    event = Event.objects.filter(campaign=lands).order_by("-seq").first()
    assert event.summary == "Tile A edited: terrain plain, settlement none, controller none, " \
        "explored no, is start no, name none, borders C, edges."
    TerritoryGraph({t: a for t, (a, _) in rows(lands).items()})  # still symmetric
    undo_latest(lands, User.objects.get(username="gm"))
    assert rows(lands) == before


@pytest.mark.parametrize(("adjacent", "message"), [
    (["A"], "Select a valid choice. A is not one of the available choices."),
    (["Z"], "Select a valid choice. Z is not one of the available choices."),
])
def test_bad_borders_are_refused(lands: Campaign, adjacent: list[str], message: str) -> None:
    before = dump()
    response = gm_client(lands).post(url("tile_edit", lands, "A"),
                                     {"terrain": "plain", "adjacent": adjacent})
    assert response.status_code == 400
    assert message in error_text(response)
    assert dump() == before


@pytest.mark.parametrize(("label", "message"), [
    ("A", "A territory cannot border itself."),
    ("Z", "There is no territory Z on this map."),
])
def test_services_refuse_bad_borders(lands: Campaign, label: str, message: str) -> None:
    tile = Tile.objects.get(map__campaign=lands, label="A")
    with pytest.raises(services.ServiceError, match=message):
        services.edit_tile(tile, User.objects.get(username="gm"), changes={},
                           adjacent=["B", label])


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_grid_tiles_have_no_borders_to_edit(world: World) -> None:
    tile = Tile.objects.get(map__campaign=world.campaign, label="0101")
    with pytest.raises(services.ServiceError, match="Only territories have neighbours"):
        services.edit_tile(tile, world.gm, changes={}, adjacent=["0102"])
    with pytest.raises(services.ServiceError, match="'7'|7: not an edge of a hex tile"):
        services.edit_tile(tile, world.gm, changes={}, edges={"7": ["river"]})


def test_link_brush_adds_and_removes_a_border(lands: Campaign) -> None:
    client = gm_client(lands)
    paint = url("map_paint", lands)
    response = client.post(paint, {"tile": "A", "tool": "link", "value": "C"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.content.startswith(b"<svg")
    assert rows(lands)["A"][0] == ["B", "C"] and rows(lands)["C"][0] == ["A", "B"]
    assert client.post(paint, {"tile": "C", "tool": "link", "value": "A"}).status_code == 302
    assert rows(lands)["A"][0] == ["B"] and rows(lands)["C"][0] == ["B"]
    before = dump()
    response = client.post(paint, {"tile": "A", "tool": "link", "value": ""})
    assert response.status_code == 400
    assert "Tap a second territory to link it with the first." in error_text(response)
    assert dump() == before


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_link_brush_is_for_territories_only(world: World) -> None:
    before = dump()
    response = world.client("gm").post(url("map_paint", world.campaign),
                                       {"tile": "0101", "tool": "link", "value": "0102"})
    assert response.status_code == 400
    assert "Only territories are linked by hand" in error_text(response)
    assert dump() == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_edge_brush_on_a_territory_picks_the_nearest_border(lands: Campaign) -> None:
    graph = services.grid_for(Map.objects.get(campaign=lands))
    (x1, y1), (x2, y2) = graph.edge_points("B", "C", TILE_SIZE)
    response = gm_client(lands).post(url("map_paint", lands), {
        "tile": "B", "tool": "edge", "value": "mountain",
        "x": f"{(x1 + x2) / 2:.2f}", "y": f"{(y1 + y2) / 2 + 1:.2f}"})
    assert response.status_code == 302
    assert rows(lands)["B"][1] == {"C": ["mountain"]}
    assert rows(lands)["C"][1] == {}  # mountains lie on one side only


def test_nearest_edge_of_a_territory_without_borders_is_none(lands: Campaign) -> None:
    graph = TerritoryGraph({"A": [], "B": []}, positions={"A": (0, 0), "B": (3, 0)})
    assert mapview.nearest_edge(graph, 0, 0, 1.0, 1.0, label="A") is None
    on_b = TerritoryGraph({"A": ["B"], "B": ["A"]}, positions={"A": (0, 0), "B": (3, 0)})
    assert mapview.nearest_edge(on_b, 0, 0, 500.0, 0.0, label="A") == "B"


def test_territory_maps_are_not_replaced_by_the_generator(lands: Campaign) -> None:
    client = gm_client(lands)
    editor = client.get(url("map_edit", lands))
    assert editor.status_code == 200
    page = error_text(editor)
    assert "This is a territory map: its territories and their borders are drawn by hand" in page
    assert "Link or unlink two territories" in page
    assert 'action="/c/lands/map/edit/generate/"' not in editor.content.decode()
    before = dump()
    response = client.post(url("map_generate", lands),
                           {"width": "5", "height": "4", "orientation": "flat", "seed": "3"})
    assert response.status_code == 400
    assert ("This is a territory map: its territories and their borders are drawn by hand, so "
            "a random or blank grid cannot replace it.") in error_text(response)
    assert dump() == before


def test_a_territory_map_with_no_territories_yet_opens(lands: Campaign) -> None:
    Tile.objects.filter(map__campaign=lands).delete()
    client = gm_client(lands)
    for name in ("map", "map_svg", "map_edit"):
        assert client.get(url(name, lands)).status_code == 200, name


# -- a clock changed by hand --------------------------------------------------------------------


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_play_page_of_a_campaign_at_an_impossible_clock_says_so(world: World) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(season="", phase="", month=None)
    response = world.client("gm").get(url("play", world.campaign))
    assert response.status_code == 409
    assert ("Test Campaign stands at a point Mighty Kingdoms cannot be at: Phase '' does not "
            "exist: phases are A to D (MK-YEAR-2).") in error_text(response)


@pytest.mark.parametrize(("persona", "who"), [("gm", "make it in the map editor."),
                                              ("player", "the GM makes it in the map editor.")])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_play_page_of_a_campaign_without_a_map_says_so(world: World, mapless: Campaign,
                                                       persona: str, who: str) -> None:
    response = world.client(persona).get(url("play", mapless))
    assert response.status_code == 409
    assert (f"Test Campaign has no map yet, and Mighty Kingdoms is played on one: {who}"
            in error_text(response))
