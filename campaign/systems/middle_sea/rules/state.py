"""The state of a game of Kingdoms of the Middle Sea as frozen dataclasses, its options, its JSON
form, and what is derived from it rather than stored: who controls each city, home and provincial
cities, the trade-route graph and the kingdom.

Every collection is a tuple kept in a canonical order, so two equal positions compare equal and
``GameState.from_dict(state.to_dict()) == state``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from campaign.rules.options import OptionSpec, parse_options

from .board import (
    CITY_VALUES,
    LEADER_VALUES,
    MAX_PIERS,
    SUITS,
    City,
    RuleViolation,
    adjacent,
    capital_space,
    city_spaces,
    continent_of,
    is_capital,
    is_coastal,
    split_space,
)

# --- options (MS-AMB-1, -2, -3, -5, -11) ----------------------------------------------------------

SCORE_TIE_SHARED = "shared"
SCORE_TIE_DOMINANCE = "dominance"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "reserve_counts_active", "Reserve leaders count as active for a trade victory", "bool",
        True, rule_id="MS-AMB-1",
        help="Off: a trade victory needs all five leaders besides the king in cities, active.",
    ),
    OptionSpec(
        "move_inactivates", "Moving makes a leader inactive", "bool", False, rule_id="MS-AMB-2",
        help="Off: only producing, attacking and putting down a rebellion turn a leader over.",
    ),
    OptionSpec(
        "port_anywhere_unlocks", "Any port opens attacks on other continents", "bool", True,
        rule_id="MS-AMB-3",
        help="Off: only a port in a home city lets a player attack other continents.",
    ),
    OptionSpec(
        "rebellion_hires", "Hires when putting down a rebellion", "bool", False,
        rule_id="MS-AMB-5",
        help="On: mercenaries (from a garrison) or zealots (from a temple) may help, 1 gold and "
        "1 goods each.",
    ),
    OptionSpec(
        "score_tiebreak", "Equal top calculated scores", "choice", SCORE_TIE_SHARED,
        rule_id="MS-AMB-11",
        choices=(
            (SCORE_TIE_SHARED, "The tied players share the win"),
            (SCORE_TIE_DOMINANCE, "The earlier dominance position wins"),
        ),
    ),
)


@dataclass(frozen=True)
class MSOptions:
    """The parsed options of a game (the MS-AMB defaults unless the group chose otherwise)."""

    reserve_counts_active: bool = True
    move_inactivates: bool = False
    port_anywhere_unlocks: bool = True
    rebellion_hires: bool = False
    score_tiebreak: str = SCORE_TIE_SHARED

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> MSOptions:
        """Validate stored options and fill in the defaults (refuses unknown keys)."""
        return cls(**parse_options(OPTIONS, data))

    def to_dict(self) -> dict[str, Any]:
        """The options as stored on the game."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


# --- phases and places ----------------------------------------------------------------------------

SETUP = "setup"
CONTROL = "control"
DOMINANCE = "dominance"
PRODUCTION = "production"
BUILD = "build"
LEADER = "leader"
#: MS-ROUND-1: the five phases of a round, in order.
PHASES = (CONTROL, DOMINANCE, PRODUCTION, BUILD, LEADER)
ENDED = "ended"

#: Where a leader may be besides a city's space: the Capital (the king) or the reserve.
IN_CAPITAL = "capital"
IN_RESERVE = "reserve"

GOLD = "gold"
GOODS = "goods"

# Why a game ended (section 20 of the digest).
CAPITAL_LOST = "capital_lost"
KING_LOST = "king_lost"
CIVIL_WAR = "civil_war"
TRADE = "trade"
CONQUEST = "conquest"
TIMED = "timed"

# Why cities rebel.
BY_CONTROL = "control"
BY_MISSIONARY = "missionary"


