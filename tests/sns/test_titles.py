"""Swords & Stones Titles: the catalogue, every Title at its exact threshold, the post-game
statistics, suggestions and picks (SNS-TITLE-*, SNS-STAT-*, SNS-AMB-20, SNS-AMB-22a..n,
SNS-AMB-23, SNS-AMB-25) and the worked example D.5."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt

B = gc.Bundle
ALL_MILLS = frozenset(tt.MILL_UPGRADES)


def report(**kwargs: Any) -> tt.GameReport:
    base: dict[str, Any] = {"player": "red", "result": gc.WIN, "faction_chosen": gc.AVALONIAN}
    return tt.GameReport(**{**base, **kwargs})


def codes(title_report: tt.TitleReport) -> list[str]:
    return [s.code for s in title_report.suggestions]


# --- the catalogue ------------------------------------------------------------------------------


def test_sns_title_catalogue_has_33_titles_in_three_classes() -> None:
    """SNS-TITLE-G* (the general rules, here SNS-TITLE-G1) and the catalogue: 33 Titles under
    their printed names; 5 decided from the game result (A), 22 from the statistics (S), 6
    needing a GM's yes (J)."""
    assert len(tt.TITLES) == 33
    assert len(tt.TITLE_BY_CODE) == 33
    by_class = {c: [t.code for t in tt.TITLES if t.check_class == c] for c in "ASJ"}
    assert by_class["A"] == ["CONQUEROR", "CHOSEN", "ETERNAL", "LORDOFBONES", "UNDYING"]
    assert by_class["J"] == ["CHARITABLE", "DEFENDER", "DRAGONSLAYER", "HERETIC", "HONORABLE",
                             "PIOUS"]
    assert len(by_class["S"]) == 22
    assert tt.TITLE_BY_CODE["HORSEMASTER"].name == "Horse Master"
    assert tt.TITLE_BY_CODE["KINGSLAYER"].name == "The King Slayer"
    assert tt.TITLE_BY_CODE["DAMNED"].rule_id == "SNS-TITLE-DAMNED"
    assert all(t.requirement and t.reward and t.stats for t in tt.TITLES)
    report_fields = set(tt.GameReport.__dataclass_fields__)
    assert all(set(t.stats) <= report_fields for t in tt.TITLES)


# --- every Title at its threshold ---------------------------------------------------------------

