"""The leader phase apart from conflicts: changing the king, the ascending order of leader
actions, activating and moving leaders (MS-LEAD, MS-MOVE, MS-LEADER, MS-AMB-2, MS-AMB-14)."""

from __future__ import annotations

from dataclasses import replace

from .board import RuleViolation
from .economy import king_change_cost
from .state import (
    IN_CAPITAL,
    IN_RESERVE,
    LEADER,
    GameState,
    city_at,
    controller,
    get_player,
    leader_at,
    pay,
    require_turn,
    route_component,
    with_player,
    with_turn,
)

#: MS-LEAD-3: five leaders besides the king, one action each.
MAX_ACTIONS = 5


def use_leader(state: GameState, name: str, value: int) -> GameState:
    """MS-LEAD-3, MS-LEADER-3: record that a leader takes its one action this phase. Leaders act
    from the lowest value up, the king never acts, and a player takes at most 5 actions."""
    p = require_turn(state, name, LEADER)
    leader = p.leader(value)
    if leader.place == IN_CAPITAL:
        raise RuleViolation(
            f"The {value}-leader is {name}'s king; a king never moves or attacks (MS-LEADER-3)."
        )
    if value <= state.current.last_leader:
        raise RuleViolation(
            f"Leaders act from the lowest value up; after the {state.current.last_leader}-leader "
            f"the {value}-leader can no longer act this phase (MS-LEAD-3)."
        )
    if state.current.actions >= MAX_ACTIONS:
        raise RuleViolation("A player takes at most 5 leader actions per phase (MS-LEAD-3).")
    return with_turn(state, last_leader=value, actions=state.current.actions + 1)


def change_king(state: GameState, name: str, value: int) -> GameState:
    """MS-LEAD-1, MS-LEAD-2: before any other leader acts, swap the king for a leader from the
    reserve, paying the difference of their values in goods and the same in gold; the old king
    goes to the reserve and may act later this phase."""
    p = require_turn(state, name, LEADER)
    if state.current.king_changed:
        raise RuleViolation(f"{name} has already changed king this phase (MS-LEAD-2).")
    if state.current.last_leader >= 0 or state.current.actions:
        raise RuleViolation("The king is changed before the other leaders act (MS-LEAD-1).")
    new = p.leader(value)
    if new.place != IN_RESERVE:
        raise RuleViolation(
            f"The new king comes from the reserve; the {value}-leader is not there (MS-LEAD-2)."
        )
    old = p.king
    state = pay(state, name, king_change_cost(old.value, value), "MS-LEAD-2")
    p = get_player(state, name)
    p = p.with_leader(replace(old, place=IN_RESERVE, active=True))
    p = p.with_leader(replace(new, place=IN_CAPITAL, active=True))
    return with_turn(with_player(state, p), king_changed=True)


def activate(state: GameState, name: str, value: int) -> GameState:
    """MS-LEAD-4: the action of an inactive leader in a city is to turn value side up."""
    leader = get_player(state, name).leader(value)
    state = use_leader(state, name, value)
    if not leader.in_city or leader.active:
        raise RuleViolation(
            f"Only an inactive leader in a city is activated; the {value}-leader is not one "
            "(MS-LEAD-4)."
        )
    return with_player(state, get_player(state, name).with_leader(replace(leader, active=True)))


def move_destinations(state: GameState, name: str, value: int) -> tuple[str, ...]:
    """MS-MOVE-1..4: where an active, non-king leader may go along the player's trade routes
    (starting from the Capital when it comes from the reserve): ungoverned cities the player
    controls, or ``"reserve"`` by way of the Capital."""
    p = get_player(state, name)
    leader = p.leader(value)
    if leader.place == IN_CAPITAL or not leader.active:
        return ()
    start = p.capital if leader.place == IN_RESERVE else leader.place
    reach = route_component(state, name, start)
    found = [
        s for s in sorted(reach)
        if s != start and city_at(state, s) is not None and leader_at(state, s) is None
        and controller(state, s) == name
    ]
    if leader.in_city and p.capital in reach:
        found.append(IN_RESERVE)
    return tuple(found)


def move_leader(state: GameState, name: str, value: int, destination: str) -> GameState:
    """MS-MOVE-1..5, MS-LEADER-4, MS-LEADER-5, MS-AMB-2, MS-AMB-14: move an active leader from the
    reserve to a city, between cities, or back to the reserve, along trade routes, ending in an
    ungoverned city the player controls or at the Capital. Moving leaves the leader active unless
    the ``move_inactivates`` option is on; a city held by the leader alone becomes uncontrolled,
    with no unrest change."""
    p = get_player(state, name)
    leader = p.leader(value)
    state = use_leader(state, name, value)
    if not leader.active:
        raise RuleViolation(f"The {value}-leader is inactive and cannot move (MS-MOVE-1).")
    if destination not in move_destinations(state, name, value):
        raise RuleViolation(
            f"The {value}-leader cannot reach {destination}: a move follows {name}'s roads and "
            f"ports and ends in an ungoverned city {name} controls, or at the Capital "
            "(MS-MOVE-3, MS-MOVE-4)."
        )
    moved = replace(leader, place=destination,
                    active=destination == IN_RESERVE or not state.options.move_inactivates)
    return with_player(state, get_player(state, name).with_leader(moved))
