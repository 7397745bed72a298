"""The table of Kingdoms of the Middle Sea: suits, city kinds, continents, spaces and adjacency.

Spaces are plain strings such as ``"N-FL"`` (continent, then position) so that a state serialises
to JSON without help. Each continent has a near row ``NL CAP NR`` (the Capital in the middle) and a
far row ``FL FM FR`` on the Middle Sea. Nothing here knows about players: see ``state.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


class RuleViolation(ValueError):
    """An illegal action or input; the message says why in plain words and names the rule ID
    (e.g. "... (MS-BUILD-5)")."""


# --- suits and cities (MS-EQUIP-1, MS-CITY-1..5) --------------------------------------------------

SUNS = "suns"
MOONS = "moons"
CROWNS = "crowns"
ARMS = "arms"
SUITS = (SUNS, MOONS, CROWNS, ARMS)

GARRISON = "garrison"
MARKET = "market"
TEMPLE = "temple"
MINE = "mine"
#: MS-CITY-2: the kind of city each suit's tiles stand for.
KIND_BY_SUIT = {ARMS: GARRISON, SUNS: MARKET, MOONS: TEMPLE, CROWNS: MINE}
SUIT_BY_KIND = {kind: suit for suit, kind in KIND_BY_SUIT.items()}

#: MS-EQUIP-1: null counts 0 and ace counts 1; the null tile is a Capital, never a city.
CITY_VALUES = (1, 2, 3, 4, 5)
LEADER_VALUES = (0, 1, 2, 3, 4, 5)
#: MS-CITY-5: a Capital always defends with 10.
CAPITAL_DEFENSE = 10
#: MS-BUILD-7: a port holds one to five piers.
MAX_PIERS = 5


@dataclass(frozen=True)
class City:
    """One city tile (MS-CITY-1): a suit and a value 1-5; exactly one exists per pair."""

    suit: str
    value: int

    def __post_init__(self) -> None:
        if self.suit not in SUITS:
            raise RuleViolation(f"There is no suit called {self.suit!r} (MS-EQUIP-1).")
        if self.value not in CITY_VALUES:
            raise RuleViolation(f"Cities are valued 1 to 5, not {self.value} (MS-CITY-1).")

    @property
    def kind(self) -> str:
        """MS-CITY-2: garrison, market, temple or mine."""
        return KIND_BY_SUIT[self.suit]

    @property
    def label(self) -> str:
        """How players name it: "3-market"."""
        return f"{self.value}-{self.kind}"


def city_kind(suit: str) -> str:
    """MS-CITY-2: the kind of city a suit stands for."""
    try:
        return KIND_BY_SUIT[suit]
    except KeyError:
        raise RuleViolation(f"There is no suit called {suit!r} (MS-EQUIP-1).") from None


# --- continents and spaces (MS-BOARD-1..6) --------------------------------------------------------

NORTH = "N"
EAST = "E"
SOUTH = "S"
WEST = "W"
#: Clockwise round the Middle Sea, so the next seat to the left takes the next continent.
CONTINENTS = (NORTH, EAST, SOUTH, WEST)
OPPOSITE = {NORTH: SOUTH, SOUTH: NORTH, EAST: WEST, WEST: EAST}

NL = "NL"
CAP = "CAP"
NR = "NR"
FL = "FL"
FM = "FM"
FR = "FR"
POSITIONS = (NL, CAP, NR, FL, FM, FR)
CITY_POSITIONS = (NL, NR, FL, FM, FR)
FAR_ROW = (FL, FM, FR)

#: MS-BOARD-4: orthogonal or diagonal neighbours inside one continent of 2 rows of 3.
ADJACENT_POSITIONS: dict[str, frozenset[str]] = {
    CAP: frozenset({NL, NR, FL, FM, FR}),
    NL: frozenset({CAP, FL, FM}),
    NR: frozenset({CAP, FM, FR}),
    FL: frozenset({CAP, NL, FM}),
    FM: frozenset({CAP, NL, NR, FL, FR}),
    FR: frozenset({CAP, NR, FM}),
}


def space(continent: str, position: str) -> str:
    """The name of a space, e.g. ``space("N", "FL") == "N-FL"`` (MS-BOARD-2)."""
    if continent not in CONTINENTS:
        raise RuleViolation(f"There is no continent {continent!r} (MS-BOARD-3).")
    if position not in POSITIONS:
        raise RuleViolation(f"There is no position {position!r} on a continent (MS-BOARD-2).")
    return f"{continent}-{position}"


def split_space(name: str) -> tuple[str, str]:
    """(continent, position) of a space name; refuses names that are no space (MS-BOARD-2)."""
    parts = name.split("-") if isinstance(name, str) else []
    if len(parts) != 2 or parts[0] not in CONTINENTS or parts[1] not in POSITIONS:
        raise RuleViolation(f"{name!r} is not a space of the board (MS-BOARD-2).")
    return parts[0], parts[1]


def continent_of(name: str) -> str:
    """MS-BOARD-1: the continent a space lies on."""
    return split_space(name)[0]


def capital_space(continent: str) -> str:
    """MS-BOARD-2: the Capital is the middle of the near row."""
    return space(continent, CAP)


def is_capital(name: str) -> bool:
    """MS-BOARD-1: whether the space holds a Capital."""
    return split_space(name)[1] == CAP


def is_coastal(name: str) -> bool:
    """MS-BOARD-2, MS-CITY-4: the far row borders the Middle Sea; the Capital is never coastal."""
    return split_space(name)[1] in FAR_ROW


def city_spaces(continent: str) -> tuple[str, ...]:
    """MS-BOARD-1: the five spaces round a Capital."""
    return tuple(space(continent, pos) for pos in CITY_POSITIONS)


def adjacent(a: str, b: str) -> bool:
    """MS-BOARD-4, MS-BOARD-5: neighbours orthogonally or diagonally on one continent; spaces on
    different continents are never adjacent over land."""
    cont_a, pos_a = split_space(a)
    cont_b, pos_b = split_space(b)
    return cont_a == cont_b and pos_b in ADJACENT_POSITIONS[pos_a]


def neighbours(name: str) -> tuple[str, ...]:
    """MS-BOARD-4: the spaces next to a space, in board order."""
    cont, pos = split_space(name)
    return tuple(space(cont, p) for p in POSITIONS if p in ADJACENT_POSITIONS[pos])


def continents_for(players: int, left_out: str | None = None,
                   pair: tuple[str, str] = (NORTH, SOUTH)) -> tuple[str, ...]:
    """MS-BOARD-3: the continents in play, clockwise. Four players use all four; three leave
    ``left_out`` (west unless told) empty; two use an opposite pair (north and south unless
    told)."""
    if players == 4:
        return CONTINENTS
    if players == 3:
        gone = WEST if left_out is None else left_out
        if gone not in CONTINENTS:
            raise RuleViolation(f"There is no continent {gone!r} (MS-BOARD-3).")
        return tuple(c for c in CONTINENTS if c != gone)
    if players == 2:
        if len(pair) != 2 or pair[0] not in CONTINENTS or OPPOSITE[pair[0]] != pair[1]:
            raise RuleViolation(
                "Two players sit on opposite continents, north and south or east and west "
                "(MS-BOARD-3)."
            )
        return tuple(c for c in CONTINENTS if c in pair)
    raise RuleViolation(f"The game is for 2 to 4 players, not {players} (MS-EQUIP-4).")


def initial_stacks() -> dict[str, tuple[int, ...]]:
    """MS-SETUP-4: four face-up stacks, one per suit, ace on top and the 5 at the bottom (each
    stack is listed top first)."""
    return {suit: CITY_VALUES for suit in SUITS}
