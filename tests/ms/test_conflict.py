"""Conflicts: who may attack what, totals, hires, outcomes and their consequences (MS-ATK-1..10,
MS-MIL-1..11, MS-MISS-1..9, MS-AMB-3, -6, -7, -14, -15, -19, -23, -25)."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import control
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.conflict import (
    CAPITAL,
    CAPITAL_TAKEN,
    CITY,
    CONQUERED,
    KING,
    KING_DEFEATED,
    LEADER_TARGET,
    PORT,
    PORT_DESTROYED,
    REBELLION,
    REPELLED,
    RETURNED_TO_STACK,
    Target,
    attack_total,
    defense_total,
    legal_targets,
    military_attack,
    missionary_attack,
    succeeds,
)
from campaign.systems.middle_sea.rules.state import (
    IN_RESERVE,
    GameState,
    MSOptions,
    controller,
    get_player,
    port_at,
    stack,
)
from tests.ms.factory import game, player


def duel(options: MSOptions | None = None, kim_goods: int = 5, lee_goods: int = 5) -> GameState:
    """Kim (north, king 1, unrest 2) has the 3-leader in a 4-garrison with a 2-pier port, the
    2-leader in a 2-temple, and on Lee's continent a 1-garrison held by her 5-leader alone; an
    uncontrolled 4-mine lies on her continent. Lee (south, king 2) has the active 4-leader in a
    3-market with road and 2-pier port, a 2-mine held by a 1-pier port alone, the inactive
    3-leader alone in a 5-temple, and an uncontrolled 5-market. Kim is to act."""
    kim = player("Kim", SUNS, "N", king=1, placed={3: "N-FL", 2: "N-NL", 5: "S-NL"}, unrest=2,
                 goods=kim_goods, gold=kim_goods)
    lee = player("Lee", MOONS, "S", king=2, placed={4: "S-FM", 3: ("S-FR", False)},
                 goods=lee_goods, gold=lee_goods)
    return game(
        [kim, lee],
        {"N-FL": (ARMS, 4), "N-NL": (MOONS, 2), "N-FM": (CROWNS, 4), "S-NL": (ARMS, 1),
         "S-FM": (SUNS, 3), "S-FL": (CROWNS, 2), "S-FR": (MOONS, 5), "S-NR": (SUNS, 5)},
        roads=[("Kim", "N-CAP", "N-FL"), ("Kim", "N-CAP", "N-NL"), ("Lee", "S-CAP", "S-FM")],
        ports=[("Kim", "N-FL", 2), ("Lee", "S-FM", 2), ("Lee", "S-FL", 1)],
        options=options,
    )


def lone_capital() -> GameState:
    """Lee (south, king 2) holds nothing but the Capital; Kim has the 5-leader in a 5-garrison
    on Lee's continent, the 4-leader in a 5-temple at home, a port, 9 goods and 9 gold."""
    kim = player("Kim", SUNS, "N", king=1, placed={5: "S-FL", 4: "N-NL"}, goods=9, gold=9)
    lee = player("Lee", MOONS, "S", king=2, goods=2, gold=2)
    return game([kim, lee], {"S-FL": (ARMS, 5), "N-NL": (MOONS, 5), "N-FM": (ARMS, 3)},
                roads=[("Kim", "N-CAP", "N-FM")], ports=[("Kim", "N-FM", 1)])


def test_ms_atk_8_totals_and_ties() -> None:
    """MS-MIL-5, MS-MISS-5: leader + city + hires; MS-MIL-6, MS-MISS-6: base + added leader +
    hires; MS-ATK-8: only a higher attack wins."""
    assert attack_total(3, 4, 2) == 9
    assert defense_total(3, 4, 1) == 8
    assert defense_total(5) == 5
    assert (succeeds(7, 6), succeeds(7, 7), succeeds(6, 7)) == (True, False, False)


