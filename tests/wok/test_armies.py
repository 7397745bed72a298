"""War of Kings armies by rule ID: support, resupply, movement, exploration, the Event Die."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from campaign.systems.war_of_kings.rules import armies as arm
from campaign.systems.war_of_kings.rules.board import (
    BLUE,
    CATTLE,
    CHECK_SUPPORT,
    CITY,
    EXPLORATION,
    FORTRESS,
    GREEN,
    MALADOR,
    MOVEMENT,
    RED,
    STONE,
    SUPPLY,
    TIMBER,
    TOWN,
    VILLAGE,
    WALLS,
    WHEAT,
    WINTER,
    WINTER_CENTER,
    YELLOW,
    Army,
    RuleViolation,
    Stock,
)
from campaign.systems.war_of_kings.rules.options import Options, v06_options
from tests.wok.factory import hold, terr, world

# --- support --------------------------------------------------------------------------------


def tv7_world(**extra):
    """WOK-TV-7: blue capital town, village V, armies in the capital, V, X and Y."""
    return world(["K", "V", "X", "Y"], ["K-V", "K-X", "K-Y"],
                 {"K": hold("Blue", TOWN), "V": hold("Blue", VILLAGE), "X": hold("Blue"),
                  "Y": hold("Blue")}, capitals={"Blue": "K"},
                 armies=[Army("army1", "Blue", "K"), Army("army3", "Blue", "V"),
                         Army("army2", "Blue", "X"), Army("army4", "Blue", "Y")], **extra)


def test_wok_tv_7_support_slots_and_one_unsupported() -> None:
    """WOK-TV-7, WOK-SUPPORT-5: local slots capital 1 and V 1, one global slot; 3 supported,
    1 unsupported, to be chosen from army2 and army4."""
    check = arm.support(tv7_world(), "Blue")
    assert (check.local_slots, check.global_slots) == ({"K": 1, "V": 1}, 1)
    assert (check.supported, check.unsupported, check.provisions_due) == (3, 1, 5)
    assert check.choosable == ("army2", "army4")


def test_wok_support_4_pay_provisions_or_remove() -> None:
    """WOK-SUPPORT-4, WOK-AMB-25: keep army2 for 5 gold, or remove army4; 4 gold is not enough
    to provision."""
    state = tv7_world(phase=CHECK_SUPPORT).with_stock("Blue", Stock(gold=7))
    paid = arm.settle_support(state, "Blue", provision=["army2"])
    assert (paid.stock("Blue").gold, len(paid.armies)) == (2, 4)
    dropped = arm.settle_support(state, "Blue", remove=["army4"])
    assert (dropped.stock("Blue").gold, [a.id for a in dropped.armies]) == (
        7, ["army1", "army3", "army2"])
    with pytest.raises(RuleViolation, match="WOK-AMB-25: provisions for 1 armies cost 5 gold"):
        arm.settle_support(state.with_stock("Blue", Stock(gold=4)), "Blue", provision=["army2"])
    with pytest.raises(RuleViolation, match="exactly that many"):
        arm.settle_support(state, "Blue")


def test_wok_support_1_checked_only_in_its_step() -> None:
    """WOK-SUPPORT-1, WOK-V06-15: support is settled once, in Check for Support."""
    with pytest.raises(RuleViolation, match="WOK-SUPPORT-1"):
        arm.settle_support(tv7_world(phase=SUPPLY), "Blue", remove=["army4"])


def test_wok_support_2_village_local_town_one_city_two_any_culture() -> None:
    """WOK-SUPPORT-2: a village covers only an army in its own territory; a captured Blue city
    covers two anywhere for Red."""
    state = world(["A", "B", "C", "D"], [],
                  {"A": hold("Red"), "B": hold("Red", VILLAGE), "C": hold("Red", CITY, cult="Blue"),
                   "D": hold("Red")}, capitals={"Red": "A"},
                  armies=[Army(f"r{i}", "Red", "D") for i in range(3)])
    check = arm.support(state, "Red")
    assert (check.global_slots, check.supported, check.unsupported) == (2, 2, 1)


def test_wok_support_3_and_tv_12_capital_bonus() -> None:
    """WOK-SUPPORT-3, WOK-TV-12, WOK-CAP-3: the starting capital town supports one army anywhere
    and one more in the capital."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold("Red")},
                  capitals={"Red": "A"},
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "B")])
    assert arm.support(state, "Red").supported == 2
    away = state.with_army(Army("r1", "Red", "B"))
    assert (arm.support(away, "Red").supported, arm.support(away, "Red").unsupported) == (1, 1)


