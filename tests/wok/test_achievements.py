"""War of Kings achievements and victory by rule ID (WOK-ACH-*, WOK-WIN-*, WOK-AMB-1..5)."""

from __future__ import annotations

from campaign.systems.war_of_kings.rules import achievements as ach
from campaign.systems.war_of_kings.rules.board import (
    CASTLE,
    CITY,
    FORTRESS,
    MALADOR,
    TOWN,
    VILLAGE,
    WALLS,
)
from campaign.systems.war_of_kings.rules.options import HOLDER_KEEPS, STRICT, Options
from tests.wok.factory import hold, world

H = ach.Holders


def chain_world(kingdom: str, n: int, level: int = 0, prefix: str = ""):
    """``n`` territories in a road line from the capital, each holding ``level``."""
    codes = [f"{prefix}{i}" for i in range(n)]
    holdings = {c: hold(kingdom, level) for c in codes}
    return codes, holdings


def two_kingdoms(red_codes: int, blue_codes: int, red_level: int = 0, blue_level: int = 0):
    r, rh = chain_world("Red", red_codes, red_level, "R")
    b, bh = chain_world("Blue", blue_codes, blue_level, "B")
    roads = [f"{x}-{y}" for x, y in zip(r, r[1:])] + [f"{x}-{y}" for x, y in zip(b, b[1:])]
    return world(r + b, roads, rh | bh, roads=roads, capitals={"Red": "R0", "Blue": "B0"})


def test_wok_ach_1_settlement_ap_any_culture() -> None:
    """WOK-ACH-1, WOK-CULT-8: 1/2/3 AP per village/town/city controlled, foreign ones too;
    settlements held by others score nothing."""
    state = world(["A", "B", "C", "D"], [],
                  {"A": hold("Red", CITY), "B": hold("Red", TOWN, cult="Blue"),
                   "C": hold("Red", VILLAGE, cult=MALADOR), "D": hold("Blue", TOWN, cult="Red")},
                  capitals={"Red": "A", "Blue": "D"})
    assert ach.settlement_ap(state, "Red") == 6
    assert ach.settlement_ap(state, "Blue") == 2


def test_wok_ach_2_summary_values_and_thresholds() -> None:
    """WOK-ACH-2: Empire 2 AP, Heavily Fortified 2 AP at 5 levels, Master Merchant 24 gold and
    Warlord 7 territories, 1 AP each by default."""
    assert (ach.EMPIRE_AP, ach.FORTIFIED_AP, ach.FORTIFIED_THRESHOLD) == (2, 2, 5)
    assert (ach.MERCHANT_THRESHOLD, ach.WARLORD_THRESHOLD) == (24, 7)
    assert (Options().merchant_ap, Options().warlord_ap) == (1, 1)


def test_wok_ach_3_empire_needs_capital_city_and_three_foreign_levels() -> None:
    """WOK-ACH-3, WOK-CAP-4: two foreign villages are 2 levels, not enough; three villages are;
    a town capital is not enough."""
    base = {"A": hold("Red", CITY), "B": hold("Red", VILLAGE, cult="Blue"),
            "C": hold("Red", VILLAGE, cult=MALADOR)}
    codes = ["A", "B", "C", "D"]
    two = world(codes, [], base, capitals={"Red": "A"})
    assert ach.empire_check(two, "Red") == ach.EmpireCheck(True, 2, 2)
    assert not ach.empire(two, "Red")
    three = world(codes, [], base | {"D": hold("Red", VILLAGE, cult="Blue")},
                  capitals={"Red": "A"})
    assert ach.empire(three, "Red")
    town_capital = world(codes, [], three.holdings | {"A": hold("Red", TOWN)},
                         capitals={"Red": "A"})
    assert ach.empire_check(town_capital, "Red") == ach.EmpireCheck(False, 3, 3)
    assert not ach.empire(town_capital, "Red")


