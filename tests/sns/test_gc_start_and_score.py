"""One starting kit and one early-end score for both layers of Swords & Stones: the campaign's
starting stockpile takes its base from the economy's kit, and the economy's end-of-game counts
are scored by the Part A score."""

from __future__ import annotations

from campaign.systems.swords_and_stones.rules import economy as e
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.systems.swords_and_stones.rules.econ_stats import score_counts
from campaign.systems.swords_and_stones.rules.grand_campaign import Bundle


def test_sns_econ_5_the_campaigns_base_line_is_the_economys_standard_kit() -> None:
    """SNS-ECON-5, SNS-ECON-10: 3 Villagers and no resource, from ``economy.base_kit``."""
    assert pts.STANDARD_START == Bundle(villagers=3)
    assert pts.STANDARD_START == pts.kit_bundle(e.STANDARD)
    start = pts.starting_stockpile(())
    assert start.lines[0].bundle == Bundle(villagers=3)
    assert e.opening(start).units == {"VILLAGER": 3, "KING": 1}


def test_sns_econ_9_a_deathmatch_kit_as_a_campaign_base() -> None:
    """SNS-ECON-9: 10 Villagers and 20 of every resource but favor."""
    assert pts.kit_bundle(e.DEATHMATCH) == Bundle(food=20, wood=20, stone=20, iron=20, gold=20,
                                                  villagers=10)


def test_sns_score_1_economy_counts_are_scored_by_the_part_a_score() -> None:
    """SNS-SCORE-1, SNS-SCORE-2: 3 Villagers, the King and 5 favor with a Stockpile: 4 units
    + 5 favor + 4 for the operational Stockpile = 13; the Damned keep 70 %, rounded up: 10."""
    counts = score_counts({"VILLAGER": 3, "KING": 1}, {"STOCKPILE": 1}, favor=5, upgrades=0)
    assert tt.score_total(counts) == 13
    assert tt.score_total(counts, damned=True) == 10
