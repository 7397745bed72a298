"""The map's drawing kept between asks (campaign.views.maps.drawing): answered from memory while
no event is written, drawn again after any change a service makes (and its undo), the same as
a drawing made afresh, and never kept with a tile selected. And the tiles reused between loads
(mapview.load_map's ``reuse``): any change shows at once, the same as drawn afresh."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.models import Army
from campaign import chronicle, mapview
from campaign.models import Kingdom, Tile
from campaign.views import maps
from tests.campaign.conftest import World
from tests.campaign.test_map_kinds import lands  # noqa: F401 (a fixture)
from tests.campaign.test_map_views import tile_segment
from tests.conftest import MIGHTY_KINGDOMS

SVG = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" viewBox=.*?</g></svg>', re.S)


@pytest.fixture
def kept(settings: Any) -> Any:
    settings.PAGE_CACHE = True
    maps._KEPT.clear()
    yield settings
    maps._KEPT.clear()
    caches["pages"].clear()


def ask(world: World, persona: str, url: str) -> tuple[str, list[str]]:
    """The answer's body and the SQL it took, the whole-page cache emptied first."""
    caches["pages"].clear()
    client = world.client(persona)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries.captured_queries]


def map_url(world: World) -> str:
    return reverse("campaign:map", args=[world.campaign.slug])


def drawn(body: str) -> str:
    match = SVG.search(body)
    assert match is not None
    return match.group(0)


def tile_reads(sql: list[str]) -> int:
    return sum('FROM "campaign_tile"' in q for q in sql)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_drawing_is_made_once_for_every_viewer_until_an_event(world: World,
                                                                  kept: Any) -> None:
    first, sql = ask(world, "player", map_url(world))
    assert tile_reads(sql) == 1
    again, sql = ask(world, "observer", map_url(world))
    assert tile_reads(sql) == 0
    assert drawn(again) == drawn(first)
    # The legend comes with it.
    assert again[again.index('<ul class="legend">'):] == first[first.index('<ul class="legend">'):]
    # The same as a drawing made afresh.
    kept.PAGE_CACHE = False
    fresh, sql = ask(world, "observer", map_url(world))
    assert tile_reads(sql) == 1
    assert drawn(fresh) == drawn(first)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_an_edit_and_its_undo_are_drawn_at_once(world: World, kept: Any) -> None:
    before = tile_segment(drawn(ask(world, "player", map_url(world))[0]), "0203")
    terrain = Tile.objects.get(map__campaign=world.campaign, label="0203").terrain
    assert terrain != "mountains"
    response = world.client("gm").post(reverse("campaign:map_paint", args=[world.campaign.slug]),
                                       {"tile": "0203", "tool": "terrain",
                                        "value": "mountains"})
    assert response.status_code == 302
    after = tile_segment(drawn(ask(world, "player", map_url(world))[0]), "0203")
    assert "<title>0203, mountains" in after
    assert after != before
    chronicle.undo_latest(world.campaign, world.gm)
    undone = tile_segment(drawn(ask(world, "player", map_url(world))[0]), "0203")
    assert undone == before


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_kingdoms_new_colour_is_drawn_at_once(world: World, kept: Any) -> None:
    from campaign import services

    Tile.objects.filter(map__campaign=world.campaign, label="0101").update(controller=world.red)
    ask(world, "player", map_url(world))
    services.update_kingdom(world.red, world.gm, name="Red", colour="#123456")
    body = drawn(ask(world, "player", map_url(world))[0])
    assert "#123456" in tile_segment(body, "0101")


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_selected_tile_and_other_campaigns_are_never_answered_from_a_kept_drawing(
        world: World, kept: Any) -> None:
    plain = drawn(ask(world, "player", map_url(world))[0])
    assert len(maps._KEPT) == 1
    selected, sql = ask(world, "player", map_url(world) + "?tile=0203")
    assert tile_reads(sql) >= 1
    assert '<use href="#' in tile_segment(drawn(selected), "0203")
    assert drawn(selected) != plain
    assert len(maps._KEPT) == 1
    elsewhere = world.client("admin")
    caches["pages"].clear()
    other = elsewhere.get(reverse("campaign:map", args=[world.elsewhere.slug])).content.decode()
    assert drawn(other) != plain
    assert len(maps._KEPT) == 2


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_svg_download_and_its_eco_print_are_kept_apart(world: World, kept: Any) -> None:
    url = reverse("campaign:map_svg", args=[world.campaign.slug])
    colour, _ = ask(world, "player", url)
    eco, _ = ask(world, "player", url + "?eco=1")
    assert colour != eco
    assert ask(world, "player", url)[0] == colour
    assert ask(world, "player", url + "?eco=1")[0] == eco


# -- tiles reused between loads (mapview.load_map(reuse=True)): by content, so without events --


