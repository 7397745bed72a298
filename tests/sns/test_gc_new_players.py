"""Swords & Stones Grand Campaign: players joining a running campaign (SNS-NEW-1..5,
SNS-AMB-3, SNS-AMB-17) and the worked example D.7."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from tests.sns.test_gc_map import campaign, player, sq, square_map, view

GREEN = player("green", "Gwyn")

# D.7: Red holds Capital + 1 settled + 3 claimed, Blue Capital + 2 claimed, 6 unclaimed
# (a 5x3 map with one water square).
D7 = {
    "A1": (gc.CAPITAL, "red"), "A2": (gc.SETTLED, "red"), "A3": (gc.CLAIMED, "red"),
    "B1": (gc.CLAIMED, "red"), "B2": (gc.CLAIMED, "red"),
    "E3": (gc.CAPITAL, "blue"), "E2": (gc.CLAIMED, "blue"), "D3": (gc.CLAIMED, "blue"),
}


def test_d7_new_player_from_unclaimed_land() -> None:
    """D.7 (SNS-NEW-1, SNS-NEW-2, SNS-NEW-3, SNS-NEW-4, SNS-AMB-3): the reference is Blue
    (3 Territories: settled 1 counting its Capital, claimed 2); Green gets 1 settled and 2
    claimed from unclaimed land and the settled one becomes its Capital."""
    state = campaign(5, 3, D7, water=("C2",))
    assert len(state.map.unclaimed()) == 6
    proposal = gc.propose_new_player(state, GREEN)
    assert proposal.reference == "blue"
    assert (proposal.settled, proposal.claimed) == (1, 2)
    assert proposal.taken == ()
    assert len(proposal.from_unclaimed) == 3
    count = gc.holding_count(proposal.state.map, "green")
    assert (count.capital, count.settled, count.claimed) == (1, 0, 2)
    assert gc.capital_of(proposal.state.map, "green") == proposal.capital
    assert proposal.capital in proposal.from_unclaimed
    assert [c.rule_id for c in proposal.changes if c.after.state == gc.CAPITAL] == ["SNS-NEW-4"]
    assert proposal.state.player("green").king == gc.King("Gwyn")
    assert [p.id for p in proposal.state.players] == ["red", "blue", "green"]
    assert gc.holding_count(proposal.state.map, "red").territories == 5
    assert gc.holding_count(proposal.state.map, "blue").territories == 3


def test_d7_variant_claimed_land_taken_from_the_largest_holder() -> None:
    """D.7 variant (SNS-NEW-3, SNS-AMB-17): one unclaimed Territory only: Green takes it (its
    Capital) and two claimed Territories from Red, who still holds the most after the first
    (4 against Blue's 3). Red drops to Capital + 1 settled + 1 claimed."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A2": (gc.SETTLED, "red"), "A3": (gc.CLAIMED, "red"),
        "B1": (gc.CLAIMED, "red"), "B2": (gc.CLAIMED, "red"),
        "C3": (gc.CAPITAL, "blue"), "C2": (gc.CLAIMED, "blue"), "B3": (gc.CLAIMED, "blue"),
    })
    proposal = gc.propose_new_player(state, GREEN)
    assert proposal.from_unclaimed == (sq("C1"),)
    assert proposal.capital == sq("C1")
    assert proposal.taken == ((sq("B1"), "red"), (sq("B2"), "red"))
    after = view(proposal.state)
    assert after["C1"] == (gc.CAPITAL, "green")
    assert after["B1"] == (gc.CLAIMED, "green")
    assert after["B2"] == (gc.CLAIMED, "green")
    red = gc.holding_count(proposal.state.map, "red")
    assert (red.capital, red.settled, red.claimed) == (1, 1, 1)
    blue = gc.holding_count(proposal.state.map, "blue")
    assert (blue.capital, blue.settled, blue.claimed) == (1, 0, 2)


