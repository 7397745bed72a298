"""War of Kings: Table 4 prices and the rules of building.

:func:`check_build` raises :class:`RuleViolation` naming the first rule an action breaks;
:func:`build` checks, pays from the stockpile and places the piece at once (WOK-TURN-2 step 4).
Items are ``village``, ``town``, ``city``, ``walls``, ``fortress``, ``castle``, ``army`` (in a
territory) and ``road`` (across a border). :func:`available_builds` lists, for a kingdom, every
item and territory with its price and whether and why it is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from campaign.systems.war_of_kings.rules.board import (
    CASTLE,
    CITY,
    CONSTRUCTION,
    FORTIFICATION_NAMES,
    FORTRESS,
    MALADOR,
    NO_FORTIFICATION,
    NO_SETTLEMENT,
    SETTLEMENT_NAMES,
    TOWN,
    VILLAGE,
    WALLS,
    Army,
    GameState,
    RuleViolation,
    Stock,
    who,
)
from campaign.systems.war_of_kings.rules.options import DEFAULTS, V06, Options

ROAD_ITEM = "road"
VILLAGE_ITEM = "village"
TOWN_ITEM = "town"
CITY_ITEM = "city"
WALLS_ITEM = "walls"
FORTRESS_ITEM = "fortress"
CASTLE_ITEM = "castle"
ARMY_ITEM = "army"
PROVISIONS_ITEM = "provisions"
RESUPPLY_ITEM = "resupply"

SETTLEMENT_ITEMS = {VILLAGE_ITEM: VILLAGE, TOWN_ITEM: TOWN, CITY_ITEM: CITY}
FORTIFICATION_ITEMS = {WALLS_ITEM: WALLS, FORTRESS_ITEM: FORTRESS, CASTLE_ITEM: CASTLE}
TERRITORY_ITEMS = (VILLAGE_ITEM, TOWN_ITEM, CITY_ITEM, WALLS_ITEM, FORTRESS_ITEM, CASTLE_ITEM,
                   ARMY_ITEM)

#: WOK-COST-1, Table 4 (v1.01). Town, city, fortress and castle are upgrade prices.
PRICES: dict[str, Stock] = {
    ROAD_ITEM: Stock(gold=3, timber=2, wheat=1),
    VILLAGE_ITEM: Stock(gold=4, timber=3, wheat=3, cattle=3),
    TOWN_ITEM: Stock(gold=6, timber=4, wheat=4, cattle=4, stone=1),
    CITY_ITEM: Stock(gold=9, timber=4, wheat=4, cattle=5, stone=3),
    WALLS_ITEM: Stock(gold=4, timber=1, stone=2),
    FORTRESS_ITEM: Stock(gold=4, timber=2, stone=4),
    CASTLE_ITEM: Stock(gold=6, timber=2, stone=4),
    ARMY_ITEM: Stock(gold=5, wheat=3, cattle=3),
    PROVISIONS_ITEM: Stock(gold=5),
    RESUPPLY_ITEM: Stock(gold=2),
}

#: WOK-V06-6: the preview's prices where they differ.
V06_PRICES: dict[str, Stock] = {
    CITY_ITEM: Stock(gold=8, timber=4, wheat=4, cattle=4, stone=2),
    FORTRESS_ITEM: Stock(gold=4, timber=2, stone=2),
    CASTLE_ITEM: Stock(gold=6, timber=2, wheat=2, cattle=2, stone=6),
}

#: WOK-COMP-1: the shared supply of neutral pieces; running out warns only (WOK-AMB-17).
SUPPLY = {WALLS: 12, FORTRESS: 6, CASTLE: 3}
ROAD_SUPPLY = 36

#: WOK-ARMY-2: armies that a town or city of the raiser's culture may raise per round.
RAISE_LIMIT = {NO_SETTLEMENT: 0, VILLAGE: 0, TOWN: 1, CITY: 2}


def price(item: str, options: Options = DEFAULTS) -> Stock:
    """WOK-COST-1 (and WOK-V06-6 with ``options.prices == "v0.6"``)."""
    if options.prices == V06 and item in V06_PRICES:
        return V06_PRICES[item]
    try:
        return PRICES[item]
    except KeyError:
        raise RuleViolation(f"WOK-COST-1: {item!r} is not on the price table.") from None


_CHAINS = {
    TOWN_ITEM: (VILLAGE_ITEM, TOWN_ITEM),
    CITY_ITEM: (VILLAGE_ITEM, TOWN_ITEM, CITY_ITEM),
    FORTRESS_ITEM: (WALLS_ITEM, FORTRESS_ITEM),
    CASTLE_ITEM: (WALLS_ITEM, FORTRESS_ITEM, CASTLE_ITEM),
}


def cumulative_cost(target: str, options: Options = DEFAULTS) -> tuple[Stock, int]:
    """WOK-COST-2: the price of a town, city, fortress or castle built from nothing, and the
    fewest rounds it takes (one level per round: WOK-SET-5, WOK-FORT-5)."""
    chain = _CHAINS.get(target, (target,))
    total = Stock()
    for step in chain:
        total = total + price(step, options)
    return total, len(chain)


def piece_cap(level: int, options: Options) -> int | None:
    """WOK-COMP-2, WOK-AMB-17: settlement pieces of one level per culture."""
    return {VILLAGE: options.village_cap, TOWN: options.town_cap, CITY: options.city_cap}[level]


def pieces_in_use(state: GameState, culture: str, level: int) -> int:
    """Settlements of ``culture`` and ``level`` on the board, whoever controls them (counted
    once per state)."""
    key = ("pieces",)
    if key not in state.memo:
        counts: dict[tuple[str | None, int], int] = {}
        for code in state.map.codes:
            holding = state.holding(code)
            if holding.level:
                counts[(holding.culture, holding.level)] = counts.get(
                    (holding.culture, holding.level), 0) + 1
        state.memo[key] = counts
    return state.memo[key].get((culture, level), 0)  # type: ignore[attr-defined]


def _check_piece(state: GameState, culture: str, level: int, options: Options) -> None:
    cap = piece_cap(level, options)
    if cap is not None and pieces_in_use(state, culture, level) >= cap:
        raise RuleViolation(
            f"WOK-SET-10: all {cap} {SETTLEMENT_NAMES[level]} pieces of the {culture} culture "
            "are on the board (WOK-COMP-2).")


def _check_phase(state: GameState) -> None:
    if state.phase != CONSTRUCTION:
        raise RuleViolation("WOK-COST-3: building, upgrading and raising armies happen only in "
                            "the construction step of the Construction Phase.")


def _check_controls(state: GameState, kingdom: str, code: str, rule: str) -> None:
    if not state.map.territory(code).playable:
        raise RuleViolation(f"{rule}: {code} can never be controlled or built on "
                            "(WOK-BOARD-2, WOK-BOARD-3).")
    if state.ctrl(code) != kingdom:
        raise RuleViolation(f"{rule}: {kingdom} must control {code} to build there; it is "
                            f"held by {who(state.ctrl(code))}.")


def _check_settlement(state: GameState, kingdom: str, item: str, code: str,
                      options: Options) -> None:
    target = SETTLEMENT_ITEMS[item]
    holding = state.holding(code)
    _check_controls(state, kingdom, code, "WOK-SET-7")
    if target == VILLAGE:
        if holding.level != NO_SETTLEMENT:
            raise RuleViolation(f"WOK-SET-2: {code} already holds a "
                                f"{SETTLEMENT_NAMES[holding.level]}; one settlement per "
                                "territory.")
        _check_piece(state, kingdom, VILLAGE, options)
        return
    if holding.level == NO_SETTLEMENT:
        raise RuleViolation(f"WOK-SET-3: only a village can be placed in {code}, which has no "
                            "settlement.")
    if holding.level != target - 1:
        raise RuleViolation(f"WOK-SET-4: a {SETTLEMENT_NAMES[target]} is built by upgrading a "
                            f"{SETTLEMENT_NAMES[target - 1]}; {code} holds a "
                            f"{SETTLEMENT_NAMES[holding.level]}.")
    culture = holding.culture or kingdom
    if culture != kingdom and not options.foreign_upgrades:
        raise RuleViolation(f"WOK-SET-8: {kingdom} may upgrade only settlements of its own "
                            f"culture; the {SETTLEMENT_NAMES[holding.level]} in {code} is "
                            f"{culture} (WOK-CULT-7).")
    if holding.settlement_round == state.round:
        raise RuleViolation(f"WOK-SET-5: the settlement in {code} was already built or upgraded "
                            "this round; one level per round (WOK-SET-6).")
    # WOK-V06-12: a foreign upgrade uses the other culture's spare pieces.
    _check_piece(state, culture, target, options)


def _check_fortification(state: GameState, kingdom: str, item: str, code: str) -> None:
    target = FORTIFICATION_ITEMS[item]
    holding = state.holding(code)
    _check_controls(state, kingdom, code, "WOK-FORT-2")
    if holding.level == NO_SETTLEMENT:
        raise RuleViolation(f"WOK-FORT-2: a fortification needs a settlement; {code} has none.")
    if holding.fort == NO_FORTIFICATION and target != WALLS:
        raise RuleViolation(f"WOK-FORT-4: an unfortified settlement gets walls first; {code} "
                            f"cannot take a {FORTIFICATION_NAMES[target]} yet.")
    if holding.fort >= target:
        raise RuleViolation(f"WOK-FORT-7: {code} already has "
                            f"{FORTIFICATION_NAMES[holding.fort]}; one fortification per "
                            "territory.")
    if holding.fort != target - 1:
        raise RuleViolation(f"WOK-FORT-5: a {FORTIFICATION_NAMES[target]} is an upgrade of "
                            f"{FORTIFICATION_NAMES[target - 1]}; {code} has "
                            f"{FORTIFICATION_NAMES[holding.fort]}.")
    if holding.fort_round == state.round:
        raise RuleViolation(f"WOK-FORT-6: the fortification in {code} was already built or "
                            "upgraded this round; one level per round (WOK-FORT-5).")


def _check_army(state: GameState, kingdom: str, code: str, options: Options) -> None:
    holding = state.holding(code)
    _check_controls(state, kingdom, code, "WOK-ARMY-2")
    if holding.level < TOWN:
        raise RuleViolation(f"WOK-ARMY-2: armies are raised only in a town or city; {code} "
                            f"has {SETTLEMENT_NAMES[holding.level]}.")
    if (holding.culture or kingdom) != kingdom:
        raise RuleViolation(f"WOK-CULT-6: armies are raised only in settlements of the "
                            f"raiser's culture; the {SETTLEMENT_NAMES[holding.level]} in {code} "
                            f"is {holding.culture}.")
    if not options.raise_in_new_settlement and holding.settlement_round == state.round:
        raise RuleViolation(f"WOK-AMB-16: under this campaign's options no army may be raised "
                            f"in {code}, whose settlement changed this round.")
    raised = holding.raised if holding.raised_round == state.round else 0
    limit = RAISE_LIMIT[holding.level]
    if raised >= limit:
        raise RuleViolation(f"WOK-ARMY-2: a {SETTLEMENT_NAMES[holding.level]} raises at most "
                            f"{limit} {'army' if limit == 1 else 'armies'} per round; {code} "
                            f"has raised {raised}.")


def check_road(state: GameState, kingdom: str, a: str, b: str) -> None:
    """WOK-ROAD-1, WOK-AMB-18: both ends controlled by the builder, adjacent, no road yet."""
    _check_phase(state)
    if not state.map.adjacent(a, b):
        raise RuleViolation(f"WOK-ROAD-1: a road joins two adjacent territories; {a} and {b} "
                            "do not share a border.")
    for code in (a, b):
        _check_controls(state, kingdom, code, "WOK-ROAD-1")
    if state.has_road(a, b):
        raise RuleViolation(f"WOK-AMB-18: the border {a}–{b} already has a road.")


def check_build(state: GameState, kingdom: str, item: str, code: str,
                options: Options = DEFAULTS) -> Stock:
    """Every legality rule for one item in one territory (WOK-COST-3, WOK-SET-2..10,
    WOK-FORT-2..8, WOK-ARMY-2, WOK-CULT-6, WOK-CULT-7, WOK-AMB-16); returns the price
    (WOK-COST-1) after checking the stockpile covers it."""
    _check_phase(state)
    if kingdom not in state.kingdoms:
        raise RuleViolation(f"{kingdom} is not an active kingdom of this game.")
    if item in SETTLEMENT_ITEMS:
        _check_settlement(state, kingdom, item, code, options)
    elif item in FORTIFICATION_ITEMS:
        _check_fortification(state, kingdom, item, code)
    elif item == ARMY_ITEM:
        _check_army(state, kingdom, code, options)
    else:
        raise RuleViolation(f"WOK-COST-1: {item!r} is not built in a territory.")
    cost = price(item, options)
    _check_affordable(state, kingdom, item, cost)
    return cost


def _check_affordable(state: GameState, kingdom: str, item: str, cost: Stock) -> None:
    stock = state.stock(kingdom)
    if not stock.covers(cost):
        raise RuleViolation(f"WOK-COST-1: a {item} costs {cost.describe()}; {kingdom} is short "
                            f"of {stock.shortfall(cost).describe()}.")


@dataclass(frozen=True)
class Purchase:
    """What a build did: the new state, what was paid, and supply warnings (WOK-AMB-17)."""

    state: GameState
    item: str
    where: str
    cost: Stock
    warnings: tuple[str, ...] = ()


def build(state: GameState, kingdom: str, item: str, code: str, options: Options = DEFAULTS,
          army_id: str = "") -> Purchase:
    """Check, pay (WOK-MKT-3) and place one item at once (WOK-TURN-2 step 4). A new village has
    the builder's culture (WOK-CULT-2); a new army is placed unready (WOK-ARMY-3) and needs
    ``army_id``."""
    cost = check_build(state, kingdom, item, code, options)
    holding = state.holding(code)
    if item in SETTLEMENT_ITEMS:
        level = SETTLEMENT_ITEMS[item]
        culture = kingdom if level == VILLAGE else (holding.culture or kingdom)
        holding = replace(holding, level=level, culture=culture, settlement_round=state.round)
    elif item in FORTIFICATION_ITEMS:
        holding = replace(holding, fort=FORTIFICATION_ITEMS[item], fort_round=state.round)
    else:
        if not army_id:
            raise RuleViolation("WOK-ARMY-2: name the new army.")
        if any(a.id == army_id for a in state.armies):
            raise RuleViolation(f"WOK-ARMY-2: an army {army_id!r} is already on the board.")
        raised = holding.raised if holding.raised_round == state.round else 0
        holding = replace(holding, raised_round=state.round, raised=raised + 1)
        state = state.with_army(Army(army_id, kingdom, code, ready=False,
                                     raised_round=state.round))
    state = state.with_holding(code, holding)
    state = state.with_stock(kingdom, state.stock(kingdom) - cost)
    return Purchase(state, item, code, cost, supply_warnings(state))


def build_road(state: GameState, kingdom: str, a: str, b: str,
               options: Options = DEFAULTS) -> Purchase:
    """WOK-ROAD-1..3: check, pay and place a road; it works at once and belongs to nobody."""
    check_road(state, kingdom, a, b)
    cost = price(ROAD_ITEM, options)
    _check_affordable(state, kingdom, ROAD_ITEM, cost)
    state = state.with_road(a, b)
    state = state.with_stock(kingdom, state.stock(kingdom) - cost)
    return Purchase(state, ROAD_ITEM, f"{a}–{b}", cost, supply_warnings(state))


def supply_warnings(state: GameState) -> tuple[str, ...]:
    """WOK-COMP-3, WOK-AMB-17: warn (never block) when more fortifications or roads stand on the
    board than the box holds."""
    warnings = []
    for level, limit in SUPPLY.items():
        used = sum(1 for code in state.map.codes if state.fort(code) == level)
        if used > limit:
            warnings.append(f"{used} {FORTIFICATION_NAMES[level]} pieces are in play; the box "
                            f"holds {limit} (WOK-AMB-17).")
    if len(state.roads) > ROAD_SUPPLY:
        warnings.append(f"{len(state.roads)} roads are in play; the box holds {ROAD_SUPPLY} "
                        "(WOK-AMB-17).")
    return tuple(warnings)


@dataclass(frozen=True)
class BuildOption:
    """One thing a kingdom might build: where, the price, and why not if it is not allowed."""

    item: str
    where: str
    cost: Stock
    allowed: bool
    reason: str = ""


def available_builds(state: GameState, kingdom: str,
                     options: Options = DEFAULTS) -> tuple[BuildOption, ...]:
    """For every territory the kingdom controls, each settlement, fortification and army item
    that is the next step there, plus a road on every border between two of its territories
    that has none; each with its price and, if refused, the rule that refuses it."""
    found = []
    for code in state.controlled(kingdom):
        holding = state.holding(code)
        items = []
        if holding.level < CITY:
            items.append((VILLAGE_ITEM, TOWN_ITEM, CITY_ITEM)[holding.level])
        if holding.level and holding.fort < CASTLE:
            items.append((WALLS_ITEM, FORTRESS_ITEM, CASTLE_ITEM)[holding.fort])
        if holding.level >= TOWN:
            items.append(ARMY_ITEM)
        for item in items:
            try:
                cost = check_build(state, kingdom, item, code, options)
                found.append(BuildOption(item, code, cost, True))
            except RuleViolation as refusal:
                found.append(BuildOption(item, code, price(item, options), False, str(refusal)))
    mine = set(state.controlled(kingdom))
    for pair in sorted(state.map.borders, key=sorted):
        a, b = sorted(pair)
        if a in mine and b in mine and not state.has_road(a, b) and state.map.adjacent(a, b):
            cost = price(ROAD_ITEM, options)
            try:
                check_road(state, kingdom, a, b)
                _check_affordable(state, kingdom, ROAD_ITEM, cost)
                found.append(BuildOption(ROAD_ITEM, f"{a}–{b}", cost, True))
            except RuleViolation as refusal:
                found.append(BuildOption(ROAD_ITEM, f"{a}–{b}", cost, False, str(refusal)))
    return tuple(found)


def malador_build(state: GameState, code: str, item: str, options: Options = DEFAULTS) -> GameState:
    """A Marauder card that builds for the Malador (WOK-MAL-10, WOK-MAL-11, WOK-FORT-9): a
    village in a Malador territory with no settlement, walls or a fortress, never a castle; no
    town or city (v0.6 allows a town: WOK-V06-11). The Malador pay nothing (WOK-MAL-1)."""
    holding = state.holding(code)
    if holding.controller != MALADOR:
        raise RuleViolation(f"WOK-MAL-10: the Malador build only where they control; {code} is "
                            f"held by {who(holding.controller)}.")
    if item == VILLAGE_ITEM:
        if holding.level:
            raise RuleViolation(f"WOK-SET-2: {code} already holds a settlement.")
        return state.with_holding(code, replace(holding, level=VILLAGE, culture=MALADOR,
                                                settlement_round=state.round))
    if item == TOWN_ITEM:
        if not options.malador_towns:
            raise RuleViolation("WOK-MAL-10: the Malador never build towns or cities.")
        if holding.level != VILLAGE or holding.culture != MALADOR:
            raise RuleViolation(f"WOK-V06-11: the Malador may raise only their own village in "
                                f"{code} to a town.")
        return state.with_holding(code, replace(holding, level=TOWN, settlement_round=state.round))
    if item == CITY_ITEM:
        raise RuleViolation("WOK-MAL-10: the Malador never build cities.")
    if item in FORTIFICATION_ITEMS:
        target = FORTIFICATION_ITEMS[item]
        if target == CASTLE:
            raise RuleViolation("WOK-MAL-11: the Malador never build castles; a Malador "
                                "fortress goes no higher (WOK-FORT-9).")
        if not holding.level:
            raise RuleViolation(f"WOK-FORT-2: a fortification needs a settlement; {code} has "
                                "none.")
        if holding.fort != target - 1:
            raise RuleViolation(f"WOK-FORT-5: {code} has {FORTIFICATION_NAMES[holding.fort]}; "
                                f"a {FORTIFICATION_NAMES[target]} is not the next level.")
        return state.with_holding(code, replace(holding, fort=target, fort_round=state.round))
    raise RuleViolation(f"WOK-MAL-10: the Malador cannot build {item!r}.")

