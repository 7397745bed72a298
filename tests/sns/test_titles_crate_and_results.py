"""Swords & Stones: Mystery Crate items (SNS-CRATE-1..8, SNS-AMB-24), game results
(SNS-RES-1..5, SNS-AMB-10) and the early-end score (SNS-SCORE-1..3, SNS-AMB-26, SNS-AMB-27)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt

KEY = tt.CrateItem("Rusty Key", tt.TOKEN, "Opens one locked thing.")
HORN = tt.CrateItem("War Horn", tt.GENERAL)
CLOAK = tt.CrateItem("Grey Cloak")
CARRY = gc.Options(crate_carryover=True)


def red_with(*items: tt.CrateItem) -> gc.Player:
    return gc.Player("red", king=gc.King("Aldous", crate_items=items))


# --- SNS-CRATE ----------------------------------------------------------------------------------


def test_sns_crate_1_a_sixteen_on_five_tables() -> None:
    """SNS-CRATE-1: a 16 on the Forest, Outcrop, Farm, Fishing or Favor event table finds a
    Mystery Crate; other results and tables do not."""
    for table in ("forest", "outcrop", "farm", "fishing", "favor"):
        assert tt.finds_mystery_crate(table, 16) is True
        assert tt.finds_mystery_crate(table, 15) is False
    assert tt.finds_mystery_crate("bandits", 16) is False


def test_sns_crate_1_wishes_move_items() -> None:
    """SNS-CRATE-1: From Sand To Solid keeps one of three drawn; From Solid To Sand removes the
    randomly picked item of another player."""
    assert tt.keep_one_of_three([KEY, HORN, CLOAK], "War Horn") == HORN
    with pytest.raises(gc.RuleViolation, match="draws three"):
        tt.keep_one_of_three([KEY, HORN], "War Horn")
    with pytest.raises(gc.RuleViolation, match="not one of the three"):
        tt.keep_one_of_three([KEY, HORN, CLOAK], "Sword")
    assert tt.remove_random_item([KEY, HORN, CLOAK], 2) == (KEY, CLOAK)
    with pytest.raises(gc.RuleViolation, match="from 1 to 3"):
        tt.remove_random_item([KEY, HORN, CLOAK], 4)
    with pytest.raises(gc.RuleViolation, match="holds no crate item"):
        tt.remove_random_item([], 1)


def test_sns_crate_2_and_sns_crate_8_items_are_free_text() -> None:
    """SNS-CRATE-2, SNS-CRATE-8: an item is a name, general or token, and an effect written by
    the table; a token passes once per move subphase to a touching friend."""
    assert (KEY.name, KEY.kind, KEY.effect) == ("Rusty Key", "token", "Opens one locked thing.")
    with pytest.raises(gc.RuleViolation, match="SNS-CRATE-8"):
        tt.CrateItem(" ")
    with pytest.raises(gc.RuleViolation, match="SNS-CRATE-2"):
        tt.CrateItem("Relic", "artefact")
    assert tt.may_pass_token(KEY, passes_this_move=0, touching_friend=True) is True
    assert tt.may_pass_token(KEY, passes_this_move=1, touching_friend=True) is False
    assert tt.may_pass_token(KEY, passes_this_move=0, touching_friend=False) is False
    assert tt.may_pass_token(HORN, passes_this_move=0, touching_friend=True) is False


def test_sns_crate_3_monsters_and_beasts_hold_nothing() -> None:
    """SNS-CRATE-3: any unit may hold items except Monsters and Beasts."""
    assert tt.may_hold_item("Knight") is True
    assert tt.may_hold_item("Monster") is False
    assert tt.may_hold_item("beast") is False


def test_sns_crate_4_items_of_a_removed_unit_are_discarded() -> None:
    """SNS-CRATE-4: a removed unit's items go to the discard pile for the rest of the game."""
    assert tt.carrier_removed([KEY, HORN], [CLOAK]) == ((), (CLOAK, KEY, HORN))


def test_sns_crate_5_carry_over_only_if_agreed_and_the_king_lives() -> None:
    """SNS-CRATE-5, SNS-AMB-24: carry-over is off by default; when agreed, a living King (also
    after surrender or flight) adds one item held at the end, items accumulate, and used or
    lost ones leave the inventory."""
    with pytest.raises(gc.RuleViolation, match="SNS-CRATE-5: this campaign does not carry"):
        tt.close_crate_inventory(red_with(), gc.ALIVE, carry=HORN)
    after = tt.close_crate_inventory(red_with(KEY), gc.SURRENDERED, carry=HORN, options=CARRY)
    assert after.king is not None
    assert after.king.crate_items == (KEY, HORN)
    used = tt.close_crate_inventory(red_with(KEY, HORN), gc.FLED, gone={"Rusty Key"},
                                    carry=CLOAK, options=CARRY)
    assert used.king is not None
    assert used.king.crate_items == (HORN, CLOAK)
    with pytest.raises(gc.RuleViolation, match="SNS-STAT-0f"):
        tt.close_crate_inventory(red_with(), "lost")


def test_sns_crate_6_a_carried_item_is_the_start_bonus() -> None:
    """SNS-CRATE-6, SNS-KING-2: using a carried item is the King's one start-of-game choice."""
    red = red_with(KEY)
    assert gc.declare_start_bonus(red, crate_item="Rusty Key").crate_item == "Rusty Key"


