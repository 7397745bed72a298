"""The kept text of the kingdoms, tokens and orders queries (``campaign.kept_sql``): the rows are
read afresh on every call (an army added, moved or turned on its side, an order given, shows at
once), each campaign and month keeps its own text, the rows are those Django gives for the same
query, and at most ``KEPT_LIMIT`` texts are kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Army
from campaign import kept_sql
from campaign.models import Kingdom, Tile
from campaign.systems.mighty_kingdoms.state import load_state
from tests.mk.test_mk_queries import build

pytestmark = pytest.mark.django_db


def tokens(campaign) -> list[tuple[int, int, str, bool]]:  # type: ignore[no-untyped-def]
    state = load_state(campaign)
    state.read_every_token(living=True)
    return [(a.kingdom, a.number, a.tile, a.on_side) for a in state.armies]


def test_rows_are_read_afresh_under_a_kept_text() -> None:
    made = build("kept-a", 10, 10)
    campaign, (first, second) = made["campaign"], made["armies"]
    before = tokens(campaign)
    assert [n for _, n, _, _ in before] == [1, 1]
    # The same text again: one query, and what changed since shows.
    Army.objects.filter(pk=first.pk).update(on_side=True)
    tile = Tile.objects.filter(map__campaign=campaign, label="0505").get()
    Army.objects.create(campaign=campaign, kingdom=first.kingdom, number=2, tile=tile)
    with CaptureQueriesContext(connection) as queries:
        state = load_state(campaign)
        state.read_every_token(living=True)
    assert len(queries) == 2
    after = [(a.kingdom, a.number, a.tile, a.on_side) for a in state.armies]
    assert after == [(first.kingdom_id, 1, before[0][2], True),
                     (first.kingdom_id, 2, "0505", False), before[1]]
    assert state.living_units == {a.pk: 0 for a in Army.objects.filter(campaign=campaign)}
    Kingdom.objects.filter(pk=second.kingdom_id).update(name="Renamed")
    assert load_state(campaign).kingdoms[second.kingdom_id].name == "Renamed"


def test_each_campaign_keeps_its_own_text() -> None:
    one, two = build("kept-b", 10, 10), build("kept-c", 10, 10)
    mine = tokens(one["campaign"])
    theirs = tokens(two["campaign"])
    assert {k for k, _, _, _ in mine} == {a.kingdom_id for a in one["armies"]}
    assert {k for k, _, _, _ in theirs} == {a.kingdom_id for a in two["armies"]}
    assert tokens(one["campaign"]) == mine


def test_rows_match_django_and_are_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    made = build("kept-d", 10, 10)
    campaign = made["campaign"]
    monkeypatch.setattr(kept_sql, "KEPT_LIMIT", 2)
    monkeypatch.setattr(kept_sql, "_kept", {})

    def query(n: int):  # type: ignore[no-untyped-def]
        return (Army.objects.filter(campaign=campaign, number__gte=n).order_by("pk")
                .values_list("pk", "on_side", "tile__label", "kingdom__name"))

    for n in range(4):
        assert kept_sql.kept_values(("test", n), lambda n=n: query(n)) == list(query(n))
        assert len(kept_sql._kept) <= 2
    assert [slot[-1] for slot in kept_sql._kept] == [("test", 2), ("test", 3)]  # emptied when full
    with pytest.raises(TypeError):
        kept_sql.kept_values(("test", "models"), lambda: Army.objects.all())


def test_standings_count_what_changed_since_the_last_read() -> None:
    from campaign.systems.mighty_kingdoms.standings import tallies

    made = build("kept-e", 10, 10)
    campaign, (first, _) = made["campaign"], made["armies"]
    before = {t.kingdom: t for t in tallies(campaign)}
    tile = Tile.objects.filter(map__campaign=campaign, label="0505").get()
    Tile.objects.filter(pk=tile.pk).update(controller=first.kingdom, settlement="village")
    Army.objects.create(campaign=campaign, kingdom=first.kingdom, number=2, tile=tile, points=7)
    Kingdom.objects.filter(pk=first.kingdom_id).update(name="Grown")
    after = {t.kingdom: t for t in tallies(campaign)}
    mine = after[first.kingdom_id]
    assert (mine.name, mine.tiles, mine.villages) == (
        "Grown", before[first.kingdom_id].tiles + 1, before[first.kingdom_id].villages + 1)
    assert len(mine.army_points) == len(before[first.kingdom_id].army_points) + 1


def test_ship_counters_follow_the_ships() -> None:
    from campaign.systems.mighty_kingdoms.models import Ship
    from campaign.systems.mighty_kingdoms.shell import map_markers

    made = build("kept-f", 10, 10)
    campaign, (first, second) = made["campaign"], made["armies"]
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=campaign)}
    assert map_markers(campaign, kingdoms) == []
    tile = Tile.objects.filter(map__campaign=campaign, label="0505").get()
    ship = Ship.objects.create(campaign=campaign, kingdom=second.kingdom, number=1, tile=tile)
    Ship.objects.create(campaign=campaign, kingdom=first.kingdom, number=1, tile=tile,
                        on_side=True)
    found = [(pk, m.text, m.title, m.on_side) for pk, m in map_markers(campaign, kingdoms)]
    names = {k.pk: k.name for k in kingdoms.values()}
    assert found == [(tile.pk, "S1", f"{names[first.kingdom_id]} ship 1", True),
                     (tile.pk, "S1", f"{names[second.kingdom_id]} ship 1", False)]
    Ship.objects.filter(pk=ship.pk).update(tile=None)
    assert [m.title for _, m in map_markers(campaign, kingdoms)] == [
        f"{names[first.kingdom_id]} ship 1"]


def test_tiles_at_positions_read_afresh() -> None:
    from campaign.systems.mighty_kingdoms.state import _tiles_at

    made = build("kept-g", 10, 10)
    campaign, (first, _) = made["campaign"], made["armies"]
    map_id = campaign.map.pk
    tiles = {(t.q, t.r): t for t in Tile.objects.filter(map_id=map_id)}
    spots = sorted(tiles)[:5] + sorted(tiles)[20:22]
    found = _tiles_at(map_id, spots)
    assert sorted((t.q, t.r) for t in found) == spots
    assert sorted(t.label for t in found) == sorted(tiles[s].label for s in spots)
    Tile.objects.filter(pk=tiles[spots[0]].pk).update(controller=first.kingdom, terrain="forest")
    again = {(t.q, t.r): t for t in _tiles_at(map_id, spots)}
    assert (again[spots[0]].controller_id, again[spots[0]].terrain) == (
        first.kingdom_id, "forest")
    # Other positions: their own tiles, not the ones asked for before.
    other = sorted(tiles)[30:33]
    assert sorted((t.q, t.r) for t in _tiles_at(map_id, other)) == other
