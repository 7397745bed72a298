"""War of Kings construction by rule ID: prices, settlements, culture, roads, fortifications."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.systems.war_of_kings.rules import construction as con
from campaign.systems.war_of_kings.rules.board import (
    CASTLE,
    CITY,
    FORTRESS,
    MALADOR,
    TOWN,
    VILLAGE,
    WALLS,
    WINTER,
    WINTER_CENTER,
    RuleViolation,
    Stock,
)
from campaign.systems.war_of_kings.rules.options import Options, v06_options
from tests.wok.factory import RICH, hold, terr, world


def rich(holdings, roads=(), borders=("A-B", "B-C", "C-D", "A-D"), **extra):
    capitals = extra.pop("capitals", {"Red": "A", "Blue": "C"})
    return world(["A", "B", "C", "D"], borders, holdings, roads=roads, capitals=capitals,
                 stock=RICH, **extra)


# --- prices ---------------------------------------------------------------------------------

def test_wok_cost_1_table_4() -> None:
    """WOK-COST-1: Table 4 exactly, in gold/timber/wheat/cattle/stone."""
    table = {item: (p.gold, p.timber, p.wheat, p.cattle, p.stone)
             for item, p in con.PRICES.items()}
    assert table == {
        "road": (3, 2, 1, 0, 0), "village": (4, 3, 3, 3, 0), "town": (6, 4, 4, 4, 1),
        "city": (9, 4, 4, 5, 3), "walls": (4, 1, 0, 0, 2), "fortress": (4, 2, 0, 0, 4),
        "castle": (6, 2, 0, 0, 4), "army": (5, 0, 3, 3, 0), "provisions": (5, 0, 0, 0, 0),
        "resupply": (2, 0, 0, 0, 0),
    }


def test_wok_cost_2_cumulative_costs_and_rounds() -> None:
    """WOK-COST-2: town 10/7/7/7/1 in 2 rounds, city 19/11/11/12/4 in 3, fortress 8/3/0/0/6 in
    2, castle 14/5/0/0/10 in 3."""
    assert con.cumulative_cost(con.TOWN_ITEM) == (Stock(10, 7, 7, 7, 1), 2)
    assert con.cumulative_cost(con.CITY_ITEM) == (Stock(19, 11, 11, 12, 4), 3)
    assert con.cumulative_cost(con.FORTRESS_ITEM) == (Stock(8, 3, 0, 0, 6), 2)
    assert con.cumulative_cost(con.CASTLE_ITEM) == (Stock(14, 5, 0, 0, 10), 3)


def test_wok_cost_3_only_in_the_construction_step() -> None:
    """WOK-COST-3: building outside the construction step is refused."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")}, phase="movement")
    with pytest.raises(RuleViolation, match="WOK-COST-3"):
        con.build(state, "Red", con.VILLAGE_ITEM, "B")
    with pytest.raises(RuleViolation, match="WOK-COST-3"):
        con.build_road(state, "Red", "A", "B")


def test_wok_cost_1_unaffordable_names_the_shortfall() -> None:
    """WOK-COST-1: a village for 4 gold, 3 timber, 3 wheat, 3 cattle needs all of it."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")}).with_stock(
        "Red", Stock(gold=4, timber=1, wheat=3, cattle=3))
    with pytest.raises(RuleViolation, match="Red is short of 2 timber"):
        con.build(state, "Red", con.VILLAGE_ITEM, "B")


# --- settlements ----------------------------------------------------------------------------

def test_wok_set_1_settlement_levels() -> None:
    """WOK-SET-1: village 1, town 2, city 3; building steps through them."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")})
    state = con.build(state, "Red", con.VILLAGE_ITEM, "B").state
    assert (state.lvl("B"), state.holding("B").culture) == (VILLAGE, "Red")


