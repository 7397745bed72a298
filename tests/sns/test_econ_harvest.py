"""Swords & Stones harvest phase (SNS-ECON-20..31, SNS-STATE-5, SNS-FAC-2/3/6)."""

from __future__ import annotations

import pytest

from campaign.systems.swords_and_stones.rules import econ_harvest as h
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
    net,
)


def _amounts(lines: tuple[LedgerLine, ...]) -> dict[str, int]:
    return {r: n for r, n in net(lines).items() if n}


def test_sns_econ_20_harvest_in_phase_order() -> None:
    """SNS-ECON-20: Forests, Outcrops, Farms, fishing, Temple, the rest; out of order refused."""
    forest = h.harvest_site(h.Site("forest", 4), (2, 3))
    farm = h.farm_harvest((4,))
    temple = h.favor_harvest((5,))
    phase = h.harvest_phase((forest, farm, temple))
    assert _amounts(phase.lines) == {WOOD: 2, FOOD: 1, FAVOR: 1}
    with pytest.raises(RuleViolation, match="SNS-ECON-20"):
        h.harvest_phase((farm, forest))


def test_sns_econ_21_site_state_and_forests() -> None:
    """SNS-ECON-21, SNS-STATE-5: a Site's type, set, level, scarcity, secondary resource and
    threshold; a Forest gives wood, and only Outcrops hold gold or iron."""
    site = h.Site("forest", 5, code="F3", set_name="A")
    assert (site.kind, site.set_name, site.level, site.scarcity, site.depleted) == (
        "forest", "A", 5, 0, False)
    with pytest.raises(ValueError, match="SNS-ECON-23"):
        h.Site("forest", 3, secondary=GOLD, threshold=3)
    with pytest.raises(ValueError, match="SNS-ECON-23"):
        h.Site("outcrop", 3, secondary=IRON)
    with pytest.raises(ValueError, match="SNS-ECON-21"):
        h.Site("swamp", 3)


def test_sns_econ_22_23_book_worked_check_outcrop() -> None:
    """SNS-ECON-22, SNS-ECON-23 (worked check): 5 units at a level 3 "3+ gold" Outcrop roll
    2, 2, 3, 1, 6: one Outcrop event, then 2 gold and 2 stone; the gold may be taken as stone."""
    site = h.Site("outcrop", 3, secondary=GOLD, threshold=3)
    result = h.harvest_site(site, (2, 2, 3, 1, 6))
    assert result.events == ("outcrop",)
    assert _amounts(result.lines) == {GOLD: 2, STONE: 2}
    assert [line.rule_id for line in result.lines] == ["SNS-ECON-23", "SNS-ECON-22"]
    swapped = h.harvest_site(site, (2, 2, 3, 1, 6), stone_instead=1)
    assert _amounts(swapped.lines) == {GOLD: 1, STONE: 3}
    with pytest.raises(RuleViolation, match="SNS-ECON-23"):
        h.harvest_site(site, (2, 2, 3, 1, 6), stone_instead=3)


def test_sns_econ_23_iron_outcrop_and_plain_stone() -> None:
    """SNS-ECON-23: an iron Outcrop at 5+ gives iron on 5 and 6 only; a plain Outcrop stone."""
    iron = h.Site("outcrop", 4, secondary=IRON, threshold=5)
    assert _amounts(h.harvest_site(iron, (4, 5, 6)).lines) == {IRON: 2, STONE: 1}
    plain = h.Site("outcrop", 4)
    assert _amounts(h.harvest_site(plain, (6, 6)).lines) == {STONE: 2}


def test_sns_econ_22_forest_wood_and_events_and_collapse() -> None:
    """SNS-ECON-22: every 2-6 is 1 wood, every 1 a Forest event; a Mine Shaft Collapse fails
    every die at that Site; a besieged kingdom cannot harvest outside its siege line
    (SNS-ECON-46)."""
    forest = h.harvest_site(h.Site("forest", 4), (1, 1, 2, 6))
    assert forest.events == ("forest", "forest")
    assert _amounts(forest.lines) == {WOOD: 2}
    collapsed = h.harvest_site(h.Site("outcrop", 4), (3, 4, 1), all_fail=True)
    assert collapsed.lines == () and collapsed.events == ("outcrop",)
    with pytest.raises(RuleViolation, match="SNS-ECON-46"):
        h.harvest_site(h.Site("forest", 4), (3,), outside_siege_line=True)


