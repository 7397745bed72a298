"""Swords & Stones advance phase and factions: training, foundations, upgrades, abilities,
trade, demolition (SNS-ECON-50..61, SNS-FAC-1..9, SNS-MAP-*, SNS-AMB-29/30)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import econ_advance as a
from campaign.systems.swords_and_stones.rules.catalogue import DEFAULT_CATALOGUE
from campaign.systems.swords_and_stones.rules.econ_turn import Growth, GrowthLine
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    DAMNED,
    FAVOR,
    FOOD,
    GOLD,
    IRON,
    PAGANITE,
    STONE,
    WOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
    net,
)

RICH = Stockpile(food=40, wood=40, stone=40, iron=40, gold=40, favor=40)
GROWTH_3 = Growth((GrowthLine(3, "SNS-ECON-44", "test"),), 3)
# A GM who completed some types from the printed book (SNS-AMB-30).
TYPED = DEFAULT_CATALOGUE.with_cost_types({
    "SNS-UNIT-SWORDS": (FOOD, IRON), "SNS-UNIT-ARCHERS": (FOOD, WOOD, GOLD),
    "SNS-UNIT-GALLEY": (FOOD, WOOD, GOLD), "SNS-UNIT-RIDERS": (FOOD, GOLD),
    "SNS-UNIT-MONK": (FOOD, FAVOR), "SNS-BLD-BARRACKS": (WOOD, STONE),
    "SNS-BLD-MARKET": (WOOD, STONE), "SNS-BLD-STONEGATE": (STONE, WOOD),
    "SNS-UPG-WELLS": (STONE, WOOD), "SNS-UPG-FESTAG": (FOOD,),
})


def kingdom(faction: str = AVALONIAN, stock: Stockpile = RICH, *buildings: str,
            upgrades: tuple[str, ...] = (), **extra: object) -> a.Kingdom:
    built = {b: 1 for b in ("STOCKPILE", *buildings)}
    return a.Kingdom(faction, stock, built, dict(built), frozenset(upgrades), **extra)  # type: ignore


def _amounts(lines: tuple[LedgerLine, ...]) -> dict[str, int]:
    return {r: n for r, n in net(lines).items() if n}


def test_sns_econ_50_51_train_villagers_at_the_stockpile() -> None:
    """SNS-ECON-50, SNS-ECON-51, SNS-UNIT-VILLAGER: a Villager costs 1 food at the Stockpile; the
    lines carry the unit and the count for the report."""
    training = a.train(kingdom(), "VILLAGER", 3, growth=GROWTH_3)
    assert training.lines == (LedgerLine(FOOD, -3, "SNS-ECON-51", "train 3 Villager",
                                         "SNS-UNIT-VILLAGER", 3),)
    with pytest.raises(RuleViolation, match="SNS-ECON-51"):
        a.train(kingdom(), "VILLAGER", 2, growth=GROWTH_3, trained_this_turn=2)


def test_sns_econ_51_needs_the_operational_building_and_prerequisites() -> None:
    """SNS-ECON-51, SNS-ECON-55, SNS-UNIT-KNIGHTS: no Barracks, no Swords; Knights need a
    Castle; a Stockpile with too little food refuses (SNS-ECON-3)."""
    with pytest.raises(RuleViolation, match="operational Barracks"):
        a.train(kingdom(), "SWORDS", growth=GROWTH_3, catalogue=TYPED)
    with pytest.raises(RuleViolation, match="SNS-UNIT-KNIGHTS"):
        a.train(kingdom(AVALONIAN, RICH, "STABLE"), "KNIGHTS", growth=GROWTH_3,
                declared_types=(GOLD, IRON))
    with pytest.raises(RuleViolation, match="SNS-ECON-3"):
        a.train(kingdom(AVALONIAN, Stockpile(food=1)), "VILLAGER", 2, growth=GROWTH_3)


def test_sns_econ_51_unknown_cost_types_need_naming() -> None:
    """SNS-ECON-51, SNS-AMB-30: a Swords unit's second amount has no known type: refused until
    the GM fills it in or the player names it."""
    k = kingdom(AVALONIAN, RICH, "BARRACKS")
    with pytest.raises(RuleViolation, match="SNS-AMB-30"):
        a.train(k, "SWORDS", growth=GROWTH_3)
    named = a.train(k, "SWORDS", growth=GROWTH_3, declared_types=(IRON,))
    assert _amounts(named.lines) == {FOOD: -1, IRON: -2}
    typed = a.train(k, "SWORDS", 2, growth=GROWTH_3, catalogue=TYPED)
    assert _amounts(typed.lines) == {FOOD: -2, IRON: -4}


def test_sns_econ_51_outside_own_section_doubles_food() -> None:
    """SNS-ECON-51: training outside the own map section costs double food."""
    k = kingdom(AVALONIAN, RICH, "BARRACKS")
    far = a.train(k, "ARCHERS", growth=GROWTH_3, outside_own_section=True, catalogue=TYPED)
    assert _amounts(far.lines) == {FOOD: -2, WOOD: -1, GOLD: -1}


def test_sns_econ_52_training_up_costs_one_food_less_and_no_growth() -> None:
    """SNS-ECON-52: a Villager retrained into Swords pays 1 food less and uses no growth; a Siege
    Camp retrains into Workshop units only (SNS-BLD-SIEGECAMP)."""
    k = kingdom(AVALONIAN, RICH, "BARRACKS")
    up = a.train_up(k, "SWORDS", catalogue=TYPED)
    assert _amounts(up.lines) == {IRON: -2}
    assert (up.uses_growth, up.lines[0].rule_id, up.lines[0].count) == (False, "SNS-ECON-52", 1)
    with pytest.raises(RuleViolation, match="SNS-ECON-52"):
        a.train_up(k, "VILLAGER")
    camp = kingdom(AVALONIAN, RICH, "SIEGECAMP")
    with pytest.raises(RuleViolation, match="SNS-BLD-SIEGECAMP"):
        a.train_up(camp, "SWORDS", at_siege_camp=True, catalogue=TYPED)
    cat = a.train_up(camp, "CATAPULT", at_siege_camp=True, declared_types=(WOOD,))
    assert _amounts(cat.lines) == {WOOD: -4}


def test_sns_unit_surcharges_from_upgrades() -> None:
    """SNS-UNIT-RIDERS (Recurve Bow +1), SNS-UNIT-RAM (Steam Engine +3), SNS-UNIT-COG
    (Galleons +2), SNS-UNIT-GALLEY (Paganites pay no gold), SNS-UNIT-ARCHERS (Martial
    Tradition: 1, 1)."""
    k = kingdom(PAGANITE, RICH, "STABLE", "DOCK", "BARRACKS",
                upgrades=("RECURVEBOW", "MARTIALTRADITION"))
    assert a.unit_cost(k, "RIDERS", declared_types=(GOLD,), catalogue=TYPED) == {FOOD: 2,
                                                                                 GOLD: 3}
    assert a.unit_cost(k, "GALLEY", catalogue=TYPED) == {FOOD: 2, WOOD: 4}
    assert a.unit_cost(k, "ARCHERS", declared_types=(WOOD,)) == {FOOD: 1, WOOD: 1}
    av = kingdom(AVALONIAN, RICH, upgrades=("STEAMENGINE", "GALLEONS"))
    assert a.unit_cost(av, "RAM", declared_types=(WOOD, IRON, WOOD)) == {FOOD: 1, WOOD: 5,
                                                                         IRON: 1}
    assert a.unit_cost(av, "COG", declared_types=(WOOD, GOLD, GOLD)) == {FOOD: 2, WOOD: 5,
                                                                         GOLD: 4}
    assert a.unit_cost(av, "GALLEY", catalogue=TYPED) == {FOOD: 2, WOOD: 4, GOLD: 1}


def test_sns_fac_1_faction_only_units_and_buildings() -> None:
    """SNS-FAC-1, SNS-UNIT-CANNON, SNS-BLD-FOUNDRY, SNS-UNIT-CHARIOT: items marked A, P or D are
    for that faction only."""
    with pytest.raises(RuleViolation, match="SNS-FAC-1"):
        a.train(kingdom(PAGANITE, RICH, "FOUNDRY"), "CANNON", growth=GROWTH_3)
    with pytest.raises(RuleViolation, match="SNS-FAC-1"):
        a.lay_foundation(kingdom(PAGANITE), "FOUNDRY", declared_types=(WOOD, STONE, IRON))
    with pytest.raises(RuleViolation, match="SNS-FAC-1"):
        a.train(kingdom(AVALONIAN, RICH, "STABLE", upgrades=("SPRINGSTEEL", "RECURVEBOW")),
                "CHARIOT", growth=GROWTH_3)


def test_sns_fac_9_kingdom_of_bone_pays_favor_and_ignores_growth() -> None:
    """SNS-FAC-9: a Kingdom of Bone pays unit food in favor (not for Monks), trains without the
    growth limit, and its Villagers come out as Zombies."""
    bone = kingdom(DAMNED, RICH, "TEMPLE", kingdom_of_bone=True)
    zero = Growth((), 0)
    trained = a.train(bone, "VILLAGER", 5, growth=zero)
    assert _amounts(trained.lines) == {FAVOR: -5}
    assert (trained.unit, trained.count, trained.uses_growth) == ("ZOMBIE", 5, False)
    monk = a.train(bone, "MONK", growth=zero, catalogue=TYPED)
    assert _amounts(monk.lines) == {FOOD: -1, FAVOR: -2}


def test_sns_econ_53_lay_foundation_pays_and_places_bp_die() -> None:
    """SNS-ECON-53, SNS-BLD-FARM: a Farm costs 3 wood and starts with its 2 BP."""
    lines, foundation = a.lay_foundation(kingdom(), "FARM")
    assert lines == (LedgerLine(WOOD, -3, "SNS-ECON-53", "foundation of a Farm",
                                "SNS-BLD-FARM", 1),)
    assert (foundation.building, foundation.bp_remaining, foundation.bp_full) == ("FARM", 2, 2)


def test_sns_econ_53_prerequisites_and_limits() -> None:
    """SNS-ECON-53, SNS-BLD-STABLE, SNS-BLD-TOWNCENTER, SNS-BLD-CATACOMBS,
    SNS-BLD-MERCHANTSGUILD: prerequisites must stand; one Guild plus one per 2 Communes and 2
    Vendors; Stockpiles are not built."""
    with pytest.raises(RuleViolation, match="SNS-BLD-STABLE"):
        a.lay_foundation(kingdom(), "STABLE", declared_types=(WOOD, STONE))
    with pytest.raises(RuleViolation, match="SNS-BLD-TOWNCENTER"):
        a.lay_foundation(kingdom(), "TOWNCENTER", declared_types=(WOOD, STONE))
    a.lay_foundation(kingdom(AVALONIAN, RICH, "TAVERN"), "TOWNCENTER",
                     declared_types=(WOOD, STONE))
    with pytest.raises(RuleViolation, match="SNS-BLD-CATACOMBS"):
        a.lay_foundation(kingdom(DAMNED), "CATACOMBS", declared_types=(STONE,))
    with pytest.raises(RuleViolation, match="SNS-BLD-STOCKPILE"):
        a.lay_foundation(kingdom(), "STOCKPILE")
    guild = a.Kingdom(AVALONIAN, RICH, {"MARKET": 1, "MERCHANTSGUILD": 1, "COMMUNE": 2,
                                        "VENDOR": 1}, {})
    with pytest.raises(RuleViolation, match="SNS-BLD-MERCHANTSGUILD"):
        a.lay_foundation(guild, "MERCHANTSGUILD", declared_types=(WOOD, STONE, GOLD))
    assert a.merchants_guild_limit(4, 4) == 3
    assert a.merchants_guild_limit(2, 1) == 1


def test_sns_amb_29_monument_cost_profile_or_summary() -> None:
    """SNS-AMB-29, SNS-BLD-MONUMENT: the profile's 20, 20, 10, 10 by default; the summary's
    20, 20, 10 as an option; 25 BP."""
    k = kingdom(AVALONIAN, RICH, "UNIVERSITY", "WORKSHOP")
    types = (STONE, WOOD, GOLD, IRON)
    cost, bp = a.building_cost(k, "MONUMENT", declared_types=types)
    assert (cost, bp) == ({STONE: 20, WOOD: 20, GOLD: 10, IRON: 10}, 25)
    cost, _ = a.building_cost(k, "MONUMENT", declared_types=types[:3],
                              options=EconOptions(monument_cost_source="summary"))
    assert cost == {STONE: 20, WOOD: 20, GOLD: 10}


def test_sns_fac_3_paganite_pays_stone_in_wood_with_a_workshop() -> None:
    """SNS-FAC-3: with a Workshop a Paganite may pay the stone of a building in wood, but not
    for Stone Walls or Gatehouses; others may not."""
    pag = kingdom(PAGANITE, RICH, "WORKSHOP")
    lines, _ = a.lay_foundation(pag, "BARRACKS", wood_for_stone=4, catalogue=TYPED)
    assert _amounts(lines) == {WOOD: -8}
    with pytest.raises(RuleViolation, match="SNS-FAC-3"):
        a.lay_foundation(pag, "STONEGATE", wood_for_stone=1, catalogue=TYPED)
    with pytest.raises(RuleViolation, match="SNS-FAC-3"):
        a.lay_foundation(kingdom(AVALONIAN, RICH, "WORKSHOP"), "BARRACKS", wood_for_stone=1,
                         catalogue=TYPED)
    with pytest.raises(RuleViolation, match="SNS-FAC-3"):
        a.lay_foundation(kingdom(PAGANITE), "BARRACKS", wood_for_stone=1, catalogue=TYPED)


def test_sns_upg_masonsguild_takes_one_off_except_stone_walls() -> None:
    """SNS-UPG-MASONSGUILD: -1 of the probable resource (stone; an option, SNS-AMB-30) on each
    building, not on Stone Walls."""
    k = kingdom(AVALONIAN, RICH, upgrades=("MASONSGUILD",))
    assert a.building_cost(k, "BARRACKS", catalogue=TYPED)[0] == {WOOD: 4, STONE: 3}
    assert a.building_cost(k, "STONEWALL")[0] == {STONE: 4}
    wood_reading = EconOptions(masons_guild_resource=WOOD)
    assert a.building_cost(k, "BARRACKS", options=wood_reading, catalogue=TYPED)[0] == {
        WOOD: 3, STONE: 4}


def test_sns_map_1_and_8_farm_costs() -> None:
    """SNS-MAP-1 (Ice lands: Farm BP doubled), SNS-MAP-8 (Great Sandy: Farm BP and wood doubled
    unless Wells), SNS-BLD-STONEBRIDGE (doubled over impassable ground)."""
    k = kingdom()
    assert a.building_cost(k, "FARM", options=EconOptions(map_type="ice_lands")) == (
        {WOOD: 3}, 4)
    sandy = EconOptions(map_type="great_sandy")
    assert a.building_cost(k, "FARM", options=sandy) == ({WOOD: 6}, 4)
    wells = kingdom(AVALONIAN, RICH, upgrades=("WELLS",))
    assert a.building_cost(wells, "FARM", options=sandy) == ({WOOD: 3}, 2)
    assert a.building_cost(k, "STONEBRIDGE", declared_types=(STONE,), over_impassable=True) == (
        {STONE: 6}, 8)


def test_sns_map_5_and_8_forbidden_buildings() -> None:
    """SNS-MAP-5 (Great Plains: no Dock), SNS-MAP-8 (Great Sandy: no Trenches, Moats, Mounds)."""
    with pytest.raises(RuleViolation, match="SNS-MAP-5"):
        a.lay_foundation(kingdom(), "DOCK", declared_types=(WOOD, STONE),
                         options=EconOptions(map_type="great_plains"))
    with pytest.raises(RuleViolation, match="SNS-MAP-8"):
        a.lay_foundation(kingdom(), "TRENCHES", declared_types=(WOOD,),
                         options=EconOptions(map_type="great_sandy"))
    a.lay_foundation(kingdom(), "TRENCHES", declared_types=(WOOD,))


def test_sns_econ_54_55_staff_and_operational_buildings_gate_actions() -> None:
    """SNS-ECON-54, SNS-ECON-55: an unstaffed (or enemy-touched) building is not operational: it
    trains nothing and sells no upgrades, even if it stands."""
    k = a.Kingdom(AVALONIAN, RICH, {"STOCKPILE": 1, "BARRACKS": 1}, {"STOCKPILE": 1})
    with pytest.raises(RuleViolation, match="SNS-ECON-55"):
        a.train(k, "SWORDS", growth=GROWTH_3, catalogue=TYPED)
    with pytest.raises(RuleViolation, match="SNS-ECON-55"):
        a.buy_upgrade(k, "TOWNWATCH", declared_types=(GOLD,))


def test_sns_econ_56_upgrades_bought_once_with_prerequisites() -> None:
    """SNS-ECON-56, SNS-UPG-WELLS, SNS-UPG-HEAVYPLOUGH, SNS-UPG-CROPROTATION: an upgrade is paid
    at its building, kept once bought, needs its prerequisites; free upgrades book nothing."""
    k = kingdom(AVALONIAN, RICH, "MILL")
    lines = a.buy_upgrade(k, "WELLS", catalogue=TYPED)
    assert lines == (LedgerLine(WOOD, -3, "SNS-ECON-56", "upgrade Wells", "SNS-UPG-WELLS", 1),
                     LedgerLine(STONE, -3, "SNS-ECON-56", "upgrade Wells", "SNS-UPG-WELLS", 0))
    owned = kingdom(AVALONIAN, RICH, "MILL", upgrades=("WELLS",))
    with pytest.raises(RuleViolation, match="already own"):
        a.buy_upgrade(owned, "WELLS", catalogue=TYPED)
    with pytest.raises(RuleViolation, match="SNS-UPG-HEAVYPLOUGH"):
        a.buy_upgrade(k, "HEAVYPLOUGH", declared_types=(WOOD, IRON))
    with pytest.raises(RuleViolation, match="SNS-UPG-CROPROTATION"):
        a.buy_upgrade(k, "CROPROTATION", declared_types=(WOOD, FOOD))
    assert a.buy_upgrade(k, "SALTSAFE", free=True) == ()


def test_sns_upg_faction_and_undefined_prerequisites() -> None:
    """SNS-UPG-COINAGE (Avalonian only), SNS-UPG-STEAMHARVESTER (needs the undefined
    Agricultural Revolution, which counts once the GM lists it, SNS-AMB-23)."""
    with pytest.raises(RuleViolation, match="SNS-UPG-COINAGE"):
        a.buy_upgrade(kingdom(PAGANITE, RICH, "TEMPLE"), "COINAGE", declared_types=(GOLD,))
    needs = ("STEAMENGINE", "HEAVYPLOUGH", "CROPROTATION", "WORMSPRAY", "WELLS")
    k = kingdom(AVALONIAN, RICH, "FOUNDRY", upgrades=needs)
    with pytest.raises(RuleViolation, match="AGRICULTURAL_REVOLUTION"):
        a.buy_upgrade(k, "STEAMHARVESTER", declared_types=(IRON, GOLD))
    k = kingdom(AVALONIAN, RICH, "FOUNDRY", upgrades=(*needs, "AGRICULTURAL_REVOLUTION"))
    assert _amounts(a.buy_upgrade(k, "STEAMHARVESTER", declared_types=(IRON, GOLD))) == {
        IRON: -5, GOLD: -5}


def test_sns_upg_abilities_festag_mass_funeral_snow_gear() -> None:
    """SNS-UPG-FESTAG, SNS-UPG-MASSFUNERAL: pay at each use for +1 growth, once a turn;
    SNS-UPG-SNOWGEAR: 1 per 6 units; SNS-UPG-BLOODSPORTS: a sacrifice for +1 growth;
    SNS-UPG-MILITIA works from a non-operational Stockpile's kingdom."""
    k = kingdom(AVALONIAN, RICH, "TAVERN", "TEMPLE", upgrades=("BLOODSPORTS",))
    use = a.use_ability(k, "FESTAG", catalogue=TYPED)
    assert (_amounts(use.lines), use.growth) == ({FOOD: -2}, GrowthLine(1, "SNS-UPG-FESTAG",
                                                                        "Festag"))
    with pytest.raises(RuleViolation, match="SNS-UPG-FESTAG"):
        a.use_ability(k, "FESTAG", used_this_turn=True, catalogue=TYPED)
    funeral = a.use_ability(k, "MASSFUNERAL", declared_types=(FOOD,))
    assert funeral.growth is not None and funeral.growth.amount == 1
    snow = a.use_ability(k, "SNOWGEAR", items=13, declared_types=(WOOD,))
    assert _amounts(snow.lines) == {WOOD: -3}
    assert a.blood_sports(k).growth == GrowthLine(1, "SNS-UPG-BLOODSPORTS", "Blood Sports")
    with pytest.raises(RuleViolation, match="SNS-UPG-BLOODSPORTS"):
        a.blood_sports(kingdom())
    militia = a.use_ability(a.Kingdom(AVALONIAN, RICH, {}, {}), "MILITIA", alternative=2,
                            declared_types=(FOOD,))
    assert _amounts(militia.lines) == {FOOD: -5}
    with pytest.raises(RuleViolation, match="not an ability"):
        a.use_ability(k, "WELLS")


