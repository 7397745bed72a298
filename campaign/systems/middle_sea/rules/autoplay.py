"""A player who picks at random among the legal moves, and the checks a position must pass,
for benchmarks and long tests (MS-ROUND-1..3 played out; MS-CITY-1, MS-LEADER-1..5,
MS-UNREST-1 and MS-RES-1 held after every move).

``random_move(state, rng)`` names one legal move of whoever must act now (the owner of a
rebellion, the player in 1st ordering ties, or the player whose turn it is) and ``play(state,
move)`` makes it; ``run_on`` resolves the phases nobody decides. The random source is an
argument, so a seed replays a game exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from . import conflict, control, economy, leaders, phases
from .board import CITY_VALUES, GARRISON, MAX_PIERS, SUITS, TEMPLE, RuleViolation, is_coastal
from .dominance import dominance_ties
from .state import (
    BUILD,
    CONTROL,
    DOMINANCE,
    GOLD,
    GOODS,
    IN_CAPITAL,
    IN_RESERVE,
    LEADER,
    PRODUCTION,
    GameState,
    check_board,
    city_at,
    controlled_cities,
    controller,
    current_player,
    get_player,
    leader_at,
    port_at,
    stack,
)


@dataclass(frozen=True)
class Move:
    """One move: who makes it, its kind and its arguments (as the rules functions take them)."""

    player: str
    kind: str
    args: tuple[Any, ...] = ()


def run_on(state: GameState) -> GameState:
    """MS-DOM-2..6, MS-PROD-1..6: resolve dominance (when no tie waits for a choice) and
    production, which nobody decides."""
    if state.phase == DOMINANCE and not state.ended and not dominance_ties(state):
        state = phases.resolve_dominance(state)
    if state.phase == PRODUCTION and not state.ended:
        state, _ = phases.resolve_production(state)
    return state


def play(state: GameState, move: Move) -> GameState:
    """Make ``move`` with the rules functions, then run on through what nobody decides."""
    name, args = move.player, move.args
    if move.kind == "end_turn":
        state = phases.end_turn(state, name)
    elif move.kind == "settle":
        state = control.settle_control(state, name, *args)
    elif move.kind == "put_down":
        state, _ = control.put_down(state, name, *args)
    elif move.kind == "end_rebellion":
        state = control.end_rebellion(state, name)
    elif move.kind == "dominance":
        state = phases.resolve_dominance(state, args[0])
    elif move.kind == "explore":
        state = economy.explore(state, name, *args)
    elif move.kind == "road":
        state = economy.build_road(state, name, *args)
    elif move.kind == "port":
        state = economy.build_port(state, name, *args)
    elif move.kind == "exchange":
        state = economy.exchange(state, name, *args)
    elif move.kind == "king":
        state = leaders.change_king(state, name, *args)
    elif move.kind == "activate":
        state = leaders.activate(state, name, *args)
    elif move.kind == "move":
        state = leaders.move_leader(state, name, *args)
    elif move.kind in (conflict.MILITARY, conflict.MISSIONARY):
        attack = (conflict.military_attack if move.kind == conflict.MILITARY
                  else conflict.missionary_attack)
        state, _ = attack(state, name, *args)
    else:
        raise RuleViolation(f"There is no move called {move.kind!r} (MS-ROUND-1).")
    return run_on(state)


def _affordable(state: GameState, name: str) -> int:
    p = get_player(state, name)
    return min(p.goods, p.gold)


def random_move(state: GameState, rng: random.Random) -> Move | None:
    """A legal move of whoever must act, chosen at random (None once the game is over)."""
    if state.ended:
        return None
    if state.rebellion is not None:
        return _rebellion_move(state, rng)
    if state.phase == DOMINANCE:
        groups = dominance_ties(state)
        orders = [[n for group in combo for n in group]
                  for combo in product(*(permutations(g) for g in groups))]
        return Move(state.order[0], "dominance", (tuple(rng.choice(orders)),))
    name = current_player(state)
    if state.phase == CONTROL:
        return _control_move(state, name, rng)
    if state.phase == BUILD:
        return _build_move(state, name, rng)
    if state.phase == LEADER:
        return _leader_move(state, name, rng)
    raise RuleViolation(f"Nobody acts in the {state.phase} phase (MS-ROUND-2).")


def _rebellion_move(state: GameState, rng: random.Random) -> Move:
    rebellion = state.rebellion
    assert rebellion is not None
    name = rebellion.owner
    p = get_player(state, name)
    tries = []
    for leader in p.leaders:
        if not leader.in_city or not leader.active or leader.place in rebellion.cities:
            continue
        base = city_at(state, leader.place)
        if base is not None and base.kind in (GARRISON, TEMPLE):
            tries += [Move(name, "put_down", (city, leader.value)) for city in rebellion.cities]
    if tries and rng.random() < 0.7:
        return rng.choice(tries)
    return Move(name, "end_rebellion")


def _control_move(state: GameState, name: str, rng: random.Random) -> Move:
    report = control.control_report(state, name)
    if report.excess == 0 or state.current.control_settled:
        return Move(name, "end_turn")
    payments = rng.randint(0, report.affordable)
    cities = list(controlled_cities(state, name))
    rebels = tuple(sorted(rng.sample(cities, report.excess - payments)))
    return Move(name, "settle", (payments, rebels))


def _build_move(state: GameState, name: str, rng: random.Random) -> Move:
    p = get_player(state, name)
    options: list[Move] = []
    if p.goods >= 1 and p.gold >= 1:
        for suit in SUITS:
            if stack(state, suit):
                places = list(economy.explore_places(state, name)) + [None]
                options.append(Move(name, "explore", (suit, rng.choice(places))))
    for start, end in economy.road_targets(state, name):
        city = city_at(state, end)
        if city is not None and city.value <= min(p.goods, p.gold):
            options.append(Move(name, "road", (start, end)))
    for city in controlled_cities(state, name):
        have = port_at(state, city)
        room = MAX_PIERS - (have.piers if have is not None else 0)
        most = min(room, p.goods, p.gold)
        if is_coastal(city) and most >= 1:
            options.append(Move(name, "port", (city, rng.randint(1, most))))
    if p.goods >= 4 and p.gold < 2:
        options.append(Move(name, "exchange", (GOODS, 1)))
    if p.gold >= 4 and p.goods < 2:
        options.append(Move(name, "exchange", (GOLD, 1)))
    if not options or rng.random() < 0.3:
        return Move(name, "end_turn")
    return rng.choice(options)


def _leader_move(state: GameState, name: str, rng: random.Random) -> Move:
    p = get_player(state, name)
    turn = state.current
    options: list[Move] = []
    if not turn.king_changed and turn.last_leader < 0 and not turn.actions:
        for leader in p.leaders:
            if leader.place == IN_RESERVE:
                cost = economy.king_change_cost(p.king.value, leader.value)
                if cost.goods <= p.goods and cost.gold <= p.gold:
                    options.append(Move(name, "king", (leader.value,)))
    if turn.actions < leaders.MAX_ACTIONS:
        for leader in p.leaders:
            if leader.place == IN_CAPITAL or leader.value <= turn.last_leader:
                continue
            if leader.in_city and not leader.active:
                options.append(Move(name, "activate", (leader.value,)))
            if not leader.active:
                continue
            for place in leaders.move_destinations(state, name, leader.value):
                options.append(Move(name, "move", (leader.value, place)))
            base = city_at(state, leader.place) if leader.in_city else None
            if base is None or base.kind not in (GARRISON, TEMPLE):
                continue
            kind = conflict.MILITARY if base.kind == GARRISON else conflict.MISSIONARY
            for target in conflict.legal_targets(state, name, leader.value, kind):
                options.append(_attack_move(state, name, leader.value, kind, target, rng))
    if not options or rng.random() < 0.25:
        return Move(name, "end_turn")
    return rng.choice(options)


def _attack_move(state: GameState, name: str, value: int, kind: str,
                 target: conflict.Target, rng: random.Random) -> Move:
    """MS-AMB-23: the attacker's hires, then the defender's hires and whether to add the
    leader present, all within what each can pay."""
    hires = rng.randint(0, min(2, _affordable(state, name)))
    defender = None
    if target.kind in (conflict.CAPITAL, conflict.KING):
        defender = next(p.name for p in state.players if p.capital == target.place)
    else:
        defender = controller(state, target.place)
    defense = 0
    adds = False
    if defender is not None:
        defense = rng.randint(0, min(2, _affordable(state, defender)))
        if target.kind in (conflict.PORT, conflict.LEADER_TARGET, conflict.CAPITAL) or (
                kind == conflict.MILITARY and target.kind == conflict.CITY):
            present = leader_at(state, target.place)
            guard = (get_player(state, defender).king if target.kind == conflict.CAPITAL
                     else present[1] if present is not None else None)
            adds = guard is not None and guard.active and rng.random() < 0.7
    return Move(name, kind, (value, target, hires, defense, adds))


def problems(state: GameState) -> list[str]:
    """What is wrong with a position, in words (empty when it is sound): the board's own check
    (MS-CITY-1, MS-LEADER-1, MS-LEADER-3, MS-LEADER-5, MS-BUILD-5, MS-BUILD-7, MS-AMB-25), all
    twenty cities either on the board or in a stack once (MS-SETUP-4), reserves never below
    zero (MS-RES-1) and unrest from 0 to 5 (MS-UNREST-1), the order naming every player once
    (MS-DOM-6), and a game that ended saying why."""
    found = []
    try:
        check_board(state)
    except RuleViolation as exc:
        found.append(str(exc))
    cities = len(state.sites) + sum(len(stack(state, s)) for s in SUITS)
    if cities != len(SUITS) * len(CITY_VALUES):
        found.append(f"{cities} cities on the board and in the stacks, not 20 (MS-SETUP-4).")
    for p in state.players:
        if p.goods < 0 or p.gold < 0:
            found.append(f"{p.name}'s reserve is below zero (MS-RES-1).")
        if not 0 <= p.unrest <= 5:
            found.append(f"{p.name}'s unrest is {p.unrest} (MS-UNREST-1).")
    if sorted(state.order) != sorted(p.name for p in state.players):
        found.append("The order of play does not name every player once (MS-DOM-6).")
    if state.ended and not state.end_reason:
        found.append("The game ended without a reason (MS-WIN-1).")
    if not state.ended and any(p.unrest >= 5 for p in state.players):
        found.append("Unrest reached 5 and the game went on (MS-UNREST-4).")
    return found
