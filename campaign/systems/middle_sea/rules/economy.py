"""Production and the build phase: the Capital's income, markets and mines, exploring, roads,
ports and exchange, with every cost of the game (MS-PROD, MS-BUILD, MS-RES, section 15)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .board import (
    MARKET,
    MAX_PIERS,
    MINE,
    City,
    RuleViolation,
    adjacent,
    city_spaces,
    continent_of,
    is_capital,
    is_coastal,
)
from .state import (
    BUILD,
    GOLD,
    GOODS,
    Cost,
    GameState,
    Port,
    Road,
    Site,
    canonical,
    city_at,
    controller,
    empty_city_spaces,
    get_player,
    leader_at,
    linked_to_capital,
    pay,
    port_at,
    receive,
    require_city,
    require_turn,
    stack,
    with_player,
    with_stack,
)

# --- costs (section 15) ---------------------------------------------------------------------------


def explore_cost() -> Cost:
    """MS-BUILD-2: exploring costs 1 goods + 1 gold."""
    return Cost(goods=1, gold=1)


def road_cost(city_value: int) -> Cost:
    """MS-BUILD-5, MS-CITY-3: a road to a city of value X costs X goods + X gold."""
    return Cost(goods=city_value, gold=city_value)


def pier_cost(piers: int) -> Cost:
    """MS-BUILD-7, MS-AMB-17c: 1 goods + 1 gold per pier."""
    return Cost(goods=piers, gold=piers)


def king_change_cost(old: int, new: int) -> Cost:
    """MS-LEAD-2: |old - new| goods and the same in gold."""
    diff = abs(old - new)
    return Cost(goods=diff, gold=diff)


def hire_cost(hires: int) -> Cost:
    """MS-ATK-7, MS-RES-4: each mercenary or zealot costs 1 gold + 1 goods."""
    return Cost(goods=hires, gold=hires)


def exchange_cost(give: str, received: int) -> tuple[Cost, Cost]:
    """MS-BUILD-9: 2 of one resource buy 1 of the other; (paid, received)."""
    if received < 1:
        raise RuleViolation("An exchange buys at least 1 (MS-BUILD-9).")
    if give == GOODS:
        return Cost(goods=2 * received), Cost(gold=received)
    if give == GOLD:
        return Cost(gold=2 * received), Cost(goods=received)
    raise RuleViolation(f"Only goods and gold are exchanged, not {give!r} (MS-RES-1).")


# --- production (MS-PROD) -------------------------------------------------------------------------


@dataclass(frozen=True)
class ProductionLine:
    """One market or mine of the kingdom and what it yields (MS-PROD-2..4). ``leader`` is the
    governing leader's value (None if ungoverned)."""

    space: str
    city: str
    leader: int | None
    active: bool
    linked: bool
    goods: int
    gold: int

    @property
    def produces(self) -> bool:
        return bool(self.goods or self.gold)


@dataclass(frozen=True)
class ProductionReport:
    """MS-PROD-1..6: the Capital's income, each market and mine, the totals, and the leaders
    that turn inactive."""

    name: str
    capital_goods: int
    capital_gold: int
    lines: tuple[ProductionLine, ...]
    goods: int
    gold: int
    inactivated: tuple[int, ...]