THRESHOLDS: list[tuple[str, str, dict[str, Any], dict[str, Any], str]] = [
    # (Title, statistics it reads, a report that just meets it, one that just misses, status)
    ("BRAVE", "SNS-TITLE-BRAVE SNS-STAT-1 SNS-AMB-22a",
     {"king_wounds_on_non_villager_monk_units": 5},
     {"king_wounds_on_non_villager_monk_units": 4}, tt.EARNED),
    ("BUTCHER", "SNS-TITLE-BUTCHER SNS-STAT-2 SNS-AMB-22b",
     {"max_kills_5_turn_window": 15}, {"max_kills_5_turn_window": 14}, tt.EARNED),
    ("CUNNING", "SNS-TITLE-CUNNING SNS-STAT-29 SNS-STAT-30",
     {"surprise_attack_uses": 3, "successful_spy_saboteur_uses": 1},
     {"surprise_attack_uses": 2, "successful_spy_saboteur_uses": 1}, tt.EARNED),
    ("DAMNED", "SNS-TITLE-DAMNED SNS-STAT-15 SNS-AMB-22d",
     {"zombies_raised": 25}, {"zombies_raised": 24}, tt.EARNED),
    ("DESTROYER", "SNS-TITLE-DESTROYER SNS-STAT-6 SNS-AMB-22e",
     {"enemy_buildings_destroyed": 15}, {"enemy_buildings_destroyed": 14}, tt.EARNED),
    ("DREADFUL", "SNS-TITLE-DREADFUL SNS-STAT-3",
     {"enemy_villagers_killed_before_t30": 5}, {"enemy_villagers_killed_before_t30": 4},
     tt.EARNED),
    ("FEARED", "SNS-TITLE-FEARED SNS-STAT-14 SNS-AMB-23",
     {"prisoners_used_in_blood_rites": 10}, {"prisoners_used_in_blood_rites": 9}, tt.EARNED),
    ("FORESTLORD", "SNS-TITLE-FORESTLORD SNS-STAT-24 SNS-AMB-22g",
     {"reforestation_projects": 3}, {"reforestation_projects": 2}, tt.EARNED),
    ("FRUGAL", "SNS-TITLE-FRUGAL SNS-STAT-18", {"peak_gold": 50}, {"peak_gold": 49}, tt.EARNED),
    ("AGRICULTURALIST", "SNS-TITLE-AGRICULTURALIST SNS-STAT-20 SNS-STAT-21 SNS-AMB-22h",
     {"max_successful_farm_dice_one_turn": 8, "mill_upgrades_at_end": ALL_MILLS},
     {"max_successful_farm_dice_one_turn": 7, "mill_upgrades_at_end": ALL_MILLS}, tt.EARNED),
    ("HORSEMASTER", "SNS-TITLE-HORSEMASTER SNS-STAT-16",
     {"max_cavalry_single_group_full_turn": 20}, {"max_cavalry_single_group_full_turn": 19},
     tt.EARNED),
    ("KIND", "SNS-TITLE-KIND SNS-STAT-32 SNS-STAT-33 SNS-STAT-34 SNS-AMB-22i",
     {"used_crime_and_punishment": False, "used_blood_magic": False, "used_blood_sports": False},
     {"used_crime_and_punishment": False, "used_blood_magic": True, "used_blood_sports": False},
     tt.EARNED),
    ("KINGSLAYER", "SNS-TITLE-KINGSLAYER SNS-STAT-9",
     {"enemy_kings_killed_by_own_king_or_queen": 1},
     {"enemy_kings_killed_by_own_king_or_queen": 0}, tt.EARNED),
    ("LEARNED", "SNS-TITLE-LEARNED SNS-STAT-22",
     {"upgrades_purchased": 20}, {"upgrades_purchased": 19}, tt.EARNED),
    ("MIGHTY", "SNS-TITLE-MIGHTY SNS-STAT-26 SNS-STAT-27 SNS-AMB-22j",
     {"building_types_built": tt.required_buildings(gc.AVALONIAN),
      "castle_and_completed_walls_same_time": True},
     {"building_types_built": tt.required_buildings(gc.AVALONIAN) - {"Monument"},
      "castle_and_completed_walls_same_time": True}, tt.EARNED),
    ("MONSTER", "SNS-TITLE-MONSTER SNS-STAT-4 SNS-AMB-22k",
     {"max_villagers_killed_vs_one_player_before_their_tc": 5},
     {"max_villagers_killed_vs_one_player_before_their_tc": 4}, tt.EARNED),
    ("MYSTIC", "SNS-TITLE-MYSTIC SNS-STAT-31 SNS-AMB-22l",
     {"favor_spent_on_spells_living": 40}, {"favor_spent_on_spells_living": 39}, tt.EARNED),
    ("NOBLE", "SNS-TITLE-NOBLE SNS-STAT-23 SNS-AMB-22m SNS-AMB-23",
     {"warrior_king_purchased": False}, {"warrior_king_purchased": True}, tt.EARNED),
    ("RAIDER", "SNS-TITLE-RAIDER SNS-STAT-8",
     {"enemy_farms_destroyed_before_t30": 3}, {"enemy_farms_destroyed_before_t30": 2},
     tt.EARNED),
    ("VANDAL", "SNS-TITLE-VANDAL SNS-STAT-7",
     {"enemy_buildings_destroyed_fire_pots": 6}, {"enemy_buildings_destroyed_fire_pots": 5},
     tt.EARNED),
    ("WARLORD", "SNS-TITLE-WARLORD SNS-STAT-5",
     {"kills_before_own_temple_tc_castle": 10}, {"kills_before_own_temple_tc_castle": 9},
     tt.EARNED),
    ("WILD", "SNS-TITLE-WILD SNS-STAT-35 SNS-AMB-22n",
     {"faction_chosen": gc.PAGANITE, "rituals_performed": frozenset({"Amanti"})},
     {"faction_chosen": gc.PAGANITE, "rituals_performed": frozenset({"Amanti", "Emes"})},
     tt.EARNED),
    ("CHARITABLE", "SNS-TITLE-CHARITABLE SNS-STAT-19 SNS-AMB-22c",
     {"gold_given_to_struggling_player": 10}, {"gold_given_to_struggling_player": 9},
     tt.NEEDS_GM),
    ("DEFENDER", "SNS-TITLE-DEFENDER SNS-STAT-12 SNS-STAT-13 SNS-AMB-22f",
     {"walls_and_castle_turn": 12, "first_attack_outside_map_section_turn": 12},
     {"walls_and_castle_turn": 12, "first_attack_outside_map_section_turn": 11}, tt.NEEDS_GM),
    ("DRAGONSLAYER", "SNS-TITLE-DRAGONSLAYER SNS-STAT-10",
     {"dragon_slain_king_wound_own_units_only": True},
     {"dragon_slain_king_wound_own_units_only": False}, tt.NEEDS_GM),
    ("HERETIC", "SNS-TITLE-HERETIC SNS-STAT-17",
     {"razed_all_temples_totems_of_a_player": True},
     {"razed_all_temples_totems_of_a_player": False}, tt.NEEDS_GM),
    ("HONORABLE", "SNS-TITLE-HONORABLE SNS-STAT-11",
     {"attacked_villagers_unprovoked": False}, {"attacked_villagers_unprovoked": True},
     tt.NEEDS_GM),
    ("PIOUS", "SNS-TITLE-PIOUS SNS-STAT-28",
     {"temple_vigil_kept": True, "temple_vigil_turns": 10},
     {"temple_vigil_kept": True, "temple_vigil_turns": 9}, tt.NEEDS_GM),
    ("LORDOFBONES", "SNS-TITLE-LORDOFBONES SNS-STAT-0a SNS-STAT-0e",
     {"kingdom_of_bone_at_end": True}, {"kingdom_of_bone_at_end": True, "result": gc.DRAW},
     tt.EARNED),
    ("UNDYING", "SNS-TITLE-UNDYING SNS-STAT-0a SNS-STAT-0c",
     {"dark_ritual_performed": True}, {"dark_ritual_performed": True, "result": gc.LOSS},
     tt.EARNED),
]