def test_wok_set_2_one_settlement_per_territory() -> None:
    """WOK-SET-2: no second village where one stands."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)})
    with pytest.raises(RuleViolation, match="WOK-SET-2: B already holds a village"):
        con.build(state, "Red", con.VILLAGE_ITEM, "B")


def test_wok_set_3_only_a_village_on_empty_ground() -> None:
    """WOK-SET-3: a town cannot be placed on empty ground."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")})
    with pytest.raises(RuleViolation, match="WOK-SET-3"):
        con.build(state, "Red", con.TOWN_ITEM, "B")


def test_wok_set_4_upgrades_step_by_step() -> None:
    """WOK-SET-4: a village cannot jump to a city."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)})
    with pytest.raises(RuleViolation, match="WOK-SET-4: a city is built by upgrading a town"):
        con.build(state, "Red", con.CITY_ITEM, "B")


def test_wok_set_5_one_level_per_round() -> None:
    """WOK-SET-5, WOK-AMB-15: a town upgraded this round waits for the next round to become a
    city."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)})
    state = con.build(state, "Red", con.TOWN_ITEM, "B").state
    with pytest.raises(RuleViolation, match="WOK-SET-5"):
        con.build(state, "Red", con.CITY_ITEM, "B")
    later = replace(state, round=2)
    assert con.build(later, "Red", con.CITY_ITEM, "B").state.lvl("B") == CITY


def test_wok_set_6_no_build_and_upgrade_in_one_round() -> None:
    """WOK-SET-6: a village placed this round stays a village until the next."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")})
    state = con.build(state, "Red", con.VILLAGE_ITEM, "B").state
    with pytest.raises(RuleViolation, match="WOK-SET-5.*WOK-SET-6"):
        con.build(state, "Red", con.TOWN_ITEM, "B")


def test_wok_set_7_only_where_controlled_no_road_needed() -> None:
    """WOK-SET-7: a far, road-less controlled territory is fine; another's is not."""
    state = rich({"A": hold("Red", TOWN), "C": hold("Red"), "B": hold("Blue")})
    assert con.build(state, "Red", con.VILLAGE_ITEM, "C").state.lvl("C") == VILLAGE
    with pytest.raises(RuleViolation, match="WOK-SET-7: Red must control B"):
        con.build(state, "Red", con.VILLAGE_ITEM, "B")


