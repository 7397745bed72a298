"""Swords & Stones campaign points: earning, balances, every spend option with its cost,
timing and effect, refusals (SNS-PTS-1..4, SNS-VP-*, SNS-VEN-*, SNS-AMB-9, -10, -14..16, -18,
-19, -26, -28), the worked examples D.3 and D.4, and the standings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from tests.sns.test_gc_map import campaign, player, sq, view

B = gc.Bundle

D2_END = {
    "A1": (gc.CAPITAL, "red"), "B1": (gc.CLAIMED, "red"), "C1": (gc.CLAIMED, "blue"),
    "A2": (gc.CLAIMED, "blue"), "B2": (gc.SETTLED, "red"), "C2": (gc.CAPITAL, "blue"),
    "A3": (gc.CLAIMED, "red"), "B3": (gc.CLAIMED, "blue"), "C3": (gc.CLAIMED, "red"),
}


def d2_end() -> tuple[gc.CampaignState, list[pts.PointsEntry]]:
    """The map after D.2 and a ledger giving Red and Blue 3 VP and 3 Ven each."""
    ledger: list[pts.PointsEntry] = []
    for _ in range(3):
        ledger += pts.game_points(["red"], ["blue"])
        ledger += pts.game_points(["blue"], ["red"])
    return campaign(3, 3, D2_END), ledger


def gift(player_id: str, vp: int = 0, ven: int = 0) -> list[pts.PointsEntry]:
    return [pts.PointsEntry(player_id, pts.VP, vp, pts.GM_ADJUST),
            pts.PointsEntry(player_id, pts.VEN, ven, pts.GM_ADJUST)]


# --- SNS-PTS-1, SNS-PTS-2 -----------------------------------------------------------------------


def test_sns_pts_1_winner_vp_each_loser_ven() -> None:
    """SNS-PTS-1, SNS-AMB-10, SNS-RES-3: every winner +1 VP, every loser +1 Ven."""
    entries = pts.game_points(["red", "green"], ["blue", "orcs"], game="g7")
    assert [(e.player, e.currency, e.delta, e.reason, e.game) for e in entries] == [
        ("red", "vp", 1, "game_win", "g7"), ("green", "vp", 1, "game_win", "g7"),
        ("blue", "ven", 1, "game_loss", "g7"), ("orcs", "ven", 1, "game_loss", "g7"),
    ]
    assert {e.rule_id for e in entries} == {"SNS-PTS-1"}


def test_sns_amb_9_draw_gives_no_points_unless_the_house_rule_says() -> None:
    """SNS-AMB-9: a draw earns nothing by default; with ``vengeance_to_all`` each player who
    drew gains 1 Vengeance."""
    assert pts.game_points([], [], ["red", "blue"]) == ()
    house = gc.Options(draw_policy=gc.DRAW_VENGEANCE_TO_ALL)
    entries = pts.game_points([], [], ["red", "blue"], house)
    assert [(e.player, e.currency, e.delta, e.rule_id) for e in entries] == [
        ("red", "ven", 1, "SNS-AMB-9"), ("blue", "ven", 1, "SNS-AMB-9"),
    ]


def test_sns_pts_2_balances_are_the_sum_of_the_ledger() -> None:
    """SNS-PTS-2: balances belong to the player for the whole campaign."""
    _, ledger = d2_end()
    assert pts.balance(ledger, "red") == pts.Points(vp=3, ven=3)
    assert pts.balance(ledger, "green") == pts.Points()
    assert pts.Points(2, 5).of(pts.VEN) == 5


# --- the catalogue ------------------------------------------------------------------------------


def test_sns_pts_3_the_eleven_options_with_cost_and_timing() -> None:
    """SNS-PTS-3, SNS-PTS-4, every SNS-VP-* and SNS-VEN-* option: names, currencies, costs and
    timing classes."""
    table = [(o.rule_id, o.name, o.currency, o.cost, o.timing) for o in pts.SPEND_OPTIONS]
    assert table == [
        ("SNS-VP-EMPIRE", "Empires Advantage", "vp", 1, "START"),
        ("SNS-VP-FAVOR", "Favor of the King", "vp", 2, "START"),
        ("SNS-VP-CAVALRY", "Here comes the Calvary", "vp", 1, "IN_GAME"),
        ("SNS-VP-FRONTLINE", "Front line Advantage", "vp", 3, "START"),
        ("SNS-VP-REINFORCE", "Reinforcements", "vp", 1, "IN_GAME"),
        ("SNS-VP-BOLSTER", "Bolster Frontier Outposts", "vp", 4, "MAP"),
        ("SNS-VEN-BROTHERS", "Brothers without Banners", "ven", 1, "START"),
        ("SNS-VEN-POLITICS", "Politics", "ven", 3, "MAP"),
        ("SNS-VEN-BLACKSHEEP", "The Black Sheep", "ven", 2, "START"),
        ("SNS-VEN-FIEFDOMS", "Fiefdoms", "ven", 3, "MAP"),
        ("SNS-VEN-GONDOR", "Gondor Calls for Aid!", "ven", 1, "IN_GAME"),
    ]


def test_sns_vp_empire_and_favor_and_ven_blacksheep_resources() -> None:
    """SNS-VP-EMPIRE, SNS-VP-FAVOR, SNS-VEN-BLACKSHEEP: 1 of each resource but favor; 10
    favor; 3 of each resource, favor included."""
    by = pts.SPEND_BY_CODE
    assert by["EMPIRE"].bundle == B(food=1, wood=1, stone=1, iron=1, gold=1)
    assert by["FAVOR"].bundle == B(favor=10)
    assert by["BLACKSHEEP"].bundle == B(food=3, wood=3, stone=3, iron=3, gold=3, favor=3)


def test_sns_vp_cavalry_and_reinforce_units() -> None:
    """SNS-VP-CAVALRY, SNS-VP-REINFORCE, SNS-AMB-18: 2 Knights once a Castle stands; 4
    Barracks units in any mix of Swords, Spears and Archers."""
    assert pts.SPEND_BY_CODE["CAVALRY"].units == (("Knights", 2),)
    assert pts.reinforcements({"Swords": 1, "Archers": 3}) == (("Swords", 1), ("Archers", 3))
    assert pts.reinforcements({"Spears": 4}) == (("Spears", 4),)
    with pytest.raises(gc.RuleViolation, match="SNS-VP-REINFORCE: choose exactly 4"):
        pts.reinforcements({"Swords": 2, "Spears": 1})
    with pytest.raises(gc.RuleViolation, match="SNS-VP-REINFORCE: Knights are not"):
        pts.reinforcements({"Knights": 4})


@pytest.mark.parametrize(("roll", "units"), [
    (1, ()),
    (2, (("Swords", 2), ("Archers", 2))),
    (3, (("Swords", 5),)),
    (4, (("Riders", 4),)),
    (5, (("Archers", 4),)),
    (6, (("Knights", 4),)),
])
def test_sns_ven_gondor_roll(roll: int, units: tuple[tuple[str, int], ...]) -> None:
    """SNS-VEN-GONDOR: the units each d6 result brings."""
    assert pts.gondor_units(roll) == units


def test_sns_ven_gondor_bad_roll() -> None:
    """SNS-VEN-GONDOR: a d6 shows 1 to 6."""
    with pytest.raises(gc.RuleViolation, match="SNS-VEN-GONDOR"):
        pts.gondor_units(7)


def test_sns_ven_brothers_bandit_loot_and_forest_village() -> None:
    """SNS-VEN-BROTHERS, SNS-AMB-28: Bandit loot of food and gold goes to the buyer, even from
    the buyer; a Forest Village roll may be taken as rolled or plus 1."""
    assert pts.bandit_loot_goes_to("blue", "red") == "red"
    assert pts.bandit_loot_goes_to("red", "red") == "red"
    assert pts.bandit_loot_goes_to("red", None) is None
    assert pts.forest_village_rolls(4) == (4, 5)


# --- spending: refusals and effects -------------------------------------------------------------


def test_sns_pts_3_unaffordable_spend_is_refused() -> None:
    """SNS-PTS-3: a balance never goes below 0; the refusal names the cost and the balance."""
    state, ledger = d2_end()
    reason = pts.spend_refusal(state, ledger, "blue", "BOLSTER", pts.BETWEEN_GAMES, sq("A2"))
    assert reason == "SNS-PTS-3: Bolster Frontier Outposts costs 4 Victory Points; blue has 3."
    with pytest.raises(gc.RuleViolation, match="costs 4 Victory Points; blue has 3"):
        pts.apply_spend(state, ledger, "blue", "BOLSTER", pts.BETWEEN_GAMES, sq("A2"))
    assert pts.spend_refusal(state, ledger, "blue", "TAXES", pts.BETWEEN_GAMES) == (
        "SNS-PTS-3: there is no points option 'TAXES'.")


def test_sns_pts_4_timing_classes() -> None:
    """SNS-PTS-4, SNS-AMB-15: MAP options only between games, START options until turn 1,
    IN_GAME options at any time, during play too."""
    state, ledger = d2_end()
    ledger += gift("red", vp=10, ven=10)
    refuse = pts.spend_refusal
    assert refuse(state, ledger, "red", "FIEFDOMS", pts.SETUP, sq("A3")) == (
        "SNS-PTS-4: Fiefdoms can only be bought between games (SNS-AMB-15).")
    assert refuse(state, ledger, "red", "FAVOR", pts.PLAYING) == (
        "SNS-PTS-4: Favor of the King can only be bought before turn 1 of the game it is for "
        "(SNS-AMB-15).")
    assert refuse(state, ledger, "red", "FAVOR", pts.SETUP) is None
    assert refuse(state, ledger, "red", "FAVOR", pts.BETWEEN_GAMES) is None
    assert refuse(state, ledger, "red", "GONDOR", pts.PLAYING) is None
    assert refuse(state, ledger, "red", "CAVALRY", pts.BETWEEN_GAMES) is None
    assert refuse(state, ledger, "red", "FAVOR", "halftime") == (
        "SNS-PTS-4: unknown moment 'halftime'.")


def test_sns_amb_14_repeatable_by_default_once_by_house_rule() -> None:
    """SNS-AMB-14: an option may be bought again for the same game unless the group says
    once only."""
    state, ledger = d2_end()
    assert pts.spend_refusal(state, ledger, "red", "EMPIRE", pts.SETUP, bought=["EMPIRE"]) \
        is None
    once = gc.Options(spends_repeatable=False)
    assert pts.spend_refusal(state, ledger, "red", "EMPIRE", pts.SETUP, bought=["EMPIRE"],
                             options=once) == (
        "SNS-AMB-14: in this campaign Empires Advantage can be bought only once for the same "
        "game.")
    assert pts.spend_refusal(state, ledger, "red", "EMPIRE", pts.SETUP, bought=["FAVOR"],
                             options=once) is None


def test_sns_vp_bolster_settles_a_claim_of_the_buyer() -> None:
    """SNS-VP-BOLSTER, SNS-AMB-3: 4 VP settle one of the buyer's claims; settled land, a
    Capital or another's land cannot be chosen."""
    state, ledger = d2_end()
    ledger += gift("red", vp=1)
    spent = pts.apply_spend(state, ledger, "red", "BOLSTER", pts.BETWEEN_GAMES, sq("C3"))
    assert view(spent.state)["C3"] == (gc.SETTLED, "red")
    assert (spent.entry.currency, spent.entry.delta, spent.entry.target) == ("vp", -4, sq("C3"))
    assert spent.changes[0].cause == "vp_bolster"
    assert pts.balance([*ledger, spent.entry], "red").vp == 0
    assert pts.spend_refusal(state, ledger, "red", "BOLSTER", pts.BETWEEN_GAMES, sq("A1")) == (
        "SNS-VP-BOLSTER: Great Plains 0101 cannot be chosen: a Capital can never change hands "
        "this way (SNS-AMB-3); choose one of Great Plains 0103, Great Plains 0201, "
        "Great Plains 0303.")
    assert "it is not one of the buyer's claimed Territories" in pts.spend_refusal(
        state, ledger, "red", "BOLSTER", pts.BETWEEN_GAMES, sq("A2"))
    with pytest.raises(gc.RuleViolation, match="SNS-VP-BOLSTER: choose the Territory"):
        pts.apply_spend(state, ledger, "red", "BOLSTER", pts.BETWEEN_GAMES)


