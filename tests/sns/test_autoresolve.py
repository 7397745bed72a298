"""Swords & Stones auto-resolved battles (SNS-AR-1..9, SNS-FAC-10, SNS-AMB-37)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.rules.economy import RuleViolation


def test_sns_ar_6_army_score() -> None:
    """SNS-AR-6: 1 per Barracks unit, 2 per Rider or Monk, 3 per Knight, 2 per siege unit, 4 per
    Queen or monster, 1 per Veteran token, 0.4 per Villager (rounded up)."""
    army = ("SWORDS", "ARCHERS", "RIDERS", "MONK", "KNIGHTS", "CATAPULT", "QUEEN", "DRAGON",
            "VETERAN")
    assert ar.army_score(army, side=ar.ATTACKER) == 1 + 1 + 2 + 2 + 3 + 2 + 4 + 4 + 1
    assert ar.army_score(("VILLAGER",) * 3, side=ar.ATTACKER) == 2
    assert ar.army_score(("VILLAGER",) * 5, side=ar.ATTACKER) == 2
    with pytest.raises(RuleViolation, match="SNS-AR-6"):
        ar.army_score(("COG",), side=ar.ATTACKER)


def test_sns_ar_6_siege_against_walls_and_defending_ballistas() -> None:
    """SNS-AR-6: an attacker's Catapult, Ram, Cannon or Siege Tower is worth 4 against Completed
    Walls; a defender's Ballista counts double."""
    siege = ("CATAPULT", "RAM", "BALLISTA")
    assert ar.army_score(siege, side=ar.ATTACKER) == 6
    assert ar.army_score(siege, side=ar.ATTACKER, defender_walls=True) == 10
    assert ar.army_score(("BALLISTA",), side=ar.DEFENDER) == 4


def test_sns_ar_5_damned_and_villagers_round_up() -> None:
    """SNS-AR-5, SNS-FAC-10: the Damned keep 70 % rounded up; Villagers 0.4 each, the total
    rounded up: 10 Swords Damned -> 7; 4 Swords + 4 Villagers (6) Damned -> 5."""
    assert ar.army_score(("SWORDS",) * 10, side=ar.ATTACKER, damned=True) == 7
    assert ar.army_score(("SWORDS",) * 4 + ("VILLAGER",) * 4, side=ar.ATTACKER) == 6
    assert ar.army_score(("SWORDS",) * 4 + ("VILLAGER",) * 4, side=ar.ATTACKER,
                         damned=True) == 5
    assert ar.damned_total(11) == 8


def test_sns_ar_7_kingdom_defence_score() -> None:
    """SNS-AR-7: 3 per Guard Tower and per counted upgrade (Attack Towers too), 5 island, 5
    Palisade Wall, 12 Stone Wall, 4 Trench, 10 Castle, 6 Moat, 1 per favor (at most 10); Damned
    70 % rounded up."""
    full = ar.Defences(guard_towers=2, defence_upgrades=3, attack_towers=True, island=True,
                       palisade_wall=True, stone_wall=True, trench=True, castles=1, moat=True,
                       favor_spent=10)
    assert ar.defence_score(full) == 6 + 12 + 5 + 5 + 12 + 4 + 10 + 6 + 10
    assert ar.defence_score(ar.Defences(castles=1, damned=True)) == 7
    with pytest.raises(RuleViolation, match="SNS-AR-7"):
        ar.defence_score(ar.Defences(favor_spent=11))
    bought = {"TOWNWATCH": "BARRACKS", "WELLS": "MILL", "BALLISTICS": "WORKSHOP",
              "HEROKING": "CASTLE"}
    assert ar.count_defence_upgrades(bought) == 3
    assert ar.count_defence_upgrades(bought, player=False) == 0


def test_sns_ar_1_defender_commits_until_it_just_beats() -> None:
    """SNS-AR-1: after its advance phase the defender adds units until its total just beats the
    attacker (3 + 1 + 3 + 1 = 8 only ties 8, so the Archers go too); with too few units it
    commits them all."""
    commitment = ar.commit_defenders(8, 3, ("SWORDS", "KNIGHTS", "SPEARS", "ARCHERS"))
    assert commitment == ar.Commitment(("SWORDS", "KNIGHTS", "SPEARS", "ARCHERS"), 9, True)
    strong = ar.commit_defenders(4, 5, ("KNIGHTS",))
    assert strong == ar.Commitment((), 5, True)
    weak = ar.commit_defenders(20, 3, ("SWORDS", "SPEARS"))
    assert weak == ar.Commitment(("SWORDS", "SPEARS"), 5, False)


def test_sns_ar_2_winner_buy_back_and_survivors() -> None:
    """SNS-AR-2: the higher score wins; a winning attacker buys units home with the margin (3 =
    3 Barracks units or 1 Knight), the rest come home on 5+."""
    assert ar.winner(9, 8) == ar.ATTACKER
    assert ar.winner(8, 9) == ar.DEFENDER
    left = ar.buy_back(("KNIGHTS", "SWORDS", "SWORDS"), 3, ("KNIGHTS",))
    assert left == ("SWORDS", "SWORDS")
    assert ar.buy_back(("SWORDS",) * 4, 3, ("SWORDS",) * 3) == ("SWORDS",)
    with pytest.raises(RuleViolation, match="SNS-AR-2"):
        ar.buy_back(("KNIGHTS", "SWORDS"), 3, ("KNIGHTS", "SWORDS"))
    with pytest.raises(RuleViolation, match="SNS-AR-2"):
        ar.buy_back(("SWORDS",), 3, ("KNIGHTS",))
    assert ar.survivors(("SWORDS", "SPEARS", "ARCHERS"), (5, 4, 6)) == ("SWORDS", "ARCHERS")