def test_sns_econ_57_market_tavern_and_routes() -> None:
    """SNS-ECON-57, SNS-UPG-TRADEROUTES, SNS-UPG-SHIPPINGROUTES, SNS-UPG-CUSTOMTARIFFS: Market 4
    for 1, Tavern 5 for 1, Trade Routes 6 for 2, Shipping Routes 10 for 6 with +1 gold from Custom
    Tariffs; never favor."""
    k = kingdom(AVALONIAN, RICH, "MARKET", "TAVERN", "DOCK", "MERCHANTSGUILD",
                upgrades=("TRADEROUTES", "SHIPPINGROUTES", "CUSTOMTARIFFS"))
    assert _amounts(a.exchange(k, "market", WOOD, STONE, 2)) == {WOOD: -8, STONE: 2}
    assert _amounts(a.exchange(k, "tavern", WOOD, STONE)) == {WOOD: -5, STONE: 1}
    assert _amounts(a.exchange(k, "trade_routes", FOOD, IRON)) == {FOOD: -6, IRON: 2}
    assert _amounts(a.exchange(k, "shipping_routes", FOOD, IRON)) == {FOOD: -10, IRON: 6,
                                                                      GOLD: 1}
    with pytest.raises(RuleViolation, match="SNS-ECON-57"):
        a.exchange(k, "market", FAVOR, GOLD)
    with pytest.raises(RuleViolation, match="SNS-UPG-TRADEROUTES"):
        a.exchange(kingdom(AVALONIAN, RICH, "MARKET"), "trade_routes", FOOD, IRON)
    with pytest.raises(RuleViolation, match="SNS-ECON-3"):
        a.exchange(kingdom(AVALONIAN, Stockpile(wood=3), "MARKET"), "market", WOOD, STONE)