def test_ms_atk_1_attackers_stand_in_a_garrison_or_temple_and_are_active() -> None:
    """MS-ATK-1: the temple's 2-leader cannot make a military attack, the garrison's 3-leader no
    missionary attack; MS-LEADER-3: the king never attacks; an inactive leader cannot."""
    state = duel()
    with pytest.raises(RuleViolation, match="MS-ATK-1"):
        military_attack(state, "Kim", 2, Target(CITY, "N-FM"))
    with pytest.raises(RuleViolation, match="MS-ATK-1"):
        missionary_attack(state, "Kim", 3, Target(CITY, "N-FM"))
    with pytest.raises(RuleViolation, match="MS-LEADER-3"):
        military_attack(state, "Kim", 1, Target(CITY, "N-FM"))


def test_ms_atk_2_each_kind_has_its_own_targets() -> None:
    """MS-ATK-2, MS-MISS-4: no military attack on a leader, no missionary attack on a port."""
    with pytest.raises(RuleViolation, match="MS-ATK-2"):
        military_attack(duel(), "Kim", 3, Target(LEADER_TARGET, "S-FM"))
    with pytest.raises(RuleViolation, match="MS-ATK-2"):
        missionary_attack(duel(), "Kim", 2, Target(PORT, "S-FM"))


def test_ms_mil_1_2_4_amb_19_legal_military_targets() -> None:
    """MS-MIL-1: the lone 1-garrison reaches what lies next to it (the 2-mine's port, and the
    3-market's port first: MS-MIL-4); MS-AMB-19: the home 4-mine always; the 5-temple and the
    5-market are next to neither. MS-MIL-2: the 4-garrison's port reaches every coastal city:
    the ports of the 3-market and the 2-mine, and the 5-temple."""
    state = duel()
    assert legal_targets(state, "Kim", 5, "military") == (
        Target(CITY, "N-FM"), Target(PORT, "S-FL"), Target(PORT, "S-FM"),
    )
    assert legal_targets(state, "Kim", 3, "military") == (
        Target(CITY, "N-FM"), Target(PORT, "S-FL"), Target(PORT, "S-FM"), Target(CITY, "S-FR"),
    )
    with pytest.raises(RuleViolation, match="MS-MIL-4"):
        military_attack(state, "Kim", 3, Target(CITY, "S-FM"))
    with pytest.raises(RuleViolation, match="MS-MIL-1"):
        military_attack(state, "Kim", 5, Target(CITY, "S-FR"))


def test_ms_mil_3_6_9_amb_14_invading_an_uncontrolled_city() -> None:
    """MS-MIL-3, MS-MIL-6: the uncontrolled 4-mine defends with 4 alone; the 5-leader in the
    1-garrison makes 6 and invades it, inactive; Kim's unrest 2 - 1 = 1 (MS-MIL-9,
    MS-UNREST-2 (b)). MS-AMB-14: the 1-garrison it held alone becomes uncontrolled with no unrest
    change. Nobody may hire defenders for it."""
    with pytest.raises(RuleViolation, match="MS-MIL-6"):
        military_attack(duel(), "Kim", 5, Target(CITY, "N-FM"), defense_hires=1)
    state, result = military_attack(duel(), "Kim", 5, Target(CITY, "N-FM"))
    assert (result.attack, result.defense, result.outcome, result.defender) == (
        6, 4, CONQUERED, None,
    )
    kim = get_player(state, "Kim")
    assert (kim.leader(5).place, kim.leader(5).active, kim.unrest) == ("N-FM", False, 1)
    assert controller(state, "S-NL") is None
    assert result.counted is False


def test_ms_mil_7_9_port_only_city_losing_its_port_is_lost() -> None:
    """MS-MIL-7, MS-MIL-9, MS-BUILD-8: the 2-mine's 1-pier port defends with 1; the 5-leader makes
    6 and destroys it; held by nothing else, the mine is lost: Lee's unrest 0 + 1 = 1; Kim gains
    nothing and stays at 2."""
    state, result = military_attack(duel(), "Kim", 5, Target(PORT, "S-FL"))
    assert (result.attack, result.defense, result.outcome) == (6, 1, PORT_DESTROYED)
    assert controller(state, "S-FL") is None
    assert (get_player(state, "Lee").unrest, get_player(state, "Kim").unrest) == (1, 2)
    assert get_player(state, "Kim").leader(5).place == "S-NL"


