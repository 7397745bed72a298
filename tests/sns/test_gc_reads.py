"""The Grand Campaign as the read pages load it: fewer rows and queries, the same answers.

A read of the held land only (the overview's standings, a kingdom's page) answers what each
kingdom holds as the whole map does; the Territories worked out from a map layout and kept for
the next read follow every change of the map; the play page's kingdoms come with the points
and games played the ledger and the games give.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Kingdom, Tile
from campaign.systems.swords_and_stones import pages
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.state import (
    _HELD_SQL,
    _LAND_SQL,
    TILE_COLUMNS,
    WATER,
    _in_map_order,
    load,
    pid,
    tile_values,
)
from ledger.services import balances
from tests.sns.conftest import Avalon, at


def _holdings(st: object, kingdom: Kingdom) -> tuple[object, ...]:
    cmap = st.map  # type: ignore[attr-defined]
    options = st.options  # type: ignore[attr-defined]
    mine = cmap.owned_by(pid(kingdom))
    return (mine, gc.holding_count(cmap, pid(kingdom), options),
            gc.supply_slots(cmap, pid(kingdom), options),
            [(cmap.name(t), cmap.holding(t)) for t in mine])


@pytest.mark.parametrize("granularity", [gc.BY_SQUARE, gc.BY_MAP_TYPE])
def test_a_read_of_the_held_land_answers_what_each_kingdom_holds_as_the_whole_map_does(
        avalon: Avalon, granularity: str) -> None:
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")
    avalon.play(avalon.blue, at(2, 1), avalon.red, "win")
    avalon.campaign.options = {**avalon.campaign.options, "territory_granularity": granularity}
    avalon.campaign.save()
    whole = load(avalon.campaign, crates=False)
    held = load(avalon.campaign, crates=False, held_only=True)
    assert held.partial == (granularity == gc.BY_SQUARE) and not whole.partial
    for kingdom in (avalon.red, avalon.blue):
        assert _holdings(held, kingdom) == _holdings(whole, kingdom)
        assert _holdings(held, kingdom)[0]
        # A kingdom's page: its own kingdom and the tiles the core page read for it.
        own = load(avalon.campaign, kings=False, read_kingdoms=[kingdom], held_only=True,
                   read_tiles=list(Tile.objects.filter(controller=kingdom).order_by("label")))
        assert _holdings(own, kingdom) == _holdings(whole, kingdom)
    assert pages.standings(held) == pages.standings(whole)


def test_the_territories_kept_from_a_map_layout_follow_every_change_of_the_map(
        avalon: Avalon) -> None:
    before = load(avalon.campaign).map
    again = load(avalon.campaign).map
    assert again.territories == before.territories and again.names == before.names
    tile = avalon.tile(at(2, 2))
    assert tile.label in before.territories
    other, label = (("highlands", "Highlands") if tile.terrain != "highlands"
                    else ("great_plains", "Great Plains"))
    tile.terrain = other
    tile.save()
    assert load(avalon.campaign).map.name(tile.label) == f"{tile.label} {label}"
    tile.terrain = "sea"
    tile.save()
    changed = load(avalon.campaign).map
    assert tile.label not in changed.territories
    assert len(changed.territories) == len(before.territories) - 1
    assert changed.adjacency != before.adjacency


def test_the_play_pages_kingdoms_come_with_the_points_and_games_the_ledger_and_games_give(
        avalon: Avalon) -> None:
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")
    avalon.play(avalon.blue, at(2, 1), avalon.red, "win")
    kingdoms = pages.kingdoms_with_points(avalon.campaign)
    assert [k.pk for k in kingdoms] == list(
        Kingdom.objects.filter(campaign=avalon.campaign).order_by("order_position", "pk")
        .values_list("pk", flat=True))
    points, played = pages.figures_of(kingdoms)
    ledger = balances(kingdoms, (pts.VP, pts.VEN))
    assert points == {pk: {pts.VP: b[pts.VP], pts.VEN: b[pts.VEN]} for pk, b in ledger.items()}
    assert points[avalon.blue.pk][pts.VP] >= 1 and points[avalon.red.pk][pts.VEN] >= 1
    assert played == pages.games_played(avalon.campaign) == {avalon.red.pk: 2,
                                                            avalon.blue.pk: 1}
    assert pages.points_and_games(avalon.campaign, kingdoms) == (points, played)


@pytest.mark.django_db
def test_the_play_page_reads_no_more_while_the_open_game_is_played_than_while_it_is_set_up(
        avalon: Avalon, gm: Any, player: Any, settings: Any) -> None:
    """Its set-ups read each participant's kingdom from the page's kingdoms, and neither the
    report nor the table at play: none is read again, for the GM or the player."""
    settings.PAGE_CACHE = False
    game = sns.challenge(avalon.campaign, gm, avalon.red, at(11, 1), avalon.blue)
    sns.set_up(avalon.campaign, gm, game, avalon.red, faction="avalonian",
               supply=[("0202", "WOOD")])
    clients = []
    for user in (gm, player):
        client = Client()
        client.force_login(user)
        clients.append(client)
    page = reverse("campaign:play", args=[avalon.campaign.slug])

    def queries(client: Client) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(page)
        assert response.status_code == 200
        return len(ctx.captured_queries), response.content.decode()

    set_up = [queries(c) for c in clients]
    sns.begin_game(avalon.campaign, gm, game)
    played = [queries(c) for c in clients]
    assert [n for n, _ in played] == [n for n, _ in set_up]
    assert all("Being played" in html and "Red's Stockpile" in html for _, html in played)


def test_a_kept_whole_map_is_reused_only_while_its_tiles_and_kingdoms_are_unchanged(
        avalon: Avalon) -> None:
    """A read's whole map, its holdings included, is kept under the rows it was built from:
    a second read reuses it; a challenge, its undo, a tile edited without an event and a
    kingdom renamed each show at once."""
    from tests.sns.conftest import undo

    first = load(avalon.campaign).map
    assert load(avalon.campaign).map is first
    assert load(avalon.campaign, lock=True).map is not first  # a locked read builds its own
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")
    won = load(avalon.campaign).map
    assert won is not first and won.holding(at(2, 2)).owner == pid(avalon.red)
    assert first.holding(at(2, 2)).owner != pid(avalon.red)
    undo(avalon)
    undone = load(avalon.campaign).map
    assert undone.holdings == first.holdings
    assert undone.owned_by(pid(avalon.red)) == first.owned_by(pid(avalon.red))
    tile = avalon.tile(at(2, 2))
    tile.controller = avalon.blue
    tile.settlement = gc.CLAIMED
    tile.save()
    edited = load(avalon.campaign).map
    assert edited.holding(at(2, 2)) == gc.Holding(gc.CLAIMED, pid(avalon.blue))
    assert at(2, 2) in edited.owned_by(pid(avalon.blue))
    avalon.blue.name = "Azure"
    avalon.blue.save()
    renamed = load(avalon.campaign).map
    assert renamed.holding(at(2, 2)) == gc.Holding(gc.CLAIMED, "Azure")
    assert renamed.owned_by("Azure") and not renamed.owned_by("Blue")


def test_a_reads_tiles_come_in_map_order_and_its_territories_as_a_locked_read_makes_them(
        avalon: Avalon) -> None:
    """SNS-GC-9: the tiles a read takes (in no order from the database) are put in map order,
    by column and row, as a locked read's query orders them; both make the same Territories,
    each with the same tiles, and the held land alone is in that order too."""
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")
    ordered = list(Tile.objects.filter(map__campaign=avalon.campaign).exclude(terrain=WATER)
                   .order_by("q", "r").values_list(*TILE_COLUMNS))
    read = load(avalon.campaign)
    assert [row[:len(TILE_COLUMNS)] for row in _in_map_order(
        _LAND_SQL, (avalon.campaign.pk, WATER))] == ordered
    assert _in_map_order(_HELD_SQL, (avalon.campaign.pk, WATER)) == [
        row for row in ordered if row[-1]]
    with transaction.atomic():
        locked = load(avalon.campaign, lock=True)
    assert read.map.territories == locked.map.territories
    assert {t: [row[:len(TILE_COLUMNS)] for row in rows] for t, rows in read.tiles.items()} == {
        t: [tile_values(tile) for tile in tiles] for t, tiles in locked.tiles.items()}


def test_the_standings_points_entries_are_made_again_only_when_a_balance_or_name_changes(
        ) -> None:
    """SNS-PTS-2: the points entries kept under the balances they are made of are those the
    balances give, each kingdom's VP then its Ven; other balances make other entries."""
    balances = (("Red", 3, 1), ("Blue", 0, 2))
    entries = pages._points_entries(balances)
    assert entries == (pts.PointsEntry("Red", pts.VP, 3, pts.GM_ADJUST),
                       pts.PointsEntry("Red", pts.VEN, 1, pts.GM_ADJUST),
                       pts.PointsEntry("Blue", pts.VP, 0, pts.GM_ADJUST),
                       pts.PointsEntry("Blue", pts.VEN, 2, pts.GM_ADJUST))
    assert pages._points_entries((("Red", 3, 1), ("Blue", 0, 2))) is entries
    assert pages._points_entries((("Red", 3, 1), ("Blue", 1, 2)))[2].delta == 1
    assert pages._points_entries((("Crimson", 3, 1), ("Blue", 0, 2)))[0].player == "Crimson"