def production_report(state: GameState, name: str) -> ProductionReport:
    """MS-PROD-1..6, MS-AMB-8: the Capital yields king value in goods and in gold; a market
    (goods) or mine (gold) yields city value + leader value when governed by the player's active
    leader and linked to the Capital by a trade route; garrisons and temples yield nothing."""
    p = get_player(state, name)
    king = p.king.value
    lines = []
    for leader in sorted(p.leaders, key=lambda item: item.value):
        if not leader.in_city:
            continue
        city = city_at(state, leader.place)
        if city is None or city.kind not in (MARKET, MINE):
            continue
        linked = linked_to_capital(state, name, leader.place)
        amount = city.value + leader.value if (leader.active and linked) else 0
        lines.append(ProductionLine(
            space=leader.place, city=city.label, leader=leader.value, active=leader.active,
            linked=linked,
            goods=amount if city.kind == MARKET else 0,
            gold=amount if city.kind == MINE else 0,
        ))
    for s in sorted(site.space for site in state.sites):
        city = city_at(state, s)
        if (city is not None and city.kind in (MARKET, MINE) and leader_at(state, s) is None
                and controller(state, s) == name):
            lines.append(ProductionLine(s, city.label, None, False,
                                        linked_to_capital(state, name, s), 0, 0))
    return ProductionReport(
        name=name,
        capital_goods=king,
        capital_gold=king,
        lines=tuple(lines),
        goods=king + sum(line.goods for line in lines),
        gold=king + sum(line.gold for line in lines),
        inactivated=tuple(line.leader for line in lines
                          if line.produces and line.leader is not None),
    )


def apply_production(state: GameState, name: str) -> tuple[GameState, ProductionReport]:
    """MS-PROD-1..4, MS-RES-3: book the income and turn the producing leaders inactive (the king
    stays active)."""
    report = production_report(state, name)
    state = receive(state, name, goods=report.goods, gold=report.gold)
    p = get_player(state, name)
    leaders = tuple(replace(leader, active=False) if leader.value in report.inactivated
                    and leader.in_city else leader for leader in p.leaders)
    return with_player(state, replace(p, leaders=leaders)), report


# --- build phase (MS-BUILD) -----------------------------------------------------------------------


def explore_places(state: GameState, name: str) -> tuple[str, ...]:
    """MS-BUILD-2, MS-BUILD-3, MS-AMB-13: where an explored city may go on the player's own
    continent: any empty space, or once all five spaces hold cities, a city with no leader on
    it (ungoverned or uncontrolled), whoever's road reaches it."""
    continent = get_player(state, name).continent
    empty = empty_city_spaces(state, continent)
    if empty:
        return empty
    return tuple(s for s in city_spaces(continent) if leader_at(state, s) is None)


def explore(state: GameState, name: str, suit: str, place: str | None = None) -> GameState:
    """MS-BUILD-2..4, MS-AMB-13, MS-AMB-16, MS-AMB-22: pay 1 goods + 1 gold and take the top
    city of one suit's stack; put it on ``place`` (a legal explore place, see ``explore_places``)
    or, with no place, at the bottom of the same stack. A replaced city goes to the bottom of its
    own suit's stack and every road and port touching it goes to the bank, with no unrest
    change. A new city starts uncontrolled."""
    require_turn(state, name, BUILD)
    pile = stack(state, suit)
    if not pile:
        raise RuleViolation(f"The {suit} stack is empty; explore another stack (MS-AMB-22).")
    if place is not None and place not in explore_places(state, name):
        own = get_player(state, name).continent
        if continent_of(place) != own or is_capital(place):
            raise RuleViolation(
                f"Only spaces round {name}'s own Capital can take a new city (MS-BUILD-3)."
            )
        raise RuleViolation(
            f"{place} cannot take the new city: a city is replaced only when all five spaces "
            "are full, and only if no leader stands on it (MS-BUILD-3, MS-AMB-13)."
        )
    state = pay(state, name, explore_cost(), "MS-BUILD-2")
    top, rest = pile[0], pile[1:]
    if place is None:
        return with_stack(state, suit, (*rest, top))
    state = with_stack(state, suit, rest)
    old = city_at(state, place)
    if old is not None:
        state = with_stack(state, old.suit, (*stack(state, old.suit), old.value))
        state = replace(
            state,
            sites=tuple(s for s in state.sites if s.space != place),
            roads=tuple(r for r in state.roads if not r.touches(place)),
            ports=tuple(p for p in state.ports if p.space != place),
        )
    return canonical(replace(state, sites=(*state.sites, Site(place, City(suit, top)))))


