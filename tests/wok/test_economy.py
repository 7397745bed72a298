"""War of Kings economy by rule ID: territories, the ledger, gold over roads, the market."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.systems.war_of_kings.rules import economy as eco
from campaign.systems.war_of_kings.rules.board import (
    BLUE,
    CATTLE,
    CITY,
    GOLD,
    GREEN,
    IMPASSABLE,
    MALADOR,
    RED,
    STONE,
    TIMBER,
    TOWN,
    VILLAGE,
    WHEAT,
    WINTER,
    WINTER_CENTER,
    YELLOW,
    RuleViolation,
    Stock,
)
from tests.wok.factory import hold, terr, world


def line_of(state, kingdom, code):
    return next(line for line in eco.gold_report(state, kingdom) if line.territory == code)


# --- territories and the ledger -------------------------------------------------------------

def test_wok_terr_1_states_and_one_settlement_per_territory() -> None:
    """WOK-TERR-1: a territory is uncontrolled, a kingdom's or the Malador's; it holds at most one
    settlement and one fortification level."""
    state = world(["A", "B", "C"], ["A-B", "B-C"],
                  {"A": hold("Red", TOWN), "B": hold(MALADOR)}, capitals={"Red": "A"})
    assert [state.ctrl(t) for t in ("A", "B", "C")] == ["Red", MALADOR, None]
    assert (state.lvl("A"), state.lvl("C"), state.fort("C")) == (2, 0, 0)


def test_wok_terr_2_control_alone_yields_one_primary() -> None:
    """WOK-TERR-2, WOK-ECON-1: control without a settlement yields 1 of the primary and no
    gold."""
    state = world([terr("A", RED, CATTLE), terr("B", GREEN, WHEAT, STONE)], ["A-B"],
                  {"A": hold("Red", TOWN), "B": hold("Red")}, capitals={"Red": "A"})
    assert eco.ledger(state, "Red").column(GREEN) == Stock(wheat=1)
    assert eco.gold_generation(state, "Red") == 6


def test_wok_terr_3_resource_dice_carry_the_four_colours_only() -> None:
    """WOK-TERR-3, WOK-ECON-2: three Resource Dice, each one of the four colours."""
    state = world(["A"], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"})
    with pytest.raises(RuleViolation, match="WOK-ECON-2"):
        eco.income(state, "Red", [RED, "orange", BLUE])
    with pytest.raises(RuleViolation, match="WOK-ECON-2"):
        eco.income(state, "Red", [RED, BLUE])


def test_wok_terr_4_control_changes_keep_the_settlement_culture() -> None:
    """WOK-TERR-4, WOK-CULT-1: swapping the marker moves the ledger, not the culture."""
    state = world(
        [terr("A", RED, CATTLE), terr("B", BLUE, STONE), terr("C", RED, TIMBER)],
        ["A-B", "B-C"],
        {"A": hold("Red", TOWN), "B": hold("Red", VILLAGE), "C": hold("Blue", TOWN)},
        capitals={"Red": "A", "Blue": "C"})
    taken = state.with_holding("B", replace(state.holding("B"), controller="Blue"))
    assert taken.holding("B").culture == "Red"
    assert eco.ledger(taken, "Blue").column(BLUE) == Stock(stone=2)
    assert eco.ledger(taken, "Red").column(BLUE) == Stock()


def test_wok_ledger_1_columns_per_colour_and_gold() -> None:
    """WOK-LEDGER-1, WOK-LEDGER-3: one column per colour can list several resources; the ledger
    also holds the gold per round."""
    state = world([terr("A", RED, CATTLE, TIMBER), terr("B", RED, STONE), terr("C", RED, WHEAT)],
                  ["A-B", "A-C"],
                  {"A": hold("Red", CITY), "B": hold("Red", VILLAGE), "C": hold("Red")},
                  roads=["A-B"], capitals={"Red": "A"})
    book = eco.ledger(state, "Red")
    assert book.column(RED) == Stock(cattle=4, timber=2, stone=2, wheat=1)
    assert book.column(YELLOW) == Stock()
    assert book.gold == 12


def test_wok_ledger_2_ledger_is_a_forecast_not_the_stockpile() -> None:
    """WOK-LEDGER-2: reading the ledger changes no stockpile; collecting does."""
    state = world([terr("A", BLUE, STONE)], [], {"A": hold("Red", TOWN)},
                  capitals={"Red": "A"}, stock=Stock(gold=1))
    assert eco.ledger(state, "Red").column(BLUE) == Stock(stone=3)
    assert state.stock("Red") == Stock(gold=1)
    assert eco.collect_resources(state, [BLUE, RED, RED]).stock("Red") == Stock(gold=1, stone=3)


def test_wok_ledger_3_culture_malador_and_winter_centre_ignored() -> None:
    """WOK-LEDGER-3: a foreign-culture settlement pays its controller; Malador and uncontrolled
    territories and the winter centre pay nobody."""
    state = world([terr("A", RED, CATTLE), terr("B", RED, CATTLE), terr("M", RED, CATTLE),
                   terr("X", None, None, kind=WINTER_CENTER)],
                  ["A-B", "A-M", "A-X"],
                  {"A": hold("Red", TOWN), "B": hold("Red", VILLAGE, cult="Blue"),
                   "M": hold(MALADOR, CITY)}, capitals={"Red": "A"}, side=WINTER)
    assert eco.ledger(state, "Red").column(RED) == Stock(cattle=5)


def test_wok_ledger_4_new_buildings_pay_from_the_next_round() -> None:
    """WOK-LEDGER-4, WOK-ECON-9, WOK-SET-9: gold is paid from the board at Receive Gold; a
    village built later in the round pays at the next Receive Gold."""
    from campaign.systems.war_of_kings.rules import construction as con
    from tests.wok.factory import RICH

    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold("Red")},
                  roads=["A-B"], capitals={"Red": "A"}, stock=Stock(), phase="receive_gold")
    state = eco.receive_gold(state)
    assert state.stock("Red").gold == 6
    state = replace(state, phase="construction").with_stock("Red", RICH)
    state = con.build(state, "Red", con.VILLAGE_ITEM, "B").state
    state = eco.receive_gold(state.with_stock("Red", Stock()))
    assert state.stock("Red").gold == 9


def test_wok_turn_4_ledger_follows_the_board_at_once() -> None:
    """WOK-TURN-4: the ledger is derived from the board, so a conquest changes it immediately."""

    state = world([terr("A", RED, CATTLE), terr("B", GREEN, WHEAT)], ["A-B"],
                  {"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)}, roads=["A-B"],
                  capitals={"Red": "A"})
    assert eco.ledger(state, "Red").gold == 9
    lost = state.with_holding("B", replace(state.holding("B"), controller=MALADOR))
    assert eco.ledger(lost, "Red").gold == 6
    assert eco.ledger(lost, "Red").column(GREEN) == Stock()


# --- resources and gold --------------------------------------------------------------------

def test_wok_econ_1_table_3_by_level() -> None:
    """WOK-ECON-1: gold 0/3/6/9, primary 1/2/3/4, secondary 0/0/1/2."""
    base = [terr("A", RED, CATTLE, TIMBER)]
    outputs = []
    for level in (0, 1, 2, 3):
        state = world(base, [], {"A": hold("Red", level)}, capitals={"Red": "A"})
        outputs.append((eco.gold_generation(state, "Red"), eco.territory_output(state, "A")))
    assert outputs == [(0, Stock(cattle=1)), (3, Stock(cattle=2)),
                       (6, Stock(cattle=3, timber=1)), (9, Stock(cattle=4, timber=2))]


def test_wok_econ_2_each_die_pays_its_column() -> None:
    """WOK-ECON-2: red, red, green pays the red column twice and the green once."""
    state = world([terr("A", RED, CATTLE, TIMBER), terr("B", GREEN, WHEAT)], ["A-B"],
                  {"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)}, capitals={"Red": "A"})
    assert eco.income(state, "Red", [RED, GREEN, RED]) == Stock(cattle=6, timber=2, wheat=2)


def test_wok_econ_3_event_die_roll_never_goes_through_income() -> None:
    """WOK-ECON-3: the lone Resource Die of the Event Die Phase is not an income roll: income
    needs all three dice."""
    state = world([terr("A", RED, CATTLE)], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"})
    with pytest.raises(RuleViolation, match="all 3 Resource Dice"):
        eco.collect_resources(state, [RED])


def test_wok_econ_4_settlement_far_from_capital_pays_through_a_chain() -> None:
    """WOK-ECON-4, WOK-ROAD-4: a city three roads away pays 9 gold; the chain is reported."""
    state = world(["A", "B", "C", "D"], ["A-B", "B-C", "C-D"],
                  {"A": hold("Red"), "B": hold("Red"), "C": hold("Red"),
                   "D": hold("Red", CITY, cult="Blue")},
                  roads=["A-B", "B-C", "C-D"], capitals={"Red": "A"})
    line = line_of(state, "Red", "D")
    assert (line.gold, line.chain) == (9, ("D", "C", "B", "A"))
    assert line.reason == "City in D pays 9 gold: road chain D–C–B–A to the capital (WOK-ECON-4)."
    assert eco.gold_network(state, "Red") == frozenset("ABCD")


def test_wok_econ_5_capital_settlement_pays_without_a_road() -> None:
    """WOK-ECON-5: the capital's own settlement always pays."""
    state = world(["A"], [], {"A": hold("Red", CITY)}, capitals={"Red": "A"})
    assert line_of(state, "Red", "A").gold == 9
    assert line_of(state, "Red", "A").reason.endswith("(WOK-ECON-5).")