def test_sns_econ_24_scarcity_depletes_at_the_site_level() -> None:
    """SNS-ECON-24: scarcity points equal to the level deplete the Site; a depleted Site cannot
    be harvested; a Mountain never runs out (SNS-MAP-2, SNS-MAP-9)."""
    site = h.Site("forest", 2)
    once = h.add_scarcity(site)
    assert (once.scarcity, once.depleted) == (1, False)
    twice = h.add_scarcity(once)
    assert (twice.scarcity, twice.depleted) == (2, True)
    with pytest.raises(RuleViolation, match="SNS-ECON-24"):
        h.harvest_site(twice, (4,))
    mountain = h.Site("outcrop", 3, unlimited=True)
    assert h.add_scarcity(mountain, 5) == mountain


def test_sns_econ_25_hunting_thresholds() -> None:
    """SNS-ECON-25, SNS-UPG-HUNTINGCABINS: 5+ food; with Hunting Cabins 4+ (Avalonian, Damned)
    or 3+ (Paganite); a 1 is a Forest event; Amanti adds 1 (SNS-FAC-4)."""
    dice = (1, 3, 4, 5, 6)
    assert _amounts(h.hunt(dice, AVALONIAN).lines) == {FOOD: 2}
    assert h.hunt(dice, AVALONIAN).events == ("forest",)
    assert _amounts(h.hunt(dice, DAMNED, hunting_cabins=True).lines) == {FOOD: 3}
    assert _amounts(h.hunt(dice, PAGANITE, hunting_cabins=True).lines) == {FOOD: 4}
    assert _amounts(h.hunt(dice, PAGANITE, amanti=True).lines) == {FOOD: 3}


def test_sns_econ_26_fishing_land_and_ships() -> None:
    """SNS-ECON-26: land units 4+, ships 3+ (Fishing Fleets needed); Cultured Fishers 3+ and 2+
    (SNS-UPG-CULTUREDFISHERS); a 1 is a Fishing event."""
    plain = h.fish((1, 3, 4), (2, 3), fishing_fleets=True)
    assert _amounts(plain.lines) == {FOOD: 2}
    assert plain.events == ("fishing",)
    cultured = h.fish((1, 3, 4), (2, 3), fishing_fleets=True, cultured_fishers=True)
    assert _amounts(cultured.lines) == {FOOD: 4}
    assert [line.rule_id for line in cultured.lines] == ["SNS-ECON-26", "SNS-UPG-FISHINGFLEETS"]
    with pytest.raises(RuleViolation, match="SNS-UPG-FISHINGFLEETS"):
        h.fish((), (3,))
    assert _amounts(h.fish((3,), yedvadova=True).lines) == {FOOD: 1}


def test_sns_econ_27_worked_example_d8_farm_harvest() -> None:
    """SNS-ECON-27, worked example D.8: 4 Farms roll 1, 2, 5, 6: Rain gives 8 food, Insect
    Plague 0, Idle Villagers 3."""
    dice = (1, 2, 5, 6)
    rain = h.farm_harvest(dice, ("rain",))
    assert _amounts(rain.lines) == {FOOD: 8}
    assert rain.successes == 4
    assert h.farm_harvest(dice, ("insect_plague",)).lines == ()
    idle = h.farm_harvest(dice, ("fail",))
    assert _amounts(idle.lines) == {FOOD: 3}
    assert idle.events == ("farm",)


def test_sns_amb_43_rain_and_heavy_plough_add_up() -> None:
    """SNS-AMB-43, SNS-UPG-HEAVYPLOUGH: every successful Farm die (the Rain die too) gives
    1 + 1 + 1; Heavy Plough alone +1 per success; the Piya rain dance is Rain, not stacking."""
    dice = (1, 2, 5, 6)
    assert _amounts(h.farm_harvest(dice, ("rain",), heavy_plough=True).lines) == {FOOD: 12}
    assert _amounts(h.farm_harvest(dice, ("fail",), heavy_plough=True).lines) == {FOOD: 6}
    assert _amounts(h.farm_harvest(dice, ("rain",), rain_dance=True).lines) == {FOOD: 8}
    assert _amounts(h.farm_harvest(dice, ("fail",), rain_dance=True).lines) == {FOOD: 6}


