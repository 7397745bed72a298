"""War of Kings played through the services: setup, the phase machine, gold and resources booked
to the ledger, building, the market and deals; each action undone exactly."""

from __future__ import annotations

import pytest

from campaign.chronicle import undo_latest
from campaign.services import ServiceError
from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules.economy import gold_generation, ledger
from ledger.services import check_balances
from tests.wok.conftest import Game, dump


def test_wok_setup_7_starting_kingdoms_on_the_board_and_in_the_ledger(game: Game) -> None:
    """WOK-SETUP-4, WOK-SETUP-7, WOK-SETUP-8, WOK-SETUP-9, WOK-TV-1, WOK-TV-2: four kingdoms,
    each with 4 territories, a town and a village, one ready army, one road, 7/5/7/7/2 in the
    ledger, 9 gold per round and 3 AP; the lead drawn from the first marker is Red."""
    loaded = game.loaded()
    state = loaded.state
    assert state.seats == ("Red", "Blue", "Green", "Black")
    assert state.lead == "Red" and state.phase == wb.RECEIVE_GOLD and state.round == 1
    for name in state.seats:
        assert len(state.controlled(name)) == 4
        assert state.stock(name) == wb.Stock(7, 5, 7, 7, 2)
        assert gold_generation(state, name) == 9
        assert len(state.armies_of(name)) == 1 and state.armies_of(name)[0].ready
        assert ledger(state, name).as_dict() == {
            "red": {"cattle": 3, "timber": 1}, "yellow": {"timber": 1}, "green": {"wheat": 2},
            "blue": {"stone": 1}}
        assert check_balances(game.kingdoms[name]) == {}
    assert len(state.roads) == 4


def _to(game: Game, phase: str, dice: list[str] | None = None) -> None:
    while game.loaded().state.phase != phase:
        services.advance(game.campaign, game.gm, dice=dice)


def test_wok_econ_4_receive_gold_books_the_forecast_and_undo_restores(game: Game) -> None:
    """WOK-ECON-4, WOK-ECON-9, WOK-TURN-2: Receive Gold books each kingdom's gold generation,
    the same figure the page forecasts; undo restores every row."""
    before = dump(game.campaign)
    forecast = {k: gold_generation(game.loaded().state, k) for k in game.kingdoms}
    services.advance(game.campaign, game.gm)
    state = game.loaded().state
    assert state.phase == wb.CHECK_SUPPORT
    for name, kingdom in game.kingdoms.items():
        assert state.stock(name).gold == 7 + forecast[name] == 16
        entry = kingdom.ledger_entries.order_by("-pk").first()
        assert (entry.resource, entry.amount, entry.rule_id) == ("gold", 9, "WOK-ECON-4")
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_econ_2_typed_dice_pay_every_kingdom_at_once(game: Game) -> None:
    """WOK-ECON-2, WOK-TV-3: three blue dice pay every blue column three times."""
    _to(game, wb.RESOURCE_GENERATION)
    services.advance(game.campaign, game.gm, dice=["blue", "blue", "blue"])
    state = game.loaded().state
    assert state.phase == wb.CONSTRUCTION
    for name in game.kingdoms:
        assert state.stock(name) == wb.Stock(16, 5, 7, 7, 5)
    event = game.campaign.events.order_by("-seq").first()
    assert event.dice == [{"purpose": "resource dice", "values": [4, 4, 4], "source": "table"}]


def test_wok_econ_2_rolled_dice_are_kept_with_the_event(game: Game) -> None:
    """WOK-ECON-2: dice rolled by the app are stored with the event, marked as the server's."""
    _to(game, wb.RESOURCE_GENERATION)
    services.advance(game.campaign, game.gm, roll=lambda sides: 1)
    state = game.loaded().state
    for name in game.kingdoms:
        assert state.stock(name) == wb.Stock(16, 5 + 3, 7, 7 + 9, 2)
    event = game.campaign.events.order_by("-seq").first()
    assert event.dice == [{"purpose": "resource dice", "values": [1, 1, 1], "source": "server"}]