def test_wok_set_8_only_own_culture_is_upgraded() -> None:
    """WOK-SET-8, WOK-CULT-7: a captured Blue town stays a town in Red hands."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", TOWN, cult="Blue")})
    with pytest.raises(RuleViolation, match="WOK-SET-8: Red may upgrade only"):
        con.build(state, "Red", con.CITY_ITEM, "B")


def test_wok_set_9_no_limit_on_builds_per_round_but_income_waits() -> None:
    """WOK-SET-9: three villages in one round are fine; they pay from the next round (the gold
    step has passed: see WOK-LEDGER-4)."""
    state = world(["A", "B", "C", "D"], ["A-B", "A-C", "A-D"],
                  {"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Red"), "D": hold("Red")},
                  capitals={"Red": "A"}, stock=RICH)
    for code in "BCD":
        state = con.build(state, "Red", con.VILLAGE_ITEM, code).state
    assert [state.lvl(c) for c in "BCD"] == [1, 1, 1]
    assert state.stock("Red") == RICH - Stock(12, 9, 9, 9, 0)


def test_wok_set_10_piece_cap_per_culture() -> None:
    """WOK-SET-10, WOK-COMP-2, WOK-AMB-17: with 2 city pieces per culture, a third Red city is
    refused, even if one of the two is held by another kingdom."""
    state = world(["A", "B", "C", "D"], ["A-B", "B-C", "C-D"],
                  {"A": hold("Red", CITY), "B": hold("Blue", CITY, cult="Red"),
                   "C": hold("Red", TOWN)}, capitals={"Red": "A", "Blue": "D"}, stock=RICH)
    with pytest.raises(RuleViolation, match="WOK-SET-10: all 2 city pieces of the Red culture"):
        con.build(state, "Red", con.CITY_ITEM, "C")
    roomy = Options(city_cap=3)
    assert con.build(state, "Red", con.CITY_ITEM, "C", roomy).state.lvl("C") == CITY
    unlimited = Options(city_cap=None)
    assert con.build(state, "Red", con.CITY_ITEM, "C", unlimited).state.lvl("C") == CITY


def test_wok_comp_2_default_caps_and_freed_pieces() -> None:
    """WOK-COMP-2, WOK-AMB-17: 5 villages, 4 towns, 2 cities per culture by default; upgrading a
    village frees its village piece."""
    assert (Options().village_cap, Options().town_cap, Options().city_cap) == (5, 4, 2)
    codes = ["A", "B", "C", "D", "E", "F"]
    state = world(codes, [], {c: hold("Red", VILLAGE) for c in codes[:5]} | {"F": hold("Red")},
                  capitals={"Red": "A"}, stock=RICH)
    with pytest.raises(RuleViolation, match="all 5 village pieces"):
        con.build(state, "Red", con.VILLAGE_ITEM, "F")
    state = con.build(state, "Red", con.TOWN_ITEM, "B").state
    assert con.pieces_in_use(state, "Red", VILLAGE) == 4
    assert con.build(state, "Red", con.VILLAGE_ITEM, "F").state.lvl("F") == VILLAGE


def test_wok_comp_1_and_comp_3_fortification_and_road_supply_warns_only() -> None:
    """WOK-COMP-1, WOK-COMP-3, WOK-AMB-17: the box holds 3 castles and 36 roads; a fourth castle
    is built anyway, with a warning."""
    codes = [f"T{i}" for i in range(5)]
    holdings = {c: hold("Red", VILLAGE, fort=CASTLE) for c in codes[:3]}
    holdings[codes[3]] = hold("Red", VILLAGE, fort=FORTRESS)
    state = world(codes, [], holdings, capitals={"Red": "T0"}, stock=RICH)
    done = con.build(state, "Red", con.CASTLE_ITEM, "T3")
    assert done.state.fort("T3") == CASTLE
    assert done.warnings == ("4 castle pieces are in play; the box holds 3 (WOK-AMB-17).",)
    assert (con.SUPPLY, con.ROAD_SUPPLY) == ({1: 12, 2: 6, 3: 3}, 36)


# --- culture --------------------------------------------------------------------------------

def test_wok_cult_1_culture_is_fixed_by_the_piece() -> None:
    """WOK-CULT-1: upgrading under another controller keeps the piece's culture (v0.6 option)."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE, cult="Blue")})
    done = con.build(state, "Red", con.TOWN_ITEM, "B", v06_options())
    assert (done.state.lvl("B"), done.state.holding("B").culture) == (TOWN, "Blue")


def test_wok_cult_2_a_new_village_takes_the_builders_culture() -> None:
    """WOK-CULT-2: after a raze, the new village is the builder's."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", cult="Blue")})
    assert con.build(state, "Red", con.VILLAGE_ITEM, "B").state.holding("B").culture == "Red"


def test_wok_cult_6_armies_only_in_own_culture_town_or_city() -> None:
    """WOK-CULT-6, WOK-ARMY-2: a captured Blue city raises nothing for Red."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", CITY, cult="Blue")})
    with pytest.raises(RuleViolation, match="WOK-CULT-6"):
        con.build(state, "Red", con.ARMY_ITEM, "B", army_id="r2")


