"""Victory and the calculated score: game-ending defeats, trade and conquest victories checked
when a round ends, the timed game, and who wins (MS-WIN-1..6, MS-AMB-10, MS-AMB-11)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .board import continent_of
from .state import (
    CONQUEST,
    ENDED,
    IN_CAPITAL,
    SCORE_TIE_DOMINANCE,
    TIMED,
    TRADE,
    GameState,
    city_at,
    controlled_cities,
    get_player,
    home_cities,
    own_ports,
    provincial_cities,
)

HOME_CITIES_NEEDED = 5
PROVINCIAL_CITIES_NEEDED = 3


def score_formula(city_values: Sequence[int], piers: int, unrest: int) -> int:
    """MS-WIN-2: (cities controlled - unrest) x (their total value + piers of all ports).
    Negative results stand (MS-AMB-11)."""
    return (len(city_values) - unrest) * (sum(city_values) + piers)


def calculated_score(state: GameState, name: str) -> int:
    """MS-WIN-2, MS-AMB-11: a player's calculated score; the Capital is no city and adds
    nothing, and the piers of every port, home or provincial, count."""
    values = []
    for s in controlled_cities(state, name):
        city = city_at(state, s)
        assert city is not None
        values.append(city.value)
    piers = sum(p.piers for p in own_ports(state, name))
    return score_formula(values, piers, get_player(state, name).unrest)


@dataclass(frozen=True)
class Standing:
    """One line of the final table."""

    name: str
    score: int
    lost: bool


def standings(state: GameState) -> tuple[Standing, ...]:
    """MS-WIN-2, MS-AMB-11: every player by calculated score, highest first; a player whose
    defeat ended the game is listed last whatever their score; equal scores keep dominance order."""
    position = {name: i for i, name in enumerate(state.order)}
    lines = [
        Standing(p.name, calculated_score(state, p.name), p.name in state.losers)
        for p in state.players
    ]
    lines.sort(key=lambda s: (s.lost, -s.score, position.get(s.name, len(position))))
    return tuple(lines)


def best_by_score(state: GameState, candidates: Iterable[str]) -> tuple[str, ...]:
    """MS-AMB-10, MS-AMB-11: the candidates with the highest calculated score; several share the
    win unless the option gives it to the earliest in dominance order."""
    names = list(candidates)
    if not names:
        return ()
    scores = {name: calculated_score(state, name) for name in names}
    top = max(scores.values())
    best = [name for name in names if scores[name] == top]
    position = {name: i for i, name in enumerate(state.order)}
    best.sort(key=lambda name: position.get(name, len(position)))
    if state.options.score_tiebreak == SCORE_TIE_DOMINANCE:
        return (best[0],)
    return tuple(best)


def end_game(state: GameState, reason: str, losers: Sequence[str] = (),
             qualifiers: Sequence[str] | None = None) -> GameState:
    """MS-WIN-1, MS-WIN-3, MS-AMB-21: stop the game on the spot. The winners are the best
    calculated scores among ``qualifiers`` (several trade victories: MS-AMB-10) or else among
    the players who did not lose (MS-AMB-11)."""
    pool = qualifiers if qualifiers is not None else [
        p.name for p in state.players if p.name not in losers
    ]
    ended = replace(state, ended=True, phase=ENDED, end_reason=reason, losers=tuple(losers),
                    rebellion=None)
    return replace(ended, winners=best_by_score(ended, pool))


def all_leaders_active(state: GameState, name: str) -> bool:
    """MS-WIN-4, MS-AMB-1: all six leaders active. By default a leader in the reserve counts as
    active; with ``reserve_counts_active`` off, the five besides the king must stand in cities,
    active."""
    for leader in get_player(state, name).leaders:
        if leader.place == IN_CAPITAL:
            continue
        if not leader.in_city and not state.options.reserve_counts_active:
            return False
        if leader.in_city and not leader.active:
            return False
    return True


def has_trade_victory(state: GameState, name: str) -> bool:
    """MS-WIN-4: all five home cities controlled and all six leaders active."""
    return (len(home_cities(state, name)) == HOME_CITIES_NEEDED
            and all_leaders_active(state, name))


def conquest_met(home: int, provincial_by_continent: dict[str, int],
                 other_continents: Sequence[str]) -> bool:
    """MS-WIN-5: all five home cities, at least three provincial cities, and at least one on each
    other continent in play."""
    return (home == HOME_CITIES_NEEDED
            and sum(provincial_by_continent.values()) >= PROVINCIAL_CITIES_NEEDED
            and all(provincial_by_continent.get(c, 0) >= 1 for c in other_continents))


def has_conquest_victory(state: GameState, name: str) -> bool:
    """MS-WIN-5 on a game state (continents in play are those of the seated players)."""
    own = get_player(state, name).continent
    others = [p.continent for p in state.players if p.continent != own]
    counts: dict[str, int] = {}
    for city in provincial_cities(state, name):
        counts[continent_of(city)] = counts.get(continent_of(city), 0) + 1
    return conquest_met(len(home_cities(state, name)), counts, others)


def check_round_end(state: GameState) -> GameState:
    """MS-ROUND-3, MS-WIN-3..6, MS-AMB-10: when the round ends, a conquest or trade victory ends
    the game (several trade victories are decided by calculated score among those players); else
    a called time limit ends it by calculated score; else the state is returned unchanged."""
    conquerors = [p.name for p in state.players if has_conquest_victory(state, p.name)]
    if conquerors:
        return end_game(state, CONQUEST, qualifiers=conquerors)
    traders = [p.name for p in state.players if has_trade_victory(state, p.name)]
    if traders:
        return end_game(state, TRADE, qualifiers=traders)
    if state.time_called:
        return end_game(state, TIMED)
    return state
