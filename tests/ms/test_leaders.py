"""The leader phase apart from conflicts: changing the king, the ascending order of actions,
activating and moving leaders (MS-LEAD-1..4, MS-MOVE-1..5, MS-LEADER-3..5, MS-AMB-2)."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import leaders
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.state import (
    IN_CAPITAL,
    IN_RESERVE,
    GameState,
    MSOptions,
    controller,
    get_player,
)
from tests.ms.factory import game, player


def kim_state(options: MSOptions | None = None, goods: int = 5, gold: int = 5) -> GameState:
    """Kim (north, king 2): a 3-garrison with the 5-leader, a 4-market with the 3-leader and a
    port, a 2-temple by road, a 1-mine held by the inactive 4-leader alone, and a provincial
    2-market on Lee's continent joined by sea through its port."""
    kim = player("Kim", SUNS, "N", king=2, placed={5: "N-FL", 3: "N-FM", 4: ("N-NR", False)},
                 goods=goods, gold=gold)
    lee = player("Lee", MOONS, "S")
    return game(
        [kim, lee],
        {"N-FL": (ARMS, 3), "N-FM": (SUNS, 4), "N-NR": (CROWNS, 1), "N-NL": (MOONS, 2),
         "N-FR": (CROWNS, 5), "S-FM": (SUNS, 2)},
        roads=[("Kim", "N-CAP", "N-FL"), ("Kim", "N-FL", "N-FM"), ("Kim", "N-CAP", "N-NL")],
        ports=[("Kim", "N-FM", 1), ("Kim", "S-FM", 1)],
        options=options,
    )


def test_ms_lead_2_change_king_pays_the_difference_old_king_acts_later() -> None:
    """MS-LEAD-1, MS-LEAD-2: king 2 to 0 costs 2 goods + 2 gold of 5 each; the 2-leader goes to
    the reserve and then moves to the 2-temple in part 2."""
    state = leaders.change_king(kim_state(), "Kim", 0)
    kim = get_player(state, "Kim")
    assert (kim.king.value, kim.goods, kim.gold) == (0, 3, 3)
    assert kim.leader(2).place == IN_RESERVE
    state = leaders.move_leader(state, "Kim", 2, "N-NL")
    assert get_player(state, "Kim").leader(2).place == "N-NL"


def test_ms_lead_2_new_king_must_come_from_the_reserve_and_be_paid() -> None:
    """MS-LEAD-2: the 5-leader stands in a city and cannot be crowned; king 2 to the reserve's
    1-leader costs 1 + 1, all Kim has; king 2 to 0 (2 + 2) is then beyond her."""
    with pytest.raises(RuleViolation, match="MS-LEAD-2"):
        leaders.change_king(kim_state(), "Kim", 5)
    state = leaders.change_king(kim_state(goods=1, gold=1), "Kim", 1)
    kim = get_player(state, "Kim")
    assert (kim.king.value, kim.goods, kim.gold) == (1, 0, 0)
    with pytest.raises(RuleViolation, match="MS-LEAD-2"):
        leaders.change_king(kim_state(goods=1, gold=1), "Kim", 0)


def test_ms_lead_1_king_changed_first_and_once() -> None:
    """MS-LEAD-1: once a leader has acted, or the king was changed, no (further) change."""
    state = leaders.move_leader(kim_state(), "Kim", 0, "N-NL")
    with pytest.raises(RuleViolation, match="MS-LEAD-1"):
        leaders.change_king(state, "Kim", 1)
    state = leaders.change_king(kim_state(), "Kim", 1)
    with pytest.raises(RuleViolation, match="MS-LEAD-2"):
        leaders.change_king(state, "Kim", 0)


def test_ms_lead_3_ascending_order_king_skipped_at_most_five_actions() -> None:
    """MS-LEAD-3, MS-LEADER-3: the 0-, 1-, 3-, 4- and 5-leaders each act once, lowest first; the
    king (2) never acts; after the 5-leader nothing more; 5 actions in all."""
    state = leaders.move_leader(kim_state(), "Kim", 0, "N-NL")
    with pytest.raises(RuleViolation, match="MS-LEAD-3"):
        leaders.move_leader(state, "Kim", 0, "S-FM")
    state = leaders.move_leader(state, "Kim", 1, "S-FM")
    with pytest.raises(RuleViolation, match="MS-LEADER-3"):
        leaders.use_leader(state, "Kim", 2)
    state = leaders.move_leader(state, "Kim", 3, IN_RESERVE)
    state = leaders.activate(state, "Kim", 4)
    with pytest.raises(RuleViolation, match="MS-LEAD-3"):
        leaders.activate(state, "Kim", 3)
    state = leaders.move_leader(state, "Kim", 5, "N-FM")
    assert (state.current.actions, state.current.last_leader) == (5, 5)
    kim = get_player(state, "Kim")
    assert [(leader.value, leader.place, leader.active) for leader in kim.leaders] == [
        (0, "N-NL", True), (1, "S-FM", True), (2, IN_CAPITAL, True), (3, IN_RESERVE, True),
        (4, "N-NR", True), (5, "N-FM", True),
    ]