def test_sns_crate_7_death_takes_every_item() -> None:
    """SNS-CRATE-7, SNS-KING-3: the dead King's items are all lost; nothing is carried."""
    state = gc.CampaignState(gc.map_from_adjacency(["Vale"], []), (red_with(KEY, HORN),))
    state = state.with_map(state.map.with_holdings({"Vale": gc.Holding(gc.CAPITAL, "red")}))
    after, loss = gc.king_dies(state, "red")
    assert loss.crate_items == (KEY, HORN)
    assert after.player("red").king is None
    assert tt.close_crate_inventory(after.player("red"), gc.DEAD, options=CARRY) == \
        after.player("red")


# --- SNS-RES ------------------------------------------------------------------------------------


def test_sns_res_1_by_sword_and_by_stone() -> None:
    """SNS-RES-1: the last King standing wins By Sword; a Monument standing 25 turns wins By
    Stone."""
    assert tt.sword_victory(["red"]) == "red"
    assert tt.sword_victory(["red", "blue"]) is None
    assert tt.stone_victory(25) is True
    assert tt.stone_victory(24) is False


def test_sns_res_2_a_player_whose_king_died_cannot_win() -> None:
    """SNS-RES-2, SNS-KING-5: a result naming a dead King's player as winner is refused."""
    result = tt.GameResult(winners=("red",), losers=("blue",))
    assert tt.check_result(result, {"red": gc.ALIVE, "blue": gc.DEAD}) == result
    with pytest.raises(gc.RuleViolation, match="SNS-RES-2: red's King dead"):
        tt.check_result(result, {"red": gc.DEAD})


def test_sns_res_3_teams_share_the_victory() -> None:
    """SNS-RES-3, SNS-AMB-10: with team victories every member of the winning side wins and
    every other player loses; no winning side is a draw."""
    sides = {"north": ["red", "green"], "south": ["blue"]}
    result = tt.sides_result(sides, "north")
    assert (result.winners, result.losers, result.drawn) == (("red", "green"), ("blue",), ())
    assert result.result_of("green") == gc.WIN
    assert result.result_of("blue") == gc.LOSS
    drawn = tt.sides_result(sides, None)
    assert drawn.drawn == ("red", "green", "blue")
    assert drawn.result_of("red") == gc.DRAW
    with pytest.raises(gc.RuleViolation, match="SNS-RES-5"):
        result.result_of("orcs")
    with pytest.raises(gc.RuleViolation, match="SNS-RES-3: a player plays on one side"):
        tt.sides_result({"a": ["red"], "b": ["red"]}, "a")
    with pytest.raises(gc.RuleViolation, match="SNS-RES-3: there is no side"):
        tt.sides_result(sides, "east")


def test_sns_res_4_early_end_needs_a_lead_of_ten() -> None:
    """SNS-RES-4, SNS-SCORE-3, SNS-AMB-9: an early-ended game goes to a score 10 or more ahead
    of the next; 9 ahead is a draw."""
    won = tt.early_end({"red": 60, "blue": 50, "green": 12})
    assert (won.winners, won.losers) == (("red",), ("blue", "green"))
    drawn = tt.early_end({"red": 59, "blue": 50})
    assert (drawn.winners, drawn.drawn) == ((), ("red", "blue"))
    with pytest.raises(gc.RuleViolation, match="SNS-RES-4"):
        tt.early_end({"red": 10})


def test_sns_res_5_any_mode_only_win_loss_or_draw() -> None:
    """SNS-RES-5: whatever the mode, the campaign takes a win, a loss or a draw."""
    assert gc.RESULTS == ("win", "loss", "draw")


# --- SNS-SCORE ----------------------------------------------------------------------------------


def test_sns_amb_27_score_table_fills_the_blank_lines() -> None:
    """SNS-SCORE-1, SNS-AMB-27: the four blank lines take the number above: Veteran or Bomb
    units 3, Towers 4, upgrades 4, Completed Wall 10."""
    table = tt.SCORE_TABLE
    assert (table["veteran_or_bomb_units"], table["towers"], table["upgrades"],
            table["completed_walls"]) == (3, 4, 4, 10)
    assert (table["units"], table["ships"], table["dragons_queens_casters"], table["castles"],
            table["monuments"]) == (1, 3, 6, 10, 20)


def test_sns_score_2_the_damned_keep_seventy_percent_rounded_up() -> None:
    """SNS-SCORE-1, SNS-SCORE-2, SNS-AMB-26: 12 units, 5 favor, 8 military on land, 1 Castle,
    2 operational buildings: 12 + 5 + 8 + 10 + 8 = 43; the Damned score 31 (30.1 up)."""
    counts = {"units": 12, "favor": 5, "military_on_land": 8, "castles": 1,
              "operational_buildings": 2}
    assert tt.score_total(counts) == 43
    assert tt.score_total(counts, damned=True) == 31
    assert tt.score_total({"units": 10}, damned=True) == 7
    with pytest.raises(gc.RuleViolation, match="SNS-SCORE-1: nothing scores for gems"):
        tt.score_total({"gems": 3})
