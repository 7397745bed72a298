"""Simple battles benchmark: 6 armies against 6 (500 points each), resolved automatically
10,000 times with server dice (MK-SIMPLE, ``suggest_allocation``).

The dice come from the server's own source, ``battle_play.server_dice`` (which rolls with
``summer_common.RNG``, the system's random generator), and each battle is resolved by the pure
rules the battle page replays, with the same automatic allocation as its "Resolve
automatically" button. No database is used.

Run: `DEBUG=1 .venv/bin/python bench/simple_battles.py` (or `make bench`, which runs every bench
script). `--seed N` puts a seeded generator in place of the server's, as the tests and the demo
do, for figures that repeat exactly. Prints the time per battle next to the time of a trivial
Python function call measured in the same run, and the distribution of outcomes: attacker wins,
defender wins, draws, the mean reductions each side caused and how many armies each side lost.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BATTLES = 10_000
ARMIES = 6


def trivial(x: int) -> int:
    return x


def baseline_us(calls: int = 1_000_000) -> float:
    start = time.perf_counter()
    for i in range(calls):
        trivial(i)
    return (time.perf_counter() - start) * 1e6 / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, help="use a seeded generator for the server dice")
    parser.add_argument("--battles", type=int, default=BATTLES)
    args = parser.parse_args()

    import django

    from bench.common import ROOT  # noqa: F401  (sets DJANGO_SETTINGS_MODULE and DEBUG)

    django.setup()
    from campaign.systems.mighty_kingdoms import battle_play, summer_common
    from campaign.systems.mighty_kingdoms.rules import battles as mkb

    if args.seed is not None:
        summer_common.RNG = random.Random(args.seed)
    source = "seeded, --seed %d" % args.seed if args.seed is not None else (
        type(summer_common.RNG).__name__)
    attackers = [mkb.SimpleArmy(f"a{i}", 500) for i in range(ARMIES)]
    defenders = [mkb.SimpleArmy(f"d{i}", 500) for i in range(ARMIES)]
    results: Counter[str] = Counter()
    reductions = [0, 0]
    lost = [0, 0]
    base = baseline_us()
    start = time.perf_counter()
    for _ in range(args.battles):
        a_dice = battle_play.server_dice(ARMIES)
        d_dice = battle_play.server_dice(ARMIES)
        battle = mkb.resolve_simple_battle(attackers, defenders, a_dice, d_dice)
        outcome = mkb.outcome(battle)
        results[outcome.winner.value if outcome.winner else "draw"] += 1
        reductions[0] += outcome.attacker_score
        reductions[1] += outcome.defender_score
        for n, side in enumerate((mkb.Side.ATTACKER, mkb.Side.DEFENDER)):
            lost[n] += sum(a.destroyed for a in battle.side(side).armies)
    elapsed = time.perf_counter() - start
    count = args.battles
    per_battle_us = elapsed * 1e6 / count
    print(f"trivial function call: {base:.3f} us")
    print(f"{count} battles of {ARMIES} v {ARMIES} (500 pts, dynamic Defence, server dice: "
          f"{source}): {elapsed:.2f} s total, {per_battle_us:.1f} us per battle "
          f"({per_battle_us / base:.0f}x a trivial call)")
    for key, name in (("attacker", "attacker wins"), ("defender", "defender wins"),
                      ("draw", "draws")):
        print(f"  {name:<14} {results[key]:>6} ({100 * results[key] / count:.1f}%)")
    print(f"  mean reductions: attacker {reductions[0] / count:.1f} pts, "
          f"defender {reductions[1] / count:.1f} pts")
    print(f"  mean armies destroyed: attacker's {lost[0] / count:.2f}, "
          f"defender's {lost[1] / count:.2f}")


if __name__ == "__main__":
    main()
