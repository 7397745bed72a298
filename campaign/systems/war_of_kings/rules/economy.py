"""War of Kings: the economic ledger, gold over the road network, income and the market.

The ledger is a pure function of the board (WOK-LEDGER-3, WOK-TURN-4), so it never needs a
separate update step. Gold generation explains itself: :func:`gold_report` says, for every
settlement, which territory and level it is, whether it is connected to the capital and, if not,
why not (WOK-ECON-4..8).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from campaign.systems.war_of_kings.rules.board import (
    COLOURS,
    EMPTY_HOLDING,
    GOLD,
    RESOURCES,
    SETTLEMENT_NAMES,
    WINTER_CENTER,
    GameState,
    RuleViolation,
    Stock,
    who,
)

#: Table 3 by settlement level (none, village, town, city): WOK-ECON-1, WOK-LEDGER-3.
GOLD_BY_LEVEL = (0, 3, 6, 9)
PRIMARY_BY_LEVEL = (1, 2, 3, 4)
SECONDARY_BY_LEVEL = (0, 0, 1, 2)

#: WOK-SETUP-7.
STARTING_STOCKPILE = Stock(gold=7, timber=5, wheat=7, cattle=7, stone=2)

#: WOK-MKT-1: one resource of any kind for 4 of a single other kind, or for 5 gold.
RESOURCES_PER_TRADE = 4
GOLD_PER_TRADE = 5


# --- the road network ------------------------------------------------------------------------

def road_linked(state: GameState, a: str, b: str) -> bool:
    """WOK-ECON-4, WOK-BOARD-3, WOK-AMB-23: a road token joins ``a`` and ``b``, or one of them is
    the winter centre and the other borders it."""
    if state.has_road(a, b):
        return True
    center = state.map.winter_center
    if center is not None and center in (a, b):
        other = b if a == center else a
        return state.map.adjacent(center, other)
    return False


def road_neighbours(state: GameState, code: str) -> tuple[str, ...]:
    """Territories one road step from ``code`` (WOK-ROAD-3: a road works as soon as it is
    placed), in map order (worked out once per state and territory)."""
    key = ("road_neighbours", code)
    found = state.memo.get(key)
    if found is None:
        # road_linked for a neighbour: a road token, or the winter centre on either end (the
        # centre borders whatever borders it).
        center, roads = state.map.winter_center, state.roads
        found = state.memo[key] = state.map.in_order(
            t for t in state.map.neighbours(code)
            if code == center or t == center or frozenset((code, t)) in roads)
    return found  # type: ignore[return-value]


def _passable_for(state: GameState, kingdom: str, code: str) -> bool:
    """WOK-ECON-4, WOK-AMB-22: a chain may pass only the kingdom's own territories and the winter
    centre."""
    return state.ctrl(code) == kingdom or state.map.territory(code).kind == WINTER_CENTER


def chain_paths(state: GameState, kingdom: str, start: str) -> dict[str, tuple[str, ...]]:
    """Every territory reachable from ``start`` over road links through the kingdom's own
    territories (and the winter centre), each with the shortest chain that reaches it
    (WOK-ECON-4, WOK-RESUPPLY-1). ``start`` itself must be the kingdom's."""
    if state.ctrl(start) != kingdom:
        return {}
    paths: dict[str, tuple[str, ...]] = {start: (start,)}
    queue = deque([start])
    holdings, game_map = state.holdings, state.map
    while queue:
        here = queue.popleft()
        for there in road_neighbours(state, here):
            # _passable_for, spelt out: this loop runs for every kingdom on every page.
            if there not in paths and (
                    holdings.get(there, EMPTY_HOLDING).controller == kingdom
                    or game_map.territory(there).kind == WINTER_CENTER):
                paths[there] = (*paths[here], there)
                queue.append(there)
    return paths


def gold_network(state: GameState, kingdom: str) -> frozenset[str]:
    """``Net(k)`` of WOK-ECON-4: what the capital reaches by road through the kingdom's own
    territories; empty while the capital is lost (WOK-ECON-7). The capital anchors the network
    even without a settlement (WOK-ECON-6)."""
    capital = state.capital(kingdom)
    if state.ctrl(capital) != kingdom:
        return frozenset()
    # The territories chain_paths reaches, without the chains: a plain search.
    reached = {capital}
    todo = [capital]
    holdings, game_map = state.holdings, state.map
    while todo:
        for there in road_neighbours(state, todo.pop()):
            if there not in reached and (
                    holdings.get(there, EMPTY_HOLDING).controller == kingdom
                    or game_map.territory(there).kind == WINTER_CENTER):
                reached.add(there)
                todo.append(there)
    return frozenset(reached)


