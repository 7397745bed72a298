"""The control phase, rebellions and unrest (MS-CONTROL, MS-REBEL, MS-UNREST).

A rebellion, whether from the control phase or a missionary attack, is started by ``rebel``; its
owner then tries ``put_down`` any number of times and closes it with ``end_rebellion``, which loses
the cities still rebelling (MS-REBEL-4). Nothing else may happen meanwhile (MS-ATK-5, MS-AMB-20).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .board import GARRISON, TEMPLE, RuleViolation
from .scoring import end_game
from .state import (
    BY_CONTROL,
    CIVIL_WAR,
    CONTROL,
    IN_RESERVE,
    Cost,
    GameState,
    Rebellion,
    controlled_cities,
    controller,
    get_player,
    pay,
    require_city,
    require_live,
    require_turn,
    with_player,
    with_turn,
)

#: MS-CONTROL-3, MS-RES-4, MS-AMB-5: keeping a city, or one hire, costs 1 goods + 1 gold.
ONE_AND_ONE = Cost(goods=1, gold=1)
MAX_UNREST = 5


# --- unrest (MS-UNREST) ---------------------------------------------------------------------------


def lose_cities(state: GameState, name: str, cities: Sequence[str]) -> GameState:
    """MS-REBEL-4, MS-MIL-8, MS-AMB-12: the player's roads touching these cities and ports at
    them go back to the bank and the player's leaders in them go to the reserve; unrest is not
    touched here. Control of other cities follows from what is left."""
    gone = set(cities)
    p = get_player(state, name)
    leaders = tuple(
        replace(leader, place=IN_RESERVE, active=True) if leader.place in gone else leader
        for leader in p.leaders
    )
    state = with_player(state, replace(p, leaders=leaders))
    return replace(
        state,
        roads=tuple(r for r in state.roads
                    if not (r.owner == name and (r.a in gone or r.b in gone))),
        ports=tuple(pt for pt in state.ports if not (pt.owner == name and pt.space in gone)),
    )


def change_unrest(state: GameState, name: str, delta: int) -> GameState:
    """MS-UNREST-1..4, MS-AMB-21: move a player's unrest die, never below 0. At 5 every city of
    the kingdom rebels and is lost, the player loses and the game ends on the spot (civil war)."""
    p = get_player(state, name)
    unrest = min(MAX_UNREST, max(0, p.unrest + delta))
    state = with_player(state, replace(p, unrest=unrest))
    if unrest >= MAX_UNREST and not state.ended:
        state = lose_cities(state, name, controlled_cities(state, name))
        state = end_game(state, CIVIL_WAR, losers=(name,))
    return state


# --- the control phase (MS-CONTROL) ---------------------------------------------------------------


def control_total(king: int, unrest: int) -> int:
    """MS-CONTROL-1: king value minus unrest (may be negative; see ``rebels_required``)."""
    return king - unrest


def excess_cities(cities: int, king: int, unrest: int) -> int:
    """MS-CONTROL-3, MS-AMB-4: cities beyond the control total (a total below 0 counts as 0);
    the most a player may pay to keep."""
    return max(0, cities - max(0, control_total(king, unrest)))


def rebels_required(cities: int, king: int, unrest: int, payments: int) -> int:
    """MS-CONTROL-4, MS-AMB-4: rebels = max(0, cities - max(0, king - unrest) - payments), with
    at most one payment per excess city."""
    if payments < 0:
        raise RuleViolation("Payments cannot be negative (MS-CONTROL-3).")
    if payments > excess_cities(cities, king, unrest):
        raise RuleViolation(
            f"Only {excess_cities(cities, king, unrest)} cities are in excess; nobody pays to "
            "keep more (MS-CONTROL-3, MS-AMB-4)."
        )
    return max(0, cities - max(0, control_total(king, unrest)) - payments)


@dataclass(frozen=True)
class ControlReport:
    """MS-CONTROL-1..4: what a player faces in the control phase. ``affordable`` is the most
    excess cities the reserve can pay to keep."""

    cities: int
    control_total: int
    excess: int
    affordable: int


def control_report(state: GameState, name: str) -> ControlReport:
    """MS-CONTROL-1..4, MS-AMB-4: city count (the Capital never counts), control total, excess
    and how many of the excess the reserve could keep."""
    p = get_player(state, name)
    cities = len(controlled_cities(state, name))
    excess = excess_cities(cities, p.king.value, p.unrest)
    return ControlReport(
        cities=cities,
        control_total=control_total(p.king.value, p.unrest),
        excess=excess,
        affordable=min(excess, p.goods, p.gold),
    )


def settle_control(state: GameState, name: str, payments: int,
                   rebels: Sequence[str] = ()) -> GameState:
    """MS-CONTROL-3, MS-CONTROL-4, MS-REBEL-1: on the player's control turn, pay 1 goods + 1 gold
    per excess city kept and name exactly the cities that must rebel; those rebel at once."""
    p = require_turn(state, name, CONTROL)
    if state.current.control_settled:
        raise RuleViolation(f"{name} has already settled control this round (MS-CONTROL-3).")
    cities = controlled_cities(state, name)
    needed = rebels_required(len(cities), p.king.value, p.unrest, payments)
    chosen = tuple(rebels)
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("Each rebelling city is named once (MS-CONTROL-4).")
    if len(chosen) != needed:
        raise RuleViolation(
            f"With {payments} paid, {needed} of {name}'s cities must rebel, not {len(chosen)} "
            "(MS-CONTROL-4)."
        )
    for city in chosen:
        if city not in cities:
            raise RuleViolation(f"{name} does not control a city at {city} (MS-CONTROL-4).")
    state = pay(state, name, ONE_AND_ONE.times(payments), "MS-CONTROL-3")
    state = with_turn(state, control_settled=True)
    return rebel(state, name, chosen, BY_CONTROL)


# --- rebellion (MS-REBEL) -------------------------------------------------------------------------


def rebel(state: GameState, name: str, cities: Sequence[str], cause: str) -> GameState:
    """MS-REBEL-1, MS-REBEL-5: the cities rebel and their leaders turn inactive at once; the
    rebellion then waits for its owner (MS-AMB-20)."""
    if not cities:
        return state
    if state.rebellion is not None:
        raise RuleViolation("One rebellion is settled before another starts (MS-ATK-5).")
    p = get_player(state, name)
    places = set(cities)
    leaders = tuple(
        replace(leader, active=False) if leader.place in places else leader
        for leader in p.leaders
    )
    state = with_player(state, replace(p, leaders=leaders))
    return replace(state, rebellion=Rebellion(name, tuple(cities), cause))


def put_down_total(leader: int, city_value: int, hires: int = 0) -> int:
    """MS-REBEL-2, MS-AMB-5: leader value + the value of its garrison or temple (+ hires where
    the option allows them)."""
    return leader + city_value + hires


@dataclass(frozen=True)
class PutDown:
    """The result of one attempt to put down a rebelling city (MS-REBEL-2, MS-REBEL-3)."""

    city: str
    leader: int
    attack: int
    defense: int
    success: bool


def put_down(state: GameState, name: str, city: str, leader_value: int,
             hires: int = 0) -> tuple[GameState, PutDown]:
    """MS-REBEL-2, MS-REBEL-3, MS-AMB-5, MS-AMB-20: attack a rebelling city with an active
    leader standing in one of the player's garrisons or temples that is not rebelling itself (no
    reach limit). Success needs a strictly higher total than the city's value; either way the
    leader turns inactive, and a put-down city changes nothing else (its own leader stays
    inactive). Several attempts with different leaders are allowed."""
    require_live(state)
    rebellion = state.rebellion
    if rebellion is None or rebellion.owner != name:
        raise RuleViolation(f"{name} has no rebellion to put down (MS-REBEL-2).")
    if city not in rebellion.cities:
        raise RuleViolation(f"The city at {city} is not rebelling (MS-REBEL-2).")
    if hires and not state.options.rebellion_hires:
        raise RuleViolation("No mercenaries or zealots help put down a rebellion (MS-AMB-5).")
    if hires < 0:
        raise RuleViolation("Hires cannot be negative (MS-ATK-7).")
    p = get_player(state, name)
    leader = p.leader(leader_value)
    if not leader.in_city:
        raise RuleViolation(
            "Only a leader standing in a garrison or temple puts down a rebellion, and the "
            f"{leader_value}-leader is not in a city (MS-REBEL-2)."
        )
    base = require_city(state, leader.place, "MS-REBEL-2")
    if base.kind not in (GARRISON, TEMPLE):
        raise RuleViolation(
            f"The {leader_value}-leader stands in a {base.kind}; only a garrison or temple "
            "puts down a rebellion (MS-REBEL-2)."
        )
    if leader.place in rebellion.cities:
        raise RuleViolation(
            f"The {base.label} at {leader.place} is rebelling too and cannot help (MS-REBEL-2)."
        )
    if controller(state, leader.place) != name:
        raise RuleViolation(f"{name} does not control the {base.label} (MS-REBEL-2).")
    if not leader.active:
        raise RuleViolation(f"The {leader_value}-leader is inactive (MS-REBEL-2).")
    state = pay(state, name, ONE_AND_ONE.times(hires), "MS-AMB-5")
    target = require_city(state, city, "MS-REBEL-2")
    attack = put_down_total(leader_value, base.value, hires)
    success = attack > target.value
    p = get_player(state, name)
    state = with_player(state, p.with_leader(replace(leader, active=False)))
    if success:
        left = tuple(c for c in rebellion.cities if c != city)
        state = replace(state, rebellion=replace(rebellion, cities=left) if left else None)
    return state, PutDown(city, leader_value, attack, target.value, success)


def end_rebellion(state: GameState, name: str) -> GameState:
    """MS-REBEL-4, MS-UNREST-3 (a): every city still rebelling is lost (routes to the bank, leader
    to the reserve, the city stays put, now uncontrolled) and unrest rises by 1 once for the
    whole rebellion if any city was lost."""
    require_live(state)
    rebellion = state.rebellion
    if rebellion is None or rebellion.owner != name:
        raise RuleViolation(f"{name} has no rebellion to close (MS-REBEL-4).")
    state = replace(state, rebellion=None)
    if not rebellion.cities:
        return state
    state = lose_cities(state, name, rebellion.cities)
    return change_unrest(state, name, +1)