@pytest.mark.django_db
def test_the_play_pages_set_ups_read_each_declared_crate_item_as_the_game_pages_do(
        avalon: Avalon, gm: Any) -> None:
    """SNS-CRATE-6, D.4: a participant's declared crate item comes with the set-up the play page
    reads: its option is selected and the starting stockpile is the one the services work out
    from the participant read whole."""
    from campaign.systems.swords_and_stones.models import CrateItem, King, Participant

    king = King.objects.get(kingdom=avalon.red, current=True)
    item = CrateItem.objects.create(king=king, name="Rusty Key", kind="token",
                                    effect="Opens one locked thing.")
    game = sns.challenge(avalon.campaign, gm, avalon.red, at(11, 1), avalon.blue)
    sns.set_up(avalon.campaign, gm, game, avalon.red, faction="avalonian",
               supply=[("0202", "WOOD")], crate_item=item.pk)
    kingdoms = pages.kingdoms_with_points(avalon.campaign)
    st = load(avalon.campaign, read_kingdoms=kingdoms)
    setups = pages._setups(st, game, kingdoms, {})
    red = next(s for s in setups if s.part.kingdom_id == avalon.red.pk)
    assert red.part.declared_crate == item and red.part.declared_crate.name == "Rusty Key"
    assert [i.pk for i in red.crate] == [item.pk]
    whole = Participant.objects.select_related("declared_crate").get(game=game,
                                                                     kingdom=avalon.red)
    assert red.stock == sns.starting_stockpile(st, whole, [])
    assert red.part.supply == whole.supply and red.part.faction == whole.faction
    blue = next(s for s in setups if s.part.kingdom_id == avalon.blue.pk)
    assert blue.part.declared_crate is None
    client = Client()
    client.force_login(gm)
    html = client.get(reverse("campaign:play", args=[avalon.campaign.slug])).content.decode()
    assert f'<option value="{item.pk}" selected>Rusty Key</option>' in html


