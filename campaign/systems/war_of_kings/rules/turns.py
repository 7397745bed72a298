"""War of Kings: setup, the round and turn sequence, and the end of a round.

A round is the Construction Phase, played by everyone at once in five steps, then one turn per
player from the lead player going left (WOK-TURN-1..3). :func:`advance` moves the state to the
next step; :func:`finish_round` runs the end-of-round check and, if nobody has won, flips every
army to ready and opens the next round (WOK-TURN-5, WOK-TURN-6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from campaign.systems.war_of_kings.rules.achievements import Holders, RoundEnd, end_of_round
from campaign.systems.war_of_kings.rules.board import (
    CONSTRUCTION_STEPS,
    END_OF_ROUND,
    EVENT_DIE,
    MALADOR,
    RECEIVE_GOLD,
    SUMMER,
    TOWN,
    TURN_PHASES,
    VILLAGE,
    WINTER,
    Army,
    GameState,
    Holding,
    MapDef,
    RuleViolation,
    border,
)
from campaign.systems.war_of_kings.rules.economy import STARTING_STOCKPILE
from campaign.systems.war_of_kings.rules.options import DEFAULTS, Options

MIN_PLAYERS = 2
MAX_PLAYERS = 5

#: WOK-SETUP-10: recommended capitals as column positions 1-6 of Tables 1 and 2 (WOK-AMB-29).
#: ``None`` for five players: any five columns.
RECOMMENDED_CAPITALS: dict[tuple[str, int, str], tuple[int, ...] | None] = {
    (SUMMER, 2, "a"): (2, 6), (SUMMER, 2, "b"): (1, 3),
    (SUMMER, 3, "a"): (1, 3, 4), (SUMMER, 3, "b"): (2, 5, 6),
    (SUMMER, 4, ""): (3, 4, 5, 6), (SUMMER, 5, ""): None,
    (WINTER, 2, "a"): (1, 5), (WINTER, 2, "b"): (2, 4),
    (WINTER, 3, "a"): (1, 4, 6), (WINTER, 3, "b"): (2, 3, 5),
    (WINTER, 4, ""): (3, 4, 5, 6), (WINTER, 5, ""): None,
}


def recommended_capitals(side: str, players: int, option: str = "") -> tuple[int, ...] | None:
    """WOK-SETUP-10, WOK-VAR-5: the crest columns recommended for a board side and player count
    (option ``a`` or ``b`` for two and three players); ``None`` means any five."""
    key = (side, players, option if players in (2, 3) else "")
    if key not in RECOMMENDED_CAPITALS:
        raise RuleViolation(f"WOK-SETUP-10: no recommended seating for {players} players on the "
                            f"{side} board{' (option ' + option + ')' if option else ''}.")
    return RECOMMENDED_CAPITALS[key]


@dataclass(frozen=True)
class Seat:
    """A player's kingdom, its capital territory (A) and the territory in front of it (C)."""

    kingdom: str
    capital: str
    front: str


