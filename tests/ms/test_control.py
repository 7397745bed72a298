"""The control phase, rebellions and unrest (MS-CONTROL, MS-REBEL, MS-UNREST, MS-AMB-4,
MS-AMB-5, MS-AMB-12, MS-AMB-20, MS-AMB-21), with TV-MS-1."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import control, phases
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.state import (
    CONTROL,
    DOMINANCE,
    IN_RESERVE,
    GameState,
    MSOptions,
    controlled_cities,
    controller,
    get_player,
)
from tests.ms.factory import game, player


def tv1_state(options: MSOptions | None = None) -> GameState:
    """TV-MS-1: king 4, unrest 2, four cities (a 2-market with the 1-leader, a 5-garrison with
    the active 2-leader, a 2-temple with the active 5-leader, a 3-mine by road), 2 goods and 1
    gold."""
    hal = player("Hal", SUNS, "N", king=4, placed={1: "N-FM", 2: "N-FL", 5: "N-NL"}, unrest=2,
                 goods=2, gold=1)
    ivy = player("Ivy", MOONS, "S")
    return game(
        [hal, ivy],
        {"N-FM": (SUNS, 2), "N-FL": (ARMS, 5), "N-NL": (MOONS, 2), "N-NR": (CROWNS, 3)},
        roads=[("Hal", "N-CAP", "N-FM"), ("Hal", "N-CAP", "N-NR")],
        phase=CONTROL,
    )


def test_tv_ms_1_control_phase_pay_one_rebel_one_and_put_it_down() -> None:
    """TV-MS-1 (MS-CONTROL-1..4, MS-REBEL-1..3): control total 4 - 2 = 2, excess 2; paying 1
    goods + 1 gold leaves 1 rebel; the 2-market rebels and its 1-leader turns inactive; the
    5-leader in the 2-temple puts it down 7 > 2 and turns inactive; 4 cities kept, unrest 2."""
    state = tv1_state()
    report = control.control_report(state, "Hal")
    assert (report.cities, report.control_total, report.excess, report.affordable) == (
        4, 2, 2, 1,
    )
    state = control.settle_control(state, "Hal", payments=1, rebels=["N-FM"])
    hal = get_player(state, "Hal")
    assert (hal.goods, hal.gold) == (1, 0)
    assert hal.leader(1).active is False
    assert state.rebellion is not None and state.rebellion.cities == ("N-FM",)
    state, result = control.put_down(state, "Hal", "N-FM", leader_value=5)
    assert (result.attack, result.defense, result.success) == (7, 2, True)
    hal = get_player(state, "Hal")
    assert hal.leader(5).active is False
    assert hal.leader(1).active is False
    assert state.rebellion is None
    assert len(controlled_cities(state, "Hal")) == 4
    assert hal.unrest == 2


def test_tv_ms_1_had_he_let_it_go() -> None:
    """TV-MS-1 (MS-REBEL-4, MS-UNREST-3): the market is lost, its road removed, the 1-leader
    back in the reserve and unrest 3; the city stays on the board, uncontrolled."""
    state = control.settle_control(tv1_state(), "Hal", payments=1, rebels=["N-FM"])
    state = control.end_rebellion(state, "Hal")
    hal = get_player(state, "Hal")
    assert hal.unrest == 3
    assert hal.leader(1).place == IN_RESERVE
    assert controller(state, "N-FM") is None
    assert [(r.a, r.b) for r in state.roads] == [("N-CAP", "N-NR")]
    assert controlled_cities(state, "Hal") == ("N-FL", "N-NL", "N-NR")
    assert state.sites[1].space == "N-FM"


def test_ms_control_1_2_total_is_king_minus_unrest_capital_never_counts() -> None:
    """MS-CONTROL-1, MS-CONTROL-2: 4 - 2 = 2; the Capital is not among the 4 cities."""
    assert control.control_total(4, 2) == 2
    assert control.control_report(tv1_state(), "Hal").cities == 4


def test_ms_control_3_payments_limited_to_excess_and_affordable() -> None:
    """MS-CONTROL-3: at most 2 payments (the excess), and Hal's 1 gold pays for only one."""
    with pytest.raises(RuleViolation, match="MS-CONTROL-3"):
        control.rebels_required(4, 4, 2, 3)
    with pytest.raises(RuleViolation, match="MS-CONTROL-3"):
        control.settle_control(tv1_state(), "Hal", payments=2, rebels=[])


def test_ms_control_4_exactly_the_excess_rebels() -> None:
    """MS-CONTROL-4: with nothing paid 2 cities rebel; naming 1 or a city not his is refused."""
    assert control.rebels_required(4, 4, 2, 0) == 2
    with pytest.raises(RuleViolation, match="MS-CONTROL-4"):
        control.settle_control(tv1_state(), "Hal", payments=0, rebels=["N-FM"])
    with pytest.raises(RuleViolation, match="MS-CONTROL-4"):
        control.settle_control(tv1_state(), "Hal", payments=1, rebels=["S-FM"])
    state = control.settle_control(tv1_state(), "Hal", payments=0, rebels=["N-FM", "N-NR"])
    assert state.rebellion is not None and state.rebellion.cities == ("N-FM", "N-NR")