def test_wok_amb_6_and_amb_32_capital_bonus_only_own_held_capital() -> None:
    """WOK-AMB-6, WOK-AMB-32: the bonus counts with no settlement in the capital, not for a
    conquered enemy capital, and not while the own capital is lost."""
    state = world(["A", "B", "C"], ["A-B", "B-C"],
                  {"A": hold("Red"), "C": hold("Red", TOWN, cult="Blue")},
                  capitals={"Red": "A", "Blue": "C"},
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "C"), Army("r3", "Red", "C")])
    check = arm.support(state, "Red")
    assert (check.local_slots, check.supported, check.unsupported) == ({"A": 1}, 2, 1)
    lost = state.with_holding("A", hold("Blue"))
    assert arm.support(lost, "Red").local_slots == {}
    assert arm.support(lost, "Red").supported == 1


def test_wok_support_6_and_mal_2_malador_need_no_support() -> None:
    """WOK-SUPPORT-6, WOK-MAL-2: any number of Marauders, no settlement, all supported."""
    state = world(["A"], [], {"A": hold(MALADOR)}, capitals={},
                  armies=[Army(f"m{i}", MALADOR, "A") for i in range(4)])
    assert (arm.support(state, MALADOR).supported, arm.support(state, MALADOR).unsupported) == \
        (4, 0)


def test_wok_army_4_raise_beyond_support_until_the_next_check() -> None:
    """WOK-ARMY-4: raising past support is allowed; the next Check for Support counts it."""
    from campaign.systems.war_of_kings.rules import construction as con
    from tests.wok.factory import RICH

    state = world(["A"], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"}, stock=RICH,
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "A")])
    assert arm.support(state, "Red").unsupported == 0
    state = con.build(state, "Red", con.ARMY_ITEM, "A", army_id="r3").state
    assert arm.support(state, "Red").unsupported == 1


# --- resupply -------------------------------------------------------------------------------

def tv5_world(**extra):
    """WOK-TV-5: the yellow kingdom of Figure 15 (reconstructed)."""
    return world(["K", terr("M", RED), "T2", "X1", "X3", "X4", "X5"],
                 ["K-X1", "X1-X4", "K-M", "M-X3", "K-X5", "K-T2"],
                 {"K": hold("Yellow", TOWN), "M": hold(MALADOR),
                  "T2": hold("Yellow", TOWN, cult="Blue"), "X1": hold("Yellow"),
                  "X3": hold("Yellow"), "X4": hold("Yellow"), "X5": hold("Yellow")},
                 roads=["K-X1", "X1-X4", "K-M", "M-X3", "K-X5"], capitals={"Yellow": "K"},
                 armies=[Army("1", "Yellow", "X1", 2), Army("2", "Yellow", "T2", 1),
                         Army("3", "Yellow", "X3", 2), Army("4", "Yellow", "X4", 3 - 1),
                         Army("5", "Yellow", "X5", 1, ready=False)], **extra)


def test_wok_tv_5_resupply_eligibility() -> None:
    """WOK-TV-5, WOK-RESUPPLY-1, WOK-CULT-8: armies 1, 2 and 4 qualify (2 in a Blue-culture
    town); 3's chain runs through Malador-held M; 5 is unready. 2 gold each."""
    state = tv5_world()
    checks = {a: arm.resupply_check(state, a) for a in "12345"}
    assert [a for a, c in checks.items() if c.eligible] == ["1", "2", "4"]
    assert checks["2"].source == "T2" and checks["1"].source == "K"
    assert checks["3"].reason.startswith("No town or city of Yellow is reached from X3")
    assert checks["5"].reason.startswith("5 is unready")
    done = arm.resupply(replace(state, phase=SUPPLY).with_stock("Yellow", Stock(gold=7)),
                        ["1", "2", "4"])
    assert [(a.id, a.damage) for a in done.armies] == [("1", 0), ("2", 0), ("3", 2), ("4", 0),
                                                       ("5", 1)]
    assert done.stock("Yellow").gold == 1