def fresh(world: World, url: str) -> str:
    """The answer drawn with nothing reused."""
    mapview._REUSED.clear()
    return ask(world, "player", url)[0]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_reused_tiles_show_every_change_even_one_made_without_an_event(world: World,
                                                                       settings: Any) -> None:
    settings.PAGE_CACHE = False
    url = map_url(world)
    first = drawn(fresh(world, url))
    assert drawn(ask(world, "player", url)[0]) == first  # drawn again from the kept tiles
    assert mapview._REUSED
    Tile.objects.filter(map__campaign=world.campaign, label="0203").update(terrain="mountains")
    Tile.objects.filter(map__campaign=world.campaign, label="0101").update(controller=world.red)
    changed = drawn(ask(world, "player", url)[0])
    assert "<title>0203, mountains" in tile_segment(changed, "0203")
    assert world.red.colour.lower() in tile_segment(changed, "0101")
    assert changed == drawn(fresh(world, url))
    # A kingdom's new colour and name, a counter moved in.
    Kingdom.objects.filter(pk=world.red.pk).update(colour="#123456", name="Crimson")
    Army.objects.create(campaign=world.campaign, kingdom=world.blue, number=7,
                        tile=Tile.objects.get(map__campaign=world.campaign, label="0304"))
    again = drawn(ask(world, "player", url)[0])
    assert "#123456" in tile_segment(again, "0101") and "Crimson" in tile_segment(again, "0101")
    assert "Blue army 7" in tile_segment(again, "0304")
    assert again == drawn(fresh(world, url))
    # The selection ring moves with the address.
    selected = drawn(ask(world, "player", url + "?tile=0304")[0])
    assert selected == drawn(fresh(world, url + "?tile=0304"))
    assert drawn(ask(world, "player", url)[0]) == again


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_svg_download_reuses_tiles_only_for_its_own_paint(world: World,
                                                              settings: Any) -> None:
    settings.PAGE_CACHE = False
    url = reverse("campaign:map_svg", args=[world.campaign.slug])
    colour = fresh(world, url)
    eco = ask(world, "player", url + "?eco=1")[0]
    assert eco == fresh(world, url + "?eco=1")
    assert ask(world, "player", url)[0] == colour


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_map_loaded_again_unchanged_reuses_its_whole_drawing(world: World) -> None:
    mapview._REUSED.clear()
    url = "/c/{label}"
    first = mapview.load_map(world.campaign, reuse=True)
    svg = mapview.render(world.campaign, first, tile_url=url)
    again = mapview.load_map(world.campaign, reuse=True)
    assert again.views is first.views  # nothing changed: the same views
    assert mapview.render(world.campaign, again, tile_url=url) is svg
    assert again.shown() == first.shown()
    # Other arguments are other drawings, each the same as drawn afresh.
    plain = mapview.load_map(world.campaign)
    assert mapview.render(world.campaign, again, tile_url=None) == \
        mapview.render(world.campaign, plain, tile_url=None)
    assert mapview.render(world.campaign, again, tile_url=url, eco=True) == \
        mapview.render(world.campaign, plain, tile_url=url, eco=True)
    # A change (here without an event) is a new drawing, the same as one made afresh.
    Tile.objects.filter(map__campaign=world.campaign, label="0203").update(terrain="mountains")
    changed = mapview.load_map(world.campaign, reuse=True)
    assert changed.views is not first.views
    drawn_again = mapview.render(world.campaign, changed, tile_url=url)
    assert drawn_again != svg
    assert drawn_again == mapview.render(world.campaign, mapview.load_map(world.campaign),
                                         tile_url=url)
    assert changed.shown() == mapview.load_map(world.campaign).shown()


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_reused_views_follow_capitals_renamed_added_and_removed_tiles(world: World) -> None:
    mapview._REUSED.clear()

    def both() -> tuple[str, str]:
        reused = mapview.load_map(world.campaign, reuse=True)
        made = mapview.load_map(world.campaign)
        assert reused.tiles == made.tiles
        return (mapview.render(world.campaign, reused, tile_url="/t/{label}"),
                mapview.render(world.campaign, made, tile_url="/t/{label}"))

    reused, made = both()
    assert reused == made
    tile = Tile.objects.get(map__campaign=world.campaign, label="0304")
    Tile.objects.filter(pk=tile.pk).update(settlement="city")
    Kingdom.objects.filter(pk=world.red.pk).update(capital_tile=tile)
    reused, made = both()
    assert reused == made and "0304" in reused
    Tile.objects.filter(pk=tile.pk).update(label="9999")
    reused, made = both()
    assert reused == made and 'data-tile="9999"' in reused
    Kingdom.objects.filter(pk=world.red.pk).update(capital_tile=None)
    Tile.objects.filter(pk=tile.pk).delete()
    reused, made = both()
    assert reused == made and 'data-tile="9999"' not in reused


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_selected_tile_leaves_the_plain_drawing_kept(world: World) -> None:
    mapview._REUSED.clear()
    plain = mapview.load_map(world.campaign, reuse=True)
    svg = mapview.render(world.campaign, plain, tile_url=None)
    ringed = mapview.load_map(world.campaign, selected="0203", reuse=True)
    assert '<use href="#' in mapview.render(world.campaign, ringed, tile_url=None)
    assert [v.label for v in ringed.views if v.selected] == ["0203"]
    other = mapview.load_map(world.campaign, selected="0304", reuse=True)
    assert [v.label for v in other.views if v.selected] == ["0304"]
    again = mapview.load_map(world.campaign, reuse=True)
    assert again.views is plain.views
    assert mapview.render(world.campaign, again, tile_url=None) is svg
    assert not any(v.selected for v in again.views)


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_a_territory_maps_reused_drawing_follows_its_borders(lands: Any) -> None:
    mapview._REUSED.clear()

    def both() -> tuple[str, str]:
        reused = mapview.load_map(lands, reuse=True)
        made = mapview.load_map(lands)
        assert reused.tiles == made.tiles
        assert reused.grid.neighbours("B") == made.grid.neighbours("B")
        return (mapview.render(lands, reused, tile_url=None),
                mapview.render(lands, made, tile_url=None))

    reused, made = both()
    assert reused == made
    Tile.objects.filter(map__campaign=lands, label="A").update(adjacent=["B", "C"])
    Tile.objects.filter(map__campaign=lands, label="C").update(adjacent=["B", "A"],
                                                               edges={"A": ["river"]})
    reused, made = both()
    assert reused == made
    assert reused.count("<line ") == 3  # A - C is a border now