def setup(game_map: MapDef, seats: Sequence[Seat], lead: str) -> GameState:
    """WOK-SETUP-1..9, WOK-TV-2: every kingdom gets its capital town, a village and one ready
    army in front of it, markers on the capital's other two neighbours, a road across the
    capital-front border, and the stockpile 7 gold, 5 timber, 7 wheat, 7 cattle, 2 stone. The
    Malador cannot be chosen (WOK-SETUP-2); two to five players (WOK-SETUP-10)."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise RuleViolation(f"WOK-SETUP-10: War of Kings is for 2 to 5 players, not "
                            f"{len(seats)}.")
    holdings: dict[str, Holding] = {}
    roads = set()
    armies = []
    for seat in seats:
        if seat.kingdom == MALADOR:
            raise RuleViolation("WOK-SETUP-2: orange belongs to the Malador and cannot be "
                                "chosen.")
        for code in (seat.capital, seat.front):
            if not game_map.territory(code).playable:
                raise RuleViolation(f"WOK-SETUP-4: {code} is not a playable territory.")
        if not game_map.adjacent(seat.capital, seat.front):
            raise RuleViolation(f"WOK-SETUP-4: {seat.front} must border the capital "
                                f"{seat.capital}.")
        others = sorted(t for t in game_map.neighbours(seat.capital)
                        if t != seat.front and game_map.territory(t).playable)
        if len(others) != 2:
            raise RuleViolation(f"WOK-SETUP-4: the capital {seat.capital} needs exactly two "
                                f"other playable neighbours; it has {len(others)}.")
        for code in (seat.capital, seat.front, *others):
            if code in holdings:
                raise RuleViolation(f"WOK-SETUP-4: {code} would start in two kingdoms.")
        holdings[seat.capital] = Holding(seat.kingdom, TOWN, seat.kingdom)
        holdings[seat.front] = Holding(seat.kingdom, VILLAGE, seat.kingdom)
        for code in others:
            holdings[code] = Holding(seat.kingdom)
        roads.add(border(seat.capital, seat.front))
        armies.append(Army(f"{seat.kingdom}-1", seat.kingdom, seat.front))
    kingdoms = tuple(seat.kingdom for seat in seats)
    if len(set(kingdoms)) != len(kingdoms):
        raise RuleViolation("WOK-SETUP-2: each player picks a different kingdom.")
    if lead not in kingdoms:
        raise RuleViolation(f"WOK-SETUP-9: the lead player {lead} is not at the table.")
    return GameState(
        map=game_map, holdings=holdings, roads=frozenset(roads),
        capitals={seat.kingdom: seat.capital for seat in seats},
        stockpiles={k: STARTING_STOCKPILE for k in kingdoms}, armies=tuple(armies),
        seats=kingdoms, round=1, phase=RECEIVE_GOLD, lead=lead,
    )


def draw_lead(seats: Sequence[str], drawn: int) -> str:
    """WOK-SETUP-9: one marker per player is mixed and one drawn blind; ``drawn`` is the index
    (0-based, in seating order) of the marker that came out. The lead never changes
    (WOK-TURN-5)."""
    if not 0 <= drawn < len(seats):
        raise RuleViolation(f"WOK-SETUP-9: the drawn marker must be one of the {len(seats)} "
                            "in the pile.")
    return seats[drawn]


def turn_order(state: GameState) -> tuple[str, ...]:
    """WOK-TURN-1: from the lead player, passing left (clockwise, the seating order); players
    out of the game are skipped. If the lead is out, play starts with the next player left."""
    seats = state.seats
    lead = state.lead if state.lead in seats else seats[0]
    start = seats.index(lead)
    ring = seats[start:] + seats[:start]
    return tuple(k for k in ring if k in state.kingdoms)


def _after(state: GameState, active: str | None) -> str | None:
    """The next player of the round after ``active``, going left from the lead; a player who
    left the game during their own turn (WOK-ELIM-2) still passes the turn on."""
    seats = state.seats
    lead = state.lead if state.lead in seats else seats[0]
    start = seats.index(lead)
    ring = seats[start:] + seats[:start]
    here = ring.index(active) if active in ring else len(ring) - 1
    return next((k for k in ring[here + 1:] if k in state.kingdoms), None)


def advance(state: GameState) -> GameState:
    """WOK-TURN-1..3: the next Construction step, the next phase of the active player's turn, the
    next player's Event Die Phase, or, after the last Supply Phase, the end of the round."""
    if state.phase in CONSTRUCTION_STEPS:
        i = CONSTRUCTION_STEPS.index(state.phase)
        if i + 1 < len(CONSTRUCTION_STEPS):
            return replace(state, phase=CONSTRUCTION_STEPS[i + 1], active=None)
        order = turn_order(state)
        return replace(state, phase=EVENT_DIE, active=order[0] if order else None)
    if state.phase in TURN_PHASES:
        i = TURN_PHASES.index(state.phase)
        if i + 1 < len(TURN_PHASES):
            return replace(state, phase=TURN_PHASES[i + 1])
        following = _after(state, state.active)
        if following is not None:
            return replace(state, phase=EVENT_DIE, active=following)
        return replace(state, phase=END_OF_ROUND, active=None)
    raise RuleViolation("WOK-TURN-5: the round is over; run the end-of-round check.")


def ready_all(state: GameState) -> GameState:
    """WOK-TURN-5, WOK-MAL-12: every unready army on the board, Malador's included, becomes
    ready."""
    return replace(state, armies=tuple(replace(a, ready=True) for a in state.armies))


def finish_round(state: GameState, holders: Holders,
                 options: Options = DEFAULTS) -> tuple[GameState, RoundEnd]:
    """WOK-TURN-5, WOK-TURN-6: only after the last player's Supply Phase, tally AP and check for
    victory; if nobody has won, flip every army to ready and start the next round at Receive
    Gold. The lead player stays the same."""
    if state.phase != END_OF_ROUND:
        raise RuleViolation("WOK-TURN-6: victory is checked only at the end of a round, after "
                            "every player's turn.")
    result = end_of_round(state, holders, options)
    if result.over:
        return state, result
    state = ready_all(state)
    return replace(state, round=state.round + 1, phase=RECEIVE_GOLD, active=None), result
