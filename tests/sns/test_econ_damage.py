"""Swords & Stones battle facts and ledger state: wounds, buildings, fire, prisoners, the King,
spells and terrain (SNS-CBT-1..15, SNS-STATE-1..7, SNS-AMB-36)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import econ_damage as d
from campaign.systems.swords_and_stones.rules.catalogue import (
    CRT_COLUMNS,
    PERSISTENT_TOKENS,
    SPELLS,
)
from campaign.systems.swords_and_stones.rules.econ_turn import Foundation, Timer
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    DAMNED,
    FAVOR,
    FOOD,
    PAGANITE,
    WOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
)


def test_sns_cbt_1_hit_points() -> None:
    """SNS-CBT-1: 1 HP unless stated; ships 2; the King +1 with Hero King and +1 with the
    Fountain of Youth."""
    assert d.unit_hp("SWORDS") == 1
    assert d.unit_hp("COG") == 2
    assert d.unit_hp("KING", hero_king=True, fountain_of_youth=True) == 3


def test_sns_cbt_2_3_4_attack_save_and_counter() -> None:
    """SNS-CBT-2..4: a roll at the table value hits; armour (1) saves on 6, (2) on 5+; armour
    piercing attacks skip it; a survivor of a close attack strikes back, not of a ranged one."""
    assert [d.armour_save_needed(n) for n in range(0, 8)] == [None, 6, 5, 4, 3, 2, 1, 0]
    saved = d.resolve_attack(3, 4, armour=2, save_roll=5)
    assert (saved.hit, saved.wounded, saved.counter_attack) == (True, False, True)
    wounded = d.resolve_attack(3, 4, armour=2, save_roll=4, target_survives=False)
    assert (wounded.wounded, wounded.counter_attack) == (True, False)
    fire = d.resolve_attack(3, 3, armour=3, ignores_armour=True, target_survives=False)
    assert fire.wounded
    ranged = d.resolve_attack(5, 2, close_combat=False)
    assert (ranged.hit, ranged.counter_attack) == (False, False)
    with pytest.raises(RuleViolation, match="SNS-CBT-3"):
        d.resolve_attack(3, 4, armour=1)


def test_sns_cbt_15_combat_table_cells() -> None:
    """SNS-CBT-15: minimum d6 to wound by attacker and target; siege engines make 3 attacks on
    buildings; "-" cannot."""
    assert len(CRT_COLUMNS) == 20
    assert d.to_wound("Knight", "Villager") == (2, 1)
    assert d.to_wound("Catapult", "Stone Wall") == (2, 3)
    assert d.to_wound("Monster", "Building") == (3, 3)
    assert d.to_wound("Monk", "Knight") is None
    assert d.to_wound("Archer", "Building") is None
    assert d.to_wound("Chariot", "Ballista") == (6, 1)


def test_sns_amb_36_spear_against_queen() -> None:
    """SNS-AMB-36: Spear against Queen is 5 (the copy with the rule text), 3 as an option."""
    assert d.to_wound("Spear", "Queen") == (5, 1)
    assert d.to_wound("Spear", "Queen", spear_queen=3) == (3, 1)
    with pytest.raises(ValueError, match="SNS-AMB-36"):
        d.to_wound("Spear", "Queen", spear_queen=4)


def test_sns_cbt_5_building_wounds_and_the_stockpile_floor() -> None:
    """SNS-CBT-5, SNS-BLD-STOCKPILE: a building falls when wounds reach its HP; the Stockpile
    never goes below 1 HP; Defensive Architecture adds HP (SNS-UPG-DEFARCH)."""
    assert d.wound_building("BARRACKS", 4, 2) == d.BuildingDamage(6, True)
    assert d.wound_building("BARRACKS", 1, 2) == d.BuildingDamage(3, False)
    assert d.wound_building("STOCKPILE", 3, 9) == d.BuildingDamage(4, False)
    bonus = d.defensive_architecture_hp("STONEWALL", True)
    assert bonus == 3 and d.defensive_architecture_hp("GUARDTOWER", True) == 2
    assert d.wound_building("STONEWALL", 8, 3, bonus_hp=bonus).destroyed is False
    with pytest.raises(RuleViolation, match="SNS-BLD-MOATS"):
        d.wound_building("MOATS", 0, 1)


def test_sns_cbt_6_foundation_wounds_add_bp() -> None:
    """SNS-CBT-6: every wound adds 2 BP; beyond the full BP the foundation is gone."""
    f = Foundation("BARRACKS", 1, 4)
    assert d.wound_foundation(f, 1) == Foundation("BARRACKS", 3, 4)
    assert d.wound_foundation(f, 2) is None


def test_sns_cbt_7_repairs_and_healing() -> None:
    """SNS-CBT-7, SNS-BLD-CATACOMBS: a ship mends free at a Dock or for 1 wood elsewhere;
    Catacombs heal the undead for 1 favor."""
    assert d.repair_ship(Stockpile(wood=1), at_dock=True) == ()
    assert d.repair_ship(Stockpile(wood=1), at_dock=False) == (
        LedgerLine(WOOD, -1, "SNS-CBT-7", "ship repair", "", 1),)
    assert d.heal_undead(Stockpile(favor=2))[0].amount == -1
    with pytest.raises(RuleViolation, match="SNS-ECON-3"):
        d.repair_ship(Stockpile(), at_dock=False)


def test_sns_cbt_8_fire() -> None:
    """SNS-CBT-8, SNS-UPG-WELLS: d6 fire damage, 1 less with Wells; a fire token stops a
    non-defensive building next turn; Yedvadova caps fires at 2 (SNS-FAC-4)."""
    assert d.fire_damage(5) == 5
    assert d.fire_damage(1, wells=True) == 0
    assert d.fire_damage(6, yedvadova=True) == 2
    assert d.wound_building("TAVERN", 0, 2, fire=True).fire_token
    assert not d.wound_building("GUARDTOWER", 0, 2, fire=True).fire_token


def test_sns_cbt_9_10_prisoners_and_captured_ships() -> None:
    """SNS-CBT-9: 1 food to keep a prisoner (a lone unit, or any Knight, Queen, Caster);
    SNS-CBT-10: 1 wood and 1 food to keep an unloaded ship."""
    assert d.take_prisoner(Stockpile(food=1), lone_unit=False, target="KNIGHTS") == (
        LedgerLine(FOOD, -1, "SNS-CBT-9", "take a knights prisoner", "", 1),)
    with pytest.raises(RuleViolation, match="SNS-CBT-9"):
        d.take_prisoner(Stockpile(food=1), lone_unit=False, target="SWORDS")
    assert len(d.capture_ship(Stockpile(food=1, wood=1), unloaded=True)) == 2
    with pytest.raises(RuleViolation, match="SNS-CBT-10"):
        d.capture_ship(Stockpile(food=1, wood=1), unloaded=False)


def test_sns_cbt_11_conversion() -> None:
    """SNS-CBT-11, SNS-UPG-TREASON: Queens convert on 3+, Casters and Monks on 4+; never Kings,
    Queens, Casters, monsters or units at home; under Treason the convert dies on 3+."""
    assert d.convert("QUEEN", "SWORDS", 3)
    assert not d.convert("MONK", "SWORDS", 3)
    assert d.convert("CASTER", "SWORDS", 4)
    assert not d.convert("MONK", "SWORDS", 5, treason=True, treason_roll=3)
    assert d.convert("MONK", "SWORDS", 5, treason=True, treason_roll=2)
    for kwargs in ({"target_in_own_zone": True}, {"target_monster": True},
                   {"target_bone": True}):
        with pytest.raises(RuleViolation, match="SNS-CBT-11"):
            d.convert("QUEEN", "SWORDS", 6, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match="SNS-CBT-11"):
        d.convert("QUEEN", "KING", 6)


def test_sns_cbt_12_king_states() -> None:
    """SNS-CBT-12: alive -> unconscious (timer 3) -> dead."""
    assert d.king_struck(d.ALIVE) == (d.UNCONSCIOUS, Timer("Unconscious King", 3))
    assert d.king_struck(d.UNCONSCIOUS) == (d.DEAD, None)
    with pytest.raises(RuleViolation, match="SNS-CBT-12"):
        d.king_struck(d.DEAD)


def test_sns_cbt_13_removed_from_play_ignores_hp() -> None:
    """SNS-CBT-13: removal leaves nothing, whatever the unit's HP."""
    assert d.remove_from_play() == 0