def test_kept_standings_follow_every_change_of_points_land_kings_and_names(
        avalon: Avalon) -> None:
    """SNS-GC-5: the standings the rules work out are kept under the map they read, the
    players, the points and the games played; each change shows at once, as worked out anew."""
    from tests.sns.conftest import undo

    def both(**kw: Any) -> tuple[list[pts.Standing], list[pts.Standing]]:
        st = load(avalon.campaign, **kw)
        kept = [r.row for r in pages.standings(st)]
        points, played = pages.points_and_games(avalon.campaign, list(st.kingdoms.values()))
        entries = [pts.PointsEntry(k.name, cur, points[k.pk][cur], pts.GM_ADJUST)
                   for k in st.kingdoms.values() for cur in (pts.VP, pts.VEN)]
        fresh = list(pts.standings(st.state, entries, {k.name: played.get(k.pk, 0)
                                                       for k in st.kingdoms.values()},
                                   st.options))
        return kept, fresh

    for kw in ({}, {"crates": False, "held_only": True}):
        kept, fresh = both(**kw)
        assert kept == fresh
        again = pages.standings(load(avalon.campaign, **kw))
        assert all(a.row is b for a, b in zip(again, kept, strict=True))  # reused
    game = avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    kept, fresh = both()
    assert kept == fresh and kept[0].player == pid(avalon.red) and kept[0].vp == 1
    sns.file_report(avalon.campaign, avalon.gm, game, avalon.red, {"peak_gold": 50},
                    confirm=True)
    sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red, ["FRUGAL"])
    for kw in ({}, {"crates": False, "held_only": True}):
        kept, fresh = both(**kw)
        assert kept == fresh and kept[0].titles == ("FRUGAL",)
    undo(avalon)
    kept, fresh = both(held_only=True)
    assert kept == fresh and kept[0].titles == ()
    avalon.red.name = "Crimson"
    avalon.red.save()
    kept, fresh = both()
    assert kept == fresh and "Crimson" in [r.player for r in kept]
