"""Swords & Stones: the harvest phase (SNS-ECON-20..31).

Each source is a function of the dice the table rolled and returns a ``Harvest``: the ledger
lines of the successful dice and the events the 1s triggered (which table, how many). Events are
resolved (``events.resolve_event``) before the successes are booked (SNS-ECON-22, SNS-ECON-30);
``harvest_phase`` puts the parts of a phase together in the order of the phase table
(SNS-ECON-20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from campaign.systems.swords_and_stones.rules.catalogue import NON_MILITARY
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    DAMNED,
    DEFAULT_OPTIONS,
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
)

FOREST = "forest"
OUTCROP = "outcrop"

# Event tables a harvest die can trigger (SNS-EVT-1).
FOREST_EVENTS = "forest"
OUTCROP_EVENTS = "outcrop"
FARM_EVENTS = "farm"
FISHING_EVENTS = "fishing"
FAVOR_EVENTS = "favor"
KINGDOM_EVENTS = "kingdom"

#: SNS-ECON-20: the order of the harvest steps.
HARVEST_STEPS: tuple[str, ...] = ("forest", "outcrop", "farm", "fishing", "temple", "other")


def _check_dice(dice: Sequence[int]) -> None:
    for die in dice:
        if not 1 <= die <= 6:
            raise ValueError(f"A d6 shows 1 to 6, not {die}.")


@dataclass(frozen=True)
class Harvest:
    """What one harvest source gave: ``lines`` of the successes, ``events`` the event tables of
    the 1s in dice order (SNS-ECON-22, SNS-ECON-30), ``successes`` the successful dice and
    ``units_lost`` units the dice killed (Stone Drill)."""

    step: str
    lines: tuple[LedgerLine, ...] = ()
    events: tuple[str, ...] = ()
    successes: int = 0
    units_lost: int = 0


# --- Sites (SNS-ECON-21..24, SNS-STATE-5) -----------------------------------------------------


@dataclass(frozen=True)
class Site:
    """A Resource Site's state (SNS-STATE-5): type, set, level (its resource amount), scarcity
    points, the secondary resource and its threshold (Outcrops), and flags."""

    kind: str
    level: int
    code: str = ""
    set_name: str = "A"
    scarcity: int = 0
    secondary: str | None = None
    threshold: int | None = None
    regenerating: bool = False
    reforested: bool = False
    unlimited: bool = False
    depleted: bool = False

    def __post_init__(self) -> None:
        if self.kind not in (FOREST, OUTCROP):
            raise ValueError("A Site is a forest or an outcrop (SNS-ECON-21).")
        if self.secondary not in (None, GOLD, IRON) or (self.secondary and self.kind == FOREST):
            raise ValueError("Only an Outcrop may hold gold or iron (SNS-ECON-23).")
        if self.secondary and not (self.threshold and 2 <= self.threshold <= 6):
            raise ValueError("A gold or iron Outcrop needs a threshold from 2+ to 6+ "
                             "(SNS-ECON-23).")


def place_site(
    kind: str,
    level: int,
    *,
    code: str = "",
    secondary: str | None = None,
    threshold: int | None = None,
    map_type: str | None = None,
    middle_island: bool = False,
    at_mountain: bool = False,
) -> Site:
    """SNS-ECON-6 with the maps' Site rules: Black Forest Forests are level 6 (SNS-MAP-3); Great
    Sandy Forests start with 1 scarcity point (SNS-MAP-8); Outcrops on the Gold Coast's middle
    islands are level 3 with gold on 2+ (SNS-MAP-6); a Mountain's stone never runs out
    (SNS-MAP-2 Lonely Mountain, SNS-MAP-9 if agreed)."""
    scarcity = 0
    unlimited = False
    if kind == FOREST and map_type == "black_forest":
        level = 6
    if kind == FOREST and map_type == "great_sandy":
        scarcity = 1
    if kind == OUTCROP and map_type == "gold_coast" and middle_island:
        level, secondary, threshold = 3, GOLD, 2
    if kind == OUTCROP and at_mountain and map_type in ("lonely_mountain", "mountains"):
        unlimited = True
    return Site(kind, level, code, scarcity=scarcity, secondary=secondary, threshold=threshold,
                unlimited=unlimited)


def add_scarcity(site: Site, points: int = 1) -> Site:
    """SNS-ECON-24: a Site gains scarcity points and is depleted (removed) when they reach its
    level. A Mountain with unlimited stone never runs out (SNS-MAP-2, SNS-MAP-9)."""
    if site.unlimited:
        return site
    scarcity = site.scarcity + points
    return replace(site, scarcity=scarcity, depleted=scarcity >= site.level)


def harvest_site(
    site: Site,
    dice: Sequence[int],
    *,
    stone_instead: int = 0,
    all_fail: bool = False,
    outside_siege_line: bool = False,
    harvested_events: int = 0,
) -> Harvest:
    """SNS-ECON-21..23: one harvest die per unit touching the Site, all rolled together.

    A 1 is an event on the Site's table; 2-6 give 1 wood (Forest) or 1 stone (Outcrop), or the
    Outcrop's gold or iron when the die reaches its threshold. ``stone_instead`` of those gold or
    iron dice are taken as stone (the player's choice). ``all_fail`` is a Mine Shaft Collapse.
    ``harvested_events`` counts event dice that harvest anyway (Idle Villagers under Crime and
    Punishment, SNS-UPG-CRIMEPUNISH): each gives the Site's plain resource. A besieged kingdom
    may not harvest outside the siege line (SNS-ECON-46)."""
    _check_dice(dice)
    if site.depleted:
        raise RuleViolation("This Site is depleted and out of play (SNS-ECON-24).")
    if outside_siege_line:
        raise RuleViolation("A besieged kingdom cannot harvest outside the siege line "
                            "(SNS-ECON-46).")
    table = FOREST_EVENTS if site.kind == FOREST else OUTCROP_EVENTS
    events = tuple(table for die in dice if die == 1)
    if harvested_events > len(events):
        raise ValueError("More harvesting events than event dice (SNS-ECON-22).")
    good = [die for die in dice if die >= 2] + [0] * harvested_events
    if all_fail:
        return Harvest(site.kind, (), events, 0)
    label = site.code or site.kind
    if site.kind == FOREST:
        lines = (LedgerLine(WOOD, len(good), "SNS-ECON-22", f"wood from {label}"),) if good else ()
        return Harvest(FOREST, lines, events, len(good))
    rich = len([d for d in good if site.secondary and site.threshold and d >= site.threshold])
    if stone_instead > rich:
        raise RuleViolation(f"Only {rich} dice found {site.secondary or 'gold or iron'} to take "
                            f"as stone (SNS-ECON-23).")
    rich -= stone_instead
    stone = len(good) - rich
    lines: tuple[LedgerLine, ...] = ()
    if rich:
        lines += (LedgerLine(site.secondary or GOLD, rich, "SNS-ECON-23",
                             f"{site.secondary} from {label}"),)
    if stone:
        lines += (LedgerLine(STONE, stone, "SNS-ECON-22", f"stone from {label}"),)
    return Harvest(OUTCROP, lines, events, len(good))


def regenerative_forestry_kept(dice_rolled: int, faction: str) -> bool:
    """SNS-UPG-REGENFORESTRY: the upgrade is lost when more than 3 harvest dice (4 for a
    Paganite) are rolled at its Forest in one turn."""
    return dice_rolled <= (4 if faction == PAGANITE else 3)


def hunt(
    dice: Sequence[int],
    faction: str,
    *,
    hunting_cabins: bool = False,
    amanti: bool = False,
    site: str = "forest",
) -> Harvest:
    """SNS-ECON-25: hunting at a Forest by units that did not harvest: 1 is a Forest event,
    5+ gives 1 food; Hunting Cabins lower it to 4+ (3+ for Paganites, SNS-UPG-HUNTINGCABINS);
    the Amanti ritual adds 1 to each roll (SNS-FAC-4)."""
    _check_dice(dice)
    need = 5
    if hunting_cabins:
        need = 3 if faction == PAGANITE else 4
    bonus = 1 if amanti else 0
    events = tuple(FOREST_EVENTS for die in dice if die == 1)
    food = sum(1 for die in dice if die != 1 and die + bonus >= need)
    lines = (LedgerLine(FOOD, food, "SNS-ECON-25", f"hunting at {site}"),) if food else ()
    return Harvest(FOREST, lines, events, food)


def fish(
    land_dice: Sequence[int] = (),
    ship_dice: Sequence[int] = (),
    *,
    fishing_fleets: bool = False,
    cultured_fishers: bool = False,
    yedvadova: bool = False,
) -> Harvest:
    """SNS-ECON-26: land units touching water succeed on 4+ (Cultured Fishers 3+); ships, which
    need Fishing Fleets, roll after them and succeed on 3+ (Cultured Fishers 2+). A 1 is a
    Fishing event; the Yedvadova ritual adds 1 to fishing rolls (SNS-FAC-4)."""
    _check_dice([*land_dice, *ship_dice])
    if ship_dice and not fishing_fleets:
        raise RuleViolation("Ships may only fish with the Fishing Fleets upgrade "
                            "(SNS-UPG-FISHINGFLEETS).")
    bonus = 1 if yedvadova else 0
    land_need = 3 if cultured_fishers else 4
    ship_need = 2 if cultured_fishers else 3
    events = tuple(FISHING_EVENTS for die in (*land_dice, *ship_dice) if die == 1)
    land = sum(1 for d in land_dice if d != 1 and d + bonus >= land_need)
    ships = sum(1 for d in ship_dice if d != 1 and d + bonus >= ship_need)
    lines: tuple[LedgerLine, ...] = ()
    if land:
        lines += (LedgerLine(FOOD, land, "SNS-ECON-26", "fishing from the shore"),)
    if ships:
        lines += (LedgerLine(FOOD, ships, "SNS-UPG-FISHINGFLEETS", "fishing from ships"),)
    return Harvest("fishing", lines, events, land + ships)


# --- Farms (SNS-ECON-27) -----------------------------------------------------------------------

RAIN = "rain"
INSECT_PLAGUE = "insect_plague"
SUCCESS = "success"
FAIL = "fail"


def farm_harvest(
    dice: Sequence[int],
    event_outcomes: Sequence[str] = (),
    *,
    heavy_plough: bool = False,
    rain_dance: bool = False,
    blessing: bool = False,
    estates_pairs: int = 0,
) -> Harvest:
    """SNS-ECON-27: one die per Farm, all together: 1 is a Farm event, 2+ is 1 food.

    ``event_outcomes`` says, for each 1 in dice order and once its event is resolved, what the
    die became: ``"rain"`` (the die succeeds, and each succeeding die yields 1 extra food,
    SNS-AMB-32), ``"insect_plague"`` (no food from Farms this turn, Rain cancelled),
    ``"success"`` (an event that harvests 1 food instead, e.g. Crop Rotation or Crime and
    Punishment) or ``"fail"``. Heavy Plough adds 1 food per successful die (not in an Insect
    Plague), additively with Rain (SNS-AMB-43, SNS-UPG-HEAVYPLOUGH); the Piya rain dance is Rain
    and does not stack with it (SNS-FAC-4); Plentiful Blessing doubles the successes; Estates
    trades each pair of successful dice for 1 gold (SNS-UPG-ESTATES)."""
    _check_dice(dice)
    ones = sum(1 for die in dice if die == 1)
    if len(event_outcomes) != ones:
        raise ValueError(f"{ones} Farm events need {ones} outcomes, got {len(event_outcomes)} "
                         "(SNS-ECON-30).")
    for outcome in event_outcomes:
        if outcome not in (RAIN, INSECT_PLAGUE, SUCCESS, FAIL):
            raise ValueError(f"Unknown Farm event outcome {outcome!r}.")
    events = tuple(FARM_EVENTS for _ in range(ones))
    plague = INSECT_PLAGUE in event_outcomes
    successes = sum(1 for die in dice if die >= 2)
    successes += sum(1 for outcome in event_outcomes if outcome in (RAIN, SUCCESS))
    if blessing:
        successes *= 2
    if plague:
        return Harvest("farm", (), events, 0)
    if estates_pairs * 2 > successes:
        raise RuleViolation(f"Estates needs 2 successful Farm dice per gold; only {successes} "
                            "succeeded (SNS-UPG-ESTATES).")
    kept = successes - 2 * estates_pairs
    rain = RAIN in event_outcomes or rain_dance
    lines: list[LedgerLine] = []
    if kept:
        lines.append(LedgerLine(FOOD, kept, "SNS-ECON-27", "Farm harvest"))
        if rain:
            lines.append(LedgerLine(FOOD, kept, "SNS-ECON-27", "Rain on the Farms"))
        if heavy_plough:
            lines.append(LedgerLine(FOOD, kept, "SNS-UPG-HEAVYPLOUGH", "Heavy Plough"))
    if estates_pairs:
        lines.append(LedgerLine(GOLD, estates_pairs, "SNS-UPG-ESTATES", "Estates"))
    return Harvest("farm", tuple(lines), events, successes)


# --- favor (SNS-ECON-28, SNS-FAC-2/3/6) --------------------------------------------------------

#: SNS-FAC-3: worshipper points at a Paganite Temple (other units count 1).
WORSHIPPER_POINTS: Mapping[str, int] = {"MONK": 2, "QUEEN": 2, "KING": 3, "CASTER": 3}


def temple_dice(
    faction: str, units: Mapping[str, int], options: EconOptions = DEFAULT_OPTIONS
) -> int:
    """SNS-ECON-28: how many favor dice the units touching the Temple give.

    Avalonian (SNS-FAC-2): a die for every 3 units that are not soldiers (Villager, King,
    Queen, Monk, Caster; SNS-AMB-39, or Villagers only with that option). Paganite (SNS-FAC-3):
    a die for every 3 worshipper points. Damned (SNS-FAC-6): one per Monk, Caster, King or Queen."""
    if faction == AVALONIAN:
        counted = ("VILLAGER",) if options.temple_die_units == "villagers" else NON_MILITARY
        return sum(n for unit, n in units.items() if unit in counted) // 3
    if faction == PAGANITE:
        return sum(WORSHIPPER_POINTS.get(unit, 1) * n for unit, n in units.items()) // 3
    if faction == DAMNED:
        return sum(n for unit, n in units.items() if unit in ("MONK", "CASTER", "KING", "QUEEN"))
    raise ValueError(f"Unknown faction {faction!r}.")


def favor_harvest(
    dice: Sequence[int],
    *,
    shunned: bool = False,
    all_fail: bool = False,
    coinage_swaps: int = 0,
    faction: str = AVALONIAN,
    options: EconOptions = DEFAULT_OPTIONS,
) -> Harvest:
    """SNS-ECON-28: each favor die: 1 is a Favor event, 2-6 is 1 favor. Shunned kingdoms gain no
    favor; Spiritual Sabotage fails every die (``all_fail``); with Coinage an Avalonian may take
    gold instead of some of it (SNS-UPG-COINAGE)."""
    _check_dice(dice)
    events = tuple(FAVOR_EVENTS for die in dice if die == 1)
    favor = 0 if (shunned or all_fail) else sum(1 for die in dice if die >= 2)
    if coinage_swaps and faction != AVALONIAN:
        raise RuleViolation("Coinage is an Avalonian upgrade (SNS-UPG-COINAGE).")
    if coinage_swaps > favor:
        raise RuleViolation(f"Only {favor} favor was harvested to swap (SNS-UPG-COINAGE).")
    lines: tuple[LedgerLine, ...] = ()
    if favor - coinage_swaps:
        lines += (LedgerLine(FAVOR, favor - coinage_swaps, "SNS-ECON-28", "Temple worship"),)
    if coinage_swaps:
        lines += (LedgerLine(options.coinage_resource, coinage_swaps, "SNS-UPG-COINAGE",
                             "Coinage"),)
    return Harvest("temple", lines, events, favor)


# --- other harvests (SNS-ECON-29) --------------------------------------------------------------


def goods_and_services(
    die: int,
    units_touching: int,
    *,
    the_noble: bool = False,
    envoy_from_afar: bool = False,
    taxation: bool = False,
    taxation_buildings_operational: bool = False,
    options: EconOptions = DEFAULT_OPTIONS,
) -> Harvest:
    """SNS-ECON-29: the Merchant's Guild die at the end of the harvest: 1 is a Kingdom event,
    2-6 give 1 gold per unit touching the Guild, at most 3; 4 with The Noble or an Envoy from
    Afar (not 5 with both unless the group stacks them, SNS-AMB-41). Taxation doubles it while
    the Town Center, Castle and Market work (SNS-UPG-TAXATION)."""
    _check_dice([die])
    if die == 1:
        return Harvest("other", (), (KINGDOM_EVENTS,), 0)
    cap = 3
    bonuses = int(the_noble) + int(envoy_from_afar)
    cap += bonuses if options.guild_cap_stacks else min(bonuses, 1)
    gold = min(units_touching, cap)
    lines: tuple[LedgerLine, ...] = ()
    if gold:
        lines = (LedgerLine(GOLD, gold, "SNS-ECON-29", "Goods and Services"),)
        if taxation and taxation_buildings_operational:
            lines += (LedgerLine(GOLD, gold, "SNS-UPG-TAXATION", "Taxation"),)
    return Harvest("other", lines, (), 1)


def stone_drill(dice: Sequence[int]) -> Harvest:
    """SNS-UPG-STONEDRILL (SNS-ECON-29): each unit touching the Mill rolls at the end of the
    harvest: 1 loses the unit, 2 nothing, 3-6 give 1 stone."""
    _check_dice(dice)
    stone = sum(1 for die in dice if die >= 3)
    lines = (LedgerLine(STONE, stone, "SNS-UPG-STONEDRILL", "Stone Drill"),) if stone else ()
    return Harvest("other", lines, (), stone, units_lost=sum(1 for die in dice if die == 1))


def totem_favor(totems: int, all_full_hp: bool, *, favor_blocked: bool = False) -> Harvest:
    """SNS-BLD-TOTEM (SNS-ECON-29): 1 favor per Totem, only while every Totem is at full HP and
    favor is not blocked (a destroyed Totem blocks it the next turn)."""
    if not totems or not all_full_hp or favor_blocked:
        return Harvest("other")
    return Harvest("other", (LedgerLine(FAVOR, totems, "SNS-BLD-TOTEM", "Totems"),), (), totems)


def relic_income(choices: Sequence[str]) -> Harvest:
    """SNS-ECON-29: each Relic in the own kingdom zone gives 1 favor or 1 gold (one choice per
    Relic)."""
    favor = sum(1 for c in choices if c == FAVOR)
    gold = sum(1 for c in choices if c == GOLD)
    if favor + gold != len(choices):
        raise RuleViolation("A Relic gives favor or gold (SNS-ECON-29).")
    lines: tuple[LedgerLine, ...] = ()
    if gold:
        lines += (LedgerLine(GOLD, gold, "SNS-ECON-29", "Relics"),)
    if favor:
        lines += (LedgerLine(FAVOR, favor, "SNS-ECON-29", "Relics"),)
    return Harvest("other", lines, (), len(choices))


def merchant_navies(ships_at_edge: int) -> Harvest:
    """SNS-UPG-MERCHANTNAVIES: 1 gold per 2 ships touching the table edge."""
    gold = ships_at_edge // 2
    lines = (LedgerLine(GOLD, gold, "SNS-UPG-MERCHANTNAVIES", "Merchant Navies"),) if gold else ()
    return Harvest("other", lines, (), gold)


def event_site_income(
    *, underground_kingdoms: int = 0, prismatic_units: int = 0, wyvern_die: int | None = None
) -> Harvest:
    """SNS-ECON-29: gold from event Sites: +1 per Underground Kingdom held, 1 per unit at an
    Ancient Prismatic Complex, d6-2 (at least 0) while a Red Wyvern mating season runs."""
    gold = underground_kingdoms + prismatic_units
    if wyvern_die is not None:
        _check_dice([wyvern_die])
        gold += max(0, wyvern_die - 2)
    lines = (LedgerLine(GOLD, gold, "SNS-ECON-29", "event Sites"),) if gold else ()
    return Harvest("other", lines, (), gold)


# --- a whole phase (SNS-ECON-20, SNS-ECON-30) --------------------------------------------------


@dataclass(frozen=True)
class HarvestPhase:
    """The harvest of one kingdom in one turn: all lines in phase order, the events to resolve
    (determined together first, then resolved one by one, SNS-ECON-30) and the successful Farm
    dice (SNS-STAT-20)."""

    lines: tuple[LedgerLine, ...]
    events: tuple[str, ...]
    farm_successes: int
    units_lost: int


def harvest_phase(parts: Sequence[Harvest]) -> HarvestPhase:
    """SNS-ECON-20: put the harvest together, refusing parts out of the phase order (Forests,
    Outcrops, Farms, fishing, Temple, everything else; all Sites before the Farm dice)."""
    last = 0
    for part in parts:
        index = HARVEST_STEPS.index(part.step)
        if index < last:
            raise RuleViolation(
                f"The {part.step} harvest comes before the {HARVEST_STEPS[last]} harvest: Forests, "
                "Outcrops, Farms, fishing, the Temple, then the rest (SNS-ECON-20)."
            )
        last = index
    return HarvestPhase(
        tuple(line for part in parts for line in part.lines),
        tuple(event for part in parts for event in part.events),
        sum(part.successes for part in parts if part.step == "farm"),
        sum(part.units_lost for part in parts),
    )