def test_wok_cult_7_fortifications_ignore_culture() -> None:
    """WOK-CULT-7, WOK-FORT-8: Red walls a Blue town it holds."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", TOWN, cult="Blue")})
    assert con.build(state, "Red", con.WALLS_ITEM, "B").state.fort("B") == WALLS


# --- roads ----------------------------------------------------------------------------------

def test_wok_road_1_both_ends_controlled_and_adjacent() -> None:
    """WOK-ROAD-1: 3 gold, 2 timber, 1 wheat; both territories the builder's and bordering."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Red")},
                 borders=("A-B", "B-C"))
    done = con.build_road(state, "Red", "A", "B")
    assert done.state.has_road("B", "A") and done.cost == Stock(3, 2, 1, 0, 0)
    with pytest.raises(RuleViolation, match="WOK-ROAD-1: a road joins two adjacent"):
        con.build_road(state, "Red", "A", "C")
    with pytest.raises(RuleViolation, match="WOK-ROAD-1: Red must control D"):
        con.build_road(rich({"A": hold("Red", TOWN)}), "Red", "A", "D")


def test_wok_amb_18_one_road_per_border() -> None:
    """WOK-AMB-18: a second road on a border is refused."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")}, roads=["A-B"])
    with pytest.raises(RuleViolation, match="WOK-AMB-18"):
        con.build_road(state, "Red", "B", "A")


def test_wok_road_2_roads_have_no_owner() -> None:
    """WOK-ROAD-2: a road built by Red carries Blue's gold once Blue holds both ends."""
    from campaign.systems.war_of_kings.rules import economy as eco

    state = rich({"A": hold("Red", TOWN), "B": hold("Red")}, capitals={"Red": "C", "Blue": "A"})
    state = con.build_road(state, "Red", "A", "B").state
    state = state.with_holding("A", hold("Blue", TOWN)).with_holding(
        "B", hold("Blue", VILLAGE))
    assert eco.gold_generation(state, "Blue") == 9


def test_wok_road_3_and_road_5_roads_work_at_once_for_movement() -> None:
    """WOK-ROAD-3, WOK-ROAD-5: a road built this round already allows a two-step move."""
    from campaign.systems.war_of_kings.rules import armies
    from campaign.systems.war_of_kings.rules.board import Army

    state = rich({"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Red")},
                 roads=["B-C"], borders=("A-B", "B-C"),
                 armies=[Army("r1", "Red", "A")], capitals={"Red": "A"})
    assert "C" not in armies.destinations(state, "r1")
    state = con.build_road(state, "Red", "A", "B").state
    assert "C" in armies.destinations(state, "r1")


def test_wok_road_6_roads_carry_resupply() -> None:
    """WOK-ROAD-6: an army two roads from a town may be resupplied; without the road it may
    not."""
    from campaign.systems.war_of_kings.rules import armies
    from campaign.systems.war_of_kings.rules.board import Army

    army = Army("r1", "Red", "C", damage=2)
    state = rich({"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Red")},
                 roads=["A-B"], borders=("A-B", "B-C"), armies=[army], capitals={"Red": "A"})
    assert not armies.resupply_check(state, "r1").eligible
    state = state.with_road("B", "C")
    assert armies.resupply_check(state, "r1").eligible


# --- fortifications -------------------------------------------------------------------------

def test_wok_fort_1_levels_walls_fortress_castle() -> None:
    """WOK-FORT-1: walls 1, fortress 2, castle 3, over three rounds."""
    state = rich({"A": hold("Red", TOWN)})
    levels = []
    for rnd, item in enumerate((con.WALLS_ITEM, con.FORTRESS_ITEM, con.CASTLE_ITEM), start=1):
        state = con.build(replace(state, round=rnd), "Red", item, "A").state
        levels.append(state.fort("A"))
    assert levels == [WALLS, FORTRESS, CASTLE]