def _blocked_paths(state: GameState, kingdom: str, start: str) -> dict[str, str]:
    """From ``start``, the road paths that cross the fewest territories the kingdom does not
    hold (a 0-1 breadth-first search): for each territory reached, the one before it."""
    best: dict[str, int] = {start: 0}
    came: dict[str, str] = {}
    queue: deque[str] = deque([start])
    while queue:
        here = queue.popleft()
        for there in road_neighbours(state, here):
            cost = best[here] + (0 if _passable_for(state, kingdom, there) else 1)
            if there not in best or cost < best[there]:
                best[there] = cost
                came[there] = here
                if cost == best[here]:
                    queue.appendleft(there)
                else:
                    queue.append(there)
    return came


def _path_back(came: dict[str, str], start: str, goal: str) -> tuple[str, ...] | None:
    """The path from ``goal`` back to ``start`` through ``came``, or None if never reached."""
    if goal != start and goal not in came:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return tuple(path)


@dataclass(frozen=True)
class GoldLine:
    """One settlement's part of a kingdom's gold: where it is, its level, what it pays and why.
    ``chain`` is the road chain to the capital when connected."""

    territory: str
    level: int
    gold: int
    connected: bool
    reason: str
    chain: tuple[str, ...] = ()

    @property
    def settlement(self) -> str:
        return SETTLEMENT_NAMES[self.level]


def _explain(state: GameState, kingdom: str, code: str, network: dict[str, tuple[str, ...]],
             capital: str, blocked: dict[str, str]) -> GoldLine:
    level = state.lvl(code)
    table = GOLD_BY_LEVEL[level]
    holder = state.ctrl(code)
    if holder != kingdom:
        return GoldLine(code, level, 0, False,
                        f"{code} is controlled by {who(holder)}, so its {SETTLEMENT_NAMES[level]} "
                        f"pays {kingdom} nothing (WOK-ECON-8).")
    if state.ctrl(capital) != kingdom:
        return GoldLine(code, level, 0, False,
                        f"The capital {capital} is held by {who(state.ctrl(capital))}, so "
                        f"{kingdom} generates no gold until it retakes it (WOK-ECON-7).")
    if code == capital:
        return GoldLine(code, level, table, True,
                        f"The capital's {SETTLEMENT_NAMES[level]} always pays {table} gold "
                        "(WOK-ECON-5).", (capital,))
    if code in network:
        chain = tuple(reversed(network[code]))
        return GoldLine(code, level, table, True,
                        f"{SETTLEMENT_NAMES[level].capitalize()} in {code} pays {table} gold: "
                        f"road chain {'–'.join(chain)} to the capital (WOK-ECON-4).", chain)
    path = _path_back(blocked, capital, code)
    if path is None:
        return GoldLine(code, level, 0, False,
                        f"No road chain joins {code} to the capital {capital} (WOK-ECON-8).")
    blockers = [t for t in path if not _passable_for(state, kingdom, t)]
    named = ", ".join(f"{t} (held by {who(state.ctrl(t))})" for t in blockers)
    return GoldLine(code, level, 0, False,
                    f"Every road chain from {code} to the capital crosses territory {kingdom} "
                    f"does not control: {named} (WOK-ECON-8).", path)


def gold_report(state: GameState, kingdom: str) -> tuple[GoldLine, ...]:
    """WOK-ECON-4..8, WOK-CAP-2: one line for every settlement the kingdom controls and for every
    settlement of its culture held by someone else, in map order."""
    capital = state.capital(kingdom)
    network = chain_paths(state, kingdom, capital)
    # One search from the capital explains every settlement cut off (WOK-ECON-8).
    blocked = _blocked_paths(state, kingdom, capital)
    lines = []
    for code in state.map.codes:
        holding = state.holding(code)
        if holding.level == 0:
            continue
        if holding.controller == kingdom or holding.culture == kingdom:
            lines.append(_explain(state, kingdom, code, network, capital, blocked))
    return tuple(lines)


def gold_generation(state: GameState, kingdom: str) -> int:
    """``GoldGeneration(k)`` of WOK-ECON-4: the gold of every connected controlled settlement;
    0 while the capital is lost (WOK-ECON-7, WOK-CAP-2). The same sum as the paying lines of
    :func:`gold_report`, without explaining the others."""
    key = ("gold", kingdom)
    if key not in state.memo:
        holdings = state.holdings
        state.memo[key] = sum(
            GOLD_BY_LEVEL[holding.level] for code in gold_network(state, kingdom)
            for holding in (holdings.get(code, EMPTY_HOLDING),)
            if holding.controller == kingdom)
    return int(state.memo[key])  # type: ignore[call-overload]


# --- the ledger and income -------------------------------------------------------------------