@dataclass(frozen=True)
class Leader:
    """One coin (MS-LEADER-1): its value, where it is (``"capital"``, ``"reserve"`` or a space)
    and which side is up. A leader in the reserve is kept active, since it enters play active
    (MS-LEADER-4, MS-AMB-1)."""

    value: int
    place: str = IN_RESERVE
    active: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "place": self.place, "active": self.active}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Leader:
        return cls(int(data["value"]), str(data["place"]), bool(data["active"]))

    @property
    def in_city(self) -> bool:
        return self.place not in (IN_CAPITAL, IN_RESERVE)


@dataclass(frozen=True)
class Player:
    """A seat and its kingdom's reserve: suit, continent, unrest die, resources and six leaders
    (MS-TERM-6). Players are listed in seat order, each the next to the left of the one before."""

    name: str
    suit: str
    continent: str
    unrest: int = 0
    goods: int = 4
    gold: int = 4
    leaders: tuple[Leader, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "suit": self.suit, "continent": self.continent,
            "unrest": self.unrest, "goods": self.goods, "gold": self.gold,
            "leaders": [leader.to_dict() for leader in self.leaders],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            name=str(data["name"]), suit=str(data["suit"]), continent=str(data["continent"]),
            unrest=int(data["unrest"]), goods=int(data["goods"]), gold=int(data["gold"]),
            leaders=tuple(Leader.from_dict(item) for item in data["leaders"]),
        )

    @property
    def capital(self) -> str:
        """MS-BOARD-2: the space of this player's Capital."""
        return capital_space(self.continent)

    @property
    def king(self) -> Leader:
        """MS-LEADER-3: the leader in the Capital."""
        for leader in self.leaders:
            if leader.place == IN_CAPITAL:
                return leader
        raise RuleViolation(f"{self.name} has no king in the Capital (MS-LEADER-3).")

    def leader(self, value: int) -> Leader:
        """The leader coin of this value (MS-LEADER-1)."""
        for leader in self.leaders:
            if leader.value == value:
                return leader
        raise RuleViolation(f"{self.name} has no {value}-leader (MS-LEADER-1).")

    def with_leader(self, new: Leader) -> Player:
        """This player with one leader replaced (by value)."""
        return replace(
            self, leaders=tuple(new if old.value == new.value else old for old in self.leaders)
        )


@dataclass(frozen=True)
class Site:
    """A city tile lying on a space of the board."""

    space: str
    city: City

    def to_dict(self) -> dict[str, Any]:
        return {"space": self.space, "suit": self.city.suit, "value": self.city.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Site:
        return cls(str(data["space"]), City(str(data["suit"]), int(data["value"])))


@dataclass(frozen=True)
class Road:
    """A road (one goods piece) of ``owner`` between two adjacent places of one continent
    (MS-BUILD-5); ``a`` sorts before ``b``."""

    owner: str
    a: str
    b: str

    @classmethod
    def between(cls, owner: str, one: str, other: str) -> Road:
        first, second = sorted((one, other))
        return cls(owner, first, second)

    def touches(self, name: str) -> bool:
        return name in (self.a, self.b)

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "a": self.a, "b": self.b}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Road:
        return cls.between(str(data["owner"]), str(data["a"]), str(data["b"]))


@dataclass(frozen=True)
class Port:
    """A port of ``owner`` at a coastal city, with 1 to 5 piers (MS-BUILD-7, MS-BUILD-8)."""

    owner: str
    space: str
    piers: int

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "space": self.space, "piers": self.piers}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Port:
        return cls(str(data["owner"]), str(data["space"]), int(data["piers"]))


@dataclass(frozen=True)
class Rebellion:
    """Cities of ``owner`` in rebellion and not yet put down (MS-REBEL-1..5)."""

    owner: str
    cities: tuple[str, ...]
    cause: str = BY_CONTROL

    def to_dict(self) -> dict[str, Any]:
        return {"owner": self.owner, "cities": list(self.cities), "cause": self.cause}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rebellion:
        return cls(str(data["owner"]), tuple(data["cities"]), str(data["cause"]))