def test_wok_resupply_2_stays_ready_and_only_in_supply() -> None:
    """WOK-RESUPPLY-2, WOK-ARMY-5: a resupplied army stays ready; outside the Supply Phase it is
    refused."""
    state = replace(tv5_world(), phase=SUPPLY).with_stock("Yellow", Stock(gold=2))
    assert arm.resupply(state, ["1"]).army("1").ready is True
    with pytest.raises(RuleViolation, match="WOK-RESUPPLY-1"):
        arm.resupply(replace(state, phase=MOVEMENT), ["1"])
    with pytest.raises(RuleViolation, match="WOK-AMB-25: resupply costs 2 gold"):
        arm.resupply(state.with_stock("Yellow", Stock(gold=1)), ["1"])


def test_wok_resupply_3_provisions_do_not_repair() -> None:
    """WOK-RESUPPLY-3: provisions keep an army but leave its damage."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red", VILLAGE), "B": hold("Red")},
                  capitals={"Red": "A"}, phase=CHECK_SUPPORT, stock=Stock(gold=5),
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "B", damage=2)])
    kept = arm.settle_support(state, "Red", provision=["r2"])
    assert kept.army("r2").damage == 2


def test_wok_v06_16_resupply_by_any_road_link() -> None:
    """WOK-V06-16: under v0.6 army 3 of TV-5 reaches the capital town through Malador-held M."""
    check = arm.resupply_check(tv5_world(), "3", v06_options())
    assert (check.eligible, check.source) == (True, "K")


def test_wok_amb_22_winter_centre_links_resupply() -> None:
    """WOK-AMB-22, WOK-BOARD-3: an army beyond the centre is resupplied from the capital town."""
    state = world(["A", "B", terr("X", None, None, kind=WINTER_CENTER)], ["A-X", "B-X"],
                  {"A": hold("Red", TOWN), "B": hold("Red")}, capitals={"Red": "A"},
                  side=WINTER, armies=[Army("r1", "Red", "B", damage=1)])
    assert arm.resupply_check(state, "r1").source == "A"


# --- movement -------------------------------------------------------------------------------

def line_world(ctrl_b: str | None = "Red", roads=("A-B", "B-C", "C-D"), **extra):
    return world(["A", "B", "C", "D", "E"], ["A-B", "B-C", "C-D", "A-E"],
                 {"A": hold("Red", TOWN), "B": hold(ctrl_b) if ctrl_b else hold(None),
                  "C": hold("Red"), "D": hold("Red")},
                 roads=roads, capitals={"Red": "A"}, armies=[Army("r1", "Red", "A")],
                 phase=MOVEMENT, active="Red", **extra)


def test_wok_move_1_ready_armies_move_once_and_become_unready() -> None:
    """WOK-MOVE-1, WOK-ARMY-5, WOK-V06-4: a moved army is unready and cannot move again this
    turn."""
    state, _ = arm.move(line_world(), "r1", "B")
    assert state.army("r1").ready is False
    assert arm.destinations(state, "r1") == {}
    with pytest.raises(RuleViolation, match="WOK-MOVE-1: r1 is unready"):
        arm.move(state, "r1", "C")


def test_wok_move_2_one_step_or_two_by_road() -> None:
    """WOK-MOVE-2, WOK-ROAD-5: by road through own B, A reaches B and C, and E by plain
    adjacency; not D."""
    assert sorted(arm.destinations(line_world(), "r1")) == ["B", "C", "E"]
    no_roads = line_world(roads=())
    assert sorted(arm.destinations(no_roads, "r1")) == ["B", "E"]


def test_wok_move_3_and_v06_17_stop_on_entering_foreign_ground() -> None:
    """WOK-MOVE-3, WOK-V06-17: the middle of a two-step move must be the mover's own."""
    assert sorted(arm.destinations(line_world(ctrl_b="Blue"), "r1")) == ["B", "E"]
    assert sorted(arm.destinations(line_world(ctrl_b=None), "r1")) == ["B", "E"]


def test_wok_move_4_winter_centre_passed_never_ended_in() -> None:
    """WOK-MOVE-4, WOK-AMB-23: X -> centre -> Y is one two-step road move; the centre is never
    a destination."""
    state = world(["A", "B", terr("X", None, None, kind=WINTER_CENTER)], ["A-X", "B-X"],
                  {"A": hold("Red", TOWN)}, capitals={"Red": "A"}, side=WINTER,
                  armies=[Army("r1", "Red", "A")])
    assert arm.destinations(state, "r1") == {"B": ("A", "X", "B")}