def test_ms_mil_7_added_defender_turns_inactive_when_the_port_falls() -> None:
    """MS-MIL-7: 3 + 4 = 7 against 2 piers + the added 4-leader = 6: the port falls, the 4-leader
    turns inactive, Lee keeps the market by road and leader, no unrest changes."""
    state, result = military_attack(duel(), "Kim", 3, Target(PORT, "S-FM"),
                                    defender_adds_leader=True)
    assert (result.attack, result.defense, result.success) == (7, 6, True)
    assert port_at(state, "S-FM") is None
    assert get_player(state, "Lee").leader(4).active is False
    assert controller(state, "S-FM") == "Lee"
    assert (get_player(state, "Lee").unrest, get_player(state, "Kim").unrest) == (0, 2)


def test_ms_mil_10_amb_7_failed_attack_spends_hires_and_the_leader_only() -> None:
    """MS-MIL-10, MS-AMB-7, MS-ATK-8, MS-ATK-9: 3 + 4 = 7 against 2 + 4 + 1 mercenary = 7: a tie
    holds; Kim's leader turns inactive, Lee's added leader stays active, the port stays, and
    Lee's mercenary is paid (5 - 1 each)."""
    state, result = military_attack(duel(), "Kim", 3, Target(PORT, "S-FM"), defense_hires=1,
                                    defender_adds_leader=True)
    assert (result.attack, result.defense, result.success, result.outcome) == (
        7, 7, False, REPELLED,
    )
    assert get_player(state, "Kim").leader(3).active is False
    lee = get_player(state, "Lee")
    assert (lee.leader(4).active, lee.goods, lee.gold) == (True, 4, 4)
    assert port_at(state, "S-FM") is not None


def test_ms_amb_23_hires_fixed_and_paid_attacker_first() -> None:
    """MS-ATK-6, MS-ATK-7, MS-AMB-23: the attacker declares and pays first (2 hires with 1 + 1 is
    refused), then the defender (Lee with 0 + 0 cannot hire); hires add 1 each."""
    with pytest.raises(RuleViolation, match="MS-ATK-7"):
        military_attack(duel(kim_goods=1), "Kim", 3, Target(PORT, "S-FM"), attack_hires=2)
    with pytest.raises(RuleViolation, match="Lee cannot pay"):
        military_attack(duel(lee_goods=0), "Kim", 3, Target(PORT, "S-FM"), defense_hires=1)
    state, result = military_attack(duel(), "Kim", 3, Target(PORT, "S-FM"), attack_hires=2,
                                    defense_hires=3)
    assert (result.attack, result.defense) == (9, 5)
    assert (get_player(state, "Kim").goods, get_player(state, "Lee").gold) == (3, 2)


def test_ms_miss_1_2_4_7_leader_target_and_active_leader_first() -> None:
    """MS-MISS-2: the 3-market with its active 4-leader cannot be attacked; MS-MISS-1, MS-MISS-4,
    MS-MISS-6, MS-MISS-7: the leader is the target; the port adds nothing: 2 + 2 = 4 against 3
    (or 3 + 4 = 7 with the leader added); on success the 4-leader turns inactive and stays."""
    with pytest.raises(RuleViolation, match="MS-MISS-2"):
        missionary_attack(duel(), "Kim", 2, Target(CITY, "S-FM"))
    state, result = missionary_attack(duel(), "Kim", 2, Target(LEADER_TARGET, "S-FM"))
    assert (result.attack, result.defense, result.outcome) == (4, 3, "leader_inactivated")
    lee = get_player(state, "Lee")
    assert (lee.leader(4).place, lee.leader(4).active) == ("S-FM", False)
    state, held = missionary_attack(duel(), "Kim", 2, Target(LEADER_TARGET, "S-FM"),
                                    defender_adds_leader=True)
    assert (held.defense, held.success) == (7, False)
    assert get_player(state, "Kim").leader(2).active is False


