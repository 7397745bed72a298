"""TV-MS-4: a whole leader phase of four players played through the phase machine, conflict by
conflict (MS-LEAD, MS-MIL, MS-MISS, MS-ATK, MS-AMB-17b, MS-AMB-26)."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import control, leaders, phases
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.conflict import (
    CITY,
    CONQUERED,
    PORT,
    PORT_DESTROYED,
    REBELLION,
    RETURNED_TO_STACK,
    Target,
    military_attack,
    missionary_attack,
)
from campaign.systems.middle_sea.rules.state import (
    CONTROL,
    IN_RESERVE,
    GameState,
    city_at,
    controller,
    get_player,
    linked_to_capital,
    port_at,
    stack,
)
from tests.ms.factory import game, player


def tv4_state() -> GameState:
    """The table before the leader phase. Rita (north, king 5) holds her five home cities, with
    the 3-leader in her 3-garrison, which has her port. Steve (east, king 5) has a home port and,
    on Phillip's continent, a 5-garrison with his 3-leader next to Phillip's 4-market and joined
    by road to a 2-mine held by his inactive 4-leader (MS-AMB-26). Phillip (south, king 3) has
    the 2-leader in his coastal 4-market with its 3-pier port, the 4-leader in a 3-temple and
    the 5-leader in a 1-garrison. Andrew (west, king 4) has a port, the 2-leader in a 4-temple
    and the 3-leader in a 1-temple."""
    rita = player("Rita", SUNS, "N", king=5, placed={3: "N-FL"}, goods=1, gold=1)
    steve = player("Steve", MOONS, "E", king=5, placed={3: "S-FR", 4: ("S-NR", False)},
                   unrest=1, goods=2, gold=2)
    phillip = player("Phillip", CROWNS, "S", king=3, placed={2: "S-FM", 4: "S-FL", 5: "S-NL"},
                     unrest=1, goods=1, gold=1)
    andrew = player("Andrew", ARMS, "W", king=4, placed={2: "W-FL", 3: "W-NL"}, goods=3,
                    gold=3)
    return game(
        [rita, steve, phillip, andrew],
        {
            "N-FL": (ARMS, 3), "N-NL": (MOONS, 5), "N-NR": (CROWNS, 5), "N-FM": (SUNS, 2),
            "N-FR": (CROWNS, 3),
            "E-FM": (SUNS, 1),
            "S-FM": (SUNS, 4), "S-FL": (MOONS, 3), "S-NL": (ARMS, 1), "S-FR": (ARMS, 5),
            "S-NR": (CROWNS, 2),
            "W-FL": (MOONS, 4), "W-NL": (MOONS, 1), "W-FM": (CROWNS, 1),
        },
        roads=[
            ("Rita", "N-CAP", "N-FL"), ("Rita", "N-CAP", "N-NL"), ("Rita", "N-CAP", "N-NR"),
            ("Rita", "N-CAP", "N-FM"), ("Rita", "N-CAP", "N-FR"),
            ("Steve", "E-CAP", "E-FM"), ("Steve", "S-NR", "S-FR"),
            ("Phillip", "S-CAP", "S-FM"), ("Phillip", "S-CAP", "S-FL"),
            ("Phillip", "S-CAP", "S-NL"),
            ("Andrew", "W-CAP", "W-FM"), ("Andrew", "W-CAP", "W-FL"), ("Andrew", "W-CAP", "W-NL"),
        ],
        ports=[("Rita", "N-FL", 1), ("Steve", "E-FM", 1), ("Phillip", "S-FM", 3),
               ("Andrew", "W-FM", 1)],
        order=("Rita", "Steve", "Phillip", "Andrew"),
    )


def unrest(state: GameState) -> dict[str, int]:
    return {p.name: p.unrest for p in state.players}


def after_rita(state: GameState) -> GameState:
    state = leaders.move_leader(state, "Rita", 0, "N-NR")
    state, _ = military_attack(state, "Rita", 3, Target(PORT, "S-FM"), attack_hires=1)
    return phases.end_turn(state, "Rita")


def after_steve(state: GameState) -> GameState:
    state, _ = military_attack(after_rita(state), "Steve", 3, Target(CITY, "S-FM"))
    return phases.end_turn(state, "Steve")


def test_tv_ms_4_conflict_1_rita_destroys_phillips_port() -> None:
    """TV-MS-4 #1 (MS-MIL-2, MS-MIL-5..7, MS-ATK-7, MS-ATK-9): Rita first moves her 0-leader to
    her 5-mine; her 3-leader in the 3-garrison with 1 mercenary (1 gold + 1 goods) makes
    3 + 3 + 1 = 7 against the 3-pier port's 3: the port is destroyed, Rita's 3-leader stays in
    its garrison inactive, Phillip keeps the market (his 2-leader there, still active) and
    nobody's unrest changes."""
    state = leaders.move_leader(tv4_state(), "Rita", 0, "N-NR")
    state, result = military_attack(state, "Rita", 3, Target(PORT, "S-FM"), attack_hires=1)
    assert (result.attack, result.defense, result.success, result.outcome) == (
        7, 3, True, PORT_DESTROYED,
    )
    assert port_at(state, "S-FM") is None
    rita = get_player(state, "Rita")
    assert (rita.goods, rita.gold) == (0, 0)
    assert (rita.leader(3).place, rita.leader(3).active) == ("N-FL", False)
    assert controller(state, "S-FM") == "Phillip"
    assert get_player(state, "Phillip").leader(2).active is True
    assert unrest(state) == {"Rita": 0, "Steve": 1, "Phillip": 1, "Andrew": 0}