def test_wok_fort_2_needs_a_controlled_settlement() -> None:
    """WOK-FORT-2: no walls on empty ground or in another's territory."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Blue", TOWN)})
    with pytest.raises(RuleViolation, match="WOK-FORT-2: a fortification needs a settlement"):
        con.build(state, "Red", con.WALLS_ITEM, "B")
    with pytest.raises(RuleViolation, match="WOK-FORT-2: Red must control C"):
        con.build(state, "Red", con.WALLS_ITEM, "C")


def test_wok_fort_3_village_and_walls_in_one_round() -> None:
    """WOK-FORT-3: a new village may be walled in the same Construction Phase."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red")})
    state = con.build(state, "Red", con.VILLAGE_ITEM, "B").state
    state = con.build(state, "Red", con.WALLS_ITEM, "B").state
    assert (state.lvl("B"), state.fort("B")) == (VILLAGE, WALLS)


def test_wok_fort_4_walls_first() -> None:
    """WOK-FORT-4: an unfortified settlement cannot take a fortress."""
    state = rich({"A": hold("Red", TOWN)})
    with pytest.raises(RuleViolation, match="WOK-FORT-4"):
        con.build(state, "Red", con.FORTRESS_ITEM, "A")


def test_wok_fort_5_one_level_at_a_time() -> None:
    """WOK-FORT-5: walls cannot jump to a castle."""
    state = rich({"A": hold("Red", TOWN, fort=WALLS)})
    with pytest.raises(RuleViolation, match="WOK-FORT-5: a castle is an upgrade of fortress"):
        con.build(state, "Red", con.CASTLE_ITEM, "A")


def test_wok_fort_6_no_build_and_upgrade_in_one_round() -> None:
    """WOK-FORT-6: walls built this round are not upgraded this round."""
    state = rich({"A": hold("Red", TOWN)})
    state = con.build(state, "Red", con.WALLS_ITEM, "A").state
    with pytest.raises(RuleViolation, match="WOK-FORT-6"):
        con.build(state, "Red", con.FORTRESS_ITEM, "A")


def test_wok_fort_7_independent_of_settlement_level_one_per_territory() -> None:
    """WOK-FORT-7: a village may carry a castle; no second fortification."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE, fort=FORTRESS)})
    state = con.build(state, "Red", con.CASTLE_ITEM, "B").state
    assert (state.lvl("B"), state.fort("B")) == (VILLAGE, CASTLE)
    with pytest.raises(RuleViolation, match="WOK-FORT-7"):
        con.build(replace(state, round=2), "Red", con.WALLS_ITEM, "B")


def test_wok_fort_8_a_malador_village_fortress_to_castle() -> None:
    """WOK-FORT-8 (FAQ 9): a player raises a Malador-culture village's fortress to a castle."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE, cult=MALADOR, fort=FORTRESS)})
    assert con.build(state, "Red", con.CASTLE_ITEM, "B").state.fort("B") == CASTLE


def test_wok_fort_9_and_mal_11_malador_stop_at_a_fortress() -> None:
    """WOK-FORT-9, WOK-MAL-11: the Malador build walls and a fortress, never a castle."""
    state = rich({"B": hold(MALADOR, VILLAGE)})
    state = con.malador_build(state, "B", con.WALLS_ITEM)
    state = con.malador_build(replace(state, round=2), "B", con.FORTRESS_ITEM)
    assert state.fort("B") == FORTRESS
    with pytest.raises(RuleViolation, match="WOK-MAL-11"):
        con.malador_build(state, "B", con.CASTLE_ITEM)


def test_wok_mal_10_no_malador_towns_unless_v06() -> None:
    """WOK-MAL-10, WOK-V06-11: the Malador build villages; towns only under v0.6; never
    cities."""
    state = rich({"B": hold(MALADOR)})
    state = con.malador_build(state, "B", con.VILLAGE_ITEM)
    assert state.holding("B").culture == MALADOR
    with pytest.raises(RuleViolation, match="WOK-MAL-10"):
        con.malador_build(state, "B", con.TOWN_ITEM)
    assert con.malador_build(state, "B", con.TOWN_ITEM, v06_options()).lvl("B") == TOWN
    with pytest.raises(RuleViolation, match="WOK-MAL-10"):
        con.malador_build(state, "B", con.CITY_ITEM, v06_options())


