"""Simple battles benchmark: 6 armies against 6 (500 points each), resolved automatically
10,000 times with server dice through the pure rules (MK-SIMPLE, suggest_allocation).

Run: `DEBUG=1 .venv/bin/python bench/simple_battles.py`. Prints the time per battle next to the
time of a trivial Python function call measured in the same run, and the distribution of
outcomes: attacker wins, defender wins, draws, and the mean reductions each side caused.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battles.rules import mighty_kingdoms as mkb  # noqa: E402

BATTLES = 10_000
SEED = 20260
ARMIES = 6


def trivial(x: int) -> int:
    return x


def baseline_us(calls: int = 1_000_000) -> float:
    start = time.perf_counter()
    for i in range(calls):
        trivial(i)
    return (time.perf_counter() - start) * 1e6 / calls


def main() -> None:
    rng = random.Random(SEED)
    attackers = [mkb.SimpleArmy(f"a{i}", 500) for i in range(ARMIES)]
    defenders = [mkb.SimpleArmy(f"d{i}", 500) for i in range(ARMIES)]
    results: Counter[str] = Counter()
    reductions = [0, 0]
    base = baseline_us()
    start = time.perf_counter()
    for _ in range(BATTLES):
        a_dice = [rng.randint(1, 6) for _ in range(ARMIES)]
        d_dice = [rng.randint(1, 6) for _ in range(ARMIES)]
        battle = mkb.resolve_simple_battle(attackers, defenders, a_dice, d_dice)
        outcome = mkb.outcome(battle)
        results[outcome.winner.value if outcome.winner else "draw"] += 1
        reductions[0] += outcome.attacker_score
        reductions[1] += outcome.defender_score
    elapsed = time.perf_counter() - start
    per_battle_us = elapsed * 1e6 / BATTLES
    print(f"trivial function call: {base:.3f} us")
    print(f"{BATTLES} battles of {ARMIES} v {ARMIES} (500 pts, dynamic Defence, seed {SEED}): "
          f"{elapsed:.2f} s total, {per_battle_us:.1f} us per battle "
          f"({per_battle_us / base:.0f}x a trivial call)")
    for key, name in (("attacker", "attacker wins"), ("defender", "defender wins"),
                      ("draw", "draws")):
        print(f"  {name:<14} {results[key]:>6} ({100 * results[key] / BATTLES:.1f}%)")
    print(f"  mean reductions: attacker {reductions[0] / BATTLES:.1f} pts, "
          f"defender {reductions[1] / BATTLES:.1f} pts")


if __name__ == "__main__":
    main()