def test_sns_cbt_14_besieged() -> None:
    """SNS-CBT-14, SNS-ECON-46: surrounded, or Completed Walls with an enemy at every Gate."""
    assert d.is_besieged(surrounded=True)
    assert d.is_besieged(completed_walls=True, enemy_at_every_gate=True)
    assert not d.is_besieged(enemy_at_every_gate=True)


def test_sns_state_1_learning_spells() -> None:
    """SNS-STATE-1: a Caster starts with Heal (Vigor Mortis if Damned) and learns one spell of
    its faction per turn at a Temple for 1 favor."""
    assert d.starting_spells(AVALONIAN) == ("Heal",)
    assert d.starting_spells(DAMNED) == ("Vigor Mortis",)
    assert d.learn_spell(Stockpile(favor=1), ("Heal",), "Bolt", AVALONIAN)[0].amount == -1
    with pytest.raises(RuleViolation, match="SNS-STATE-1"):
        d.learn_spell(Stockpile(favor=1), ("Heal",), "Heal", AVALONIAN)
    with pytest.raises(RuleViolation, match="SNS-STATE-7"):
        d.learn_spell(Stockpile(favor=1), (), "Curse", AVALONIAN)


def test_sns_state_2_casting_and_dispelling() -> None:
    """SNS-STATE-2, SNS-STATE-7: favor paid at once (with surcharges); a Shunned kingdom casts
    nothing; dispelling costs the same and works on 2+."""
    lines = d.cast_spell(Stockpile(favor=20), "Firewall", AVALONIAN, extra=2)
    assert lines == (LedgerLine(FAVOR, -11, "SNS-STATE-2", "cast Firewall", "Firewall", 1),)
    assert d.cast_spell(Stockpile(favor=20), "Gnashing Rain", PAGANITE, level=2)[0].amount == -8
    with pytest.raises(RuleViolation, match="SNS-ECON-3"):
        d.cast_spell(Stockpile(favor=7), "Fireball", AVALONIAN)
    with pytest.raises(RuleViolation, match="SNS-STATE-3"):
        d.cast_spell(Stockpile(favor=9), "Bolt", AVALONIAN, shunned=True)
    with pytest.raises(RuleViolation, match="SNS-STATE-2"):
        d.cast_spell(Stockpile(favor=9), "Bolt", AVALONIAN, known=("Heal",))
    lines, worked = d.dispel(Stockpile(favor=9), "Curse", 1)
    assert (lines[0].amount, worked) == (-3, False)


