"""War of Kings: vocabulary, the map definition, the stockpile and the game state.

The board's geometry is data (WOK-BOARD-5, WOK-AMB-30): a map lists its territories with their
emblem colour and resources and the borders between them. The state records, per territory, who
controls it and what stands there (WOK-TERR-1), plus the roads, the armies, the capitals and every
kingdom's stockpile (WOK-LEDGER-2). Nothing here is ever mutated; rules return new states.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property

Road = frozenset[str]


class RuleViolation(ValueError):
    """An action the rules forbid. The message says why in plain words and names the rule
    (e.g. "WOK-SET-5: ...")."""


# --- vocabulary ------------------------------------------------------------------------------

#: Territory emblem colours, which are also the faces of the Resource Dice (WOK-BOARD-4).
RED = "red"
YELLOW = "yellow"
GREEN = "green"
BLUE = "blue"
COLOURS = (RED, YELLOW, GREEN, BLUE)

GOLD = "gold"
TIMBER = "timber"
WHEAT = "wheat"
CATTLE = "cattle"
STONE = "stone"
RESOURCES = (TIMBER, WHEAT, CATTLE, STONE)

#: Settlement levels (``lvl(t)``).
NO_SETTLEMENT = 0
VILLAGE = 1
TOWN = 2
CITY = 3
SETTLEMENT_NAMES = {NO_SETTLEMENT: "no settlement", VILLAGE: "village", TOWN: "town", CITY: "city"}

#: Fortification levels (``fort(t)``, WOK-FORT-1).
NO_FORTIFICATION = 0
WALLS = 1
FORTRESS = 2
CASTLE = 3
FORTIFICATION_NAMES = {NO_FORTIFICATION: "no fortification", WALLS: "walls", FORTRESS: "fortress",
                       CASTLE: "castle"}

#: The neutral orange faction; never a player (WOK-SETUP-2, WOK-MAL-7).
MALADOR = "Malador"

SUMMER = "summer"
WINTER = "winter"

#: Territory kinds: playable, the summer mountains (WOK-BOARD-2), the winter centre (WOK-BOARD-3).
NORMAL = "normal"
IMPASSABLE = "impassable"
WINTER_CENTER = "winter_center"

# Phases and Construction sub-steps (WOK-TURN-1, WOK-TURN-2, WOK-TURN-3).
RECEIVE_GOLD = "receive_gold"
CHECK_SUPPORT = "check_support"
RESOURCE_GENERATION = "resource_generation"
CONSTRUCTION = "construction"
LEDGER_UPDATE = "ledger_update"
EVENT_DIE = "event_die"
MOVEMENT = "movement"
EXPLORATION = "exploration"
BATTLE_RESOLUTION = "battle_resolution"
SUPPLY = "supply"
END_OF_ROUND = "end_of_round"
CONSTRUCTION_STEPS = (RECEIVE_GOLD, CHECK_SUPPORT, RESOURCE_GENERATION, CONSTRUCTION,
                      LEDGER_UPDATE)
TURN_PHASES = (EVENT_DIE, MOVEMENT, EXPLORATION, BATTLE_RESOLUTION, SUPPLY)


#: WOK-COMP-1: what the v1.01 box holds (settlement pieces for all colours together).
COMPONENTS = {
    "villages": 30, "towns": 24, "cities": 12, "walls": 12, "fortresses": 6, "castles": 3,
    "battle_dice": 14, "resource_dice": 3, "event_dice": 1, "event_cards": 36,
    "marauder_cards": 16, "achievement_cards": 6, "armies": 66, "roads": 36,
    "damage_counters": 42, "territory_markers": 63, "gold_coins": 114, "resource_cards": 150,
    "reference_sheets": 6,
}


# --- the stockpile ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Stock:
    """An amount of gold and resources: a stockpile, a price, an income (WOK-LEDGER-2)."""

    gold: int = 0
    timber: int = 0
    wheat: int = 0
    cattle: int = 0
    stone: int = 0

    def __add__(self, other: Stock) -> Stock:
        return Stock(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def __sub__(self, other: Stock) -> Stock:
        return Stock(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))

    def times(self, n: int) -> Stock:
        return Stock(*(getattr(self, f.name) * n for f in fields(self)))

    def amount(self, name: str) -> int:
        if name not in (GOLD, *RESOURCES):
            raise KeyError(name)
        return int(getattr(self, name))

    def plus(self, name: str, n: int) -> Stock:
        """This stock with ``n`` more of one kind (gold or a resource)."""
        return replace(self, **{name: self.amount(name) + n})

    def covers(self, price: Stock) -> bool:
        return all(getattr(self, f.name) >= getattr(price, f.name) for f in fields(self))

    def shortfall(self, price: Stock) -> Stock:
        """What is missing to pay ``price`` (zero where there is enough)."""
        return Stock(*(max(0, getattr(price, f.name) - getattr(self, f.name))
                       for f in fields(self)))

    def is_empty(self) -> bool:
        return all(getattr(self, f.name) == 0 for f in fields(self))

    def describe(self) -> str:
        """``"6 gold, 4 timber, 1 stone"``; ``"nothing"`` when empty."""
        parts = [f"{getattr(self, f.name)} {f.name}" for f in fields(self)
                 if getattr(self, f.name)]
        return ", ".join(parts) if parts else "nothing"


# --- the map ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TerritoryDef:
    """One space of the board: its emblem colour and its primary and secondary resource
    (WOK-BOARD-4). The summer mountains and the winter centre have no emblem."""

    code: str
    color: str | None = None
    primary: str | None = None
    secondary: str | None = None
    kind: str = NORMAL
    name: str = ""

    @property
    def playable(self) -> bool:
        return self.kind == NORMAL


def border(a: str, b: str) -> Road:
    """The unordered pair of two territories: a border, or the road across it."""
    return frozenset((a, b))


@dataclass(frozen=True)
class MapDef:
    """A board side as data: territories and the borders between them (WOK-BOARD-5)."""

    territories: tuple[TerritoryDef, ...]
    borders: frozenset[Road]
    side: str = SUMMER
    _by_code: Mapping[str, TerritoryDef] = field(init=False, repr=False, compare=False)
    _neighbours: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _codes: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _order: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _center: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_code = {t.code: t for t in self.territories}
        if len(by_code) != len(self.territories):
            raise ValueError("Two territories share a code.")
        neighbours: dict[str, set[str]] = {code: set() for code in by_code}
        for pair in self.borders:
            ends = tuple(pair)
            if len(ends) != 2 or any(end not in by_code for end in ends):
                raise ValueError(f"Border {sorted(pair)} must join two known territories.")
            a, b = ends
            # WOK-BOARD-2: the summer mountains are never adjacent to anything.
            if by_code[a].kind == IMPASSABLE or by_code[b].kind == IMPASSABLE:
                continue
            neighbours[a].add(b)
            neighbours[b].add(a)
        object.__setattr__(self, "_by_code", by_code)
        object.__setattr__(self, "_codes", tuple(t.code for t in self.territories))
        object.__setattr__(self, "_order", {t.code: i for i, t in enumerate(self.territories)})
        object.__setattr__(self, "_center", next(
            (t.code for t in self.territories if t.kind == WINTER_CENTER), None))
        object.__setattr__(self, "_neighbours",
                           {code: frozenset(ns) for code, ns in neighbours.items()})

    def territory(self, code: str) -> TerritoryDef:
        try:
            return self._by_code[code]
        except KeyError:
            raise RuleViolation(f"There is no territory {code!r} on this board.") from None

    def __contains__(self, code: object) -> bool:
        return code in self._by_code

    def neighbours(self, code: str) -> frozenset[str]:
        self.territory(code)
        return self._neighbours[code]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    @property
    def winter_center(self) -> str | None:
        """The code of the winter centre (WOK-BOARD-3), if this board has one."""
        return self._center

    @property
    def codes(self) -> tuple[str, ...]:
        return self._codes

    def in_order(self, codes: Iterable[str]) -> tuple[str, ...]:
        """``codes`` in map order."""
        return tuple(sorted(codes, key=self._order.__getitem__))


def make_map(territories: Iterable[TerritoryDef], borders: Iterable[tuple[str, str]],
             side: str = SUMMER) -> MapDef:
    """A map from territories and ``(a, b)`` border pairs."""
    return MapDef(tuple(territories), frozenset(border(a, b) for a, b in borders), side)


# --- the state -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Holding:
    """What one territory holds (WOK-TERR-1): its controller, settlement level and culture,
    fortification level, and the round each last changed (for WOK-SET-5, WOK-FORT-5) and how many
    armies were raised there in which round (WOK-ARMY-2)."""

    controller: str | None = None
    level: int = NO_SETTLEMENT
    culture: str | None = None
    fort: int = NO_FORTIFICATION
    settlement_round: int | None = None
    fort_round: int | None = None
    raised_round: int | None = None
    raised: int = 0


EMPTY_HOLDING = Holding()


@dataclass(frozen=True)
class Army:
    """An army token (WOK-ARMY-1). ``culture`` is the shield colour (WOK-CULT-1); ``owner`` is who
    commands it now, which differs only after a forfeiture (WOK-AMB-20). ``came_from`` is the
    last territory it left on its latest move, where a withdrawing attacker goes back to
    (WOK-BATTLE-11)."""

    id: str
    owner: str
    territory: str
    damage: int = 0
    ready: bool = True
    raised_round: int | None = None
    culture: str = ""
    came_from: str | None = None

    def __post_init__(self) -> None:
        if not self.culture:
            object.__setattr__(self, "culture", self.owner)
        if not 0 <= self.damage <= 3:
            raise ValueError("An army carries 0 to 3 damage counters (WOK-ARMY-6).")


@dataclass(frozen=True)
class GameState:
    """Everything the rules read: the map, every territory's holding, the roads, the armies, the
    kingdoms in seating order (clockwise) with their fixed capitals (WOK-CAP-1), stockpiles, the
    round, the current phase or Construction step, the lead player and the active player."""

    map: MapDef
    holdings: Mapping[str, Holding]
    roads: frozenset[Road]
    capitals: Mapping[str, str]
    stockpiles: Mapping[str, Stock] = field(default_factory=dict)
    armies: tuple[Army, ...] = ()
    seats: tuple[str, ...] = ()
    round: int = 1
    phase: str = CONSTRUCTION
    lead: str | None = None
    active: str | None = None
    eliminated: frozenset[str] = frozenset()
    forfeited: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", tuple(self.capitals))

    # reading
    def holding(self, code: str) -> Holding:
        self.map.territory(code)
        return self.holdings.get(code, EMPTY_HOLDING)

    def ctrl(self, code: str) -> str | None:
        return self.holding(code).controller

    def lvl(self, code: str) -> int:
        return self.holding(code).level

    def fort(self, code: str) -> int:
        return self.holding(code).fort

    def capital(self, kingdom: str) -> str:
        try:
            return self.capitals[kingdom]
        except KeyError:
            raise RuleViolation(f"{kingdom} is not a kingdom of this game.") from None

    def controlled(self, kingdom: str) -> tuple[str, ...]:
        """Territories the kingdom controls, in map order."""
        return self._by_controller.get(kingdom, ())

    @cached_property
    def memo(self) -> dict[tuple[str, ...], object]:
        """Figures derived from this state, kept with it (a state never changes)."""
        return {}

    @cached_property
    def _by_controller(self) -> dict[str | None, tuple[str, ...]]:
        # Read once per state: states are never mutated, every change makes a new one.
        found: dict[str | None, list[str]] = {}
        for code in self.map.codes:
            holding = self.holdings.get(code)
            if holding is not None and holding.controller is not None:
                found.setdefault(holding.controller, []).append(code)
        return {k: tuple(v) for k, v in found.items()}

    def stock(self, kingdom: str) -> Stock:
        return self.stockpiles.get(kingdom, Stock())

    def has_road(self, a: str, b: str) -> bool:
        return border(a, b) in self.roads

    def army(self, army_id: str) -> Army:
        for army in self.armies:
            if army.id == army_id:
                return army
        raise RuleViolation(f"There is no army {army_id!r} on the board.")

    def armies_in(self, code: str, owner: str | None = None) -> tuple[Army, ...]:
        return tuple(a for a in self.armies
                     if a.territory == code and (owner is None or a.owner == owner))

    def armies_of(self, owner: str) -> tuple[Army, ...]:
        return tuple(a for a in self.armies if a.owner == owner)

    @cached_property
    def kingdoms(self) -> tuple[str, ...]:
        """Players still in the game (not eliminated, not forfeited), in seating order (read
        once per state: states are never mutated)."""
        return tuple(k for k in self.seats
                     if k not in self.eliminated and k not in self.forfeited)

    # writing (each returns a new state)
    def with_turn(self, **changes: object) -> GameState:
        """This board (the same map, holdings, roads, capitals and seats) with other
        stockpiles, armies, round, phase, lead or active player: who controls what is known
        from this state and not worked out again."""
        unknown = set(changes) - _TURN_FIELDS
        if unknown:
            raise ValueError(f"with_turn changes only {sorted(_TURN_FIELDS)}, not "
                             f"{sorted(unknown)}.")
        new = replace(self, **changes)  # type: ignore[arg-type]
        new.__dict__["_by_controller"] = self._by_controller
        return new

    def with_holding(self, code: str, holding: Holding) -> GameState:
        self.map.territory(code)
        holdings = dict(self.holdings)
        holdings[code] = holding
        return replace(self, holdings=holdings)

    def with_stock(self, kingdom: str, stock: Stock) -> GameState:
        stockpiles = dict(self.stockpiles)
        stockpiles[kingdom] = stock
        return replace(self, stockpiles=stockpiles)

    def with_army(self, army: Army) -> GameState:
        """Replace the army with the same id, or add it."""
        others = tuple(a for a in self.armies if a.id != army.id)
        if len(others) == len(self.armies):
            return replace(self, armies=(*self.armies, army))
        return replace(self, armies=tuple(army if a.id == army.id else a for a in self.armies))

    def without_army(self, army_id: str) -> GameState:
        self.army(army_id)
        return replace(self, armies=tuple(a for a in self.armies if a.id != army_id))

    def with_road(self, a: str, b: str) -> GameState:
        return replace(self, roads=self.roads | {border(a, b)})


#: What :meth:`GameState.with_turn` may change: nothing the board's control depends on.
_TURN_FIELDS = frozenset({"stockpiles", "armies", "round", "phase", "lead", "active"})


def make_state(game_map: MapDef, holdings: Mapping[str, Holding],
               roads: Iterable[tuple[str, str]], capitals: Mapping[str, str],
               **extra: object) -> GameState:
    """A state from plain data: ``roads`` as ``(a, b)`` pairs."""
    return GameState(map=game_map, holdings=dict(holdings),
                     roads=frozenset(border(a, b) for a, b in roads),
                     capitals=dict(capitals), **extra)  # type: ignore[arg-type]


def who(name: str | None) -> str:
    """A controller in words."""
    return "nobody" if name is None else name