def test_ms_amb_4_control_total_below_zero_counts_as_zero() -> None:
    """MS-AMB-4: king 1 with unrest 2 gives -1, treated as 0: 3 cities, 3 rebels at most, 1
    payment leaves 2."""
    assert control.control_total(1, 2) == -1
    assert control.excess_cities(3, 1, 2) == 3
    assert control.rebels_required(3, 1, 2, 0) == 3
    assert control.rebels_required(3, 1, 2, 1) == 2
    assert control.rebels_required(1, 4, 0, 0) == 0


def test_ms_rebel_2_3_put_down_needs_a_higher_total_and_the_right_leader() -> None:
    """MS-REBEL-2: the 2-leader in the 5-garrison makes 7 against the 3-mine; the leader in the
    rebelling market cannot help, nor can a city that is not rebelling be attacked; a used
    leader cannot try again."""
    state = control.settle_control(tv1_state(), "Hal", payments=0, rebels=["N-FM", "N-NR"])
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Hal", "N-NR", leader_value=1)
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Hal", "S-FM", leader_value=2)
    assert control.put_down_total(1, 2) == 3
    state, first = control.put_down(state, "Hal", "N-NR", leader_value=2)
    assert (first.attack, first.defense, first.success) == (7, 3, True)
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Hal", "N-FM", leader_value=2)


def test_ms_rebel_3_a_failed_attempt_inactivates_and_changes_nothing_else() -> None:
    """MS-REBEL-3, MS-ATK-8: the 1-leader in a 1-temple makes 2 against a 2-market: a tie fails;
    the leader turns inactive and the market still rebels."""
    kim = player("Kim", SUNS, "N", king=3, placed={1: "N-NL", 2: "N-FM"}, unrest=3)
    lee = player("Lee", MOONS, "S")
    state = game([kim, lee], {"N-NL": (MOONS, 1), "N-FM": (SUNS, 2)}, phase=CONTROL)
    state = control.settle_control(state, "Kim", payments=0, rebels=["N-FM", "N-NL"])
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Kim", "N-FM", leader_value=1)
    kim = player("Kim", SUNS, "N", king=3, placed={1: "N-NL", 2: "N-FM"}, unrest=2)
    state = game([kim, lee], {"N-NL": (MOONS, 1), "N-FM": (SUNS, 2)}, phase=CONTROL)
    state = control.settle_control(state, "Kim", payments=0, rebels=["N-FM"])
    state, tried = control.put_down(state, "Kim", "N-FM", leader_value=1)
    assert (tried.attack, tried.defense, tried.success) == (2, 2, False)
    assert get_player(state, "Kim").leader(1).active is False
    assert state.rebellion is not None and state.rebellion.cities == ("N-FM",)
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Kim", "N-FM", leader_value=1)


def test_ms_rebel_4_several_cities_lost_raise_unrest_once_and_amb_12_cascade() -> None:
    """MS-REBEL-4, MS-UNREST-3: two cities lost, unrest +1 once. MS-AMB-12: a city reached only
    by a road from a lost city becomes uncontrolled too, without any more unrest."""
    kim = player("Kim", SUNS, "N", king=2, unrest=1)
    lee = player("Lee", MOONS, "S")
    state = game(
        [kim, lee],
        {"N-FM": (SUNS, 2), "N-NL": (CROWNS, 1), "N-FL": (ARMS, 4), "N-FR": (MOONS, 3)},
        roads=[("Kim", "N-CAP", "N-FM"), ("Kim", "N-FM", "N-NL"), ("Kim", "N-CAP", "N-FR"),
               ("Kim", "N-CAP", "N-FL")],
        ports=[("Kim", "N-FL", 2)],
        phase=CONTROL,
    )
    assert control.control_report(state, "Kim").excess == 3
    state = control.settle_control(state, "Kim", payments=0, rebels=["N-FM", "N-FR", "N-FL"])
    state = control.end_rebellion(state, "Kim")
    assert get_player(state, "Kim").unrest == 2
    assert controlled_cities(state, "Kim") == ()
    assert state.ports == ()
    assert state.roads == ()


