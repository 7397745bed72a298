"""The build phase and the costs of the game (MS-BUILD-1..9, MS-RES, MS-AMB-13, MS-AMB-17c,
MS-AMB-18, MS-AMB-22), with TV-MS-5."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import economy
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.state import (
    BUILD,
    GOLD,
    GOODS,
    Cost,
    GameState,
    city_at,
    controller,
    get_player,
    port_at,
    stack,
    with_stack,
)
from tests.ms.factory import game, player


def build_state(goods: int = 20, gold: int = 20, unrest: int = 2) -> GameState:
    """Kim (north) with a 4-garrison by road, an uncontrolled 2-temple and an ungoverned 3-mine;
    Lee (south) holds a 1-market next to Kim's provincial 5-mine on Lee's continent."""
    kim = player("Kim", SUNS, "N", king=3, placed={2: "S-FR"}, goods=goods, gold=gold,
                 unrest=unrest)
    lee = player("Lee", MOONS, "S")
    return game(
        [kim, lee],
        {"N-FL": (ARMS, 4), "N-NL": (MOONS, 2), "N-FM": (CROWNS, 3), "S-FR": (CROWNS, 5),
         "S-FM": (SUNS, 1), "S-NR": (ARMS, 2)},
        roads=[("Kim", "N-CAP", "N-FL"), ("Kim", "N-CAP", "N-FM"), ("Lee", "S-CAP", "S-FM")],
        phase=BUILD,
    )


def test_tv_ms_5_costs() -> None:
    """TV-MS-5 (MS-BUILD-2, -5, -7, -9, MS-LEAD-2, MS-AMB-17c): road to a 4-garrison 4 + 4, to a
    2-temple 2 + 2; a 4-pier port 4 + 4; king 1 to 4 costs 3 + 3, then 4 to 3 costs 1 + 1;
    exploring 1 + 1; 2 goods buy 1 gold."""
    assert economy.road_cost(4) == Cost(goods=4, gold=4)
    assert economy.road_cost(2) == Cost(goods=2, gold=2)
    assert economy.pier_cost(4) == Cost(goods=4, gold=4)
    assert economy.king_change_cost(1, 4) == Cost(goods=3, gold=3)
    assert economy.king_change_cost(4, 3) == Cost(goods=1, gold=1)
    assert economy.explore_cost() == Cost(goods=1, gold=1)
    assert economy.exchange_cost(GOODS, 1) == (Cost(goods=2), Cost(gold=1))


def test_tv_ms_5_paid_from_the_reserve() -> None:
    """TV-MS-5, MS-RES-1: a road to the 2-temple (2 + 2) and a 4-pier port at the 4-garrison
    (4 + 4) leave 14 goods and 14 gold of 20 each."""
    state = economy.build_road(build_state(), "Kim", "N-CAP", "N-NL")
    state = economy.build_port(state, "Kim", "N-FL", 4)
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold) == (14, 14)
    assert port_at(state, "N-FL") is not None and port_at(state, "N-FL").piers == 4


def test_ms_build_1_any_number_of_actions_in_any_order() -> None:
    """MS-BUILD-1: explore, road, exchange, explore again and a port in one turn: 1 + 2 + 0 + 1
    + 1 goods and 1 + 2 - 1 + 1 + 1 gold paid, 2 goods traded, from 20 and 20."""
    state = economy.explore(build_state(), "Kim", SUNS, "N-NR")
    state = economy.build_road(state, "Kim", "N-CAP", "N-NL")
    state = economy.exchange(state, "Kim", GOODS, 1)
    state = economy.explore(state, "Kim", SUNS)
    state = economy.build_port(state, "Kim", "N-FM", 1)
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold) == (20 - 1 - 2 - 2 - 1 - 1, 20 - 1 - 2 + 1 - 1 - 1)


def test_ms_build_2_4_explore_the_top_tile_onto_an_empty_space_or_the_bottom() -> None:
    """MS-BUILD-2: the suns stack is 2, 3, 4, 5 (the 1 is on the board); the 2-market goes to
    N-NR for 1 + 1; next the 3 goes to the bottom. MS-BUILD-4: the new city is uncontrolled."""
    state = build_state()
    assert stack(state, SUNS) == (2, 3, 4, 5)
    state = economy.explore(state, "Kim", SUNS, "N-NR")
    assert city_at(state, "N-NR") is not None and city_at(state, "N-NR").label == "2-market"
    assert controller(state, "N-NR") is None
    assert stack(state, SUNS) == (3, 4, 5)
    state = economy.explore(state, "Kim", SUNS)
    assert stack(state, SUNS) == (4, 5, 3)
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold, kim.unrest) == (18, 18, 2)


def test_ms_build_3_only_the_own_continent_and_no_spare_replacement() -> None:
    """MS-BUILD-3: no exploring onto another continent or a Capital, and while a space is empty
    no city is replaced."""
    with pytest.raises(RuleViolation, match="MS-BUILD-3"):
        economy.explore(build_state(), "Kim", SUNS, "S-NL")
    with pytest.raises(RuleViolation, match="MS-BUILD-3"):
        economy.explore(build_state(), "Kim", SUNS, "N-CAP")
    with pytest.raises(RuleViolation, match="MS-BUILD-3"):
        economy.explore(build_state(), "Kim", SUNS, "N-NL")
    assert economy.explore_places(build_state(), "Kim") == ("N-NR", "N-FR")


def test_ms_build_3_amb_13_replacing_an_ungoverned_city_on_a_full_continent() -> None:
    """MS-BUILD-3, MS-AMB-13, MS-RES-2: with all five spaces full, the top moon (the 1-temple)
    replaces the road-held 3-mine: the mine goes to the bottom of the crowns stack, its road and
    port go to the bank (nothing is refunded) and unrest stays 2. A governed city cannot be
    replaced."""
    kim = player("Kim", SUNS, "N", king=3, placed={0: "N-NR"}, goods=9, gold=9, unrest=2)
    lee = player("Lee", MOONS, "S")
    state = game(
        [kim, lee],
        {"N-FL": (ARMS, 4), "N-NL": (MOONS, 2), "N-FM": (CROWNS, 3), "N-NR": (SUNS, 5),
         "N-FR": (CROWNS, 1)},
        roads=[("Kim", "N-CAP", "N-FM"), ("Kim", "N-FM", "N-FR")],
        ports=[("Kim", "N-FM", 2)],
        phase=BUILD,
    )
    assert economy.explore_places(state, "Kim") == ("N-NL", "N-FL", "N-FM", "N-FR")
    with pytest.raises(RuleViolation, match="MS-AMB-13"):
        economy.explore(state, "Kim", MOONS, "N-NR")
    state = economy.explore(state, "Kim", MOONS, "N-FM")
    assert city_at(state, "N-FM") is not None and city_at(state, "N-FM").label == "1-temple"
    assert stack(state, CROWNS) == (2, 4, 5, 3)
    assert stack(state, MOONS) == (3, 4, 5)
    assert (state.roads, state.ports) == ((), ())
    assert controller(state, "N-FR") is None
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold, kim.unrest) == (8, 8, 2)


def test_ms_amb_22_an_empty_stack_cannot_be_explored() -> None:
    """MS-AMB-22: the empty arms stack is refused; another stack still works."""
    state = with_stack(build_state(), ARMS, ())
    with pytest.raises(RuleViolation, match="MS-AMB-22"):
        economy.explore(state, "Kim", ARMS)
    assert stack(economy.explore(state, "Kim", MOONS), MOONS) == (3, 4, 5, 1)


def test_ms_build_5_road_legality() -> None:
    """MS-BUILD-5, MS-BOARD-5: roads start at Kim's Capital or a city Kim controls and end at an
    adjacent city no opponent controls; the list of legal roads from here."""
    state = build_state()
    assert economy.road_targets(state, "Kim") == (
        ("N-CAP", "N-NL"), ("N-FL", "N-FM"), ("N-FL", "N-NL"), ("N-FM", "N-NL"),
        ("S-FR", "S-NR"),
    )
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(state, "Kim", "N-NL", "N-FM")
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(state, "Kim", "S-FR", "S-FM")
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(state, "Kim", "S-CAP", "S-NR")
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(state, "Kim", "N-FL", "N-FR")
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(state, "Kim", "N-CAP", "N-FL")
    with pytest.raises(RuleViolation, match="MS-BUILD-5"):
        economy.build_road(build_state(goods=1), "Kim", "N-CAP", "N-NL")


def test_ms_build_6_unrest_falls_only_for_a_city_nobody_controlled() -> None:
    """MS-BUILD-6, MS-UNREST-2 (a): a road to the uncontrolled 2-temple lowers unrest 2 to 1; a
    second road into the already-held 3-mine changes nothing; a road to the provincial 2-garrison
    lowers it to 0, and another new city leaves it at 0 (MS-UNREST-1)."""
    state = economy.build_road(build_state(), "Kim", "N-CAP", "N-NL")
    assert get_player(state, "Kim").unrest == 1
    state = economy.build_road(state, "Kim", "N-NL", "N-FM")
    assert get_player(state, "Kim").unrest == 1
    state = economy.build_road(state, "Kim", "S-FR", "S-NR")
    assert get_player(state, "Kim").unrest == 0
    state = economy.explore(state, "Kim", SUNS, "N-NR")
    state = economy.build_road(state, "Kim", "N-CAP", "N-NR")
    assert get_player(state, "Kim").unrest == 0


def test_ms_build_7_amb_18_ports_coastal_controlled_at_most_five_piers() -> None:
    """MS-BUILD-7, MS-CITY-4, MS-AMB-18: a 2-pier port grows by 3 to 5; a sixth pier, an inland
    city and an uncontrolled city are refused; a second port in the same turn is fine."""
    state = economy.build_port(build_state(), "Kim", "N-FL", 2)
    state = economy.build_port(state, "Kim", "N-FL", 3)
    assert port_at(state, "N-FL") is not None and port_at(state, "N-FL").piers == 5
    with pytest.raises(RuleViolation, match="MS-AMB-18"):
        economy.build_port(state, "Kim", "N-FL", 1)
    with pytest.raises(RuleViolation, match="MS-CITY-4"):
        economy.build_port(state, "Kim", "N-NL", 1)
    with pytest.raises(RuleViolation, match="MS-BUILD-7"):
        economy.build_port(state, "Kim", "S-FM", 1)
    state = economy.build_port(state, "Kim", "S-FR", 1)
    assert [(p.space, p.piers) for p in state.ports] == [("N-FL", 5), ("S-FR", 1)]
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold) == (14, 14)


def test_ms_build_9_exchange_two_for_one_either_way() -> None:
    """MS-BUILD-9: 4 gold buy 2 goods; 3 goods cannot buy 2 gold."""
    state = economy.exchange(build_state(goods=3, gold=4), "Kim", GOLD, 2)
    kim = get_player(state, "Kim")
    assert (kim.goods, kim.gold) == (5, 0)
    with pytest.raises(RuleViolation, match="MS-BUILD-9"):
        economy.exchange(build_state(goods=3, gold=4), "Kim", GOODS, 2)
    with pytest.raises(RuleViolation, match="MS-RES-1"):
        economy.exchange(build_state(), "Kim", "silver", 1)


def test_ms_res_4_hires_cost_one_and_one_each() -> None:
    """MS-RES-4, MS-ATK-7: three hires cost 3 goods and 3 gold."""
    assert economy.hire_cost(3) == Cost(goods=3, gold=3)


def test_ms_build_actions_only_on_the_players_build_turn() -> None:
    """MS-ROUND-2: Lee cannot build during Kim's turn."""
    with pytest.raises(RuleViolation, match="MS-ROUND-2"):
        economy.explore(build_state(), "Lee", SUNS, "S-NL")