def test_sns_econ_57_buying_for_the_probable_price_resource() -> None:
    """SNS-ECON-57, SNS-AMB-30: a Market or Tavern sells 1 of a resource for 1 gold by default;
    a group may read the lost symbol otherwise."""
    k = kingdom(AVALONIAN, RICH, "MARKET")
    assert _amounts(a.buy_resource(k, "market", IRON, 3)) == {GOLD: -3, IRON: 3}
    other = EconOptions(market_price_resource=FOOD)
    assert _amounts(a.buy_resource(k, "market", IRON, 2, options=other)) == {FOOD: -2, IRON: 2}
    with pytest.raises(RuleViolation, match="SNS-ECON-57"):
        a.buy_resource(k, "market", FAVOR)


def test_sns_econ_57_alchemy_and_player_trade() -> None:
    """SNS-ECON-57: Alchemical secrets turn stone 1 for 1; players trade with both Markets or
    touching zones; ransom needs neither (SNS-CBT-9)."""
    k = kingdom(AVALONIAN, Stockpile(stone=5), "MARKET")
    assert _amounts(a.alchemy(k, {GOLD: 3, IRON: 2})) == {STONE: -5, GOLD: 3, IRON: 2}
    with pytest.raises(RuleViolation, match="SNS-ECON-57"):
        a.alchemy(k, {FAVOR: 1})
    red = kingdom(AVALONIAN, Stockpile(gold=5), "MARKET")
    blue = kingdom(PAGANITE, Stockpile(food=9), "MARKET")
    mine, theirs = a.player_trade(red, blue, {GOLD: 2}, {FOOD: 6})
    assert _amounts(mine) == {GOLD: -2, FOOD: 6} and _amounts(theirs) == {FOOD: -6, GOLD: 2}
    lonely = kingdom(PAGANITE, Stockpile(food=9))
    with pytest.raises(RuleViolation, match="SNS-ECON-57"):
        a.player_trade(red, lonely, {GOLD: 2}, {FOOD: 6})
    a.player_trade(red, lonely, {GOLD: 2}, {FOOD: 6}, zones_touch=True)
    a.player_trade(red, lonely, {GOLD: 2}, {}, ransom=True)