def test_wok_tv_6_stop_in_malador_j_never_reach_i() -> None:
    """WOK-TV-6: army 2 in O with roads O-J and J-I, J Malador: it may end in J, not in I."""
    state = world(["O", "J", "I"], ["O-J", "J-I"], {"O": hold("Purple"), "J": hold(MALADOR)},
                  roads=["O-J", "J-I"], capitals={"Purple": "O"},
                  armies=[Army("2", "Purple", "O")], phase=MOVEMENT, active="Purple")
    assert sorted(arm.destinations(state, "2")) == ["J"]
    after, outcome = arm.move(state, "2", "J")
    assert outcome.outcome == "conquered" and after.ctrl("J") == "Purple"


def test_wok_move_5_arrival_outcomes() -> None:
    """WOK-MOVE-5, WOK-CONQ-1: own - nothing; unexplored - explore; empty enemy - conquered at
    once; defended or settled - battle; own-culture settlement alone - liberated."""
    state = world(["A", "B", "C", "D", "E", "F"],
                  ["A-B", "A-C", "A-D", "A-E", "A-F"],
                  {"A": hold("Red", TOWN), "B": hold("Red"), "D": hold("Blue"),
                   "E": hold("Blue", VILLAGE), "F": hold("Blue", VILLAGE, cult="Red")},
                  capitals={"Red": "A", "Blue": "D"},
                  armies=[Army(f"r{c}", "Red", "A") for c in "BCDEF"],
                  phase=MOVEMENT, active="Red")
    outcomes = {}
    for code in "BCDEF":
        state, result = arm.move(state, f"r{code}", code)
        outcomes[code] = result.outcome
    assert outcomes == {"B": "none", "C": "explore", "D": "conquered", "E": "battle",
                        "F": "liberate"}
    assert (state.ctrl("D"), state.ctrl("E"), state.ctrl("F")) == ("Red", "Blue", "Blue")


def test_wok_amb_31_conquered_at_once_counts_for_later_moves() -> None:
    """WOK-AMB-31: after r1 takes the empty Blue territory B, r2 may pass through it by road."""
    state = world(["A", "B", "C"], ["A-B", "B-C"],
                  {"A": hold("Red", TOWN), "B": hold("Blue"), "C": hold("Red")},
                  roads=["A-B", "B-C"], capitals={"Red": "A"},
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "A")],
                  phase=MOVEMENT, active="Red")
    assert "C" not in arm.destinations(state, "r2")
    state, _ = arm.move(state, "r1", "B")
    assert "C" in arm.destinations(state, "r2")


def test_wok_move_6_armies_move_independently_and_converge() -> None:
    """WOK-MOVE-6: two armies from different territories join one offer of battle."""
    state = world(["A", "B", "C"], ["A-C", "B-C"],
                  {"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Blue", VILLAGE)},
                  capitals={"Red": "A", "Blue": "C"},
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "B")],
                  phase=MOVEMENT, active="Red")
    state, first = arm.move(state, "r1", "C")
    state, second = arm.move(state, "r2", "C")
    assert (first.outcome, second.outcome) == ("battle", "battle")
    assert [a.came_from for a in state.armies_in("C", "Red")] == ["A", "B"]


def test_wok_move_7_and_mal_13_marauders_never_enter_unexplored() -> None:
    """WOK-MOVE-7, WOK-MAL-13: a Marauder army reaches Red's territory, never the unexplored
    one."""
    state = world(["M", "U", "R"], ["M-U", "M-R"], {"M": hold(MALADOR), "R": hold("Red")},
                  capitals={"Red": "R"}, armies=[Army("m1", MALADOR, "M")])
    assert sorted(arm.destinations(state, "m1")) == ["R"]


def test_wok_move_8_and_tv_13_forced_march() -> None:
    """WOK-MOVE-8, WOK-TV-13: along roads through two own territories a third may be entered,
    never a fourth; an unready army may forced-march one territory (WOK-V06-20)."""
    state = line_world(roads=("A-B", "B-C"))
    state = world(["A", "B", "C", "D", "F"], ["A-B", "B-C", "C-D", "D-F"],
                  {"A": hold("Red", TOWN), "B": hold("Red"), "C": hold("Red"), "D": hold("Red")},
                  roads=["A-B", "B-C", "C-D", "D-F"], capitals={"Red": "A"},
                  armies=[Army("r1", "Red", "A")], phase=MOVEMENT, active="Red")
    assert sorted(arm.destinations(state, "r1")) == ["B", "C"]
    assert sorted(arm.destinations(state, "r1", forced_march=True)) == ["B", "C", "D"]
    tired = state.with_army(replace(state.army("r1"), ready=False))
    assert sorted(arm.destinations(tired, "r1", forced_march=True)) == ["B"]
    moved, _ = arm.move(state, "r1", "D", forced_march=True)
    assert moved.army("r1").territory == "D"