def test_wok_econ_6_empty_capital_still_anchors() -> None:
    """WOK-ECON-6, WOK-CAP-2: a capital with no settlement adds 0 but connects the others."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red"), "B": hold("Red", TOWN)},
                  roads=["A-B"], capitals={"Red": "A"})
    assert eco.gold_generation(state, "Red") == 6


def test_wok_econ_7_capital_lost_means_no_gold() -> None:
    """WOK-ECON-7, WOK-CAP-2: while the capital is held by another, gold is 0 even with linked
    settlements; it resumes on recapture."""
    state = world(["A", "B", "C"], ["A-B", "B-C"],
                  {"A": hold("Blue", TOWN, cult="Red"), "B": hold("Red", TOWN),
                   "C": hold("Red", VILLAGE)},
                  roads=["A-B", "B-C"], capitals={"Red": "A", "Blue": "C"})
    assert eco.gold_generation(state, "Red") == 0
    assert line_of(state, "Red", "B").reason == (
        "The capital A is held by Blue, so Red generates no gold until it retakes it "
        "(WOK-ECON-7).")
    back = state.with_holding("A", replace(state.holding("A"), controller="Red"))
    assert eco.gold_generation(back, "Red") == 15


def test_wok_econ_8_chain_broken_by_other_kingdom_or_nobody_but_resources_flow() -> None:
    """WOK-ECON-8: a territory of another kingdom or of nobody breaks the chain; the cut-off
    settlement still yields resources."""
    state = world([terr("A"), terr("B"), terr("C", BLUE, STONE)], ["A-B", "B-C"],
                  {"A": hold("Red", TOWN), "C": hold("Red", CITY)},
                  roads=["A-B", "B-C"], capitals={"Red": "A"})
    assert eco.gold_generation(state, "Red") == 6
    assert line_of(state, "Red", "C").reason == (
        "Every road chain from C to the capital crosses territory Red does not control: B "
        "(held by nobody) (WOK-ECON-8).")
    assert eco.ledger(state, "Red").column(BLUE) == Stock(stone=4)
    blue = state.with_holding("B", hold("Blue"))
    assert "B (held by Blue)" in line_of(blue, "Red", "C").reason


def test_wok_econ_9_roads_count_at_the_next_receive_gold() -> None:
    """WOK-ECON-9, WOK-ROAD-3: a road built during Construction connects at once, so the next
    Receive Gold counts the village."""
    from campaign.systems.war_of_kings.rules import construction as con
    from tests.wok.factory import RICH

    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)},
                  capitals={"Red": "A"}, stock=RICH)
    assert eco.gold_generation(state, "Red") == 6
    state = con.build_road(state, "Red", "A", "B").state
    assert eco.gold_generation(state, "Red") == 9


def test_wok_board_3_winter_centre_is_a_road_hub() -> None:
    """WOK-BOARD-3, WOK-AMB-22, WOK-AMB-23: the uncontrollable centre links every neighbour as if
    by road, with no road tokens, for gold."""
    state = world(["A", "B", terr("X", None, None, kind=WINTER_CENTER)],
                  ["A-X", "B-X"], {"A": hold("Red", TOWN), "B": hold("Red", CITY)},
                  capitals={"Red": "A"}, side=WINTER)
    assert eco.road_linked(state, "A", "X") and not eco.road_linked(state, "A", "B")
    line = line_of(state, "Red", "B")
    assert (line.gold, line.chain) == (9, ("B", "X", "A"))
    assert eco.gold_generation(state, "Red") == 15


def test_wok_board_2_summer_mountains_are_never_adjacent() -> None:
    """WOK-BOARD-2: the impassable middle has no neighbours and cannot carry a chain."""
    state = world(["A", "B", terr("M", None, None, kind=IMPASSABLE)], ["A-M", "B-M"],
                  {"A": hold("Red", TOWN), "B": hold("Red", CITY)}, capitals={"Red": "A"})
    assert state.map.neighbours("M") == frozenset()
    assert eco.gold_generation(state, "Red") == 6


def test_wok_board_1_only_listed_borders_join_territories() -> None:
    """WOK-BOARD-1, WOK-BOARD-5: adjacency is map data; edges and decoration join nothing."""
    state = world(["A", "B", "C"], ["A-B"], {}, capitals={})
    assert (state.map.adjacent("A", "B"), state.map.adjacent("A", "C")) == (True, False)


# --- the market -----------------------------------------------------------------------------

def test_wok_mkt_1_four_of_one_kind_or_five_gold_for_one() -> None:
    """WOK-MKT-1: 8 timber buys 2 stone; 5 gold buys 1 wheat; gold is never bought."""
    stock = Stock(gold=7, timber=9)
    assert eco.market_trade(stock, TIMBER, STONE, lots=2) == Stock(gold=7, timber=1, stone=2)
    assert eco.market_trade(stock, GOLD, WHEAT) == Stock(gold=2, timber=9, wheat=1)
    with pytest.raises(RuleViolation, match="WOK-MKT-1: the market never pays out gold"):
        eco.market_trade(stock, TIMBER, GOLD)
    with pytest.raises(RuleViolation, match="costs 12 timber; you have 9"):
        eco.market_trade(stock, TIMBER, STONE, lots=3)


def test_wok_amb_28_mixed_cards_cannot_be_traded() -> None:
    """WOK-AMB-28: 4 of a single type; 2 timber and 2 wheat buy nothing."""
    stock = Stock(timber=2, wheat=2)
    with pytest.raises(RuleViolation, match="costs 4 timber; you have 2"):
        eco.market_trade(stock, TIMBER, STONE)
    with pytest.raises(RuleViolation, match="different resource"):
        eco.market_trade(Stock(timber=4), TIMBER, TIMBER)


def test_wok_mkt_2_players_trade_freely() -> None:
    """WOK-MKT-2: a deal moves gold and resources between players; the giver must hold them."""
    state = world(["A", "B"], ["A-B"], {}, capitals={"Red": "A", "Blue": "B"},
                  stock=Stock(gold=3, stone=1))
    moved = eco.transfer(state, "Red", "Blue", Stock(gold=2, stone=1))
    assert (moved.stock("Red"), moved.stock("Blue")) == (Stock(gold=1), Stock(gold=5, stone=2))
    with pytest.raises(RuleViolation, match="WOK-MKT-2: Red lacks 1 gold"):
        eco.transfer(state, "Red", "Blue", Stock(gold=4))


def test_wok_mkt_3_payment_returns_to_the_market() -> None:
    """WOK-MKT-3: a purchase leaves the stockpile exactly by its price."""
    from campaign.systems.war_of_kings.rules import construction as con

    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold("Red")},
                  capitals={"Red": "A"}, stock=Stock(gold=4, timber=3, wheat=3, cattle=3,
                                                     stone=2))
    assert con.build(state, "Red", con.VILLAGE_ITEM, "B").state.stock("Red") == Stock(stone=2)