def test_ms_lead_4_activate_only_an_inactive_leader_in_a_city() -> None:
    """MS-LEAD-4: the inactive 4-leader in the 1-mine turns active; the active 5-leader or a
    reserve leader cannot be activated."""
    state = leaders.activate(kim_state(), "Kim", 4)
    assert get_player(state, "Kim").leader(4).active is True
    with pytest.raises(RuleViolation, match="MS-LEAD-4"):
        leaders.activate(kim_state(), "Kim", 5)
    with pytest.raises(RuleViolation, match="MS-LEAD-4"):
        leaders.activate(kim_state(), "Kim", 0)


def test_ms_move_1_2_3_destinations_along_trade_routes() -> None:
    """MS-MOVE-2, MS-MOVE-3, MS-MOVE-4: from the reserve (starting at the Capital) a leader
    reaches the road-held 2-temple and, by road, the market's port and the sea, the provincial
    2-market; from the 4-market the 3-leader also may go back to the reserve. MS-MOVE-1: the
    inactive 4-leader and the king go nowhere; the 4-leader's mine has no route at all."""
    state = kim_state()
    assert leaders.move_destinations(state, "Kim", 0) == ("N-NL", "S-FM")
    assert leaders.move_destinations(state, "Kim", 3) == ("N-NL", "S-FM", IN_RESERVE)
    assert leaders.move_destinations(state, "Kim", 4) == ()
    assert leaders.move_destinations(state, "Kim", 2) == ()
    with pytest.raises(RuleViolation, match="MS-MOVE-1"):
        leaders.move_leader(state, "Kim", 4, "N-NL")
    state = leaders.activate(state, "Kim", 4)
    assert leaders.move_destinations(state, "Kim", 4) == ()


def test_ms_move_4_leader_5_not_into_a_governed_uncontrolled_or_unreached_city() -> None:
    """MS-MOVE-4, MS-LEADER-5: not into the 4-market (the 3-leader governs it), not into the
    uncontrolled 5-mine, not into the 1-mine that no route reaches."""
    for target in ("N-FM", "N-FR", "N-NR"):
        with pytest.raises(RuleViolation, match="MS-MOVE-4"):
            leaders.move_leader(kim_state(), "Kim", 5, target)


def test_ms_move_5_amb_2_moving_leaves_the_leader_active_unless_the_option() -> None:
    """MS-MOVE-5, MS-LEADER-4, MS-AMB-2: a leader from the reserve enters active and moving
    does not turn it over; with ``move_inactivates`` the moved leader lies inactive (one sent
    back to the reserve is ready to enter active again)."""
    state = leaders.move_leader(kim_state(), "Kim", 0, "S-FM")
    assert get_player(state, "Kim").leader(0).active is True
    strict = kim_state(MSOptions(move_inactivates=True))
    state = leaders.move_leader(strict, "Kim", 0, "S-FM")
    state = leaders.move_leader(state, "Kim", 3, IN_RESERVE)
    kim = get_player(state, "Kim")
    assert (kim.leader(0).active, kim.leader(3).active) == (False, True)


def test_ms_move_leaving_a_road_held_city_keeps_it_controlled() -> None:
    """MS-TERM-2, MS-AMB-14: the 3-leader leaves the 4-market, still Kim's by its road and port;
    unrest unchanged."""
    state = leaders.move_leader(kim_state(), "Kim", 3, "N-NL")
    assert controller(state, "N-FM") == "Kim"
    assert get_player(state, "Kim").unrest == 0


def test_ms_lead_only_on_the_players_leader_turn() -> None:
    """MS-ROUND-2: Lee cannot act during Kim's leader turn."""
    with pytest.raises(RuleViolation, match="MS-ROUND-2"):
        leaders.change_king(kim_state(), "Lee", 0)
