"""The dominance phase (MS-DOM-1..6, MS-AMB-9, MS-AMB-24), with TV-MS-2."""

from __future__ import annotations

import pytest

from campaign.systems.middle_sea.rules import dominance, phases
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS, RuleViolation
from campaign.systems.middle_sea.rules.state import DOMINANCE, PRODUCTION, GameState
from tests.ms.factory import game, player

PREVIOUS = ("Steve", "Phillip", "Andrew", "Rita")


def tv2_state() -> GameState:
    """TV-MS-2: four kings of 4; temples 3, 2, 1 and 5; unrest 0, 2, 1 and 2."""
    players = [
        player("Rita", SUNS, "N", king=4, unrest=2),
        player("Steve", MOONS, "E", king=4, unrest=0),
        player("Phillip", CROWNS, "S", king=4, unrest=2),
        player("Andrew", ARMS, "W", king=4, unrest=1),
    ]
    return game(
        players,
        {"N-FM": (MOONS, 5), "E-FM": (MOONS, 3), "S-FM": (MOONS, 2), "W-FM": (MOONS, 1)},
        roads=[("Rita", "N-CAP", "N-FM"), ("Steve", "E-CAP", "E-FM"),
               ("Phillip", "S-CAP", "S-FM"), ("Andrew", "W-CAP", "W-FM")],
        order=PREVIOUS, phase=DOMINANCE,
    )


def test_tv_ms_2_dominance_order_rita_steve_phillip_andrew() -> None:
    """TV-MS-2 (MS-DOM-1, MS-DOM-3, MS-DOM-4, MS-DOM-5): scores 7, 4, 4, 7; Rita's 5-temple beats
    Steve's 3-temple for 1st; Rita puts Phillip before Andrew."""
    state = tv2_state()
    scores = {p.name: dominance.dominance_score(state, p.name) for p in state.players}
    assert scores == {"Rita": 7, "Steve": 7, "Phillip": 4, "Andrew": 4}
    assert dominance.dominance_ties(state) == (("Phillip", "Andrew"),)
    state = phases.resolve_dominance(state, choice=["Phillip", "Andrew"])
    assert state.order == ("Rita", "Steve", "Phillip", "Andrew")
    assert (state.phase, state.turn) == (PRODUCTION, 0)


def test_ms_dom_5_first_player_chooses_lower_ties_either_way() -> None:
    """MS-DOM-5: had Rita chosen Andrew first, Andrew would be 3rd; without a choice the phase
    waits for her."""
    state = tv2_state()
    assert dominance.dominance_order(state, ["Andrew", "Phillip"]) == (
        "Rita", "Steve", "Andrew", "Phillip",
    )
    with pytest.raises(RuleViolation, match="MS-DOM-5"):
        phases.resolve_dominance(state)


def test_ms_dom_3_highest_score_first_descending() -> None:
    """MS-DOM-3: with no ties the order is by descending score (8, 7, 4, 3)."""
    scores = {"A": 4, "B": 8, "C": 3, "D": 7}
    temples = {"A": 1, "B": 2, "C": 0, "D": 5}
    assert dominance.rank(scores, temples, ["A", "B", "C", "D"]) == ("B", "D", "A", "C")


def test_ms_dom_4_best_single_temple_not_the_sum() -> None:
    """MS-DOM-4: at 9 each, a single 4-temple beats temples of 3 + 3."""
    kim = player("Kim", SUNS, "N", king=3)
    lee = player("Lee", MOONS, "S", king=5)
    state = game(
        [kim, lee],
        {"N-FL": (MOONS, 3), "N-FR": (MOONS, 2), "N-NL": (MOONS, 1), "S-FL": (MOONS, 4)},
        roads=[("Kim", "N-CAP", "N-FL"), ("Kim", "N-CAP", "N-FR"), ("Kim", "N-CAP", "N-NL"),
               ("Lee", "S-CAP", "S-FL")],
        order=("Kim", "Lee"), phase=DOMINANCE,
    )
    assert dominance.dominance_score(state, "Kim") == 9
    assert dominance.dominance_score(state, "Lee") == 9
    assert dominance.temple_values(state, "Kim") == (3, 2, 1)
    assert dominance.dominance_order(state) == ("Lee", "Kim")


def test_ms_amb_9_tie_for_first_without_temple_difference_keeps_previous_order() -> None:
    """MS-AMB-9: Kim and Lee tie at 5 and neither holds a temple (Max does): the earlier of them
    in the previous order stays ahead."""
    kim = player("Kim", SUNS, "N", king=5)
    lee = player("Lee", MOONS, "E", king=5)
    max_ = player("Max", CROWNS, "S", king=1)
    state = game(
        [kim, lee, max_], {"S-FL": (MOONS, 2)}, roads=[("Max", "S-CAP", "S-FL")],
        order=("Max", "Lee", "Kim"), phase=DOMINANCE,
    )
    assert dominance.dominance_order(state) == ("Lee", "Kim", "Max")


def test_ms_dom_2_amb_24_no_temple_anywhere_keeps_the_order() -> None:
    """MS-DOM-2, MS-AMB-24: nobody controls a temple (as in round 1): the order stands even though
    Lee's king is higher."""
    kim = player("Kim", SUNS, "N", king=1)
    lee = player("Lee", MOONS, "S", king=5)
    state = game([kim, lee], {"S-FL": (ARMS, 2)}, roads=[("Lee", "S-CAP", "S-FL")],
                 order=("Kim", "Lee"), phase=DOMINANCE)
    assert dominance.dominance_order(state) == ("Kim", "Lee")
    assert dominance.dominance_ties(state) == ()


def test_ms_unrest_5_unrest_lowers_the_dominance_score() -> None:
    """MS-DOM-1, MS-UNREST-5: king 4 + temple 5 - unrest 2 = 7."""
    assert dominance.dominance_score(tv2_state(), "Rita") == 7