def test_wok_army_1_armies_share_territories() -> None:
    """WOK-ARMY-1: any number of armies in one territory, each a token of its own."""
    state = world(["A"], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"},
                  armies=[Army("r1", "Red", "A"), Army("r2", "Red", "A"), Army("b1", "Blue", "A")])
    assert [a.id for a in state.armies_in("A", "Red")] == ["r1", "r2"]


def test_wok_army_6_at_most_three_counters() -> None:
    """WOK-ARMY-6: 0 to 3 damage counters."""
    with pytest.raises(ValueError, match="WOK-ARMY-6"):
        Army("r1", "Red", "A", damage=4)


# --- exploration ----------------------------------------------------------------------------

def explore_world(**extra):
    return world(["A", terr("U", BLUE, STONE, TIMBER), "N1", "N2"], ["A-U", "U-N1", "U-N2"],
                 {"A": hold("Red", TOWN)}, capitals={"Red": "A"},
                 armies=[Army("r1", "Red", "U", ready=False), Army("r2", "Red", "U", damage=2,
                                                                     ready=False)],
                 phase=EXPLORATION, stock=Stock(), **extra)


def test_wok_expl_2_table_9() -> None:
    """WOK-EXPL-2: every colour's three printed rows; yellow rows 1 and 2 the same."""
    assert [arm.exploration_result(c, r) for c in (RED, BLUE, GREEN, YELLOW) for r in (1, 2, 3)] \
        == [arm.MALADOR_WALLED_VILLAGE, arm.AMBUSH, arm.ONE_MARAUDER,
            arm.ANCIENT_ROAD, arm.FIND_3_2, arm.PLAGUE,
            arm.MALADOR_VILLAGE, arm.TWO_ANCIENT_ROADS, arm.FIND_2,
            arm.FORTIFIED_MALADOR_VILLAGE, arm.FORTIFIED_MALADOR_VILLAGE, arm.HORRIBLE_PLAGUE]
    with pytest.raises(RuleViolation, match="WOK-EXPL-2"):
        arm.exploration_result(RED, 4)


def test_wok_amb_7_simulated_odds() -> None:
    """WOK-AMB-7: each printed row a third; yellow's fortified village two thirds."""
    assert arm.result_odds(YELLOW) == {arm.FORTIFIED_MALADOR_VILLAGE: Fraction(2, 3),
                                       arm.HORRIBLE_PLAGUE: Fraction(1, 3)}


def test_wok_expl_1_one_roll_per_territory_by_its_explorers() -> None:
    """WOK-EXPL-1: only armies in the territory explore it, and only in the Exploration Phase."""
    state = explore_world()
    with pytest.raises(RuleViolation, match="WOK-EXPL-1"):
        arm.explore(replace(state, phase=MOVEMENT), "Red", "U", arm.FIND_2, ["r1"])
    with pytest.raises(RuleViolation, match="WOK-EXPL-1: A is not an unexplored"):
        arm.explore(state, "Red", "A", arm.FIND_2, ["r1"])
    done = arm.explore(state, "Red", "U", arm.FIND_2, ["r1", "r2"])
    assert (done.outcome, done.found, done.state.ctrl("U")) == ("conquered", Stock(stone=2),
                                                                "Red")


def test_wok_expl_2_finds_and_roads() -> None:
    """WOK-EXPL-2, WOK-EXPL-3: blue R2 finds 3 primary and 2 secondary; green R2 lays two roads
    to uncontrolled neighbours, which then work like any road."""
    state = explore_world()
    found = arm.explore(state, "Red", "U", arm.FIND_3_2, ["r1"])
    assert found.state.stock("Red") == Stock(stone=3, timber=2)
    roads = arm.explore(state, "Red", "U", arm.TWO_ANCIENT_ROADS, ["r1"], road_to=["N1", "N2"])
    assert roads.state.has_road("U", "N1") and roads.state.has_road("U", "N2")
    with pytest.raises(RuleViolation, match="choose 1 different neighbour"):
        arm.explore(state, "Red", "U", arm.ANCIENT_ROAD, ["r1"], road_to=[])
    with pytest.raises(RuleViolation, match="WOK-EXPL-3: A does not border U|WOK-EXPL-3"):
        arm.explore(state, "Red", "U", arm.ANCIENT_ROAD, ["r1"], road_to=["N9"])


