"""Small builders for Middle Sea states written by hand: players with leaders placed, cities on
spaces, roads and ports, and the stacks holding every city not on the board."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from campaign.systems.middle_sea.rules.board import CITY_VALUES, SUITS, City
from campaign.systems.middle_sea.rules.state import (
    IN_CAPITAL,
    IN_RESERVE,
    LEADER,
    GameState,
    Leader,
    MSOptions,
    Player,
    Port,
    Road,
    Site,
    Turn,
    canonical,
    check_board,
)


def player(name: str, suit: str, continent: str, king: int = 1,
           placed: Mapping[int, str | tuple[str, bool]] | None = None, unrest: int = 0,
           goods: int = 4, gold: int = 4) -> Player:
    """A player whose king has value ``king``; ``placed`` maps a leader value to its space (or
    (space, active)); every other leader waits in the reserve."""
    placed = dict(placed or {})
    leaders = []
    for value in range(6):
        if value == king:
            leaders.append(Leader(value, IN_CAPITAL, True))
        elif value in placed:
            where = placed[value]
            place, active = (where, True) if isinstance(where, str) else where
            leaders.append(Leader(value, place, active))
        else:
            leaders.append(Leader(value, IN_RESERVE, True))
    return Player(name, suit, continent, unrest, goods, gold, tuple(leaders))


def game(players: Sequence[Player], sites: Mapping[str, tuple[str, int]],
         roads: Iterable[tuple[str, str, str]] = (),
         ports: Iterable[tuple[str, str, int]] = (),
         order: Sequence[str] | None = None, phase: str = LEADER, turn: int = 0,
         options: MSOptions | None = None) -> GameState:
    """A checked state: ``sites`` maps a space to (suit, value); roads are (owner, a, b); ports
    are (owner, space, piers); the stacks hold the other cities in ascending order."""
    placed = {City(suit, value) for suit, value in sites.values()}
    stacks = tuple(
        (suit, tuple(v for v in CITY_VALUES if City(suit, v) not in placed)) for suit in SUITS
    )
    state = canonical(GameState(
        players=tuple(players),
        order=tuple(order) if order is not None else tuple(p.name for p in players),
        sites=tuple(Site(s, City(suit, value)) for s, (suit, value) in sites.items()),
        roads=tuple(Road.between(o, a, b) for o, a, b in roads),
        ports=tuple(Port(o, s, n) for o, s, n in ports),
        stacks=stacks,
        phase=phase,
        turn=turn,
        current=Turn(),
        options=options if options is not None else MSOptions(),
    ))
    check_board(state)
    return state