@pytest.mark.parametrize(("code", "stat_ids", "meets", "misses", "status"), THRESHOLDS,
                         ids=[row[0] for row in THRESHOLDS])
def test_sns_title_each_at_its_exact_threshold(
    code: str, stat_ids: str, meets: dict[str, Any], misses: dict[str, Any], status: str
) -> None:
    """Every SNS-TITLE-<NAME> of classes S and J, plus The Lord of Bones and The Undying (A):
    a report that just meets the condition suggests exactly that Title (J ones as a question
    for the GM); one step short suggests nothing."""
    title = tt.TITLE_BY_CODE[code]
    found = tt.suggest_titles(report(**meets))
    assert codes(found) == [code]
    suggestion = found.suggestions[0]
    assert (suggestion.status, suggestion.rule_id, suggestion.name) == (
        status, title.rule_id, title.name)
    assert suggestion.reason
    assert bool(suggestion.question) == (status == tt.NEEDS_GM)
    assert tt.suggest_titles(report(**misses)).suggestions == ()


def test_sns_stat_unrecorded_fields_suggest_nothing() -> None:
    """SNS-STAT-1..35: a report with no statistics entered suggests no S or J Title."""
    assert tt.suggest_titles(report()).suggestions == ()
    assert tt.suggest_titles(report(surprise_attack_uses=5)).suggestions == ()
    assert tt.suggest_titles(report(used_blood_magic=False)).suggestions == ()


# --- D.5 ----------------------------------------------------------------------------------------


def d5() -> tuple[tt.GameReport, tuple[tt.GameReport, ...]]:
    history = (report(warrior_king_purchased=False), report(warrior_king_purchased=False))
    return report(
        peak_gold=50, upgrades_purchased=20, king_wounds_on_non_villager_monk_units=4,
        kills_by_turn={31: 5, 32: 5, 33: 0, 34: 0, 35: 4, 36: 6},
        enemy_farms_destroyed_before_t30=3, favor_spent_on_spells_living=39,
        rituals_performed=frozenset(), attacked_villagers_unprovoked=False,
        warrior_king_purchased=False,
    ), history


