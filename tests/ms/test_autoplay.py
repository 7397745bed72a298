"""Games played out by random legal moves (rules/autoplay.py): no move the chooser picks is
refused, every position after every move passes the checks, and a seed replays a game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from campaign.systems.middle_sea.rules import autoplay, phases
from campaign.systems.middle_sea.rules.state import GameState

SEATS = (("Ann", "suns"), ("Ben", "moons"), ("Cy", "crowns"), ("Di", "arms"))


def _game(seed: int, players: int = 4, rounds: int = 12,
          kinds: Counter[str] | None = None) -> tuple[GameState, int]:
    rng = random.Random(seed)
    state = phases.new_game(SEATS[:players])
    names = [n for n, _ in SEATS[:players]]
    rolls = []
    rolling = names
    while True:
        roll = {n: rng.randint(0, 5) for n in rolling}
        rolls.append(roll)
        top = max(roll.values())
        rolling = [n for n in rolling if roll[n] == top]
        if len(rolling) == 1:
            break
    state = phases.settle_first_dominance(state, rolls)
    moves = 0
    while not state.ended and state.round <= rounds:
        move = autoplay.random_move(state, rng)
        assert move is not None
        state = autoplay.play(state, move)
        moves += 1
        if kinds is not None:
            kinds[move.kind] += 1
        assert autoplay.problems(state) == [], (seed, moves, move)
    return state, moves


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ms_round_1_random_legal_games_keep_every_invariant(players: int) -> None:
    """MS-ROUND-1..3, MS-CITY-1, MS-LEADER-5, MS-RES-1, MS-UNREST-1, MS-UNREST-4: eight games
    of up to twelve rounds by random legal moves; none refused, none unsound."""
    kinds: Counter[str] = Counter()
    for seed in range(8):
        state, moves = _game(seed * 10 + players, players, kinds=kinds)
        assert moves > 0
    # The games went through every kind of move the table makes.
    assert {"end_turn", "settle", "explore", "road", "king", "move", "activate",
            "military", "missionary"} <= set(kinds), kinds


def test_ms_setup_8_a_seed_replays_a_game_exactly() -> None:
    """MS-SETUP-8: the same seed gives the same rolls, moves and end."""
    assert _game(7) == _game(7)
    assert _game(7)[0] != _game(8)[0]


def test_ms_win_1_problems_are_named() -> None:
    """MS-RES-1, MS-UNREST-4, MS-DOM-6: a sound position has no problems; a broken one says
    what is wrong with the rule ID."""
    state = phases.settle_first_dominance(phases.new_game(SEATS[:2], ("N", "S")),
                                          [{"Ann": 4, "Ben": 2}])
    assert autoplay.problems(state) == []
    from dataclasses import replace

    ann = replace(state.players[0], goods=-1, unrest=5)
    broken = replace(state, players=(ann, state.players[1]), order=("Ann",))
    assert autoplay.problems(broken) == [
        "Ann's reserve is below zero (MS-RES-1).",
        "The order of play does not name every player once (MS-DOM-6).",
        "Unrest reached 5 and the game went on (MS-UNREST-4).",
    ]