def test_sns_econ_46_besieged_trades_only_with_a_dock() -> None:
    """SNS-ECON-46: a besieged kingdom trades at neither Market nor with players unless it has an
    operational Dock."""
    sieged = kingdom(AVALONIAN, RICH, "MARKET", besieged=True)
    with pytest.raises(RuleViolation, match="SNS-ECON-46"):
        a.exchange(sieged, "market", WOOD, STONE)
    with pytest.raises(RuleViolation, match="SNS-ECON-46"):
        a.player_trade(sieged, kingdom(AVALONIAN, RICH, "MARKET"), {WOOD: 1}, {})
    docked = kingdom(AVALONIAN, RICH, "MARKET", "DOCK", besieged=True)
    assert _amounts(a.exchange(docked, "market", WOOD, STONE)) == {WOOD: -4, STONE: 1}


def test_sns_econ_58_demolition_and_refunds() -> None:
    """SNS-ECON-58, SNS-BLD-PALISADEWALL, SNS-BLD-TRENCHES, SNS-BLD-MOATS: full refund only at
    full HP; cancelled foundations always; 2 BP per unit per phase; Stockpiles, Moats and Trenches
    are never removed."""
    paid = {WOOD: 2}
    assert a.refund(kingdom(), "PALISADEWALL", resources=paid) == (
        LedgerLine(WOOD, 2, "SNS-ECON-58", "refund for a palisadewall"),)
    assert a.refund(kingdom(), "BARRACKS", full_hp=False, resources={WOOD: 4}) == ()
    assert _amounts(a.refund(kingdom(), "BARRACKS", full_hp=False, foundation=True,
                             resources={WOOD: 4})) == {WOOD: 4}
    for code in ("STOCKPILE", "MOATS", "TRENCHES"):
        with pytest.raises(RuleViolation, match="SNS-ECON-58"):
            a.refund(kingdom(), code, resources={})
    assert a.demolition_progress(5, 2) == 1
    assert a.demolition_progress(3, 2) == 0