def road_targets(state: GameState, name: str) -> tuple[tuple[str, str], ...]:
    """MS-BUILD-5: every (from, to) road the player could build now, ignoring cost: from the
    Capital or a controlled city to an adjacent city that no opponent controls, each pair of
    places once and none that a road already joins."""
    p = get_player(state, name)
    starts = [p.capital] + [s.space for s in state.sites if controller(state, s.space) == name]
    found = []
    seen = set(state.roads)
    for start in starts:
        for site in state.sites:
            end = site.space
            if not adjacent(start, end) or controller(state, end) not in (None, name):
                continue
            road = Road.between(name, start, end)
            if road in seen:
                continue
            seen.add(road)
            found.append((start, end))
    return tuple(found)


def build_road(state: GameState, name: str, start: str, end: str) -> GameState:
    """MS-BUILD-5, MS-BUILD-6, MS-UNREST-2 (a): a road from the player's Capital or a controlled
    city to an adjacent city no opponent controls, for X goods + X gold (X = the connected
    city's value). Connecting a city nobody controlled lowers unrest by 1 (not below 0)."""
    p = require_turn(state, name, BUILD)
    target = require_city(state, end, "MS-BUILD-5")
    if start != p.capital:
        if is_capital(start):
            raise RuleViolation(f"Roads start at {name}'s own Capital or cities (MS-BUILD-5).")
        require_city(state, start, "MS-BUILD-5")
        if controller(state, start) != name:
            raise RuleViolation(f"{name} does not control the city at {start} (MS-BUILD-5).")
    if not adjacent(start, end):
        raise RuleViolation(
            f"{start} and {end} are not adjacent; roads join neighbouring places of one "
            "continent (MS-BUILD-5, MS-BOARD-5)."
        )
    owner = controller(state, end)
    if owner not in (None, name):
        raise RuleViolation(f"{owner} controls the {target.label} at {end} (MS-BUILD-5).")
    road = Road.between(name, start, end)
    if road in state.roads:
        raise RuleViolation("That road is already built (MS-BUILD-5).")
    state = pay(state, name, road_cost(target.value), "MS-BUILD-5")
    state = canonical(replace(state, roads=(*state.roads, road)))
    if owner is None:
        p = get_player(state, name)
        state = with_player(state, replace(p, unrest=max(0, p.unrest - 1)))
    return state


def build_port(state: GameState, name: str, place: str, piers: int) -> GameState:
    """MS-BUILD-7, MS-BUILD-8, MS-CITY-4, MS-AMB-18: build or enlarge one port at a coastal city
    the player controls, 1 goods + 1 gold per pier, never beyond 5 piers."""
    require_turn(state, name, BUILD)
    city = require_city(state, place, "MS-BUILD-7")
    if not is_coastal(place):
        raise RuleViolation(f"The {city.label} at {place} is inland; ports need a coastal city "
                            "(MS-CITY-4).")
    if controller(state, place) != name:
        raise RuleViolation(f"{name} does not control the {city.label} at {place} (MS-BUILD-7).")
    if piers < 1:
        raise RuleViolation("A port action adds at least one pier (MS-BUILD-7).")
    existing = port_at(state, place)
    have = existing.piers if existing is not None else 0
    if have + piers > MAX_PIERS:
        raise RuleViolation(
            f"A port has at most 5 piers; this one has {have} (MS-BUILD-7, MS-AMB-18)."
        )
    state = pay(state, name, pier_cost(piers), "MS-BUILD-7")
    ports = tuple(pt for pt in state.ports if pt.space != place)
    return canonical(replace(state, ports=(*ports, Port(name, place, have + piers))))


def exchange(state: GameState, name: str, give: str, received: int) -> GameState:
    """MS-BUILD-9: trade 2 of one resource for 1 of the other with the bank, ``received`` times."""
    require_turn(state, name, BUILD)
    paid, got = exchange_cost(give, received)
    state = pay(state, name, paid, "MS-BUILD-9")
    return receive(state, name, goods=got.goods, gold=got.gold)