def test_d5_title_suggestions_from_a_post_game_report() -> None:
    """D.5 (SNS-TITLE-G1, SNS-TITLE-G2, SNS-STAT-2, SNS-STAT-18, SNS-STAT-22): an Avalonian win
    after two Avalonian wins: The Frugal (50), The Learned (20), The Butcher (15 kills in
    turns 32-36), The Raider (3), The Honorable (GM confirms), The Chosen (3 wins in a row) and
    The Noble; not The Brave (4), The Mystic (39) nor The Wild (not Paganite)."""
    this_game, history = d5()
    found = tt.suggest_titles(this_game, history)
    assert codes(found) == ["BUTCHER", "CHOSEN", "FRUGAL", "HONORABLE", "LEARNED", "NOBLE",
                            "RAIDER"]
    by_code = {s.code: s for s in found.suggestions}
    assert by_code["FRUGAL"].reason == "peak gold: 50 (needs 50)"
    assert by_code["BUTCHER"].reason == "best 5-turn window: 15 kills (needs 15)"
    assert by_code["CHOSEN"].reason == "3 campaign wins in a row as Avalonian (needs 3)"
    assert by_code["NOBLE"].reason == "this King never bought Warrior King (3 games)"
    assert by_code["HONORABLE"].status == tt.NEEDS_GM
    assert [s.code for s in found.suggestions if s.status == tt.EARNED] == [
        "BUTCHER", "CHOSEN", "FRUGAL", "LEARNED", "NOBLE", "RAIDER"]


def test_sns_amb_22b_kill_windows_of_five_turns() -> None:
    """SNS-STAT-2, SNS-AMB-22b: turns 31-35 hold 14 kills, 32-36 hold 15; gaps count 0."""
    assert tt.best_kill_window({31: 5, 32: 5, 33: 0, 34: 0, 35: 4}) == 14
    assert tt.best_kill_window({31: 5, 32: 5, 33: 0, 34: 0, 35: 4, 36: 6}) == 15
    assert tt.best_kill_window({1: 8, 7: 8}) == 8
    assert tt.best_kill_window({1: 8, 5: 7}) == 15
    assert tt.best_kill_window({}) == 0


def test_sns_title_g2_one_title_picked_by_default() -> None:
    """SNS-TITLE-G2, SNS-AMB-20: after D.5 the player adds one suggestion to the King; with
    ``titles_per_game_end`` "all" several; a J Title needs the GM's yes."""
    this_game, history = d5()
    found = tt.suggest_titles(this_game, history)
    red = gc.Player("red", king=gc.King("Aldous"))
    assert tt.award_titles(red, found, ["FRUGAL"]).king == gc.King(
        "Aldous", titles=frozenset({"FRUGAL"}))
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G2: pick one Title"):
        tt.award_titles(red, found, ["FRUGAL", "LEARNED"])
    everything = gc.Options(titles_per_game_end=gc.TITLES_ALL)
    assert tt.award_titles(red, found, ["FRUGAL", "LEARNED"], options=everything).king \
        .titles == frozenset({"FRUGAL", "LEARNED"})
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-HONORABLE: The Honorable needs the "
                                               "GM's yes: Did the player attack no Villager"):
        tt.award_titles(red, found, ["HONORABLE"])
    assert tt.award_titles(red, found, ["HONORABLE"], gm_yes={"HONORABLE"}).king.titles == \
        frozenset({"HONORABLE"})
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G2: The Mystic was not earned"):
        tt.award_titles(red, found, ["MYSTIC"])
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G2: these suggestions belong"):
        tt.award_titles(gc.Player("blue", king=gc.King("B")), found, ["FRUGAL"])


def test_sns_title_g5_a_title_held_adds_nothing() -> None:
    """SNS-TITLE-G5, SNS-TITLE-G3: a Title already held is flagged, not pickable again."""
    this_game, history = d5()
    found = tt.suggest_titles(this_game, history, held={"FRUGAL"})
    assert [s.code for s in found.suggestions if s.already_held] == ["FRUGAL"]
    assert [s.code for s in found.pickable] == ["BUTCHER", "CHOSEN", "HONORABLE", "LEARNED",
                                                "NOBLE", "RAIDER"]
    red = gc.Player("red", king=gc.King("Aldous", titles=frozenset({"FRUGAL"})))
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G5: King Aldous already holds"):
        tt.award_titles(red, found, ["FRUGAL"])
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G5: a Title is picked once"):
        tt.award_titles(red, found, ["LEARNED", "LEARNED"],
                        options=gc.Options(titles_per_game_end=gc.TITLES_ALL))


