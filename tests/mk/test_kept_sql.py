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


def test_ships_tiles_are_looked_up_by_key_on_postgresql_with_the_same_rows() -> None:
    """The tokens' union looks each ship's tile up by its key on PostgreSQL (a lateral
    subquery, ``kept_sql.looked_up_row_by_row``), elsewhere joins as Django writes it; either
    way the ships come with their tiles' labels, as the ORM's own query gives them."""
    from campaign.systems.mighty_kingdoms.models import Ship
    from campaign.systems.mighty_kingdoms.state import _ships_tiles_by_key

    made = build("kept-ships", 10, 10)
    campaign, (first, second) = made["campaign"], made["armies"]
    for label, kingdom, number in (("0505", first.kingdom, 1), ("0606", second.kingdom, 1),
                                   ("0505", second.kingdom, 2)):
        Ship.objects.create(campaign=campaign, kingdom=kingdom, number=number,
                            tile=Tile.objects.get(map__campaign=campaign, label=label))
    state = load_state(campaign)
    state.read_every_token()
    assert sorted((s.kingdom, s.number, s.tile) for s in state.ships) == sorted(
        Ship.objects.filter(campaign=campaign).values_list("kingdom_id", "number",
                                                           "tile__label"))
    kept = [statement.sql for (_, vendor, _, key), statement in kept_sql._kept.items()
            if vendor == connection.vendor and key[:2] == ("mk", "tokens") and statement]
    assert kept
    for sql in kept:
        assert ('CROSS JOIN LATERAL (SELECT x."label", x."q", x."r" FROM "campaign_tile" x '
                'WHERE x."id" = "mighty_kingdoms_ship"."tile_id" OFFSET 0) "campaign_tile"'
                in sql) is (connection.vendor == "postgresql")
        assert ('INNER JOIN "campaign_tile" ON ("mighty_kingdoms_ship"."tile_id"' in sql) is (
            connection.vendor != "postgresql")
    assert _ships_tiles_by_key(kept[0], "sqlite") == kept[0]
    sql = str(Ship.objects.filter(tile__isnull=False).values_list("pk", "tile__label").query)
    # A join written otherwise is left as it is.
    assert kept_sql.looked_up_row_by_row(sql, "postgresql", "other_table", "tile_id",
                                         "campaign_tile", ("label",)) == sql


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


def test_tiles_at_reads_columns_with_gaps_and_sends_no_parameters() -> None:
    """A column whose rows do not run unbroken asks for each row (``IN``), the others for a
    range; the positions are written into the text, so the statement carries no parameter
    (on PostgreSQL but the map's token, the tiles read again only after one was written)."""
    from campaign.systems.mighty_kingdoms.state import _tiles_at

    made = build("kept-gaps", 10, 10)
    map_id = made["campaign"].map.pk
    tiles = {(t.q, t.r): t for t in Tile.objects.filter(map_id=map_id)}
    spots = [spot for spot in [(0, 0), (0, 2), (0, 5), (1, 3), (1, 4), (4, 9)] if spot in tiles]
    with CaptureQueriesContext(connection) as queries:
        found = _tiles_at(map_id, spots)
    assert sorted((t.q, t.r) for t in found) == sorted(spots)
    assert len(queries) == 1
    if connection.vendor == "postgresql":
        # The map's token (campaign/tile_versions.py) is the statement's one parameter.
        from campaign.systems.mighty_kingdoms import state

        texts = [sql for (kept_map, _), sql in state._AT_SQL.items() if kept_map == map_id]
        assert texts and all(sql.count("%s") == 1 and "IN (0, 2, 5)" in sql for sql in texts)
        with CaptureQueriesContext(connection) as queries:
            again = _tiles_at(map_id, spots)
        assert again == found and len(queries) == 1
        assert "tiles_version" in queries[0]["sql"]
        return
    kept = [statement for (*_, key), statement in kept_sql._kept.items()
            if key[:2] == ("tiles-at", map_id)]
    assert kept and all(statement.slots == () for statement in kept)


def test_padded_lists_repeat_their_last_value_up_to_a_power_of_two() -> None:
    from campaign.systems.mighty_kingdoms.state import padded

    assert padded([]) == []
    assert padded([7]) == [7]
    assert padded([3, 5, 9]) == [3, 5, 9, 9]
    assert padded(list(range(5))) == [0, 1, 2, 3, 4, 4, 4, 4]
    assert padded(["a", "b"]) == ["a", "b"]