def test_sns_upg_estates_and_event_harvests() -> None:
    """SNS-UPG-ESTATES: 2 successful Farm dice become 1 gold; an event that harvests (Crop
    Rotation, SNS-UPG-CROPROTATION) counts its die; Plentiful Blessing doubles successes."""
    result = h.farm_harvest((1, 4, 4, 5, 6), ("success",), estates_pairs=2)
    assert _amounts(result.lines) == {FOOD: 1, GOLD: 2}
    with pytest.raises(RuleViolation, match="SNS-UPG-ESTATES"):
        h.farm_harvest((2, 3), estates_pairs=2)
    assert _amounts(h.farm_harvest((2, 3), blessing=True).lines) == {FOOD: 4}
    with pytest.raises(ValueError, match="SNS-ECON-30"):
        h.farm_harvest((1, 1, 3), ("rain",))


def test_sns_econ_28_temple_dice_by_faction() -> None:
    """SNS-ECON-28, SNS-FAC-2, SNS-FAC-3, SNS-FAC-6: Avalonian 1 die per 3 non-military units;
    Paganite 1 per 3 worshipper points (Monk/Queen 2, King/Caster 3, others 1); Damned 1 per
    Monk, Caster, King or Queen."""
    units = {"VILLAGER": 4, "MONK": 1, "KING": 1, "SWORDS": 2}
    assert h.temple_dice(AVALONIAN, units) == 2
    assert h.temple_dice(PAGANITE, units) == 3
    assert h.temple_dice(DAMNED, units) == 2
    result = h.favor_harvest((1, 2, 6))
    assert _amounts(result.lines) == {FAVOR: 2}
    assert result.events == ("favor",)


def test_sns_amb_39_temple_counts_non_military_units_or_villagers() -> None:
    """SNS-AMB-39: by default every non-military unit counts at an Avalonian Temple; the other
    reading counts Villagers only."""
    units = {"VILLAGER": 2, "MONK": 1, "QUEEN": 1, "CASTER": 2}
    assert h.temple_dice(AVALONIAN, units) == 2
    assert h.temple_dice(AVALONIAN, units, EconOptions(temple_die_units="villagers")) == 0


def test_sns_upg_coinage_and_shunned_temple() -> None:
    """SNS-UPG-COINAGE: an Avalonian may take harvested favor as gold (probable type, an option,
    SNS-AMB-30); a Shunned kingdom gains no favor, Spiritual Sabotage fails every die."""
    result = h.favor_harvest((3, 4, 5), coinage_swaps=2)
    assert _amounts(result.lines) == {FAVOR: 1, GOLD: 2}
    as_food = h.favor_harvest((3,), coinage_swaps=1, options=EconOptions(coinage_resource=FOOD))
    assert _amounts(as_food.lines) == {FOOD: 1}
    with pytest.raises(RuleViolation, match="SNS-UPG-COINAGE"):
        h.favor_harvest((3,), coinage_swaps=1, faction=PAGANITE)
    assert h.favor_harvest((3, 4), shunned=True).lines == ()
    assert h.favor_harvest((3, 4, 1), all_fail=True).events == ("favor",)


def test_sns_econ_29_merchants_guild_goods_and_services() -> None:
    """SNS-ECON-29: 1 gold per unit touching the Guild, at most 3; 4 with The Noble; doubled by
    Taxation when its buildings work (SNS-UPG-TAXATION); a 1 is a Kingdom event."""
    assert _amounts(h.goods_and_services(4, 5).lines) == {GOLD: 3}
    assert _amounts(h.goods_and_services(4, 5, the_noble=True).lines) == {GOLD: 4}
    taxed = h.goods_and_services(2, 2, taxation=True, taxation_buildings_operational=True)
    assert _amounts(taxed.lines) == {GOLD: 4}
    assert _amounts(h.goods_and_services(2, 2, taxation=True).lines) == {GOLD: 2}
    assert h.goods_and_services(1, 5).events == ("kingdom",)


def test_sns_amb_41_noble_and_envoy_do_not_stack_by_default() -> None:
    """SNS-AMB-41: The Noble and an Envoy from Afar together still cap the Guild at 4; a group
    that stacks them gets 5."""
    assert _amounts(h.goods_and_services(3, 6, the_noble=True, envoy_from_afar=True).lines) == {
        GOLD: 4}
    stacked = h.goods_and_services(3, 6, the_noble=True, envoy_from_afar=True,
                                   options=EconOptions(guild_cap_stacks=True))
    assert _amounts(stacked.lines) == {GOLD: 5}