@dataclass(frozen=True)
class Ledger:
    """A kingdom's economic ledger (WOK-LEDGER-1): resources per Resource-Die colour, and the
    gold generated per round."""

    columns: tuple[tuple[str, Stock], ...]
    gold: int

    def column(self, color: str) -> Stock:
        for name, stock in self.columns:
            if name == color:
                return stock
        raise RuleViolation(f"{color!r} is not a Resource-Die colour (WOK-TERR-3).")

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``{colour: {resource: n}}`` without zero entries."""
        return {color: {r: stock.amount(r) for r in RESOURCES if stock.amount(r)}
                for color, stock in self.columns}


def territory_output(state: GameState, code: str) -> Stock:
    """Table 3 for one territory: the primary amount by level plus the secondary amount, both on
    its colour (WOK-ECON-1, WOK-BOARD-4). Culture plays no part (WOK-CULT-8)."""
    terr = state.map.territory(code)
    level = state.lvl(code)
    out = Stock()
    if terr.primary:
        out = out.plus(terr.primary, PRIMARY_BY_LEVEL[level])
    if terr.secondary and SECONDARY_BY_LEVEL[level]:
        out = out.plus(terr.secondary, SECONDARY_BY_LEVEL[level])
    return out


def ledger(state: GameState, kingdom: str) -> Ledger:
    """WOK-LEDGER-1..4: per colour, the output of every territory the kingdom controls; Malador
    and uncontrolled territories count for no one, nor does the winter centre."""
    columns = []
    for color in COLOURS:
        total = Stock()
        for code in state.controlled(kingdom):
            if state.map.territory(code).color == color:
                total = total + territory_output(state, code)
        columns.append((color, total))
    return Ledger(tuple(columns), gold_generation(state, kingdom))


def _check_dice(dice: Sequence[str], count: int) -> None:
    if len(dice) != count or any(d not in COLOURS for d in dice):
        raise RuleViolation(
            f"WOK-ECON-2: enter the colours of all {count} Resource Dice "
            f"(red, yellow, green or blue); got {', '.join(dice) or 'none'}.")


def income(state: GameState, kingdom: str, dice: Sequence[str]) -> Stock:
    """WOK-ECON-2: the ledger column of each of the three rolled colours; a repeated colour pays
    again."""
    _check_dice(dice, 3)
    book = ledger(state, kingdom)
    total = Stock()
    for color in dice:
        total = total + book.column(color)
    return total


def receive_gold(state: GameState) -> GameState:
    """WOK-TURN-2 step 1, WOK-ECON-9: every kingdom takes its gold generation from the market,
    computed from the board as it stands now."""
    for kingdom in state.kingdoms:
        state = state.with_stock(kingdom,
                                 state.stock(kingdom).plus(GOLD, gold_generation(state, kingdom)))
    return state


def collect_resources(state: GameState, dice: Sequence[str]) -> GameState:
    """WOK-TURN-2 step 3, WOK-ECON-2: every kingdom collects for the three Resource Dice. (The
    single Resource Die of the Event Die Phase never comes here: WOK-ECON-3.)"""
    _check_dice(dice, 3)
    for kingdom in state.kingdoms:
        state = state.with_stock(kingdom, state.stock(kingdom) + income(state, kingdom, dice))
    return state


# --- the market ------------------------------------------------------------------------------

def market_trade(stock: Stock, give: str, receive: str, lots: int = 1) -> Stock:
    """WOK-MKT-1, WOK-MKT-3, WOK-AMB-28: give 4 of one resource (or 5 gold) for 1 of another
    resource, ``lots`` times. The market never sells gold."""
    if lots < 1:
        raise RuleViolation("WOK-MKT-1: trade at least one lot.")
    if receive == GOLD:
        raise RuleViolation("WOK-MKT-1: the market never pays out gold for resources.")
    if receive not in RESOURCES:
        raise RuleViolation(f"WOK-MKT-1: {receive!r} is not a resource.")
    if give == receive:
        raise RuleViolation("WOK-MKT-1: trade for a different resource than the one you give.")
    if give == GOLD:
        rate = GOLD_PER_TRADE
    elif give in RESOURCES:
        rate = RESOURCES_PER_TRADE
    else:
        raise RuleViolation(f"WOK-MKT-1: {give!r} cannot be traded to the market.")
    needed = rate * lots
    if stock.amount(give) < needed:
        raise RuleViolation(f"WOK-MKT-1: {lots} {receive} costs {needed} {give}; you have "
                            f"{stock.amount(give)}.")
    return stock.plus(give, -needed).plus(receive, lots)


def transfer(state: GameState, giver: str, taker: str, amount: Stock) -> GameState:
    """WOK-MKT-2: a deal between players moves gold and resources as agreed; the rules record it
    but do not enforce promises."""
    if any(v < 0 for v in (amount.gold, amount.timber, amount.wheat, amount.cattle, amount.stone)):
        raise RuleViolation("WOK-MKT-2: a transfer moves positive amounts only.")
    if not state.stock(giver).covers(amount):
        raise RuleViolation(f"WOK-MKT-2: {giver} lacks "
                            f"{state.stock(giver).shortfall(amount).describe()}.")
    state = state.with_stock(giver, state.stock(giver) - amount)
    return state.with_stock(taker, state.stock(taker) + amount)

