"""Mighty Kingdoms: the winter economy.

Income (gathered at winter B and shown as a forecast all year), tithes, the build-and-recruit
purchases, feeding and the loss of leftovers. Every movement of gold or food is an ``IncomeLine``
that cites its rule and its source, so the ledger can book exactly what the forecast showed.

Pure functions over frozen dataclasses; illegal actions raise ``RuleViolation`` (from the campaign
rules) with a plain message citing the rule ID of the Mighty Kingdoms digest.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from campaign.systems.mighty_kingdoms.rules.campaign import (
    CAPITAL,
    CITY,
    DEFAULT_OPTIONS,
    EMPTY,
    FORTRESS,
    STARTING_ARMY_POINTS,
    VILLAGE,
    Army,
    Kingdom,
    KingdomId,
    MapView,
    MKOptions,
    RuleViolation,
    TileState,
    current_capital,
)

GOLD = "gold"
FOOD = "food"


@dataclass(frozen=True)
class Resources:
    """An amount of gold and food (MK-WINTER-2)."""

    gold: int = 0
    food: int = 0

    def __add__(self, other: Resources) -> Resources:
        return Resources(self.gold + other.gold, self.food + other.food)

    def __sub__(self, other: Resources) -> Resources:
        return Resources(self.gold - other.gold, self.food - other.food)

    def covers(self, cost: Resources) -> bool:
        """MK-BUY-3, MK-TITHE-6: enough of both resources to pay ``cost``."""
        return self.gold >= cost.gold and self.food >= cost.food

    def __str__(self) -> str:
        parts = [f"{self.gold} gold" if self.gold else "", f"{self.food} food" if self.food else ""]
        return " and ".join(p for p in parts if p) or "nothing"


@dataclass(frozen=True)
class IncomeLine:
    """One movement of one resource, as booked in the ledger (MK-WINTER-2, MK-TITHE-1, MK-BUY-3,
    MK-FEED-1, MK-WINTER-4): positive gains, negative spending.

    ``source`` says where it comes from in words, e.g. "city at 0305".
    """

    resource: str
    amount: int
    rule_id: str
    source: str


def _rule_key(rule_id: str) -> tuple[str, int]:
    match = re.fullmatch(r"(.*?)-(\d+)", rule_id)
    if not match:
        return (rule_id, 0)
    return (match.group(1), int(match.group(2)))


def totals(lines: Iterable[IncomeLine]) -> Resources:
    """MK-WINTER-2/6: the net gold and food of some ledger lines (resources move only by them)."""
    gold = food = 0
    for line in lines:
        if line.resource == GOLD:
            gold += line.amount
        elif line.resource == FOOD:
            food += line.amount
        else:
            raise ValueError(f"Unknown resource {line.resource!r}.")
    return Resources(gold, food)


def _lines(cost: Resources, sign: int, rule_id: str, source: str) -> tuple[IncomeLine, ...]:
    result = []
    if cost.gold:
        result.append(IncomeLine(GOLD, sign * cost.gold, rule_id, source))
    if cost.food:
        result.append(IncomeLine(FOOD, sign * cost.food, rule_id, source))
    return tuple(result)


# --- income (MK-WINTER-2/5, MK-AMB-2) ----------------------------------------------------------


@dataclass(frozen=True)
class Holdings:
    """What a kingdom controls, as income sees it.

    ``own_capital`` is the label of the kingdom's own Capital City if it holds it now (MK-AMB-8/36);
    ``captured_capitals`` are other kingdoms' capitals it holds (MK-WINTER-5).
    """

    kingdom: KingdomId
    tiles: tuple[TileState, ...]
    own_capital: str | None = None
    captured_capitals: frozenset[str] = frozenset()

    @classmethod
    def of(cls, kingdom: Kingdom, tiles: MapView, others: Iterable[Kingdom] = ()) -> Holdings:
        """Read a kingdom's holdings off the map; ``others`` tells captured capitals apart
        (MK-WINTER-5)."""
        owned = tiles.controlled_by(kingdom.id)
        labels = {t.label for t in owned}
        captured = frozenset(
            other.capital_tile
            for other in others
            if other.id != kingdom.id and other.capital_tile in labels
        )
        return cls(kingdom.id, owned, current_capital(kingdom, tiles), captured)


def winter_income(
    holdings: Holdings, options: MKOptions = DEFAULT_OPTIONS
) -> tuple[IncomeLine, ...]:
    """MK-WINTER-2, MK-WINTER-5, MK-AMB-2: a kingdom's winter income, itemised per tile.

    1 food per village; 1 gold per city (a captured enemy capital is a plain city for its holder);
    an own Capital City held gives 1 extra gold and, by default, 1 gold as a city too. Fortresses
    and empty tiles give nothing. The same lines are the forecast and the booking at Gather.
    Sorted by rule, then tile label.
    """
    keyed: list[tuple[tuple[str, int], str, str, IncomeLine]] = []

    def add(resource: str, rule_id: str, label: str, source: str) -> None:
        line = IncomeLine(resource, 1, rule_id, source)
        keyed.append((_rule_key(rule_id), label, resource, line))

    for tile in holdings.tiles:
        label = tile.label
        if tile.settlement == VILLAGE:
            add(FOOD, "MK-WINTER-2", label, f"village at {label}")
        elif tile.settlement == CITY:
            if label == holdings.own_capital:
                add(GOLD, "MK-WINTER-2", label, f"own capital at {label}")
                if options.own_capital_double_gold:
                    add(GOLD, "MK-AMB-2", label, f"own capital at {label}, as a city")
            elif label in holdings.captured_capitals:
                add(GOLD, "MK-WINTER-5", label, f"captured capital at {label}")
            else:
                add(GOLD, "MK-WINTER-2", label, f"city at {label}")
    keyed.sort(key=lambda item: item[:3])
    return tuple(item[3] for item in keyed)


def leftover_lines(stock: Resources) -> tuple[IncomeLine, ...]:
    """MK-WINTER-4: at the end of Spend all unspent gold and food are lost."""
    return _lines(stock, -1, "MK-WINTER-4", "unspent at the end of winter")


# --- the tithe / buy cycle (MK-TITHE-1/5, MK-BUY-1) --------------------------------------------


@dataclass(frozen=True)
class CycleAction:
    """One turn in the tithe or build-and-recruit cycle (MK-TITHE-1, MK-BUY-1): act or pass."""

    kingdom: KingdomId
    passed: bool


@dataclass(frozen=True)
class CycleState:
    """Where a tithe or buy cycle stands (MK-TITHE-5, MK-BUY-1): whose turn, and whether the
    sub-phase has closed."""

    turn: KingdomId | None
    closed: bool
    passes_in_row: int


def spend_cycle_state(
    player_order: Sequence[KingdomId], actions: Sequence[CycleAction]
) -> CycleState:
    """MK-TITHE-1/5, MK-BUY-1: turns go round the player order, one action or pass each.

    The sub-phase closes when every player has passed in succession; a player who passed earlier
    may act again on a later turn while it is open. Actions out of turn are refused.
    """
    count = len(player_order)
    if count == 0:
        return CycleState(None, True, 0)
    passes = 0
    for index, action in enumerate(actions):
        if passes >= count:
            raise RuleViolation("The sub-phase closed when every player passed (MK-TITHE-5).")
        expected = player_order[index % count]
        if action.kingdom != expected:
            raise RuleViolation(f"It was {expected}'s turn, not {action.kingdom}'s (MK-BUY-1).")
        passes = passes + 1 if action.passed else 0
    if passes >= count:
        return CycleState(None, True, passes)
    return CycleState(player_order[len(actions) % count], False, passes)


#: The rules of a turn in each spending cycle: whose turn it is, and when the cycle closes.
TURN_RULES: Mapping[str, tuple[str, str]] = {
    "tithe": ("MK-TITHE-1", "MK-TITHE-5"),
    "buy": ("MK-BUY-1", "MK-BUY-1"),
}


def validate_turn(state: CycleState, kingdom: KingdomId, cycle: str = "buy") -> None:
    """MK-TITHE-1/5 (``cycle`` "tithe"), MK-BUY-1 (``cycle`` "buy", a Wizard's quest included,
    MK-AMB-22): only the player whose turn it is may act, while the cycle is open. A refusal
    cites the rule of the cycle it happens in."""
    turn_rule, close_rule = TURN_RULES[cycle]
    if state.closed:
        raise RuleViolation(
            f"This sub-phase is over: every player passed in turn ({close_rule}).")
    if state.turn != kingdom:
        raise RuleViolation(f"It is {state.turn}'s turn ({turn_rule}).")


# --- tithes (MK-TITHE, MK-AMB-32) --------------------------------------------------------------


@dataclass(frozen=True)
class Tithe:
    """MK-TITHE-1: a gift of up to 1 gold and up to 1 food from one player to another."""

    giver: KingdomId
    receiver: KingdomId
    gold: int = 0
    food: int = 0

    @property
    def amount(self) -> Resources:
        return Resources(self.gold, self.food)


def validate_tithe(
    tithe: Tithe,
    stock: Resources,
    earlier: Iterable[Tithe],
    players: Collection[KingdomId],
) -> None:
    """MK-TITHE-1/3/6, MK-AMB-32: a gift to another player, at most 1 gold and 1 food, at least
    one of them, once per giver and receiver each winter, from what the giver has now."""
    if tithe.receiver == tithe.giver:
        raise RuleViolation("A tithe goes to another player (MK-TITHE-1).")
    if tithe.receiver not in players:
        raise RuleViolation(f"{tithe.receiver} is not a player in this campaign (MK-AMB-32).")
    if tithe.gold not in (0, 1) or tithe.food not in (0, 1):
        raise RuleViolation("A tithe is at most 1 gold and at most 1 food (MK-TITHE-1).")
    if not tithe.gold and not tithe.food:
        raise RuleViolation(
            "A tithe of nothing is a pass: give 1 gold, 1 food or both (MK-AMB-32)."
        )
    for gift in earlier:
        if gift.giver == tithe.giver and gift.receiver == tithe.receiver:
            raise RuleViolation(
                f"You already tithed to {tithe.receiver} this winter: once per player (MK-TITHE-3)."
            )
    if not stock.covers(tithe.amount):
        raise RuleViolation(
            f"You have {stock.gold} gold and {stock.food} food, and this tithe is "
            f"{tithe.amount}: you can only give what you have now (MK-TITHE-6)."
        )


def tithe_lines(tithe: Tithe) -> dict[KingdomId, tuple[IncomeLine, ...]]:
    """MK-TITHE-1/2: the ledger lines of a tithe, for the giver and the receiver."""
    return {
        tithe.giver: _lines(tithe.amount, -1, "MK-TITHE-1", f"tithe to {tithe.receiver}"),
        tithe.receiver: _lines(tithe.amount, 1, "MK-TITHE-1", f"tithe from {tithe.giver}"),
    }


# --- purchases (MK-BUY, MK-SETTLE, MK-SHIPYARD, MK-RECRUIT) ------------------------------------

SETTLE = "settle"
SHIP = "ship"
RECRUIT = "recruit"

#: MK-SETTLE-3: the only legal transitions and their costs.
SETTLEMENT_COSTS: Mapping[tuple[str, str], Resources] = {
    (EMPTY, VILLAGE): Resources(gold=1),
    (VILLAGE, CITY): Resources(gold=1, food=1),
    (VILLAGE, FORTRESS): Resources(gold=2),
    (CITY, CAPITAL): Resources(gold=1, food=1),
}
SHIP_COST = Resources(gold=1)  # MK-SHIPYARD-1
RECRUIT_COST = Resources(gold=1)  # MK-RECRUIT-2
ALLIED_PREREQUISITE = 3  # MK-RECRUIT-5


@dataclass(frozen=True)
class Purchase:
    """MK-BUY-2: one purchase.

    ``settle``: build or upgrade on ``tile`` to ``to_state`` (village, city, fortress, capital).
    ``ship``: a ship in the city ``tile``. ``recruit``: an army at the fortress ``tile``,
    ``disband`` naming the army number removed to make room (MK-RECRUIT-8), ``allied`` for an
    allied army (MK-RECRUIT-5).
    """

    kind: str
    tile: str
    to_state: str = ""
    disband: int | None = None
    allied: bool = False


@dataclass(frozen=True)
class KingdomWinter:
    """A kingdom during winter Spend: stock, armies, and what this winter has used up.

    ``docked`` are the cities holding a ship (docked at Recall or built this winter);
    ``used_fortresses`` have recruited; ``built_tiles`` had a settlement purchase (MK-AMB-19).
    ``last_number`` is the highest army number the kingdom has ever used, removed armies
    included: a new army never takes a number an earlier army (and its list) carried
    (MK-SETUP-6).
    """

    kingdom: Kingdom
    stock: Resources
    armies: tuple[Army, ...] = ()
    docked: frozenset[str] = frozenset()
    used_fortresses: frozenset[str] = frozenset()
    built_tiles: frozenset[str] = frozenset()
    last_number: int = 0


def purchase_cost(purchase: Purchase, tiles: MapView) -> Resources:
    """MK-SETTLE-3, MK-SHIPYARD-1, MK-RECRUIT-2: the price of a purchase (legal or not)."""
    if purchase.kind == SHIP:
        return SHIP_COST
    if purchase.kind == RECRUIT:
        return RECRUIT_COST
    if purchase.kind == SETTLE:
        current = tiles.tile(purchase.tile).settlement
        cost = SETTLEMENT_COSTS.get((current, purchase.to_state))
        if cost is None:
            raise RuleViolation(_transition_message(purchase.tile, current, purchase.to_state))
        return cost
    raise RuleViolation(
        f"{purchase.kind!r} is not a purchase: build, ship or recruit (MK-BUY-2)."
    )


def _transition_message(label: str, current: str, target: str) -> str:
    if target not in (VILLAGE, CITY, FORTRESS, CAPITAL):
        return f"{target!r} is not a settlement you can build (MK-SETTLE-3)."
    if current == EMPTY:
        return (
            f"{label} is empty: build a village first; cities, fortresses and capitals grow from "
            "villages and cities (MK-SETTLE-3)."
        )
    if current == VILLAGE:
        if target == VILLAGE:
            return (
                f"A village already stands on {label}: build a city or fortress instead "
                "(MK-SETTLE-3)."
            )
        return f"A village on {label} can become a city or a fortress, not a capital (MK-SETTLE-3)."
    if current == CITY:
        return (
            f"A city stands on {label}: it can only become a Capital City; settlements are not "
            "torn down in winter (MK-SETTLE-3, MK-SETTLE-5)."
        )
    return (
        f"A fortress stands on {label}: it cannot be upgraded or torn down in winter "
        "(MK-SETTLE-3, MK-SETTLE-5)."
    )


def _check_legal(
    state: KingdomWinter, tiles: MapView, purchase: Purchase, options: MKOptions
) -> str:
    """Raise if the purchase is illegal regardless of stock; return the rule ID it falls under."""
    kingdom = state.kingdom
    tile = tiles.tile(purchase.tile)
    label = tile.label
    if purchase.kind == SETTLE:
        if tile.controller != kingdom.id:
            raise RuleViolation(
                f"You do not control {label}: settlements go only in your own tiles (MK-SETTLE-1)."
            )
        purchase_cost(purchase, tiles)
        if purchase.to_state == CAPITAL:
            held = current_capital(kingdom, tiles)
            if held is not None:
                raise RuleViolation(
                    f"You still hold your Capital City at {held}: a new capital only once the old "
                    "one is razed or taken (MK-SETTLE-4)."
                )
        if not options.multiple_upgrades_per_tile and label in state.built_tiles:
            raise RuleViolation(
                f"{label} was already built on this winter: one purchase per tile per winter in "
                "this campaign (MK-AMB-19, house rule)."
            )
        return "MK-SETTLE-3"
    if purchase.kind == SHIP:
        if tile.controller != kingdom.id or tile.settlement != CITY:
            raise RuleViolation(
                f"{label} is not one of your cities: ships are built in your cities "
                "(MK-SHIPYARD-2)."
            )
        if not (tile.is_coastal or tile.has_river):
            raise RuleViolation(
                f"The city at {label} is neither on the coast nor on a river: no ship can be built "
                "there (MK-SHIPYARD-2)."
            )
        if label in state.docked:
            raise RuleViolation(
                f"A ship is already docked at {label}: build it in another coastal or river city "
                "(MK-SHIPYARD-2, MK-RECALL-5)."
            )
        return "MK-SHIPYARD-1"
    if purchase.kind == RECRUIT:
        if tile.controller != kingdom.id or tile.settlement != FORTRESS:
            raise RuleViolation(
                f"{label} is not one of your fortresses: armies are recruited at fortresses "
                "(MK-RECRUIT-1)."
            )
        if label in state.used_fortresses:
            raise RuleViolation(
                f"The fortress at {label} has already recruited this winter: 1 army each "
                "(MK-RECRUIT-1)."
            )
        numbers = [army.number for army in state.armies]
        at_cap = len(numbers) >= options.max_armies
        if purchase.disband is None and at_cap:
            raise RuleViolation(
                f"You already have {len(numbers)} armies, the most allowed: disband one to make "
                "room (MK-RECRUIT-7, MK-RECRUIT-8)."
            )
        remaining = list(state.armies)
        if purchase.disband is not None:
            if not at_cap:
                raise RuleViolation(
                    "You still have room for a new army: disbanding is only to make room at the "
                    "maximum (MK-RECRUIT-8)."
                )
            if purchase.disband not in numbers:
                raise RuleViolation(f"Army #{purchase.disband} is not one of yours (MK-RECRUIT-8).")
            remaining = [a for a in remaining if a.number != purchase.disband]
        if purchase.allied:
            if any(army.is_allied for army in remaining):
                raise RuleViolation("A kingdom may have only 1 allied army (MK-RECRUIT-5).")
            own = sum(1 for army in remaining if not army.is_allied)
            if own < ALLIED_PREREQUISITE:
                raise RuleViolation(
                    f"An allied army needs {ALLIED_PREREQUISITE} or more of your own armies "
                    f"first; you have {own} (MK-RECRUIT-5)."
                )
        return "MK-RECRUIT-2"
    raise RuleViolation(f"{purchase.kind!r} is not a purchase: build, ship or recruit (MK-BUY-2).")


def check_purchase(
    state: KingdomWinter, tiles: MapView, purchase: Purchase, options: MKOptions = DEFAULT_OPTIONS
) -> Resources:
    """MK-BUY-2/3, MK-SETTLE-1..6, MK-SHIPYARD-1..3, MK-RECRUIT-1/2/5/7/8, MK-AMB-8/19: refuse an
    illegal or unaffordable purchase with the reason; return its cost otherwise."""
    _check_legal(state, tiles, purchase, options)
    cost = purchase_cost(purchase, tiles)
    if not state.stock.covers(cost):
        raise RuleViolation(f"This costs {cost}; you have {state.stock} (MK-BUY-3).")
    return cost


@dataclass(frozen=True)
class PurchaseOutcome:
    """The result of a purchase (MK-BUY-2/3): the kingdom and map afterwards, the ledger lines,
    and for a recruit the new army (its ``id`` is None until the services store it)."""

    state: KingdomWinter
    tiles: MapView
    lines: tuple[IncomeLine, ...]
    new_army: Army | None = None
    disbanded: int | None = None


def apply_purchase(
    state: KingdomWinter, tiles: MapView, purchase: Purchase, options: MKOptions = DEFAULT_OPTIONS
) -> PurchaseOutcome:
    """MK-BUY-3, MK-SETTLE-2..4, MK-SHIPYARD-2, MK-RECRUIT-2/3/8: check a purchase, pay it in full
    and return what changes."""
    cost = check_purchase(state, tiles, purchase, options)
    stock = state.stock - cost
    label = purchase.tile
    if purchase.kind == SETTLE:
        if purchase.to_state == CAPITAL:
            kingdom = replace(state.kingdom, capital_tile=label)
            new_state = replace(state, kingdom=kingdom, stock=stock)
            new_tiles = tiles
            source = f"Capital City at {label}"
        else:
            new_state = replace(state, stock=stock)
            new_tiles = tiles.with_tile(label, settlement=purchase.to_state)
            source = f"{purchase.to_state} at {label}"
        new_state = replace(new_state, built_tiles=new_state.built_tiles | {label})
        return PurchaseOutcome(new_state, new_tiles, _lines(cost, -1, "MK-SETTLE-3", source))
    if purchase.kind == SHIP:
        new_state = replace(state, stock=stock, docked=state.docked | {label})
        return PurchaseOutcome(
            new_state, tiles, _lines(cost, -1, "MK-SHIPYARD-1", f"ship at {label}")
        )
    remaining = tuple(a for a in state.armies if a.number != purchase.disband)
    number = max(max((a.number for a in state.armies), default=0), state.last_number) + 1
    army = Army(
        None,
        state.kingdom.id,
        number,
        label,
        points=STARTING_ARMY_POINTS,
        is_allied=purchase.allied,
    )
    new_state = replace(
        state,
        stock=stock,
        armies=remaining + (army,),
        used_fortresses=state.used_fortresses | {label},
    )
    return PurchaseOutcome(
        new_state,
        tiles,
        _lines(cost, -1, "MK-RECRUIT-2", f"army #{number} at {label}"),
        new_army=army,
        disbanded=purchase.disband,
    )


@dataclass(frozen=True)
class PurchaseOption:
    """One legal purchase for the "what can I afford" list (MK-BUY-2/3)."""

    purchase: Purchase
    cost: Resources
    affordable: bool
    rule_id: str
    needs_disband: bool = False


def _first_legal(
    state: KingdomWinter, tiles: MapView, probes: Iterable[Purchase], options: MKOptions
) -> str | None:
    for probe in probes:
        try:
            return _check_legal(state, tiles, probe, options)
        except RuleViolation:
            continue
    return None


def affordable_purchases(
    state: KingdomWinter, tiles: MapView, options: MKOptions = DEFAULT_OPTIONS
) -> tuple[PurchaseOption, ...]:
    """MK-BUY-2/3, MK-SETTLE-3/4, MK-SHIPYARD-2, MK-RECRUIT-1/5/8: every legal purchase with its
    cost and whether the stock covers it now. Recruits at the army maximum are listed with
    ``needs_disband`` (the player then names the army to disband)."""
    candidates: list[Purchase] = []
    owned = tiles.controlled_by(state.kingdom.id)
    for tile in owned:
        for (current, target) in SETTLEMENT_COSTS:
            if tile.settlement == current:
                candidates.append(Purchase(SETTLE, tile.label, target))
    for tile in owned:
        if tile.settlement == CITY:
            candidates.append(Purchase(SHIP, tile.label))
    at_cap = len(state.armies) >= options.max_armies
    for tile in owned:
        if tile.settlement == FORTRESS:
            candidates.append(Purchase(RECRUIT, tile.label))
            candidates.append(Purchase(RECRUIT, tile.label, allied=True))
    result = []
    for candidate in candidates:
        probes = [candidate]
        if candidate.kind == RECRUIT and at_cap:
            probes = [replace(candidate, disband=army.number) for army in state.armies]
        rule_id = _first_legal(state, tiles, probes, options)
        if rule_id is None:
            continue
        cost = purchase_cost(candidate, tiles)
        result.append(
            PurchaseOption(
                candidate,
                cost,
                state.stock.covers(cost),
                rule_id,
                needs_disband=candidate.kind == RECRUIT and at_cap,
            )
        )
    return tuple(result)


# --- feeding (MK-FEED, MK-WINTER-3/4, MK-AMB-33) -----------------------------------------------


def food_needed(army_count: int) -> int:
    """MK-FEED-1, MK-WINTER-3: every army, new ones included, eats 1 food; ships eat nothing."""
    return army_count


def armies_to_remove(army_count: int, food: int) -> int:
    """MK-WINTER-3, MK-FEED-1: armies that must go for lack of food, ``max(0, armies - food)``."""
    return max(0, army_count - food)


@dataclass(frozen=True)
class FeedingOutcome:
    """MK-FEED-1..3: which armies (by number) are fed and which are removed, and the food lines."""

    fed: tuple[int, ...]
    unfed: tuple[int, ...]
    food_left: int
    lines: tuple[IncomeLine, ...]


def feed_armies(
    armies: Sequence[Army], food: int, fed: Collection[int], options: MKOptions = DEFAULT_OPTIONS
) -> FeedingOutcome:
    """MK-FEED-1/2, MK-WINTER-3, MK-AMB-33: feed the chosen armies (by number), 1 food each; the
    others are removed. By default the owner may leave armies unfed on purpose."""
    numbers = [army.number for army in armies]
    chosen = sorted(set(fed))
    strangers = [n for n in chosen if n not in numbers]
    if strangers:
        raise RuleViolation(f"Army #{strangers[0]} is not one of yours (MK-FEED-1).")
    if len(chosen) > food:
        raise RuleViolation(
            f"You have {food} food: you can feed at most {food} "
            f"{'army' if food == 1 else 'armies'} (MK-FEED-1)."
        )
    can_feed = min(len(numbers), food)
    if not options.voluntary_unfed and len(chosen) < can_feed:
        raise RuleViolation(
            f"You have food for {can_feed} armies: feed that many (MK-AMB-33, house rule)."
        )
    lines = tuple(IncomeLine(FOOD, -1, "MK-FEED-1", f"army #{n} fed") for n in chosen)
    unfed = tuple(n for n in sorted(numbers) if n not in chosen)
    return FeedingOutcome(tuple(chosen), unfed, food - len(chosen), lines)