def test_wok_amb_5_empire_capital_must_be_held_city_of_any_culture() -> None:
    """WOK-AMB-5: a foreign city in the own capital counts as the city and as a foreign
    settlement; a lost capital ends the Empire."""
    state = world(["A", "B"], [], {"A": hold("Red", CITY, cult="Blue"),
                                   "B": hold("Red", VILLAGE, cult="Blue")},
                  capitals={"Red": "A", "Blue": "B"})
    assert ach.empire_check(state, "Red") == ach.EmpireCheck(True, 2, 4)
    lost = state.with_holding("A", hold("Blue", CITY))
    assert ach.empire_check(lost, "Red").capital_city is False


def test_wok_ach_4_heavily_fortified_lost_below_five() -> None:
    """WOK-ACH-4: a castle and walls make 4 levels, not enough; a fortress and a castle make 5;
    losing the castle territory loses it."""
    state = world(["A", "B"], [], {"A": hold("Red", TOWN, fort=CASTLE),
                                   "B": hold("Red", VILLAGE, fort=WALLS)}, capitals={"Red": "A"})
    assert (ach.fort_levels(state, "Red"), ach.heavily_fortified(state, "Red")) == (4, False)
    state = state.with_holding("B", hold("Red", VILLAGE, fort=FORTRESS))
    assert (ach.fort_levels(state, "Red"), ach.heavily_fortified(state, "Red")) == (5, True)
    lost = state.with_holding("A", hold("Blue", TOWN, cult="Red", fort=CASTLE))
    assert ach.heavily_fortified(lost, "Red") is False


def test_wok_ach_5_master_merchant_award_tie_and_transfer() -> None:
    """WOK-ACH-5: awarded to a single player on top at 24 or more; a tie among newcomers awards
    nobody; a holder tied keeps it; a challenger strictly above takes it."""
    assert ach.update_exclusive(None, {"Red": 24, "Blue": 20}, 24) == "Red"
    assert ach.update_exclusive(None, {"Red": 27, "Blue": 27}, 24) is None
    assert ach.update_exclusive("Red", {"Red": 27, "Blue": 27}, 24) == "Red"
    assert ach.update_exclusive("Red", {"Red": 27, "Blue": 30, "Green": 28}, 24) == "Blue"
    assert ach.update_exclusive(None, {"Red": 23, "Blue": 12}, 24) is None


def test_wok_amb_27_below_threshold_first_then_challengers() -> None:
    """WOK-AMB-27: a holder at 20 loses the card first; then Blue at 25 takes it as a newcomer
    even though Green (22) is above the holder but under 24."""
    assert ach.update_exclusive("Red", {"Red": 20, "Blue": 25, "Green": 22}, 24) == "Blue"
    assert ach.update_exclusive("Red", {"Red": 20, "Blue": 22}, 24) is None


def test_wok_amb_4_tied_challengers_vacate_or_holder_keeps() -> None:
    """WOK-AMB-4: two challengers tied above the holder: the card goes back by default; with
    ``holder_keeps`` the holder keeps it."""
    values = {"Red": 25, "Blue": 30, "Green": 30}
    assert ach.update_exclusive("Red", values, 24) is None
    assert ach.update_exclusive("Red", values, 24, Options(tied_challengers=HOLDER_KEEPS)) \
        == "Red"


def test_wok_ach_6_warlord_counts_territories() -> None:
    """WOK-ACH-6: 7 territories, settled or not, take Warlord; 6 do not."""
    state = two_kingdoms(7, 6)
    assert ach.warlord_values(state) == {"Red": 7, "Blue": 6}
    assert ach.update_holders(state, H()).warlord == "Red"
    assert ach.update_holders(two_kingdoms(6, 6), H()).warlord is None


def test_wok_amb_2_merchant_metric_is_full_gold_generation() -> None:
    """WOK-AMB-2, WOK-ACH-5: the capital city counts: 9 + 3 towns of 6 = 27 gold takes Master
    Merchant."""
    state = world(["A", "B", "C", "D"], ["A-B", "A-C", "A-D"],
                  {"A": hold("Red", CITY), "B": hold("Red", TOWN), "C": hold("Red", TOWN),
                   "D": hold("Red", TOWN)}, roads=["A-B", "A-C", "A-D"],
                  capitals={"Red": "A"})
    assert ach.merchant_values(state) == {"Red": 27}
    assert ach.update_holders(state, H()).master_merchant == "Red"


