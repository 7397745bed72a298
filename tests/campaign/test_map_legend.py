"""The map's legend comes from the rule system: its terrains, settlement kinds (with the shapes it
gives them), edge features, and the counters and marks the map shows, nothing written in for one
system."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from battles.models import Army
from campaign import mapsvg, mapview
from campaign.models import Kingdom, Tile
from campaign.rulesystems import GENERIC_SHAPES, SETTLEMENT_SHAPES, Choice, get_system
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.views.maps import legend
from tests.campaign.conftest import World
from tests.conftest import MIGHTY_KINGDOMS


def set_tile(world: World, label: str, **values: Any) -> Tile:
    Tile.objects.filter(map__campaign=world.campaign, label=label).update(**values)
    return Tile.objects.get(map__campaign=world.campaign, label=label)


@pytest.fixture
def busy(world: World) -> World:
    """Every kind of thing a Mighty Kingdoms map shows, once."""
    Tile.objects.filter(map__campaign=world.campaign).update(
        terrain="plain", settlement="", edges={}, features=[], is_start=False, explored=True)
    set_tile(world, "0101", settlement="village")
    set_tile(world, "0201", settlement="city")
    set_tile(world, "0301", settlement="fortress")
    capital = set_tile(world, "0401", settlement="city", controller=world.red.pk)
    Kingdom.objects.filter(pk=world.red.pk).update(capital_tile=capital)
    set_tile(world, "0102", is_start=True, terrain="hills", explored=False)
    set_tile(world, "0202", edges={"0": ["river"], "2": ["mountain"]})
    Army.objects.create(campaign=world.campaign, kingdom=world.red, number=1, tile=capital)
    Ship.objects.create(campaign=world.campaign, kingdom=world.blue, number=1,
                        tile=Tile.objects.get(map__campaign=world.campaign, label="0501"))
    return world


def legend_items(world: World) -> list[tuple[str, str]]:
    """(class, text) of each legend entry on the map page."""
    page = world.client("player").get(reverse("campaign:map", args=[world.campaign.slug]))
    assert page.status_code == 200
    block = page.content.decode().split('<section class="legend-block"')[1].split("</section>")[0]
    return re.findall(r'<li class="legend-(\w+)">.*?<span>([^<]+)</span></li>', block)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_legend_lists_everything_the_map_shows(busy: World) -> None:
    assert legend_items(busy) == [
        ("terrain", "Plain"), ("terrain", "Hills"), ("terrain", "Unexplored"),
        ("kingdom", "Blue"), ("kingdom", "Green"), ("kingdom", "Red"),
        ("settlement", "Village"), ("settlement", "City"), ("settlement", "Fortress"),
        ("settlement", "Capital"), ("settlement", "Start tile"),
        ("edge", "River edge"), ("edge", "Mountains edge"),
        ("marker", "Army"), ("marker", "Ship"),
    ]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_legend_leaves_out_what_the_map_does_not_show(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(
        terrain="plain", settlement="", edges={}, features=[], is_start=False, explored=True)
    assert legend_items(world) == [("terrain", "Plain"), ("kingdom", "Blue"),
                                   ("kingdom", "Green"), ("kingdom", "Red")]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_legend_keys_are_the_maps_own_symbols(busy: World) -> None:
    items = {label: key for _kind, key, label in legend(busy.campaign,
                                                         mapview.load_map(busy.campaign))}
    assert items["Village"] == mapsvg.legend_settlement("circle")
    assert items["City"] == mapsvg.legend_settlement("square")
    assert items["Fortress"] == mapsvg.legend_settlement("triangle")
    assert items["Capital"] == mapsvg.legend_settlement("star")
    assert 'stroke="#2f7fd8"' in items["River edge"]  # the map's river colour
    assert 'stroke="#7a4a21"' in items["Mountains edge"]
    assert ">S1</text>" in items["Ship"] and ">1</text>" in items["Army"]
    assert items["Plain"] == '<span class="swatch" data-c="#d9e6a6"></span>'


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_map_draws_each_kind_in_its_systems_shape(busy: World) -> None:
    svg = busy.client("player").get(reverse("campaign:map_svg", args=[busy.campaign.slug]))
    body = svg.content.decode()
    for label, css in (("0101", "sv"), ("0201", "sc"), ("0301", "sf"), ("0401", "sk")):
        tile = body.split(f'data-tile="{label}"')[1].split("</a>")[0]
        assert f'class="{css}"' in tile, label


# -- shapes come from the registry --------------------------------------------------------------


def test_settlement_shapes_default_to_the_generic_shapes_in_order() -> None:
    system = get_system("mighty-kingdoms")
    assert [system.settlement_shape(c.slug) for c in system.settlements] == list(
        GENERIC_SHAPES[:len(system.settlements)])
    assert system.settlement_shape("ruin") == "marker"
    assert set(GENERIC_SHAPES) <= set(SETTLEMENT_SHAPES) == set(mapsvg.SHAPE_IDS)


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_a_system_chooses_its_own_shapes_and_labels(busy: World, monkeypatch: Any) -> None:
    """Another system's settlement kinds, with a shape for one of them: the legend and the map
    follow it, with no name of any system's settlements built in."""
    other = replace(
        get_system("mighty-kingdoms"),
        settlements=(Choice("hamlet", "Hamlet"), Choice("keep", "Keep"),
                     Choice("village", "Old village")),
        settlement_shapes={"keep": "diamond"},
    )
    monkeypatch.setattr(type(busy.campaign), "system", property(lambda c: other))
    Tile.objects.filter(map__campaign=busy.campaign, label="0201").update(settlement="hamlet")
    Tile.objects.filter(map__campaign=busy.campaign, label="0301").update(settlement="keep")
    loaded = mapview.load_map(busy.campaign)
    items = {label: key for _kind, key, label in legend(busy.campaign, loaded)}
    assert items["Hamlet"] == mapsvg.legend_settlement("circle")
    assert items["Keep"] == mapsvg.legend_settlement("diamond")
    assert items["Old village"] == mapsvg.legend_settlement("triangle")
    assert "City" not in items and "Fortress" not in items
    shapes = {v.label: v.shape for v in loaded.views if v.settlement}
    assert shapes["0201"] == "circle" and shapes["0301"] == "diamond"
    svg = mapview.render(busy.campaign, loaded, tile_url=None)
    assert 'class="sm"' in svg  # the keep's diamond


@pytest.mark.parametrize(("view", "css"), [
    (mapsvg.TileView("0101", 0, 0, "plain", settlement="hamlet", shape="diamond"), "sm"),
    (mapsvg.TileView("0101", 0, 0, "plain", settlement="hamlet"), "sd"),
    (mapsvg.TileView("0101", 0, 0, "plain", settlement="capital", shape="circle"), "sk"),
    (mapsvg.TileView("0101", 0, 0, "plain", settlement="hamlet", shape="nonsense"), "sd"),
])
def test_mapsvg_draws_the_shape_it_is_given(view: mapsvg.TileView, css: str) -> None:
    from campaign.rules.geometry import HexGrid

    svg = mapsvg.render_svg(HexGrid(1, 1), [view], palette={"plain": "#ffffff"})
    assert f'class="{css}"' in svg


def test_render_svg_takes_shapes_for_views_without_one() -> None:
    from campaign.rules.geometry import HexGrid

    view = mapsvg.TileView("0101", 0, 0, "plain", settlement="hamlet")
    svg = mapsvg.render_svg(HexGrid(1, 1), [view], palette={},
                            settlement_shapes={"hamlet": "triangle"})
    assert 'class="sf"' in svg