def legend_of(body: str) -> str:
    start = body.index('<ul class="legend">')
    return body[start:body.index("</ul>", start)]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_the_legend_reused_with_the_drawing_follows_kingdoms_and_tiles(world: World,
                                                                       settings: Any) -> None:
    settings.PAGE_CACHE = False
    url = map_url(world)
    first = legend_of(fresh(world, url))
    assert legend_of(ask(world, "player", url)[0]) == first
    Kingdom.objects.filter(pk=world.red.pk).update(name="Crimson <Court>", colour="#123456")
    renamed = legend_of(ask(world, "player", url)[0])
    assert "Crimson &lt;Court&gt;" in renamed and 'data-c="#123456"' in renamed
    assert renamed == legend_of(fresh(world, url))
    Tile.objects.filter(map__campaign=world.campaign, label="0203").update(settlement="city")
    settled = legend_of(ask(world, "player", url)[0])
    assert settled != renamed and settled == legend_of(fresh(world, url))


def tile_queries(sql: list[str]) -> list[str]:
    return [q for q in sql if 'FROM "campaign_tile"' in q]


@pytest.mark.system(MIGHTY_KINGDOMS)
def test_reused_views_read_no_tile_row_again_while_none_changed_on_postgresql(
        world: World) -> None:
    """On PostgreSQL a map loaded again, in its one query of tiles, reads the sum of its rows'
    versions alone while no row changed since its views were kept, and every row once one did;
    elsewhere every load reads every row. Each load is the same as one made afresh, even when
    one transaction writes a tile twice."""
    mapview._REUSED.clear()
    postgres = connection.vendor == "postgresql"
    game_map = world.campaign.map

    def load() -> mapview.LoadedMap:
        with CaptureQueriesContext(connection) as queries:
            reused = mapview.load_map(world.campaign, reuse=True)
        assert len(tile_queries([q["sql"] for q in queries.captured_queries])) == 1
        made = mapview.load_map(world.campaign)
        assert reused.views == made.views and reused.tiles == made.tiles
        assert (mapview.render(world.campaign, reused, tile_url=None)
                == mapview.render(world.campaign, made, tile_url=None))
        return reused

    def read_again(loaded: mapview.LoadedMap) -> bool:
        """Whether the rows of ``loaded``'s kept views are read again."""
        rows, versions = mapview._read_tiles_since(game_map, loaded.kept)
        assert rows == loaded.kept.rows and versions == loaded.kept.versions
        return rows is not loaded.kept.rows

    first = load()
    assert (first.kept.versions is not None) is postgres
    assert read_again(first) is not postgres
    again = load()
    assert again.views is first.views
    with transaction.atomic():
        Tile.objects.filter(map__campaign=world.campaign, label="0203").update(terrain="mountains")
        changed = load()
        assert [v.terrain for v in changed.views if v.label == "0203"] == ["mountains"]
        assert changed.kept.versions != first.kept.versions or not postgres
        Tile.objects.filter(map__campaign=world.campaign, label="0203").update(terrain="hills")
        twice = load()
        assert [v.terrain for v in twice.views if v.label == "0203"] == ["hills"]
        assert read_again(twice) is not postgres
    Tile.objects.filter(map__campaign=world.campaign, label="0101").update(label="9990")
    renamed = load()
    assert "9990" in [v.label for v in renamed.views]
    unchanged = load()
    assert unchanged.views is renamed.views
    assert read_again(unchanged) is not postgres
    Tile.objects.filter(map__campaign=world.campaign).delete()
    assert load().views == []
