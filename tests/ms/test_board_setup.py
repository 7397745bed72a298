"""Equipment, the board, cities, definitions, leaders and setup (MS-EQUIP, MS-BOARD, MS-CITY,
MS-TERM, MS-LEADER, MS-SETUP), with exact expectations."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import board, phases
from campaign.systems.middle_sea.rules.board import (
    ARMS,
    CROWNS,
    MOONS,
    SUNS,
    City,
    RuleViolation,
)
from campaign.systems.middle_sea.rules.state import (
    CONTROL,
    IN_CAPITAL,
    IN_RESERVE,
    controlled_cities,
    controller,
    home_cities,
    provincial_cities,
    route_component,
    stack,
)
from tests.ms.factory import game, player

SEATS = [("Rita", SUNS), ("Steve", MOONS), ("Phillip", CROWNS), ("Andrew", ARMS)]


def test_ms_equip_1_four_suits_six_values_null_zero_ace_one() -> None:
    """MS-EQUIP-1: four suits; leaders 0-5 (null 0, ace 1); cities 1-5."""
    assert board.SUITS == ("suns", "moons", "crowns", "arms")
    assert board.LEADER_VALUES == (0, 1, 2, 3, 4, 5)
    assert board.CITY_VALUES == (1, 2, 3, 4, 5)
    with pytest.raises(RuleViolation, match="MS-EQUIP-1"):
        City("stars", 3)


def test_ms_equip_2_3_resources_are_goods_and_gold_from_the_bank() -> None:
    """MS-EQUIP-2, MS-EQUIP-3, MS-RES-1: goods and gold are the two resources a reserve holds."""
    state = phases.new_game(SEATS[:2])
    rita = state.players[0]
    assert (rita.goods, rita.gold) == (4, 4)


def test_ms_equip_4_two_to_four_players() -> None:
    """MS-EQUIP-4, MS-BOARD-3: one player or five are refused."""
    with pytest.raises(RuleViolation, match="MS-EQUIP-4"):
        phases.new_game(SEATS[:1])
    with pytest.raises(RuleViolation, match="MS-EQUIP-4"):
        phases.new_game(SEATS + [("Eve", SUNS)])


def test_ms_board_1_2_continent_capital_near_middle_far_row_coastal() -> None:
    """MS-BOARD-1, MS-BOARD-2, MS-CITY-4: five spaces round the Capital; the far row is coastal,
    the Capital and the near row are not."""
    assert board.city_spaces("N") == ("N-NL", "N-NR", "N-FL", "N-FM", "N-FR")
    assert board.capital_space("S") == "S-CAP"
    assert [board.is_coastal(s) for s in ("N-FL", "N-FM", "N-FR", "N-NL", "N-NR", "N-CAP")] == [
        True, True, True, False, False, False,
    ]


def test_ms_board_3_continents_by_player_count() -> None:
    """MS-BOARD-3: 4 players use all; 3 leave one out; 2 sit opposite."""
    assert board.continents_for(4) == ("N", "E", "S", "W")
    assert board.continents_for(3) == ("N", "E", "S")
    assert board.continents_for(3, left_out="N") == ("E", "S", "W")
    assert board.continents_for(2) == ("N", "S")
    assert board.continents_for(2, pair=("E", "W")) == ("E", "W")
    with pytest.raises(RuleViolation, match="MS-BOARD-3"):
        board.continents_for(2, pair=("N", "E"))
    with pytest.raises(RuleViolation, match="MS-BOARD-3"):
        phases.new_game(SEATS[:2], continents=("N", "W"))


def test_ms_board_4_adjacency_table() -> None:
    """MS-BOARD-4: the adjacency of every position, diagonals included."""
    assert board.neighbours("N-CAP") == ("N-NL", "N-NR", "N-FL", "N-FM", "N-FR")
    assert board.neighbours("N-NL") == ("N-CAP", "N-FL", "N-FM")
    assert board.neighbours("N-NR") == ("N-CAP", "N-FM", "N-FR")
    assert board.neighbours("N-FL") == ("N-NL", "N-CAP", "N-FM")
    assert board.neighbours("N-FM") == ("N-NL", "N-CAP", "N-NR", "N-FL", "N-FR")
    assert board.neighbours("N-FR") == ("N-CAP", "N-NR", "N-FM")
    assert board.adjacent("N-NL", "N-FR") is False


def test_ms_board_5_6_no_adjacency_between_continents_and_stacks_are_off_board() -> None:
    """MS-BOARD-5: spaces on different continents are never adjacent; MS-BOARD-6: stacks are no
    spaces at all."""
    assert board.adjacent("N-FM", "S-FM") is False
    with pytest.raises(RuleViolation, match="MS-BOARD-2"):
        board.split_space("stack-suns")


def test_ms_city_1_2_one_city_per_suit_and_value_with_kinds() -> None:
    """MS-CITY-1, MS-CITY-2: 20 cities; arms garrison, suns market, moons temple, crowns mine."""
    assert [City(s, 3).label for s in board.SUITS] == [
        "3-market", "3-temple", "3-mine", "3-garrison",
    ]
    with pytest.raises(RuleViolation, match="MS-CITY-1"):
        City(SUNS, 0)
    rita = player("Rita", SUNS, "N")
    steve = player("Steve", MOONS, "S")
    with pytest.raises(RuleViolation, match="MS-CITY-1"):
        game([rita, steve], {"N-FL": (SUNS, 3), "S-FL": (SUNS, 3)})


def test_ms_city_3_value_is_defense_attack_production_and_road_cost() -> None:
    """MS-CITY-3: one value serves as road cost, defense and production level."""
    from campaign.systems.middle_sea.rules.conflict import defense_total
    from campaign.systems.middle_sea.rules.economy import road_cost

    assert road_cost(City(CROWNS, 4).value).goods == 4
    assert defense_total(City(CROWNS, 4).value) == 4


def test_ms_city_5_capital_defends_with_10_and_holds_no_city() -> None:
    """MS-CITY-5: the Capital is no city and defends with 10."""
    assert board.CAPITAL_DEFENSE == 10
    rita = player("Rita", SUNS, "N")
    steve = player("Steve", MOONS, "S")
    with pytest.raises(RuleViolation, match="MS-CITY-5"):
        game([rita, steve], {"N-CAP": (SUNS, 3)})


def test_ms_term_1_to_5_control_home_provincial_kingdom_and_routes() -> None:
    """MS-TERM-1: a leader governs; MS-TERM-2: a road, port or leader controls, otherwise nobody;
    MS-TERM-3: home and provincial; MS-TERM-4: the kingdom; MS-TERM-5: roads and ports chain,
    all ports of a kingdom joined by sea."""
    rita = player("Rita", SUNS, "N", placed={2: "S-FL"})
    steve = player("Steve", MOONS, "S")
    state = game(
        [rita, steve],
        {"N-NL": (SUNS, 3), "N-FM": (CROWNS, 2), "N-FR": (ARMS, 1), "S-FL": (MOONS, 4),
         "S-NL": (ARMS, 2), "S-FM": (CROWNS, 5)},
        roads=[("Rita", "N-CAP", "N-NL"), ("Rita", "S-FL", "S-NL"), ("Steve", "S-CAP", "S-FM")],
        ports=[("Rita", "N-FM", 2)],
    )
    assert controller(state, "N-NL") == "Rita"
    assert controller(state, "N-FM") == "Rita"
    assert controller(state, "N-FR") is None
    assert controller(state, "S-FL") == "Rita"
    assert controlled_cities(state, "Rita") == ("N-FM", "N-NL", "S-FL", "S-NL")
    assert home_cities(state, "Rita") == ("N-FM", "N-NL")
    assert provincial_cities(state, "Rita") == ("S-FL", "S-NL")
    assert route_component(state, "Rita", "N-CAP") == frozenset({"N-CAP", "N-NL"})
    assert route_component(state, "Rita", "S-FL") == frozenset({"S-FL", "S-NL"})


def test_ms_term_6_reserve_holds_leaders_die_and_resources() -> None:
    """MS-TERM-6, MS-SETUP-3: leaders start in the reserve (the king apart)."""
    state = phases.new_game(SEATS[:2])
    places = [leader.place for leader in state.players[0].leaders]
    assert places == [IN_RESERVE, IN_CAPITAL, IN_RESERVE, IN_RESERVE, IN_RESERVE, IN_RESERVE]


def test_ms_leader_1_to_5_six_leaders_one_king_one_per_city() -> None:
    """MS-LEADER-1: six leaders; MS-LEADER-2: value side active; MS-LEADER-3: one king, active;
    MS-LEADER-4: reserve leaders enter active; MS-LEADER-5: one leader per city."""
    rita = player("Rita", SUNS, "N", king=1, placed={0: "N-FL"})
    assert [leader.value for leader in rita.leaders] == [0, 1, 2, 3, 4, 5]
    assert rita.king.value == 1 and rita.king.active is True
    assert all(leader.active for leader in rita.leaders if leader.place == IN_RESERVE)
    steve = player("Steve", MOONS, "S", placed={3: "N-FL"})
    with pytest.raises(RuleViolation, match="MS-LEADER-5"):
        game([rita, steve], {"N-FL": (SUNS, 3)})
    sleepy = player("Rita", SUNS, "N")
    sleepy = sleepy.with_leader(sleepy.king.__class__(1, IN_CAPITAL, False))
    with pytest.raises(RuleViolation, match="MS-LEADER-3"):
        game([sleepy, player("Steve", MOONS, "S")], {})


def test_ms_setup_1_to_7_new_game() -> None:
    """MS-SETUP-1: one suit each; MS-SETUP-2: continents start empty; MS-SETUP-4: stacks ace on
    top; MS-SETUP-5: the 1-leader is king; MS-SETUP-6: 4 goods and 4 gold; MS-SETUP-7: unrest
    0."""
    state = phases.new_game(SEATS[:3])
    assert [(p.name, p.suit, p.continent) for p in state.players] == [
        ("Rita", "suns", "N"), ("Steve", "moons", "E"), ("Phillip", "crowns", "S"),
    ]
    assert state.sites == ()
    assert stack(state, ARMS) == (1, 2, 3, 4, 5)
    assert [(p.king.value, p.goods, p.gold, p.unrest) for p in state.players] == [
        (1, 4, 4, 0), (1, 4, 4, 0), (1, 4, 4, 0),
    ]
    with pytest.raises(RuleViolation, match="MS-SETUP-1"):
        phases.new_game([("Rita", SUNS), ("Steve", SUNS)])


def test_ms_setup_8_highest_roll_first_then_to_the_left_with_rerolls() -> None:
    """MS-SETUP-8: Steve and Andrew tie on 4 and reroll; Andrew wins with 3 against 1; the order
    then runs to Andrew's left: Rita, Steve, Phillip."""
    state = phases.new_game(SEATS)
    rolls = [{"Rita": 2, "Steve": 4, "Phillip": 0, "Andrew": 4}, {"Steve": 1, "Andrew": 3}]
    state = phases.settle_first_dominance(state, rolls)
    assert state.order == ("Andrew", "Rita", "Steve", "Phillip")
    assert (state.phase, state.round, state.turn) == (CONTROL, 1, 0)
    with pytest.raises(RuleViolation, match="MS-SETUP-8"):
        phases.settle_first_dominance(phases.new_game(SEATS), rolls[:1])
    with pytest.raises(RuleViolation, match="MS-SETUP-8"):
        phases.settle_first_dominance(phases.new_game(SEATS), [rolls[0], {"Rita": 5}])
    with pytest.raises(RuleViolation, match="MS-EQUIP-1"):
        phases.settle_first_dominance(phases.new_game(SEATS[:2]), [{"Rita": 6, "Steve": 1}])


def test_ms_city_4_board_check_refuses_inland_ports_and_roads_over_distance() -> None:
    """MS-CITY-4: no port at an inland city; MS-BUILD-5, MS-BOARD-4: no road between places that
    are not adjacent; MS-BUILD-7: a port has 1 to 5 piers."""
    kim = player("Kim", SUNS, "N")
    lee = player("Lee", MOONS, "S")
    with pytest.raises(RuleViolation, match="MS-CITY-4"):
        game([kim, lee], {"N-NL": (SUNS, 3)}, roads=[("Kim", "N-CAP", "N-NL")],
             ports=[("Kim", "N-NL", 1)])
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        game([kim, lee], {"N-NL": (SUNS, 3), "N-FR": (SUNS, 4)},
             roads=[("Kim", "N-NL", "N-FR")])
    with pytest.raises(RuleViolation, match="MS-BUILD-7"):
        game([kim, lee], {"N-FL": (SUNS, 3)}, ports=[("Kim", "N-FL", 6)])