def test_sns_econ_59_60_zone_and_allies_are_table_facts() -> None:
    """SNS-ECON-59 (kingdom zone), SNS-ECON-60 (allies work each other's foundations by
    agreement): geometry the table decides; the rules take their outcome, e.g. a trade between
    allies whose zones touch needs no Market."""
    allies = (kingdom(AVALONIAN, Stockpile(wood=4)), kingdom(PAGANITE, Stockpile(food=4)))
    mine, _ = a.player_trade(*allies, {WOOD: 4}, {FOOD: 4}, zones_touch=True)
    assert _amounts(mine) == {WOOD: -4, FOOD: 4}


def test_sns_econ_61_unconscious_king_blocks_the_advance_phase() -> None:
    """SNS-ECON-61: no trading, training, upgrades or foundations while the King is unconscious,
    unless a Queen rules."""
    out = kingdom(AVALONIAN, RICH, "MARKET", "MILL", king_unconscious=True)
    with pytest.raises(RuleViolation, match="SNS-ECON-61"):
        a.train(out, "VILLAGER", growth=GROWTH_3)
    with pytest.raises(RuleViolation, match="SNS-ECON-61"):
        a.exchange(out, "market", WOOD, STONE)
    with pytest.raises(RuleViolation, match="SNS-ECON-61"):
        a.lay_foundation(out, "FARM")
    with pytest.raises(RuleViolation, match="SNS-ECON-61"):
        a.buy_upgrade(out, "WELLS", catalogue=TYPED)
    queen = kingdom(AVALONIAN, RICH, king_unconscious=True, queen_rules=True)
    assert _amounts(a.train(queen, "VILLAGER", growth=GROWTH_3).lines) == {FOOD: -1}