def test_sns_amb_17_ties_and_settled_places_filled_first() -> None:
    """SNS-AMB-17: of two players with the least land, the one with fewer settled is the
    reference; unclaimed land fills settled places first; a tie for the most land is left to
    the GM in the notes (SNS-NEW-5)."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A2": (gc.SETTLED, "red"), "B1": (gc.CLAIMED, "red"),
        "C3": (gc.CAPITAL, "blue"), "C2": (gc.CLAIMED, "blue"), "B3": (gc.CLAIMED, "blue"),
    })
    proposal = gc.propose_new_player(state, GREEN, anchor=sq("C1"))
    assert proposal.reference == "blue"
    assert (proposal.settled, proposal.claimed) == (1, 2)
    assert proposal.capital == sq("C1")
    assert proposal.from_unclaimed == (sq("C1"), sq("B2"), sq("A3"))
    crowded = campaign(2, 2, {
        "A1": (gc.CAPITAL, "red"), "A2": (gc.CLAIMED, "red"),
        "B1": (gc.CAPITAL, "blue"), "B2": (gc.CLAIMED, "blue"),
    })
    tied = gc.propose_new_player(crowded, GREEN)
    assert (tied.settled, tied.claimed) == (1, 1)
    assert tied.taken == ((sq("A2"), "red"), (sq("B2"), "blue"))
    assert view(tied.state)["A2"] == (gc.CAPITAL, "green")
    assert view(tied.state)["B2"] == (gc.CLAIMED, "green")
    assert any("tie for the most land" in note for note in tied.notes)


def test_sns_amb_3_capital_not_settled_changes_the_entitlement() -> None:
    """SNS-AMB-3, SNS-NEW-2, SNS-NEW-4: if a Capital is not settled land, Blue's entitlement is
    0 settled and 2 claimed, and one of Green's claims becomes its Capital."""
    options = gc.Options(capital_counts_as_settled=False)
    proposal = gc.propose_new_player(campaign(5, 3, D7, water=("C2",)), GREEN, options)
    assert (proposal.settled, proposal.claimed) == (0, 2)
    count = gc.holding_count(proposal.state.map, "green", options)
    assert (count.capital, count.settled, count.claimed) == (1, 0, 1)


def test_sns_new_5_refusals_and_a_returning_player() -> None:
    """SNS-NEW-1, SNS-NEW-5, SNS-CAP-4: a player already in the campaign cannot join again; a
    player who lost everything may come back under the rejoin house rule."""
    state = campaign(3, 1, {
        "A1": (gc.CAPITAL, "red"), "C1": (gc.CAPITAL, "blue"),
    })
    with pytest.raises(gc.RuleViolation, match="SNS-NEW-1"):
        gc.propose_new_player(state, player("red"))
    with pytest.raises(gc.RuleViolation, match="SNS-KING-7"):
        gc.propose_new_player(state, gc.Player("green"))
    challenge = gc.issue_challenge(state, "red", sq("C1"), "blue")
    out = gc.resolve_challenge(state, challenge, gc.WIN,
                               gc.Options(on_last_territory_lost=gc.REJOIN_AS_NEW))
    assert out.rejoin is True
    back = gc.propose_new_player(out.state, player("blue", "Brannoc"))
    assert back.reference == "red"
    assert (back.settled, back.claimed) == (1, 1)
    assert back.from_unclaimed == (sq("B1"),)
    assert back.taken == ((sq("C1"), "red"),)
    assert view(back.state) == {
        "A1": (gc.CAPITAL, "red"), "B1": (gc.CAPITAL, "blue"), "C1": (gc.CLAIMED, "blue"),
    }
    assert back.state.player("blue").eliminated is False
    assert back.state.player("blue").king == gc.King("Brannoc")
    nobody_holds_land = gc.start_campaign(square_map(2, 1), [player("red")])
    with pytest.raises(gc.RuleViolation, match="SNS-NEW-2"):
        gc.propose_new_player(nobody_holds_land, GREEN)