def test_sns_ven_fiefdoms_settles_a_claim_for_vengeance() -> None:
    """SNS-VEN-FIEFDOMS: 3 Ven settle one of the buyer's claims; a player with no claim is
    refused."""
    state, ledger = d2_end()
    spent = pts.apply_spend(state, ledger, "red", "FIEFDOMS", pts.BETWEEN_GAMES, sq("A3"))
    assert view(spent.state)["A3"] == (gc.SETTLED, "red")
    assert (spent.entry.currency, spent.entry.delta) == ("ven", -3)
    lonely = campaign(2, 1, {"A1": (gc.CAPITAL, "red"), "B1": (gc.CAPITAL, "blue")})
    assert pts.spend_refusal(lonely, gift("red", ven=3), "red", "FIEFDOMS",
                             pts.BETWEEN_GAMES) == (
        "SNS-VEN-FIEFDOMS: red has no claimed Territory to settle.")


def test_sns_amb_19_politics_ties_and_no_capital() -> None:
    """SNS-VEN-POLITICS, SNS-AMB-19: the rivals tied for the most settled land (Capitals
    counted) all offer their settled Territories; a Capital never; nothing to take is a
    refusal."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A2": (gc.SETTLED, "red"),
        "C1": (gc.CAPITAL, "blue"), "C2": (gc.SETTLED, "blue"),
        "B3": (gc.CAPITAL, "green"),
    }, players=(player("red"), player("blue"), player("green")))
    assert pts.politics_targets(state, "green") == (sq("A2"), sq("C2"))
    assert pts.politics_targets(state, "red") == (sq("C2"),)
    bare = campaign(2, 1, {"A1": (gc.CAPITAL, "red"), "B1": (gc.CAPITAL, "blue")})
    assert pts.politics_targets(bare, "red") == ()
    assert pts.spend_refusal(bare, gift("red", ven=3), "red", "POLITICS",
                             pts.BETWEEN_GAMES) == (
        "SNS-VEN-POLITICS: no rival with the most settled land has a settled Territory other "
        "than a Capital (SNS-AMB-19).")


def test_sns_amb_16_front_line_needs_settled_land_next_to_the_contested() -> None:
    """SNS-VP-FRONTLINE, SNS-AMB-16, SNS-AMB-3: turn 0 for the buyer alone; allowed only with
    settled land (a Capital counts by default) bordering the contested Territory."""
    state, ledger = d2_end()
    assert pts.frontline_allowed(state, "red", sq("A2")) is True
    no_capital = gc.Options(capital_counts_as_settled=False)
    assert pts.frontline_allowed(state, "red", sq("B1"), no_capital) is True
    assert pts.frontline_allowed(state, "red", sq("C1")) is False
    assert pts.frontline_allowed(state, "blue", sq("A2"), no_capital) is False
    assert pts.spend_refusal(state, ledger, "red", "FRONTLINE", pts.SETUP) == (
        "SNS-VP-FRONTLINE: name the Territory contested in the coming game.")
    assert pts.spend_refusal(state, ledger, "red", "FRONTLINE", pts.SETUP,
                             contested=sq("C1")) == (
        "SNS-VP-FRONTLINE: red holds no settled Territory bordering Great Plains 0301.")
    spent = pts.apply_spend(state, ledger, "red", "FRONTLINE", pts.SETUP, contested=sq("A2"))
    assert spent.extra_turn is True
    assert spent.state == state
    assert (spent.entry.delta, spent.entry.target) == (-3, sq("A2"))


def test_sns_pts_3_spend_choices_list_reasons() -> None:
    """SNS-PTS-3, SNS-PTS-4: the menu of options for a player, each allowed or with its reason,
    and the Territories MAP options could change."""
    state, ledger = d2_end()
    menu = {c.option.code: c for c in pts.spend_choices(state, ledger, "red", pts.BETWEEN_GAMES)}
    assert [code for code, c in menu.items() if c.allowed] == [
        "EMPIRE", "FAVOR", "CAVALRY", "REINFORCE", "BROTHERS", "BLACKSHEEP", "FIEFDOMS",
        "GONDOR",
    ]
    assert menu["BOLSTER"].reason == (
        "SNS-PTS-3: Bolster Frontier Outposts costs 4 Victory Points; red has 3.")
    assert menu["FRONTLINE"].reason == (
        "SNS-VP-FRONTLINE: name the Territory contested in the coming game.")
    assert menu["FIEFDOMS"].targets == (sq("A3"), sq("B1"), sq("C3"))
    assert menu["POLITICS"].reason.startswith("SNS-VEN-POLITICS: no rival")
    assert menu["POLITICS"].targets == ()
    gone = state.with_player(gc.Player("red", king=gc.King("R"), eliminated=True))
    assert pts.spend_refusal(gone, ledger, "red", "EMPIRE", pts.SETUP) == (
        "SNS-CAP-4: red has left the campaign.")


# --- D.3 and D.4 --------------------------------------------------------------------------------


def test_d3_spending_points_after_d2() -> None:
    """D.3 (SNS-PTS-3, SNS-VEN-FIEFDOMS, SNS-VEN-POLITICS, SNS-VP-BOLSTER, SNS-VP-EMPIRE,
    SNS-VP-FAVOR, SNS-VP-FRONTLINE): Red's Fiefdoms on A3; Blue's Politics takes B2 from Red
    (3 settled counting its Capital A1, which cannot be taken); Blue cannot afford Bolster;
    Blue's Empires Advantage and Red's Favor of the King are prepaid for the next game."""
    state, ledger = d2_end()
    step = pts.apply_spend(state, ledger, "red", "FIEFDOMS", pts.BETWEEN_GAMES, sq("A3"))
    state, ledger = step.state, [*ledger, step.entry]
    assert pts.balance(ledger, "red").ven == 0
    assert view(state)["A3"] == (gc.SETTLED, "red")
    assert gc.holding_count(state.map, "red").settled_total == 3
    assert pts.politics_targets(state, "blue") == (sq("A3"), sq("B2"))
    step = pts.apply_spend(state, ledger, "blue", "POLITICS", pts.BETWEEN_GAMES, sq("B2"))
    state, ledger = step.state, [*ledger, step.entry]
    assert pts.balance(ledger, "blue").ven == 0
    assert step.changes[0].before == gc.Holding(gc.SETTLED, "red")
    assert view(state)["B2"] == (gc.SETTLED, "blue")
    with pytest.raises(gc.RuleViolation, match="costs 4 Victory Points; blue has 3"):
        pts.apply_spend(state, ledger, "blue", "BOLSTER", pts.BETWEEN_GAMES, sq("A2"))
    step = pts.apply_spend(state, ledger, "blue", "EMPIRE", pts.BETWEEN_GAMES)
    ledger.append(step.entry)
    assert step.bundle == B(food=1, wood=1, stone=1, iron=1, gold=1)
    assert pts.balance(ledger, "blue").vp == 2
    step = pts.apply_spend(state, ledger, "red", "FAVOR", pts.BETWEEN_GAMES)
    ledger.append(step.entry)
    assert step.bundle == B(favor=10)
    assert pts.balance(ledger, "red").vp == 1
    assert view(state) == {
        "A1": (gc.CAPITAL, "red"), "A3": (gc.SETTLED, "red"), "B1": (gc.CLAIMED, "red"),
        "C3": (gc.CLAIMED, "red"), "C2": (gc.CAPITAL, "blue"), "B2": (gc.SETTLED, "blue"),
        "A2": (gc.CLAIMED, "blue"), "B3": (gc.CLAIMED, "blue"), "C1": (gc.CLAIMED, "blue"),
    }
    red, blue = gc.supply_slots(state.map, "red"), gc.supply_slots(state.map, "blue")
    assert (len(red.settled), len(red.claimed)) == (2, 2)
    assert (len(blue.settled), len(blue.claimed)) == (2, 3)
    assert red.settled == (sq("A1"), sq("A3"))
    assert blue.settled == (sq("B2"), sq("C2"))
    assert state.map.neighbours(sq("B1")) == frozenset({sq("A1"), sq("C1"), sq("B2")})
    assert pts.frontline_allowed(state, "blue", sq("B1")) is True


def test_d4_starting_stockpile_for_reds_next_game() -> None:
    """D.4 (SNS-SUP-1..4, SNS-VP-FAVOR, SNS-KING-2, SNS-TITLE-FRUGAL): supply A1 3 wood, A3 2
    iron, B1 1 food, C3 1 stone, Favor of the King prepaid, The Frugal active: 1 food, 3 wood,
    1 stone, 2 iron, 3 gold, 10 favor, 3 Villagers and the King."""
    state = campaign(3, 3, {
        "A1": (gc.CAPITAL, "red"), "A3": (gc.SETTLED, "red"), "B1": (gc.CLAIMED, "red"),
        "C3": (gc.CLAIMED, "red"), "C2": (gc.CAPITAL, "blue"),
    })
    red = state.player("red")
    red = replace(red, king=gc.King("Aldous", titles=frozenset({"FRUGAL"})))
    supply = gc.supply_from_territories(state.map, "red", [
        (sq("A1"), "WOOD"), (sq("A3"), "IRON"), (sq("B1"), "FOOD"), (sq("C3"), "STONE"),
    ])
    declaration = gc.declare_start_bonus(red, title="FRUGAL")
    start = pts.starting_stockpile(supply, ["FAVOR"], declaration)
    assert start.total == B(food=1, wood=3, stone=1, iron=2, gold=3, favor=10, villagers=3)
    assert [(line.source, line.rule_id, line.bundle) for line in start.lines] == [
        ("Base kit", "SNS-ECON-5", B(villagers=3)),
        ("Supply 0101 (settled)", "SNS-SUP-1", B(wood=3)),
        ("Supply 0103 (settled)", "SNS-SUP-1", B(iron=2)),
        ("Supply 0201 (claimed)", "SNS-SUP-1", B(food=1)),
        ("Supply 0303 (claimed)", "SNS-SUP-1", B(stone=1)),
        ("Favor of the King", "SNS-VP-FAVOR", B(favor=10)),
        ("Title: The Frugal", "SNS-TITLE-FRUGAL", B(gold=3)),
    ]
    assert start.extra_turn is False


def test_sns_vp_frontline_and_start_spends_in_the_starting_stockpile() -> None:
    """SNS-VP-FRONTLINE, SNS-VEN-BLACKSHEEP, SNS-VEN-BROTHERS, SNS-VP-EMPIRE, SNS-CRATE-6:
    START spends add their resources (Front line Advantage a turn 0); a carried crate item is a
    line of its own; an IN_GAME option is not a start line."""
    start = pts.starting_stockpile(
        [], ["BLACKSHEEP", "EMPIRE", "FRONTLINE", "BROTHERS"],
        gc.StartDeclaration("red", crate_item="Rusty Key"),
    )
    assert start.total == B(food=4, wood=4, stone=4, iron=4, gold=4, favor=3, villagers=3)
    assert start.extra_turn is True
    assert start.lines[-1].source == "Crate item: Rusty Key"
    with pytest.raises(gc.RuleViolation, match="SNS-PTS-4: GONDOR is not"):
        pts.starting_stockpile([], ["GONDOR"])


def test_sns_amb_26_campaign_points_and_the_score_are_apart() -> None:
    """SNS-AMB-26: campaign Victory Points move only through the points ledger; the early-end
    score is another number with no currency."""
    assert pts.CURRENCY_NAMES == {"vp": "Victory Points", "ven": "Vengeance Points"}
    assert {o.currency for o in pts.SPEND_OPTIONS} == {"vp", "ven"}


# --- standings ----------------------------------------------------------------------------------


def test_sns_gc_5_standings_from_plain_data() -> None:
    """SNS-GC-5, SNS-GC-12, SNS-PTS-2, SNS-TITLE-G3: points, land by state, Titles and games
    played for every player, most VP first."""
    state, ledger = d2_end()
    ledger += gift("blue", vp=1)
    red = state.player("red")
    state = state.with_player(
        replace(red, king=gc.King("Aldous", titles=frozenset({"NOBLE", "BRAVE"}))))
    rows = pts.standings(state, ledger, {"red": 6, "blue": 6})
    assert [(r.player, r.vp, r.ven, r.capital, r.settled, r.claimed, r.territories,
             r.titles, r.games_played) for r in rows] == [
        ("blue", 4, 3, 1, 0, 3, 4, (), 6),
        ("red", 3, 3, 1, 1, 3, 5, ("BRAVE", "NOBLE"), 6),
    ]
    assert rows[1].king == "Aldous"
