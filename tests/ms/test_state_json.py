"""A game state survives the trip to plain JSON and back, and options parse with their defaults
(section 20 of the digest; MS-AMB-1, MS-AMB-2, MS-AMB-3, MS-AMB-5, MS-AMB-11)."""

from __future__ import annotations

import json

import pytest

from campaign.rules.options import OptionError
from campaign.systems.middle_sea.rules import state as st
from campaign.systems.middle_sea.rules.board import ARMS, CROWNS, MOONS, SUNS
from campaign.systems.middle_sea.rules.state import GameState, MSOptions, Rebellion, Turn
from tests.ms.factory import game, player


def busy_state() -> GameState:
    rita = player("Rita", SUNS, "N", king=4, placed={0: ("N-FL", False), 3: "S-FM"}, unrest=2,
                  goods=7, gold=1)
    steve = player("Steve", MOONS, "S", king=2, placed={5: "S-NL"})
    state = game(
        [rita, steve],
        {"N-FL": (ARMS, 3), "N-NR": (MOONS, 5), "S-FM": (CROWNS, 2), "S-NL": (SUNS, 4)},
        roads=[("Rita", "N-CAP", "N-FL"), ("Rita", "N-NR", "N-CAP"), ("Steve", "S-CAP", "S-NL")],
        ports=[("Rita", "S-FM", 3)],
        order=("Steve", "Rita"), turn=1,
        options=MSOptions(move_inactivates=True, score_tiebreak=st.SCORE_TIE_DOMINANCE),
    )
    return GameState(**{
        **{f: getattr(state, f) for f in state.__dataclass_fields__},
        "round": 3,
        "current": Turn(control_settled=True, king_changed=True, last_leader=2, actions=1,
                        attacks=(("Steve", "military"),)),
        "rebellion": Rebellion("Rita", ("N-NR",), st.BY_MISSIONARY),
        "time_called": True,
    })


def test_ms_state_round_trips_through_json() -> None:
    """Section 20: ``to_dict`` gives plain JSON and ``from_dict`` rebuilds an equal state."""
    state = busy_state()
    text = json.dumps(state.to_dict(), sort_keys=True)
    again = GameState.from_dict(json.loads(text))
    assert again == state
    assert again.to_dict()["stacks"]["arms"] == [1, 2, 4, 5]
    assert again.to_dict()["current"]["attacks"] == [["Steve", "military"]]
    assert again.rebellion == Rebellion("Rita", ("N-NR",), "missionary")
    assert again.options.move_inactivates is True


def test_ms_state_round_trips_an_ended_game() -> None:
    """MS-WIN-1: the end reason, losers and winners are kept too."""
    from campaign.systems.middle_sea.rules.scoring import end_game

    state = end_game(busy_state(), st.CIVIL_WAR, losers=("Rita",))
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert (again.ended, again.end_reason, again.losers, again.winners) == (
        True, "civil_war", ("Rita",), ("Steve",),
    )
    assert again == state


def test_ms_amb_options_defaults_and_parsing() -> None:
    """MS-AMB-1, MS-AMB-2, MS-AMB-3, MS-AMB-5, MS-AMB-11: the defaults, and stored JSON parsed
    back; unknown or ill-typed options are refused."""
    assert MSOptions.from_dict(None).to_dict() == {
        "reserve_counts_active": True, "move_inactivates": False,
        "port_anywhere_unlocks": True, "rebellion_hires": False, "score_tiebreak": "shared",
    }
    assert MSOptions.from_dict({"rebellion_hires": True}).rebellion_hires is True
    with pytest.raises(OptionError):
        MSOptions.from_dict({"dice": 3})
    with pytest.raises(OptionError):
        MSOptions.from_dict({"score_tiebreak": "coin"})
