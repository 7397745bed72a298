"""Swords & Stones: the advance phase (SNS-ECON-50..61) and the factions' economic rules
(SNS-FAC-*).

Training, training up, foundations, upgrades, abilities, trade at the Market, Tavern and Dock,
trade between players, demolition and refunds, Vendors, the Dark Ritual and Mercenaries. Every
spend is worked out from the catalogue (``catalogue.Catalogue``, whose cost types the GM may
complete, SNS-AMB-30) and refused when it cannot be paid first (SNS-ECON-3) or the Stockpile is
not operational (SNS-ECON-4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from campaign.systems.swords_and_stones.rules.catalogue import (
    BONE_KEEPS_FOOD,
    DEFAULT_CATALOGUE,
    EARTHWORKS,
    MAP_TYPES,
    MERCENARY_PRICES,
    MONUMENT_SUMMARY_COST,
    NO_WOOD_FOR_STONE,
    Catalogue,
    Cost,
    UpgradeType,
)
from campaign.systems.swords_and_stones.rules.econ_turn import (
    BLOOD_SPORTS,
    FESTAG,
    MASS_FUNERAL,
    Foundation,
    Growth,
    GrowthLine,
    Timer,
    check_training_allowed,
    start_timer,
)
from campaign.systems.swords_and_stones.rules.economy import (
    DAMNED,
    DEFAULT_OPTIONS,
    FACTION_LETTER,
    FAVOR,
    FOOD,
    GOLD,
    PAGANITE,
    RESOURCES,
    STONE,
    WOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
    check_operational,
    lines_for,
    lose_up_to,
    pay,
    training_food_factor,
)


@dataclass(frozen=True)
class Kingdom:
    """What the advance phase needs to know of a kingdom.

    ``built`` counts completed buildings standing (operational or not), ``operational`` those
    working now (SNS-ECON-55); ``upgrades`` the upgrades owned (SNS-ECON-56). ``faction`` is the
    current one (Damned after a Dark Ritual, SNS-FAC-5)."""

    faction: str
    stockpile: Stockpile = field(default_factory=Stockpile)
    built: Mapping[str, int] = field(default_factory=dict)
    operational: Mapping[str, int] = field(default_factory=dict)
    upgrades: frozenset[str] = frozenset()
    kingdom_of_bone: bool = False
    king_unconscious: bool = False
    queen_rules: bool = False
    besieged: bool = False

    def has(self, code: str) -> bool:
        """An operational building or an owned upgrade of that code (prerequisite check)."""
        return self.operational.get(code, 0) > 0 or code in self.upgrades


def _check_ruler(kingdom: Kingdom, action: str) -> None:
    """SNS-ECON-61: an unconscious King cannot trade, train, buy or build unless a Queen rules."""
    if kingdom.king_unconscious and not kingdom.queen_rules:
        raise RuleViolation(f"Your King is unconscious and no Queen rules, so you cannot {action} "
                            "(SNS-ECON-61).")


def _check_faction(kingdom: Kingdom, letters: Sequence[str], what: str, rule_id: str) -> None:
    """SNS-FAC-1: items marked A, P or D are for those factions only."""
    if letters and FACTION_LETTER[kingdom.faction] not in letters:
        raise RuleViolation(f"{what} is not open to your faction ({rule_id}, SNS-FAC-1).")


def _missing(kingdom: Kingdom, codes: Sequence[str]) -> list[str]:
    return [code for code in codes if not kingdom.has(code)]


# --- training (SNS-ECON-51/52, SNS-FAC-9) ------------------------------------------------------


@dataclass(frozen=True)
class Training:
    """The ledger lines of a training and the units it makes (SNS-ECON-51)."""

    lines: tuple[LedgerLine, ...]
    unit: str
    count: int
    uses_growth: bool


def unit_cost(
    kingdom: Kingdom,
    code: str,
    *,
    declared_types: Sequence[str] = (),
    outside_own_section: bool = False,
    training_up: bool = False,
    items: Mapping[str, int] | None = None,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> dict[str, int]:
    """The resources one unit costs this kingdom (SNS-UNIT-*).

    Surcharges: Recurve Bow +1 per Rider (SNS-UPG-RECURVEBOW), Steam Engine +3 per Ram
    (SNS-UPG-STEAMENGINE), Galleons +2 per Cog (SNS-UPG-GALLEONS); Martial Tradition makes
    Villagers and Archers cost 1, 1 (SNS-UPG-MARTIALTRADITION). Paganite Galleys pay no gold
    (SNS-FAC-3). Outside the own map section food is doubled (SNS-ECON-51); training up costs 1
    food less (SNS-ECON-52); a Kingdom of Bone pays food in favor except for Queens, Casters and
    Monks (SNS-FAC-9)."""
    unit = catalogue.unit(code)
    cost: Cost = unit.cost
    if code in ("VILLAGER", "ARCHERS") and "MARTIALTRADITION" in kingdom.upgrades:
        cost = Cost((1, 1), (FOOD, None), guessed=True)
    if code == "RIDERS" and "RECURVEBOW" in kingdom.upgrades:
        cost = cost.plus(1)
    if code == "RAM" and "STEAMENGINE" in kingdom.upgrades:
        cost = cost.plus(3)
    if code == "COG" and "GALLEONS" in kingdom.upgrades:
        cost = cost.plus(2)
    resolved = cost.resolve(declared_types)
    if code == "GALLEY" and kingdom.faction == PAGANITE:
        resolved.pop(GOLD, None)
    if resolved.get(FOOD):
        resolved[FOOD] *= training_food_factor(outside_own_section)
        if training_up:
            resolved[FOOD] -= 1
            if not resolved[FOOD]:
                del resolved[FOOD]
    if kingdom.kingdom_of_bone and code not in BONE_KEEPS_FOOD and FOOD in resolved:
        resolved[FAVOR] = resolved.get(FAVOR, 0) + resolved.pop(FOOD)
    return resolved


def train(
    kingdom: Kingdom,
    code: str,
    count: int = 1,
    *,
    growth: Growth,
    trained_this_turn: int = 0,
    declared_types: Sequence[str] = (),
    outside_own_section: bool = False,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> Training:
    """SNS-ECON-51: train ``count`` units at an operational building of the right type, with the
    prerequisites, paying first; no more units a turn than the growth rate (unlimited for a
    Kingdom of Bone, SNS-FAC-9)."""
    if count < 1:
        raise ValueError("Train at least one unit.")
    _check_ruler(kingdom, "train units")
    unit = catalogue.unit(code)
    if not unit.trained_at or code == "MERC":
        raise RuleViolation(f"{unit.name} units are not trained at a building ({unit.rule_id}).")
    _check_faction(kingdom, (unit.faction,) if unit.faction else (), unit.name, unit.rule_id)
    if not kingdom.operational.get(unit.trained_at, 0):
        raise RuleViolation(
            f"{unit.name} units need an operational {catalogue.building(unit.trained_at).name} "
            f"(SNS-ECON-51, SNS-ECON-55)."
        )
    missing = _missing(kingdom, unit.requires)
    if missing:
        raise RuleViolation(f"{unit.name} units need {', '.join(missing)} first "
                            f"({unit.rule_id}).")
    ignored = growth.rate is None or kingdom.kingdom_of_bone
    if not ignored:
        check_training_allowed(growth, trained_this_turn, count)
    one = unit_cost(kingdom, code, declared_types=declared_types,
                    outside_own_section=outside_own_section, catalogue=catalogue)
    total = {resource: amount * count for resource, amount in one.items()}
    lines = pay(kingdom.stockpile, total, "SNS-ECON-51", f"train {count} {unit.name}",
                subject=unit.rule_id, count=count)
    # SNS-FAC-9: a Kingdom of Bone's Villagers come out as Zombies.
    made = "ZOMBIE" if kingdom.kingdom_of_bone and code == "VILLAGER" else code
    return Training(lines, made, count, not ignored)


def train_up(
    kingdom: Kingdom,
    code: str,
    *,
    declared_types: Sequence[str] = (),
    at_siege_camp: bool = False,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> Training:
    """SNS-ECON-52: retrain a Villager inside the kingdom zone into a unit the kingdom can train,
    for 1 food less and without using growth. At a Siege Camp, touching units become Workshop
    units the same way (SNS-BLD-SIEGECAMP)."""
    _check_ruler(kingdom, "train units")
    unit = catalogue.unit(code)
    if at_siege_camp:
        if unit.trained_at != "WORKSHOP" or not kingdom.operational.get("SIEGECAMP", 0):
            raise RuleViolation("A Siege Camp retrains units into Workshop units only, and must be "
                                "operational (SNS-BLD-SIEGECAMP).")
    if not unit.trained_at or code in ("VILLAGER", "MERC"):
        raise RuleViolation(f"A Villager cannot be trained up into {unit.name} (SNS-ECON-52).")
    _check_faction(kingdom, (unit.faction,) if unit.faction else (), unit.name, unit.rule_id)
    if not at_siege_camp and not kingdom.operational.get(unit.trained_at, 0):
        raise RuleViolation(f"Training up into {unit.name} needs an operational "
                            f"{catalogue.building(unit.trained_at).name} (SNS-ECON-52).")
    missing = _missing(kingdom, unit.requires)
    if missing:
        raise RuleViolation(f"{unit.name} units need {', '.join(missing)} first "
                            f"({unit.rule_id}).")
    cost = unit_cost(kingdom, code, declared_types=declared_types, training_up=True,
                     catalogue=catalogue)
    lines = pay(kingdom.stockpile, cost, "SNS-ECON-52", f"train a Villager up to {unit.name}",
                subject=unit.rule_id, count=1)
    return Training(lines, code, 1, False)


def hire_mercenaries(
    kingdom: Kingdom, code: str, count: int = 1, options: EconOptions = DEFAULT_OPTIONS
) -> Training:
    """SNS-UPG-MERCENARIES, SNS-UNIT-MERC: units bought outside the growth rate (Swords, Spears,
    Archers 4 each, Crossbows 5, Horse Riders 6, Horse Archers 7, in the probable price resource,
    SNS-AMB-30); they arrive in the next advance phase."""
    _check_ruler(kingdom, "hire Mercenaries")
    if "MERCENARIES" not in kingdom.upgrades:
        raise RuleViolation("Mercenaries need the Mercenaries upgrade at the Dock "
                            "(SNS-UPG-MERCENARIES).")
    if code not in MERCENARY_PRICES:
        raise RuleViolation(f"{code.title()} cannot be hired as Mercenaries (SNS-UNIT-MERC).")
    price = {options.market_price_resource: MERCENARY_PRICES[code] * count}
    lines = pay(kingdom.stockpile, price, "SNS-UNIT-MERC", f"hire {count} {code.title()}",
                subject="SNS-UNIT-MERC", count=count)
    return Training(lines, code, count, False)


# --- foundations (SNS-ECON-53, SNS-FAC-3, SNS-MAP-*) -------------------------------------------


def merchants_guild_limit(communes: int, vendors: int) -> int:
    """SNS-BLD-MERCHANTSGUILD: one Guild, plus one per 2 Communes and 2 Vendors."""
    return 1 + min(communes // 2, vendors // 2)


def building_cost(
    kingdom: Kingdom,
    code: str,
    *,
    declared_types: Sequence[str] = (),
    wood_for_stone: int = 0,
    over_impassable: bool = False,
    options: EconOptions = DEFAULT_OPTIONS,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> tuple[dict[str, int], int]:
    """The resources and Build Points of a building for this kingdom (SNS-BLD-*).

    Monument per SNS-AMB-29; Farms on Ice lands (BP) and Great Sandy (BP and wood, unless Wells)
    doubled (SNS-MAP-1, SNS-MAP-8); a Stone Bridge over impassable ground doubled
    (SNS-BLD-STONEBRIDGE); the Mason's Guild takes 1 off (SNS-UPG-MASONSGUILD, not Stone
    Walls); a Paganite with a Workshop may pay ``wood_for_stone`` of the stone in wood (not Stone
    Walls or Gates, SNS-FAC-3)."""
    building = catalogue.building(code)
    cost = building.cost
    if code == "MONUMENT" and options.monument_cost_source == "summary":
        cost = MONUMENT_SUMMARY_COST
    bp = building.bp or 0
    map_type = MAP_TYPES.get(options.map_type or "")
    resources = cost.resolve(declared_types) if cost.amounts else {}
    if code == "FARM" and map_type is not None:
        lifted = map_type.wells_lift_farm_factors and "WELLS" in kingdom.upgrades
        if not lifted:
            bp *= map_type.farm_bp_factor
            if WOOD in resources:
                resources[WOOD] *= map_type.farm_wood_factor
    if code == "STONEBRIDGE" and over_impassable:
        bp *= 2
        resources = {r: 2 * a for r, a in resources.items()}
    if "MASONSGUILD" in kingdom.upgrades and code != "STONEWALL":
        kind = options.masons_guild_resource
        if resources.get(kind):
            resources[kind] -= 1
            if not resources[kind]:
                del resources[kind]
    if wood_for_stone:
        if kingdom.faction != PAGANITE or not kingdom.built.get("WORKSHOP", 0):
            raise RuleViolation("Only a Paganite kingdom with a Workshop may pay stone in wood "
                                "(SNS-FAC-3).")
        if code in NO_WOOD_FOR_STONE:
            raise RuleViolation("Stone Walls and Gatehouses must be paid in stone (SNS-FAC-3).")
        if wood_for_stone > resources.get(STONE, 0):
            raise RuleViolation(f"This building costs only {resources.get(STONE, 0)} stone "
                                "(SNS-FAC-3).")
        resources[STONE] -= wood_for_stone
        if not resources[STONE]:
            del resources[STONE]
        resources[WOOD] = resources.get(WOOD, 0) + wood_for_stone
    return resources, bp


def lay_foundation(
    kingdom: Kingdom,
    code: str,
    *,
    declared_types: Sequence[str] = (),
    wood_for_stone: int = 0,
    over_impassable: bool = False,
    in_own_section: bool = True,
    options: EconOptions = DEFAULT_OPTIONS,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> tuple[tuple[LedgerLine, ...], Foundation]:
    """SNS-ECON-53: check the prerequisites, pay, and place the foundation with its BP die.

    Refuses a Stockpile (one per player), a faction's building for another faction, a Dock on a
    map without coast (SNS-MAP-5), earthworks on Great Sandy (SNS-MAP-8) and more Merchant's
    Guilds than allowed."""
    _check_ruler(kingdom, "place foundations")
    building = catalogue.building(code)
    if code in ("STOCKPILE", "MOATS"):
        raise RuleViolation(f"A {building.name} is not built from a foundation "
                            f"({building.rule_id}).")
    _check_faction(kingdom, (building.faction,) if building.faction else (), building.name,
                   building.rule_id)
    map_type = MAP_TYPES.get(options.map_type or "")
    if code == "DOCK" and map_type is not None and map_type.dock_disabled:
        raise RuleViolation(f"There is no coast on {map_type.name}, so no Dock "
                            f"({map_type.rule_id}).")
    if code in EARTHWORKS and map_type is not None and map_type.no_earthworks:
        raise RuleViolation(f"No Moats, Trenches or Mounds on {map_type.name} "
                            f"({map_type.rule_id}).")
    missing = [c for c in building.requires if not kingdom.built.get(c, 0)]
    missing += [c for c in building.requires_upgrades if c not in kingdom.upgrades]
    if building.requires_any and not any(kingdom.built.get(c, 0) for c in building.requires_any):
        missing.append(" or ".join(building.requires_any))
    if missing:
        raise RuleViolation(f"A {building.name} needs {', '.join(missing)} first "
                            f"({building.rule_id}, SNS-ECON-53).")
    if code == "MERCHANTSGUILD":
        limit = merchants_guild_limit(kingdom.built.get("COMMUNE", 0),
                                      kingdom.built.get("VENDOR", 0))
        if kingdom.built.get(code, 0) >= limit:
            raise RuleViolation(f"You may have {limit} Merchant's Guild(s) now; each extra one "
                                "needs 2 more Communes and 2 more Vendors "
                                "(SNS-BLD-MERCHANTSGUILD).")
    resources, bp = building_cost(kingdom, code, declared_types=declared_types,
                                  wood_for_stone=wood_for_stone, over_impassable=over_impassable,
                                  options=options, catalogue=catalogue)
    lines = pay(kingdom.stockpile, resources, "SNS-ECON-53", f"foundation of a {building.name}",
                subject=building.rule_id, count=1)
    return lines, Foundation(code, bp, bp, in_own_section)


# --- demolition and refunds (SNS-ECON-58) ------------------------------------------------------


def demolition_progress(bp_to_remove: int, units: int) -> int:
    """SNS-ECON-58: demolition removes 2 BP per unit per advance phase; returns what is left."""
    return max(0, bp_to_remove - 2 * units)


def refund(
    kingdom: Kingdom,
    code: str,
    *,
    full_hp: bool = True,
    foundation: bool = False,
    resources: Mapping[str, int],
) -> tuple[LedgerLine, ...]:
    """SNS-ECON-58: a demolished building returns its full cost only at full HP; a cancelled
    foundation always does; Palisade Walls in the own map section come back at once. Stockpiles
    and Moats cannot be removed, Trenches cannot be demolished. ``resources`` is what was paid
    (as booked when it was laid)."""
    if code in ("STOCKPILE", "MOATS", "TRENCHES"):
        raise RuleViolation(f"A {code.title()} cannot be removed (SNS-ECON-58).")
    if not foundation and not full_hp:
        return ()
    lines = lines_for(resources, "SNS-ECON-58",
                      f"refund for a {'foundation' if foundation else code.lower()}")
    check_operational(kingdom.stockpile, lines, "receive")
    return lines


# --- upgrades and abilities (SNS-ECON-56, SNS-UPG-*) -------------------------------------------


def _check_upgrade(kingdom: Kingdom, upgrade: UpgradeType, catalogue: Catalogue) -> None:
    _check_ruler(kingdom, "buy upgrades")
    if not kingdom.operational.get(upgrade.building, 0) and not (
        upgrade.building == "ARENA" and kingdom.operational.get("SIEGECAMP", 0)
    ):
        raise RuleViolation(
            f"{upgrade.name} is bought at an operational "
            f"{catalogue.building(upgrade.building).name} (SNS-ECON-55, SNS-ECON-56)."
        )
    _check_faction(kingdom, upgrade.factions, upgrade.name, upgrade.rule_id)
    # Undefined prerequisites (SNS-AMB-23) count once the GM lists them among the upgrades.
    missing = _missing(kingdom, upgrade.requires)
    if missing:
        raise RuleViolation(f"{upgrade.name} needs {', '.join(missing)} first "
                            f"({upgrade.rule_id}).")
    if upgrade.min_farms and kingdom.operational.get("FARM", 0) < upgrade.min_farms:
        raise RuleViolation(f"{upgrade.name} needs {upgrade.min_farms} operational Farms "
                            f"({upgrade.rule_id}).")


def buy_upgrade(
    kingdom: Kingdom,
    code: str,
    *,
    items: int = 0,
    alternative: int = 0,
    declared_types: Sequence[str] = (),
    free: bool = False,
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> tuple[LedgerLine, ...]:
    """SNS-ECON-56: buy an upgrade at its operational building, with its prerequisites and
    faction, paying first. An upgrade is kept once bought (buy it again only after it is
    discarded); ``items`` counts what a "+ n per ..." surcharge counts. ``free`` upgrades (events,
    the Akhina ritual) cost nothing and book nothing."""
    upgrade = catalogue.upgrade(code)
    if upgrade.ability:
        raise RuleViolation(f"{upgrade.name} is an ability: use it, do not buy it "
                            f"({upgrade.rule_id}).")
    if code in kingdom.upgrades:
        raise RuleViolation(f"You already own {upgrade.name} (SNS-ECON-56).")
    _check_upgrade(kingdom, upgrade, catalogue)
    if free:
        return ()
    cost = upgrade.cost_for(items, alternative).resolve(declared_types)
    return pay(kingdom.stockpile, cost, "SNS-ECON-56", f"upgrade {upgrade.name}",
               subject=upgrade.rule_id, count=1)


@dataclass(frozen=True)
class AbilityUse:
    """What using an ability costs and gives (SNS-ECON-50, SNS-UPG-*)."""

    lines: tuple[LedgerLine, ...]
    growth: GrowthLine | None = None


_GROWTH_ABILITIES = {"FESTAG": FESTAG, "MASSFUNERAL": MASS_FUNERAL}


def use_ability(
    kingdom: Kingdom,
    code: str,
    *,
    used_this_turn: bool = False,
    items: int = 0,
    alternative: int = 0,
    declared_types: Sequence[str] = (),
    catalogue: Catalogue = DEFAULT_CATALOGUE,
) -> AbilityUse:
    """SNS-ECON-50: a non-combat ability, paid at each use. Festag (SNS-UPG-FESTAG) and Mass
    Funeral Service (SNS-UPG-MASSFUNERAL) give +1 growth once a turn; Snow Gear covers 6 units per
    resource (``items`` = units, SNS-UPG-SNOWGEAR); Veterans cost 1 + 1 per token
    (SNS-UPG-VETERANS); Militia works even from a non-operational Stockpile (SNS-UPG-MILITIA)."""
    upgrade = catalogue.upgrade(code)
    if not upgrade.ability:
        raise RuleViolation(f"{upgrade.name} is not an ability ({upgrade.rule_id}).")
    if used_this_turn and code in _GROWTH_ABILITIES:
        raise RuleViolation(f"{upgrade.name} can be used once a turn ({upgrade.rule_id}).")
    if code == "MILITIA":
        _check_faction(kingdom, upgrade.factions, upgrade.name, upgrade.rule_id)
    else:
        _check_upgrade(kingdom, upgrade, catalogue)
    if code == "SNOWGEAR":
        base = upgrade.cost.scaled(math.ceil(items / 6))
    else:
        base = upgrade.cost_for(items, alternative)
    cost = base.resolve(declared_types) if base.amounts else {}
    lines = pay(kingdom.stockpile, cost, upgrade.rule_id, upgrade.name,
                subject=upgrade.rule_id, count=1) if cost else ()
    return AbilityUse(lines, _GROWTH_ABILITIES.get(code))


def blood_sports(kingdom: Kingdom, *, used_this_turn: bool = False) -> AbilityUse:
    """SNS-UPG-BLOODSPORTS: sacrifice a non-undead unit or prisoner for +1 growth, once a turn."""
    if "BLOODSPORTS" not in kingdom.upgrades:
        raise RuleViolation("Blood Sports must be bought at the Arena first "
                            "(SNS-UPG-BLOODSPORTS).")
    if used_this_turn:
        raise RuleViolation("Blood Sports can be held once a turn (SNS-UPG-BLOODSPORTS).")
    return AbilityUse((), BLOOD_SPORTS)


def dark_ritual(kingdom: Kingdom, *, sacrifice_available: bool = True) -> tuple[LedgerLine, ...]:
    """SNS-FAC-5, SNS-UPG-DARKRITUAL: at an operational Temple, sacrifice a unit or prisoner in
    the kingdom zone and lose all favor (and Wishes); the kingdom is Damned from then on."""
    if kingdom.faction == DAMNED:
        raise RuleViolation("Your kingdom is already Damned (SNS-FAC-5).")
    if not kingdom.operational.get("TEMPLE", 0):
        raise RuleViolation("The Dark Ritual needs an operational Temple (SNS-UPG-DARKRITUAL).")
    if not sacrifice_available:
        raise RuleViolation("The Dark Ritual needs a unit or prisoner to sacrifice in the kingdom "
                            "zone (SNS-FAC-5).")
    favor = kingdom.stockpile.favor
    return (LedgerLine(FAVOR, -favor, "SNS-FAC-5", "Dark Ritual", "SNS-UPG-DARKRITUAL", 1),)


def mass_sacrifice_allowed(catacombs_complete: bool, units_removed: int) -> bool:
    """SNS-FAC-8: Mass Sacrifice at completed Catacombs removes every unit but Kings, Queens,
    Monks and Casters, at least 10, and makes a Kingdom of Bone."""
    return catacombs_complete and units_removed >= 10


def vendor_gold(vendors: int, communes: int, market_operational: bool, unused_growth: int
                ) -> tuple[LedgerLine, ...]:
    """SNS-BLD-VENDOR: at the end of the advance phase, each Vendor backed by a Commune of its own
    and an operational Market gives +1 gold per unused growth point."""
    if not market_operational:
        return ()
    gold = min(vendors, communes) * max(0, unused_growth)
    return (LedgerLine(GOLD, gold, "SNS-BLD-VENDOR", "Vendors"),) if gold else ()


# --- trade (SNS-ECON-57, SNS-ECON-46) ----------------------------------------------------------

#: SNS-ECON-57: channel -> (give, get, building that must work, upgrade needed).
TRADE_CHANNELS: Mapping[str, tuple[int, int, str, str]] = {
    "market": (4, 1, "MARKET", ""),
    "tavern": (5, 1, "TAVERN", ""),
    "trade_routes": (6, 2, "MARKET", "TRADEROUTES"),
    "shipping_routes": (10, 6, "DOCK", "SHIPPINGROUTES"),
}


def _check_trade(kingdom: Kingdom, building: str, upgrade: str, rule_id: str) -> None:
    _check_ruler(kingdom, "trade")
    if kingdom.besieged and not kingdom.operational.get("DOCK", 0):
        raise RuleViolation("A besieged kingdom without an operational Dock cannot trade "
                            "(SNS-ECON-46).")
    if not kingdom.operational.get(building, 0):
        raise RuleViolation(f"This trade needs an operational {building.title()} ({rule_id}).")
    if upgrade and upgrade not in kingdom.upgrades:
        raise RuleViolation(f"This trade needs the {upgrade.title()} upgrade ({rule_id}).")


def exchange(
    kingdom: Kingdom,
    channel: str,
    give: str,
    get: str,
    lots: int = 1,
) -> tuple[LedgerLine, ...]:
    """SNS-ECON-57: trade resources at a rate: Market 4 for 1, Tavern 5 for 1, Trade Routes 6 for
    2 (SNS-UPG-TRADEROUTES), Shipping Routes 10 for 6 at the Dock (SNS-UPG-SHIPPINGROUTES), with
    +1 gold per Shipping Routes trade from Custom Tariffs when the Dock and Market work
    (SNS-UPG-CUSTOMTARIFFS). Never favor; always a different resource."""
    if channel not in TRADE_CHANNELS:
        raise ValueError(f"Unknown trade channel {channel!r}.")
    rate_give, rate_get, building, upgrade = TRADE_CHANNELS[channel]
    rule_id = {"trade_routes": "SNS-UPG-TRADEROUTES",
               "shipping_routes": "SNS-UPG-SHIPPINGROUTES"}.get(channel, "SNS-ECON-57")
    _check_trade(kingdom, building, upgrade, rule_id)
    if FAVOR in (give, get):
        raise RuleViolation("Favor can never be traded at a Market, Tavern or Dock "
                            "(SNS-ECON-57).")
    if give == get or give not in RESOURCES or get not in RESOURCES:
        raise RuleViolation("Trade one resource for a different one (SNS-ECON-57).")
    if lots < 1:
        raise ValueError("Trade at least one lot.")
    lines = pay(kingdom.stockpile, {give: rate_give * lots}, rule_id, f"{channel} trade")
    lines += (LedgerLine(get, rate_get * lots, rule_id, f"{channel} trade"),)
    if (channel == "shipping_routes" and "CUSTOMTARIFFS" in kingdom.upgrades
            and kingdom.operational.get("MARKET", 0)
            and kingdom.operational.get("MERCHANTSGUILD", 0)):
        lines += (LedgerLine(GOLD, lots, "SNS-UPG-CUSTOMTARIFFS", "Custom Tariffs"),)
    return lines


def buy_resource(
    kingdom: Kingdom,
    channel: str,
    resource: str,
    amount: int = 1,
    *,
    options: EconOptions = DEFAULT_OPTIONS,
) -> tuple[LedgerLine, ...]:
    """SNS-ECON-57: at a Market or Tavern, buy 1 of a resource for 1 of the price resource
    (probably gold, SNS-AMB-30; ``EconOptions.market_price_resource``). Never favor."""
    if channel not in ("market", "tavern"):
        raise RuleViolation("Resources are bought at a Market or a Tavern (SNS-ECON-57).")
    _check_trade(kingdom, channel.upper(), "", "SNS-ECON-57")
    price = options.market_price_resource
    if resource == FAVOR or resource == price:
        raise RuleViolation(f"You cannot buy {resource} this way (SNS-ECON-57).")
    lines = pay(kingdom.stockpile, {price: amount}, "SNS-ECON-57", f"buy {resource}")
    return lines + (LedgerLine(resource, amount, "SNS-ECON-57", f"buy {resource}"),)


def alchemy(kingdom: Kingdom, into: Mapping[str, int]) -> tuple[LedgerLine, ...]:
    """SNS-ECON-57 (Alchemical secrets): stone in the Stockpile turns 1 for 1 into other
    resources, never favor."""
    if FAVOR in into or STONE in into:
        raise RuleViolation("Alchemical secrets turn stone into food, wood, iron or gold "
                            "(SNS-ECON-57).")
    total = sum(into.values())
    lines = pay(kingdom.stockpile, {STONE: total}, "SNS-ECON-57", "Alchemical secrets")
    return lines + lines_for(into, "SNS-ECON-57", "Alchemical secrets")


def player_trade(
    giver: Kingdom,
    receiver: Kingdom,
    gives: Mapping[str, int],
    gets: Mapping[str, int],
    *,
    zones_touch: bool = False,
    ransom: bool = False,
) -> tuple[tuple[LedgerLine, ...], tuple[LedgerLine, ...]]:
    """SNS-ECON-57: an agreed exchange between two players. Each needs a working Market, or the
    two kingdom zones must meet; a besieged side needs a working Dock (SNS-ECON-46). Ransom for
    prisoners changes hands at once, Markets or not (SNS-CBT-9). Returns (giver's lines,
    receiver's lines). Allies may help each other's building and training only by agreement
    (SNS-ECON-60); trading needs no alliance."""
    if not ransom:
        for kingdom in (giver, receiver):
            _check_ruler(kingdom, "trade")
            if kingdom.besieged and not kingdom.operational.get("DOCK", 0):
                raise RuleViolation("A besieged kingdom without an operational Dock cannot trade "
                                    "(SNS-ECON-46).")
        markets = giver.operational.get("MARKET", 0) and receiver.operational.get("MARKET", 0)
        if not markets and not zones_touch:
            raise RuleViolation("Players trade when both have an operational Market or their "
                                "kingdom zones touch (SNS-ECON-57).")
    out_a = pay(giver.stockpile, gives, "SNS-ECON-57", "trade with a player") if gives else ()
    out_b = pay(receiver.stockpile, gets, "SNS-ECON-57", "trade with a player") if gets else ()
    in_a = lines_for(gets, "SNS-ECON-57", "trade with a player")
    in_b = lines_for(gives, "SNS-ECON-57", "trade with a player")
    check_operational(giver.stockpile, in_a, "receive")
    check_operational(receiver.stockpile, in_b, "receive")
    return out_a + in_a, out_b + in_b


# --- upgrades paid at each use, and the covert ones (SNS-UPG-*) --------------------------------

#: Upgrades whose use costs an amount each time (type lost in the source, SNS-AMB-30):
#: code -> (amount per use, what a use is).
USE_COSTS: Mapping[str, tuple[int, str]] = {
    "EXPLORERS": (1, "explorer"),
    "REFORESTATION": (5, "Forest planted"),
    "DEMOLITION": (5, "Bomb token"),
    "FIREPOTS": (1, "fire pot launched"),
    "PYROMANCY": (1, "fire pot thrown"),
    "WORMSPRAY": (1, "Worm event turned idle"),
}
#: SNS-BLD-TRENCHES: entrenching a siege unit costs 1 each time (type lost, SNS-AMB-30).
ENTRENCH_COST = 1


def pay_for_use(
    kingdom: Kingdom,
    code: str,
    uses: int = 1,
    *,
    declared_type: str | None = None,
) -> tuple[LedgerLine, ...]:
    """SNS-UPG-EXPLORERS (1 per explorer), SNS-UPG-REFORESTATION (5 per Forest),
    SNS-UPG-DEMOLITION (5 per Bomb token), SNS-UPG-FIREPOTS and SNS-UPG-PYROMANCY (1 per fire
    pot), SNS-UPG-WORMSPRAY (1 per Worm event), SNS-BLD-TRENCHES (1 per entrenchment): the
    price of using something owned. The resource was lost in the source, so the GM or player
    names it (SNS-AMB-30)."""
    if code == "TRENCHES":
        if not kingdom.built.get("TRENCHES", 0):
            raise RuleViolation("Entrenching needs a completed Trench (SNS-BLD-TRENCHES).")
        amount, what, rule_id = ENTRENCH_COST, "siege unit entrenched", "SNS-BLD-TRENCHES"
    else:
        if code not in USE_COSTS:
            raise RuleViolation(f"{code.title()} has no price per use (SNS-UPG).")
        if code not in kingdom.upgrades:
            raise RuleViolation(f"You need the upgrade first (SNS-UPG-{code}).")
        amount, what = USE_COSTS[code]
        rule_id = f"SNS-UPG-{code}"
    if declared_type is None:
        raise RuleViolation("The resource of this price was lost in the rulebook text; the GM "
                            "must name it (SNS-AMB-30).")
    return pay(kingdom.stockpile, {declared_type: amount * uses}, rule_id,
               f"{uses} {what}{'s' if uses != 1 else ''}")


def plant_forest(kingdom: Kingdom, *, declared_type: str | None = None
                 ) -> tuple[tuple[LedgerLine, ...], Timer, int]:
    """SNS-UPG-REFORESTATION: pay 5 to plant a Forest; it grows for 10 turns (timer 10) and
    comes up at level 3, or 4 with Wells (SNS-UPG-WELLS). Events there are Idle Villagers."""
    lines = pay_for_use(kingdom, "REFORESTATION", declared_type=declared_type)
    return lines, start_timer("Reforestation"), 4 if "WELLS" in kingdom.upgrades else 3


@dataclass(frozen=True)
class CovertResult:
    """What a Spies, Saboteurs or Jesters Court use did."""

    caught: bool
    wounds: int = 0
    lines: tuple[LedgerLine, ...] = ()
    note: str = ""


def spy(die: int, *, town_watch_die: int | None = None, castles: int = 0) -> CovertResult:
    """SNS-UPG-SPIES, SNS-UPG-TOWNWATCH: Spies are caught on 1-2; on 3-6 the player picks what
    they learn or destroy. A target with Town Watch catches them on 5+ (1 better per Castle)."""
    _check_die(die)
    if town_watch_die is not None:
        _check_die(town_watch_die)
        if town_watch_die >= 5 - castles:
            return CovertResult(True, note="caught by the Town Watch")
    return CovertResult(die <= 2)


def sabotage(target: str, die: int, wound_dice: Sequence[int] = ()) -> CovertResult:
    """SNS-UPG-SABOTEURS: against a building: 1-2 caught, 3-4 d6 wounds, 5-6 2d6 wounds;
    against a gate: 1-3 caught, 4 try again next turn, 5 the gate is out for 3 turns (timer 4),
    6 destroyed; havoc: 1-2 caught, 3-6 the target rolls a Kingdom event."""
    _check_die(die)
    for d in wound_dice:
        _check_die(d)
    if target == "building":
        if die <= 2:
            return CovertResult(True)
        need = 1 if die <= 4 else 2
        if len(wound_dice) != need:
            raise RuleViolation(f"Roll {need} d6 for the wounds (SNS-UPG-SABOTEURS).")
        return CovertResult(False, wounds=sum(wound_dice))
    if target == "gate":
        notes = {4: "try again next turn", 5: "gate removed for 3 turns (timer 4)",
                 6: "gate destroyed"}
        return CovertResult(die <= 3, note=notes.get(die, ""))
    if target == "havoc":
        return CovertResult(die <= 2, note="" if die <= 2 else "the target rolls a Kingdom event")
    raise ValueError("Saboteurs target a building, a gate or havoc.")


def jesters_court_food_loss(target: Stockpile, die: int) -> tuple[LedgerLine, ...]:
    """SNS-UPG-JESTERSCOURT: one use makes the target lose d6 food (1s re-rolled, so the die
    entered is 2-6), no more than it holds."""
    _check_die(die)
    if die == 1:
        raise RuleViolation("This roll re-rolls 1s: enter the die as it ends up "
                            "(SNS-UPG-JESTERSCOURT).")
    return lose_up_to(target, FOOD, die, "SNS-UPG-JESTERSCOURT", "The Jesters Court")


def _check_die(die: int) -> None:
    if not 1 <= die <= 6:
        raise ValueError(f"A d6 shows 1 to 6, not {die}.")


# --- Pagani rituals (SNS-FAC-4) ----------------------------------------------------------------

#: SNS-FAC-4: worshippers each deity needs at the Sacred Ground (the lowest tier).
RITUAL_MINIMUM: Mapping[str, int] = {
    "Akhina": 10, "Amanti": 4, "Apoleo": 4, "Aros": 5, "Emes": 6, "Hiros": 4, "Piya": 3,
    "Talos": 6, "Vullie": 10, "Vena": 6, "Yedvadova": 6,
}


@dataclass(frozen=True)
class Ritual:
    """What a ritual gives the ledger this advance phase (SNS-FAC-4)."""

    deity: str
    tier: int
    growth: GrowthLine | None = None
    free_villagers: int = 0
    free_upgrade: bool = False
    protections: tuple[str, ...] = ()


def pagani_ritual(kingdom: Kingdom, deity: str, worshipper_points: int) -> Ritual:
    """SNS-FAC-4: a Paganite ritual at an operational Sacred Ground, by worshipper points (Monk
    and Queen 2, King and Caster 3, others 1). Vena: +2 growth per 6; Hiros: a free Villager per
    4; Akhina (10): one free upgrade (prerequisites still apply); Amanti, Piya and Talos: the
    event protections they give (``events.CONVERSIONS``); Aros tiers 5 / 8 / 20, Amanti 4 / 10,
    Piya 3 / 7."""
    if kingdom.faction != PAGANITE:
        raise RuleViolation("Only Paganites hold rituals (SNS-FAC-4).")
    if not kingdom.operational.get("SACREDGROUND", 0):
        raise RuleViolation("Rituals need an operational Sacred Ground (SNS-FAC-4).")
    need = RITUAL_MINIMUM.get(deity)
    if need is None:
        raise RuleViolation(f"{deity} is not one of the Pagani deities (SNS-FAC-4).")
    if worshipper_points < need:
        raise RuleViolation(f"{deity} needs {need} worshippers (SNS-FAC-4).")
    tiers = {"Aros": (5, 8, 20), "Amanti": (4, 10), "Piya": (3, 7)}.get(deity, (need,))
    tier = sum(1 for t in tiers if worshipper_points >= t)
    if deity == "Vena":
        return Ritual(deity, 1, GrowthLine(2 * (worshipper_points // 6), "SNS-FAC-4", "Vena"))
    if deity == "Hiros":
        return Ritual(deity, 1, free_villagers=worshipper_points // 4)
    if deity == "Akhina":
        return Ritual(deity, 1, free_upgrade=True)
    return Ritual(deity, tier, protections=(deity,) if deity in ("Amanti", "Piya", "Talos")
                  else ())
