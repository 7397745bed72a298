"""A page's read of a War of Kings game: the queries compiled once (``campaign.kept_sql``), the
board kept with its road steps (``state._read_board``) and the figures worked out from it give
exactly what the plain ORM reads and the rules give (WOK-ECON-4, WOK-ACH-5, WOK-ACH-6)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.war_of_kings import services, views
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.models import Army, Battle, Card
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import economy
from campaign.systems.war_of_kings.rules.achievements import end_of_round
from ledger.models import Balance
from tests.wok.conftest import Game, make_game


def _fields(obj: Any) -> dict[str, Any]:
    values = dict(obj.__dict__)
    values.pop("_state")
    return values


def _same_reads(game: Game) -> None:
    pk = game.campaign.pk
    assert (kept_values(("wok.kingdoms",), st._kingdoms_query, pk)
            == list(st._kingdoms_query(pk)))
    # A read's kingdoms are the rows the ORM makes, made only when a page asks for them.
    loaded = st.load(Campaign.objects.get(pk=pk))
    ordered = Kingdom.objects.filter(campaign_id=pk).order_by("order_position", "pk")
    assert list(loaded.kingdoms) == [k.pk for k in ordered]
    assert loaded.names == {k.pk: k.name for k in ordered}
    assert [_fields(k) for k in loaded.kingdoms.values()] == [_fields(k) for k in ordered]
    assert [_fields(loaded.by_name[k.name]) for k in ordered] == [_fields(k) for k in ordered]
    assert all(not k._state.adding and k._state.db == "default"
               for k in loaded.kingdoms.values())
    armies = kept_rows(("wok.armies",), st._armies_query, pk)
    assert [_fields(a) for a in armies] == [_fields(a) for a in st._armies_query(pk)]
    assert kept_values(("wok.tiles",), st._tiles_query, pk) == list(st._tiles_query(pk))
    assert (kept_values(("wok.balances",), st._balances_query, pk)
            == list(st._balances_query(pk)))
    battles = kept_rows(("wok.pending_battles",), views._pending_battles, pk)
    assert [_fields(b) for b in battles] == [_fields(b) for b in views._pending_battles(pk)]
    for kingdom in game.kingdoms.values():
        hand = kept_rows(("wok.hand",), views._hand, kingdom.pk)
        assert [_fields(c) for c in hand] == [_fields(c) for c in views._hand(kingdom.pk)]


def test_compiled_reads_give_what_the_orm_gives_and_see_every_change(db: Any) -> None:
    game = make_game("wok-reads")
    other = make_game("wok-reads-2", seated=3)
    _same_reads(game)
    _same_reads(other)
    # The SQL is kept, never the rows: a change (JSON included) shows in the next read.
    red = game.kingdoms["Red"]
    red.data = {**(red.data or {}), "note": "a <b> & \"c\""}
    red.name = "Crimson"
    red.save()
    tile = Tile.objects.filter(map__campaign=game.campaign).order_by("pk").first()
    tile.data = {**(tile.data or {}), "fort": 2}
    tile.save()
    Card.objects.create(campaign=game.campaign, holder=red, name="Spies", effect="x",
                        drawn_round=1)
    Battle.objects.create(campaign=game.campaign, number=7, tile=tile, attacker=red,
                          round=1, data={"attackers": [1]})
    Balance.objects.filter(kingdom=red).update(amount=99)
    _same_reads(game)
    _same_reads(other)
    read = st.load(game.campaign).kingdoms
    assert {k.name for k in read.values()} >= {"Crimson"}
    assert read[red.pk].data["note"] == "a <b> & \"c\""
    # Another campaign's read never holds this one's rows.
    assert red.pk not in st.load(other.campaign).kingdoms


def test_kept_board_road_steps_follow_a_new_road(game: Game) -> None:
    loaded = game.loaded()
    state = loaded.state
    fresh = replace(state)  # a state of its own: nothing worked out yet
    for code in state.map.codes:
        assert economy.road_neighbours(state, code) == economy.road_neighbours(fresh, code)
    # A road where none was: the board's key changes, and so do the road steps it keeps.
    a, b = next((a, b) for a in state.map.codes for b in sorted(state.map.neighbours(a))
                if a < b and not state.has_road(a, b)
                and state.map.winter_center not in (a, b))
    assert b not in economy.road_neighbours(state, a)
    for here, there in ((a, b), (b, a)):
        tile = Tile.objects.get(map__campaign=game.campaign, label=here)
        tile.edges = {**(tile.edges or {}), there: ["road"]}
        tile.save()
    after = game.loaded().state
    assert b in economy.road_neighbours(after, a) and a in economy.road_neighbours(after, b)
    fresh = replace(after)
    for code in after.map.codes:
        assert economy.road_neighbours(after, code) == economy.road_neighbours(fresh, code)


def test_holdings_gold_network_and_projected_holders_as_the_rules_read_them(
        game: Game) -> None:
    tile = Tile.objects.filter(map__campaign=game.campaign, controller__isnull=True,
                               settlement="").order_by("pk").first()
    tile.data = {**(tile.data or {}), "malador": True}
    tile.settlement = "village"
    tile.save()
    loaded = game.loaded()
    kingdoms = loaded.kingdoms
    seats = {k.order_position: k for k in kingdoms.values()
             if k.order_position is not None and k.capital_tile_id is not None}
    rows = st._read_board(game.campaign).tile_rows
    assert st._holdings(rows, kingdoms, seats) == {
        t.label: st._holding(t, kingdoms, seats) for t in rows}
    state = loaded.state
    for name in state.kingdoms:
        assert economy.gold_network(state, name) == frozenset(
            economy.chain_paths(state, name, state.capital(name)))
    assert services.projected(loaded) == end_of_round(state, loaded.holders,
                                                      loaded.options).holders


def test_wok_army_1_map_markers(game: Game) -> None:
    from campaign.systems.war_of_kings import shell

    tile = Tile.objects.filter(map__campaign=game.campaign).order_by("-pk").first()
    Army.objects.create(campaign=game.campaign, number=90, owner=None, culture=None, tile=tile,
                        damage=2, ready=False)
    red = game.kingdoms["Red"]
    Army.objects.create(campaign=game.campaign, number=91, owner=red, culture=red, tile=tile,
                        damage=0, ready=True)
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=game.campaign)}
    expected = []
    for army in Army.objects.filter(campaign=game.campaign):
        owner = kingdoms.get(army.owner_id) if army.owner_id else None
        expected.append((army.tile_id, f"{army.number}{'' if army.ready else '-'}"
                         f"{'•' * army.damage}", owner.colour if owner else "#e07b20",
                         f"{owner.name if owner else 'Malador'} army {army.number}, "
                         f"{'ready' if army.ready else 'unready'}, {army.damage} damage"))
    markers = shell.map_markers(game.campaign, kingdoms)
    assert [(pk, m.text, m.colour, m.title) for pk, m in markers] == expected
    assert ("90-••" in [m.text for _pk, m in markers]
            and "Malador army 90, unready, 2 damage" in [m.title for _pk, m in markers])


def test_with_turn_keeps_the_board_and_changes_only_the_turn(game: Game) -> None:
    state = game.loaded().state
    turned = state.with_turn(round=state.round + 1, phase=wb.MOVEMENT, active="Blue",
                             lead="Blue", stockpiles={}, armies=())
    made = replace(state, round=state.round + 1, phase=wb.MOVEMENT, active="Blue", lead="Blue",
                   stockpiles={}, armies=())
    assert turned == made and turned.holdings is state.holdings
    for name in state.seats:
        assert turned.controlled(name) == made.controlled(name) == state.controlled(name)
        assert turned.stock(name) == wb.Stock() and not turned.armies_of(name)
    with pytest.raises(ValueError, match="holdings"):
        state.with_turn(holdings={})