def test_tv_ms_4_conflict_2_steve_conquers_the_market() -> None:
    """TV-MS-4 #2 (MS-MIL-1, MS-MIL-4, MS-MIL-8, MS-MIL-9): with the port gone Steve's 3-leader
    in the 5-garrison makes 3 + 5 = 8 against 4: Phillip's 2-leader to his reserve, his road
    removed, Steve's 3-leader in the market, inactive; Phillip +1, Steve -1. The garrison it
    left stays Steve's by its road."""
    state = after_rita(tv4_state())
    state, result = military_attack(state, "Steve", 3, Target(CITY, "S-FM"))
    assert (result.attack, result.defense, result.outcome) == (8, 4, CONQUERED)
    assert get_player(state, "Phillip").leader(2).place == IN_RESERVE
    steve = get_player(state, "Steve")
    assert (steve.leader(3).place, steve.leader(3).active) == ("S-FM", False)
    assert [(r.owner, r.a, r.b) for r in state.roads if r.touches("S-FM")] == []
    assert controller(state, "S-FR") == "Steve"
    assert unrest(state) == {"Rita": 0, "Steve": 0, "Phillip": 2, "Andrew": 0}


def test_tv_ms_4_conflict_2_with_the_defending_leader_added() -> None:
    """TV-MS-4 #2 (MS-MIL-6): had Phillip added his active 2-leader, 4 + 2 = 6 still loses
    to 8."""
    state = after_rita(tv4_state())
    state, result = military_attack(state, "Steve", 3, Target(CITY, "S-FM"),
                                    defender_adds_leader=True)
    assert (result.attack, result.defense, result.success) == (8, 6, True)
    assert get_player(state, "Phillip").leader(2).place == IN_RESERVE


def test_tv_ms_4_conflicts_3_and_4_phillip_strikes_back() -> None:
    """TV-MS-4 #3 (MS-MISS-1, MS-MISS-3, MS-MISS-7, MS-REBEL-5): Phillip's 4-leader in his
    3-temple makes 4 + 3 = 7 against Steve's ungoverned 5-garrison: it rebels, Steve has no
    leader to put it down, so its road goes and it is uncontrolled, Steve +1. #4 (MS-AMB-17b):
    Phillip's 5-leader in his 1-garrison makes 5 + 1 = 6 against the 4-market with Steve's
    inactive 3-leader: Steve's leader to his reserve, Phillip's 5-leader moves in inactive with
    no road to his Capital; Steve +1, Phillip -1. Phillip made one attack of each kind on
    Steve."""
    state = after_steve(tv4_state())
    state, third = missionary_attack(state, "Phillip", 4, Target(CITY, "S-FR"))
    assert (third.attack, third.defense, third.outcome) == (7, 5, REBELLION)
    assert state.rebellion is not None and state.rebellion.owner == "Steve"
    with pytest.raises(RuleViolation, match="MS-ATK-5"):
        military_attack(state, "Phillip", 5, Target(CITY, "S-FM"))
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Steve", "S-FR", 4)
    state = control.end_rebellion(state, "Steve")
    assert controller(state, "S-FR") is None
    assert city_at(state, "S-FR") is not None
    assert unrest(state) == {"Rita": 0, "Steve": 1, "Phillip": 2, "Andrew": 0}
    state, fourth = military_attack(state, "Phillip", 5, Target(CITY, "S-FM"))
    assert (fourth.attack, fourth.defense, fourth.outcome) == (6, 4, CONQUERED)
    assert get_player(state, "Steve").leader(3).place == IN_RESERVE
    phillip = get_player(state, "Phillip")
    assert (phillip.leader(5).place, phillip.leader(5).active) == ("S-FM", False)
    assert linked_to_capital(state, "Phillip", "S-FM") is False
    assert unrest(state) == {"Rita": 0, "Steve": 2, "Phillip": 1, "Andrew": 0}
    assert state.current.attacks == (("Steve", "missionary"), ("Steve", "military"))


