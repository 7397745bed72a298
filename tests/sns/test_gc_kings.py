"""Swords & Stones Grand Campaign: Kings, the start-of-game bonus, death and succession
(SNS-KING-1..7, SNS-AMB-21, SNS-AMB-23, SNS-AMB-25) and the worked example D.6."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from tests.sns.test_gc_map import campaign, player, sq, view

RUSTY_KEY = tt.CrateItem("Rusty Key", tt.TOKEN, "Opens one locked thing.")
HORN = tt.CrateItem("War Horn")


def crowned(state: gc.CampaignState, pid: str, name: str, titles: tuple[str, ...] = (),
            items: tuple[tt.CrateItem, ...] = ()) -> gc.CampaignState:
    p = state.player(pid)
    return state.with_player(replace(p, king=gc.King(name, 1, frozenset(titles), items)))


D6 = {
    "A1": (gc.CAPITAL, "red"), "B1": (gc.CLAIMED, "red"), "B2": (gc.SETTLED, "red"),
    "C3": (gc.CAPITAL, "blue"), "A2": (gc.CLAIMED, "blue"), "B3": (gc.CLAIMED, "blue"),
}


def test_sns_king_1_titles_and_items_travel_with_the_king() -> None:
    """SNS-KING-1: a King keeps his Titles and crate items from game to game; a challenge
    changes land, not the King."""
    state = crowned(campaign(3, 3, D6), "red", "Aldous", ("FRUGAL",), (RUSTY_KEY,))
    challenge = gc.issue_challenge(state, "red", sq("A2"), "blue")
    after = gc.resolve_challenge(state, challenge, gc.WIN).state
    king = after.player("red").king
    assert king == gc.King("Aldous", 1, frozenset({"FRUGAL"}), (RUSTY_KEY,))


def test_sns_king_2_one_title_or_one_crate_item_at_game_start() -> None:
    """SNS-KING-2, SNS-TITLE-G3, SNS-CRATE-6, SNS-AMB-21: before play the King uses one held
    Title or one carried item, not both; with two slots, one of each."""
    state = crowned(campaign(3, 3, D6), "red", "Aldous", ("FRUGAL", "BRAVE"), (RUSTY_KEY,))
    red = state.player("red")
    assert gc.declare_start_bonus(red, title="FRUGAL") == gc.StartDeclaration("red", "FRUGAL")
    assert gc.declare_start_bonus(red, crate_item="Rusty Key").crate_item == "Rusty Key"
    assert gc.declare_start_bonus(red) == gc.StartDeclaration("red")
    with pytest.raises(gc.RuleViolation, match="SNS-KING-2: use one Title or one crate item"):
        gc.declare_start_bonus(red, title="FRUGAL", crate_item="Rusty Key")
    both = gc.declare_start_bonus(red, "BRAVE", "Rusty Key", gc.Options(start_bonus_slots=2))
    assert (both.title, both.crate_item) == ("BRAVE", "Rusty Key")
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G3: King Aldous does not hold"):
        gc.declare_start_bonus(red, title="MYSTIC")
    with pytest.raises(gc.RuleViolation, match="SNS-CRATE-6"):
        gc.declare_start_bonus(red, crate_item="War Horn")


def test_sns_king_3_death_loses_titles_and_items_but_not_land_or_points() -> None:
    """SNS-KING-3, SNS-TITLE-G4, SNS-CRATE-7, SNS-PTS-2: the dead King's Titles and items are
    gone; land, points and the Capital flag stay; the heir needs a new name."""
    state = crowned(campaign(3, 3, D6), "red", "Aldous", ("FRUGAL", "BRAVE"), (RUSTY_KEY,))
    state = state.with_player(replace(state.player("red"), capital_fortified=False))
    ledger = pts.game_points(["red"], ["blue"])
    after, loss = gc.king_dies(state, "red")
    assert loss == gc.KingLoss("Aldous", frozenset({"FRUGAL", "BRAVE"}), (RUSTY_KEY,), True)
    red = after.player("red")
    assert red.king is None
    assert red.past_kings == ("Aldous",)
    assert red.capital_fortified is False
    assert view(after) == view(state)
    assert pts.balance(ledger, "red") == pts.Points(vp=1, ven=0)
    with pytest.raises(gc.RuleViolation, match="SNS-KING-3: red must name the new King"):
        gc.declare_start_bonus(red)
    with pytest.raises(gc.RuleViolation, match="SNS-KING-3: the heir needs a new name"):
        gc.crown_heir(after, "red", "aldous")
    with pytest.raises(gc.RuleViolation, match="SNS-KING-3: the new King needs a name"):
        gc.crown_heir(after, "red", "  ")
    crowned_heir = gc.crown_heir(after, "red", "Bertram")
    assert crowned_heir.player("red").king == gc.King("Bertram", reign=2)
    with pytest.raises(gc.RuleViolation, match="already has a living King"):
        gc.crown_heir(crowned_heir, "red", "Cedric")
    with pytest.raises(gc.RuleViolation, match="SNS-KING-3: .* no King on the throne"):
        gc.king_dies(after, "red")


def test_sns_king_3_no_land_no_heir() -> None:
    """SNS-KING-3, SNS-CAP-4: a player without land has no throne for an heir."""
    state = campaign(3, 3, D6, players=(player("red"), player("blue"), player("green")))
    after, loss = gc.king_dies(state, "green")
    assert loss.heir_needed is False
    with pytest.raises(gc.RuleViolation, match="SNS-CAP-4"):
        gc.crown_heir(after, "green", "Gwyn")


def test_sns_king_4_surrender_or_flight_saves_the_king_and_loses_the_game() -> None:
    """SNS-KING-4, SNS-AMB-23: a King whose surrender is accepted, or who flees the table,
    lives on with his Titles and may carry an item; the game is lost."""
    for outcome in (gc.SURRENDERED, gc.FLED):
        fate = gc.king_fate(outcome)
        assert fate == gc.KingFate(outcome, game_lost=True, titles_lost=False,
                                   may_take_title=True, may_carry_crate_item=True,
                                   new_name_needed=False)
    assert gc.king_fate(gc.ALIVE).game_lost is False
    with pytest.raises(gc.RuleViolation, match="SNS-STAT-0f"):
        gc.king_fate("captured")


def test_sns_king_5_a_dead_king_loses_the_game() -> None:
    """SNS-KING-5, SNS-AMB-25: death means a lost game, no Title from it, nothing carried and
    a new name; Hero King or a wound-ignoring effect keeps the King alive."""
    assert gc.king_fate(gc.DEAD) == gc.KingFate(
        gc.DEAD, game_lost=True, titles_lost=True, may_take_title=False,
        may_carry_crate_item=False, new_name_needed=True,
    )
    assert gc.fatal_wound(unconscious=False) == gc.KILLED
    assert gc.fatal_wound(unconscious=False, hero_king=True) == gc.KNOCKED_OUT
    assert gc.fatal_wound(unconscious=True, can_ignore=True) == gc.WOUND_IGNORED


def test_sns_king_6_unconscious_twice_is_death() -> None:
    """SNS-KING-6: an unconscious King sits out 3 turns; knocked out again meanwhile, he dies."""
    assert gc.UNCONSCIOUS_TURNS == 3
    assert gc.fatal_wound(unconscious=True, hero_king=True) == gc.KILLED


def test_sns_king_7_names_announced_kingdom_outlives_the_king() -> None:
    """SNS-KING-7: King, Kingdom and Faction are announced at setup; after a succession the
    Kingdom's name stays and the King's changes."""
    state = crowned(campaign(3, 3, D6), "red", "Aldous")
    red = state.player("red")
    assert gc.announce(red, gc.AVALONIAN) == gc.Announcement("Aldous", "Red Realm", "avalonian")
    after, _ = gc.king_dies(state, "red")
    after = gc.crown_heir(after, "red", "Bertram")
    assert gc.announce(after.player("red"), gc.PAGANITE) == gc.Announcement(
        "Bertram", "Red Realm", "paganite")
    with pytest.raises(gc.RuleViolation, match="SNS-KING-7"):
        gc.announce(red, "elves")


def test_d6_king_death_in_a_lost_challenge() -> None:
    """D.6 (SNS-KING-3, SNS-CRATE-5, SNS-CRATE-7, SNS-AMB-25): Aldous (The Frugal, The Brave,
    Rusty Key; Red 1 VP, 0 Ven) dies losing the challenge for Blue's claimed A2, having met The
    Raider's condition. A2 is settled by Blue, Blue +1 VP, Red 0 -> 1 Ven and still 1 VP; the
    heir Bertram has no Title and no item; The Raider is not awarded; nothing carries over."""
    options = gc.Options(crate_carryover=True)
    state = crowned(campaign(3, 3, D6), "red", "Aldous", ("FRUGAL", "BRAVE"), (RUSTY_KEY,))
    ledger = list(pts.game_points(["red"], []))
    challenge = gc.issue_challenge(state, "red", sq("A2"), "blue")
    out = gc.resolve_challenge(state, challenge, gc.LOSS)
    ledger += pts.game_points(out.winners, out.losers)
    assert view(out.state)["A2"] == (gc.SETTLED, "blue")
    assert pts.balance(ledger, "red") == pts.Points(vp=1, ven=1)
    assert pts.balance(ledger, "blue") == pts.Points(vp=1, ven=0)
    report = tt.suggest_titles(tt.GameReport(
        "red", gc.LOSS, gc.AVALONIAN, king_outcome=gc.DEAD, enemy_farms_destroyed_before_t30=3,
    ), held=("FRUGAL", "BRAVE"))
    assert report.suggestions == ()
    assert [s.code for s in report.voided] == ["RAIDER"]
    with pytest.raises(gc.RuleViolation, match="SNS-CRATE-5: only a living King"):
        tt.close_crate_inventory(out.state.player("red"), gc.DEAD, carry=HORN, options=options)
    state, loss = gc.king_dies(out.state, "red")
    assert loss.titles == frozenset({"FRUGAL", "BRAVE"})
    assert loss.crate_items == (RUSTY_KEY,)
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-25"):
        tt.award_titles(state.player("red"), report, ["RAIDER"])
    state = gc.crown_heir(state, "red", "Bertram")
    assert state.player("red").king == gc.King("Bertram", reign=2)
    assert tt.close_crate_inventory(state.player("red"), gc.ALIVE) == state.player("red")
    assert pts.balance(ledger, "red") == pts.Points(vp=1, ven=1)
    assert view(state) == view(out.state)
