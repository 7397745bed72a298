"""Swords & Stones end-of-game figures from the ledger (SNS-STAT-18/22/31) and the counts of the
early-end score (SNS-SCORE-1..3, SNS-AMB-26, SNS-AMB-27)."""

from __future__ import annotations

from campaign.systems.swords_and_stones.rules import econ_advance as a
from campaign.systems.swords_and_stones.rules.econ_damage import cast_spell
from campaign.systems.swords_and_stones.rules.econ_stats import game_figures, score_counts
from campaign.systems.swords_and_stones.rules.econ_turn import Growth
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    FAVOR,
    FOOD,
    GOLD,
    WOOD,
    LedgerLine,
    Stockpile,
    book,
)
from campaign.systems.swords_and_stones.rules.titles import SCORE_TABLE, early_end, score_total


def _play() -> tuple[LedgerLine, ...]:
    """A short game: gold rises to 12, falls to 7, rises to 14; units, buildings, upgrades,
    spells."""
    stock = Stockpile(food=20, wood=20, gold=5, favor=20)
    k = a.Kingdom(AVALONIAN, stock, {"STOCKPILE": 1, "MILL": 1, "MARKET": 1},
                  {"STOCKPILE": 1, "MILL": 1, "MARKET": 1})
    lines: list[LedgerLine] = []

    def do(new: tuple[LedgerLine, ...]) -> None:
        nonlocal k
        lines.extend(new)
        k = a.Kingdom(k.faction, book(k.stockpile, new), k.built, k.operational, k.upgrades)

    do((LedgerLine(GOLD, 7, "SNS-ECON-23", "gold from O1"),))
    do(a.train(k, "VILLAGER", 2, growth=Growth((), 3)).lines)
    do(a.buy_upgrade(k, "WELLS", declared_types=(GOLD, WOOD)))
    do(a.lay_foundation(k, "FARM")[0])
    do(a.lay_foundation(k, "FARM")[0])
    do(cast_spell(k.stockpile, "Bolt", AVALONIAN, extra=1))
    do(cast_spell(k.stockpile, "Bolt", AVALONIAN))
    do(a.buy_resource(k, "market", FOOD, 2))
    do((LedgerLine(GOLD, 7, "SNS-ECON-29", "Goods and Services"),))
    return tuple(lines)


def test_sns_stat_18_peak_gold_from_the_ledger() -> None:
    """SNS-STAT-18: the highest gold ever held: 5 + 7 = 12, later 12 - 3 - 2 + 7 = 14."""
    figures = game_figures(_play(), start_gold=5)
    assert figures.peak_gold == 14
    assert game_figures((LedgerLine(GOLD, -2, "SNS-ECON-57", "x"),), 5).peak_gold == 5


def test_sns_stat_22_units_buildings_upgrades_spells_from_the_ledger() -> None:
    """SNS-STAT-22, SNS-STAT-31: 2 Villagers trained, 2 Farms laid, 1 upgrade bought, Bolt cast
    twice for 4 + 3 favor; resources gained and spent add up."""
    figures = game_figures(_play(), start_gold=5)
    assert figures.units_trained == {"SNS-UNIT-VILLAGER": 2}
    assert figures.total_units_trained == 2
    assert figures.foundations_laid == {"SNS-BLD-FARM": 2}
    assert (figures.upgrades_purchased, figures.upgrades) == (1, ("SNS-UPG-WELLS",))
    assert figures.spells_cast == {"Bolt": 2}
    assert figures.favor_spent_on_spells == 7
    assert figures.gained == {GOLD: 14, FOOD: 2}
    assert figures.spent == {FOOD: 2, GOLD: 5, WOOD: 9, FAVOR: 7}


def test_sns_score_1_counts_from_the_end_state() -> None:
    """SNS-SCORE-1, SNS-AMB-27: units (1 each, +1 military on land, +1 Knights, +3 ships, +6
    Queens and Casters), favor, non-defensive operational buildings 4, towers 4, upgrades 4,
    Castles 10, Completed Walls 10, Monuments 20."""
    counts = score_counts(
        {"VILLAGER": 3, "KING": 1, "SWORDS": 2, "KNIGHTS": 1, "COG": 1, "CASTER": 1},
        {"STOCKPILE": 1, "TAVERN": 1, "GUARDTOWER": 2, "CASTLE": 1, "STONEWALL": 6},
        favor=5, upgrades=3, completed_walls=1, veteran_or_bomb_units=1,
    )
    assert counts == {
        "units": 9, "favor": 5, "military_on_land": 3, "elite_units": 1, "ships": 1,
        "veteran_or_bomb_units": 1, "operational_buildings": 2, "towers": 2, "upgrades": 3,
        "dragons_queens_casters": 1, "castles": 1, "completed_walls": 1, "monuments": 0,
    }
    assert SCORE_TABLE["veteran_or_bomb_units"] == 3 and SCORE_TABLE["upgrades"] == 4
    # 9 + 5 + 3 + 1 + 3 + 3 + 8 + 8 + 12 + 6 + 10 + 10 = 78
    assert score_total(counts) == 78


def test_sns_score_2_damned_keep_seventy_percent() -> None:
    """SNS-SCORE-2, SNS-FAC-10: a Damned total times 0.7, rounded up (7 -> 5)."""
    counts = score_counts({"VILLAGER": 3}, {"STOCKPILE": 1}, favor=0, upgrades=0)
    assert score_total(counts) == 7
    assert score_total(counts, damned=True) == 5


def test_sns_score_3_early_end_needs_a_lead_of_ten() -> None:
    """SNS-SCORE-3, SNS-AMB-26: the early-end score is its own tally (not campaign VP): the top
    score wins by 10 or more, else a draw."""
    assert early_end({"Red": 78, "Blue": 68}).winners == ("Red",)
    assert early_end({"Red": 78, "Blue": 69}).drawn == ("Red", "Blue")
    assert "campaign_vp" not in score_counts({}, {}, favor=0, upgrades=0)