def test_sns_econ_29_other_harvests() -> None:
    """SNS-ECON-29, SNS-UPG-STONEDRILL, SNS-BLD-TOTEM, SNS-UPG-MERCHANTNAVIES: Stone Drill
    (1 loses the unit, 3+ stone), Totems (only all at full HP), Relics, Merchant Navies (1 gold
    per 2 ships), event Sites (Underground Kingdom, Prismatic Complex, Red Wyvern d6-2)."""
    drill = h.stone_drill((1, 2, 3, 6))
    assert (_amounts(drill.lines), drill.units_lost) == ({STONE: 2}, 1)
    assert _amounts(h.totem_favor(3, True).lines) == {FAVOR: 3}
    assert h.totem_favor(3, False).lines == ()
    assert h.totem_favor(3, True, favor_blocked=True).lines == ()
    assert _amounts(h.relic_income((GOLD, FAVOR, GOLD)).lines) == {GOLD: 2, FAVOR: 1}
    with pytest.raises(RuleViolation, match="SNS-ECON-29"):
        h.relic_income((WOOD,))
    assert _amounts(h.merchant_navies(5).lines) == {GOLD: 2}
    income = h.event_site_income(underground_kingdoms=1, prismatic_units=3, wyvern_die=5)
    assert _amounts(income.lines) == {GOLD: 7}
    assert h.event_site_income(wyvern_die=2).lines == ()


def test_sns_econ_30_events_gathered_before_resolving() -> None:
    """SNS-ECON-30: every event of a harvest is listed first, in order, then resolved one by one;
    the harvest keeps the successful Farm dice for the statistics (SNS-STAT-20)."""
    phase = h.harvest_phase((
        h.harvest_site(h.Site("forest", 4), (1, 4)),
        h.harvest_site(h.Site("outcrop", 4), (1, 1)),
        h.farm_harvest((1, 5, 5), ("fail",)),
        h.favor_harvest((1,)),
        h.goods_and_services(1, 2),
    ))
    assert phase.events == ("forest", "outcrop", "outcrop", "farm", "favor", "kingdom")
    assert phase.farm_successes == 2


def test_harvest_dice_are_checked() -> None:
    """SNS-ECON-22: a harvest die is a d6 showing 1 to 6."""
    with pytest.raises(ValueError):
        h.harvest_site(h.Site("forest", 4), (7,))


def test_sns_map_sites_follow_the_map_type() -> None:
    """SNS-MAP-3 (Black Forest: Forests level 6), SNS-MAP-8 (Great Sandy: Forests start with 1
    scarcity), SNS-MAP-6 (Gold Coast middle islands: level 3, gold on 2+), SNS-MAP-2 and
    SNS-MAP-9 (a Mountain's stone never runs out); a plain table changes nothing."""
    assert h.place_site("forest", 3, map_type="black_forest").level == 6
    sandy = h.place_site("forest", 4, map_type="great_sandy")
    assert (sandy.level, sandy.scarcity) == (4, 1)
    island = h.place_site("outcrop", 5, map_type="gold_coast", middle_island=True)
    assert (island.level, island.secondary, island.threshold) == (3, GOLD, 2)
    assert _amounts(h.harvest_site(island, (2, 3)).lines) == {GOLD: 2}
    mountain = h.place_site("outcrop", 3, map_type="lonely_mountain", at_mountain=True)
    assert h.add_scarcity(mountain, 9).depleted is False
    assert h.place_site("outcrop", 3, map_type="mountains", at_mountain=True).unlimited
    assert h.place_site("forest", 3) == h.Site("forest", 3)


def test_sns_upg_crimepunish_idle_event_dice_still_harvest() -> None:
    """SNS-UPG-CRIMEPUNISH: an event die that turned out Idle Villagers (with a working Town
    Center) harvests the Site's plain resource."""
    outcrop = h.harvest_site(h.Site("outcrop", 4, secondary=GOLD, threshold=4), (1, 5),
                             harvested_events=1)
    assert _amounts(outcrop.lines) == {GOLD: 1, STONE: 1}
    with pytest.raises(ValueError, match="SNS-ECON-22"):
        h.harvest_site(h.Site("forest", 4), (3,), harvested_events=1)


def test_sns_upg_regenforestry_lost_to_heavy_harvesting() -> None:
    """SNS-UPG-REGENFORESTRY: kept with up to 3 harvest dice at its Forest in a turn (4 for a
    Paganite)."""
    assert h.regenerative_forestry_kept(3, AVALONIAN)
    assert not h.regenerative_forestry_kept(4, AVALONIAN)
    assert h.regenerative_forestry_kept(4, PAGANITE)
    assert not h.regenerative_forestry_kept(5, PAGANITE)