def test_wok_expl_2_plague_hits_each_army_alone() -> None:
    """WOK-EXPL-2: plague, one blue die per army: r2 (2 damage) dies, r1 survives with 1, the
    territory is conquered; if all die it stays unexplored."""
    state = explore_world()
    done = arm.explore(state, "Red", "U", arm.PLAGUE, ["r1", "r2"],
                       plague_hits={"r1": 1, "r2": 1})
    assert ([(a.id, a.damage) for a in done.state.armies], done.outcome) == (
        [("r1", 1)], "conquered")
    with pytest.raises(RuleViolation, match="each army rolls 1 blue die"):
        arm.explore(state, "Red", "U", arm.PLAGUE, ["r1", "r2"], plague_hits={"r2": 2})
    grim = arm.explore(state.with_army(Army("r1", "Red", "U", damage=1, ready=False)), "Red",
                       "U", arm.HORRIBLE_PLAGUE, ["r1", "r2"], plague_hits={"r1": 2, "r2": 1})
    assert (grim.outcome, grim.state.armies, grim.state.ctrl("U")) == ("unexplored", (), None)


def test_wok_v06_3_plague_damage_spread_freely() -> None:
    """WOK-V06-3: under v0.6, 2 hits from two dice may all land on one army."""
    state = explore_world()
    done = arm.explore(state, "Red", "U", arm.PLAGUE, ["r1", "r2"], plague_hits={"r1": 2},
                       options=v06_options())
    assert [(a.id, a.damage) for a in done.state.armies] == [("r1", 2), ("r2", 2)]


def test_wok_v06_2_discovery_vein_of_gold() -> None:
    """WOK-V06-2: the v0.6 vein of gold adds 3 gold; an empty find just conquers; both refused
    under v1.01."""
    state = explore_world()
    vein = arm.explore(state, "Red", "U", arm.GOLD_VEIN, ["r1"], options=v06_options())
    assert (vein.state.stock("Red"), vein.state.ctrl("U")) == (Stock(gold=3), "Red")
    assert arm.explore(state, "Red", "U", arm.EMPTY_LAND, ["r1"],
                       options=v06_options()).state.ctrl("U") == "Red"
    with pytest.raises(RuleViolation, match="WOK-V06-2"):
        arm.explore(state, "Red", "U", arm.GOLD_VEIN, ["r1"])


def test_wok_amb_8_and_expl_5_malador_results_place_pieces_and_marker() -> None:
    """WOK-AMB-8, WOK-EXPL-5, WOK-MAL-14: red R1 places a walled Malador village, two unready
    Marauders and an orange marker; yellow a fortress and one; green only a village."""
    state = explore_world()
    red = arm.explore(state, "Red", "U", arm.MALADOR_WALLED_VILLAGE, ["r1"],
                      marauder_ids=["m1", "m2"])
    holding = red.state.holding("U")
    assert (holding.controller, holding.level, holding.culture, holding.fort) == (
        MALADOR, VILLAGE, MALADOR, WALLS)
    assert [(a.id, a.ready) for a in red.state.armies_in("U", MALADOR)] == [("m1", False),
                                                                           ("m2", False)]
    assert red.outcome == "battle_or_withdraw"
    yellow = arm.explore(state, "Red", "U", arm.FORTIFIED_MALADOR_VILLAGE, ["r1"],
                         marauder_ids=["m1"])
    assert yellow.state.fort("U") == FORTRESS
    green = arm.explore(state, "Red", "U", arm.MALADOR_VILLAGE, ["r1"])
    assert (green.state.ctrl("U"), green.state.armies_in("U", MALADOR)) == (MALADOR, ())


def test_wok_amb_9_ambush_places_one_marauder_to_attack() -> None:
    """WOK-AMB-9: red R2 places one Marauder army and asks for the ambush battle at once."""
    done = arm.explore(explore_world(), "Red", "U", arm.AMBUSH, ["r1"], marauder_ids=["m1"])
    assert (done.outcome, [a.id for a in done.state.armies_in("U", MALADOR)]) == (
        arm.AMBUSH, ["m1"])