def test_sns_title_g4_and_amb_25_a_dead_king_takes_nothing() -> None:
    """SNS-TITLE-G4, SNS-AMB-25, SNS-STAT-0f: Titles met in the game the King died are listed
    as void and cannot be picked."""
    found = tt.suggest_titles(report(result=gc.LOSS, king_outcome=gc.DEAD, peak_gold=60))
    assert found.suggestions == ()
    assert [s.code for s in found.voided] == ["FRUGAL"]
    with pytest.raises(gc.RuleViolation, match="SNS-AMB-25"):
        tt.award_titles(gc.Player("red", king=gc.King("Aldous")), found, ["FRUGAL"])
    fled = tt.suggest_titles(report(result=gc.LOSS, king_outcome=gc.FLED, peak_gold=60))
    assert codes(fled) == ["FRUGAL"]


def test_sns_title_g1_suggestions_for_every_player_of_a_game() -> None:
    """SNS-TITLE-G1, SNS-STAT-0a: one report per player, each judged on its own."""
    found = tt.suggest_titles_for_game(
        [report(peak_gold=50), report(player="blue", result=gc.LOSS, upgrades_purchased=20)],
        held={"blue": {"LEARNED"}},
    )
    assert codes(found["red"]) == ["FRUGAL"]
    assert codes(found["blue"]) == ["LEARNED"]
    assert found["blue"].pickable == ()
    with pytest.raises(gc.RuleViolation, match="one report per player"):
        tt.suggest_titles_for_game([report(), report()])


# --- class A: the result history ----------------------------------------------------------------


def test_sns_title_conqueror_three_paganite_wins_in_a_row() -> None:
    """SNS-TITLE-CONQUEROR, SNS-STAT-0d: three consecutive wins ending Paganite; a loss, a
    draw or a win with another faction starts the count again."""
    pagan = report(faction_chosen=gc.PAGANITE)
    assert codes(tt.suggest_titles(pagan, (pagan, pagan))) == ["CONQUEROR"]
    assert tt.win_streak((pagan, pagan), pagan) == 3
    assert codes(tt.suggest_titles(pagan, (pagan, replace(pagan, result=gc.DRAW)))) == []
    assert tt.win_streak((pagan, report()), pagan) == 1
    assert tt.win_streak((pagan, pagan, pagan), replace(pagan, result=gc.LOSS)) == 0


def test_sns_title_eternal_and_stat_0d_dark_ritual_makes_the_damned() -> None:
    """SNS-TITLE-ETERNAL, SNS-TITLE-UNDYING, SNS-STAT-0b, SNS-STAT-0c, SNS-STAT-0d: a Dark
    Ritual turns the final faction to the Damned; three such wins make The Eternal."""
    ritual = report(dark_ritual_performed=True)
    assert ritual.final_faction == gc.DAMNED
    assert codes(tt.suggest_titles(ritual, (ritual, ritual))) == ["ETERNAL", "UNDYING"]
    chosen_damned = report(faction_chosen=gc.DAMNED)
    assert codes(tt.suggest_titles(chosen_damned, (ritual, ritual))) == ["ETERNAL"]
    override = report(dark_ritual_performed=True, faction_at_end=gc.AVALONIAN)
    assert override.final_faction == gc.AVALONIAN


def test_sns_title_chosen_needs_this_game_won() -> None:
    """SNS-TITLE-CHOSEN: the streak must end with this game, won as an Avalonian."""
    win = report()
    assert codes(tt.suggest_titles(win, (win, win))) == ["CHOSEN"]
    assert codes(tt.suggest_titles(replace(win, result=gc.LOSS), (win, win, win))) == []


# --- the S and J conditions in detail -----------------------------------------------------------