@dataclass(frozen=True)
class Turn:
    """What the player whose turn it is has done so far in this phase: whether the control phase
    is settled (MS-CONTROL-3), whether the king was changed (MS-LEAD-2), the value of the last
    leader that acted and the number of actions (MS-LEAD-3), and the attacks made against each
    opponent as ``(opponent, kind)`` pairs (MS-ATK-4)."""

    control_settled: bool = False
    king_changed: bool = False
    last_leader: int = -1
    actions: int = 0
    attacks: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "control_settled": self.control_settled, "king_changed": self.king_changed,
            "last_leader": self.last_leader, "actions": self.actions,
            "attacks": [list(item) for item in self.attacks],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Turn:
        return cls(
            control_settled=bool(data["control_settled"]),
            king_changed=bool(data["king_changed"]),
            last_leader=int(data["last_leader"]), actions=int(data["actions"]),
            attacks=tuple((str(a), str(b)) for a, b in data["attacks"]),
        )


@dataclass(frozen=True)
class GameState:
    """A whole game at one moment.

    ``players`` are in seat order; ``order`` is the dominance order (MS-DOM-6) and ``turn`` the
    index in it of the player to act. ``stacks`` lists each suit's stack top first (MS-SETUP-4).
    ``rebellion`` holds cities in rebellion awaiting their owner (MS-AMB-20). Once ``ended``,
    ``end_reason``, ``losers`` and ``winners`` say how it finished (MS-WIN-1..6).
    """

    players: tuple[Player, ...]
    order: tuple[str, ...] = ()
    sites: tuple[Site, ...] = ()
    roads: tuple[Road, ...] = ()
    ports: tuple[Port, ...] = ()
    stacks: tuple[tuple[str, tuple[int, ...]], ...] = tuple((s, CITY_VALUES) for s in SUITS)
    round: int = 1
    phase: str = SETUP
    turn: int = 0
    current: Turn = field(default_factory=Turn)
    rebellion: Rebellion | None = None
    time_called: bool = False
    ended: bool = False
    end_reason: str = ""
    losers: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    options: MSOptions = field(default_factory=MSOptions)

    # -- JSON -------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (lists, dicts, strings, numbers, booleans, null)."""
        return {
            "players": [p.to_dict() for p in self.players],
            "order": list(self.order),
            "sites": [s.to_dict() for s in self.sites],
            "roads": [r.to_dict() for r in self.roads],
            "ports": [p.to_dict() for p in self.ports],
            "stacks": {suit: list(values) for suit, values in self.stacks},
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "current": self.current.to_dict(),
            "rebellion": None if self.rebellion is None else self.rebellion.to_dict(),
            "time_called": self.time_called,
            "ended": self.ended,
            "end_reason": self.end_reason,
            "losers": list(self.losers),
            "winners": list(self.winners),
            "options": self.options.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """The state written by ``to_dict``."""
        rebellion = data.get("rebellion")
        state = cls(
            players=tuple(Player.from_dict(p) for p in data["players"]),
            order=tuple(data["order"]),
            sites=tuple(Site.from_dict(s) for s in data["sites"]),
            roads=tuple(Road.from_dict(r) for r in data["roads"]),
            ports=tuple(Port.from_dict(p) for p in data["ports"]),
            stacks=tuple((suit, tuple(int(v) for v in data["stacks"][suit])) for suit in SUITS),
            round=int(data["round"]),
            phase=str(data["phase"]),
            turn=int(data["turn"]),
            current=Turn.from_dict(data["current"]),
            rebellion=None if rebellion is None else Rebellion.from_dict(rebellion),
            time_called=bool(data["time_called"]),
            ended=bool(data["ended"]),
            end_reason=str(data["end_reason"]),
            losers=tuple(data["losers"]),
            winners=tuple(data["winners"]),
            options=MSOptions.from_dict(data.get("options")),
        )
        return canonical(state)


def canonical(state: GameState) -> GameState:
    """The same state with sites, roads and ports in their canonical order (by space, owner)."""
    return replace(
        state,
        sites=tuple(sorted(state.sites, key=lambda s: s.space)),
        roads=tuple(sorted(set(state.roads), key=lambda r: (r.owner, r.a, r.b))),
        ports=tuple(sorted(state.ports, key=lambda p: (p.space, p.owner))),
    )


# --- looking things up ----------------------------------------------------------------------------


def get_player(state: GameState, name: str) -> Player:
    """The player called ``name``."""
    for p in state.players:
        if p.name == name:
            return p
    raise RuleViolation(f"There is no player called {name!r} in this game (MS-EQUIP-4).")


def with_player(state: GameState, new: Player) -> GameState:
    """The state with one player (by name) replaced."""
    return replace(
        state, players=tuple(new if old.name == new.name else old for old in state.players)
    )


def stack(state: GameState, suit: str) -> tuple[int, ...]:
    """MS-SETUP-4: a suit's stack, top first."""
    for name, values in state.stacks:
        if name == suit:
            return values
    raise RuleViolation(f"There is no suit called {suit!r} (MS-EQUIP-1).")


def with_stack(state: GameState, suit: str, values: Iterable[int]) -> GameState:
    """The state with one suit's stack replaced."""
    new = tuple(values)
    return replace(
        state, stacks=tuple((s, new if s == suit else v) for s, v in state.stacks)
    )


def city_at(state: GameState, name: str) -> City | None:
    """The city tile on a space, if any."""
    for site in state.sites:
        if site.space == name:
            return site.city
    return None


def require_city(state: GameState, name: str, rule: str = "MS-TERM-2") -> City:
    """The city on a space, or a refusal naming ``rule`` when the space holds none."""
    split_space(name)
    found = city_at(state, name)
    if found is None:
        raise RuleViolation(f"There is no city at {name} ({rule}).")
    return found


def leader_at(state: GameState, name: str) -> tuple[str, Leader] | None:
    """MS-TERM-1: the (owner, leader) governing the city on a space, if any."""
    for p in state.players:
        for leader in p.leaders:
            if leader.place == name:
                return p.name, leader
    return None


def port_at(state: GameState, name: str) -> Port | None:
    """The port at a city, if any."""
    for port in state.ports:
        if port.space == name:
            return port
    return None


def controllers(state: GameState, name: str) -> tuple[str, ...]:
    """MS-TERM-2, MS-AMB-12: every player whose leader governs the city, or whose road ends or
    port stands there (normally none or one: MS-AMB-25)."""
    if city_at(state, name) is None:
        return ()
    found = []
    governor = leader_at(state, name)
    if governor is not None:
        found.append(governor[0])
    found += [road.owner for road in state.roads if road.touches(name)]
    found += [port.owner for port in state.ports if port.space == name]
    return tuple(sorted(set(found)))


def controller(state: GameState, name: str) -> str | None:
    """MS-TERM-2, MS-AMB-25: the one player controlling a city, or None if uncontrolled."""
    found = controllers(state, name)
    if len(found) > 1:
        raise RuleViolation(
            f"The city at {name} is claimed by {' and '.join(found)}; only one player may "
            "control a city, and the game master must settle it (MS-AMB-25)."
        )
    return found[0] if found else None


def controlled_cities(state: GameState, name: str) -> tuple[str, ...]:
    """MS-CONTROL-2, MS-TERM-4: the spaces of the cities a player controls (never the Capital)."""
    return tuple(s.space for s in state.sites if controller(state, s.space) == name)


def home_cities(state: GameState, name: str) -> tuple[str, ...]:
    """MS-TERM-3: controlled cities on the player's own continent."""
    own = get_player(state, name).continent
    return tuple(c for c in controlled_cities(state, name) if continent_of(c) == own)


def provincial_cities(state: GameState, name: str) -> tuple[str, ...]:
    """MS-TERM-3: controlled cities on other players' continents."""
    own = get_player(state, name).continent
    return tuple(c for c in controlled_cities(state, name) if continent_of(c) != own)


def own_ports(state: GameState, name: str) -> tuple[Port, ...]:
    """The ports a player has built (MS-BUILD-7)."""
    return tuple(p for p in state.ports if p.owner == name)


def route_component(state: GameState, name: str, start: str) -> frozenset[str]:
    """MS-TERM-5, MS-MOVE-3: every place joined to ``start`` by the player's roads and ports
    (all ports of one kingdom are linked by sea). ``start`` itself is always included."""
    links: dict[str, set[str]] = {}
    for road in state.roads:
        if road.owner == name:
            links.setdefault(road.a, set()).add(road.b)
            links.setdefault(road.b, set()).add(road.a)
    harbours = {p.space for p in own_ports(state, name)}
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        nxt = set(links.get(here, ()))
        if here in harbours:
            nxt |= harbours
        for other in nxt - seen:
            seen.add(other)
            todo.append(other)
    return frozenset(seen)


def linked_to_capital(state: GameState, name: str, city: str) -> bool:
    """MS-PROD-4: whether a trade route joins the city to the player's Capital."""
    return city in route_component(state, name, get_player(state, name).capital)


def kingdom_holds_only_capital(state: GameState, name: str) -> bool:
    """MS-ATK-10: whether the Capital is all that is left of the kingdom."""
    return not controlled_cities(state, name)


def empty_city_spaces(state: GameState, continent: str) -> tuple[str, ...]:
    """MS-BUILD-2: spaces round a Capital with no city yet."""
    return tuple(s for s in city_spaces(continent) if city_at(state, s) is None)


def check_board(state: GameState) -> None:
    """Sanity of a state built by hand or loaded from data: one city per space and per
    (suit, value), legal leaders, roads between adjacent places, ports on coastal cities with
    1-5 piers, one controller per city (MS-CITY-1, MS-LEADER-1, MS-LEADER-5, MS-BUILD-5,
    MS-BUILD-7, MS-AMB-25)."""
    seen_spaces: set[str] = set()
    seen_cities: set[City] = set()
    for site in state.sites:
        if is_capital(site.space):
            raise RuleViolation(f"A Capital holds no city tile ({site.space}, MS-CITY-5).")
        if site.space in seen_spaces:
            raise RuleViolation(f"Two cities lie on {site.space} (MS-LEADER-5).")
        if site.city in seen_cities:
            raise RuleViolation(f"The {site.city.label} of {site.city.suit} is there twice "
                                "(MS-CITY-1).")
        seen_spaces.add(site.space)
        seen_cities.add(site.city)
    for suit, values in state.stacks:
        for value in values:
            if City(suit, value) in seen_cities:
                raise RuleViolation(f"The {value} of {suit} is both in its stack and on the "
                                    "board (MS-CITY-1).")
    places: dict[str, str] = {}
    for p in state.players:
        if sorted(leader.value for leader in p.leaders) != list(LEADER_VALUES):
            raise RuleViolation(f"{p.name} must have the six leaders 0 to 5 (MS-LEADER-1).")
        kings = [leader for leader in p.leaders if leader.place == IN_CAPITAL]
        if len(kings) != 1 or not kings[0].active:
            raise RuleViolation(f"{p.name} must have one active king (MS-LEADER-3).")
        for leader in p.leaders:
            if leader.in_city:
                if city_at(state, leader.place) is None:
                    raise RuleViolation(f"{p.name}'s {leader.value}-leader stands where there "
                                        "is no city (MS-TERM-1).")
                if leader.place in places:
                    raise RuleViolation(f"Two leaders stand at {leader.place} (MS-LEADER-5).")
                places[leader.place] = p.name
        if not 0 <= p.unrest <= 5:
            raise RuleViolation("Unrest runs from 0 to 5 (MS-UNREST-1).")
    for road in state.roads:
        if not adjacent(road.a, road.b):
            raise RuleViolation(f"A road joins only adjacent places ({road.a}, {road.b}; "
                                "MS-BUILD-5).")
    for port in state.ports:
        city = city_at(state, port.space)
        if city is None or not is_coastal(port.space):
            raise RuleViolation(f"Ports stand only at coastal cities ({port.space}, MS-CITY-4).")
        if not 1 <= port.piers <= MAX_PIERS:
            raise RuleViolation("A port has 1 to 5 piers (MS-BUILD-7).")
    for site in state.sites:
        controller(state, site.space)


# --- payments and turns ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """An amount of goods and gold paid to the bank (MS-RES-1, section 15)."""

    goods: int = 0
    gold: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.goods + other.goods, self.gold + other.gold)

    def times(self, count: int) -> Cost:
        return Cost(self.goods * count, self.gold * count)