# --- the Event Die and cards ----------------------------------------------------------------

def test_wok_event_1_and_event_2_who_draws_an_event_card() -> None:
    """WOK-EVENT-1, WOK-EVENT-2: flag - any territory of the colour; V, T, C - a village, town or
    city there or larger; axe - never (a Marauder card instead)."""
    state = world([terr("A", RED, CATTLE), terr("B", GREEN, WHEAT), terr("C", BLUE)], [],
                  {"A": hold("Red", TOWN), "B": hold("Red")}, capitals={"Red": "A"})
    draws = {(f, c): arm.draws_event_card(state, "Red", f, c)
             for f in ("flag", "V", "T", "C") for c in (RED, GREEN, BLUE)}
    assert [k for k, v in draws.items() if v] == [("flag", RED), ("flag", GREEN), ("V", RED),
                                                  ("T", RED)]
    assert arm.draws_event_card(state, "Red", "axe", RED) is False
    assert arm.draws_event_card(state, MALADOR, "flag", RED) is False


def test_wok_event_3_empty_deck_rebuilt_from_discards() -> None:
    """WOK-EVENT-3: drawing from an empty deck uses the shuffled discards."""
    card, deck, discards = arm.draw_card((), ("a", "b"), reshuffled=("b", "a"))
    assert (card, deck, discards) == ("b", ("a",), ())
    with pytest.raises(RuleViolation, match="WOK-EVENT-3"):
        arm.draw_card((), ("a", "b"))


def test_wok_event_4_and_amb_26_trading_event_cards() -> None:
    """WOK-EVENT-4, WOK-AMB-26, WOK-V06-14, WOK-MAL-4: cards may be traded under v1.01, not under
    v0.6; only counts are tracked."""
    assert arm.trade_event_card({"Red": 2}, "Red", "Blue") == {"Red": 1, "Blue": 1}
    with pytest.raises(RuleViolation, match="WOK-V06-14"):
        arm.trade_event_card({"Red": 2}, "Red", "Blue", Options(event_card_trading=False))
    with pytest.raises(RuleViolation, match="WOK-EVENT-4: Blue holds no Event Card"):
        arm.trade_event_card({"Red": 2}, "Blue", "Red")


def test_wok_event_5_resource_card_units_spread_over_purchases() -> None:
    """WOK-EVENT-5 (FAQ 1): a 3-unit card towards a price asking 1 gives 1 and keeps 2; the 2
    then pay 2 of a price asking 4, the earlier card first, a later 3-unit card the other 2 (1
    kept); a price asking none takes nothing. Negative figures are refused."""
    assert arm.spread_card_units(1, [3]) == (1, (2,))
    assert arm.spread_card_units(4, [2, 3]) == (4, (0, 1))
    assert arm.spread_card_units(0, [3]) == (0, (3,))
    assert arm.spread_card_units(2, []) == (0, ())
    with pytest.raises(RuleViolation, match="WOK-EVENT-5"):
        arm.spread_card_units(-1, [3])


def test_wok_v06_21_preview_card_titles_as_ideas() -> None:
    """WOK-V06-21, WOK-VAR-3: 23 Event and 7 Marauder titles from the preview."""
    assert (len(arm.V06_EVENT_CARDS), len(arm.V06_MARAUDER_CARDS)) == (23, 7)
    assert arm.V06_MARAUDER_CARDS[0] == "Foment Rebellion!"


def test_wok_econ_3_event_die_colour_is_not_income() -> None:
    """WOK-ECON-3: the Event Die's Resource Die decides a card draw and adds no resources."""
    state = world([terr("A", RED, TIMBER)], [], {"A": hold("Red", CITY)},
                  capitals={"Red": "A"}, stock=Stock())
    assert arm.draws_event_card(state, "Red", "C", RED) is True
    assert state.stock("Red") == Stock()


def test_resources_are_named() -> None:
    """WOK-BOARD-4: a territory's secondary resource pays on its colour (here stone on red)."""
    from campaign.systems.war_of_kings.rules import economy as eco

    state = world([terr("A", RED, TIMBER, STONE)], [], {"A": hold("Red", TOWN)},
                  capitals={"Red": "A"})
    assert eco.ledger(state, "Red").column(RED) == Stock(timber=3, stone=1)