def test_sns_amb_22h_agriculturalist_mill_upgrades_by_faction() -> None:
    """SNS-TITLE-AGRICULTURALIST, SNS-AMB-22h: the Damned need 6 Mill upgrades (no Worm
    Spray), the others 7; if the group defines Agricultural Revolution it is needed too."""
    assert len(tt.mill_upgrades_available(gc.AVALONIAN)) == 7
    assert tt.mill_upgrades_available(gc.DAMNED) == ALL_MILLS - {"Worm Spray"}
    damned = report(faction_chosen=gc.DAMNED, max_successful_farm_dice_one_turn=8,
                    mill_upgrades_at_end=ALL_MILLS - {"Worm Spray"})
    assert codes(tt.suggest_titles(damned)) == ["AGRICULTURALIST"]
    revolution = gc.Options(agricultural_revolution=True)
    assert codes(tt.suggest_titles(damned, options=revolution)) == []
    full = replace(damned, mill_upgrades_at_end=damned.mill_upgrades_at_end | {
        tt.AGRICULTURAL_REVOLUTION})
    assert codes(tt.suggest_titles(full, options=revolution)) == ["AGRICULTURALIST"]
    assert codes(tt.suggest_titles(replace(damned, faction_chosen=gc.PAGANITE))) == []


def test_sns_amb_22j_mighty_faction_building_and_dock() -> None:
    """SNS-TITLE-MIGHTY, SNS-AMB-22j: 21 buildings for a faction (its own included); no Dock on
    a map without one; a Castle with Completed Walls at the same moment."""
    assert len(tt.required_buildings(gc.PAGANITE)) == 21
    assert "Sacred Ground" in tt.required_buildings(gc.PAGANITE)
    assert "Dock" not in tt.required_buildings(gc.AVALONIAN, dock_available=False)
    no_dock = report(building_types_built=tt.required_buildings(gc.AVALONIAN) - {"Dock"},
                     castle_and_completed_walls_same_time=True)
    assert codes(tt.suggest_titles(no_dock)) == []
    assert codes(tt.suggest_titles(replace(no_dock, dock_available=False))) == ["MIGHTY"]
    assert codes(tt.suggest_titles(replace(
        no_dock, dock_available=False, castle_and_completed_walls_same_time=False))) == []


def test_sns_amb_22g_forest_lord_weak_branch_asks_the_gm() -> None:
    """SNS-TITLE-FORESTLORD, SNS-STAT-25, SNS-AMB-22g: depleting at most one Forest is only a
    question for the GM; two depleted and two planted is nothing."""
    weak = tt.suggest_titles(report(forests_depleted=1, reforestation_projects=0))
    assert codes(weak) == ["FORESTLORD"]
    assert weak.suggestions[0].status == tt.NEEDS_GM
    assert weak.suggestions[0].question == (
        "Did this player really harvest Forests and still deplete at most one?")
    assert tt.suggest_titles(report(forests_depleted=2, reforestation_projects=2)) \
        .suggestions == ()


def test_sns_amb_22f_defender_needs_walls_and_castle() -> None:
    """SNS-TITLE-DEFENDER, SNS-STAT-12, SNS-STAT-13, SNS-AMB-22f: never owning Walls and a
    Castle earns nothing; no attack outside at all qualifies; unrecorded turns say nothing."""
    assert tt.suggest_titles(report(walls_and_castle_turn=None,
                                    first_attack_outside_map_section_turn=None)).suggestions == ()
    peaceful = tt.suggest_titles(report(walls_and_castle_turn=20,
                                        first_attack_outside_map_section_turn=None))
    assert codes(peaceful) == ["DEFENDER"]
    assert peaceful.suggestions[0].reason == (
        "Walls and Castle on turn 20, no attack outside the map section")
    assert tt.suggest_titles(report(walls_and_castle_turn=20)).suggestions == ()


def test_sns_amb_22m_noble_over_the_reign_of_the_current_king() -> None:
    """SNS-TITLE-NOBLE, SNS-STAT-23, SNS-AMB-22m: a Warrior King bought in an earlier game of
    the same King rules it out; one bought by a dead predecessor does not."""
    clean = report(warrior_king_purchased=False, reign=2)
    assert codes(tt.suggest_titles(clean, (report(warrior_king_purchased=True, reign=1),))) \
        == ["NOBLE"]
    assert codes(tt.suggest_titles(clean, (report(warrior_king_purchased=True, reign=2),))) \
        == []