def test_ms_miss_7_8_amb_15_city_with_an_inactive_leader_rebels() -> None:
    """MS-AMB-15, MS-MISS-7, MS-REBEL-5: the 5-temple's leader is inactive, so the city is a
    target: 2 + 2 + 2 zealots = 6 > 5; it rebels; Lee has no garrison or temple leader to put it
    down: her 3-leader goes to the reserve, the temple is uncontrolled, Lee +1. MS-MISS-8: Kim's
    unrest stays 2; MS-MISS-9: her leader is inactive."""
    state, result = missionary_attack(duel(), "Kim", 2, Target(CITY, "S-FR"), attack_hires=2)
    assert (result.attack, result.defense, result.outcome) == (6, 5, REBELLION)
    state = control.end_rebellion(state, "Lee")
    lee = get_player(state, "Lee")
    assert (lee.leader(3).place, lee.unrest) == (IN_RESERVE, 1)
    assert controller(state, "S-FR") is None
    kim = get_player(state, "Kim")
    assert (kim.unrest, kim.leader(2).active) == (2, False)


def test_ms_miss_6_7_uncontrolled_city_goes_to_its_stack() -> None:
    """MS-MISS-6, MS-MISS-7, MS-AMB-16, MS-MISS-3: the uncontrolled 5-market defends with 5
    alone, far from any of Kim's cities; 2 + 2 + 2 = 6 sends it to the bottom of the suns
    stack."""
    with pytest.raises(RuleViolation, match="MS-MISS-6"):
        missionary_attack(duel(), "Kim", 2, Target(CITY, "S-NR"), attack_hires=2,
                          defense_hires=1)
    state, result = missionary_attack(duel(), "Kim", 2, Target(CITY, "S-NR"), attack_hires=2)
    assert (result.attack, result.defense, result.outcome) == (6, 5, RETURNED_TO_STACK)
    assert stack(state, SUNS) == (1, 2, 4, 5)


def test_ms_atk_3_amb_3_a_provincial_port_opens_other_continents_unless_the_option() -> None:
    """MS-ATK-3, MS-AMB-3: Kim's only port stands on Lee's continent. By default it opens attacks
    there (Lee's 3-mine, the uncontrolled 5-market); with ``port_anywhere_unlocks`` off only a
    home port would, so the 2-temple cannot reach them; a target at home stays in range."""
    kim = player("Kim", SUNS, "N", king=1, placed={2: "N-NL", 0: "S-FM"})
    lee = player("Lee", MOONS, "S")
    sites = {"N-NL": (MOONS, 2), "S-FM": (ARMS, 2), "S-NR": (SUNS, 5), "N-FR": (SUNS, 1),
             "S-FL": (CROWNS, 3)}
    roads = [("Lee", "S-CAP", "S-FL")]
    state = game([kim, lee], sites, roads=roads, ports=[("Kim", "S-FM", 1)])
    assert legal_targets(state, "Kim", 2, "missionary") == (
        Target(CITY, "N-FR"), Target(CITY, "S-FL"), Target(CITY, "S-NR"),
    )
    strict = game([kim, lee], sites, roads=roads, ports=[("Kim", "S-FM", 1)],
                  options=MSOptions(port_anywhere_unlocks=False))
    assert legal_targets(strict, "Kim", 2, "missionary") == (Target(CITY, "N-FR"),)
    with pytest.raises(RuleViolation, match="MS-AMB-3"):
        missionary_attack(strict, "Kim", 2, Target(CITY, "S-NR"))


def test_ms_atk_10_mil_11_amb_6_capital_taken_ends_the_game() -> None:
    """MS-ATK-10, MS-AMB-6: the Capital defends with 10 + the king (2) if added + mercenaries;
    5 + 5 + 3 = 13 beats 12. MS-MIL-11, MS-WIN-1: Lee loses and the game ends."""
    state, result = military_attack(lone_capital(), "Kim", 5, Target(CAPITAL, "S-CAP"),
                                    attack_hires=3, defender_adds_leader=True)
    assert (result.attack, result.defense, result.outcome) == (13, 12, CAPITAL_TAKEN)
    assert (state.ended, state.end_reason, state.losers, state.winners) == (
        True, "capital_lost", ("Lee",), ("Kim",),
    )