def test_wok_board_3_winter_centre_cannot_be_built_on() -> None:
    """WOK-BOARD-3: no one controls the centre, so nothing is built there or roaded to it."""
    state = world(["A", terr("X", None, None, kind=WINTER_CENTER)], ["A-X"],
                  {"A": hold("Red", TOWN)}, capitals={"Red": "A"}, side=WINTER, stock=RICH)
    with pytest.raises(RuleViolation, match="can never be controlled"):
        con.build_road(state, "Red", "A", "X")


# --- raising armies -------------------------------------------------------------------------

def test_wok_army_2_town_one_city_two_per_round() -> None:
    """WOK-ARMY-2: a town raises 1 army and a city 2 per round, at 5 gold, 3 wheat, 3 cattle."""
    state = rich({"A": hold("Red", CITY), "B": hold("Red", TOWN)})
    first = con.build(state, "Red", con.ARMY_ITEM, "A", army_id="a1")
    assert first.cost == Stock(gold=5, wheat=3, cattle=3)
    state = con.build(first.state, "Red", con.ARMY_ITEM, "A", army_id="a2").state
    with pytest.raises(RuleViolation, match="a city raises at most 2 armies per round"):
        con.build(state, "Red", con.ARMY_ITEM, "A", army_id="a3")
    state = con.build(state, "Red", con.ARMY_ITEM, "B", army_id="b1").state
    with pytest.raises(RuleViolation, match="a town raises at most 1 army per round"):
        con.build(state, "Red", con.ARMY_ITEM, "B", army_id="b2")
    assert len(con.build(replace(state, round=2), "Red", con.ARMY_ITEM, "B",
                         army_id="b2").state.armies) == 4
    with pytest.raises(RuleViolation, match="only in a town or city"):
        con.build(rich({"A": hold("Red", VILLAGE)}), "Red", con.ARMY_ITEM, "A", army_id="v")


def test_wok_army_3_new_armies_start_unready() -> None:
    """WOK-ARMY-3: a raised army is placed unready, with its round."""
    state = rich({"A": hold("Red", TOWN)}, round=4)
    army = con.build(state, "Red", con.ARMY_ITEM, "A", army_id="a1").state.army("a1")
    assert (army.ready, army.raised_round, army.territory, army.damage) == (False, 4, "A", 0)


def test_wok_amb_16_raising_in_a_town_upgraded_this_round() -> None:
    """WOK-AMB-16: allowed by default; refused with ``raise_in_new_settlement=False``."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE)})
    state = con.build(state, "Red", con.TOWN_ITEM, "B").state
    assert con.build(state, "Red", con.ARMY_ITEM, "B", army_id="n").state.army("n").territory \
        == "B"
    with pytest.raises(RuleViolation, match="WOK-AMB-16"):
        con.build(state, "Red", con.ARMY_ITEM, "B", Options(raise_in_new_settlement=False),
                  army_id="n")


def test_available_builds_lists_prices_and_refusals() -> None:
    """WOK-COST-1, WOK-SET-8, WOK-ROAD-1: the build menu gives each next step with its price
    and, when refused, the rule."""
    state = rich({"A": hold("Red", TOWN), "B": hold("Red", VILLAGE, cult="Blue")},
                 borders=("A-B",))
    menu = {(o.item, o.where): o for o in con.available_builds(state, "Red")}
    assert sorted(menu) == [("army", "A"), ("city", "A"), ("road", "A–B"), ("town", "B"),
                            ("walls", "A"), ("walls", "B")]
    assert menu[("town", "B")].allowed is False
    assert menu[("town", "B")].reason.startswith("WOK-SET-8")
    assert menu[("city", "A")].cost == Stock(9, 4, 4, 5, 3)
    assert menu[("road", "A–B")].allowed is True