def test_sns_amb_22n_wild_is_literal() -> None:
    """SNS-TITLE-WILD, SNS-AMB-22n: a Paganite with no forbidden ritual qualifies, even with no
    ritual at all; "Ermes" is read as Emes."""
    assert codes(tt.suggest_titles(report(faction_chosen=gc.PAGANITE,
                                          rituals_performed=frozenset()))) == ["WILD"]
    assert "Emes" in tt.FORBIDDEN_WILD_RITUALS
    assert "Ermes" not in tt.FORBIDDEN_WILD_RITUALS


def test_sns_title_cunning_needs_a_successful_spy() -> None:
    """SNS-TITLE-CUNNING, SNS-STAT-29, SNS-STAT-30: three Surprise Attacks without a successful
    spy or saboteur is not enough."""
    assert tt.suggest_titles(report(surprise_attack_uses=3,
                                    successful_spy_saboteur_uses=0)).suggestions == ()


# --- SNS-STAT: report checks --------------------------------------------------------------------


def test_sns_stat_reports_that_cannot_be_true_are_refused() -> None:
    """SNS-STAT-0a, SNS-STAT-0b, SNS-STAT-0d, SNS-STAT-0f, SNS-STAT-2, SNS-STAT-7,
    SNS-STAT-21, SNS-STAT-26, SNS-KING-5, SNS-RES-2: impossible reports are refused."""
    cases = [
        (report(result="won"), "SNS-STAT-0a"),
        (report(faction_chosen="elves"), "SNS-STAT-0b"),
        (report(faction_at_end="elves"), "SNS-STAT-0d"),
        (report(king_outcome="captured"), "SNS-STAT-0f"),
        (report(king_outcome=gc.DEAD), "SNS-KING-5: red's King dead, so red lost the game"),
        (report(kills_by_turn={0: 3}), "SNS-STAT-2"),
        (report(enemy_buildings_destroyed=5, enemy_buildings_destroyed_fire_pots=6),
         "SNS-STAT-7"),
        (report(mill_upgrades_at_end=frozenset({"Windmill"})), "SNS-STAT-21: .* Windmill"),
        (report(building_types_built=frozenset({"Pyramid"})), "SNS-STAT-26: .* Pyramid"),
        (report(peak_gold=-1), "SNS-STAT: peak_gold cannot be negative"),
    ]
    for bad, message in cases:
        with pytest.raises(gc.RuleViolation, match=message):
            tt.check_report(bad)
    fine = report(enemy_buildings_destroyed=6, enemy_buildings_destroyed_fire_pots=6)
    assert tt.check_report(fine) == fine


# --- start-of-game rewards ----------------------------------------------------------------------


def test_sns_title_start_bonuses() -> None:
    """SNS-TITLE-FRUGAL, SNS-TITLE-CHARITABLE, SNS-TITLE-MYSTIC, SNS-TITLE-CHOSEN,
    SNS-TITLE-HORSEMASTER, SNS-TITLE-AGRICULTURALIST, SNS-TITLE-WARLORD, SNS-AMB-23: what an
    active Title adds at game start."""
    assert tt.title_start_bonus("FRUGAL") == (B(gold=3), "")
    assert tt.title_start_bonus("CHARITABLE") == (B(gold=1), "")
    assert tt.title_start_bonus("MYSTIC") == (B(favor=10), "")
    assert tt.title_start_bonus("CHOSEN", "favor") == (B(favor=5), "")
    assert tt.title_start_bonus("CHOSEN", "black_powder") == (B(),
                                                              "Black Powder researched free")
    assert tt.title_start_bonus("HORSEMASTER", "rider")[0] == B(villagers=-1)
    assert tt.title_start_bonus("AGRICULTURALIST")[0] == B(villagers=-1)
    assert tt.title_start_bonus("WARLORD") == (B(), "Warrior King upgrade free (SNS-AMB-23)")
    assert tt.title_start_bonus("BRAVE") == (B(), "acts during play")
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-CHOSEN: The Chosen needs a choice"):
        tt.title_start_bonus("CHOSEN")
    with pytest.raises(gc.RuleViolation, match="SNS-TITLE-G3"):
        tt.title_start_bonus("SAINTLY")