def pay(state: GameState, name: str, cost: Cost, rule: str) -> GameState:
    """MS-RES-1: pay the bank from the player's reserve; refuses what the player cannot afford,
    naming the rule that charges it."""
    p = get_player(state, name)
    if cost.goods < 0 or cost.gold < 0:
        raise RuleViolation(f"A payment cannot be negative ({rule}).")
    if p.goods < cost.goods or p.gold < cost.gold:
        raise RuleViolation(
            f"{name} cannot pay {cost.goods} goods and {cost.gold} gold with {p.goods} goods and "
            f"{p.gold} gold in the reserve ({rule})."
        )
    return with_player(state, replace(p, goods=p.goods - cost.goods, gold=p.gold - cost.gold))


def receive(state: GameState, name: str, goods: int = 0, gold: int = 0) -> GameState:
    """MS-RES-1, MS-SETUP-6: income from the (unlimited) bank."""
    p = get_player(state, name)
    return with_player(state, replace(p, goods=p.goods + goods, gold=p.gold + gold))


def current_player(state: GameState) -> str:
    """MS-ROUND-2: the player whose turn it is, in dominance order."""
    if not state.order or not 0 <= state.turn < len(state.order):
        raise RuleViolation("Nobody is to play yet: first dominance is not settled (MS-SETUP-8).")
    return state.order[state.turn]