def test_wok_ach_7_any_number_of_empires_and_one_card_each_exclusive() -> None:
    """WOK-ACH-7, WOK-ACH-3: two kingdoms hold an Empire at once; each exclusive card has one
    holder."""
    holdings = {"A": hold("Red", CITY), "B": hold("Red", TOWN, cult="Blue"),
                "C": hold("Red", VILLAGE, cult="Blue"),
                "D": hold("Blue", CITY), "E": hold("Blue", TOWN, cult="Red"),
                "F": hold("Blue", VILLAGE, cult="Red")}
    state = world(list("ABCDEF"), [], holdings, capitals={"Red": "A", "Blue": "D"})
    assert [ach.empire(state, k) for k in ("Red", "Blue")] == [True, True]
    holders = ach.update_holders(two_kingdoms(8, 7), H())
    assert (holders.warlord, holders.master_merchant) == ("Red", None)


def test_wok_ach_8_total_ap() -> None:
    """WOK-ACH-8: settlements 9 + Empire 2 + Heavily Fortified 2 + Warlord 1 = 14; Master
    Merchant held by another adds nothing."""
    holdings = {"A": hold("Red", CITY, fort=CASTLE), "B": hold("Red", TOWN, cult="Blue",
                                                                 fort=FORTRESS),
                "C": hold("Red", VILLAGE, cult="Blue"), "D": hold("Red", TOWN),
                "E": hold("Red", VILLAGE)}
    state = world(list("ABCDE"), [], holdings, capitals={"Red": "A"})
    s = ach.score(state, "Red", H(master_merchant="Blue", warlord="Red"))
    assert (s.settlements, s.empire, s.fortified, s.merchant, s.warlord, s.total) == \
        (9, 2, 2, 0, 1, 14)


