"""The map page, its SVG and the tile panel (a full page, or an htmx fragment)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models import Army
from campaign.models import Tile
from tests.campaign.conftest import World, error_text
from tests.conftest import MIGHTY_KINGDOMS

TILE_LINK = re.compile(r'<a href="([^"]+)" data-tile="([^"]+)" class="tile"')


def tile_segment(svg: str, label: str) -> str:
    match = re.search(rf'<a [^>]*data-tile="{label}" class="tile"[^>]*>(.*?)</a>', svg, re.S)
    assert match is not None, label
    return match.group(1)


def selected_labels(body: str) -> list[str]:
    """Labels of tiles drawn with the selection ring."""
    return [
        label for label in re.findall(r'data-tile="([^"]+)" class="tile"', body)
        if re.search(r'<use href="#[^"]*q"/>', tile_segment(body, label))
    ]


@pytest.mark.grid_maps  # its tiles or the generator are a grid
@pytest.mark.parametrize("persona", ["observer", "player", "gm", "admin"])
def test_map_page_has_one_link_per_tile(world: World, persona: str) -> None:
    response = world.client(persona).get(reverse("campaign:map", args=[world.campaign.slug]))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('class="hkmap"') == 1  # one map (the legend's keys are small drawings)
    links = TILE_LINK.findall(body)
    tiles = Tile.objects.filter(map__campaign=world.campaign)
    labels = sorted(tiles.values_list("label", flat=True))
    assert len(labels) == 48
    assert sorted(label for _, label in links) == labels
    for href, label in links:
        assert href == f"/c/{world.campaign.slug}/map/tiles/{label}/"
    assert selected_labels(body) == []
    assert "Tap a tile to see what is there." in body
    # Only GMs get the editor button.
    assert ("Edit map" in body) == (persona in ("gm", "admin"))


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_map_legend_lists_present_terrains_and_kingdoms(world: World) -> None:
    Tile.objects.filter(map__campaign=world.campaign).update(terrain="marsh")
    url = reverse("campaign:map", args=[world.campaign.slug])
    body = world.client("observer").get(url).content.decode()
    legend = body[body.index('<ul class="legend">'):]
    assert "Marsh" in legend and "Plain" not in legend
    for name in ("Red", "Blue", "Green"):
        assert name in legend


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_tile_panel_fragment_for_htmx(world: World) -> None:
    url = reverse("campaign:tile", args=[world.campaign.slug, "0302"])
    response = world.client("player").get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body and "<svg" not in body and "campaign-header" not in body
    assert "<h2>Tile 0302" in body
    assert "Terrain" in body
    # Players get no editor.
    assert "Edit this tile" not in body
    # One URL, two answers: caches must keep them apart.
    assert "HX-Request" in response["Vary"]


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_tile_panel_full_page_without_htmx(world: World) -> None:
    url = reverse("campaign:tile", args=[world.campaign.slug, "0302"])
    response = world.client("player").get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith("<!doctype html>")
    assert "<h2>Tile 0302" in body
    assert selected_labels(body) == ["0302"]
    assert len(TILE_LINK.findall(body)) == 48
    assert "HX-Request" in response["Vary"]


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_map_page_with_tile_query_selects_it(world: World) -> None:
    body = world.client("observer").get(
        reverse("campaign:map", args=[world.campaign.slug]) + "?tile=0406"
    ).content.decode()
    assert selected_labels(body) == ["0406"]
    assert "<h2>Tile 0406" in body


@pytest.mark.parametrize("label", ["9999", "0000", "abc", "0101x", "%20"])
def test_unknown_tile_is_404(world: World, label: str) -> None:
    slug = world.campaign.slug
    client = world.client("gm")
    assert client.get(f"/c/{slug}/map/tiles/{label}/").status_code == 404
    htmx = client.get(f"/c/{slug}/map/tiles/{label}/", headers={"HX-Request": "true"})
    assert htmx.status_code == 404
    assert client.get(f"/c/{slug}/map/?tile={label}").status_code == 404


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_tile_of_another_campaign_is_404(world: World) -> None:
    # Both maps have a tile 0101, but each campaign's URL only reaches its own.
    far = Tile.objects.get(map__campaign=world.elsewhere, label="0101")
    Tile.objects.filter(pk=far.pk).update(name="Far away")
    client = world.client("gm")
    body = client.get(reverse("campaign:tile", args=[world.campaign.slug, "0101"])).content
    assert b"Far away" not in body
    # The other map is 4x4, this one 8x6: its 0404 is ours, 0808 is on neither.
    slug = world.campaign.slug
    assert client.get(reverse("campaign:tile", args=[slug, "0404"])).status_code == 200
    assert client.get(reverse("campaign:tile", args=[slug, "0808"])).status_code == 404


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_tile_panel_shows_what_is_there(world: World) -> None:
    tile = Tile.objects.get(map__campaign=world.campaign, label="0203")
    Tile.objects.filter(pk=tile.pk).update(
        terrain="hills", settlement="city", controller=world.red, explored=True,
        edges={"0": ["river"], "3": ["mountain", "forest"]}, name="Redhold",
    )
    Army.objects.create(campaign=world.campaign, kingdom=world.red, number=3, tile=tile)
    text = error_text(world.client("observer").get(
        reverse("campaign:tile", args=[world.campaign.slug, "0203"]), headers={"HX-Request": "true"}
    ))
    assert "Tile 0203 · Redhold" in text
    assert "Terrain Hills" in text
    assert "Controlled by Red" in text
    assert "Settlement City" in text
    assert "Explored yes" in text
    assert "Forest S Mountains S River N" in text
    assert "Red army #3" in text


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_capital_is_named_in_the_panel(world: World) -> None:
    tile = Tile.objects.get(map__campaign=world.campaign, label="0203")
    Tile.objects.filter(pk=tile.pk).update(settlement="city", controller=world.red)
    world.red.capital_tile = tile
    world.red.save()
    text = error_text(world.client("player").get(
        reverse("campaign:tile", args=[world.campaign.slug, "0203"]), headers={"HX-Request": "true"}
    ))
    assert "Settlement Capital city of Red" in text


@pytest.mark.parametrize("persona", ["gm", "admin"])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_gm_panel_has_the_tile_editor(world: World, persona: str) -> None:
    body = world.client(persona).get(
        reverse("campaign:tile", args=[world.campaign.slug, "0302"]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "Edit this tile" in body
    assert f'hx-post="/c/{world.campaign.slug}/map/tiles/0302/edit/"' in body
    # Six sides, one checkbox per edge feature on each.
    assert body.count('type="checkbox" name="edge_') == 6 * 5


@pytest.mark.grid_maps  # its tiles or the generator are a grid
def test_map_svg_download_and_fragment(world: World) -> None:
    url = reverse("campaign:map_svg", args=[world.campaign.slug])
    response = world.client("observer").get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["Content-Disposition"] == 'inline; filename="test-campaign-map.svg"'
    assert response.content.startswith(b"<svg")
    assert len(TILE_LINK.findall(response.content.decode())) == 48

    fragment = world.client("observer").get(url, headers={"HX-Request": "true"})
    assert fragment["Content-Type"].startswith("text/html")
    assert fragment.content == response.content
    assert "HX-Request" in response["Vary"]


def test_map_svg_escapes_kingdom_names(world: World) -> None:
    world.red.name = '<script>alert("x")</script>'
    world.red.save()
    Tile.objects.filter(map__campaign=world.campaign, label="0101").update(controller=world.red)
    body = world.client("observer").get(reverse("campaign:map", args=[world.campaign.slug])).content
    assert b"<script>alert" not in body
