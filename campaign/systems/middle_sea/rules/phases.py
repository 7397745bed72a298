"""Setting up a game and running its rounds: first dominance from the setup roll, then the five
phases of every round in dominance order, victory checks when a round ends and the timed game
(MS-SETUP, MS-ROUND, MS-WIN-3..6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .board import CONTINENTS, LEADER_VALUES, SUITS, RuleViolation, continents_for, initial_stacks
from .control import control_report
from .dominance import dominance_order, first_dominance
from .economy import ProductionReport, apply_production
from .scoring import check_round_end
from .state import (
    BUILD,
    CONTROL,
    DOMINANCE,
    IN_CAPITAL,
    IN_RESERVE,
    LEADER,
    PRODUCTION,
    SETUP,
    GameState,
    Leader,
    MSOptions,
    Player,
    Turn,
    current_player,
    require_live,
)

#: MS-SETUP-5: the 1-leader starts as king.
FIRST_KING = 1
#: MS-SETUP-6: each player's starting reserve.
START_GOODS = 4
START_GOLD = 4


def starting_leaders() -> tuple[Leader, ...]:
    """MS-SETUP-3, MS-SETUP-5: six leaders in the reserve, the 1-leader in the Capital, active."""
    return tuple(
        Leader(v, IN_CAPITAL if v == FIRST_KING else IN_RESERVE, True) for v in LEADER_VALUES
    )


def new_game(seats: Sequence[tuple[str, str]], continents: Sequence[str] | None = None,
             options: MSOptions | None = None) -> GameState:
    """MS-SETUP-1..7, MS-BOARD-3, MS-EQUIP-4: a game for 2-4 players given as (name, suit) in
    seat order, each to the left of the one before. Continents default by player count
    (``continents_for``). Every continent starts without cities, the stacks hold all 20 cities
    ace on top, each player has the 1-leader as king, 4 goods, 4 gold and unrest 0."""
    count = len(seats)
    if continents is None:
        chosen = continents_for(count)
    else:
        chosen = tuple(continents)
        if count == 2:
            continents_for(count, pair=(chosen + ("", ""))[:2])
        else:
            continents_for(count)
    if (len(chosen) != count or len(set(chosen)) != count
            or any(c not in CONTINENTS for c in chosen)):
        raise RuleViolation("Each player takes a continent of their own (MS-BOARD-3).")
    names = [name for name, _ in seats]
    suits = [suit for _, suit in seats]
    if len(set(names)) != count or any(not name for name in names):
        raise RuleViolation("Each player needs a name of their own (MS-SETUP-1).")
    if len(set(suits)) != count or any(suit not in SUITS for suit in suits):
        raise RuleViolation("Each player takes a different suit (MS-SETUP-1).")
    players = tuple(
        Player(name=name, suit=suit, continent=cont, unrest=0, goods=START_GOODS,
               gold=START_GOLD, leaders=starting_leaders())
        for (name, suit), cont in zip(seats, chosen)
    )
    stacks = tuple(initial_stacks().items())
    return GameState(players=players, stacks=stacks, phase=SETUP,
                     options=options if options is not None else MSOptions())


def settle_first_dominance(state: GameState, rolls: Sequence[Mapping[str, int]]) -> GameState:
    """MS-SETUP-8, MS-ROUND-1: order play from the setup roll (with rerolls for ties at the top)
    and open the control phase of round 1."""
    if state.phase != SETUP:
        raise RuleViolation("First dominance is rolled once, at setup (MS-SETUP-8).")
    order = first_dominance([p.name for p in state.players], rolls)
    return replace(state, order=order, phase=CONTROL, round=1, turn=0, current=Turn())


def _next_phase(state: GameState, phase: str) -> GameState:
    return replace(state, phase=phase, turn=0, current=Turn())


def end_turn(state: GameState, name: str) -> GameState:
    """MS-ROUND-1..3, MS-CONTROL-4, MS-ATK-5: the player to act finishes their part of the
    control, build or leader phase; the next player in dominance order follows, and after the
    last the next phase begins. A control turn closes only once control is settled (nothing to
    settle without excess cities) and no turn closes while a rebellion waits. After the last
    leader turn the round ends: victories are checked (MS-WIN-4..6), a called time ends the game
    (MS-WIN-3), and otherwise the next round opens with the control phase."""
    require_live(state)
    if state.phase not in (CONTROL, BUILD, LEADER):
        raise RuleViolation(f"The {state.phase} phase is resolved for everyone at once "
                            "(MS-ROUND-2).")
    if current_player(state) != name:
        raise RuleViolation(f"It is {current_player(state)}'s turn, not {name}'s (MS-ROUND-2).")
    if state.rebellion is not None:
        raise RuleViolation(f"{state.rebellion.owner} must first deal with the rebellion "
                            "(MS-ATK-5, MS-AMB-20).")
    if (state.phase == CONTROL and not state.current.control_settled
            and control_report(state, name).excess > 0):
        raise RuleViolation(f"{name} has more cities than the control total and must pay or "
                            "name the rebels first (MS-CONTROL-3, MS-CONTROL-4).")
    if state.turn + 1 < len(state.order):
        return replace(state, turn=state.turn + 1, current=Turn())
    if state.phase == CONTROL:
        return _next_phase(state, DOMINANCE)
    if state.phase == BUILD:
        return _next_phase(state, LEADER)
    state = check_round_end(state)
    if state.ended:
        return state
    return replace(_next_phase(state, CONTROL), round=state.round + 1)


def resolve_dominance(state: GameState, choice: Sequence[str] = ()) -> GameState:
    """MS-DOM-1..6, MS-AMB-9, MS-AMB-24: rank the players for the rest of the round (the player
    in 1st orders lower ties through ``choice``) and open the production phase."""
    require_live(state)
    if state.phase != DOMINANCE:
        raise RuleViolation(f"This is the {state.phase} phase, not the dominance phase "
                            "(MS-ROUND-1).")
    order = dominance_order(state, choice)
    return _next_phase(replace(state, order=order), PRODUCTION)


def resolve_production(state: GameState) -> tuple[GameState, tuple[ProductionReport, ...]]:
    """MS-PROD-1..6, MS-AMB-8, MS-ROUND-2: every kingdom produces, in dominance order; then the
    build phase opens."""
    require_live(state)
    if state.phase != PRODUCTION:
        raise RuleViolation(f"This is the {state.phase} phase, not the production phase "
                            "(MS-ROUND-1).")
    reports = []
    for name in state.order:
        state, report = apply_production(state, name)
        reports.append(report)
    return _next_phase(state, BUILD), tuple(reports)


def call_time(state: GameState) -> GameState:
    """MS-WIN-3: the time limit is reached; the current round is finished through its leader
    phase and the calculated score then decides."""
    require_live(state)
    return replace(state, time_called=True)