def test_sns_state_4_persistent_tokens_listed() -> None:
    """SNS-STATE-4: the tokens and cards a ledger keeps between turns."""
    assert len(PERSISTENT_TOKENS) == 19
    assert {"Veteran", "Bomb", "Relic", "Wish", "Kingdom of Bone"} <= set(PERSISTENT_TOKENS)


def test_sns_state_6_terrain_wounds() -> None:
    """SNS-STATE-6: snow and ice wound on a 6, fire tundra on 5+."""
    assert d.terrain_wound("snow", 6) and not d.terrain_wound("ice", 5)
    assert d.terrain_wound("fire tundra", 5)
    assert not d.terrain_wound("grass", 6)


def test_sns_state_7_spell_list() -> None:
    """SNS-STATE-7: 29 spells with their favor costs and factions."""
    assert len(SPELLS) == 29
    assert (SPELLS["Voodoo Magic"].cost, SPELLS["Voodoo Magic"].factions) == (16, ("P", "D"))
    assert SPELLS["Dragon Reanimation"].cost == 12
    assert SPELLS["Dagobah"].timer == "Dagobah"


def test_sns_bld_totem_destroyed_costs_three_of_the_probable_resource() -> None:
    """SNS-BLD-TOTEM, SNS-AMB-30: a destroyed Totem costs 3 favor by default (the lost symbol's
    probable reading) or 3 of the resource the group reads; never more than there is."""
    assert d.totem_destroyed(Stockpile(favor=5)) == (
        LedgerLine(FAVOR, -3, "SNS-BLD-TOTEM", "a Totem was destroyed"),)
    assert d.totem_destroyed(Stockpile(favor=1)) == (
        LedgerLine(FAVOR, -1, "SNS-BLD-TOTEM", "a Totem was destroyed"),)
    gold = EconOptions(totem_loss_resource="gold")
    assert d.totem_destroyed(Stockpile(gold=4, favor=4), gold) == (
        LedgerLine("gold", -3, "SNS-BLD-TOTEM", "a Totem was destroyed"),)