def test_some_kingdoms_tokens_orders_and_stocks_read_afresh() -> None:
    """The reads of some kingdoms' tokens and orders, of the tokens on some tiles and of some
    kingdoms' stocks keep their text under how many they ask for (padded): each call reads its
    own kingdoms and tiles, and what changed since shows at once."""
    from campaign.systems.mighty_kingdoms import summer_common, winter_services
    from campaign.systems.mighty_kingdoms.models import Order, Ship
    from campaign.systems.mighty_kingdoms.rules import ledger as eco
    from ledger.models import Balance

    made = build("kept-h", 12, 12, kingdoms=3)
    campaign, armies = made["campaign"], made["armies"]
    k0, k1, k2 = (a.kingdom_id for a in armies)
    label = {a.kingdom_id: a.tile.label for a in armies}

    def of(pks: list[int]) -> dict[int, list[tuple[str, int, str, bool]]]:
        state = load_state(campaign)
        state.read_tokens_of(pks)
        return {pk: [("army", a.number, a.tile, a.on_side) for a in state.armies_of(pk)]
                + [("ship", s.number, s.tile, s.on_side) for s in state.ships_of(pk)]
                for pk in pks}

    assert of([k0]) == {k0: [("army", 1, label[k0], False)]}
    assert of([k2, k0, k1]) == {k2: [("army", 1, label[k2], False)],
                                k0: [("army", 1, label[k0], False)],
                                k1: [("army", 1, label[k1], False)]}
    Army.objects.filter(pk=armies[1].pk).update(on_side=True)
    Ship.objects.create(campaign=campaign, kingdom_id=k2, number=1, tile=armies[0].tile)
    assert of([k1, k2]) == {k1: [("army", 1, label[k1], True)],
                            k2: [("army", 1, label[k2], False), ("ship", 1, label[k0], False)]}
    # The tokens on some tiles, whoever's they are; a label that is no tile finds nothing.
    state = load_state(campaign)
    on, ships = state.tokens_at([label[k0], "9999", label[k1]])
    assert sorted((a.kingdom, a.tile) for a in on) == sorted([(k0, label[k0]), (k1, label[k1])])
    assert [(s.kingdom, s.tile) for s in ships] == [(k2, label[k0])]
    assert [(s.kingdom, s.tile) for s in load_state(campaign).ships_at([label[k0]])] == [
        (k2, label[k0])]
    # Some kingdoms' orders this month, and another read after one more is given.
    Order.objects.create(campaign=campaign, kingdom_id=k1, year=campaign.year, month=1,
                         token=f"army:{armies[1].pk}", kind="defend", given_seq=1)
    state = load_state(campaign)
    summer_common.read_orders_of(state, [k0, k1])
    assert [o.token for o in summer_common.kingdom_orders(state, k0)] == []
    assert [o.token for o in summer_common.kingdom_orders(state, k1)] == [
        f"army:{armies[1].pk}"]
    Order.objects.create(campaign=campaign, kingdom_id=k0, year=campaign.year, month=1,
                         token=f"army:{armies[0].pk}", kind="defend", given_seq=2)
    Order.objects.create(campaign=campaign, kingdom_id=k0, year=campaign.year, month=2,
                         token=f"army:{armies[0].pk}", kind="defend", given_seq=3)
    state = load_state(campaign)
    assert [(o.kingdom_id, o.given_seq) for o in summer_common.kingdom_orders(state, k0)] == [
        (k0, 2)]
    # Their stocks: 0 where nothing was booked, as the ledger reads them.
    Balance.objects.create(kingdom_id=k1, resource="gold", amount=5)
    assert winter_services.stocks_of(state, [k0, k1, k2]) == {
        k0: eco.Resources(0, 0), k1: eco.Resources(5, 0), k2: eco.Resources(0, 0)}
    Balance.objects.create(kingdom_id=k2, resource="food", amount=4)
    Balance.objects.filter(kingdom_id=k1).update(amount=2)
    assert winter_services.stocks_of(state, [k2, k1]) == {
        k2: eco.Resources(0, 4), k1: eco.Resources(2, 0)}
    with pytest.raises(KeyError):
        winter_services.stocks_of(state, [k0, -1])