def test_sns_fac_5_dark_ritual_costs_all_favor() -> None:
    """SNS-FAC-5, SNS-UPG-DARKRITUAL: at an operational Temple with a sacrifice, all favor is
    lost and the kingdom becomes Damned; not twice."""
    k = kingdom(AVALONIAN, Stockpile(favor=7), "TEMPLE")
    assert a.dark_ritual(k) == (LedgerLine(FAVOR, -7, "SNS-FAC-5", "Dark Ritual",
                                           "SNS-UPG-DARKRITUAL", 1),)
    with pytest.raises(RuleViolation, match="SNS-FAC-5"):
        a.dark_ritual(k, sacrifice_available=False)
    with pytest.raises(RuleViolation, match="SNS-FAC-5"):
        a.dark_ritual(kingdom(DAMNED, Stockpile(), "TEMPLE"))


def test_sns_fac_8_mass_sacrifice_needs_ten() -> None:
    """SNS-FAC-8: Mass Sacrifice at completed Catacombs removes at least 10 units."""
    assert a.mass_sacrifice_allowed(True, 10)
    assert not a.mass_sacrifice_allowed(True, 9)
    assert not a.mass_sacrifice_allowed(False, 12)


def test_sns_bld_vendor_gold_from_unused_growth() -> None:
    """SNS-BLD-VENDOR: each Vendor with its own Commune and a working Market gives 1 gold per
    unused growth point at the end of the advance phase."""
    assert a.vendor_gold(2, 1, True, 3) == (LedgerLine(GOLD, 3, "SNS-BLD-VENDOR", "Vendors"),)
    assert a.vendor_gold(2, 2, True, 2)[0].amount == 4
    assert a.vendor_gold(2, 2, False, 2) == ()