def test_tv_ms_4_amb_26_without_a_port_phillip_cannot_reach_steves_continent() -> None:
    """MS-AMB-26, MS-ATK-3: with his only port destroyed, Phillip's temple may attack Steve's
    garrison on Phillip's own continent but not Steve's home market in the east."""
    state = after_steve(tv4_state())
    with pytest.raises(RuleViolation, match="MS-ATK-3"):
        missionary_attack(state, "Phillip", 4, Target(CITY, "E-FM"))


def test_tv_ms_4_conflicts_5_and_6_andrew() -> None:
    """TV-MS-4 #5 (MS-LEAD-2, MS-MISS-7): Andrew changes king 4 to 5 for 1 goods + 1 gold; his
    2-leader in the 4-temple makes 2 + 4 = 6 against Rita's ungoverned 5-temple: it rebels,
    Rita cannot put it down, loses its road and it stays uncontrolled on her continent; Rita +1.
    #6 (MS-ATK-4, MS-AMB-16): his 3-leader in the 1-temple with 2 zealots (2 + 2 paid) makes
    3 + 1 + 2 = 6 against the uncontrolled 5-temple's 5: it goes to the bottom of the moons
    stack; the attack is not counted against Rita, though a second missionary attack on a city
    of hers would be refused."""
    state = after_steve(tv4_state())
    state, _ = missionary_attack(state, "Phillip", 4, Target(CITY, "S-FR"))
    state = control.end_rebellion(state, "Steve")
    state, _ = military_attack(state, "Phillip", 5, Target(CITY, "S-FM"))
    state = phases.end_turn(state, "Phillip")
    state = leaders.change_king(state, "Andrew", 5)
    andrew = get_player(state, "Andrew")
    assert (andrew.king.value, andrew.leader(4).place, andrew.goods, andrew.gold) == (
        5, IN_RESERVE, 2, 2,
    )
    state, fifth = missionary_attack(state, "Andrew", 2, Target(CITY, "N-NL"))
    assert (fifth.attack, fifth.defense, fifth.outcome, fifth.counted) == (6, 5, REBELLION, True)
    with pytest.raises(RuleViolation, match="MS-REBEL-2"):
        control.put_down(state, "Rita", "N-NL", 3)
    state = control.end_rebellion(state, "Rita")
    assert controller(state, "N-NL") is None
    assert city_at(state, "N-NL") is not None
    with pytest.raises(RuleViolation, match="MS-ATK-4"):
        missionary_attack(state, "Andrew", 3, Target(CITY, "N-FM"))
    state, sixth = missionary_attack(state, "Andrew", 3, Target(CITY, "N-NL"), attack_hires=2)
    assert (sixth.attack, sixth.defense, sixth.outcome, sixth.counted) == (
        6, 5, RETURNED_TO_STACK, False,
    )
    assert city_at(state, "N-NL") is None
    assert stack(state, MOONS) == (2, 5)
    andrew = get_player(state, "Andrew")
    assert (andrew.goods, andrew.gold) == (0, 0)
    assert unrest(state) == {"Rita": 1, "Steve": 2, "Phillip": 1, "Andrew": 0}
    state = phases.end_turn(state, "Andrew")
    assert (state.ended, state.round, state.phase, state.turn) == (False, 2, CONTROL, 0)


def test_tv_ms_4_every_player_used_leaders_in_ascending_order() -> None:
    """TV-MS-4 (MS-LEAD-3): after Phillip's 5-leader, his 4-leader can no longer act."""
    state = after_steve(tv4_state())
    state, _ = missionary_attack(state, "Phillip", 4, Target(CITY, "S-FR"))
    state = control.end_rebellion(state, "Steve")
    state, _ = military_attack(state, "Phillip", 5, Target(CITY, "S-FM"))
    with pytest.raises(RuleViolation, match="MS-LEAD-3"):
        leaders.activate(state, "Phillip", 4)