def test_ties_go_to_the_defender_unless_the_group_says_otherwise() -> None:
    """SNS-AR-2: equal totals are not settled by the book: the attack fails by default; a group
    may hand ties to the attacker."""
    assert ar.winner(8, 8) == ar.DEFENDER
    assert ar.winner(8, 8, ar.AROptions(tie_goes_to=ar.ATTACKER)) == ar.ATTACKER


def test_sns_ar_3_attacker_wins_whole_battle() -> None:
    """SNS-AR-3 with SNS-AR-1/2: 6 Swords and 2 Knights (12) against a kingdom with a Guard Tower
    (3) and 2 Spears: the defender reaches 5 and loses (and loses the game); margin 7 buys the
    Knights and 1 Sword home; the other 5 Swords roll."""
    battle = ar.resolve_battle(
        ("SWORDS",) * 6 + ("KNIGHTS",) * 2, ar.Defences(guard_towers=1), ("SPEARS", "SPEARS"),
        survival_dice=(5, 1, 6, 2, 3), buy=("KNIGHTS", "KNIGHTS", "SWORDS"))
    assert (battle.attacker_total, battle.defender_total, battle.margin) == (12, 5, 7)
    assert battle.winner == ar.ATTACKER and battle.defender_loses_game
    assert battle.home == ("KNIGHTS", "KNIGHTS", "SWORDS", "SWORDS", "SWORDS")
    assert battle.lost == ("SWORDS",) * 3 + ("SPEARS", "SPEARS")
    assert battle.halving_timer == 0


def test_sns_ar_4_won_defence_halves_the_enemy_for_three_turns() -> None:
    """SNS-AR-4: a won defence starts a timer of 4 (3 turns) halving the beaten attacker's total,
    rounded down by default (SNS-AMB-37), up as an option."""
    battle = ar.resolve_battle(("SWORDS",) * 5, ar.Defences(castles=1), ("SWORDS",),
                               survival_dice=())
    assert battle.winner == ar.DEFENDER and battle.defender_units == ()
    assert battle.halving_timer == 4 and not battle.defender_loses_game
    assert battle.lost == ("SWORDS",) * 5
    assert ar.attacker_total(("SWORDS",) * 7, halving=True) == 3
    assert ar.attacker_total(("SWORDS",) * 7, halving=True,
                             options=ar.AROptions(halving_rounds_up=True)) == 4
    with pytest.raises(RuleViolation, match="SNS-AR-2"):
        ar.resolve_battle(("SWORDS",), ar.Defences(castles=1), (), survival_dice=(),
                          buy=("SWORDS",))


def test_sns_ar_4_defender_survivors_roll_too() -> None:
    """SNS-AR-2 for a defending winner: its committed units come home on 5+."""
    battle = ar.resolve_battle(("SWORDS",) * 4, ar.Defences(guard_towers=1),
                               ("SPEARS", "SPEARS"), survival_dice=(6, 2))
    assert battle.defender_units == ("SPEARS", "SPEARS")
    assert battle.home == ("SPEARS",)
    assert battle.lost == ("SPEARS",) + ("SWORDS",) * 4


def test_sns_ar_8_army_level_and_scout_die() -> None:
    """SNS-AR-8, SNS-AMB-37: Scouts Report rolls by turn, the printed columns taken in order for
    Apprentice, Veteran, Master, Legend; the scout die spots on a 6 (5+ with a Monument timer)
    from the difficulty's start turn."""
    assert ar.army_level(5, "legend") == 0
    assert ar.army_level(15, "apprentice") == 0
    assert ar.army_level(15, "veteran") == 1
    assert ar.army_level(35, "legend") == 3
    assert ar.army_level(95, "master") == 5
    assert ar.army_level(120, "legend") == 7
    assert not ar.enemy_spotted(24, "veteran", 6)
    assert ar.enemy_spotted(25, "veteran", 6)
    assert ar.enemy_spotted(15, "legend", 5, monument_timer=True)
    assert not ar.enemy_spotted(15, "legend", 5)


def test_sns_ar_9_enemy_kingdom_table() -> None:
    """SNS-AR-9: an AI kingdom's level, garrison rolls and defence bonus after a turn."""
    assert ar.enemy_kingdom(10, "apprentice") == ("F", 1, 3)
    assert ar.enemy_kingdom(45, "master") == ("D", 3, 15)
    assert ar.enemy_kingdom(100, "legend") == ("A", 4, 40)
    assert ar.enemy_kingdom(150, "veteran") == ("B", 5, 30)
    assert ar.enemy_kingdom(3, "legend") == ("F", 1, 3)