def test_wok_set_4_build_a_town_then_undo_restores_board_and_ledger(game: Game) -> None:
    """WOK-SET-4, WOK-TV-8, WOK-COST-1: village to town costs 6 gold, 4 timber, 4 wheat,
    4 cattle and 1 stone; the piece is swapped at once; undo restores board and ledger."""
    _to(game, wb.CONSTRUCTION, dice=["red", "green", "yellow"])
    loaded = game.loaded()
    front = game.kingdoms["Red"].data["front"]
    stock = loaded.state.stock("Red")
    before = dump(game.campaign)
    services.build(game.campaign, game.players["Red"], game.kingdoms["Red"], "town", front)
    state = game.loaded().state
    assert state.lvl(front) == wb.TOWN
    assert stock - state.stock("Red") == wb.Stock(6, 4, 4, 4, 1)
    assert check_balances(game.kingdoms["Red"]) == {}
    with pytest.raises(ServiceError, match="WOK-SET-5"):
        services.build(game.campaign, game.gm, game.kingdoms["Red"], "city", front)
    undo_latest(game.campaign, game.gm)
    assert dump(game.campaign) == before


def test_wok_road_1_road_from_the_capital_and_refusals_cite_the_rule(game: Game) -> None:
    """WOK-ROAD-1, WOK-ROAD-3, WOK-AMB-18: a road between two own territories is placed on both
    sides of the border at Table 4's price; a road to a territory the kingdom does not control
    is refused with the rule."""
    _to(game, wb.CONSTRUCTION, dice=["red", "red", "red"])
    loaded = game.loaded()
    capital = loaded.state.capital("Red")
    other = sorted(t for t in loaded.state.controlled("Red")
                   if t != capital and t != game.kingdoms["Red"].data["front"]
                   and loaded.state.map.adjacent(capital, t))[0]
    services.build(game.campaign, game.gm, game.kingdoms["Red"], "road", f"{capital}|{other}")
    state = game.loaded().state
    assert state.has_road(capital, other)
    assert game.loaded().tiles[other].edges[capital] == ["road"]
    with pytest.raises(ServiceError, match="WOK-AMB-18"):
        services.build(game.campaign, game.gm, game.kingdoms["Red"], "road",
                       f"{capital}–{other}")
    foreign = next(t for t in state.map.neighbours(other) if state.ctrl(t) != "Red"
                   and state.map.territory(t).playable)
    with pytest.raises(ServiceError, match="WOK-ROAD-1"):
        services.build(game.campaign, game.gm, game.kingdoms["Red"], "road", f"{other}|{foreign}")


def test_wok_mkt_1_market_trade_and_deal_between_players(game: Game) -> None:
    """WOK-MKT-1, WOK-MKT-2, WOK-AMB-28: 4 cattle buy 1 stone; 5 gold buy 1 timber; a deal
    moves goods; an unaffordable trade is refused and changes nothing."""
    services.trade(game.campaign, game.gm, game.kingdoms["Red"], "cattle", "stone", 1)
    services.trade(game.campaign, game.gm, game.kingdoms["Red"], "gold", "timber", 1)
    services.deal(game.campaign, game.gm, game.kingdoms["Red"], game.kingdoms["Blue"],
                  wb.Stock(gold=2, wheat=1), "for peace")
    state = game.loaded().state
    assert state.stock("Red") == wb.Stock(0, 6, 6, 3, 3)
    assert state.stock("Blue") == wb.Stock(9, 5, 8, 7, 2)
    before = dump(game.campaign)
    with pytest.raises(ServiceError, match="WOK-MKT-1"):
        services.trade(game.campaign, game.gm, game.kingdoms["Red"], "gold", "stone", 1)
    assert dump(game.campaign) == before