def test_sns_upg_mercenaries_outside_growth() -> None:
    """SNS-UPG-MERCENARIES, SNS-UNIT-MERC: 4 gold per Swords, 7 per Horse Archers, outside the
    growth rate, with the upgrade only."""
    k = kingdom(AVALONIAN, RICH, upgrades=("MERCENARIES",))
    hired = a.hire_mercenaries(k, "SWORDS", 2)
    assert (_amounts(hired.lines), hired.uses_growth) == ({GOLD: -8}, False)
    assert _amounts(a.hire_mercenaries(k, "HORSEARCHERS").lines) == {GOLD: -7}
    with pytest.raises(RuleViolation, match="SNS-UPG-MERCENARIES"):
        a.hire_mercenaries(kingdom(), "SWORDS")


def test_sns_upg_prices_per_use() -> None:
    """SNS-UPG-EXPLORERS, SNS-UPG-DEMOLITION, SNS-UPG-FIREPOTS, SNS-UPG-PYROMANCY,
    SNS-UPG-WORMSPRAY, SNS-BLD-TRENCHES: each use is paid in a resource the GM names
    (SNS-AMB-30), and only with the upgrade or building."""
    k = kingdom(PAGANITE, RICH, "TRENCHES",
                upgrades=("EXPLORERS", "DEMOLITION", "FIREPOTS", "PYROMANCY", "WORMSPRAY"))
    assert a.pay_for_use(k, "EXPLORERS", 3, declared_type=GOLD) == (
        LedgerLine(GOLD, -3, "SNS-UPG-EXPLORERS", "3 explorers", "", 1),)
    assert _amounts(a.pay_for_use(k, "DEMOLITION", 2, declared_type=IRON)) == {IRON: -10}
    assert _amounts(a.pay_for_use(k, "FIREPOTS", declared_type=WOOD)) == {WOOD: -1}
    assert _amounts(a.pay_for_use(k, "PYROMANCY", 2, declared_type=FOOD)) == {FOOD: -2}
    assert _amounts(a.pay_for_use(k, "WORMSPRAY", declared_type=GOLD)) == {GOLD: -1}
    assert _amounts(a.pay_for_use(k, "TRENCHES", declared_type=WOOD)) == {WOOD: -1}
    with pytest.raises(RuleViolation, match="SNS-AMB-30"):
        a.pay_for_use(k, "EXPLORERS")
    with pytest.raises(RuleViolation, match="SNS-UPG-EXPLORERS"):
        a.pay_for_use(kingdom(), "EXPLORERS", declared_type=GOLD)
    with pytest.raises(RuleViolation, match="SNS-BLD-TRENCHES"):
        a.pay_for_use(kingdom(), "TRENCHES", declared_type=WOOD)


