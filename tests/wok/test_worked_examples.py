"""The worked examples of the War of Kings digest (§29, WOK-TV-*) as tests."""

from __future__ import annotations

from campaign.systems.war_of_kings.rules import achievements as ach
from campaign.systems.war_of_kings.rules import construction as con
from campaign.systems.war_of_kings.rules import economy as eco
from campaign.systems.war_of_kings.rules.board import (
    BLUE,
    CASTLE,
    CATTLE,
    CITY,
    FORTRESS,
    GREEN,
    MALADOR,
    RED,
    STONE,
    TIMBER,
    TOWN,
    VILLAGE,
    WALLS,
    WHEAT,
    YELLOW,
    Stock,
)
from tests.wok.factory import hold, terr, world


def tv1_world():
    """WOK-TV-1: the black kingdom's starting board (Figure 12)."""
    return world(
        [terr("A", RED, CATTLE, TIMBER), terr("C", GREEN, WHEAT), terr("B", YELLOW, TIMBER),
         terr("D", BLUE, STONE)],
        ["A-B", "A-C", "A-D"],
        {"A": hold("Black", TOWN), "C": hold("Black", VILLAGE), "B": hold("Black"),
         "D": hold("Black")},
        roads=["A-C"], capitals={"Black": "A"},
    )


def test_wok_tv_1_starting_ledger_gold_and_ap() -> None:
    """WOK-TV-1 (WOK-LEDGER-3, WOK-ECON-1, WOK-ECON-4, WOK-ACH-1): the completed starting
    ledger, 9 gold per round and 3 AP."""
    state = tv1_world()
    book = eco.ledger(state, "Black")
    assert book.as_dict() == {
        RED: {CATTLE: 3, TIMBER: 1},
        YELLOW: {TIMBER: 1},
        GREEN: {WHEAT: 2},
        BLUE: {STONE: 1},
    }
    assert book.gold == 9
    assert ach.score(state, "Black", ach.Holders()).total == 3


def test_wok_tv_3_triple_blue_roll_pays_three_times() -> None:
    """WOK-TV-3 (WOK-ECON-2): three blue dice pay the blue column three times."""
    assert eco.income(tv1_world(), "Black", [BLUE, BLUE, BLUE]) == Stock(stone=3)


def tv4_world():
    """WOK-TV-4: the white kingdom's road network of Figure 16 (reconstructed)."""
    return world(
        ["K", "P", "Q", "R", "S", terr("Y", YELLOW), "U"],
        ["K-P", "K-Q", "K-R", "K-S", "K-Y", "Y-U"],
        {"K": hold("White", TOWN), "P": hold("White", VILLAGE), "Q": hold("White", VILLAGE),
         "R": hold("White", TOWN), "S": hold(MALADOR, VILLAGE, cult="White"),
         "Y": hold(MALADOR), "U": hold("White", VILLAGE)},
        roads=["K-R", "K-Q", "K-Y", "Y-U", "K-S"], capitals={"White": "K"},
    )


def test_wok_tv_4_gold_through_the_road_network() -> None:
    """WOK-TV-4 (WOK-ECON-4, WOK-ECON-5, WOK-ECON-8): 15 gold from K, R and Q; P has no road, S
    is held by the Malador, U is cut off at Y."""
    state = tv4_world()
    assert eco.gold_generation(state, "White") == 15
    report = {line.territory: line for line in eco.gold_report(state, "White")}
    assert [t for t, line in report.items() if line.connected] == ["K", "Q", "R"]
    assert [(t, report[t].gold) for t in ("K", "Q", "R")] == [("K", 6), ("Q", 3), ("R", 6)]
    assert report["P"].gold == 0
    assert report["P"].reason == "No road chain joins P to the capital K (WOK-ECON-8)."
    assert report["S"].reason.startswith("S is controlled by Malador")
    assert report["U"].reason == ("Every road chain from U to the capital crosses territory "
                                  "White does not control: Y (held by Malador) (WOK-ECON-8).")
    assert report["U"].chain == ("U", "Y", "K")
    assert report["R"].chain == ("R", "K")


def test_wok_tv_8_upgrade_prices_are_charged_and_pieces_swapped() -> None:
    """WOK-TV-8 (WOK-SET-4, WOK-FORT-5): village to town costs 6 gold, 4 timber, 4 wheat, 4
    cattle, 1 stone; walls to fortress 4 gold, 2 timber, 4 stone."""
    start = Stock(gold=20, timber=10, wheat=10, cattle=10, stone=10)
    state = world(["A", "B", "C", "D"], ["A-B"],
                  {"A": hold("Blue", TOWN), "B": hold("Blue", VILLAGE, fort=WALLS)},
                  capitals={"Blue": "A"}, stock=start)
    town = con.build(state, "Blue", con.TOWN_ITEM, "B")
    assert town.cost == Stock(gold=6, timber=4, wheat=4, cattle=4, stone=1)
    assert town.state.lvl("B") == TOWN
    assert town.state.stock("Blue") == Stock(gold=14, timber=6, wheat=6, cattle=6, stone=9)
    fortress = con.build(town.state, "Blue", con.FORTRESS_ITEM, "B")
    assert fortress.cost == Stock(gold=4, timber=2, stone=4)
    assert fortress.state.fort("B") == FORTRESS
    assert fortress.state.stock("Blue") == Stock(gold=10, timber=4, wheat=6, cattle=6, stone=5)


def test_wok_tv_10_empire_with_a_malador_village_and_a_white_town() -> None:
    """WOK-TV-10 (WOK-ACH-3): a capital city plus a Malador village and a White town make an
    Empire worth 2 AP."""
    state = world(["A", "B", "C"], ["A-B", "A-C"],
                  {"A": hold("Red", CITY), "B": hold("Red", VILLAGE, cult=MALADOR),
                   "C": hold("Red", TOWN, cult="White")}, capitals={"Red": "A"})
    check = ach.empire_check(state, "Red")
    assert (check.capital_city, check.foreign, check.foreign_levels) == (True, 2, 3)
    assert ach.score(state, "Red", ach.Holders()).empire == 2


def test_wok_tv_11_heavily_fortified_with_walls_walls_castle() -> None:
    """WOK-TV-11 (WOK-ACH-4): walls, walls and a castle are 5 levels: 2 AP."""
    state = world(["A", "B", "C"], ["A-B", "A-C"],
                  {"A": hold("Blue", TOWN, fort=WALLS), "B": hold("Blue", VILLAGE, fort=WALLS),
                   "C": hold("Blue", VILLAGE, fort=CASTLE)}, capitals={"Blue": "A"})
    assert ach.fort_levels(state, "Blue") == 5
    assert ach.score(state, "Blue", ach.Holders()).fortified == 2