def test_ms_amb_5_no_hires_by_default_and_with_the_option() -> None:
    """MS-AMB-5: hires are refused by default; with ``rebellion_hires`` each adds 1 for 1 goods +
    1 gold: the 2-leader in the 5-garrison with 1 hire makes 8."""
    state = control.settle_control(tv1_state(), "Hal", payments=0, rebels=["N-FM", "N-NR"])
    with pytest.raises(RuleViolation, match="MS-AMB-5"):
        control.put_down(state, "Hal", "N-NR", leader_value=2, hires=1)
    state = control.settle_control(tv1_state(MSOptions(rebellion_hires=True)), "Hal", 0,
                                   ["N-FM", "N-NR"])
    state = GameState(**{**state.__dict__, "options": MSOptions(rebellion_hires=True)})
    state, result = control.put_down(state, "Hal", "N-NR", leader_value=2, hires=1)
    assert (result.attack, result.success) == (8, True)
    hal = get_player(state, "Hal")
    assert (hal.goods, hal.gold) == (1, 0)


def test_ms_amb_20_several_attempts_with_different_leaders() -> None:
    """MS-AMB-20: a failed try by one leader, then another leader (no reach limit) succeeds."""
    kim = player("Kim", SUNS, "N", king=2, placed={0: "N-NL", 4: "S-FL"}, unrest=0)
    lee = player("Lee", MOONS, "S")
    state = game(
        [kim, lee],
        {"N-NL": (MOONS, 1), "N-FM": (SUNS, 5), "N-FR": (CROWNS, 1), "S-FL": (ARMS, 3)},
        roads=[("Kim", "N-CAP", "N-FM"), ("Kim", "N-CAP", "N-FR")],
        phase=CONTROL,
    )
    state = control.settle_control(state, "Kim", payments=0, rebels=["N-FM", "N-FR"])
    state, first = control.put_down(state, "Kim", "N-FM", leader_value=0)
    assert (first.attack, first.defense, first.success) == (1, 5, False)
    state, second = control.put_down(state, "Kim", "N-FM", leader_value=4)
    assert (second.attack, second.defense, second.success) == (7, 5, True)
    assert state.rebellion is not None and state.rebellion.cities == ("N-FR",)
    state = control.end_rebellion(state, "Kim")
    assert get_player(state, "Kim").unrest == 1
    assert controlled_cities(state, "Kim") == ("N-FM", "N-NL", "S-FL")


def test_ms_unrest_4_rebel_6_amb_21_civil_war_ends_the_game_at_once() -> None:
    """MS-UNREST-4, MS-REBEL-6, MS-WIN-1, MS-AMB-21: unrest 4 + a lost rebellion = 5: every city
    of the kingdom is lost, the player loses, the game ends and Lee wins on score."""
    kim = player("Kim", SUNS, "N", king=1, placed={2: "N-NL"}, unrest=4)
    lee = player("Lee", MOONS, "S", king=1)
    state = game(
        [kim, lee],
        {"N-NL": (CROWNS, 2), "N-FM": (SUNS, 5), "S-FM": (ARMS, 1)},
        roads=[("Kim", "N-CAP", "N-FM"), ("Lee", "S-CAP", "S-FM")],
        phase=CONTROL,
    )
    state = control.settle_control(state, "Kim", payments=0, rebels=["N-FM", "N-NL"])
    state = control.end_rebellion(state, "Kim")
    assert (state.ended, state.end_reason, state.losers, state.winners) == (
        True, "civil_war", ("Kim",), ("Lee",),
    )
    assert get_player(state, "Kim").unrest == 5
    assert controlled_cities(state, "Kim") == ()
    with pytest.raises(RuleViolation, match="MS-AMB-21"):
        phases.end_turn(state, "Kim")


def test_ms_unrest_1_never_below_zero_nor_above_five() -> None:
    """MS-UNREST-1: the die runs 0-5."""
    state = tv1_state()
    assert get_player(control.change_unrest(state, "Hal", -3), "Hal").unrest == 0
    assert get_player(control.change_unrest(state, "Hal", +7), "Hal").unrest == 5


def test_ms_control_turn_must_be_settled_before_it_ends() -> None:
    """MS-CONTROL-4, MS-ROUND-2: Hal cannot end his control turn with excess cities unsettled,
    nor with a rebellion open; once settled and put down, Ivy plays; Ivy has no city and ends at
    once, which opens the dominance phase."""
    state = tv1_state()
    with pytest.raises(RuleViolation, match="MS-CONTROL-3"):
        phases.end_turn(state, "Hal")
    state = control.settle_control(state, "Hal", payments=1, rebels=["N-FM"])
    with pytest.raises(RuleViolation, match="MS-AMB-20"):
        phases.end_turn(state, "Hal")
    state, _ = control.put_down(state, "Hal", "N-FM", leader_value=5)
    with pytest.raises(RuleViolation, match="MS-CONTROL-3"):
        control.settle_control(state, "Hal", payments=0, rebels=[])
    state = phases.end_turn(state, "Hal")
    assert (state.phase, state.turn) == (CONTROL, 1)
    with pytest.raises(RuleViolation, match="MS-ROUND-2"):
        control.settle_control(state, "Hal", payments=0, rebels=[])
    state = phases.end_turn(state, "Ivy")
    assert (state.phase, state.turn) == (DOMINANCE, 0)