def test_ms_atk_10_amb_6_capital_held_with_hires_and_only_when_alone() -> None:
    """MS-AMB-6: 10 + 2 + 2 mercenaries = 14 holds against 5 + 5 + 3 = 13. MS-ATK-10: while Lee
    holds a city, neither Capital nor king can be attacked."""
    state, result = military_attack(lone_capital(), "Kim", 5, Target(CAPITAL, "S-CAP"),
                                    attack_hires=3, defense_hires=2, defender_adds_leader=True)
    assert (result.defense, result.success, state.ended) == (14, False, False)
    lee = player("Lee", MOONS, "S", king=2)
    state = lone_capital()
    state = game(
        [state.players[0], lee],
        {"S-FL": (ARMS, 5), "N-NL": (MOONS, 5), "N-FM": (ARMS, 3), "S-NR": (SUNS, 1)},
        roads=[("Kim", "N-CAP", "N-FM"), ("Lee", "S-CAP", "S-NR")],
        ports=[("Kim", "N-FM", 1)],
    )
    with pytest.raises(RuleViolation, match="MS-ATK-10"):
        military_attack(state, "Kim", 5, Target(CAPITAL, "S-CAP"))
    with pytest.raises(RuleViolation, match="MS-ATK-10"):
        missionary_attack(state, "Kim", 4, Target(KING, "S-CAP"))


def test_ms_amb_6_king_defends_with_value_plus_ten() -> None:
    """MS-AMB-6, MS-MISS-7, MS-WIN-1: the king defends with 2 + 10 = 12; the 4-leader in the
    5-temple with 4 zealots makes 13: the king is defeated and Lee loses. Kim's garrison at
    home cannot reach the Capital: it is not coastal (MS-MIL-1, MS-MIL-2)."""
    state, result = missionary_attack(lone_capital(), "Kim", 4, Target(KING, "S-CAP"),
                                      attack_hires=4)
    assert (result.attack, result.defense, result.outcome) == (13, 12, KING_DEFEATED)
    assert (state.ended, state.end_reason, state.losers) == (True, "king_lost", ("Lee",))
    kim = player("Kim", SUNS, "N", king=1, placed={5: "N-FM"}, goods=9, gold=9)
    far = game([kim, player("Lee", MOONS, "S")], {"N-FM": (ARMS, 3)},
               roads=[("Kim", "N-CAP", "N-FM")], ports=[("Kim", "N-FM", 1)])
    with pytest.raises(RuleViolation, match="MS-MIL-1"):
        military_attack(far, "Kim", 5, Target(CAPITAL, "S-CAP"))


def test_ms_atk_4_one_attack_of_each_kind_per_opponent() -> None:
    """MS-ATK-4: after a military attack on Lee's port, Kim's next military attack on Lee is
    refused; a military attack on the uncontrolled 4-mine is still allowed."""
    state, _ = military_attack(duel(), "Kim", 3, Target(PORT, "S-FM"))
    with pytest.raises(RuleViolation, match="MS-ATK-4"):
        military_attack(state, "Kim", 5, Target(PORT, "S-FL"))
    state, result = military_attack(state, "Kim", 5, Target(CITY, "N-FM"))
    assert (result.success, result.counted) == (True, False)


def test_ms_amb_25_one_controller_per_city() -> None:
    """MS-AMB-25: a city claimed by two players' roads is refused and left to the game master."""
    kim = player("Kim", SUNS, "N")
    lee = player("Lee", MOONS, "S")
    with pytest.raises(RuleViolation, match="MS-AMB-25"):
        game([kim, lee], {"N-FM": (SUNS, 3), "N-FL": (ARMS, 2)},
             roads=[("Kim", "N-CAP", "N-FM"), ("Lee", "N-FL", "N-FM")],
             ports=[("Lee", "N-FL", 1)])
