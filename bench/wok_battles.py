"""War of Kings benchmark: battles resolved by the pure rules with the app's dice, and the legal
destinations of every army on a large board.

1. A battle of 12 dice per side: 8 attacking armies against 8 defending armies in a territory
   with a fortress, each side with 8 card dice (Heroic Charge and Shield Wall stacked), so the
   attack and the counterattack each roll 12 dice. Rounds are fought until one side is gone
   (the attacker always fights on), 10,000 times, rolled from the app's face tables
   (WOK-AMB-14). Printed: time per battle and per round, and how the battles ended.
2. Movement options: 6 kingdoms with 5 ready armies each on the 300-territory board of
   bench/wok_economy.py; the destinations of every army, timed.

Run: `DEBUG=1 .venv/bin/python bench/wok_battles.py`.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import replace

from common import setup_django

BATTLES = 10_000
ARMIES = 8
CARDS = 8


def battle_state():  # type: ignore[no-untyped-def]
    from campaign.systems.war_of_kings.rules import board as wb
    from campaign.systems.war_of_kings.rules.boards import patch

    board = patch(3, 3, 1)
    codes = board.map.codes
    here, there = codes[4], codes[1]
    holdings = {here: wb.Holding("Blue", wb.TOWN, "Blue", wb.FORTRESS),
                there: wb.Holding("Red")}
    armies = tuple([wb.Army(f"R{i}", "Red", here, ready=False, came_from=there)
                    for i in range(ARMIES)]
                   + [wb.Army(f"B{i}", "Blue", here) for i in range(ARMIES)])
    state = wb.GameState(map=board.map, holdings=holdings, roads=frozenset(),
                         capitals={"Red": there, "Blue": here}, armies=armies,
                         phase=wb.BATTLE_RESOLUTION, active="Red")
    return state, here, [a.id for a in armies if a.owner == "Red"]


def one_battle(state, here, attackers, rng):  # type: ignore[no-untyped-def]
    from campaign.systems.war_of_kings.battles import simulate
    from campaign.systems.war_of_kings.rules.battle import Rolls, dice_for_round, fight_round

    def roll(sides: int) -> int:
        return rng.randint(1, sides)

    rounds = 0
    while True:
        rounds += 1
        left = [a for a in attackers if any(x.id == a for x in state.armies)]
        defenders = state.armies_in(here, "Blue")
        dice = dice_for_round(len(left), len(defenders), 0, state.fort(here), CARDS, CARDS)
        rolls = Rolls(
            simulate(roll, dice.attack - dice.bonus_att, 0, dice.bonus_att, 0,
                     attacker_side=True),
            simulate(roll, 0, dice.defense - dice.bonus_def - dice.fortification, dice.bonus_def,
                     dice.fortification, attacker_side=False),
            simulate(roll, 0, dice.counter - dice.bonus_def, dice.bonus_def, 0,
                     attacker_side=False),
            simulate(roll, dice.negation - dice.bonus_att, 0, dice.bonus_att, 0,
                     attacker_side=True))
        result = fight_round(state, here, left, rolls, card_att=CARDS, card_def=CARDS)
        state = result.state
        if result.outcome != "continue":
            return result.outcome, rounds, dice


def bench_battles() -> None:
    state, here, attackers = battle_state()
    rng = random.Random(2026)
    outcomes: Counter[str] = Counter()
    rounds_seen: list[int] = []
    from campaign.systems.war_of_kings.rules.battle import dice_for_round

    first_dice = dice_for_round(ARMIES, ARMIES, 0, state.fort(here), CARDS, CARDS)
    start = time.perf_counter()
    for _ in range(BATTLES):
        outcome, rounds, _dice = one_battle(state, here, attackers, rng)
        outcomes[outcome] += 1
        rounds_seen.append(rounds)
    elapsed = (time.perf_counter() - start) * 1000
    total_rounds = sum(rounds_seen)
    print(f"{BATTLES} battles, {ARMIES} v {ARMIES} armies behind a fortress, {CARDS} card dice "
          f"a side: first round dice attack {first_dice.attack}, defense {first_dice.defense}, "
          f"counter {first_dice.counter}, negation {first_dice.negation}")
    print(f"time per battle {elapsed / BATTLES:.3f} ms, per round {elapsed / total_rounds:.3f} ms;"
          f" rounds per battle mean {statistics.mean(rounds_seen):.2f}, "
          f"max {max(rounds_seen)}")
    for outcome in ("attacker_wins", "defender_wins", "both_wiped"):
        print(f"  {outcome:<14} {outcomes[outcome]:>6} ({100 * outcomes[outcome] / BATTLES:.1f}%)")


def bench_movement() -> None:
    from wok_economy import KINGDOMS, seeded_state

    from campaign.systems.war_of_kings.rules import board as wb
    from campaign.systems.war_of_kings.rules.armies import destinations

    _board, state = seeded_state(20, 15)
    rng = random.Random(5)
    armies = []
    for name in KINGDOMS:
        mine = state.controlled(name)
        for i in range(5):
            armies.append(wb.Army(f"{name[0]}{i}", name, rng.choice(mine)))
    state = replace(state, armies=tuple(armies), phase=wb.MOVEMENT)
    samples = []
    reach = []
    for _ in range(20):
        start = time.perf_counter()
        found = [destinations(state, a.id) for a in armies]
        samples.append((time.perf_counter() - start) * 1000)
        reach = [len(f) for f in found]
    each = statistics.median(samples) / len(armies)
    print(f"movement options for {len(armies)} armies of 6 kingdoms on 300 territories: "
          f"{statistics.median(samples):.2f} ms for all ({each:.3f} ms each), "
          f"{statistics.mean(reach):.1f} destinations on average")


def main() -> None:
    setup_django()
    bench_battles()
    bench_movement()


if __name__ == "__main__":
    main()