def test_sns_upg_reforestation_plants_a_forest() -> None:
    """SNS-UPG-REFORESTATION: 5 to plant, a timer of 10, level 3 (4 with Wells)."""
    k = kingdom(AVALONIAN, RICH, upgrades=("REFORESTATION",))
    lines, timer, level = a.plant_forest(k, declared_type=WOOD)
    assert (_amounts(lines), timer.remaining, level) == ({WOOD: -5}, 10, 3)
    wells = kingdom(AVALONIAN, RICH, upgrades=("REFORESTATION", "WELLS"))
    assert a.plant_forest(wells, declared_type=WOOD)[2] == 4


def test_sns_upg_spies_saboteurs_and_town_watch() -> None:
    """SNS-UPG-SPIES (caught on 1-2), SNS-UPG-TOWNWATCH (catches on 5+, +1 per Castle),
    SNS-UPG-SABOTEURS (building: d6 or 2d6 wounds; gate; havoc)."""
    assert a.spy(2).caught and not a.spy(3).caught
    assert a.spy(6, town_watch_die=5).caught
    assert not a.spy(6, town_watch_die=4).caught
    assert a.spy(6, town_watch_die=4, castles=1).caught
    assert a.sabotage("building", 2).caught
    assert a.sabotage("building", 4, (5,)).wounds == 5
    assert a.sabotage("building", 6, (3, 4)).wounds == 7
    with pytest.raises(RuleViolation, match="SNS-UPG-SABOTEURS"):
        a.sabotage("building", 6, (3,))
    assert a.sabotage("gate", 3).caught
    assert a.sabotage("gate", 5) == a.CovertResult(False, note="gate removed for 3 turns "
                                                               "(timer 4)")
    assert a.sabotage("havoc", 4).note == "the target rolls a Kingdom event"


def test_sns_upg_jesterscourt_food_loss() -> None:
    """SNS-UPG-JESTERSCOURT: the target loses d6 food (1s re-rolled), at most what it holds."""
    assert a.jesters_court_food_loss(Stockpile(food=9), 4) == (
        LedgerLine(FOOD, -4, "SNS-UPG-JESTERSCOURT", "The Jesters Court"),)
    assert a.jesters_court_food_loss(Stockpile(food=2), 6)[0].amount == -2
    with pytest.raises(RuleViolation, match="SNS-UPG-JESTERSCOURT"):
        a.jesters_court_food_loss(Stockpile(food=9), 1)


def test_sns_fac_4_pagani_rituals() -> None:
    """SNS-FAC-4: rituals at a working Sacred Ground by worshipper points: Vena +2 growth per 6,
    Hiros a Villager per 4, Akhina a free upgrade at 10, Aros tiers 5 / 8 / 20, Piya's
    protection; Paganites only, with enough worshippers."""
    k = kingdom(PAGANITE, RICH, "SACREDGROUND")
    assert a.pagani_ritual(k, "Vena", 13).growth == GrowthLine(4, "SNS-FAC-4", "Vena")
    assert a.pagani_ritual(k, "Hiros", 9).free_villagers == 2
    assert a.pagani_ritual(k, "Akhina", 10).free_upgrade
    assert a.pagani_ritual(k, "Aros", 8).tier == 2
    assert a.pagani_ritual(k, "Aros", 20).tier == 3
    assert a.pagani_ritual(k, "Piya", 7) == a.Ritual("Piya", 2, protections=("Piya",))
    with pytest.raises(RuleViolation, match="SNS-FAC-4"):
        a.pagani_ritual(k, "Akhina", 9)
    with pytest.raises(RuleViolation, match="SNS-FAC-4"):
        a.pagani_ritual(kingdom(AVALONIAN, RICH, "SACREDGROUND"), "Vena", 6)
    with pytest.raises(RuleViolation, match="SNS-FAC-4"):
        a.pagani_ritual(kingdom(PAGANITE), "Vena", 6)
    with pytest.raises(RuleViolation, match="SNS-FAC-4"):
        a.pagani_ritual(k, "Ermes", 6)
