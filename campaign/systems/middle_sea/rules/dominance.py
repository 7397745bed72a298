"""The dominance phase: scores, the new order of play and its tie-breaks (MS-DOM-1..6,
MS-AMB-9, MS-AMB-24), and first dominance from the setup roll (MS-SETUP-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .board import TEMPLE, RuleViolation
from .state import GameState, city_at, controlled_cities, get_player


def temple_values(state: GameState, name: str) -> tuple[int, ...]:
    """The values of the temples a player controls, highest first."""
    values = []
    for s in controlled_cities(state, name):
        city = city_at(state, s)
        if city is not None and city.kind == TEMPLE:
            values.append(city.value)
    return tuple(sorted(values, reverse=True))


def dominance_score(state: GameState, name: str) -> int:
    """MS-DOM-1: king value + the values of all temples controlled - unrest."""
    p = get_player(state, name)
    return p.king.value + sum(temple_values(state, name)) - p.unrest


def best_temple(state: GameState, name: str) -> int:
    """MS-DOM-4: the value of the player's best single temple (0 with none)."""
    values = temple_values(state, name)
    return values[0] if values else 0


def first_place(scores: Mapping[str, int], temples: Mapping[str, int],
                previous: Sequence[str]) -> str:
    """MS-DOM-3, MS-DOM-4, MS-AMB-9: the highest score; a tie goes to the best single temple,
    then to the earlier place in the previous order."""
    top = max(scores.values())
    tied = [name for name in previous if scores[name] == top]
    return max(tied, key=lambda name: (temples[name], -previous.index(name)))


def lower_ties(scores: Mapping[str, int], first: str,
               previous: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """MS-DOM-5: groups of players below 1st with equal scores, whose order the player in 1st
    chooses (listed in previous order)."""
    groups: dict[int, list[str]] = {}
    for name in previous:
        if name != first:
            groups.setdefault(scores[name], []).append(name)
    return tuple(tuple(group) for _, group in sorted(groups.items(), reverse=True)
                 if len(group) > 1)


def rank(scores: Mapping[str, int], temples: Mapping[str, int], previous: Sequence[str],
         choice: Sequence[str] = ()) -> tuple[str, ...]:
    """MS-DOM-3..5: the order of play from scores. ``choice`` is the order in which the player in
    1st puts tied players below 1st; every tied player must appear in it."""
    first = first_place(scores, temples, previous)
    picked = list(choice)
    for group in lower_ties(scores, first, previous):
        missing = [name for name in group if name not in picked]
        if missing:
            raise RuleViolation(
                f"{', '.join(group)} are tied; {first}, in 1st place, chooses their order "
                "(MS-DOM-5)."
            )
    rest = [name for name in previous if name != first]
    rest.sort(key=lambda name: (-scores[name],
                                picked.index(name) if name in picked else 0))
    return (first, *rest)


def dominance_order(state: GameState, choice: Sequence[str] = ()) -> tuple[str, ...]:
    """MS-DOM-1..6, MS-AMB-24: the new order of play. If nobody controls a temple the order
    stands (as in round 1); otherwise players are ranked by dominance score."""
    previous = list(state.order)
    if not any(temple_values(state, name) for name in previous):
        return tuple(previous)
    scores = {name: dominance_score(state, name) for name in previous}
    temples = {name: best_temple(state, name) for name in previous}
    return rank(scores, temples, previous, choice)


def dominance_ties(state: GameState) -> tuple[tuple[str, ...], ...]:
    """MS-DOM-5: the tied groups the player in 1st must order this dominance phase (none when
    the order stands)."""
    previous = list(state.order)
    if not any(temple_values(state, name) for name in previous):
        return ()
    scores = {name: dominance_score(state, name) for name in previous}
    temples = {name: best_temple(state, name) for name in previous}
    return lower_ties(scores, first_place(scores, temples, previous), previous)


def first_dominance(seats: Sequence[str], rolls: Sequence[Mapping[str, int]]) -> tuple[str, ...]:
    """MS-SETUP-8: every player rolls their die (null 0, ace 1); the highest takes 1st, tied
    players roll again (each later mapping holds exactly the tied players' rerolls); then
    2nd, 3rd... go to the left, following ``seats``."""
    if not rolls:
        raise RuleViolation("Every player rolls for first dominance (MS-SETUP-8).")
    rolling = list(seats)
    used = 0
    for roll in rolls:
        used += 1
        if sorted(roll) != sorted(rolling):
            raise RuleViolation(
                f"This roll is for {', '.join(rolling)} and only them (MS-SETUP-8)."
            )
        for value in roll.values():
            if value not in range(6):
                raise RuleViolation(f"A die shows 0 to 5, not {value} (MS-EQUIP-1).")
        top = max(roll.values())
        rolling = [name for name in rolling if roll[name] == top]
        if len(rolling) == 1:
            break
    if len(rolling) != 1:
        raise RuleViolation(f"{', '.join(rolling)} are tied and roll again (MS-SETUP-8).")
    if used != len(rolls):
        raise RuleViolation("The roll was settled before the last reroll given (MS-SETUP-8).")
    start = list(seats).index(rolling[0])
    return tuple(seats[(start + i) % len(seats)] for i in range(len(seats)))