def require_live(state: GameState) -> None:
    """MS-WIN-1, MS-AMB-21: nothing more is played once the game has ended."""
    if state.ended:
        raise RuleViolation("The game is over; no more actions are played (MS-AMB-21).")


def require_turn(state: GameState, name: str, phase: str) -> Player:
    """MS-ROUND-2, MS-ATK-5: the player may act only in ``phase``, on their own turn, and not
    while a rebellion waits to be dealt with."""
    require_live(state)
    p = get_player(state, name)
    if state.phase != phase:
        raise RuleViolation(
            f"That belongs to the {phase} phase, but this is the {state.phase} phase "
            "(MS-ROUND-1)."
        )
    if current_player(state) != name:
        raise RuleViolation(
            f"It is {current_player(state)}'s turn, not {name}'s; players act in dominance "
            "order (MS-ROUND-2)."
        )
    if state.rebellion is not None:
        raise RuleViolation(
            f"{state.rebellion.owner} must first deal with the rebellion in progress "
            "(MS-ATK-5, MS-AMB-20)."
        )
    return p


def with_turn(state: GameState, **changes: Any) -> GameState:
    """The state with the current turn's record updated."""
    return replace(state, current=replace(state.current, **changes))


def rename_player(state: GameState, old: str, new: str) -> GameState:
    """The same game with a player's name changed everywhere it appears (seats, order, roads,
    ports, the rebellion, the attacks of the turn, losers and winners), e.g. after the kingdom
    was renamed; refuses a name another player has (MS-SETUP-1)."""
    if old == new:
        return state
    if any(p.name == new for p in state.players):
        raise RuleViolation(f"Another player is called {new!r} already (MS-SETUP-1).")
    get_player(state, old)

    def swap(name: str) -> str:
        return new if name == old else name

    rebellion = state.rebellion
    return canonical(replace(
        state,
        players=tuple(replace(p, name=swap(p.name)) for p in state.players),
        order=tuple(swap(n) for n in state.order),
        roads=tuple(replace(r, owner=swap(r.owner)) for r in state.roads),
        ports=tuple(replace(p, owner=swap(p.owner)) for p in state.ports),
        rebellion=None if rebellion is None else replace(rebellion, owner=swap(rebellion.owner)),
        current=replace(state.current,
                        attacks=tuple((swap(a), k) for a, k in state.current.attacks)),
        losers=tuple(swap(n) for n in state.losers),
        winners=tuple(swap(n) for n in state.winners),
    ))