def test_tiles_read_by_position_show_an_edit_at_once() -> None:
    """What is made of the tiles read by position (their records, their states without edges
    and the views ``map_around`` builds) is kept under their rows: the same rows give the same
    view again, and a tile edited without an event (terrain, a river, a coast on an edge, a
    tower, a new controller) is seen as it is now, as the whole map sees it."""
    made = build("kept-i", 10, 10)
    campaign, (first, _) = made["campaign"], made["armies"]
    label = first.tile.label

    def around() -> object:
        return load_state(campaign).map_around([label])

    def whole(name: str) -> object:
        return load_state(campaign).map.tile(name)

    view = around()
    assert around() is view
    names = [t.label for t in view.tiles]
    assert [view.tile(name) for name in names] == [whole(name) for name in names]
    Tile.objects.filter(pk=first.tile_id).update(terrain="forest", features=["river"],
                                                 edges={"0": ["coast"]})
    edited = around()
    tile = edited.tile(label)
    assert (tile.has_forest, tile.has_river, tile.is_coastal) == (True, True, True)
    assert tile == whole(label)
    neighbour = tile.edges[0].neighbour
    assert edited.tile(neighbour) == whole(neighbour)
    assert any(e.neighbour == label and e.other_side == {"coast"}
               for e in edited.tile(neighbour).edges)
    state = load_state(campaign)
    alone = state.tiles_alone([label]).tile(label)
    assert (alone.terrain, alone.controller, alone.wizard_tower, alone.edges) == (
        "forest", first.kingdom_id, False, ())
    Tile.objects.filter(pk=first.tile_id).update(controller=None, data={"wizard_tower": True})
    alone = load_state(campaign).tiles_alone([label]).tile(label)
    assert (alone.controller, alone.wizard_tower) == (None, True)
    assert around().tile(label) == whole(label)


def test_what_is_made_of_tiles_read_by_position_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from campaign.systems.mighty_kingdoms import state as mk_state

    made = build("kept-j", 10, 10)
    campaign = made["campaign"]
    for name, limit in (("TILES_KEPT", 5), ("VIEWS_KEPT", 2)):
        monkeypatch.setattr(mk_state, name, limit)
    for store in ("_RECS", "_STATES", "_BUILT"):
        monkeypatch.setattr(mk_state, store, {})
    labels = sorted(Tile.objects.filter(map__campaign=campaign).values_list("label", flat=True))
    for label in labels[20:26]:
        state = load_state(campaign)
        state.map_around([label])
        state.tiles_alone([label])
        assert len(mk_state._RECS) <= 5 and len(mk_state._STATES) <= 5
        assert len(mk_state._BUILT) <= 2
    assert load_state(campaign).map_around([labels[25]]).tile(labels[25]) == (
        load_state(campaign).map.tile(labels[25]))


def test_stocks_read_with_the_kingdoms() -> None:
    """A page showing a kingdom's economy reads every kingdom's gold and food with the kingdoms
    (``load_state(stocks=True)``): what the ledger's balances hold now, 0 where nothing was
    booked, and no query more for them."""
    from campaign.systems.mighty_kingdoms import winter_services
    from campaign.systems.mighty_kingdoms.rules import ledger as eco
    from ledger.models import Balance

    made = build("kept-k", 10, 10)
    campaign, (first, second) = made["campaign"], made["armies"]
    k0, k1 = first.kingdom_id, second.kingdom_id
    Balance.objects.create(kingdom_id=k0, resource="gold", amount=7)
    Balance.objects.create(kingdom_id=k0, resource="food", amount=3)
    with CaptureQueriesContext(connection) as queries:
        state = load_state(campaign, stocks=True)
        found = winter_services.stocks_of(state, [k0, k1])
    assert len(queries) == 1
    assert found == {k0: eco.Resources(7, 3), k1: eco.Resources(0, 0)}
    assert found == winter_services.stocks_of(load_state(campaign), [k0, k1])
    Balance.objects.filter(kingdom_id=k0, resource="gold").update(amount=2)
    Balance.objects.create(kingdom_id=k1, resource="food", amount=9)
    assert winter_services.stocks_of(load_state(campaign, stocks=True), [k1, k0]) == {
        k1: eco.Resources(0, 9), k0: eco.Resources(2, 3)}
    assert load_state(campaign).stocks is None
