"""Swords & Stones catalogues (digest B.8-B.10, B.12): every building, upgrade and unit as data,
checked against the digest's tables, and the cost types a GM completes (SNS-AMB-30)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules.catalogue import (
    DEFAULT_CATALOGUE,
    MAP_TYPES,
    Cost,
)
from campaign.systems.swords_and_stones.rules.economy import FOOD, GOLD, STONE, WOOD, RuleViolation

# rule ID: (HP, BP, staffed, printed amounts, upkeep food, growth)
BUILDINGS = {
    "SNS-BLD-STOCKPILE": (5, None, True, (), 0, 1),
    "SNS-BLD-COMMUNE": (4, 6, True, (6, 4), 0, 0),
    "SNS-BLD-FARM": (1, 2, True, (3,), 0, 0),
    "SNS-BLD-MILL": (3, 3, True, (3, 3), 0, 0),
    "SNS-BLD-MARKET": (4, 4, True, (6, 2), 0, 0),
    "SNS-BLD-MERCHANTSGUILD": (4, 4, True, (5, 5, 5), 0, 0),
    "SNS-BLD-TAVERN": (4, 3, True, (8,), 1, 1),
    "SNS-BLD-TOWNCENTER": (6, 4, True, (5, 5), 1, 1),
    "SNS-BLD-TEMPLE": (6, 6, True, (2, 8, 2), 1, 1),
    "SNS-BLD-SACREDGROUND": (4, 8, True, (6,), 0, 0),
    "SNS-BLD-CATACOMBS": (4, 8, True, (6,), 0, 0),
    "SNS-BLD-TOTEM": (2, 6, False, (5, 2), 0, 0),
    "SNS-BLD-MONUMENT": (6, 25, True, (20, 20, 10, 10), 0, 0),
    "SNS-BLD-UNIVERSITY": (4, 4, True, (2, 6, 2), 0, 0),
    "SNS-BLD-VENDOR": (2, 2, True, (4,), 0, 0),
    "SNS-BLD-BATHHOUSE": (4, 6, True, (8, 1), 0, 0),
    "SNS-BLD-ARENA": (4, 4, True, (4, 10, 2), 1, 1),
    "SNS-BLD-BARRACKS": (6, 4, True, (4, 4), 0, 0),
    "SNS-BLD-STABLE": (4, 4, True, (5, 2), 0, 0),
    "SNS-BLD-WORKSHOP": (4, 4, True, (5, 2), 0, 0),
    "SNS-BLD-FOUNDRY": (4, 4, True, (6, 6, 4), 0, 0),
    "SNS-BLD-SIEGECAMP": (4, 6, True, (6, 3), 0, 0),
    "SNS-BLD-DOCK": (4, 4, True, (6, 4), 0, 0),
    "SNS-BLD-CASTLE": (16, 12, True, (6, 12, 2, 2), 0, 0),
    "SNS-BLD-GUARDTOWER": (4, 3, True, (2, 3, 1), 0, 0),
    "SNS-BLD-WOODBRIDGE": (3, 2, False, (2,), 0, 0),
    "SNS-BLD-PALISADEWALL": (4, 1, False, (2,), 0, 0),
    "SNS-BLD-PALISADEGATE": (4, 2, True, (3,), 0, 0),
    "SNS-BLD-STONEBRIDGE": (6, 4, False, (3,), 0, 0),
    "SNS-BLD-STONEWALL": (10, 3, False, (4,), 0, 0),
    "SNS-BLD-STONEGATE": (10, 5, True, (4, 2), 0, 0),
    "SNS-BLD-TRENCHES": (3, 3, False, (1,), 0, 0),
    "SNS-BLD-MOATS": (None, None, False, (), 0, 0),
    "SNS-BLD-MOUNDS": (None, 4, False, (), 0, 0),
}


@pytest.mark.parametrize("rule_id", sorted(BUILDINGS))
def test_sns_bld_profiles_match_the_digest(rule_id: str) -> None:
    """SNS-BLD-*: HP, BP, staff, printed cost amounts, upkeep and growth of every building."""
    building = DEFAULT_CATALOGUE.building(rule_id.removeprefix("SNS-BLD-"))
    hp, bp, staffed, amounts, upkeep, growth = BUILDINGS[rule_id]
    assert (building.hp, building.bp, building.staffed) == (hp, bp, staffed)
    assert building.cost.amounts == amounts
    assert (building.upkeep_food, building.growth) == (upkeep, growth)
    assert building.rule_id == rule_id


def test_sns_bld_catalogue_has_exactly_the_digest_buildings() -> None:
    """SNS-BLD: 34 buildings, no more and no fewer."""
    assert sorted(b.rule_id for b in DEFAULT_CATALOGUE.buildings.values()) == sorted(BUILDINGS)


def test_sns_bld_prerequisites_and_faction_marks() -> None:
    """SNS-BLD-MERCHANTSGUILD, SNS-BLD-TOWNCENTER, SNS-BLD-VENDOR, SNS-BLD-ARENA, SNS-BLD-CASTLE,
    SNS-BLD-FOUNDRY, SNS-BLD-SACREDGROUND, SNS-BLD-CATACOMBS, SNS-BLD-MONUMENT: the printed
    prerequisites, as data."""
    cat = DEFAULT_CATALOGUE
    assert cat.building("MERCHANTSGUILD").requires == ("MARKET",)
    assert cat.building("TOWNCENTER").requires_any == ("TEMPLE", "TAVERN", "MARKET", "BARRACKS",
                                                       "DOCK", "WORKSHOP")
    assert cat.building("VENDOR").requires == ("MARKET", "COMMUNE")
    assert cat.building("ARENA").requires == ("TOWNCENTER",)
    assert cat.building("BATHHOUSE").requires == ("TOWNCENTER",)
    assert cat.building("STABLE").requires == ("BARRACKS",)
    assert cat.building("CASTLE").requires == ("WORKSHOP",)
    assert cat.building("MONUMENT").requires == ("UNIVERSITY", "WORKSHOP")
    assert cat.building("FOUNDRY").faction == "A"
    assert cat.building("SACREDGROUND").faction == "P"
    assert cat.building("CATACOMBS").requires_upgrades == ("DARKRITUAL",)


def test_sns_amb_31_university_and_commune_have_no_prerequisite() -> None:
    """SNS-AMB-31: the University needs nothing; the Commune has only a placement rule."""
    assert DEFAULT_CATALOGUE.building("UNIVERSITY").requires == ()
    assert DEFAULT_CATALOGUE.building("COMMUNE").requires == ()
    assert DEFAULT_CATALOGUE.building("COMMUNE").requires_any == ()


# rule ID: (building, printed amounts, factions)
UPGRADES = {
    "SNS-UPG-REGENFORESTRY": ("STOCKPILE", (5,), ("P", "A")),
    "SNS-UPG-HUNTINGCABINS": ("STOCKPILE", (2, 2), ()),
    "SNS-UPG-MILITIA": ("STOCKPILE", (2,), ()),
    "SNS-UPG-SNOWGEAR": ("STOCKPILE", (1,), ()),
    "SNS-UPG-WELLS": ("MILL", (3, 3), ()),
    "SNS-UPG-SALTSAFE": ("MILL", (2, 2, 2), ()),
    "SNS-UPG-CROPROTATION": ("MILL", (5, 5), ()),
    "SNS-UPG-HEAVYPLOUGH": ("MILL", (6, 6), ()),
    "SNS-UPG-WORMSPRAY": ("MILL", (6,), ("A", "P")),
    "SNS-UPG-ESTATES": ("MILL", (6,), ()),
    "SNS-UPG-STONEDRILL": ("MILL", (5,), ()),
    "SNS-UPG-TRADEROUTES": ("MARKET", (5,), ()),
    "SNS-UPG-TAXATION": ("MERCHANTSGUILD", (8,), ()),
    "SNS-UPG-CUSTOMTARIFFS": ("MERCHANTSGUILD", (), ()),
    "SNS-UPG-FESTAG": ("TAVERN", (2,), ()),
    "SNS-UPG-SPIES": ("TAVERN", (4,), ()),
    "SNS-UPG-EXPLORERS": ("TAVERN", (10,), ()),
    "SNS-UPG-SMOKEHOUSE": ("TAVERN", (2, 2), ()),
    "SNS-UPG-SABOTEURS": ("TAVERN", (6,), ()),
    "SNS-UPG-JESTERSCOURT": ("TAVERN", (5,), ()),
    "SNS-UPG-REFORESTATION": ("TOWNCENTER", (4,), ()),
    "SNS-UPG-HERESY": ("TOWNCENTER", (8,), ()),
    "SNS-UPG-GONGFARMING": ("TOWNCENTER", (3,), ("A", "P")),
    "SNS-UPG-MARTIALTRADITION": ("TOWNCENTER", (5,), ("P",)),
    "SNS-UPG-CRIMEPUNISH": ("TOWNCENTER", (5, 5), ()),
    "SNS-UPG-TREASON": ("TOWNCENTER", (5,), ()),
    "SNS-UPG-MASSFUNERAL": ("TEMPLE", (1,), ()),
    "SNS-UPG-DARKRITUAL": ("TEMPLE", (), ()),
    "SNS-UPG-MARRIAGE": ("TEMPLE", (6, 6), ()),
    "SNS-UPG-FLAGELLATION": ("TEMPLE", (5,), ("P", "D")),
    "SNS-UPG-COINAGE": ("TEMPLE", (3,), ("A",)),
    "SNS-UPG-DEEPBURIAL": ("TEMPLE", (5,), ("D",)),
    "SNS-UPG-BLOODSACRIFICE": ("TEMPLE", (1,), ("P", "D")),
    "SNS-UPG-DEFARCH": ("UNIVERSITY", (6, 6), ("A",)),
    "SNS-UPG-SPRINGSTEEL": ("UNIVERSITY", (5, 2), ("A", "P")),
    "SNS-UPG-PLATEMETAL": ("UNIVERSITY", (6, 6), ()),
    "SNS-UPG-FIREPOTS": ("UNIVERSITY", (6,), ()),
    "SNS-UPG-PYROMANCY": ("UNIVERSITY", (), ("P",)),
    "SNS-UPG-BLACKPOWDER": ("UNIVERSITY", (6,), ("A",)),
    "SNS-UPG-DEMOLITION": ("UNIVERSITY", (3, 6), ()),
    "SNS-UPG-VETERANS": ("ARENA", (1,), ()),
    "SNS-UPG-DRAGONSTOCKADE": ("ARENA", (5, 5, 5), ()),
    "SNS-UPG-BLOODSPORTS": ("ARENA", (2, 2), ()),
    "SNS-UPG-TOWNWATCH": ("BARRACKS", (5,), ()),
    "SNS-UPG-MILITARYDRILLS": ("BARRACKS", (6,), ("A", "P")),
    "SNS-UPG-FORTIFIEDBARRACKS": ("BARRACKS", (3, 3, 3), ()),
    "SNS-UPG-ARBALESTS": ("BARRACKS", (4,), ("A", "P")),
    "SNS-UPG-GAMBESONS": ("BARRACKS", (6,), ()),
    "SNS-UPG-MAILARMOUR": ("BARRACKS", (10,), ()),
    "SNS-UPG-METALLURGY": ("BARRACKS", (6, 4), ()),
    "SNS-UPG-SELECTIVEBREEDING": ("STABLE", (6,), ("A", "P")),
    "SNS-UPG-RECURVEBOW": ("STABLE", (6,), ("P",)),
    "SNS-UPG-WARPIGS": ("STABLE", (3,), ("P",)),
    "SNS-UPG-BALLISTICS": ("WORKSHOP", (5,), ()),
    "SNS-UPG-TREBUCHETS": ("WORKSHOP", (5,), ()),
    "SNS-UPG-TREADMILL": ("WORKSHOP", (3,), ("A", "P")),
    "SNS-UPG-MASONSGUILD": ("WORKSHOP", (4,), ("A",)),
    "SNS-UPG-TUNNELERS": ("WORKSHOP", (5,), ()),
    "SNS-UPG-BATTLEMENTS": ("WORKSHOP", (5,), ()),
    "SNS-UPG-MURDERHOLES": ("WORKSHOP", (4, 4), ()),
    "SNS-UPG-IRONHANDS": ("FOUNDRY", (6, 6), ("A",)),
    "SNS-UPG-AVPLATE": ("FOUNDRY", (3, 3), ("A",)),
    "SNS-UPG-STEAMENGINE": ("FOUNDRY", (5, 5), ("A",)),
    "SNS-UPG-STEAMHARVESTER": ("FOUNDRY", (5, 5), ("A",)),
    "SNS-UPG-SHIPPINGROUTES": ("DOCK", (5,), ()),
    "SNS-UPG-FISHINGFLEETS": ("DOCK", (5,), ()),
    "SNS-UPG-CULTUREDFISHERS": ("DOCK", (5,), ("P",)),
    "SNS-UPG-MERCHANTNAVIES": ("DOCK", (5,), ("A", "P")),
    "SNS-UPG-GALLEONS": ("DOCK", (5,), ("A",)),
    "SNS-UPG-MERCENARIES": ("DOCK", (3,), ("A", "P")),
    "SNS-UPG-KINGSGUARD": ("CASTLE", (4,), ()),
    "SNS-UPG-SURPRISEATTACK": ("CASTLE", (6,), ("A", "P")),
    "SNS-UPG-SECRETPASSAGE": ("CASTLE", (), ()),
    "SNS-UPG-HEROKING": ("CASTLE", (3, 2), ()),
    "SNS-UPG-ATTACKTOWERS": ("GUARDTOWER", (8,), ()),
    "SNS-UPG-FORTIFIEDTOWER": ("GUARDTOWER", (), ()),
}


@pytest.mark.parametrize("rule_id", sorted(UPGRADES))
def test_sns_upg_profiles_match_the_digest(rule_id: str) -> None:
    """SNS-UPG-*: where each upgrade is bought, its printed base amounts and faction marks."""
    upgrade = DEFAULT_CATALOGUE.upgrade(rule_id.removeprefix("SNS-UPG-"))
    building, amounts, factions = UPGRADES[rule_id]
    assert upgrade.building == building
    assert upgrade.cost.amounts == amounts
    assert upgrade.factions == factions
    assert upgrade.rule_id == rule_id


def test_sns_upg_catalogue_has_exactly_the_digest_upgrades() -> None:
    """SNS-UPG: 76 upgrades and abilities."""
    assert sorted(u.rule_id for u in DEFAULT_CATALOGUE.upgrades.values()) == sorted(UPGRADES)


def test_sns_upg_surcharges_per_counted_thing() -> None:
    """SNS-UPG-MARTIALTRADITION (+1 per Villager and Barracks unit), SNS-UPG-RECURVEBOW (+1 per
    Rider), SNS-UPG-STEAMENGINE (+3 per Ram), SNS-UPG-GALLEONS (+2 per Cog),
    SNS-UPG-VETERANS (+1 per token), SNS-UPG-SECRETPASSAGE (2 per inch),
    SNS-UPG-FORTIFIEDTOWER (2 per mounting), SNS-UPG-MILITIA (2 or 2 or 5)."""
    cat = DEFAULT_CATALOGUE
    assert cat.upgrade("MARTIALTRADITION").cost_for(7).amounts == (5, 7)
    assert cat.upgrade("RECURVEBOW").cost_for(3).amounts == (6, 3)
    assert cat.upgrade("STEAMENGINE").cost_for(2).amounts == (5, 5, 6)
    assert cat.upgrade("GALLEONS").cost_for(2).amounts == (5, 4)
    assert cat.upgrade("VETERANS").cost_for(3).amounts == (1, 3)
    assert cat.upgrade("SECRETPASSAGE").cost_for(4).amounts == (8,)
    assert cat.upgrade("FORTIFIEDTOWER").cost_for(1).amounts == (2,)
    assert cat.upgrade("MILITIA").cost_for(0, 2).amounts == (5,)
    assert cat.upgrade("MARTIALTRADITION").cost_for(0).amounts == (5,)


# rule ID: (trained at, printed amounts, HP, armour)
UNITS = {
    "SNS-UNIT-VILLAGER": ("STOCKPILE", (1,), 1, 0),
    "SNS-UNIT-MONK": ("TEMPLE", (1, 2), 1, 0),
    "SNS-UNIT-CASTER": ("TEMPLE", (1, 1, 3), 1, 0),
    "SNS-UNIT-SWORDS": ("BARRACKS", (1, 2), 1, 1),
    "SNS-UNIT-SPEARS": ("BARRACKS", (1, 2), 1, 1),
    "SNS-UNIT-ARCHERS": ("BARRACKS", (1, 1, 1), 1, 0),
    "SNS-UNIT-RIDERS": ("STABLE", (2, 2), 1, 1),
    "SNS-UNIT-KNIGHTS": ("STABLE", (2, 3, 1), 1, 2),
    "SNS-UNIT-CHARIOT": ("STABLE", (3, 2, 2), 1, 1),
    "SNS-UNIT-CATAPULT": ("WORKSHOP", (1, 4), 1, 0),
    "SNS-UNIT-BALLISTA": ("WORKSHOP", (1, 3, 1), 1, 0),
    "SNS-UNIT-RAM": ("WORKSHOP", (1, 2, 1), 1, 2),
    "SNS-UNIT-SIEGETOWER": ("WORKSHOP", (1, 3, 1), 1, 2),
    "SNS-UNIT-CANNON": ("FOUNDRY", (1, 4, 1), 1, 0),
    "SNS-UNIT-COG": ("DOCK", (2, 5, 2), 2, 3),
    "SNS-UNIT-GALLEY": ("DOCK", (2, 4, 1), 2, 3),
    "SNS-UNIT-QUEEN": ("", (), 1, 2),
    "SNS-UNIT-KING": ("", (), 1, 0),
    "SNS-UNIT-ZOMBIE": ("", (), 1, 0),
    "SNS-UNIT-MERC": ("DOCK", (), 1, 0),
}


@pytest.mark.parametrize("rule_id", sorted(UNITS))
def test_sns_unit_profiles_match_the_digest(rule_id: str) -> None:
    """SNS-UNIT-*: where each unit trains, its printed cost amounts, HP and armour."""
    unit = DEFAULT_CATALOGUE.unit(rule_id.removeprefix("SNS-UNIT-"))
    trained_at, amounts, hp, armour = UNITS[rule_id]
    assert (unit.trained_at, unit.cost.amounts, unit.hp, unit.armour) == (trained_at, amounts,
                                                                          hp, armour)
    assert unit.rule_id == rule_id


def test_sns_unit_requirements() -> None:
    """SNS-UNIT-KNIGHTS (operational Castle), SNS-UNIT-CHARIOT (Spring Steel, Recurve Bow,
    Paganite), SNS-UNIT-CANNON (Black Powder, Avalonian), SNS-UNIT-ZOMBIE (Damned)."""
    cat = DEFAULT_CATALOGUE
    assert cat.unit("KNIGHTS").requires == ("CASTLE",)
    assert (cat.unit("CHARIOT").requires, cat.unit("CHARIOT").faction) == (
        ("SPRINGSTEEL", "RECURVEBOW"), "P")
    assert (cat.unit("CANNON").requires, cat.unit("CANNON").faction) == (("BLACKPOWDER",), "A")
    assert cat.unit("ZOMBIE").faction == "D"


def test_sns_amb_30_only_evidenced_types_are_certain() -> None:
    """SNS-AMB-30: the Villager's food, the Farm's and Palisade Wall's wood and the Stone Wall's
    stone are known; units' first amount is food only as a guess; everything else is unknown and
    flagged."""
    cat = DEFAULT_CATALOGUE
    assert cat.unit("VILLAGER").cost.types == (FOOD,)
    assert not cat.unit("VILLAGER").cost.types_uncertain
    assert cat.building("FARM").cost.types == (WOOD,)
    assert cat.building("PALISADEWALL").cost.types == (WOOD,)
    assert cat.building("STONEWALL").cost.types == (STONE,)
    swords = cat.unit("SWORDS").cost
    assert swords.types == (FOOD, None) and swords.guessed and swords.types_uncertain
    assert cat.building("COMMUNE").cost.types == (None, None)
    uncertain = cat.uncertain()
    assert "SNS-BLD-COMMUNE" in uncertain and "SNS-UNIT-SWORDS" in uncertain
    assert "SNS-BLD-FARM" not in uncertain and "SNS-UNIT-VILLAGER" not in uncertain
    # 28 buildings, 15 units, 71 upgrades (free ones and evidenced types excepted)
    assert len(uncertain) == 114


def test_sns_amb_30_unknown_types_refuse_until_named() -> None:
    """SNS-AMB-30: a cost with an unknown type cannot be charged until someone names it; the
    player may name the unknown amounts in order."""
    cost = DEFAULT_CATALOGUE.building("COMMUNE").cost
    with pytest.raises(RuleViolation, match="SNS-AMB-30"):
        cost.resolve()
    assert cost.resolve((WOOD, STONE)) == {WOOD: 6, STONE: 4}
    assert cost.resolve((WOOD, WOOD)) == {WOOD: 10}
    with pytest.raises(RuleViolation, match="SNS-AMB-30"):
        cost.resolve((WOOD, STONE, GOLD))
    with pytest.raises(RuleViolation, match="SNS-ECON-1"):
        cost.resolve((WOOD, "silver"))


def test_sns_amb_30_gm_completes_cost_types_per_campaign() -> None:
    """SNS-AMB-30: a GM fills in the types of a campaign's catalogue; the amounts stay as printed
    and the flag clears; the default catalogue is untouched."""
    custom = DEFAULT_CATALOGUE.with_cost_types({
        "SNS-BLD-COMMUNE": (WOOD, STONE), "SNS-UNIT-SWORDS": (FOOD, IRON_),
        "SNS-UPG-WELLS": (STONE, GOLD),
    })
    assert custom.building("COMMUNE").cost.resolve() == {WOOD: 6, STONE: 4}
    assert not custom.building("COMMUNE").cost.types_uncertain
    assert custom.unit("SWORDS").cost.resolve() == {FOOD: 1, IRON_: 2}
    assert custom.upgrade("WELLS").cost.resolve() == {STONE: 3, GOLD: 3}
    assert len(custom.uncertain()) == 111
    assert DEFAULT_CATALOGUE.building("COMMUNE").cost.types_uncertain
    with pytest.raises(ValueError, match="2 printed amounts"):
        DEFAULT_CATALOGUE.with_cost_types({"SNS-BLD-COMMUNE": (WOOD,)})
    with pytest.raises(ValueError, match="Unknown catalogue entry"):
        DEFAULT_CATALOGUE.with_cost_types({"SNS-BLD-PALACE": (WOOD,)})


IRON_ = "iron"


def test_sns_amb_30_cost_needs_one_type_per_amount() -> None:
    """SNS-AMB-30: a cost keeps exactly one (possibly unknown) type per printed amount."""
    with pytest.raises(ValueError, match="one type"):
        Cost((1, 2), (FOOD,))
    assert Cost((1, 2)).types == (None, None)
    assert Cost((1, 2)).total == 3


def test_sns_map_table_as_data() -> None:
    """SNS-MAP-1..9, SNS-AMB-35: the probable map types and their economic effects, as data a
    group may edit."""
    assert [MAP_TYPES[c].rule_id for c in MAP_TYPES] == [f"SNS-MAP-{n}" for n in range(1, 10)]
    assert MAP_TYPES["ice_lands"].farm_bp_factor == 2 and MAP_TYPES["ice_lands"].rain_rerolled
    assert MAP_TYPES["lonely_mountain"].unlimited_stone
    assert MAP_TYPES["black_forest"].forest_level == 6
    assert MAP_TYPES["great_plains"].dock_disabled
    sandy = MAP_TYPES["great_sandy"]
    assert (sandy.farm_bp_factor, sandy.farm_wood_factor, sandy.forest_start_scarcity) == (2, 2, 1)
    assert sandy.wells_lift_farm_factors and sandy.no_earthworks
    assert MAP_TYPES["mountains"].unlimited_stone
    assert "Gold Coast" in MAP_TYPES["gold_coast"].name
    assert "Galley" in MAP_TYPES["the_gaps"].note
    assert "no Outcrop removed" in MAP_TYPES["isle_of_gold"].note
