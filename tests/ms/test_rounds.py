"""A game from setup through its first round and into the second, through the phase machine
(MS-ROUND-1..3, MS-DOM-6, MS-SETUP, MS-AMB-24)."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import control, economy, leaders, phases
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.state import (
    BUILD,
    CONTROL,
    DOMINANCE,
    LEADER,
    PRODUCTION,
    current_player,
    get_player,
    stack,
)

SEATS = [("Rita", SUNS), ("Steve", MOONS), ("Phillip", CROWNS)]


def test_ms_round_1_2_first_round_in_dominance_order() -> None:
    """MS-ROUND-1: control, dominance, production, build, leader; MS-ROUND-2, MS-DOM-6: in every
    phase Steve (1st from the setup roll), Phillip, then Rita play in turn. MS-AMB-24: nobody
    holds a temple in round 1, so the order stands. Each Capital with its king of 1 yields
    1 + 1 (MS-PROD-1)."""
    state = phases.new_game(SEATS)
    state = phases.settle_first_dominance(state, [{"Rita": 3, "Steve": 5, "Phillip": 1}])
    assert state.order == ("Steve", "Phillip", "Rita")
    seen = []
    for _ in range(3):
        seen.append((state.phase, current_player(state)))
        state = phases.end_turn(state, current_player(state))
    assert seen == [(CONTROL, "Steve"), (CONTROL, "Phillip"), (CONTROL, "Rita")]
    assert state.phase == DOMINANCE
    with pytest.raises(RuleViolation, match="MS-ROUND-2"):
        phases.end_turn(state, "Steve")
    state = phases.resolve_dominance(state)
    assert (state.phase, state.order) == (PRODUCTION, ("Steve", "Phillip", "Rita"))
    state, reports = phases.resolve_production(state)
    assert [(r.name, r.goods, r.gold) for r in reports] == [
        ("Steve", 1, 1), ("Phillip", 1, 1), ("Rita", 1, 1),
    ]
    assert (state.phase, current_player(state)) == (BUILD, "Steve")
    # Steve explores the ace of arms onto his continent and builds a road to it: 1 + 1 and
    # 1 + 1 of his 5 + 5; unrest stays 0.
    state = economy.explore(state, "Steve", ARMS, "E-FM")
    state = economy.build_road(state, "Steve", "E-CAP", "E-FM")
    steve = get_player(state, "Steve")
    assert (steve.goods, steve.gold, steve.unrest) == (3, 3, 0)
    assert stack(state, ARMS) == (2, 3, 4, 5)
    with pytest.raises(RuleViolation, match="MS-ROUND-2"):
        economy.explore(state, "Rita", SUNS, "N-FM")
    for name in ("Steve", "Phillip", "Rita"):
        state = phases.end_turn(state, name)
    assert (state.phase, current_player(state)) == (LEADER, "Steve")
    # Steve changes his 1-king for the 3-leader (2 + 2) and sends the 0-leader to his garrison.
    state = leaders.change_king(state, "Steve", 3)
    state = leaders.move_leader(state, "Steve", 0, "E-FM")
    for name in ("Steve", "Phillip", "Rita"):
        state = phases.end_turn(state, name)
    assert (state.round, state.phase, current_player(state), state.ended) == (
        2, CONTROL, "Steve", False,
    )
    steve = get_player(state, "Steve")
    assert (steve.king.value, steve.goods, steve.gold) == (3, 1, 1)


def test_ms_round_3_second_round_control_with_a_king_of_3() -> None:
    """MS-ROUND-3, MS-CONTROL-1: in round 2 Steve's one city is within his control total of
    3 - 0, so his control turn needs nothing settled."""
    state = phases.settle_first_dominance(phases.new_game(SEATS[:2]),
                                          [{"Rita": 2, "Steve": 4}])
    for name in ("Steve", "Rita"):
        state = phases.end_turn(state, name)
    state, _ = phases.resolve_production(phases.resolve_dominance(state))
    state = economy.explore(state, "Steve", ARMS, "S-FM")
    state = economy.build_road(state, "Steve", "S-CAP", "S-FM")
    for name in ("Steve", "Rita", "Steve", "Rita"):
        state = phases.end_turn(state, name)
    assert control.control_report(state, "Steve").excess == 0
    state = phases.end_turn(state, "Steve")
    assert (state.phase, current_player(state)) == (CONTROL, "Rita")