def test_wok_amb_1_exclusive_cards_worth_one_or_two() -> None:
    """WOK-AMB-1, WOK-V06-13: 1 AP each by default; 2 when configured."""
    state = world(["A"], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"})
    holders = H(master_merchant="Red", warlord="Red")
    assert ach.score(state, "Red", holders).total == 4
    assert ach.score(state, "Red", holders, Options(merchant_ap=2, warlord_ap=2)).total == 6


def test_wok_amb_3_strict_timing_loses_on_a_dip() -> None:
    """WOK-AMB-3: Red holds Warlord, dips to 6 territories mid-round and recovers to 7 tied with
    Blue. End-of-round timing: Red keeps it. Strict: the dip loses it and the tie awards
    nobody."""
    dip = two_kingdoms(6, 7)
    end = two_kingdoms(7, 7)
    held = H(warlord="Red")
    assert ach.strict_losses(dip, held) == held
    assert ach.end_of_round(end, ach.strict_losses(dip, held)).holders.warlord == "Red"
    strict = Options(exclusive_timing=STRICT)
    after_dip = ach.strict_losses(dip, held, strict)
    assert after_dip.warlord is None
    assert ach.end_of_round(end, after_dip, strict).holders.warlord is None


def test_wok_win_1_thirteen_ap_at_the_end_of_a_round() -> None:
    """WOK-WIN-1: 13 AP wins; 12 does not."""
    state = world(list("ABCDE"), [], {"A": hold("Red", CITY), "B": hold("Red", CITY),
                                      "C": hold("Red", CITY), "D": hold("Red", TOWN),
                                      "E": hold("Red", TOWN)}, capitals={"Red": "A"})
    assert ach.end_of_round(state, H()).ap("Red") == 13
    assert ach.end_of_round(state, H()).winner == "Red"
    short = state.with_holding("E", hold("Red", VILLAGE))
    assert ach.end_of_round(short, H()).winner is None


def test_wok_win_2_tie_break_chain() -> None:
    """WOK-WIN-2: equal AP; the one with more cities wins. Identical holdings: a tie."""
    holdings = {"A": hold("Red", CITY), "B": hold("Red", CITY), "C": hold("Red", CITY),
                "D": hold("Red", TOWN), "E": hold("Red", TOWN),
                "F": hold("Blue", CITY), "G": hold("Blue", CITY), "H": hold("Blue", TOWN),
                "I": hold("Blue", TOWN), "J": hold("Blue", TOWN), "K": hold("Blue", VILLAGE)}
    state = world(list("ABCDEFGHIJK"), [], holdings, capitals={"Red": "A", "Blue": "F"})
    result = ach.end_of_round(state, H())
    assert (result.ap("Red"), result.ap("Blue")) == (13, 13)
    assert ach.tie_break_key(state, "Red", H()) == (13, 3, 2, 0, 0, 0, 0, 0)
    assert ach.tie_break_key(state, "Blue", H()) == (13, 2, 3, 1, 0, 0, 0, 0)
    assert (result.qualifying, result.winner) == (("Red", "Blue"), "Red")
    mirror = {"A": hold("Red", CITY, fort=WALLS), "B": hold("Red", CITY), "C": hold("Red", CITY),
              "D": hold("Red", TOWN), "E": hold("Red", TOWN),
              "F": hold("Blue", CITY, fort=WALLS), "G": hold("Blue", CITY),
              "H": hold("Blue", CITY), "I": hold("Blue", TOWN), "J": hold("Blue", TOWN)}
    even = world(list("ABCDEFGHIJ"), [], mirror, capitals={"Red": "A", "Blue": "F"})
    tied = ach.end_of_round(even, H())
    assert (tied.winner, tied.tied, tied.over) == (None, ("Red", "Blue"), True)


def test_wok_win_2_empty_territories_and_fortifications_break_ties() -> None:
    """WOK-WIN-2 orders 5-8: empty territories, then castles, fortresses, walls."""
    state = world(list("ABCD"), [], {"A": hold("Red", TOWN), "B": hold("Red"),
                                     "C": hold("Blue", TOWN, fort=WALLS), "D": hold("Blue")},
                  capitals={"Red": "A", "Blue": "C"})
    assert ach.tie_break_key(state, "Red", H()) == (2, 0, 1, 0, 1, 0, 0, 0)
    assert ach.tie_break_key(state, "Blue", H()) == (2, 0, 1, 0, 1, 0, 0, 1)


def test_wok_win_3_and_var_2_other_targets() -> None:
    """WOK-WIN-3, WOK-VAR-2: 13 AP is not enough with a target of 15, enough with 11."""
    state = world(list("ABCDE"), [], {"A": hold("Red", CITY), "B": hold("Red", CITY),
                                      "C": hold("Red", CITY), "D": hold("Red", TOWN),
                                      "E": hold("Red", TOWN)}, capitals={"Red": "A"})
    assert Options().ap_target == 13
    assert ach.end_of_round(state, H(), Options(ap_target=15)).winner is None
    assert ach.end_of_round(state, H(), Options(ap_target=11)).winner == "Red"


def test_wok_mal_7_malador_never_score() -> None:
    """WOK-MAL-7: a Malador city counts for nobody; the Malador are not in the tally."""
    state = world(["A", "B"], [], {"A": hold("Red", TOWN), "B": hold(MALADOR, CITY)},
                  capitals={"Red": "A"})
    result = ach.end_of_round(state, H())
    assert [s.kingdom for s in result.scores] == ["Red"]


def test_next_achievement_says_what_is_missing() -> None:
    """WOK-ACH-3..6, WOK-WIN-1: what Red lacks, with numbers."""
    state = two_kingdoms(5, 8, red_level=VILLAGE)
    notes = ach.next_achievement(state, "Red", H(warlord="Blue"))
    assert notes == (
        "Establishing an Empire (2 AP, WOK-ACH-3): needs a city in the capital R0 (now "
        "village); 2 more foreign settlements (has 0); 3 more levels of foreign settlements "
        "(has 0 of 3).",
        "Heavily Fortified (2 AP, WOK-ACH-4): needs 5 more fortification levels (has 0 of 5).",
        "Master Merchant (1 AP, WOK-ACH-5): needs 24 gold per round and be alone on top; has "
        "15, 9 more.",
        "Warlord of Arowyth (1 AP, WOK-ACH-6): needs 9 territories to pass Blue (8); has 5, 4 "
        "more.",
        "Victory (WOK-WIN-1): 5 of 13 AP, 8 more, counted at the end of a round.",
    )
